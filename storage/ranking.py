"""Hybrid retrieval, the ranking side: fuse each candidate's evidence, decide whether
anything stored answers the question (abstention), and give each hit a confidence.

Fusion: ``VECTOR_WEIGHT · cosine`` plus, when the keyword side found the candidate,
``KEYWORD_WEIGHT · coverage · trust / (RRF_K + BM25 rank)``: a reciprocal-rank term
(Cormack, Clarke & Büttcher, SIGIR 2009) scaled by the IDF-weighted share of the
question's content words in the memory's own text (``coverage``) and by the best such
share among the candidates (``trust``, cut steeply below ``KEYWORD_TRUST_COVERAGE``), so a
keyword match on one incidental word cannot outrank the memory the vector side found.
Then bonuses for dated memories observed in the time the question names, for memories of
a kind it names, importance and freshness; an older state memory moved below a newer one
on the same subject (:func:`prefer_newer`); and episodes of the first hits' conversation
raised (:func:`same_conversation`).

Abstention (:func:`answers`): nothing is returned when the question names something no
searchable memory contains and the best similarity is low, when it asks for a password
no memory mentions, or when the evidence is weak on both sides, unless the question asks
by time or kind alone for memories that are there. A weak hit is otherwise returned with
a low :func:`confidence`. A memory found through a superseded version of itself
(``successors``) ranks by that evidence; :func:`through_confidence` discounts it.

The rules for users: docs/how-recall-works.md. Every constant was chosen on the agentic
and LoCoMo sets with ``bench/eval_retrieval.py``; the measurements are in
docs/recall-evaluation.md, one section per constant.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from .candidates import Candidates, Through
from .query import EPISODE_GAP_MS
from .records import Memory

# Chosen in docs/recall-evaluation.md#fusion-weights.
VECTOR_WEIGHT = 0.5
KEYWORD_WEIGHT = 5.0
RRF_K = 5
# Below this best coverage the keyword term shrinks with its cube (docs/recall-evaluation.md#keyword-trust).
KEYWORD_TRUST_COVERAGE = 0.35
# For DATED_KINDS observed in the time the question names (docs/recall-evaluation.md#time-bonus).
TIME_BONUS = 0.8
# For a kind named in a question with other words (query.KIND_WORDS, KIND_PHRASES;
# docs/recall-evaluation.md#kind-bonus).
KIND_BONUS = 0.1
IMPORTANCE_WEIGHT = 0.005  # per point of importance above or below 5
FRESHNESS_WEIGHT = 0.01
FRESHNESS_HALF_LIFE_DAYS = 30.0
STATE_KINDS = frozenset({"fact", "preference", "decision", "procedure"})
# Kinds that happen at the time they were observed, so a question naming that time asks
# for them: episodes and failures, and decisions (made then, though they hold until
# superseded: "what did we decide in March?").
DATED_KINDS = frozenset({"episode", "failure", "decision"})
SUBJECT_TOP = 3
# The newer must answer about as well: cover the question's words within NEWER_COVERAGE_SLACK,
# or score at least NEWER_SCORE_RATIO of the older (docs/recall-evaluation.md#newer-beats-older).
NEWER_COVERAGE_SLACK = 0.1
NEWER_SCORE_RATIO = 0.8
SAME_SUBJECT = 0.6  # cosine between two memories' vectors
# Episodes of the same conversation as one of the first CONVERSATION_TOP (same scope,
# observed within query.EPISODE_GAP_MS of it) gain CONVERSATION_BONUS: a question's evidence
# is often spread over a few turns of one conversation (docs/recall-evaluation.md#conversation-bonus).
CONVERSATION_TOP = 2
CONVERSATION_BONUS = 0.08
# --- abstention (docs/recall-evaluation.md#abstention-thresholds) ---------------------
NAMED_SIMILARITY = 0.45
WEAK_SIMILARITY = 0.2
WEAK_COVERAGE = 0.2
# coverage, gap below the best similarity, ranks first, score lead, bias (see confidence);
# fit in docs/recall-evaluation.md#confidence-weights.
CONFIDENCE_WEIGHTS = (0.843, -1.907, 1.014, 3.129, -1.791)
# --- which hits are returned (docs/recall-evaluation.md#which-hits-are-returned) -----
RELATIVE_HIT_SIMILARITY = 0.4  # under 0.4 × the best similarity and covering little: unrelated
KEEP_COVERAGE = 0.5


@dataclass(frozen=True)
class Scored:
    """One candidate after ranking: its fused ``score``, ``confidence`` in [0, 1] and signals."""

    seq: int
    memory: Memory
    score: float
    confidence: float
    keyword_rank: int | None
    keyword_score: float | None
    vector_rank: int | None
    similarity: float | None
    coverage: float
    through: str | None = None


@dataclass(frozen=True)
class Ranking:
    """``hits`` best first; ``abstained`` when nothing answers the question (no hits)."""

    hits: list[Scored]
    abstained: bool


def confidence(coverage: float, similarity_gap: float, first: bool, lead: float) -> float:
    """An estimate, in [0, 1], of the chance that this hit answers the question.

    A logistic regression (``CONFIDENCE_WEIGHTS``) over the hit's ``coverage`` in [0, 1],
    how far its cosine similarity is below the best candidate's (``similarity_gap``),
    whether it ranks ``first``, and its ``lead``: its fused score minus the best other
    hit's (for the first hit, the second's; capped at 1, negative below the first), so
    everything the ranking weighs counts. Returned rounded to 3 decimals. How it was fit,
    and how often hits of each confidence were relevant: docs/recall-evaluation.md.
    """
    z = (CONFIDENCE_WEIGHTS[0] * coverage + CONFIDENCE_WEIGHTS[1] * similarity_gap + CONFIDENCE_WEIGHTS[2] * first
         + CONFIDENCE_WEIGHTS[3] * min(1.0, lead) + CONFIDENCE_WEIGHTS[4])
    return round(1.0 / (1.0 + math.exp(-z)), 3)


def through_confidence(
    sure: float, older: Through, seq: int, first: bool, lead: float, best_similarity: float,
    same_subject: Callable[[int, int], float | None],
) -> float:
    """The confidence of a memory found through a superseded version of itself (``older``,
    see ``successors``), given ``sure``, the confidence its signals with that version's
    evidence earn. That evidence was the older version's: it counts times how much the
    memory still says what that version said, the cosine between the two (``same_subject``;
    0.5-0.9 for a changed value, host or name), never below what the memory's own signals
    earn at its rank (``first``, ``lead``). Without vectors the cosine is unknown and
    ``sure`` stands: the keyword evidence that found it is then all there is for any hit.
    """
    kept_meaning = same_subject(older.seq, seq)
    if kept_meaning is None:
        return sure
    gap = max(0.0, best_similarity - (older.own_similarity or 0.0))
    own = confidence(older.own_coverage, gap, first, lead)
    return max(own, round(sure * max(0.0, kept_meaning), 3))


def _freshness(observed_at: int, now: int) -> float:
    return math.pow(0.5, max(0.0, (now - observed_at) / 86_400_000) / FRESHNESS_HALF_LIFE_DAYS)


def _scores(c: Candidates, now: int, keyword_rank: dict[int, int]) -> dict[int, float]:
    best_coverage = max(c.coverage.values(), default=0.0)
    trust = best_coverage * min(1.0, best_coverage / KEYWORD_TRUST_COVERAGE) ** 3
    scores: dict[int, float] = {}
    for seq, memory in c.rows.items():
        score = VECTOR_WEIGHT * (c.similarity.get(seq) or 0.0)
        if seq in keyword_rank:
            score += KEYWORD_WEIGHT * c.coverage.get(seq, 0.0) * trust / (RRF_K + keyword_rank[seq])
        if dated_then(c, memory):
            score += TIME_BONUS
        if memory.kind in c.kinds:
            # A question naming only a kind asks for that kind, unless it names a time too:
            # then it asks for what happened then ("what happened last week?" is answered by
            # last week's failure before June's episodes).
            score += TIME_BONUS if c.kind_only and c.when is None else KIND_BONUS
        score += IMPORTANCE_WEIGHT * (memory.importance - 5) + FRESHNESS_WEIGHT * _freshness(memory.observed_at, now)
        scores[seq] = score
    return scores


def prefer_newer(order: list[int], c: Candidates, scores: dict[int, float],
                 same_subject: Callable[[int, int], float | None]) -> None:
    """Among the top ``SUBJECT_TOP`` candidates, move an older state memory just below a
    newer memory of any kind on the same subject (in ``scores``: an episode "rebuilt the
    env on PyTorch 2.5" outdates the fact "the env has PyTorch 2.3") when the newer one
    answers about as well: it covers the question's words as well, or scores nearly as
    high ("number 18" is not a newer "number 17")."""
    top = order[:SUBJECT_TOP]
    for older in (seq for seq in top if c.rows[seq].kind in STATE_KINDS):
        for newer in top:
            as_well = (c.coverage.get(newer, 0.0) >= c.coverage.get(older, 0.0) - NEWER_COVERAGE_SLACK
                       or scores[newer] >= NEWER_SCORE_RATIO * scores[older])
            if c.rows[newer].observed_at > c.rows[older].observed_at and scores[older] >= scores[newer] and as_well:
                similarity = same_subject(older, newer)
                if similarity is not None and similarity >= SAME_SUBJECT:
                    scores[older] = scores[newer] - 1e-6


def same_conversation(order: list[int], c: Candidates, scores: dict[int, float]) -> None:
    """Raise, in ``scores``, by ``CONVERSATION_BONUS`` the episodes (after the first
    ``CONVERSATION_TOP`` of ``order``) of the conversation of an episode among those first."""
    lead = [c.rows[seq] for seq in order[:CONVERSATION_TOP] if c.rows[seq].kind == "episode"]
    for seq in order[CONVERSATION_TOP:]:
        memory = c.rows[seq]
        if memory.kind == "episode" and any(
            m.scope == memory.scope and abs(m.observed_at - memory.observed_at) <= EPISODE_GAP_MS for m in lead
        ):
            scores[seq] += CONVERSATION_BONUS


def dated_then(c: Candidates, memory: Memory) -> bool:
    """Whether ``memory`` is of a dated kind and observed in the time the question names."""
    return c.when is not None and memory.kind in DATED_KINDS and c.when.holds(memory.observed_at)


def asked_for(c: Candidates, memory: Memory) -> bool:
    """Whether the question asks for ``memory`` by its generic words alone: it is of a dated
    kind observed in the time named, or of the kind a question naming only a kind names."""
    return dated_then(c, memory) or (c.kind_only and memory.kind in c.kinds)


def answers(c: Candidates, unknown_names: list[str]) -> bool:
    """Whether anything among the candidates is evidence enough to answer (see the module doc)."""
    best_similarity = max((s for _, s in c.vector), default=-1.0)
    best_coverage = max(c.coverage.values(), default=0.0)
    if unknown_names and best_similarity < NAMED_SIMILARITY:
        return False
    if c.unknown_password:
        return False  # a near miss: asks for a password no memory mentions (query.PASSWORD_WORDS)
    if any(asked_for(c, m) for m in c.rows.values()):
        return True  # "what was decided in March?", "what are my preferences?"
    return best_similarity >= WEAK_SIMILARITY or best_coverage >= WEAK_COVERAGE


def rank(
    c: Candidates, now: int, unknown_names: list[str],
    same_subject: Callable[[int, int], float | None] = lambda a, b: None,
) -> Ranking:
    """Fuse, judge and order the candidates of one recall.

    ``unknown_names``: capitalised words of the question that no searchable memory
    contains; ``same_subject(a, b)``: cosine similarity between two candidates' vectors
    (None when either has none). Without vectors (``c.degraded``) recall never abstains
    on similarity: it says it is degraded instead.
    """
    if not c.rows or (c.degraded is None and not answers(c, unknown_names)):
        return Ranking([], True)
    keyword_rank = {seq: i for i, (seq, _, _) in enumerate(c.keyword, start=1)}
    scores = _scores(c, now, keyword_rank)
    order = sorted(scores, key=scores.__getitem__, reverse=True)
    prefer_newer(order, c, scores, same_subject)
    order = sorted(scores, key=scores.__getitem__, reverse=True)
    same_conversation(order, c, scores)
    order = sorted(scores, key=scores.__getitem__, reverse=True)
    keyword_score = {seq: -bm25 for seq, bm25, _ in c.keyword}
    vector_rank = {seq: i for i, (seq, _) in enumerate(c.vector, start=1)}
    floor = RELATIVE_HIT_SIMILARITY * max(c.similarity.values(), default=0.0)
    best_keyword = c.keyword[0][0] if c.keyword else None
    kept = []
    for seq in order:
        similarity, coverage = c.similarity.get(seq), c.coverage.get(seq, 0.0)
        if (similarity is not None and similarity < floor and coverage < KEEP_COVERAGE and seq != best_keyword
                and not asked_for(c, c.rows[seq])):
            continue  # unrelated: little similarity and little of the question's words
        kept.append(seq)
    # A superseded memory (recalled with the history) is an earlier version of a current
    # one, not a rival answer: each hit's rank, lead and similarity gap are measured
    # against the current memories only (docs/recall-evaluation.md#confidence-weights).
    rivals = [seq for seq in kept if c.rows[seq].superseded_by is None]
    best_similarity = max((s for seq, s in c.similarity.items() if c.rows[seq].superseded_by is None), default=0.0)
    hits: list[Scored] = []
    for seq in kept:
        similarity, coverage = c.similarity.get(seq), c.coverage.get(seq, 0.0)
        first = bool(rivals) and seq == rivals[0]
        # The lead is over the best other hit: for the first, the second (0 when alone).
        other = [s for s in rivals[:2] if s != seq][:1]
        lead = scores[seq] - (scores[other[0]] if other else 0.0)
        gap = max(0.0, best_similarity - (similarity or 0.0))
        sure = confidence(coverage, gap, first, lead)
        older = c.through.get(seq)
        if older is not None:
            sure = through_confidence(sure, older, seq, first, lead, best_similarity, same_subject)
        hits.append(Scored(seq, c.rows[seq], scores[seq], sure, keyword_rank.get(seq), keyword_score.get(seq),
                           vector_rank.get(seq), similarity, coverage, None if older is None else older.id))
    return Ranking(hits, not hits)
