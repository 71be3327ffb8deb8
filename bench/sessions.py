"""Sessions at length (issue 26): appending 10,000 turns to one session and reading its
newest turns within a token budget stay linear in what is done, not in what the session holds.

Usage: python bench/sessions.py [--turns 10000] [--backend sqlite|postgresql|both] [--pg-url URL]
                                [--budgets 1000,4000] [--reads 50]

1. Appends ``--turns`` turns to one session in calls of 1 turn, and to another in calls of
   100, through ``Store.episodes.append`` (redaction, token counts, one write transaction a
   call; no model). Each call is followed by the same call to a fresh session (the baseline,
   measured alongside, so the machine's load weighs on both alike): time per turn for each
   tenth of the run and its ratio to the baseline's; a ratio that stays near 1.0 while the
   session grows to ``--turns`` means an append costs the same whatever the session holds.
2. ``turns(tokens=N)`` for each budget, ``--reads`` times on the long session and on the last
   fresh one (a tenth of its turns), read in turn: the median times and their ratio (1.0: the
   read does not depend on the session's length).

Timings taken while other work shares the machine are not absolute figures: the ratios are
what this measures; the load average is printed beside them.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pgtemp import databases  # noqa: E402

from memvault.storage.records import NewTurn  # noqa: E402
from memvault.storage.store import Store  # noqa: E402

WORDS = ("deploy cluster staging database backup token rotate weekly gateway latency review invoice refund "
         "python service queue worker retry timeout cache index migration schema release branch merge test "
         "flaky login session browser design sprint roadmap model embedding vector search ranking memory "
         "agent tool prompt").split()
TOOLS = ("Bash", "Read", "Edit", "Grep", "mcp__memvault__remember")


def turns(rng: random.Random, count: int, start: int) -> list[NewTurn]:
    """``count`` turns like a coding session's: a user request, the assistant, tool calls (30-80 words)."""
    out = []
    for i in range(start, start + count):
        role = ("user", "assistant", "tool", "tool")[i % 4]
        text = f"turn {i}: " + " ".join(rng.choices(WORDS, k=rng.randint(30, 80)))
        out.append(NewTurn(role, text, tool=rng.choice(TOOLS) if role == "tool" else None,
                           call_id=f"call-{i // 4}" if role == "tool" else None))
    return out


def fill(store: Store, session: str, total: int, per_call: int) -> list[tuple[float, float]]:
    """Append ``total`` turns ``per_call`` at a time to ``session``, each call followed by the same
    call to a fresh session (a new one each tenth, so it never holds more than a tenth): seconds per
    turn of each tenth, ``(long session, fresh session)``."""
    rng = random.Random(26)
    tenth, out, written = total // 10, [], 0
    for part in range(10):
        batch = [turns(rng, per_call, written + i * per_call) for i in range(tenth // per_call)]
        spent = [0.0, 0.0]
        for call in batch:
            for side, name in enumerate((session, f"{session}-fresh-{part}")):
                start = time.perf_counter()
                store.episodes.append(tenant="bench", scope="s", session_id=name, turns=call)
                spent[side] += time.perf_counter() - start
        out.append((spent[0] / tenth, spent[1] / tenth))
        written += tenth
    return out


def read_times(store: Store, sessions: tuple[str, str], budget: int, reads: int) -> tuple[float, float]:
    """Median seconds of ``turns(tokens=budget)`` on each of ``sessions``, read in turn."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(reads):
        for side, session in enumerate(sessions):
            start = time.perf_counter()
            got = store.episodes.turns(tenant="bench", session_id=session, tokens=budget)
            times[side].append(time.perf_counter() - start)
            assert got and sum(t.tokens for t in got) <= budget
    return statistics.median(times[0]), statistics.median(times[1])


def run(db: str, label: str, total: int, budgets: list[int], reads: int) -> None:
    store = Store(db, None)
    try:
        warm = turns(random.Random(1), 4, 0)
        store.episodes.append(tenant="bench", scope="s", session_id="warm-up", turns=warm)
        for per_call in (1, 100):
            session = f"calls-of-{per_call}"
            per_turn = fill(store, session, total, per_call)
            shown = " ".join(f"{long * 1e3:.2f}/{fresh * 1e3:.2f}({long / fresh:.2f})"
                             for long, fresh in per_turn)
            print(f"{label}, calls of {per_call}: ms per turn by tenth, growing session / fresh session "
                  f"(ratio): {shown}")
            first, last = per_turn[0][0] / per_turn[0][1], per_turn[-1][0] / per_turn[-1][1]
            print(f"{label}, calls of {per_call}: {sum(long for long, _ in per_turn) * total / 10:.1f} s for "
                  f"{total:,} turns; ratio to the fresh session in the first tenth {first:.2f}, "
                  f"in the last {last:.2f}")
            for b in budgets:
                long, short = read_times(store, (session, f"{session}-fresh-9"), b, reads)
                print(f"{label}, calls of {per_call}: newest turns within {b:,} tokens: {long * 1e3:.2f} ms "
                      f"at {total:,} turns, {short * 1e3:.2f} ms at {total // 10:,} "
                      f"(ratio {long / short:.2f})")
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--pg-url")
    parser.add_argument("--budgets", default="1000,4000")
    parser.add_argument("--reads", type=int, default=50)
    args = parser.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} cores")
    if args.backend in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as folder:
            run(str(Path(folder) / "bench.db"), "sqlite", args.turns, budgets, args.reads)
    if args.backend in ("postgresql", "both"):
        with contextlib.ExitStack() as stack:
            new = stack.enter_context(databases(args.pg_url))
            run(new("bench_sessions"), "postgresql", args.turns, budgets, args.reads)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
