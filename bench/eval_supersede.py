"""Recall after real supersedes: the agentic set with each supersession question's outdated
memories superseded, in time order, by the current one (instead of stored beside it).

Usage: python bench/eval_supersede.py ../shared/eval/agentic [--db FOLDER]

The folder's supersession questions (``superseded_ids`` set) name the outdated memories
and the current one: here the outdated ones form a chain, oldest first, ending in the
current one, stored with ``Store.supersede`` when the folder reaches it (a memory already
linked by an earlier question is left as that question linked it). Two sets of questions
are asked with the default recall (no history):

- the supersession questions themselves: hit@1, hit@5 and MRR of the current memory;
- old identifiers: every word of a superseded memory with a digit or an inner hyphen
  ("Lindgarden-5G", "v3.9.0", "HPC-4471") that its chain's current memory does not
  contain, asked alone: the current memory (the head of the chain) is the answer. Also
  the mean confidence of the head when it comes first, and how often recall abstained.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
from pathlib import Path

from locomo_data import Turn, load

from memvault.storage.embeddings import Embedder
from memvault.storage.store import Store
from memvault.storage.timefmt import parse_iso

_IDENTIFIER = re.compile(r"[\w.]*(?:\d[\w.]*|\w-\w)[\w.-]*")


def chains(folder: Path) -> tuple[dict[str, str], list[tuple[str, str, list[str]]]]:
    """``successor`` (superseded folder id -> the folder id that supersedes it) and each
    supersession question as ``(question, current id, superseded ids)``."""
    turns, queries = load(folder)
    observed = {t.id: t.observed_at for ts in turns.values() for t in ts}
    successor: dict[str, str] = {}
    asked = []
    for q in queries:
        if not q.superseded or len(q.relevant) != 1:
            continue
        (current,) = q.relevant
        links = sorted(q.superseded, key=observed.__getitem__) + [current]
        for old, new in zip(links, links[1:]):
            if old not in successor and new not in successor.values():
                successor[old] = new
        asked.append((q.question, current, sorted(q.superseded)))
    return successor, asked


def ingest(store: Store, turns: dict[str, list[Turn]], successor: dict[str, str]) -> dict[str, str]:
    """Store every memory of ``turns``, a successor as a supersede of its predecessor; folder id -> memvault id."""
    before = {new: old for old, new in successor.items()}
    ids: dict[str, str] = {}
    for conversation, conv_turns in turns.items():
        for t in conv_turns:
            fields = dict(kind=t.kind or "episode", tags=list(t.tags) or None, importance=t.importance,
                          observed_at=t.observed_at)
            if t.id in before and before[t.id] in ids:
                ids[t.id] = store.supersede(tenant="eval", id=ids[before[t.id]], content=t.content, **fields).id
            else:
                ids[t.id] = store.remember(tenant="eval", scope=conversation, content=t.content, **fields).id
    return ids


def head(folder_id: str, successor: dict[str, str]) -> str:
    while folder_id in successor:
        folder_id = successor[folder_id]
    return folder_id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--db", type=Path, help="database file (default: temporary)")
    parser.add_argument("--misses", action="store_true", help="print each old identifier whose head is not first")
    args = parser.parse_args()
    turns, _ = load(args.folder)
    text = {t.id: t.content for ts in turns.values() for t in ts}
    scope = {t.id: t.conversation for ts in turns.values() for t in ts}
    successor, asked = chains(args.folder)
    end = max(parse_iso("observed_at", t.observed_at) for ts in turns.values() for t in ts) + 86_400_000
    db = args.db or Path(tempfile.mkdtemp()) / "supersede.db"
    embedder = Embedder()
    embedder.load()
    store = Store(db, embedder, clock=lambda: end)
    try:
        ids = ingest(store, turns, successor)

        def ranked(query: str, conversation: str) -> tuple[list[str], list[float], bool]:
            out = store.recall(tenant="eval", query=query, scopes=[conversation], limit=10)
            return [h.memory.id for h in out.hits], [h.confidence for h in out.hits], out.abstained

        ranks = []
        for question, current, _ in asked:
            found, _, _ = ranked(question, scope[current])
            want = ids[head(current, successor)]
            ranks.append(found.index(want) + 1 if want in found else None)
        old_ranks, sure, abstained = [], [], 0
        for old in successor:
            current = head(old, successor)
            words = {w.strip(".") for w in _IDENTIFIER.findall(text[old])}
            for word in sorted(w for w in words if len(w) >= 3 and w.lower() not in text[current].lower()):
                found, confidence, gave_up = ranked(word, scope[old])
                abstained += gave_up
                rank = found.index(ids[current]) + 1 if ids[current] in found else None
                old_ranks.append(rank)
                if args.misses and rank != 1:
                    first = store.get(tenant="eval", id=found[0]).content[:70] if found else "(abstained)"
                    print(f"miss {word!r}: head at {rank}; first: {first}", file=sys.stderr)
                if rank == 1:
                    sure.append(confidence[0])
    finally:
        store.close()

    def line(name: str, rs: list[int | None]) -> str:
        at = lambda k: sum(r is not None and r <= k for r in rs) / len(rs)  # noqa: E731
        mrr = sum(1 / r for r in rs if r) / len(rs)
        return f"{name:<26} n={len(rs):<4} hit@1 {at(1):.3f}  hit@5 {at(5):.3f}  MRR {mrr:.3f}"

    print(f"{len(successor)} supersedes", file=sys.stderr)
    print(line("supersession questions", ranks))
    print(line("old identifiers", old_ranks))
    print(f"{'':<26} head first: mean confidence {statistics.fmean(sure) if sure else 0:.3f}; abstained "
          f"{abstained}/{len(old_ranks)}")


if __name__ == "__main__":
    main()
