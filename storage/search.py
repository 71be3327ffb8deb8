"""Hybrid retrieval: the SQL for keyword (FTS5 BM25) and vector (vec0 KNN) candidates,
and their fusion.

SQL builders here return text plus bound parameters and run nothing, so they can
be read and tested as text. Every filter (tenant, scope, kind, tags, time range,
expiry, supersession) is part of the candidate query itself: filtering after a
top-k makes filtered searches miss.

Fusion is reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009):
``score = Σ_lists weight / (RRF_K + rank)``, then a mild importance and freshness
adjustment.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass

from .records import Memory, Signals

_WORD = re.compile(r"\w+")
MAX_PHRASES = 64

# Function words dropped from keyword queries: under OR-semantics they add matches
# without adding evidence ("when did X ..." matching every "did"). A query made
# only of them keeps them all.
STOP_WORDS = frozenset(
    "a an and are as at be been being but by can could did do does doing for from had has have having he her"
    " hers him his how i if in into is it its me my of on or our ours she so than that the their theirs them"
    " then there these they this those to too us was we were what when where which who whom whose why will"
    " with would you your yours".split()
)
# A memory is indexed with the memory just before it in the same scope, when that
# one was observed at most this long before it (the same conversation or episode):
# a reply such as "For walking or running?" is found through the question it answers.
EPISODE_GAP_MS = 30 * 60 * 1000
CONTEXT_WEIGHT = 0.3  # BM25 weight of the context column, content counting 1.0

# Fusion constants, chosen on the LoCoMo dev split (bench/eval_retrieval.py): BM25
# is the stronger signal there (R@5 0.612 alone vs 0.354 for MiniLM), so it counts
# double, and a small k lets first ranks dominate. Plain RRF (k=60, equal weights)
# scored R@5 0.499 / R@10 0.599; these give 0.620 / 0.700 (before the hit floors below).
RRF_K = 5
KEYWORD_WEIGHT = 2.0
VECTOR_WEIGHT = 1.0
IMPORTANCE_WEIGHT = 0.05  # importance 10 vs 5 lifts a score by 5 %
FRESHNESS_WEIGHT = 0.05  # a memory observed just now gets up to 5 % more
FRESHNESS_HALF_LIFE_DAYS = 30.0
CANDIDATES_MIN = 50
# Abstention: recall answers only when some candidate is at least MIN_SIMILARITY
# similar (cosine, MiniLM) to the query, or the best keyword match is at least
# KEYWORD_MATCH_SIMILARITY similar, or one memory contains every content word of
# the query. On the LoCoMo dev split these abstain on 82 % of questions asked of
# another conversation and on 0.4 % of answerable ones; on a small store of agent
# facts (tests/test_retrieval.py) 4 of 24 reworded questions still abstain.
MIN_SIMILARITY = 0.45
KEYWORD_MATCH_SIMILARITY = 0.35
# A hit less similar than MIN_HIT_SIMILARITY (near-orthogonal), or than
# RELATIVE_HIT_SIMILARITY times the best candidate's similarity, is unrelated to
# the query and is dropped even when a common word ("use", "should") matched it.
# On the LoCoMo dev split the relative floor costs 0.007 R@5; in a small store it
# stops such matches from outranking the memory that answers.
MIN_HIT_SIMILARITY = 0.05
RELATIVE_HIT_SIMILARITY = 0.4


@dataclass(frozen=True)
class Candidates:
    """What one recall found before fusion.

    ``keyword``: ``(seq, bm25)`` best first; ``vector``: ``(seq, cosine distance)``
    best first; ``fused``: their :func:`fuse`; ``rows``: the memories they name; ``similarity``: cosine
    similarity of every candidate that has a vector; ``degraded``: why vectors
    were not searched (None when they were); ``exact``: some memory contains
    every content word of the query (only looked up when the best similarity is
    under ``MIN_SIMILARITY``, else False).
    """

    keyword: list[tuple[int, float]]
    vector: list[tuple[int, float]]
    fused: dict[int, tuple[float, Signals]]
    rows: dict[int, Memory]
    similarity: dict[int, float]
    degraded: str | None
    exact: bool

    @property
    def best_similarity(self) -> float:
        return 1.0 - self.vector[0][1] if self.vector else -1.0


def answers(best_similarity: float, keyword_top_similarity: float, exact: bool) -> bool:
    """Whether recall has something relevant enough to answer (else it abstains)."""
    return exact or best_similarity >= MIN_SIMILARITY or keyword_top_similarity >= KEYWORD_MATCH_SIMILARITY


def relevant_hit(similarity: float | None, best_similarity: float) -> bool:
    """Whether one hit is worth returning; a hit without a vector yet is kept."""
    if similarity is None:
        return True
    return similarity >= max(MIN_HIT_SIMILARITY, RELATIVE_HIT_SIMILARITY * best_similarity)


@dataclass(frozen=True)
class Filters:
    """What a memory must satisfy to be a candidate. Times are ms since the epoch.

    ``scopes``: allowed scopes; ``kinds``/``tags``: None for no filter, tags must
    all be present; ``since`` inclusive, ``until`` exclusive on ``observed_at``;
    ``now`` decides expiry; ``include_history`` admits superseded memories.
    """

    tenant: str
    scopes: list[str]
    now: int
    kinds: list[str] | None = None
    tags: list[str] | None = None
    since: int | None = None
    until: int | None = None
    include_history: bool = False


def match_expression(query: str) -> str | None:
    """Turn free text into an FTS5 MATCH expression, or None when it has no words.

    Each white-space separated chunk becomes one double-quoted FTS5 phrase of its
    word characters (stop words left out), and phrases are OR-ed: ``v2.3.1`` becomes the phrase
    ``"v2 3 1"`` (an identifier matches as a unit), ``NEAR(x y)`` becomes
    ``"NEAR x" OR "y"``. Quotes, operators, ``*``, ``^``, ``:`` and parentheses
    never reach FTS5 as syntax, because only ``\\w`` characters go inside the quotes.
    """
    chunks = [_WORD.findall(chunk.replace("_", " ")) for chunk in query.split()]
    content = [[w for w in words if w.lower() not in STOP_WORDS] for words in chunks]
    if not any(content):
        content = chunks
    phrases: list[str] = []
    for words in content:
        phrase = '"' + " ".join(words) + '"'
        if words and phrase not in phrases:
            phrases.append(phrase)
    return " OR ".join(phrases[:MAX_PHRASES]) if phrases else None


def all_words_expression(query: str) -> str | None:
    """Like :func:`match_expression` but every phrase must match (AND), or None."""
    expression = match_expression(query)
    return expression.replace('" OR "', '" AND "') if expression else None


def filter_sql(f: Filters) -> tuple[str, dict[str, object]]:
    """SQL condition over ``memories AS m`` for ``f``, with its named parameters."""
    parts = [
        "m.tenant = :tenant",
        "m.forgotten_at IS NULL",
        "(m.expires_at IS NULL OR m.expires_at > :now)",
        "m.scope IN (SELECT value FROM json_each(:scopes))",
    ]
    params: dict[str, object] = {"tenant": f.tenant, "now": f.now, "scopes": json.dumps(f.scopes)}
    if not f.include_history:
        parts.append("m.superseded_by IS NULL")
    if f.kinds:
        parts.append("m.kind IN (SELECT value FROM json_each(:kinds))")
        params["kinds"] = json.dumps(f.kinds)
    if f.tags:
        parts.append(
            "(SELECT count(*) FROM memory_tags t WHERE t.memory_seq = m.seq"
            " AND t.tag IN (SELECT value FROM json_each(:tags))) = :tag_count"
        )
        params["tags"] = json.dumps(f.tags)
        params["tag_count"] = len(f.tags)
    if f.since is not None:
        parts.append("m.observed_at >= :since")
        params["since"] = f.since
    if f.until is not None:
        parts.append("m.observed_at < :until")
        params["until"] = f.until
    return " AND ".join(parts), params


def keyword_sql(f: Filters, match: str, k: int) -> tuple[str, dict[str, object]]:
    """Top-``k`` BM25 candidates as rows ``(seq, bm25)``; lower bm25 is better."""
    where, params = filter_sql(f)
    sql = (
        f"SELECT m.seq, bm25(memories_fts, 1.0, {CONTEXT_WEIGHT}) AS score FROM memories_fts"
        " JOIN memories m ON m.seq = memories_fts.rowid"
        f" WHERE memories_fts MATCH :match AND {where}"
        " ORDER BY score LIMIT :k"
    )
    return sql, {**params, "match": match, "k": k}


def vector_sql(f: Filters, table: str, k: int) -> tuple[str, dict[str, object]]:
    """Top-``k`` cosine KNN candidates as rows ``(seq, distance)``; bind ``:vector``."""
    where, params = filter_sql(f)
    sql = (
        f"SELECT rowid, distance FROM {table}"
        " WHERE embedding MATCH :vector AND k = :k AND tenant = :tenant"
        f" AND rowid IN (SELECT m.seq FROM memories m WHERE {where})"
        " ORDER BY distance"
    )
    return sql, {**params, "k": k}


def similarity_sql(table: str, seqs: list[int]) -> tuple[str, dict[str, object]]:
    """Cosine distance of the named memories' vectors to ``:vector`` (bind it)."""
    sql = (
        f"SELECT rowid, vec_distance_cosine(embedding, :vector) FROM {table}"
        " WHERE rowid IN (SELECT value FROM json_each(:seqs))"
    )
    return sql, {"seqs": json.dumps(seqs)}


