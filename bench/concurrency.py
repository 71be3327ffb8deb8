"""Who waits while another process forgets and imports (issue 9's concurrency benchmark).

Usage: python bench/concurrency.py [--memories 20000] [--seconds 30] [--workers 4] [--real-model]
                                   [--db PATH_OR_URL] [--locomo DIR]

Builds a store of ``--memories`` LoCoMo turns (``bench/scrub.py``'s way: numbered
texts, one write transaction per 1,000) and brings its vector index up to date (timed:
``index_s``), then runs two phases of ``--seconds`` each:

1. baseline: ``--workers`` processes call ``recall`` (70 %) and ``remember`` (30 %)
   in a loop through their own Store (each process warmed up first: model, time
   parser, one recall, one remember; the clock starts when all are ready);
2. the same, while one more process forgets a random stored memory every 0.2 s
   (each forget starts a background scrub) and imports 50 new lines through
   ``memvault import``'s code (``transfer.import_lines``) every 2 s.

Printed per call type and phase: count, p50, p99 and max in ms; for the second phase
also the maintenance process's own calls. For each writing call type, "write-lock
wait": the longest time its writes waited to get the write lock (this process's lock,
then ``BEGIN IMMEDIATE`` against other processes), the part of a call's time that is
waiting for others and not for the CPU (on a loaded machine the wall times are mostly
the latter). A call's excess over the baseline's p99 is
what it waited for the others (locks, checkpoints) and for the CPU. By default the
vectors come from ``bench/scrub.py``'s stand-in embedder (instant, seeded by the text),
so the waits are not hidden behind model time; ``--real-model`` uses MiniLM.
``--db`` may be a ``postgresql://`` URL of an empty database.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing as mp
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

from locomo_data import load
from scrub import LOCOMO, RandomEmbedder, build


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


WAITED: list[float] = []  # ms each write of this process waited for its write lock (in-process lock and BEGIN)


def open_store(db: str, real_model: bool):  # type: ignore[no-untyped-def]
    from memvault.storage.embeddings import Embedder
    from memvault.storage.store import Store

    store = Store(db, Embedder() if real_model else RandomEmbedder())  # type: ignore[arg-type]
    write = store.backend.write

    @contextlib.contextmanager
    def timed_write(tenant):  # type: ignore[no-untyped-def]
        asked = time.perf_counter()
        with write(tenant) as tx:
            if threading.current_thread() is threading.main_thread():  # not the background scrub's
                WAITED.append((time.perf_counter() - asked) * 1000)
            yield tx

    store.backend.write = timed_write
    return store


def waited_since(mark: int) -> float:
    """The longest write-lock wait of this process's writes since ``len(WAITED)`` was ``mark`` (0: none)."""
    return max(WAITED[mark:], default=0.0)


def ready(store, questions: list[str], start: mp.Barrier, seconds: float) -> float:  # type: ignore[no-untyped-def]
    """Warm ``store`` up (model, time parser, secret scanner, first query), wait for every
    process; the end time."""
    store.warm_up()
    store.recall(tenant="t", query=questions[0], scopes=["s"], limit=5)
    store.remember(tenant="t", scope="warm-up", content=f"warm-up {random.random()}")
    start.wait()
    return time.time() + seconds


def worker(db: str, real_model: bool, seed: int, start: mp.Barrier, seconds: float, texts: list[str],
           questions: list[str], out: mp.Queue) -> None:
    """Recall and remember for ``seconds`` once all are ready; puts [(kind, ms), ...] on ``out``."""
    store = open_store(db, real_model)
    until = ready(store, questions, start, seconds)
    rng, calls, n = random.Random(seed), [], 0
    while time.time() < until:
        start, mark = time.perf_counter(), len(WAITED)
        if rng.random() < 0.7:
            store.recall(tenant="t", query=rng.choice(questions), scopes=["s"], limit=5)
            calls.append(("recall", (time.perf_counter() - start) * 1000))
        else:
            store.remember(tenant="t", scope="s", content=f"{rng.choice(texts)} (worker {seed} note {n})")
            calls.append(("remember", (time.perf_counter() - start) * 1000))
            calls.append(("remember: write-lock wait", waited_since(mark)))
            n += 1
    store.close()
    out.put(calls)


