"""Where a SQLite ``remember`` spends its time at scale (issue 9's remember target).

Usage: python bench/remember_profile.py STORE [--copy-to DIR] [--count 100] [--warm 10] [--cprofile FILE]

STORE is a store built by ``bench/scale.py`` (tenant "bench", scope "s"). It is copied
to ``--copy-to`` first (a remember writes), opened with the real model, warmed up as a
server is (``Store.warm_up``, the credential check's ``secret_warm.steps``), then 10
recalls and ``--warm`` remembers, then ``--count`` remembers of LoCoMo questions with a
numbered prefix are timed, as ``bench/scale.py`` times them. Printed as JSON: p50/p95
of the wall time, the CPU time of this process (``time.process_time``, all threads),
and of the time the calling thread held the write lock (``backend.write``'s block,
commit included), plus the load average. Run two checkouts in alternating blocks for
an A/B (the figures of separate runs are not comparable on a shared machine).
``--cprofile FILE`` also writes a cProfile of the timed remembers (all their calls, the
embedding pool's thread excluded) to FILE and prints its top 40 by cumulative time to stderr.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import json
import os
import pstats
import random
import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from locomo_data import load  # noqa: E402
from memvault.storage import secret_warm  # noqa: E402
from memvault.storage.embeddings import Embedder  # noqa: E402
from memvault.storage.store import Store  # noqa: E402

LOCOMO = Path(__file__).resolve().parent.parent.parent / "shared" / "eval" / "locomo"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("store", type=Path)
    parser.add_argument("--copy-to", type=Path, required=True)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--warm", type=int, default=10)
    parser.add_argument("--label", default="")
    parser.add_argument("--locomo", type=Path, default=LOCOMO)
    parser.add_argument("--cprofile", type=Path)
    args = parser.parse_args()
    args.copy_to.mkdir(parents=True, exist_ok=True)
    path = args.copy_to / args.store.name
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
        if Path(f"{args.store}{suffix}").exists():
            shutil.copyfile(f"{args.store}{suffix}", f"{path}{suffix}")
    _, queries = load(args.locomo)
    questions = random.Random(7).sample([q.question for q in queries], 300)
    store = Store(path, Embedder())
    store.warm_up()
    for _ in secret_warm.steps():
        pass
    for q in questions[:10]:
        store.recall(tenant="bench", query=q, scopes=["s"], limit=5)
    held: list[float] = []
    write = store.backend.write

    @contextlib.contextmanager
    def timed_write(tenant):  # type: ignore[no-untyped-def]
        with write(tenant) as tx:
            start = time.perf_counter()
            try:
                yield tx
            finally:
                pass
        held.append((time.perf_counter() - start) * 1000)  # the block and its COMMIT

    store.backend.write = timed_write  # type: ignore[method-assign]
    tag = f"{os.getpid()}-{random.random()}"
    for i in range(args.warm):
        store.remember(tenant="bench", scope="s", content=f"warm-up {tag} {i}: {questions[-1 - i]}")
    wall, cpu = [], []
    held.clear()
    profile = cProfile.Profile() if args.cprofile else None
    for i in range(args.count):
        w, c = time.perf_counter(), time.process_time()
        if profile is not None:
            profile.enable()
        store.remember(tenant="bench", scope="s", content=f"profile note {tag} {i}: {questions[i % len(questions)]}")
        if profile is not None:
            profile.disable()
        wall.append((time.perf_counter() - w) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    store.close()
    if profile is not None:
        profile.dump_stats(args.cprofile)
        pstats.Stats(str(args.cprofile), stream=sys.stderr).sort_stats("cumulative").print_stats(40)
    print(json.dumps({
        "label": args.label, "store": args.store.name, "load": round(os.getloadavg()[0], 2),
        "wall_p50": pct(wall, 0.5), "wall_p95": pct(wall, 0.95), "wall_mean": round(statistics.mean(wall), 2),
        "cpu_p50": pct(cpu, 0.5), "cpu_mean": round(statistics.mean(cpu), 2),
        "held_p50": pct(held, 0.5), "held_p95": pct(held, 0.95), "held_mean": round(statistics.mean(held), 2),
    }))


if __name__ == "__main__":
    main()
