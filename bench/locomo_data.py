"""Reading a LoCoMo-style retrieval folder and scoring ranked results.

The folder holds ``memories.jsonl`` and ``queries.jsonl`` as described in
``shared/eval/locomo/README.md``. Scores follow that README exactly:
recall@k = |relevant ∩ top-k| / |relevant|; hit@k; MRR over the top 50;
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
    id: str
    conversation: str
    speaker: str
    text: str
    observed_at: str
    caption: str | None

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

    @property
    def main(self) -> bool:
        """Counted in the main score: answerable, with evidence."""
        return not self.expected_abstain and bool(self.relevant)


def load(folder: Path) -> tuple[dict[str, list[Turn]], list[Query]]:
    """Turns grouped by conversation (file order) and every query."""
    turns: dict[str, list[Turn]] = defaultdict(list)
    with (folder / "memories.jsonl").open() as fh:
        for line in fh:
            row = json.loads(line)
            turns[row["conversation_id"]].append(
                Turn(row["id"], row["conversation_id"], row["speaker"], row["text"], row["observed_at"],
                     row.get("image_caption"))
            )
    queries = []
    with (folder / "queries.jsonl").open() as fh:
        for line in fh:
            row = json.loads(line)
            queries.append(
                Query(row["id"], row["conversation_id"], row["question"], frozenset(row["relevant_ids"]),
                      row["category_name"], bool(row["expected_abstain"]))
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


def score(results: dict[str, list[str]], queries: list[Query]) -> dict[str, float]:
    """Mean metrics over ``queries`` (each must have relevant ids) given ranked ids per query id."""
    n = len(queries)
    if n == 0:
        return {"n": 0}
    sums = defaultdict(float)
    for q in queries:
        ranked = results.get(q.id, [])
        sums["R@5"] += recall_at(ranked, q.relevant, 5)
        sums["R@10"] += recall_at(ranked, q.relevant, 10)
        sums["hit@10"] += hit_at(ranked, q.relevant, 10)
        sums["MRR"] += reciprocal_rank(ranked, q.relevant)
        sums["nDCG@10"] += ndcg_at(ranked, q.relevant, 10)
    return {"n": n, **{k: v / n for k, v in sums.items()}}