def fuse(
    keyword: list[tuple[int, float]],
    vector: list[tuple[int, float]],
) -> dict[int, tuple[float, Signals]]:
    """Reciprocal rank fusion of two ranked lists.

    Args:
        keyword: ``(seq, bm25)`` best first (FTS5 bm25: lower is better).
        vector: ``(seq, cosine distance)`` best first.

    Returns:
        ``{seq: (rrf score, signals)}`` over the union of both lists.
    """
    fused: dict[int, tuple[float, Signals]] = {}
    for rank, (seq, bm25) in enumerate(keyword, start=1):
        fused[seq] = (KEYWORD_WEIGHT / (RRF_K + rank), Signals(keyword_rank=rank, keyword_score=-bm25))
    for rank, (seq, distance) in enumerate(vector, start=1):
        score, signals = fused.get(seq, (0.0, Signals()))
        fused[seq] = (
            score + VECTOR_WEIGHT / (RRF_K + rank),
            Signals(
                keyword_rank=signals.keyword_rank,
                keyword_score=signals.keyword_score,
                vector_rank=rank,
                vector_similarity=1.0 - distance,
            ),
        )
    return fused


def adjust(score: float, importance: int, observed_at: int, now: int) -> float:
    """Apply the mild importance and freshness adjustment to a fused score."""
    age_days = max(0.0, (now - observed_at) / 86_400_000)
    freshness = math.pow(0.5, age_days / FRESHNESS_HALF_LIFE_DAYS)
    return score * (1.0 + IMPORTANCE_WEIGHT * (importance - 5) / 5 + FRESHNESS_WEIGHT * freshness)
