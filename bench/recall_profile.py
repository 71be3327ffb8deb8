"""Where a SQLite ``recall`` spends its time at scale, question by question (issue 9).

Usage: python bench/recall_profile.py STORE [--queries 300] [--passes 2] [--top 15] [--json OUT]
                                            [--drop-cache]

STORE is a store built by ``bench/scale.py`` (tenant "bench", scope "s"), opened as it is
(copy it first: opening a store may write to it). The same 300 LoCoMo questions as
``bench/scale.py`` (seed 7) are recalled (limit 5) ``--passes`` times; pass 1 follows
the opening directly (cold: nothing of the store read yet by this process; with
``--drop-cache`` the store's files are also dropped from the OS page cache first,
``posix_fadvise(DONTNEED)``, so the first pass reads them from disk).

Each recall's wall time is split by wrapping the backend's reader methods and the
embedder (times in ms, summed per question; the embedding runs on a worker thread
alongside the keyword side, so the parts overlap): ``embed``,
``keyword`` (with its ``bound`` inside), ``vector``,
``terms`` (document counts), ``rows``, ``document_terms``, ``similarity``,
``contains`` (unknown-name checks), and ``rest`` (recall minus the outermost parts run
on the recall's own thread: ranking, Python, waiting for the embedding); ``cpu``, the
CPU time of the process (all threads) during the recall.
Printed as JSON to stdout: per pass the p50/p95 of each, and the ``--top`` slowest
questions of the last pass with their parts and the keyword bound taken
(rare/common chunks with their document counts).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from locomo_data import load  # noqa: E402
from memvault.storage.embeddings import Embedder  # noqa: E402
from memvault.storage.query import query_chunks  # noqa: E402
from memvault.storage.sqlite import tx as sqlite_tx  # noqa: E402
from memvault.storage.store import Store  # noqa: E402

LOCOMO = Path(__file__).resolve().parent.parent.parent / "shared" / "eval" / "locomo"
TENANT, SCOPE = "bench", "s"
PARTS = {
    "_keyword": "keyword", "_keyword_bound": "bound", "_vector": "vector", "_term_documents": "terms",
    "memories": "rows", "_document_terms": "document_terms", "_similarity": "similarity", "_contains": "contains",
}

_acc: collections.Counter[str] = collections.Counter()
_main_thread = threading.main_thread()
_depth = threading.local()


def _wrap(owner: object, name: str, label: str) -> None:
    original = getattr(owner, name)

    def timed(*args, **kwargs):  # type: ignore[no-untyped-def]
        depth = getattr(_depth, "n", 0)
        _depth.n = depth + 1
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            _depth.n = depth
            ms = (time.perf_counter() - start) * 1000
            _acc[label] += ms
            if depth == 0 and threading.current_thread() is _main_thread:  # the recall's own thread, outermost part
                _acc["_own"] += ms

    setattr(owner, name, timed)


def drop_cache(path: Path) -> None:
    """Ask the kernel to forget the cached pages of the store's files (clean pages only)."""
    for suffix in ("", "-wal", "-shm"):
        name = f"{path}{suffix}"
        if os.path.exists(name):
            fd = os.open(name, os.O_RDONLY)
            try:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(fd)


def pct(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"p50": round(statistics.median(ordered), 1), "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 1),
            "max": round(ordered[-1], 1)}


def bound_of(store: Store, question: str) -> dict[str, object]:
    """The keyword bound this question takes: its chunks with their document counts."""
    words = query_chunks(question)
    with store.backend.read(TENANT) as tx:
        table, documents = tx._keyword_index(TENANT)
        terms = [[t for w in chunk for t in tx._tokenize(w)] for chunk in words]
        docs = tx._term_documents(table, sorted({t for ts in terms for t in ts}))
        counts = [min((sum(docs.get(t, (0, 0))) for t in ts), default=0) for ts in terms]
        bound = tx._keyword_bound(table, documents, words)
    return {"chunks": {" ".join(c): n for c, n in zip(words, counts)}, "bound": list(bound)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("store", type=Path)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--drop-cache", action="store_true")
    parser.add_argument("--locomo", type=Path, default=LOCOMO)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    _, queries = load(args.locomo)
    questions = random.Random(7).sample([q.question for q in queries], args.queries)
    for name, label in PARTS.items():
        _wrap(sqlite_tx.SqliteTransaction, name, label)
    _wrap(Embedder, "embed", "embed")
    real = Embedder()
    real.load()
    real.embed(["warm the model"])
    if args.drop_cache:
        drop_cache(args.store)
    store = Store(args.store, real)
    start = time.perf_counter()
    store.warm_up()  # what the server does at boot, before the first pass
    out: dict[str, object] = {"store": str(args.store), "warm_up_s": round(time.perf_counter() - start, 2),
                              "load_start": os.getloadavg()[0], "passes": []}
    per_question: list[dict[str, float]] = []
    for number in range(args.passes):
        per_question = []
        for q in questions:
            _acc.clear()
            cpu = time.process_time()
            start = time.perf_counter()
            store.recall(tenant=TENANT, query=q, scopes=[SCOPE], limit=5)
            total = (time.perf_counter() - start) * 1000
            parts = {k: round(v, 2) for k, v in _acc.items() if not k.startswith("_")}
            parts["cpu"] = round((time.process_time() - cpu) * 1000, 2)
            parts["rest"] = round(total - _acc["_own"], 2)
            parts["recall"] = round(total, 2)
            per_question.append(parts)
        labels = sorted({k for p in per_question for k in p})
        out["passes"].append({"pass": number + 1, **{k: pct([p.get(k, 0.0) for p in per_question]) for k in labels}})  # type: ignore[union-attr]
    order = sorted(range(len(questions)), key=lambda i: per_question[i]["recall"], reverse=True)[: args.top]
    out["slowest"] = [{"question": questions[i], **per_question[i], **bound_of(store, questions[i])} for i in order]
    out["load_end"] = os.getloadavg()[0]
    store.close()
    text = json.dumps(out, indent=1)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
