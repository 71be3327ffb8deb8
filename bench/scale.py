"""Scale figures of the SQLite store (issue 9): recall, remember and forget latency, the
vector index against an exact scan, file size and import rate, at each size asked for.

Usage: python bench/scale.py SIZES [--work DIR] [--queries 300] [--baseline-queries 30] [--rate-sample 1024]
                                   [--locomo DIR] [--variant integer|dequantised] [--keep-page-cache]
                                   [--json OUT] [--markdown OUT]

SIZES: comma-separated memory counts, e.g. ``10000,100000,1000000``.

Each store is built once, in ``--work`` (kept, so a second run reuses it), from a
generated JSONL file: LoCoMo turns in turn, each with a varied suffix (``(#i word
word)``) so that every text differs, written by ``transfer.import_lines`` (the code of
``memvault import``) into tenant "bench", scope "s"; then the vector index is brought
up to date (``Upkeep.index_vectors``: trained and every vector moved into its cell).

Vectors: embedding a million texts with the real model takes hours on a small
machine, so the stored vectors are the real embeddings of the LoCoMo turns (all-MiniLM-L6-v2,
one per distinct turn) plus a small random perturbation per memory (Gaussian, 0.01
per dimension, then normalised: cosine about 0.98 to the turn's own vector). The
questions are LoCoMo's, embedded by the real model; recall latency includes that
embedding. The output says so.

Measured on each store (tenant "bench", every filter of a plain recall):

- ``recall``: ``Store.recall`` (limit 5) of ``--queries`` LoCoMo questions, p50/p95 ms,
  in two passes over the same questions, each labelled: ``cold``, the first pass after the
  store is opened and warmed up as the server does at boot (``Store.warm_up``: the model
  and the time-expression parser loaded, the vector index's cells read once, into the OS's
  file cache; no question asked yet; its time is ``warm_up_s``), with the store's files
  dropped from the OS page cache first unless ``--keep-page-cache`` (``posix_fadvise``
  ``DONTNEED``: the file's pages are read from disk as needed, as after a reboot; a file
  just built or copied is otherwise all in memory); ``warm``, the second pass, once the
  pages and the per-connection counts the questions need were read by the first;
- ``vector search``, p50/p95 ms for the same questions (after the recalls: warm), query embedding excluded: the
  store's vector index (``Reader.vector``, k 50); the exact ``vec0`` KNN that the store
  used before the index (a vec0 table of the same vectors with the tenant as partition
  key, k 50; without the allowed-id list the old query also built, so a lower bound
  of its cost); numpy brute-force cosine over the same vectors held in memory. Both
  baselines are exact scans (vec0 about 3.4 s a question at 1,000,000 memories), so
  above ``BASELINE_CAP_FROM`` memories they are timed on the first ``--baseline-queries``
  questions only (the output gives the count);
- ``keyword search``, p50/p95 ms for the same questions: the store's FTS5 side alone
  (``Reader.keyword``, k 50);
- ``recall@10``: share of the exact top 10 (numpy) that the index returns in its top 10;
- ``remember`` p50 (100 new memories, real embedding included) and ``forget`` p50
  (50 of them; forget returns before its background scrub);
- ``rss_mb`` of this process after the recalls (the store and the model; before the
  baselines are loaded; the import rate below is measured after every size), in all and split into its own memory and mapped files;
- ``db_bytes_per_memory``: the database file's size over the memories it holds;
- build: import rate (memories/s, perturbed vectors: the writing alone) and index time.

Once per run: the import rate against the raw batched embedding rate of the same
texts (``--rate-sample`` texts, real model: ``Embedder.embed`` in the import's
batches, then an import of the same lines into one store, in 4 alternating rounds).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import apsw
import numpy as np
import sqlite_vec

from locomo_data import load
from memvault.storage import transfer
from memvault.storage.backend import Search
from memvault.storage.embeddings import INTEGER, VARIANT_NAMES, Embedded, Embedder
from memvault.storage.query import Filters, query_chunks
from memvault.storage.sqlite.cells import SEQ_MASK
from memvault.storage.store import Store

LOCOMO = Path(__file__).resolve().parent.parent.parent / "shared" / "eval" / "locomo"
TENANT, SCOPE = "bench", "s"
NOISE = 0.01  # standard deviation per dimension of the perturbation
WORDS = "blue river north garden copper silent winter amber quick harbour lemon violet".split()
_INDEX = re.compile(r"\(#(\d+) ")
BASELINE_CAP_FROM = 200_000  # above this many memories the exact baselines time fewer questions


def suffixed(turns: list[str], size: int) -> list[str]:
    """``size`` texts: turn ``i % len(turns)`` with the suffix ``(#i word word)``."""
    rng = random.Random(size)
    return [f"{turns[i % len(turns)]} (#{i} {rng.choice(WORDS)} {rng.choice(WORDS)})" for i in range(size)]


class PerturbedEmbedder:
    """The real model's vector of a text's LoCoMo turn plus a small random perturbation
    (seeded by the text's number), normalised; the real model's id and dimension."""

    def __init__(self, real: Embedder, base: np.ndarray) -> None:
        self.real, self.base = real, base
        self.model_id, self.dim, self.error, self.preparing = real.model_id, real.dim, None, False

    def load(self) -> None:
        return None

    def follow(self, model_id: str | None) -> bool:
        return False

    def embed_as(self, texts: list[str]) -> Embedded:
        return Embedded(self.model_id, self.embed(texts))  # type: ignore[arg-type]

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.empty((len(texts), self.base.shape[1]), dtype=np.float32)
        for row, text in enumerate(texts):
            i = int(_INDEX.search(text).group(1))  # type: ignore[union-attr]
            v = self.base[i % len(self.base)] + np.random.default_rng(i).normal(0, NOISE, self.base.shape[1])
            out[row] = v / np.linalg.norm(v)
        return out

    def windows(self, text: str) -> list[str]:
        return [text]


def percentiles(ms: list[float]) -> dict[str, float]:
    ordered = sorted(ms)
    return {"p50": round(statistics.median(ordered), 1), "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 1)}


def timed(fn, *args) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    fn(*args)
    return (time.perf_counter() - start) * 1000


def build(path: Path, texts: list[str], embedder: PerturbedEmbedder) -> dict[str, float]:
    """Import ``texts`` from a JSONL file next to ``path``, then bring the index up to date."""
    jsonl = path.with_suffix(".jsonl")
    with jsonl.open("w") as fh:
        for text in texts:
            fh.write(json.dumps({"content": text}) + "\n")
    store = Store(path, embedder)  # type: ignore[arg-type]
    start = time.perf_counter()
    with jsonl.open() as fh:
        report = transfer.import_lines(store, fh, tenant=TENANT, scope=SCOPE)
    imported = time.perf_counter() - start
    assert report.imported == len(texts), report
    start = time.perf_counter()
    store.upkeep.index_vectors()
    indexed = time.perf_counter() - start
    store.close()
    return {"import_per_s": round(len(texts) / imported), "index_s": round(indexed, 1)}


def stored_vectors(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """Every memory's seq and vector, as the store holds them."""
    conn = apsw.Connection(str(path), flags=apsw.SQLITE_OPEN_READONLY)
    rows = conn.execute(f"SELECT key & {SEQ_MASK}, embedding FROM memory_vectors ORDER BY 1").fetchall()
    conn.close()
    seqs = np.array([r[0] for r in rows])
    return seqs, np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)


def vec0_table(path: Path, seqs: np.ndarray, matrix: np.ndarray) -> apsw.Connection:
    """A vec0 table (tenant partition key, cosine) of the same vectors: the old exact scan."""
    new = not path.exists()
    conn = apsw.Connection(str(path))
    conn.enable_load_extension(True)
    conn.load_extension(sqlite_vec.loadable_path())
    if new:
        conn.execute(f"CREATE VIRTUAL TABLE v USING vec0(tenant TEXT PARTITION KEY,"
                     f" embedding float[{matrix.shape[1]}] distance_metric=cosine)")
        with conn:
            conn.executemany("INSERT INTO v(rowid, tenant, embedding) VALUES (?, ?, ?)",
                             ((int(s), TENANT, m.tobytes()) for s, m in zip(seqs, matrix)))
    return conn


def dropped_page_cache(path: Path) -> None:
    """Ask the kernel to drop the cached pages of the store's files (``posix_fadvise``
    ``DONTNEED``; written back first, as only clean pages are dropped). Reads only: the
    files are opened read-only."""
    for name in (path, Path(f"{path}-wal")):
        if name.exists():
            fd = os.open(name, os.O_RDONLY)
            try:
                os.fdatasync(fd)
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(fd)


def rss_mb() -> dict[str, float]:
    """This process's resident memory in MB: all of it, its own (anonymous) and mapped files'."""
    kb = {line.split(":")[0]: int(line.split()[1]) for line in Path("/proc/self/smaps_rollup").read_text().splitlines()[1:]}
    return {"total": round(kb["Rss"] / 1024), "anonymous": round(kb["Anonymous"] / 1024),
            "file": round((kb["Rss"] - kb["Anonymous"]) / 1024)}


def measure(
    path: Path, work: Path, real: Embedder, questions: list[str], vectors: np.ndarray, baseline_queries: int,
    drop_cache: bool,
) -> dict[str, object]:
    if drop_cache:
        dropped_page_cache(path)
    store = Store(path, real)
    start = time.perf_counter()
    store.warm_up()  # what the server does at boot (server/runtime.py ``start_warm_up``)
    warm_up_s = round(time.perf_counter() - start, 1)
    recall_ms = {
        label: [timed(lambda q=q: store.recall(tenant=TENANT, query=q, scopes=[SCOPE], limit=5)) for q in questions]
        for label in ("cold", "warm")  # dicts keep this order: cold is the first pass
    }
    rss = rss_mb()
    filters = Filters(tenant=TENANT, scopes=[SCOPE], now=store.clock())

    def index_search(q: np.ndarray, k: int) -> list[int]:
        with store.backend.read(TENANT) as tx:
            return [seq for seq, _ in tx.search(Search(filters, k=k, vector=q)).vector]

    index_ms = [timed(index_search, q, 50) for q in vectors]

    def keyword_search(question: str) -> None:
        with store.backend.read(TENANT) as tx:
            tx.search(Search(filters, k=50, words=query_chunks(question)))

    keyword_ms = [timed(keyword_search, q) for q in questions]
    seqs, matrix = stored_vectors(path)
    hits = 0
    for q in vectors:
        exact = set(seqs[np.argpartition(-(matrix @ q), 10)[:10]].tolist())
        hits += len(exact & set(index_search(q, 10)))
    baseline = vectors if len(seqs) <= BASELINE_CAP_FROM else vectors[:baseline_queries]
    numpy_ms = [timed(lambda q=q: seqs[np.argpartition(-(matrix @ q), 50)[:50]]) for q in baseline]
    vec0 = vec0_table(work / f"vec0-{len(seqs)}.db", seqs, matrix)
    knn = f"SELECT rowid, distance FROM v WHERE embedding MATCH ? AND k = 50 AND tenant = '{TENANT}'"
    vec0_ms = [timed(lambda q=q: vec0.execute(knn, (q.tobytes(),)).fetchall()) for q in baseline]
    vec0.close()
    new_ids: list[str] = []
    remember_ms = []
    for i in range(100):
        start = time.perf_counter()
        new_ids.append(store.remember(tenant=TENANT, scope=SCOPE, content=f"scale bench note {i}: {questions[i % len(questions)]}").id)
        remember_ms.append((time.perf_counter() - start) * 1000)
    forget_ms = [timed(lambda i=i: store.forget(tenant=TENANT, id=i)) for i in new_ids[:50]]
    store.close()
    return {
        "memories": len(seqs),
        "model": real.model_id,  # the store's: it follows the model its vectors were made by
        "recall_ms": {label: percentiles(ms) for label, ms in recall_ms.items()},
        "page_cache": "dropped before the cold pass" if drop_cache else "kept (the cold pass may find the file in memory)",
        "vector_search_ms": {"index": percentiles(index_ms), "vec0_exact": percentiles(vec0_ms),
                             "numpy_exact": percentiles(numpy_ms), "exact_questions": len(baseline)},
        "keyword_search_ms": percentiles(keyword_ms),
        "recall_at_10": round(hits / (10 * len(vectors)), 4),
        "remember_ms_p50": percentiles(remember_ms)["p50"],
        "forget_ms_p50": percentiles(forget_ms)["p50"],
        "rss_mb": rss,
        "warm_up_s": warm_up_s,
        "db_bytes_per_memory": round(path.stat().st_size / len(seqs)),
    }


def import_rate(real: Embedder, texts: list[str], rounds: int = 4) -> dict[str, float]:
    """Raw batched embedding rate of ``texts`` against an import of them, real model.

    In ``rounds`` alternating rounds (a part of the texts embedded alone, then imported
    into the same store), so that a change of the machine's load during the run
    weighs on both rates alike."""
    embedding = importing = 0.0
    size = -(-len(texts) // rounds)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "rate.db", real)
        for part in (texts[i:i + size] for i in range(0, len(texts), size)):
            start = time.perf_counter()
            for i in range(0, len(part), transfer.IMPORT_BATCH):
                real.embed(part[i:i + transfer.IMPORT_BATCH])
            embedding += time.perf_counter() - start
            start = time.perf_counter()
            transfer.import_lines(store, (json.dumps({"content": t}) for t in part), tenant=TENANT, scope=SCOPE)
            importing += time.perf_counter() - start
        store.close()
    raw, imported = len(texts) / embedding, len(texts) / importing
    return {"texts": len(texts), "embed_per_s": round(raw, 1), "import_per_s": round(imported, 1),
            "import_share": round(imported / raw, 3)}


def markdown(run: dict) -> str:  # type: ignore[type-arg]
    rows = [
        ("recall, cold (first pass after opening), p50 / p95 (ms)",
         lambda r: "{p50} / {p95}".format(**r["recall_ms"]["cold"])),
        ("recall, warm (second pass, same questions), p50 / p95 (ms)",
         lambda r: "{p50} / {p95}".format(**r["recall_ms"]["warm"])),
        ("OS page cache before the cold pass", lambda r: "dropped" if r["page_cache"].startswith("dropped") else "kept"),
        ("warm-up at opening, before the cold pass (s)", lambda r: str(r["warm_up_s"])),
        ("vector search, index, p50 / p95 (ms)", lambda r: "{p50} / {p95}".format(**r["vector_search_ms"]["index"])),
        ("vector search, exact vec0, p50 / p95 (ms)",
         lambda r: "{p50} / {p95}".format(**r["vector_search_ms"]["vec0_exact"])),
        ("vector search, numpy exact, p50 / p95 (ms)",
         lambda r: "{p50} / {p95}".format(**r["vector_search_ms"]["numpy_exact"])),
        ("questions timed for the exact baselines", lambda r: str(r["vector_search_ms"]["exact_questions"])),
        ("vector recall@10, index vs exact", lambda r: str(r["recall_at_10"])),
        ("keyword search (FTS5, k 50) p50 / p95 (ms)", lambda r: "{p50} / {p95}".format(**r["keyword_search_ms"])),
        ("remember p50 (ms)", lambda r: str(r["remember_ms_p50"])),
        ("forget p50 (ms)", lambda r: str(r["forget_ms_p50"])),
        ("RSS after the recalls, MB (anonymous + files)",
         lambda r: "{total} ({anonymous} + {file})".format(**r["rss_mb"])),
        ("DB bytes per memory", lambda r: str(r["db_bytes_per_memory"])),
        ("import (perturbed vectors: writing only), memories/s", lambda r: str(r["build"]["import_per_s"])),
        ("index training and moves (s)", lambda r: str(r["build"]["index_s"])),
        ("model that embedded the questions", lambda r: str(r["model"]).split("@")[0]),
    ]
    sizes = run["sizes"]
    lines = ["| measure | " + " | ".join(f"{s['memories']:,}" for s in sizes) + " |",
             "|---|" + "---|" * len(sizes)]
    lines += [f"| {name} | " + " | ".join(cell(s) for s in sizes) + " |" for name, cell in rows]
    rate = run["import_rate"]
    lines.append("")
    lines.append(f"Import with the real model: {rate['import_per_s']} memories/s against {rate['embed_per_s']} texts/s "
                 f"embedded alone in the same batches ({rate['import_share']:.0%}, {rate['texts']} texts).")
    lines.append(f"Machine: {run['machine']}. {run['vectors']}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sizes", help="comma-separated memory counts, e.g. 10000,100000")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "memvault-scale")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--baseline-queries", type=int, default=30,
                        help=f"questions timed for the exact baselines above {BASELINE_CAP_FROM:,} memories")
    parser.add_argument("--rate-sample", type=int, default=1024)
    parser.add_argument("--locomo", type=Path, default=LOCOMO)
    parser.add_argument("--variant", choices=sorted(VARIANT_NAMES), default=INTEGER,
                        help="variant of the packaged model (default: integer, what new stores use)")
    parser.add_argument("--keep-page-cache", action="store_true",
                        help="do not drop the store's files from the OS page cache before the cold pass")
    parser.add_argument("--json", type=Path, help="write the figures here as JSON")
    parser.add_argument("--markdown", type=Path, help="write the Markdown table here")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    by_conversation, queries = load(args.locomo)
    turns = [t.text for ts in by_conversation.values() for t in ts]
    questions = random.Random(7).sample([q.question for q in queries], args.queries)
    real = Embedder()
    real.follow(f"{VARIANT_NAMES[args.variant]}@")
    real.load()
    cache = args.work / f"turns-{re.sub(r'[^A-Za-z0-9]', '_', str(real.model_id))}.npy"
    if not cache.exists():
        np.save(cache, real.embed(turns))
    base = np.load(cache)
    vectors = real.embed(questions)
    run: dict = {  # type: ignore[type-arg]
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
                   f"load average {os.getloadavg()[0]:.1f} at the start, Python {platform.python_version()}",
        "vectors": f"Model {real.model_id}. Stored vectors: real embeddings of the {len(turns)} LoCoMo turns plus Gaussian noise "
                   f"({NOISE} per dimension, normalised) per memory; questions embedded by the real model.",
        "sizes": [],
    }
    for size in (int(s) for s in args.sizes.split(",")):
        path = args.work / f"scale-{size}-{args.variant}.db"  # a store keeps the variant that made its vectors
        built = json.loads(path.with_suffix(".build.json").read_text()) if path.exists() else None
        if built is None:
            built = build(path, suffixed(turns, size), PerturbedEmbedder(real, base))
            path.with_suffix(".build.json").write_text(json.dumps(built))
        figures = measure(path, args.work, real, questions, vectors, args.baseline_queries, not args.keep_page_cache)
        figures["build"] = built
        run["sizes"].append(figures)
        print(json.dumps(figures), file=sys.stderr)
    # After the sizes, so that their RSS is the store's and the model's alone.
    run["import_rate"] = import_rate(real, suffixed(turns, args.rate_sample))
    run["machine"] += f", load average {os.getloadavg()[0]:.1f} at the end"
    table = markdown(run)
    print(table)
    if args.json:
        args.json.write_text(json.dumps(run, indent=2) + "\n")
    if args.markdown:
        args.markdown.write_text(table + "\n")


if __name__ == "__main__":
    main()
