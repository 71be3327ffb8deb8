"""One fact changed N times without supersede (trial verify63 N7): pairs kept, how many versions ``remember``
names in ``contradicts``, older versions left unmarked, marks naming a newer that is outdated itself, and the
time of ``Store.outdating`` over every version (boot's marks) beside one step of the kept pairs (the mark
before chains were followed: ``review.waiting_newer``), interleaved, as a ratio within the run.

Usage: python bench/change_chains.py [N ...]   (default 5 20 62)
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from memvault.storage import review
from memvault.storage.embeddings import Embedder
from memvault.storage.store import Store

NAMES = ["Maria", "Tomas", "Aiko", "Bilal", "Chen", "Dmitri", "Eva", "Farah", "Goran", "Hana", "Ivan", "Jonas", "Keiko",
         "Lars", "Mina", "Nuno", "Olga", "Priya", "Quinn", "Rafael", "Sanna", "Teo", "Uma", "Viktor", "Wen", "Xenia",
         "Yusuf", "Zora"]
ROUNDS = 25


def version(k: int) -> str:
    return f"The release manager is {NAMES[k % 28]}{'' if k < 28 else ' ' + 'ABC'[k // 28] + '.'}"


def measure(store: Store, ids: list[str], named: list[int], label: str) -> None:
    waiting = store.review("t", ["chain"])
    memories = [store.get(tenant="t", id=i) for i in ids]
    marks = store.outdating("t", ["chain", "global"], memories)
    n = len(ids)
    unmarked = sum(1 for i in ids[:-1] if i not in marks)
    chained = sum(1 for i in ids[:-1] if marks.get(i) in marks)
    newest = sum(1 for i in ids[:-1] if marks.get(i) == ids[-1])
    print(f"n={n} {label}: pairs {len(waiting.contradictions)}, contradicts named max {max(named)} "
          f"mean {sum(named) / n:.1f}, olders unmarked {unmarked}, marked by an outdated newer {chained}, "
          f"by the newest {newest}/{n - 1}")


def timing(store: Store, ids: list[str]) -> None:
    memories = [store.get(tenant="t", id=i) for i in ids]
    followed, spent = review.kept_newer, {"one step": [], "followed": []}
    try:
        for _ in range(ROUNDS):
            for label, reader in (("one step", review.waiting_newer), ("followed", followed)):
                review.kept_newer = reader  # type: ignore[assignment]
                started = time.perf_counter()
                store.outdating("t", ["chain", "global"], memories)
                spent[label].append(time.perf_counter() - started)
    finally:
        review.kept_newer = followed  # type: ignore[assignment]
    one, chain = (statistics.median(spent[k]) * 1000 for k in ("one step", "followed"))
    print(f"  Store.outdating of {len(ids)} versions: one step {one:.2f} ms, followed {chain:.2f} ms, "
          f"ratio {chain / one:.2f}")


def main(sizes: list[int]) -> None:
    embedder = Embedder()
    embedder.load()
    for n in sizes:
        store = Store(Path(tempfile.mkdtemp()) / "m.db", embedder)
        store.upkeep.schedule_consolidation(0, 10**9)  # pairs kept at once, as a server keeps them
        ids, named = [], []
        for k in range(n):
            stored = store.remember(tenant="t", scope="chain", content=version(k),
                                    observed_at=f"2026-01-01T{k // 60:02d}:{k % 60:02d}:00Z")
            ids.append(stored.id)
            named.append(len(stored.contradicts))
        measure(store, ids, named, "noted")
        consolidate.consolidate(store)
        measure(store, ids, named, "consolidated")
        timing(store, ids)
        store.close()


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [5, 20, 62])
