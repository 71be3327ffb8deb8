"""Exact scans of an in-memory vector matrix (issue 24): which one the SQLite store uses.

Usage: python bench/vector_scan.py [--sizes 10000,100000,1000000] [--queries 100] [--locomo DIR]
                                   [--work DIR] [--vec0]

Vectors as ``bench/scale.py`` makes them: the real embeddings of the LoCoMo turns (cached
in ``--work`` by ``scale.py``, made here otherwise) plus Gaussian noise 0.01 per dimension,
normalised; questions: LoCoMo questions embedded by the real model. For each size, p50/p95
ms per question (k 10) and recall@10 against the float32 exact scan, of:

- ``float32``: ``matrix @ q`` (BLAS), the truth; its bytes;
- ``int8 einsum``: int8 codes (one scale per row) times the float32 question, numpy's
  einsum (the int8 rows are cast in its buffer, never copied whole); top 10 by that score;
- ``int8 blocks``: the same product as float32 BLAS over blocks of 16,384 rows cast;
- ``int8 x int8 (int32)``: the question quantised too, ``np.matmul(..., dtype=int32)``
  (int8 @ int8 alone overflows int8); these two not above ``SLOW_UP_TO`` vectors;
- ``int8 + rescore R``: the int8 einsum's top R read back and scored exactly (float32);
- ``bits + rescore R``: sign bits packed (48 bytes a vector), Hamming distance by
  ``np.bitwise_count`` over 6 uint64 words, its top R scored exactly;
- ``vec0 int8`` (``--vec0``): sqlite-vec's ``vec0`` with ``int8[384]`` and a tenant partition key.

Every figure in one process, one size after the other; the load average is printed.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from locomo_data import load
from memvault.storage.embeddings import Embedder

LOCOMO = Path(__file__).resolve().parent.parent.parent / "shared" / "eval" / "locomo"
NOISE = 0.01
SLOW_UP_TO = 200_000  # above this many vectors the two slowest int8 products are not timed


def matrix_of(base: np.ndarray, size: int) -> np.ndarray:
    """``size`` unit rows: row i is base row ``i % len(base)`` plus noise seeded by ``size``."""
    rng = np.random.default_rng(size)
    out = np.empty((size, base.shape[1]), dtype=np.float32)
    for start in range(0, size, 65536):
        rows = np.arange(start, min(size, start + 65536))
        block = base[rows % len(base)] + rng.normal(0, NOISE, (len(rows), base.shape[1])).astype(np.float32)
        out[rows] = block / np.linalg.norm(block, axis=1, keepdims=True)
    return out


def quantise(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    scales = np.abs(matrix).max(axis=1) / 127.0
    return np.rint(matrix / scales[:, None]).astype(np.int8), scales.astype(np.float32)


def top(scores: np.ndarray, k: int) -> np.ndarray:
    best = np.argpartition(-scores, k)[:k]
    return best[np.argsort(-scores[best])]


def timed(fn, queries):  # type: ignore[no-untyped-def]
    ms, found = [], []
    for q in queries:
        start = time.perf_counter()
        found.append(fn(q))
        ms.append((time.perf_counter() - start) * 1000)
    ordered = sorted(ms)
    return {"p50": round(statistics.median(ordered), 2), "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 2)}, found


def recall(found: list[np.ndarray], truth: list[np.ndarray]) -> float:
    return round(sum(len(set(f[:10].tolist()) & set(t.tolist())) for f, t in zip(found, truth)) / (10 * len(truth)), 4)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--locomo", type=Path, default=LOCOMO)
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "memvault-scale")
    parser.add_argument("--vec0", action="store_true")
    args = parser.parse_args()
    by_conversation, queries = load(args.locomo)
    turns = [t.text for ts in by_conversation.values() for t in ts]
    real = Embedder()
    real.load()
    cached = sorted(args.work.glob("turns-*.npy"))
    base = np.load(cached[0]) if cached else real.embed(turns)
    questions = real.embed(random.Random(7).sample([q.question for q in queries], args.queries))
    print(f"load average {os.getloadavg()}, {os.cpu_count()} CPUs, numpy {np.__version__}", file=sys.stderr)
    for size in (int(s) for s in args.sizes.split(",")):
        matrix = matrix_of(base, size)
        codes, scales = quantise(matrix)
        bits = np.packbits(matrix > 0, axis=1).view(np.uint64)
        tenants = np.zeros(size, dtype=np.int32)
        rows: dict[str, object] = {"size": size, "bytes": {
            "float32": matrix.nbytes, "int8+scale": codes.nbytes + scales.nbytes, "bits": bits.nbytes}}
        times, truth = timed(lambda q: top(matrix @ q, 10), questions)
        rows["float32"] = times

        def int8(q: np.ndarray) -> np.ndarray:
            scores = np.einsum("ij,j->i", codes, q) * scales
            scores[tenants != 0] = -np.inf  # the tenant filter inside the scan
            return scores

        def int8_blocks(q: np.ndarray) -> np.ndarray:
            return np.concatenate([codes[i:i + 16384].astype(np.float32) @ q
                                   for i in range(0, size, 16384)]) * scales

        def int8_int32(q: np.ndarray) -> np.ndarray:
            qs = np.abs(q).max() / 127.0
            return np.matmul(codes, np.rint(q / qs).astype(np.int8), dtype=np.int32) * scales

        scans = [("int8 einsum", int8)]
        if size <= SLOW_UP_TO:
            scans += [("int8 blocks", int8_blocks), ("int8 x int8 (int32)", int8_int32)]
        for name, score in scans:
            times, found = timed(lambda q, score=score: top(score(q), 10), questions)
            rows[name] = {**times, "recall@10": recall(found, truth)}
        for r in (50, 200):
            def rescored(q: np.ndarray, r: int = r) -> np.ndarray:
                picked = top(int8(q), r)
                return picked[top(matrix[picked] @ q, 10)]
            times, found = timed(rescored, questions)
            rows[f"int8 + rescore {r}"] = {**times, "recall@10": recall(found, truth)}
        for r in (200, 1000, 3000):
            def binary(q: np.ndarray, r: int = r) -> np.ndarray:
                qbits = np.packbits(q > 0).view(np.uint64)
                distance = np.bitwise_count(bits ^ qbits).sum(axis=1, dtype=np.int32)
                picked = np.argpartition(distance, r)[:r]
                return picked[top(matrix[picked] @ q, 10)]
            times, found = timed(binary, questions)
            rows[f"bits + rescore {r}"] = {**times, "recall@10": recall(found, truth)}
        if args.vec0:
            import apsw
            import sqlite_vec
            conn = apsw.Connection(":memory:")
            conn.enable_load_extension(True)
            conn.load_extension(sqlite_vec.loadable_path())
            conn.execute("CREATE VIRTUAL TABLE v USING vec0(tenant TEXT PARTITION KEY, e int8[384])")
            with conn:
                conn.executemany("INSERT INTO v(rowid, tenant, e) VALUES (?, 't', vec_int8(?))",
                                 ((i, codes[i].tobytes()) for i in range(size)))
            knn = "SELECT rowid FROM v WHERE e MATCH vec_int8(?) AND k = 10 AND tenant = 't'"

            def vec0(q: np.ndarray) -> np.ndarray:
                qcodes = np.rint(q / (np.abs(q).max() / 127.0)).astype(np.int8)
                return np.array([r[0] for r in conn.execute(knn, (qcodes.tobytes(),))])
            times, found = timed(vec0, questions[:20])
            rows["vec0 int8 (L2 on codes)"] = {**times, "recall@10": recall(found, truth[:20])}
            conn.close()
        print(rows, flush=True)
    print(f"load average {os.getloadavg()}", file=sys.stderr)


if __name__ == "__main__":
    main()
