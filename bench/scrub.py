"""What a forget costs on SQLite, and who waits for its scrub (issue 9).

Usage: python bench/scrub.py [--sizes 20000,100000] [--forgets 20] [--vacuum] [--locomo DIR]

For each size: builds a store (LoCoMo turns with a number appended, so texts differ;
random unit vectors of 384 dimensions from a stand-in embedder, written in batches
of 1,000 per transaction through the backend interface), reopens it, then runs
``--forgets`` forgets 0.5 s apart while one thread calls ``remember`` and another
``recall`` in a loop (each through the Store, so on the writer connection and on a
reader connection; 20 ms pauses). Reported, in ms: ``alone_*``, forgets one at a
time with nothing else running, each followed by its scrub; then, under that load,
after 3 s of warm-up: forget p50
and max; the background scrub's duration p50 and max; remember, recall and the wait
of each write transaction for the file's write lock (``BEGIN IMMEDIATE``: what a
checkpoint holds, as another process would see it), p50 and max, over all calls and
over the calls that overlapped a scrub. ``--vacuum`` also times one ``VACUUM`` of the file (what
the scrub used to be). Prints one JSON document per size.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

from memvault.storage import validate
from memvault.storage.literal import literal_tokens
from memvault.storage.backend import NewRow
from memvault.storage.embeddings import Embedded
from memvault.storage.ids import new_id
from memvault.storage.query import Filters
from memvault.storage.sqlite import backend as sqlite_backend
from memvault.storage.store import Store

LOCOMO = Path(__file__).resolve().parent.parent.parent / "shared" / "eval" / "locomo"
DIM = 384
BATCH = 1000


class RandomEmbedder:
    """Unit vectors drawn from a seed made of the text: instant, and as large as MiniLM's."""

    model_id = "bench-random@384"
    dim = DIM
    error = None
    preparing = False

    def load(self) -> None:
        return None

    def follow(self, model_id: str | None) -> bool:
        return False

    def embed_as(self, texts: list[str]) -> Embedded:
        return Embedded(self.model_id, self.embed(texts))

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.empty((len(texts), DIM), dtype=np.float32)
        for i, text in enumerate(texts):
            seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
            v = np.random.default_rng(seed).standard_normal(DIM)
            out[i] = v / np.linalg.norm(v)
        return out

    def windows(self, text: str) -> list[str]:
        return [text]


def build(path: Path, size: int, texts: list[str]) -> None:
    """``size`` memories of tenant "t", scope "s", in transactions of ``BATCH``."""
    embedder = RandomEmbedder()
    store = Store(path, embedder)  # type: ignore[arg-type]
    try:
        for start in range(0, size, BATCH):
            batch = [f"{texts[i % len(texts)]} (#{i})" for i in range(start, min(size, start + BATCH))]
            vectors = embedder.embed(batch)
            with store.backend.write(None) as tx:
                for text, vector in zip(batch, vectors):
                    tx.insert(NewRow(
                        id=new_id(), tenant="t", scope="s", kind="episode", content=text,
                        content_hash=validate.content_hash(text), tags=(), importance=5, source=None,
                        observed_at=1_700_000_000_000 + start, recorded_at=1_700_000_000_000, tokens=literal_tokens([text])[0], vectors=[vector],
                        model=embedder.model_id,
                    ))
    finally:
        store.close()


def summary(ms: list[float]) -> dict[str, float | int]:
    return {"n": len(ms), "p50": round(statistics.median(ms), 1), "max": round(max(ms), 1)} if ms else {"n": 0}


