"""The damage check's cost (docs/storage-tuning.md#the-damage-check): SQLite's quick check of a
store (``SqliteBackend.check_damage``) from a dropped page cache and warm, and recall and remember
latency on the calling thread before, while the check runs on the store's worker (as at a server's
start), and after.

Usage: python bench/damage_check.py STORE [--tenant bench] [--scope s] [--calls 15]

STORE: an SQLite store, e.g. one ``bench/scale.py`` built (``--work``, default
``$TMPDIR/memvault-scale/scale-100000-integer.db``). It is copied first (remembers are written
into the copy); the packaged model embeds the questions and the new memories.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from scale import dropped_page_cache

from memvault.storage.embeddings import Embedder
from memvault.storage.store import Store

QUESTIONS = ["what does Caroline do on weekends?", "where did Melanie go camping?", "which book did John read?",
             "when is the charity run?", "what instrument does Jon play?"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("store", type=Path)
    parser.add_argument("--tenant", default="bench")
    parser.add_argument("--scope", default="s")
    parser.add_argument("--calls", type=int, default=15, help="recalls and remembers timed before and after")
    args = parser.parse_args()
    db = Path(tempfile.mkdtemp()) / "copy.db"
    shutil.copy(args.store, db)
    store = Store(db, Embedder(), upkeep=False)
    store.warm_up()
    out: dict[str, object] = {}

    def check() -> tuple[float, float]:
        wall, cpu = time.perf_counter(), time.thread_time()
        found = store.backend.check_damage(lambda: False)  # type: ignore[union-attr]
        assert found is None, found
        return round(time.perf_counter() - wall, 2), round(time.thread_time() - cpu, 2)

    dropped_page_cache(db)
    out["cold_s_cpu_s"] = check()
    out["warm_s_cpu_s"] = [check(), check()]
    timings: dict[str, list[float]] = {}

    def call(phase: str, i: int) -> None:
        for name, fn in (("recall", lambda: store.recall(tenant=args.tenant, scopes=[args.scope],
                                                          query=QUESTIONS[i % len(QUESTIONS)])),
                         ("remember", lambda: store.remember(tenant=args.tenant, scope=args.scope,
                                                             content=f"Note {phase} {i}: rack {i}'s fan was swapped"))):
            start = time.perf_counter()
            fn()
            timings.setdefault(f"{name}_{phase}", []).append(1000 * (time.perf_counter() - start))

    for i in range(args.calls):
        call("before", i)
    dropped_page_cache(db)
    done = threading.Event()
    start = time.perf_counter()
    store.upkeep.check_damage()
    store.worker.submit("done", done.set)
    i = 0
    while not done.is_set():
        call("during", i)
        i += 1
    out["check_on_worker_cold_s"] = round(time.perf_counter() - start, 2)
    out["wal_mb"] = round(os.path.getsize(f"{db}-wal") / 1e6, 1) if os.path.exists(f"{db}-wal") else 0
    for i in range(args.calls):
        call("after", i)
    out["calls_ms"] = {k: {"n": len(v), "p50": round(statistics.median(v), 1), "max": round(max(v), 1)}
                       for k, v in timings.items()}
    out["file_mb"] = round(os.path.getsize(db) / 1e6)
    out["load"] = os.getloadavg()
    store.close()
    shutil.rmtree(db.parent)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    sys.exit(main())