def maintainer(db: str, real_model: bool, start: mp.Barrier, seconds: float, texts: list[str],
               questions: list[str], out: mp.Queue) -> None:
    """Forget every 0.2 s and import 50 lines every 2 s for ``seconds`` once all are ready."""
    from memvault.storage.errors import NotFound
    from memvault.storage.transfer import import_lines

    store = open_store(db, real_model)
    until = ready(store, questions, start, seconds)
    with store.backend.read("t") as tx:
        ids = [row.id for row in tx.memories("t", seqs=list(range(1, 2001))).values()]
    rng, calls, batch, next_import = random.Random(99), [], 0, time.time()
    while time.time() < until:
        if time.time() >= next_import:
            lines = [json.dumps({"content": f"{rng.choice(texts)} (import {batch}.{i})"}) for i in range(50)]
            start, mark = time.perf_counter(), len(WAITED)
            import_lines(store, lines, tenant="t", scope="s")
            calls.append(("import 50", (time.perf_counter() - start) * 1000))
            calls.append(("import 50: write-lock wait", waited_since(mark)))
            batch, next_import = batch + 1, time.time() + 2
        if ids:
            start, mark = time.perf_counter(), len(WAITED)
            try:
                store.forget(tenant="t", id=ids.pop(rng.randrange(len(ids))))
            except NotFound:
                pass
            calls.append(("forget", (time.perf_counter() - start) * 1000))
            calls.append(("forget: write-lock wait", waited_since(mark)))
        time.sleep(0.2)
    start = time.perf_counter()
    store.close()  # waits for a scrub still running
    calls.append(("close (last scrub)", (time.perf_counter() - start) * 1000))
    out.put(calls)


def phase(db: str, args: argparse.Namespace, texts: list[str], questions: list[str], maintain: bool) -> dict:
    ctx = mp.get_context("spawn")
    out: mp.Queue = ctx.Queue()
    start = ctx.Barrier(args.workers + maintain)
    procs = [ctx.Process(target=worker, args=(db, args.real_model, i, start, args.seconds, texts, questions, out))
             for i in range(args.workers)]
    if maintain:
        procs.append(ctx.Process(target=maintainer,
                                 args=(db, args.real_model, start, args.seconds, texts, questions, out)))
    for p in procs:
        p.start()
    calls: dict[str, list[float]] = {}
    for _ in procs:
        for kind, ms in out.get():
            calls.setdefault(kind, []).append(ms)
    for p in procs:
        p.join()
    return {kind: {"n": len(ms), "p50": round(statistics.median(ms), 1), "p99": round(percentile(ms, 0.99), 1),
                   "max": round(max(ms), 1)} for kind, ms in sorted(calls.items())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=20000)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--real-model", action="store_true")
    parser.add_argument("--db", help="an SQLite path or an empty postgresql:// database (default: a temporary file)")
    parser.add_argument("--locomo", type=Path, default=LOCOMO)
    args = parser.parse_args()
    turns, queries = load(args.locomo)
    texts = [t.text for conversation in turns.values() for t in conversation]
    questions = [q.question for q in queries]
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or str(Path(tmp) / "concurrency.db")
        build(db, args.memories, texts)  # type: ignore[arg-type]
        # The vector index trained and every vector in its cell before the phases: else
        # each process's background upkeep trains it at once, and the baseline measures that.
        store = open_store(db, False)
        started = time.perf_counter()
        store.upkeep.index_vectors()
        indexed = round(time.perf_counter() - started, 1)
        store.close()
        report = {
            "memories": args.memories, "workers": args.workers, "seconds": args.seconds, "index_s": indexed,
            "vectors": "MiniLM" if args.real_model else "stand-in (bench/scrub.py RandomEmbedder)",
            "baseline": phase(db, args, texts, questions, maintain=False),
            "with forgets and imports": phase(db, args, texts, questions, maintain=True),
        }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
