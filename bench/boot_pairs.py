"""The boot context and ``memory://review`` with a long review queue (issue 28): read by an older
checkout's code and by this one's, on copies of one store whose queue holds ``--pairs`` kept pairs.

Usage: python bench/boot_pairs.py STORE --base DIR [--pairs 1000] [--reads 15] [--rounds 2]

STORE is a store built by ``bench/scale.py`` (tenant "bench", scope "s"). A copy of it is given
``--pairs`` contradicting pairs kept for review, of random current memories of the kinds compared
(seed 28; written as ``consolidate.note`` writes them); each side (``--base`` imported by path, as
in ``same_recalls.side_command``) opens its own copy of that in a process of its own and reads the
boot context (2,000 tokens) then ``memory://review``, ``--reads`` times each; the sides alternate
which goes first, ``--rounds`` times. Printed per round: each side's p50 (ms, wall clock and the
process's CPU time) and base / this; then whether the two boot documents are the same but for the count of
items waiting (and the footer's token figure, which counts it), and the review documents the same.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
NOW = 1_800_000_000_000  # one clock for both sides (strength decays with it)


def fill(store_path: Path, pairs: int) -> None:
    """Keep ``pairs`` pairs of random current memories of ``consolidate.STATE_KINDS`` for review."""
    from memvault.storage.consolidate import PAIRS_KEPT, STATE_KINDS
    from memvault.storage.query import Filters
    from memvault.storage.store import Store

    store = Store(store_path, None, clock=lambda: NOW, upkeep=False)
    current = Filters(tenant="bench", scopes=["s"], now=NOW, kinds=STATE_KINDS)
    with store.backend.read("bench") as tx:
        ids = sorted(m.id for m in tx.memories("bench", filters=current, order="seq").values())
    chosen = random.Random(28).sample(ids, 2 * pairs)
    kept = {tuple(sorted(chosen[2 * i:2 * i + 2])) for i in range(pairs)}
    with store.backend.write("bench") as tx:
        tx.change_review_pairs("bench", kept, set(), PAIRS_KEPT)  # type: ignore[arg-type]
    store.close()


def side(store_path: Path, reads: int) -> dict[str, object]:
    """``reads`` boot and review reads by the memvault this process imports (ms), and the documents."""
    from memvault.storage.store import Store
    from memvault.tools.boot import boot_context
    from memvault.tools.handlers import Caller
    from memvault.tools.review import review_document

    store = Store(store_path, None, clock=lambda: NOW, upkeep=False)
    caller = Caller("bench", "s")
    out: dict[str, object] = {}
    for name, read in (("boot", lambda: boot_context(store, caller, 2_000)),
                       ("review", lambda: review_document(store, caller))):
        times, cpu = [], []
        for _ in range(reads):
            start, started = time.perf_counter(), time.process_time()
            document = read()
            cpu.append((time.process_time() - started) * 1000)
            times.append((time.perf_counter() - start) * 1000)
        out[name], out[f"{name}_ms"], out[f"{name}_cpu"] = document, times, cpu
    store.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("store", type=Path)
    parser.add_argument("--base", type=Path, help="a checkout of the older code (required)")
    parser.add_argument("--pairs", type=int, default=1_000)
    parser.add_argument("--reads", type=int, default=15)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--side", type=int, help=argparse.SUPPRESS)  # internal: one side's reads, JSON to stdout
    args = parser.parse_args()
    if args.side:
        print(json.dumps(side(args.store, args.side)))
        return
    if args.base is None:
        parser.error("--base is required")
    sys.path.insert(0, str(BENCH))
    from same_recalls import side_command

    with tempfile.TemporaryDirectory() as work:
        filled = Path(work) / "filled.db"
        shutil.copy(args.store, filled)
        fill(filled, args.pairs)
        last: dict[str, dict] = {}  # type: ignore[type-arg]
        for round_ in range(args.rounds):
            sides = [("base", args.base), ("this", None)]
            for name, code in sides if round_ % 2 == 0 else sides[::-1]:
                copy = Path(work) / f"{name}-{round_}.db"
                shutil.copy(filled, copy)
                run = subprocess.run(side_command(code, Path(work) / f"{name}-{round_}", __file__, str(copy),
                                                  "--side", str(args.reads)), capture_output=True, text=True, check=True)
                last[name] = json.loads(run.stdout)
            for clock in ("ms", "cpu"):
                p50 = {name: {k: statistics.median(last[name][f"{k}_{clock}"]) for k in ("boot", "review")}
                       for name in last}
                print(f"round {round_ + 1}, {'wall' if clock == 'ms' else 'CPU'}: " + "; ".join(
                    f"{k} p50 base {p50['base'][k]:.1f} ms, this {p50['this'][k]:.1f} ms, base/this "
                    f"{p50['base'][k] / p50['this'][k]:.2f}" for k in ("boot", "review")))
    count = re.compile(r"^.* for review: read memory://review$|within [\d,]+ tokens", re.MULTILINE)
    boots = [last[name]["boot"] for name in ("base", "this")]
    print("boot header counts:", [m.group(0) for b in boots for m in [count.search(b)] if m])
    print("boot same but for the count:", count.sub("", boots[0]) == count.sub("", boots[1]),
          "| review same:", last["base"]["review"] == last["this"]["review"])


if __name__ == "__main__":
    main()
