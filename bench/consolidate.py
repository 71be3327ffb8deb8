"""`memvault consolidate` over a large SQLite store (issue 27): the run's time and its longest hold
of the write lock (target: at most 100 ms, as today's maintenance).

Usage: python bench/consolidate.py [--size 100000] [--work DIR] [--new 1000] [--json OUT]

The store (tenant "bench", 4 scopes) is built once in ``--work`` through ``memvault import``'s code:
60 % episodes of importance 3 spread over the two years before the bench's clock (all old enough to
be compacted: about 145 a scope and ISO week, so each week needs two digests), 40 % facts,
decisions, preferences and procedures (random words and a number), 1 % of which are stated a
second time later with another number (a contradicting pair). Vectors: a bag of words, each word a
random direction of 384 dimensions (the packaged model's), so that embedding 100,000 texts takes
seconds; the vector index is
brought up to date before the runs, as ``bench/scale.py`` does.

Measured, on a copy of the built store each time:
- run 1: the first consolidation (every episode compacted, every state memory compared);
- run 2: after ``--new`` more memories (half old episodes, half facts), the incremental run;
- run 3: a run again with nothing new (idempotent: nothing is written but the marks);
- each run's time, its digests and comparisons, and every write transaction's hold (from asking
  for the lock to the commit): count, p50, p99 and the longest;
- as a baseline on the same store and load: the hold of 200 ``remember`` write transactions;
- after the runs, ``memory://boot`` (2,000 tokens) and the review it asks for, three times each.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from memvault.storage import transfer
from memvault.storage.consolidate import consolidate
from memvault.storage.embeddings import Embedded
from memvault.storage.store import Store
from memvault.storage.timefmt import format_ms
from memvault.tools.boot import boot_context
from memvault.tools.caller import Caller

TENANT, SCOPES = "bench", ("app", "infra", "docs", "ops")
NOW = 1_767_225_600_000  # 2026-01-01T00:00:00Z: the bench's clock
DAY_MS = 86_400_000
DIM = 384
VOCABULARY = [hashlib.sha1(str(i).encode()).hexdigest()[:7] for i in range(5_000)]
KINDS = ("fact", "decision", "preference", "procedure")


class HashedEmbedder:
    """Bag-of-words vectors (``DIM`` dimensions, unit length), each word a random direction: texts
    sharing words are close, unrelated ones nearly orthogonal."""

    model_id, dim, error, preparing = "bench-hashed-bow@1", DIM, None, False

    def load(self) -> None:
        return None

    def follow(self, model_id: str | None) -> bool:
        return False

    def embed_as(self, texts: list[str]) -> Embedded:
        return Embedded(self.model_id, self.embed(texts))  # type: ignore[arg-type]

    def __init__(self) -> None:
        self._words: dict[str, np.ndarray] = {}

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                out[row] += self._word(word)
            out[row] /= max(float(np.linalg.norm(out[row])), 1e-9)
        return out

    def _word(self, word: str) -> np.ndarray:
        """A word's own random direction (seeded by its hash): unrelated words are nearly orthogonal."""
        if word not in self._words:
            seed = int(hashlib.md5(word.encode()).hexdigest()[:8], 16)
            self._words[word] = np.random.default_rng(seed).standard_normal(DIM).astype(np.float32)
        return self._words[word]

    def windows(self, text: str) -> list[str]:
        return [text]


def lines(size: int, seed: int, offset: int = 0) -> Iterator[str]:
    """``size`` export-format lines (see the module docstring)."""
    rng = random.Random(seed)
    for i in range(offset, offset + size):
        scope = SCOPES[i % len(SCOPES)]
        words = rng.sample(VOCABULARY, 8)
        if rng.random() < 0.6:
            observed = NOW - rng.randint(31, 760) * DAY_MS
            record = {"content": f"Worked on {' '.join(words[:5])} (#{i}). Then {' '.join(words[5:])}.",
                      "kind": "episode", "importance": 3, "scope": scope, "observed_at": format_ms(observed)}
            yield json.dumps(record)
            continue
        observed = NOW - rng.randint(0, 700) * DAY_MS
        kind = KINDS[i % len(KINDS)]
        yield json.dumps({"content": f"The {' '.join(words[:5])} is {rng.randint(10, 99)}.", "kind": kind,
                          "scope": scope, "observed_at": format_ms(observed)})
        if rng.random() < 0.01:  # stated again later, with another number
            later = format_ms(min(NOW, observed + DAY_MS))
            yield json.dumps({"content": f"The {' '.join(words[:5])} is {rng.randint(100, 999)}.",
                              "kind": kind, "scope": scope, "observed_at": later})


