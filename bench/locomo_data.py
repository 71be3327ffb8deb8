"""Reading a retrieval folder (LoCoMo's layout) and scoring ranked results.

A folder holds ``memories.jsonl`` and ``queries.jsonl`` as described in
``shared/eval/locomo/README.md``; ``shared/eval/agentic/`` uses the same layout and
adds ``kind``, ``tags`` and ``importance`` to memories. Scores follow those READMEs:
recall@k = |relevant ∩ top-k| / |relevant| (LoCoMo), hit@k (any relevant id in the top
k: the agentic set's R@k, whose relevant ids are alternatives), MRR over the top 50,
nDCG@10 with binary relevance (Järvelin & Kekäläinen, TOIS 2002).
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Turn:
    """One memory of the folder (a LoCoMo dialog turn or an agent memory)."""

    id: str
    conversation: str
    speaker: str
    text: str
    observed_at: str
    caption: str | None
    kind: str | None = None
    tags: tuple[str, ...] = ()
    importance: int | None = None

    @property
    def content(self) -> str:
        """The memory text: the turn, plus the caption of an image it shared."""
        return f"{self.text} [shared an image: {self.caption}]" if self.caption else self.text


@dataclass(frozen=True)
class Query:
    id: str
    conversation: str
    question: str
    relevant: frozenset[str]
    category: str
    expected_abstain: bool
    superseded: frozenset[str] = frozenset()

    @property
    def main(self) -> bool:
        """Counted in the main score: answerable, with evidence."""
        return not self.expected_abstain and bool(self.relevant)

    @property
    def no_answer(self) -> bool:
        """Nothing in its own store answers it (the agentic set's abstain and near-miss questions)."""
        return self.expected_abstain and not self.relevant


def load(folder: Path) -> tuple[dict[str, list[Turn]], list[Query]]:
    """Turns grouped by conversation (file order) and every query."""
    turns: dict[str, list[Turn]] = defaultdict(list)
    with (folder / "memories.jsonl").open() as fh:
        for line in fh:
            row = json.loads(line)
            turns[row["conversation_id"]].append(
                Turn(row["id"], row["conversation_id"], row["speaker"], row["text"], row["observed_at"],
                     row.get("image_caption"), row.get("kind"), tuple(row.get("tags") or ()), row.get("importance"))
            )
    queries = []
    with (folder / "queries.jsonl").open() as fh:
        for line in fh:
            row = json.loads(line)
            queries.append(
                Query(row["id"], row["conversation_id"], row["question"], frozenset(row["relevant_ids"]),
                      row["category_name"], bool(row["expected_abstain"]), frozenset(row.get("superseded_ids") or ()))
            )
    return dict(turns), queries


def recall_at(ranked: list[str], relevant: frozenset[str], k: int) -> float:
    return len(relevant.intersection(ranked[:k])) / len(relevant)


def hit_at(ranked: list[str], relevant: frozenset[str], k: int) -> float:
    return 1.0 if relevant.intersection(ranked[:k]) else 0.0


def reciprocal_rank(ranked: list[str], relevant: frozenset[str], depth: int = 50) -> float:
    for i, memory_id in enumerate(ranked[:depth], start=1):
        if memory_id in relevant:
            return 1.0 / i
    return 0.0


def ndcg_at(ranked: list[str], relevant: frozenset[str], k: int = 10) -> float:
    dcg = sum(1.0 / math.log2(i + 1) for i, m in enumerate(ranked[:k], start=1) if m in relevant)
    ideal = sum(1.0 / math.log2(i + 1) for i in range(1, min(k, len(relevant)) + 1))
    return dcg / ideal


def score(results: dict[str, list[str]], queries: list[Query], hits: bool = False) -> dict[str, float]:
    """Mean metrics over ``queries`` (each must have relevant ids) given ranked ids per query id.

    ``hits``: R@k is hit@k (relevant ids are alternatives, the agentic set's definition);
    otherwise LoCoMo's recall@k.
    """
    n = len(queries)
    if n == 0:
        return {"n": 0}
    at = hit_at if hits else recall_at
    sums: dict[str, float] = defaultdict(float)
    for q in queries:
        ranked = results.get(q.id, [])
        for k in (1, 5, 10):
            sums[f"R@{k}"] += at(ranked, q.relevant, k)
        sums["MRR"] += reciprocal_rank(ranked, q.relevant)
        sums["nDCG@10"] += ndcg_at(ranked, q.relevant, 10)
    return {"n": n, **{k: v / n for k, v in sums.items()}}