def measure(path: Path, forgets: int, texts: list[str]) -> dict[str, object]:
    store = Store(path, RandomEmbedder())  # type: ignore[arg-type]
    scrubs: list[tuple[float, float]] = []  # (start, end), perf_counter seconds
    real_scrub = sqlite_backend.scrub

    def timed_scrub(conn, *args):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        try:
            return real_scrub(conn, *args)
        finally:
            scrubs.append((start, time.perf_counter()))

    sqlite_backend.scrub = timed_scrub
    calls: dict[str, list[tuple[float, float]]] = {"remember": [], "recall": [], "file_lock": []}
    stop, measuring = threading.Event(), threading.Event()
    real_transaction = sqlite_backend.write_transaction

    @contextlib.contextmanager
    def timed_transaction(conn):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        with real_transaction(conn) as same:
            if measuring.is_set():  # BEGIN IMMEDIATE: the wait for the file's write lock (a checkpoint's, another process's)
                calls["file_lock"].append((start, time.perf_counter()))
            yield same

    sqlite_backend.write_transaction = timed_transaction
    rng = random.Random(1)

    def loop(kind: str) -> None:
        n = 0
        while not stop.is_set():
            text = f"{rng.choice(texts)} (bench {kind} {n})"
            start = time.perf_counter()
            if kind == "remember":
                store.remember(tenant="t", scope="s", content=text)
            else:
                store.recall(tenant="t", query=text[:60], scopes=["s"])
            if measuring.is_set():
                calls[kind].append((start, time.perf_counter()))
            n += 1
            time.sleep(0.02)  # leave the CPU to the rest (2 shared cores)

    try:
        with store.backend.read(None) as tx:
            victims = [m.id for m in tx.memories("t", filters=Filters(tenant="t", scopes=["s"], now=2**62), limit=2 * forgets).values()]
        alone_ms = []
        for memory_id in victims[forgets:]:  # nothing else running: each forget, then its scrub
            start = time.perf_counter()
            store.forget(tenant="t", id=memory_id)
            alone_ms.append((time.perf_counter() - start) * 1000)
            assert store.upkeep.scrub()
        alone_scrubs = [(e - s) * 1000 for s, e in scrubs]
        scrubs.clear()
        threads = [threading.Thread(target=loop, args=(k,)) for k in ("remember", "recall")]
        for t in threads:
            t.start()
        time.sleep(3)  # warm up: each thread's connection, the time parser
        measuring.set()
        time.sleep(2)
        forget_ms = []
        for memory_id in victims[:forgets]:
            start = time.perf_counter()
            assert store.forget(tenant="t", id=memory_id).forgotten_ids == [memory_id]
            forget_ms.append((time.perf_counter() - start) * 1000)
            time.sleep(0.5)
        done_under_load = store.upkeep.scrub()  # False: readers and writers never left the WAL free
        time.sleep(1)
        stop.set()
        for t in threads:
            t.join()
        done_after_load = store.upkeep.scrub()
    finally:
        sqlite_backend.scrub, sqlite_backend.write_transaction = real_scrub, real_transaction
        store.close()

    def overlapping(spans: list[tuple[float, float]]) -> list[float]:
        return [(e - s) * 1000 for s, e in spans if any(s < se and e > ss for ss, se in scrubs)]

    return {
        "alone_forget_ms": summary(alone_ms),
        "alone_scrub_ms": summary(alone_scrubs),
        "forget_ms": summary(forget_ms),
        "scrubbed_under_load": done_under_load,
        "scrubbed_after_load": done_after_load,
        "scrub_ms": summary([(e - s) * 1000 for s, e in scrubs]),
        **{f"{k}_ms_all": summary([(e - s) * 1000 for s, e in v]) for k, v in calls.items()},
        **{f"{k}_ms_during_scrub": summary(overlapping(v)) for k, v in calls.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="20000,100000")
    parser.add_argument("--forgets", type=int, default=20)
    parser.add_argument("--vacuum", action="store_true", help="also time one VACUUM of each file")
    parser.add_argument("--locomo", type=Path, default=LOCOMO, help="folder holding LoCoMo's memories.jsonl")
    args = parser.parse_args()
    texts = [json.loads(line)["text"] for line in (args.locomo / "memories.jsonl").open()]
    for size in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "bench.db"
            start = time.perf_counter()
            build(path, size, texts)
            report: dict[str, object] = {"memories": size, "build_s": round(time.perf_counter() - start, 1),
                                         "file_mb": round(path.stat().st_size / 1e6, 1)}
            report.update(measure(path, args.forgets, texts))
            if args.vacuum:
                store = Store(path, RandomEmbedder())  # type: ignore[arg-type]
                start = time.perf_counter()
                with store.backend._lock:  # bench only: the old scrub, on the writer connection, for comparison
                    store.backend._conn.execute("VACUUM")
                report["vacuum_ms"] = round((time.perf_counter() - start) * 1000)
                store.close()
            print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main()
