"""Encrypted beside plain, in one run: ``remember`` and ``recall`` latency on an SQLite store
encrypted with a key (SQLite3 Multiple Ciphers, ChaCha20-Poly1305) and on a plain one.

Usage: python bench/encryption.py [--memories 2000] [--queries 300] [--corpus real|synthetic] [--plain-only]

Both stores are filled and queried in the same loop, one operation on each in turn (the first
of the pair alternating), so both see the same machine load; the figures are p50/p95 per store
and the ratio of the p50s (encrypted / plain). Also the time to open a connection with one key
object, as a store's connections share one (its PBKDF2 derivation done once). ``--plain-only``:
the plain store alone, to compare apsw builds (apsw against apsw-sqlite3mc) run by run. Real
model, query embedding included, as bench/speed.py. Figures: docs/benchmarks.md#encryption.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

import apsw
from speed import corpus, percentile


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=2000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--corpus", choices=("real", "synthetic"), default="real")
    parser.add_argument("--eval", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "eval")
    parser.add_argument("--plain-only", action="store_true")
    args = parser.parse_args()
    texts, questions = corpus(args.corpus, args.eval, args.memories)
    questions = (questions * (args.queries // len(questions) + 1))[: args.queries]

    from memvault.storage.embeddings import Embedder
    from memvault.storage.sqlite import crypto
    from memvault.storage.sqlite.db import open_connection
    from memvault.storage.store import Store

    print(f"apsw {apsw.apsw_version()}, SQLite {apsw.sqlite_lib_version()}, ciphers: {crypto.has_ciphers()}; "
          f"load average {os.getloadavg()[0]:.2f}")
    embedder = Embedder()
    embedder.embed(questions[:20])  # loaded and warm
    with tempfile.TemporaryDirectory() as tmp:
        key_file = Path(tmp) / "key"
        key_file.write_bytes(os.urandom(32).hex().encode())
        key_file.chmod(0o600)
        names = ["plain"] if args.plain_only else ["plain", "encrypted"]
        stores = {}
        for name in names:  # each store reads the key setting once, when it opens
            if name == "encrypted":
                os.environ[crypto.KEY_FILE] = str(key_file)
            stores[name] = Store(Path(tmp) / f"{name}.db", embedder)
            os.environ.pop(crypto.KEY_FILE, None)
        remember: dict[str, list[float]] = {name: [] for name in names}
        recall: dict[str, list[float]] = {name: [] for name in names}
        opening: dict[str, list[float]] = {name: [] for name in names}
        for i, text in enumerate(texts):
            for name in names if i % 2 else names[::-1]:
                start = time.perf_counter()
                stores[name].remember(tenant="bench", scope="s", content=text)
                remember[name].append((time.perf_counter() - start) * 1000)
        for i, query in enumerate(questions):
            for name in names if i % 2 else names[::-1]:
                start = time.perf_counter()
                stores[name].recall(tenant="bench", query=query, scopes=["s", "global"], limit=5)
                recall[name].append((time.perf_counter() - start) * 1000)
        for name in names:
            stores[name].close()
        os.environ[crypto.KEY_FILE] = str(key_file)
        key = crypto.configured(Path(tmp) / "encrypted.db")
        os.environ.pop(crypto.KEY_FILE, None)
        for i in range(20):
            for name in names if i % 2 else names[::-1]:
                start = time.perf_counter()
                open_connection(Path(tmp) / f"{name}.db", key=key if name == "encrypted" else None).close()
                opening[name].append((time.perf_counter() - start) * 1000)
    for name in names:
        print(f"{name}: remember p50 {statistics.median(remember[name]):.2f} ms, p95 "
              f"{percentile(remember[name], 0.95):.2f} ms; recall at {len(texts)} memories p50 "
              f"{statistics.median(recall[name]):.2f} ms, p95 {percentile(recall[name], 0.95):.2f} ms; "
              f"open a connection p50 {statistics.median(opening[name]):.1f} ms")
    if not args.plain_only:
        ratio = {what: statistics.median(d["encrypted"]) / statistics.median(d["plain"])
                 for what, d in (("remember", remember), ("recall", recall), ("open", opening))}
        print("encrypted / plain p50: " + ", ".join(f"{k} {v:.3f}" for k, v in ratio.items()))
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
