"""Hybrid retrieval, the ranking side: fusing the evidence of each candidate, deciding
whether anything stored answers the question (abstention), and a confidence per hit.

Fusion. A candidate scores ``VECTOR_WEIGHT · cosine`` plus, when the keyword side
found it, ``KEYWORD_WEIGHT · coverage · trust / (RRF_K + BM25 rank)``: a
reciprocal-rank term (Cormack, Clarke & Büttcher, SIGIR 2009) scaled by the
IDF-weighted share of the question's content words that the memory's own text
contains, and by how far the keyword side can be trusted for this question: the best
such share among the candidates, and less again (cubed below ``KEYWORD_TRUST_COVERAGE``)
when no memory covers even that much. A reworded question shares at most an
incidental word or two with any memory ("who can *let* us into the house if we're
locked out?" matching a pancake recipe's "*let* it rest"): such a match outranked the
memory the vector side put first. Plain
RRF lets a keyword match on one common word ("use", "should") outrank the memory that
answers a reworded question, which cancelled the vector signal on agent memories
(vector-only R@1 0.629, fused 0.503). A memory matched only through its episode
context covers little of the question by its own text, so context never outranks
content. Then: a bonus for dated memories (episodes, failures, decisions) observed
inside the time the question names (a time in a question asks what happened or was
decided then; a fact's ``observed_at`` only says when it was noted), ``KIND_BONUS`` for
memories of a kind the question names ("why did the export *crash*?", "what did we
*decide* ...?", ``query.KIND_WORDS``), the time bonus instead when it names nothing else
and no time ("what decisions did we make?" asks for the decisions as "what happened in
March?" asks for March; "what happened last week?" asks for last week, whatever its
kind), a small importance and freshness term, and, among the
top ``SUBJECT_TOP`` candidates, an older state memory (fact, preference, decision,
procedure) on the same subject as a newer memory of any kind (cosine between them ≥
``SAME_SUBJECT``) is pushed down: an agent that stored a new fact, or an episode that
changed it, without ``supersede`` gets the newer one first. Events are not "updated"
by later events, so an older event is left alone. Last, the episodes of the
conversation of an episode among the first two hits (same scope, observed within
``query.EPISODE_GAP_MS``) gain ``CONVERSATION_BONUS``: the evidence for a question is
often spread over a few turns of one conversation.

Abstention. The best cosine of answerable and unanswerable agent questions are about
equal (medians 0.47 and 0.48), so no single threshold works. Three signals decide:
the question names something (a capitalised word) that no searchable memory
mentions, and the best similarity is under ``NAMED_SIMILARITY``; or it asks for a
password and no memory mentions one (memvault refuses to store secrets, so such a
question is a near miss however well its other words match); or the evidence is weak
on both sides (best cosine under ``WEAK_SIMILARITY`` and best coverage under
``WEAK_COVERAGE``), unless the question names a time in which a dated memory
(episode, failure, decision) was observed: "what decisions were made in March?" has
only generic words, and what was done or decided then answers it (such memories also
pass the relative hit floor); likewise a question naming only a kind of memory ("what
are my preferences?") when a memory of that kind is a candidate. Near misses look more
answerable than real questions by their similarity (AUC 0.26), and unrelated questions
about as answerable as reworded ones (best cosines 0.13-0.52 against 0.21-0.60): the
store's own distribution of cosines for the question (z-score, gap to the 10th)
separated them no better (AUC 0.66-0.76 against 0.80 for the best cosine), nor did
token-level alignment (the IDF-weighted share of the question's tokens matched by the
top hit's, BERTScore's recall: Zhang et al., ICLR 2020; AUC 0.83 on unrelated questions,
yet 2-5 of 17 abstained at 3 % false abstention) or the share of the question's words
that no memory of the store holds (3 of 17), so the weak-evidence threshold is set low
and a weak hit is returned with its ``confidence`` instead.

A current memory that carries the evidence of a superseded version of itself
(``successors``: "where is db-stg-03?" after db-stg-03 was superseded by db-stg-07) ranks
by it like any candidate; its confidence counts that borrowed evidence at the cosine
between the two versions (:func:`through_confidence`), no constant of its own.

Every constant was chosen on two development sets together, the agentic set (agent
memories, store-ops held out) and LoCoMo (chat turns, conv-48 and conv-49 held out);
``bench/eval_retrieval.py`` measures them, and the README gives the figures.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from .candidates import Candidates, Through
from .query import EPISODE_GAP_MS
from .records import Memory

# --- fusion: chosen on both sets at once; a heavier keyword term (6) gave LoCoMo R@10 0.695
# and agentic R@1 0.68, a lighter one (3) 0.679 and 0.736: this is the balance point -----------
VECTOR_WEIGHT = 0.5
KEYWORD_WEIGHT = 5.0
RRF_K = 5
# Below this best coverage the keyword term shrinks with its cube. Agentic paraphrase top-1
# 27 → 31 of 68 (held-out store-ops 3 → 6 of 17), R@1 0.721 → 0.741, LoCoMo unchanged
# (R@5 0.629, R@10 0.705; its best coverage is over 0.42 for 90 % of questions). Steeper
# cuts found more paraphrases but cost LoCoMo: 0.5 (squared) 33 and R@5 0.622; the
# candidate's coverage squared 34 and 0.582.
KEYWORD_TRUST_COVERAGE = 0.35
# Events observed in the time the question names: 0.2 for every kind gave agentic temporal
# top-1 23 of 36 and LoCoMo R@5 0.624; 0.8 for events only, 25 and 0.626 (flat from 0.6 to 1.2).
# Decisions too (DATED_KINDS, after a new-user trial): agentic temporal 26 of 36 either way,
# R@1 0.741 -> 0.736 (one question, held-out store-ops 0.714 -> 0.694).
TIME_BONUS = 0.8
# A kind named in a question with other words (query.KIND_WORDS, KIND_PHRASES), on the tuning
# stores: R@1 0.750 -> 0.784 / 0.791 with 0.04 / 0.05-0.2 (flat), paraphrase top-1 25 -> 29 / 30 of
# 51; 0.1 from the middle. Held-out store-ops: R@1 0.694 -> 0.776, paraphrase 6 -> 10 of 17, R@10
# 0.959 -> 0.939. Kind words alone (no why-phrases, 0.05): 31 -> 33 of 68 paraphrases. LoCoMo holds
# episodes only: a bonus for every candidate or for none, so its figures cannot change.
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
# or score at least NEWER_SCORE_RATIO of the older. Unguarded, the rule fixed 3 more of the 18
# supersession questions but put "number 18" above the "number 17" that was asked for;
# guarded, temporal top-1 goes 20 → 21 of 36 and stale-first stays 6 of 18. A newer memory of
# any kind (not only a state memory) may outdate an older state memory: temporal 21 → 23.
NEWER_COVERAGE_SLACK = 0.1
NEWER_SCORE_RATIO = 0.8
SAME_SUBJECT = 0.6  # cosine between two memories (0.7 caught fewer replaced pairs)
# Episodes of the same conversation as one of the first CONVERSATION_TOP (same scope,
# observed within query.EPISODE_GAP_MS of it, as for the episode context) gain
# CONVERSATION_BONUS: a question's evidence is often spread over a few turns of one
# conversation. Chosen on LoCoMo's tuning conversations (R@5 / R@10 0.635 / 0.711 without;
# top 1, 2, 3 with 0.05: 0.650 / 0.728, 0.648 / 0.734, 0.645 / 0.730; top 2 with 0.03 /
# 0.05 / 0.08: R@5 0.640 / 0.648 / 0.653); the agentic set's figures are unchanged.
CONVERSATION_TOP = 2
CONVERSATION_BONUS = 0.08
# --- abstention: agentic false abstention 30 % → 3 %; LoCoMo other-conversation 88 % ----
NAMED_SIMILARITY = 0.45
# 0.25 abstained on 4 reworded questions (best cosine 0.215-0.243 with either variant of the
# model) and 1 unrelated one; 0.2: agentic false abstention 2.5 % → 0.5 % (integer variant:
# 2.0 % → 1.0 %), unrelated abstained 5 → 4 of 17, LoCoMo unchanged (its best cosines are higher).
WEAK_SIMILARITY = 0.2
WEAK_COVERAGE = 0.2
# coverage, gap below the best similarity, ranks first, score lead, bias (see confidence). The
# former fit (similarity, coverage, gap, first) saw none of the fused score: on the agentic set
# 58 of its top hits got under 0.2 and 67 % of them were right, more than of those at 0.2-0.3
# (37 %); log loss of top hits 0.72 -> 0.54 (held-out store-ops 0.74 -> 0.54), LoCoMo 0.69 -> 0.63
# (held-out 0.66 -> 0.62).
CONFIDENCE_WEIGHTS = (0.843, -1.907, 1.014, 3.129, -1.791)
# --- which hits are returned -------------------------------------------------------
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

    A logistic regression over the hit's coverage, how far its cosine similarity is below
    the best candidate's (``similarity_gap``), whether it ranks first, and its ``lead``:
    its fused score minus the best other hit's (for the first hit, the second's; capped
    at 1, negative below the first), so everything the ranking weighs (the time or kind the
    question names, the keyword trust) counts. Fit on the top five hits of every question
    of the two development sets' tuning parts (each set weighted equally; the agentic
    set's no-answer questions included, their hits all wrong). The cosine itself added
    nothing once the lead was in (weight 0.001). Observed on each set, tuning and held-out
    parts alike, the share of hits that were relevant rises with it: under 0.2, 4-10 %;
    0.2-0.4, 19-54 %; 0.4-0.6, 38-75 %; 0.6-0.8, 58-88 %; over 0.8, 79-100 % (LoCoMo,
    which marks only some of the turns that answer, at the low end of each range).
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
    # against the current memories only. Counted as rivals, the superseded version of the
    # answer, pushed just below its successor (prefer_newer) and often closer to the words
    # of the question, cut the successor's confidence from 0.64-0.96 to 0.32-0.51.
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