def build(path: Path, size: int) -> dict[str, float]:
    store = Store(path, HashedEmbedder(), clock=lambda: NOW)  # type: ignore[arg-type]
    try:
        start = time.perf_counter()
        report = transfer.import_lines(store, lines(size, seed=size), tenant=TENANT, scope=SCOPES[0])
        imported = time.perf_counter() - start
        store.upkeep.index_vectors()
    finally:
        store.close()
    assert not report.failed, report.failed[:3]
    return {"memories": report.imported, "import_s": round(imported, 1)}


@contextmanager
def holds_timed(store: Store) -> Iterator[list[float]]:
    """Every write transaction's hold (ms, from asking for the lock to the commit) while inside."""
    holds: list[float] = []
    write = store.backend.write

    @contextmanager
    def timed(tenant: str | None) -> Iterator[object]:
        start = time.perf_counter()
        try:
            with write(tenant) as tx:
                yield tx
        finally:
            holds.append((time.perf_counter() - start) * 1000)

    store.backend.write = timed  # type: ignore[method-assign]
    try:
        yield holds
    finally:
        store.backend.write = write  # type: ignore[method-assign]


def summary(holds: list[float]) -> dict[str, float]:
    ordered = sorted(holds) or [0.0]
    return {"writes": len(holds), "p50_ms": round(statistics.median(ordered), 2),
            "p99_ms": round(ordered[int(0.99 * (len(ordered) - 1))], 2), "max_ms": round(ordered[-1], 2)}


def run(store: Store) -> dict[str, object]:
    with holds_timed(store) as holds:
        start = time.perf_counter()
        report = consolidate(store)
        seconds = time.perf_counter() - start
    return {"seconds": round(seconds, 1), "digests": len(report.compacted),
            "episodes_compacted": sum(len(c.sources) for c in report.compacted), "compared": report.compared,
            "contradictions_found": report.contradictions, "holds": summary(holds),
            "load": round(os.getloadavg()[0], 2)}


def boot_timed(store: Store) -> dict[str, object]:
    """``memory://boot`` (2,000 tokens) of scope "app" and the review it asks for, three times each (ms)."""
    caller = Caller(tenant=TENANT, scope="app")
    review, boot = [], []
    for _ in range(3):
        start = time.perf_counter()
        found = store.review(TENANT, caller.scopes(None))
        review.append(round((time.perf_counter() - start) * 1000, 1))
        start = time.perf_counter()
        boot_context(store, caller, 2_000)
        boot.append(round((time.perf_counter() - start) * 1000, 1))
    return {"review_ms": review, "boot_ms": boot, "decayed_listed": len(found.decayed), "more": found.more}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--new", type=int, default=1_000)
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "memvault-consolidate")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    built_path = args.work / f"built-{args.size}.db"
    if not built_path.exists():
        print(json.dumps({"build": build(built_path, args.size)}), file=sys.stderr)
    path = args.work / "run.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(built_path, path)
    store = Store(path, HashedEmbedder(), clock=lambda: NOW)  # type: ignore[arg-type]
    figures: dict[str, object] = {"size": args.size, "load_at_start": round(os.getloadavg()[0], 2)}
    try:
        with holds_timed(store) as holds:
            for n in range(200):
                store.remember(tenant=TENANT, scope="app", kind="episode",
                               content=f"Baseline memory {n} about {VOCABULARY[n]}.")
        figures["remember_holds"] = summary(holds)
        figures["run_1"] = run(store)
        print(json.dumps(figures["run_1"]), file=sys.stderr)
        transfer.import_lines(store, lines(args.new, seed=1, offset=args.size), tenant=TENANT, scope="app")
        figures["run_2_after_new"] = run(store)
        figures["run_3_nothing_new"] = run(store)
        figures["boot_after"] = boot_timed(store)
    finally:
        store.close()
    figures["load_at_end"] = round(os.getloadavg()[0], 2)
    print(json.dumps(figures, indent=2))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
