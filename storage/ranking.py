"""Hybrid retrieval, the ranking side: fusing the evidence of each candidate, deciding
whether anything stored answers the question (abstention), and a confidence per hit.
More: docs/retrieval-tuning.md#ranking."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import islice

from .candidates import Candidates, Through
from .contradiction import (about_another_value, asks_the_part_left, contradicts, disagreement, may_contradict,
                            names_subject, newer_in_meaning, only_older, replaced, says_a_change, stem, values)
from .limits import GLOBAL_SCOPE
from .newer_hits import with_newer
from .query import EPISODE_GAP_MS, STOP_WORDS
from .records import Memory
from .siblings import sibling
from .timewords import names_another, names_the_weekday
from .strength import strength
from .subjects import near_miss

# --- fusion (docs/retrieval-tuning.md#fusion) ---------------------------------------
VECTOR_WEIGHT = 0.5
KEYWORD_WEIGHT = 5.0
RRF_K = 5
KEYWORD_TRUST_COVERAGE = 0.35  # below this best coverage the keyword term shrinks with its cube
TIME_BONUS = 0.8  # dated memories observed in the time named (docs/retrieval-tuning.md#time)
SAID_BONUS = 0.4  # memories whose text names that time (docs/retrieval-tuning.md#time)
# Under ANSWER_CONFIDENCE a hit is a weak lead; under SURE_CONFIDENCE other scopes are searched and
# named when surer: docs/how-recall-works.md ("Confidence") and docs/tools.md ("Other scopes").
ANSWER_CONFIDENCE = 0.2
SURE_CONFIDENCE = 0.5
# The most a hit is sure of, in a question asking by a time alone, when neither observed then nor saying it
# (docs/retrieval-tuning.md#time).
UNDATED_CONFIDENCE = 0.15
# The most a hit is sure of when it is about a sibling of what the question names ("the Q1 deadline" for
# the Q2 one: ``siblings.sibling``; docs/retrieval-tuning.md#siblings): unsure, so other scopes are searched.
SIBLING_CONFIDENCE = 0.45
# The most a hit is sure of when a newer memory possibly outdates it (:func:`outdate`): unsure, so other
# scopes are searched.
OUTDATED_CONFIDENCE = SIBLING_CONFIDENCE
# The most a hit is sure of while its vector is pending (stored while the model was not ready): it has not been
# compared with its neighbours, so whether a newer memory outdates it is unknown.
UNCOMPARED_CONFIDENCE = SIBLING_CONFIDENCE
KIND_BONUS = 0.1  # a kind named with other words (docs/retrieval-tuning.md#kinds)
IMPORTANCE_WEIGHT = 0.005  # per point of importance above or below 5
STRENGTH_WEIGHT = 0.01  # times strength.strength (docs/retrieval-tuning.md#strength)
STATE_KINDS = frozenset({"fact", "preference", "decision", "procedure"})
# Kinds a question naming their time asks for ("what did we decide in March?").
DATED_KINDS = frozenset({"episode", "failure", "decision"})
# A question naming a time and neither a subject nor decisions ("what did we do this week?") asks for
# events first: a decision of the time gets this much less of TIME_BONUS (docs/retrieval-tuning.md#time).
EVENT_KINDS = frozenset({"episode", "failure"})
EVENTS_FIRST = 0.3
SUBJECT_TOP = 3
# How well a newer memory must answer to outdate an older one (docs/retrieval-tuning.md#newer).
NEWER_COVERAGE_SLACK = 0.1
NEWER_SCORE_RATIO = 0.8
SAME_SUBJECT = 0.6  # cosine between two memories
# Hits among which a newer contradicting memory outdates an older one; a question with one of
# NOW_WORDS asks for the present, where an older memory of any kind can be outdated
# (both chosen in docs/retrieval-tuning.md#newer).
OUTDATED_TOP = 10
NOW_WORDS = frozenset({"now", "current", "currently", "latest", "still", "today", "anymore", "nowadays"})
CONVERSATION_TOP = 2  # docs/retrieval-tuning.md#conversation
CONVERSATION_BONUS = 0.08
# --- abstention (docs/retrieval-tuning.md#abstention) ---------------------------------
NAMED_SIMILARITY = 0.45
WEAK_SIMILARITY = 0.2
WEAK_COVERAGE = 0.2
# coverage, gap below the best similarity, ranks first, score lead, bias (see confidence;
# docs/retrieval-tuning.md#confidence).
CONFIDENCE_WEIGHTS = (0.843, -1.907, 1.014, 3.129, -1.791)
# A hit restating the best one (a memory stored again in other words) is no rival of it: cosine at least
# RESTATED_COSINE, among the RESTATED_TOP hits after it (docs/retrieval-tuning.md#confidence).
RESTATED_COSINE = 0.8
RESTATED_WORDS = 0.5  # of the two texts' words (stems, no stop words), at least this share in both
RESTATED_TOP = 5
ALIKE_WORDS = 0.3  # of the two texts' words, at least this share in both for answers alike (``_answers_alike``)
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
    outdated_by: str | None = None
    newer_of: str | None = None  # the hit it is returned for (``newer_hits.with_newer``)


@dataclass(frozen=True)
class Ranking:
    """``hits`` best first; ``abstained`` when nothing answers the question (no hits)."""

    hits: list[Scored]
    abstained: bool


def confidence(coverage: float, similarity_gap: float, first: bool, lead: float) -> float:
    """An estimate, in [0, 1], of the chance that this hit answers the question.
    More: docs/retrieval-tuning.md#ranking-confidence."""
    z = (CONFIDENCE_WEIGHTS[0] * coverage + CONFIDENCE_WEIGHTS[1] * similarity_gap + CONFIDENCE_WEIGHTS[2] * first
         + CONFIDENCE_WEIGHTS[3] * min(1.0, lead) + CONFIDENCE_WEIGHTS[4])
    return round(1.0 / (1.0 + math.exp(-z)), 3)


def through_confidence(
    sure: float, older: Through, seq: int, first: bool, lead: float, best_similarity: float,
    same_subject: Callable[[int, int], float | None],
) -> float:
    """The confidence of a memory found through its superseded version ``older``: ``sure``
    times the cosine between the two (unknown: ``sure``), never below what its own signals
    earn. More: docs/retrieval-tuning.md#confidence."""
    kept_meaning = same_subject(older.seq, seq)
    if kept_meaning is None:
        return sure
    gap = max(0.0, best_similarity - (older.own_similarity or 0.0))
    own = confidence(older.own_coverage, gap, first, lead)
    return max(own, round(sure * max(0.0, kept_meaning), 3))


def keyword_ranks(keyword: list[tuple[int, float, float]]) -> dict[int, int]:
    """Each keyword candidate's rank (1 the best) in ``keyword`` (``(seq, bm25, content bm25)``, best
    first): candidates of equal BM25 share the best rank among them, since a backend's order among
    them is no signal (FTS5 gave the older first, PostgreSQL the newer, and "who is August?" took
    its answer from that order alone)."""
    ranks: dict[int, int] = {}
    first, score = 0, None
    for i, (seq, bm25, _) in enumerate(keyword, start=1):
        if score is None or not math.isclose(bm25, score, rel_tol=1e-9, abs_tol=1e-12):
            first, score = i, bm25
        ranks[seq] = first
    return ranks


def _keyword_terms(c: Candidates, keyword_rank: dict[int, int], coverage: dict[int, float]) -> dict[int, float]:
    """Each keyword candidate's keyword term of its fused score, for ``coverage`` of each."""
    best_coverage = max(c.coverage.values(), default=0.0)
    trust = best_coverage * min(1.0, best_coverage / KEYWORD_TRUST_COVERAGE) ** 3
    return {seq: KEYWORD_WEIGHT * coverage.get(seq, 0.0) * trust / (RRF_K + at) for seq, at in keyword_rank.items()}


def _scores(c: Candidates, now: int, keyword_rank: dict[int, int]) -> dict[int, float]:
    keyword = _keyword_terms(c, keyword_rank, c.coverage)
    scores: dict[int, float] = {}
    for seq, memory in c.rows.items():
        score = VECTOR_WEIGHT * (c.similarity.get(seq) or 0.0) + keyword.get(seq, 0.0)
        score += time_bonus(c, memory)
        if memory.kind in c.kinds:
            # Naming only a kind asks for it, unless a time is named too (docs/retrieval-tuning.md#kinds).
            score += TIME_BONUS if c.kind_only and c.when is None else KIND_BONUS
        elif seq in c.fits and not c.subject:  # of what its verb asks for ("what did we ship yesterday?")
            score += KIND_BONUS  # with a subject, its words order the hits (docs/retrieval-tuning.md#time)
        if seq == c.newest_digest:  # "what did we do last time?" asks for the newest session digest
            score += TIME_BONUS
        score += IMPORTANCE_WEIGHT * (memory.importance - 5) + STRENGTH_WEIGHT * strength(memory, now)
        scores[seq] = score
    return scores


def unearned(c: Candidates, seq: int, best: float) -> float:
    """The part of ``seq``'s time bonus its evidence does not bear out: all of ``SAID_BONUS``
    (the time's words count in its coverage instead); in a question with a subject, all of
    ``TIME_BONUS`` when ``seq`` lacks the question's names (``c.named``) and a candidate
    of a kind the question names holds one, or ``seq`` is of such a kind and holds no word of
    the subject (``c.untimed``), else scaled by its cosine over ``best``; it ranks but makes no
    surer (docs/retrieval-tuning.md#time)."""
    similarity = c.similarity.get(seq)
    if not observed_then(c, c.rows[seq]):
        # saying the time ranks a memory, never makes it surer, but where the time is all a question asks
        return time_bonus(c, c.rows[seq]) if c.subject else 0.0  # ("what did we do in Q3?")
    if seq in c.untimed:
        return TIME_BONUS  # "what did the finance team decide on Tuesday?": not Marketing's of Tuesday
    if not c.subject:
        return 0.0
    if c.named is not None and seq not in c.named and any(c.rows[s].kind in c.kinds for s in c.named):
        return TIME_BONUS  # "what did Mark decide yesterday?": Mark's decision, not yesterday's other one
    if similarity is None or best <= 0:
        return 0.0
    return TIME_BONUS * (1.0 - max(0.0, min(1.0, similarity / best)))


def prefer_newer(order: list[int], c: Candidates, scores: dict[int, float],
                 same_subject: Callable[[int, int], float | None], asked: str = "") -> None:
    """Among the top ``SUBJECT_TOP``, raise a newer memory on the same subject that answers about as well as an
    older state memory just above it: the pair keeps the older's place (docs/retrieval-tuning.md#newer); not above
    one about a sibling of what ``asked`` (the question) names where the older is not ("Plan B" for "how much does
    Plan A cost?"; ``subjects.near_miss``)."""
    top = sorted(order[:SUBJECT_TOP], key=lambda seq: c.rows[seq].observed_at)  # a chain of changes in its order
    for older in (seq for seq in top if c.rows[seq].kind in STATE_KINDS):
        for newer in top:
            if after_the_time(c, c.rows[newer]):
                continue  # "the rate limit in Q3": not the one set in Q4
            if c.rows[newer].observed_at <= c.rows[older].observed_at or scores[older] < scores[newer] \
                    or not _as_well(c, scores, newer, older):
                continue  # the cheap tests first: a text's near miss is read only for a pair they pass
            if not (asked and near_miss(asked, c.rows[newer].content or "") is not None
                    and near_miss(asked, c.rows[older].content or "") is None):
                similarity = same_subject(older, newer)
                if similarity is not None and similarity >= SAME_SUBJECT:
                    # newers raised over one older keep their own order among them
                    scores[newer] = scores[older] + 1e-6 * (1.0 + scores[newer])


def _as_well(c: Candidates, scores: dict[int, float], newer: int, older: int) -> bool:
    """Whether ``newer`` answers about as well as ``older`` (docs/retrieval-tuning.md#newer)."""
    return (c.coverage.get(newer, 0.0) >= c.coverage.get(older, 0.0) - NEWER_COVERAGE_SLACK
            or scores[newer] >= NEWER_SCORE_RATIO * scores[older])


def _newer(memory: Memory, other: Memory) -> bool:
    """Whether ``memory`` is the newer of the two in meaning (``contradiction.newer_in_meaning``); never
    when both were observed at the same time."""
    if memory.observed_at == other.observed_at:
        return False
    return newer_in_meaning(memory.content or "", other.content or "", memory.observed_at > other.observed_at)


def _newer_contradicting(old: Memory, new: Memory, cosine: float) -> str | None:
    """Why ``new``, the newer of the two in meaning (:func:`_newer`), contradicts ``old`` at ``cosine``
    (``contradiction.contradicts`` with ``SAME_SUBJECT``), else None. The cheaper test first: for ``new`` observed
    later, which is newer reads what ``old`` changed, judging the pair both ways, so the words go first (most such
    pairs disagree on nothing); for ``new`` observed earlier it is newer only when it says a change, most do not."""
    if new.observed_at > old.observed_at:
        reason = contradicts(old.content or "", new.content or "", cosine, SAME_SUBJECT)
        return reason if reason is not None and _newer(new, old) else None
    if not _newer(new, old):
        return None
    return contradicts(old.content or "", new.content or "", cosine, SAME_SUBJECT)


def outdate(order: list[int], c: Candidates, scores: dict[int, float],
            similarities: Callable[[int, list[int]], dict[int, float]], question: str = "",
            kept: dict[int, tuple[int, Memory]] | None = None, overriding: set[int] | None = None,
            dismissed: Callable[[list[str]], set[tuple[str, str]]] = lambda ids: set()) -> dict[int, str]:
    """Among the first ``OUTDATED_TOP`` of ``order``: for each current state memory (an episode or failure too
    when it says a change to a value, ``contradiction.says_a_change``, and any memory when the question has one of
    ``NOW_WORDS``), the newest later current memory (or an earlier one
    telling the change it restates: ``contradiction.newer_in_meaning``) on the same
    subject whose words contradict it (``contradiction.contradicts``) goes above it, in
    ``scores``: raised just above it, taking its place however little of the question it holds
    (docs/retrieval-tuning.md#newer). Not when the question names a value only the older one holds ("number 17"
    asks for 17) or the word naming its subject where the newer names a sibling of it
    (``siblings.sibling``: "staging" beside "production"; not "kept" beside "retention"), nor
    when an agent judged the pair both true (``dismissed(ids)``: the pairs of those ids so judged, read once,
    at the first pair whose words disagree; ``Reader.dismissed``), nor when the value
    they disagree on is of a kind the question does not ask for (``contradiction.about_another_value``:
    a port for "which host"), nor when the question asks about a part of the older the newer leaves
    out (``contradiction.asks_the_part_left``: "the web app" of "the web app and the API"), nor by a
    memory of another scope (an override, as ``remember`` reads it). An older one none of these outdates is
    outdated, by the same question tests, by the newer of its pair ``kept`` holds (older seq: (newer seq, memory),
    a pair remember or consolidation kept for review, as boot reads it; its verdict is not judged again, and
    a value the question names keeps the older only when they disagree on it). A ``global`` memory none outdates
    is overridden by another scope's that contradicts it (:func:`_override`: raised, unmarked, its seq added to
    ``overriding``). Returns {older seq: newer id} (docs/retrieval-tuning.md#newer)."""
    kept = kept or {}
    top = [seq for seq in order[:OUTDATED_TOP] if c.rows[seq].superseded_by is None and c.rows[seq].content]
    judged: list[set[tuple[str, str]]] = []

    def held() -> set[tuple[str, str]]:
        if not judged:
            judged.append(dismissed([c.rows[seq].id for seq in top]))
        return judged[0]

    candidate = {m.id: seq for seq, m in c.rows.items()}
    asked = values(question)
    present = not NOW_WORDS.isdisjoint(w.strip("?.,!;:'\"") for w in question.lower().split())
    outdated: dict[int, str] = {}
    for older in top:
        old = c.rows[older]
        if old.kind not in STATE_KINDS and not present and not says_a_change(old.content or ""):
            continue
        # The vectors first: a pair under every cosine gate contradicts nothing whatever its words say.
        others = [seq for seq in top if seq != older and not after_the_time(c, c.rows[seq])]
        cosines = similarities(older, others) if others else {}
        # Latest first; another scope's memory overrides, it does not outdate: remember, boot and review
        # compare a memory with its own scope's only (a project's "one approval" beside the global "two").
        later = sorted((seq for seq in others if c.rows[seq].scope == old.scope and may_contradict(
            old.content or "", c.rows[seq].content or "", cosines.get(seq, -1.0), SAME_SUBJECT)),
            key=lambda seq: c.rows[seq].observed_at, reverse=True)
        newer = next((seq for seq in later
                      if (reason := _newer_contradicting(old, c.rows[seq], cosines.get(seq, -1.0))) is not None
                      and (old.id, c.rows[seq].id) not in held()
                      and _asked_of_both(question, asked, old, c.rows[seq], reason)), None)
        if newer is None and (new := kept.get(older, (0, None))[1]) is not None and not after_the_time(c, new) \
                and _asked_of_both(question, asked, old, new, disagreement(old.content or "", new.content or "")):
            newer = candidate.get(new.id)
            outdated[older] = new.id  # a kept pair's newer: ranked as below when a candidate, else named
        if newer is not None:
            scores[newer] = max(scores[newer], scores[older] + 1e-6)
            outdated[older] = c.rows[newer].id
        elif old.scope == GLOBAL_SCOPE and (over := _override(c, scores, older, others, cosines, question, asked)) \
                and overriding is not None:
            overriding.add(over)
    return outdated


def _override(c: Candidates, scores: dict[int, float], older: int, others: list[int], cosines: dict[int, float],
              question: str, asked: set[str]) -> int | None:
    """Raise, in ``scores``, just above the ``global`` memory ``older`` the first of ``others`` of another scope
    whose words contradict it (by :func:`outdate`'s tests, either observed first): a scope's memory overrides a
    global one for that scope, both current and unmarked, the scope's first however little of the question it holds.
    Returns the seq raised, None for none."""
    old = c.rows[older]
    for seq in others:
        new = c.rows[seq]
        if new.scope == GLOBAL_SCOPE or new.superseded_by is not None or not new.content \
                or not may_contradict(old.content or "", new.content, cosines.get(seq, -1.0), SAME_SUBJECT):
            continue  # under every cosine gate, either way round: no words read to order them
        first, then = (old, new) if not _newer(old, new) else (new, old)
        reason = contradicts(first.content or "", then.content or "", cosines.get(seq, -1.0), SAME_SUBJECT)
        if reason is not None and _asked_of_both(question, asked, first, then, reason):
            scores[seq] = max(scores[seq], scores[older] + 1e-6)
            return seq
    return None


def _asked_of_both(question: str, asked: set[str], old: Memory, new: Memory, reason: str | None) -> bool:
    """Whether ``question`` asks of what ``new`` changed in ``old`` (the tests of :func:`outdate`;
    ``reason``, their disagreement, None: unknown), ``asked`` its values. A question naming a value ``new``
    replaced (``contradiction.replaced``) asks of it, whatever kind its words ask for ("do we run Node 18?",
    "node" there a name, beside "We upgraded production to Node 20")."""
    return not (reason is not None and about_another_value(question, reason)
                and not asked & replaced(old.content or "", new.content or "")) \
        and not asked & only_older(old.content or "", new.content or "") \
        and not (names_subject(question, old.content or "", new.content or "")
                 and _sibling_asked(question, old.content or "", new.content or "")) \
        and not asks_the_part_left(question, old.content or "", new.content or "")


def _sibling_asked(question: str, older: str, newer: str) -> bool:
    """Whether ``question`` names a sibling of what ``newer`` names (``siblings.sibling``), read without the values
    ``newer`` replaced in ``older`` (``contradiction.replaced``): "30" of "are backups kept for 30 days?" beside
    "Backup retention is now 90 days" is the value changed, no sibling of "90", whatever words the newer rewords
    its slot with ("kept" / "retention")."""
    gone = replaced(older, newer)
    words = [w for w in question.split()
             if not gone or not (values(w) & gone or w.strip(_PUNCTUATION).lower() in gone)]
    return sibling(" ".join(words), newer) is not None


_PUNCTUATION = "?.,!;:'\"()¿¡"


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


def the_weekday_first(order: list[int], c: Candidates, scores: dict[int, float], asked: str) -> bool:
    """Move, in ``scores``, each of the first ``OUTDATED_TOP`` of ``order`` that names only other weekdays
    than ``asked`` names (``timewords.names_another``), and is not of the time asked (:func:`dated_then`),
    just below the first that names the weekday asked: "Sunday is grocery day" is no answer to "what did
    I do last Friday?" before "Last Friday I renewed the passport" (noted a week ago: another Friday).
    Returns whether any moved."""
    if c.when is None or not asked:
        return False
    top = order[:OUTDATED_TOP]
    first = next((at for at, seq in enumerate(top) if names_the_weekday(asked, c.rows[seq].content or "")), None)
    if first is None:
        return False
    below = scores[top[first]]
    moved = False
    for seq in top[:first]:
        if not dated_then(c, c.rows[seq]) and names_another(asked, c.rows[seq].content or ""):
            below -= 1e-6
            scores[seq] = below
            moved = True
    return moved


def after_the_time(c: Candidates, memory: Memory) -> bool:
    """Whether ``memory`` was observed after the time the question names: it outdates none of that time."""
    return c.when is not None and c.when.observable and memory.observed_at >= c.when.end


def observed_then(c: Candidates, memory: Memory) -> bool:
    """Whether ``memory`` is observed in the time the question names and of it: of a dated kind, or of
    any kind holding a word of the question's subject (``c.worded``: "which port did Redis use since
    October?" asks for the Redis fact of then, not the episodes of then); a state memory holding one and
    still current was so since it was observed."""
    if c.when is None:
        return False
    asked = memory.kind in c.kinds or any(c.rows[s].id == memory.id for s in c.fits)
    if memory.id in c.worded and memory.kind in STATE_KINDS and not asked and memory.superseded_by is None \
            and c.when.present:
        # what is still so was so since it was observed: "which port has Redis used since last month?"
        return c.when.observable and memory.observed_at < c.when.end
    if not c.when.holds(memory.observed_at) or not c.subject and memory.kind in EVENT_KINDS \
            and c.when.dated_before(memory.content or "", memory.observed_at):
        return False  # "In March the certificate expired", noted today, is no event of "since Monday"
    return memory.kind in DATED_KINDS or memory.id in c.worded and c.when.present


def another_time(c: Candidates, question: str, memory: Memory) -> bool:
    """Whether ``memory``'s text names another quarter, month, date, year or weekday than ``question`` asks
    in (``timewords.names_another``: "Q3 2026" for "in Q2"), unless it was observed in the time asked, of
    what happened then ("moved the launch to April", noted in March, for "what did we decide in March?")."""
    return not (c.when is not None and c.when.holds(memory.observed_at) and not c.when.present) \
        and names_another(question, memory.content or "")


def out_of_time(c: Candidates, memory: Memory) -> bool:
    """Whether ``memory`` is an event or decision of another time than the one the question names:
    observed outside it and not saying it ("Had dinner at Sushi Zen", noted in November, for "where did
    we have dinner yesterday?")."""
    return c.when is not None and c.when.observable and memory.kind in DATED_KINDS and not dated_then(c, memory)


def dated_then(c: Candidates, memory: Memory) -> bool:
    """Whether ``memory`` is of the time the question names: :func:`observed_then`, or of any
    kind and its text names that time ("December freeze", "2027-03-14" for March)."""
    return observed_then(c, memory) or memory.id in c.said


def time_bonus(c: Candidates, memory: Memory) -> float:
    """``TIME_BONUS`` for a memory :func:`observed_then`, else ``SAID_BONUS`` for one whose text
    names the time: an event observed then answers "what happened in May?" before one saying May.
    Less ``EVENTS_FIRST`` for a decision a question asks for by its time alone (``second_to_events``)."""
    if observed_then(c, memory):
        return TIME_BONUS - (EVENTS_FIRST if second_to_events(c, memory) else 0.0)
    return SAID_BONUS if memory.id in c.said else 0.0


def second_to_events(c: Candidates, memory: Memory) -> bool:
    """Whether ``memory`` is not an event and the question asks by its time alone, for no decision nor
    other kind ("what did we do this week?": the week's episodes before the rules set in it)."""
    return (not c.subject and memory.kind not in EVENT_KINDS and memory.kind not in c.kinds
            and not any(c.rows[s].id == memory.id for s in c.fits))


def asked_for(c: Candidates, memory: Memory) -> bool:
    """Whether the question asks for ``memory`` by its generic words alone: it is of a dated
    kind observed in the time named, or of the kind a question naming only a kind names. A
    memory only saying the time is not: the time's words never alone make recall answer."""
    return observed_then(c, memory) or (c.kind_only and memory.kind in c.kinds)


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


def _says_alike(memory: Memory, best: Memory) -> bool:
    """Whether the words of ``memory`` say what ``best`` says (it restates ``best`` at a cosine of at least
    ``RESTATED_COSINE``): no disagreement between them (``contradiction.disagreement``), at least
    ``RESTATED_WORDS`` of their words shared, and the values one states all among the other's. "Team lunch happens
    at the café on Rue Saint-Honoré" restates "The team lunch is at the café on Rue Saint-Honoré"; "Our SLA for
    priority-2 incidents ..." does not restate "... priority-1 ...", nor "Paris" "Berlin"."""
    if not memory.content or not best.content:
        return False
    mine, theirs = _stems(memory.content), _stems(best.content)
    if len(mine & theirs) < RESTATED_WORDS * len(mine | theirs) or disagreement(best.content, memory.content) is not None:
        return False
    mine, theirs = values(memory.content), values(best.content)
    return mine <= theirs or theirs <= mine


_WORD = re.compile(r"\w[\w'-]*")


@lru_cache(maxsize=4096)
def _stems(text: str) -> frozenset[str]:
    """The stems of ``text``'s words, stop words aside (the word tests of :func:`_says_alike` and
    :func:`_answers_alike`, which read the same hits)."""
    return frozenset(stem(w) for w in _WORD.findall(text.lower()) if w not in STOP_WORDS)


def _top_two(seqs: list[int], earned: dict[int, float],
             skip: Callable[[int], bool] | None = None) -> tuple[tuple[int | None, float], float]:
    """``((seq, value), second value)`` of the two largest ``earned`` among ``seqs`` (0.0 where missing),
    those ``skip`` holds aside (asked only of the seqs before the two found)."""
    ordered = sorted(seqs, key=earned.__getitem__, reverse=True)
    ordered = ordered[:2] if skip is None else list(islice((s for s in ordered if not skip(s)), 2))
    values = [earned[s] for s in ordered] + [0.0, 0.0]
    return (ordered[0] if ordered else None, values[0] if ordered else 0.0), values[1] if len(ordered) > 1 else 0.0


def rank(
    c: Candidates, now: int, unknown_names: list[str],
    cosines: Callable[[list[int]], dict[tuple[int, int], float]] = lambda seqs: {}, question: str = "",
    asked: str = "", kept: Callable[[list[int]], dict[int, tuple[int, Memory]]] = lambda seqs: {},
    admitted: Callable[[Memory], bool] = lambda memory: True,
    dismissed: Callable[[list[str]], set[tuple[str, str]]] = lambda ids: set(),
) -> Ranking:
    """Fuse, judge and order the candidates of one recall: ``cosines(seqs)``, ``{(a, b): cosine}`` of
    memory ``a`` to memory ``b`` for every two of ``seqs`` with vectors (``backend.Found.pairs``);
    ``question``, its words, for :func:`outdate`; ``asked``, the question as asked (its time words
    too), for ``siblings.sibling``; ``kept(seqs)``, the newer (seq, memory) of each of ``seqs`` in a kept
    contradicting pair, for :func:`outdate`; ``admitted(memory)``, whether a memory no search found passes
    the recall's filters (``newer_hits.with_newer``); ``dismissed(ids)``, the pairs of those memory ids an
    agent judged both true (``Reader.dismissed``), for :func:`outdate`. More: docs/retrieval-tuning.md#ranking-rank."""
    if not c.rows or (c.degraded is None and not answers(c, unknown_names)):
        return Ranking([], True)
    keyword_rank = keyword_ranks(c.keyword)
    scores = _scores(c, now, keyword_rank)
    order = sorted(scores, key=scores.__getitem__, reverse=True)
    similarities = read_once(cosines, order[:OUTDATED_TOP])

    def same_subject(a: int, b: int) -> float | None:
        return similarities(a, [b]).get(b)

    prefer_newer(order, c, scores, same_subject, asked)
    order = sorted(scores, key=scores.__getitem__, reverse=True)
    pairs = kept(order[:OUTDATED_TOP])
    overriding: set[int] = set()  # raised over a global memory: kept as a hit however little it matches
    outdated = outdate(order, c, scores, similarities, question, pairs, overriding, dismissed)
    order = sorted(scores, key=scores.__getitem__, reverse=True)
    same_conversation(order, c, scores)
    order = sorted(scores, key=scores.__getitem__, reverse=True)
    if the_weekday_first(order, c, scores, asked):
        order = sorted(scores, key=scores.__getitem__, reverse=True)
    if history_below(c, scores):
        order = sorted(scores, key=scores.__getitem__, reverse=True)
    keyword_score = {seq: -bm25 for seq, bm25, _ in c.keyword}
    vector_rank = {seq: i for i, (seq, _) in enumerate(c.vector, start=1)}
    floor = RELATIVE_HIT_SIMILARITY * max(c.similarity.values(), default=0.0)
    best_keyword = {seq for seq, at in keyword_rank.items() if at == 1}
    kept = []
    for seq in order:
        similarity, coverage = c.similarity.get(seq), c.coverage.get(seq, 0.0)
        if (similarity is not None and similarity < floor and coverage < KEEP_COVERAGE and seq not in best_keyword
                and not asked_for(c, c.rows[seq]) and seq not in overriding):
            continue  # unrelated: little similarity and little of the question's words
        kept.append(seq)
    # Superseded memories are no rival answers, nor those a newer one here outdates (their newer would
    # lose its lead to the very memory it replaces) (docs/retrieval-tuning.md#confidence).
    rivals = [seq for seq in kept if c.rows[seq].superseded_by is None and seq not in outdated]
    # Memories a subjectless question asks for by time or kind alone answer it equally.
    equal = {seq for seq in rivals if not c.subject and seq not in c.untimed and (
        dated_then(c, c.rows[seq]) if c.when is not None else c.kind_only and c.rows[seq].kind in c.kinds)}
    best = max((c.similarity.get(seq) or 0.0 for seq in rivals), default=0.0)
    # A hit of the kind asked holding no word of the question's subject earns nothing by the time's
    # words either (docs/retrieval-tuning.md#time).
    timed, untimed = _keyword_terms(c, keyword_rank, c.coverage), _keyword_terms(c, keyword_rank, c.untimed)
    earned = {seq: scores[seq] - unearned(c, seq, best)
              - (timed.get(seq, 0.0) - untimed.get(seq, 0.0) if seq in c.untimed else 0.0) for seq in kept}
    others = [s for s in rivals if s not in equal]  # what a memory of ``equal`` is measured against
    # The first's lead is over the next answer, not over a near miss after it (docs/retrieval-tuning.md#siblings).
    near = _near_misses(rivals[:RESTATED_TOP + 1], c, asked)
    top = {"rivals": _top_two(rivals, earned), "others": _top_two(others, earned),
           "answers": _top_two(rivals, earned, near)}
    # The best rival and the hits restating it answer alike: each is first, its lead over the rest
    # (``best_first`` then makes none surer than a hit above it).
    restated = _restating([s for s in rivals if s not in equal][:RESTATED_TOP + 1], c, similarities, question)
    beyond = max((earned[s] for s in rivals if s not in restated), default=0.0)
    similar = {name: max((c.similarity.get(s) or 0.0 for s in group), default=0.0)
               for name, group in (("rivals", rivals), ("others", others))}
    # An outdated hit is no rival of its newer, but its place is still the answer's: a hit below it (other than
    # a newer of one) is not first, and leads and differs in meaning from it.
    newers = {seq for seq, memory in c.rows.items() if memory.id in outdated.values()}
    above: dict[int, int] = {}  # seq: the outdated hit of most earned ranked above it
    ahead: int | None = None
    for seq in kept:
        if seq in outdated:
            ahead = seq if ahead is None or earned[seq] > earned[ahead] else ahead
        elif ahead is not None and seq not in newers:
            above[seq] = ahead
    hits: list[Scored] = []
    answered: dict[str, float] = {}  # newer id: how sure the hits it outdates were, before they were outdated
    # a newer outdating a hit is capped for its topic no lower than that hit is (``capped``; for its time as
    # itself): it changes the fact the hit states, of the subject the hit names, however few of the question's
    # words it holds ("Now at 10:00"), and the question may name its own value ("is Tomás the team lead?")
    seq_of = {memory.id: seq for seq, memory in c.rows.items()}
    heir = {seq_of[new]: old for old, new in outdated.items() if new in seq_of and old in kept}
    for seq in kept:
        similarity, coverage = c.similarity.get(seq), c.coverage.get(seq, 0.0)
        group = "others" if seq in equal else "rivals"
        # Against: the rivals; for a memory of ``equal``, the others and itself, in rank order (a hit
        # above it by the time alone, ``c.untimed``, is not ahead of it).
        first = seq == next((s for s in rivals if s not in equal and s not in c.untimed or s == seq), None) \
            if seq in equal \
            else bool(rivals) and seq == rivals[0]
        # The lead is over the best other hit (for the first, the second; 0 when alone), by
        # their scores without what a time alone gave them (``unearned``).
        (best_seq, best_earned), second = top["answers" if first and group == "rivals" else group]
        lead = earned[seq] - (second if seq == best_seq else best_earned)
        if seq in restated and group == "rivals":
            first, lead = True, earned[seq] - beyond
        best_similarity = max(similar[group], similarity or 0.0) if seq in equal else similar[group]
        if seq in above:
            first, lead = False, min(lead, earned[seq] - earned[above[seq]])
            best_similarity = max(best_similarity, c.similarity.get(above[seq]) or 0.0)
        gap = max(0.0, best_similarity - (similarity or 0.0))
        # A hit holding no word of the question's subject is not surer for covering its time.
        sure = confidence(c.untimed.get(seq, coverage), gap, first, lead)
        older = c.through.get(seq)
        if older is not None:
            sure = through_confidence(sure, older, seq, first, lead, best_similarity, same_subject)
        sure = capped(sure, c, seq, asked, (seq, heir[seq]) if seq in heir else (seq,))
        if seq in outdated:  # possibly outdated: never sure, whether its newer is a hit or only named
            answered[outdated[seq]] = max(answered.get(outdated[seq], 0.0), sure)
            sure = min(sure, OUTDATED_CONFIDENCE)
        if c.rows[seq].vector_pending:
            sure = min(sure, UNCOMPARED_CONFIDENCE)
        hits.append(Scored(seq, c.rows[seq], scores[seq], sure, keyword_rank.get(seq), keyword_score.get(seq),
                           vector_rank.get(seq), similarity, coverage, None if older is None else older.id,
                           outdated.get(seq)))
    def signals(seq: int) -> dict[str, object]:
        return {"keyword_rank": keyword_rank.get(seq), "keyword_score": keyword_score.get(seq),
                "vector_rank": vector_rank.get(seq), "similarity": c.similarity.get(seq),
                "coverage": c.coverage.get(seq, 0.0)}

    ranked = the_time_first(c, hits) if c.when is not None else hits
    if outdated:
        # a newer changes the fact its older states, the subject the older holds with it: it answers what the older
        # did, as sure as the older was, however few of the question's words it holds ("Bumped Node from 18 to 20"
        # outdating "CI uses Node 18" for "which Node version does CI use?"), unless outdated itself
        ranked = [replace(hit, confidence=max(hit.confidence,
                                              time_capped(answered[hit.memory.id], c, hit.memory, asked)))
                  if hit.memory.id in answered and hit.outdated_by is None else hit
                  for hit in with_newer(ranked, c, pairs, admitted, signals, outdated)]
    return Ranking(best_first(ranked), not hits)


def capped(sure: float, c: Candidates, seq: int, asked: str, topics: tuple[int, ...]) -> float:
    """``sure``, the confidence of hit ``seq``, at most what a hit answering another question may be: its
    time's ceiling (:func:`time_capped`); else ``SIBLING_CONFIDENCE`` for a hit about a sibling of what
    ``asked`` names (``subjects.near_miss``), in a question naming what the store knows and asking of a word
    no memory holds (``c.unheard``: "indentation" of "what does Marcus prefer for indentation?"), holding
    no word of what it asks someone does (``c.unanswered``: "June is on parental leave" for "What does June
    prefer?") or no word of its topic (``c.off_topic``: "We decided to use PostgreSQL" for "which CI do we
    use?"). The topic is read from each memory of ``topics`` (``seq``, and the older a newer outdates: capped only when
    every one is off it), the time from ``seq`` alone. Each is a ceiling: the lowest applies."""
    sure = time_capped(sure, c, c.rows[seq], asked)
    if sure > SIBLING_CONFIDENCE and all(
            c.unheard or about in c.off_topic or about in c.unanswered
            or asked and near_miss(asked, c.rows[about].content or "") is not None for about in topics):
        return SIBLING_CONFIDENCE
    return sure


def time_capped(sure: float, c: Candidates, memory: Memory, asked: str) -> float:
    """``sure`` at most ``UNDATED_CONFIDENCE`` in a question asking by a time alone for ``memory`` not of
    that time ("what did we decide on Friday?": not a rule for Fridays from September); else at most
    ``SIBLING_CONFIDENCE`` for a memory of another time (:func:`out_of_time`, :func:`another_time`) or naming
    it only within a longer one ("expires in 2027" for "what expires in January 2027?": ``Said.wider_in``)."""
    if not c.subject and c.when is not None and not dated_then(c, memory):  # a time ahead too: only what says it
        return min(sure, UNDATED_CONFIDENCE)
    if sure > SIBLING_CONFIDENCE and (out_of_time(c, memory) or asked and another_time(c, asked, memory) or (
            c.when is not None and c.when.said is not None and c.when.said.wider_in(memory.content or ""))):
        return SIBLING_CONFIDENCE
    return sure


def read_once(cosines: Callable[[list[int]], dict[tuple[int, int], float]],
              top: list[int]) -> Callable[[int, list[int]], dict[int, float]]:
    """``similarities(a, seqs)``: the cosine of memory ``a`` to each of ``seqs`` that has a vector, from
    ``cosines`` (see :func:`rank`). The first question reads every pair among ``top`` (the hits judged
    against one another) and its own memories at once; a later one reads only when it asks a pair
    not read yet (one statement a recall where there were one per judged hit)."""
    pairs: dict[tuple[int, int], float] = {}
    read: dict[int, set[int]] = {}  # memory: those whose cosine to it is known (absent: no vector)

    def similarities(a: int, seqs: list[int]) -> dict[int, float]:
        if not seqs:
            return {}
        if not read.get(a, set()).issuperset(seqs):
            wanted = list(dict.fromkeys([a, *seqs, *(top if not read else ())]))
            pairs.update(cosines(wanted))
            for seq in wanted:
                read.setdefault(seq, set()).update(wanted)
        return {seq: pairs[a, seq] for seq in seqs if (a, seq) in pairs}

    return similarities


def _near_misses(top: list[int], c: Candidates, asked: str) -> Callable[[int], bool]:
    """Whether a seq is one of ``top`` after the first about a sibling of what ``asked`` names: of the
    question (``siblings.sibling``), or of the first where the first holds the question's word ("The
    staging Postgres" beside "The production Postgres primary" for "the production database host?").
    Read only for the seqs asked: the lead needs the two best answers, most often the first two."""
    if not asked or len(top) < 2:
        return lambda seq: False
    later = set(top[1:])
    words = {stem(w) for w in _WORD.findall(asked.lower())}
    best = c.rows[top[0]].content or ""

    def near(seq: int) -> bool:
        text = c.rows[seq].content or ""
        return seq in later and (near_miss(asked, text) is not None or (
            (pair := sibling(best, text)) is not None and stem(pair[0]) in words and stem(pair[1]) not in words))

    return near


def history_below(c: Candidates, scores: dict[int, float]) -> bool:
    """Move, in ``scores``, each superseded candidate (``include_history``) just below the memories
    that superseded it among the candidates (its successors and its chain's head, ``c.heads``): history
    is shown after what replaced it, whatever its evidence (a correction by an older memory, ``by``,
    left the superseded one tied with it and first). Returns whether any moved."""
    seq_of = {memory.id: seq for seq, memory in c.rows.items()}

    def successors(seq: int) -> list[int]:
        found, at = [], c.rows[seq].superseded_by
        while at in seq_of and seq_of[at] not in found and seq_of[at] != seq:
            found.append(seq_of[at])
            at = c.rows[seq_of[at]].superseded_by
        return found + [c.heads[seq]] if seq in c.heads and c.heads[seq] in scores else found

    above = {seq: successors(seq) for seq in scores if c.rows[seq].superseded_by is not None}
    moved = False
    for _ in range(len(above)):  # a chain's each link settles in one pass at most
        changed = False
        for seq, later in above.items():
            if later and scores[seq] >= (bound := min(scores[s] for s in later)):
                scores[seq], changed = bound - 1e-6, True
        if not changed:
            break
        moved = True
    return moved


def best_first(hits: list[Scored]) -> list[Scored]:
    """``hits`` with no confidence above that of a hit before it. The order counts what a time alone
    gives a hit (``TIME_BONUS``), the confidence does not (``unearned``): a hit raised by its time sits
    above one surer by its words. The order is the ranker's judgement, the one the evaluation measures;
    a hit it puts lower is no surer an answer than the one above it. A superseded hit
    (``include_history``) is history, no answer: it bounds no hit after it."""
    least = 1.0
    kept = []
    for hit in hits:
        kept.append(hit if hit.confidence <= least else replace(hit, confidence=least))
        if hit.memory.superseded_by is None:  # history (``include_history``) is no answer, nor a bound on one
            least = min(least, hit.confidence)
    return kept


def _restating(top: list[int], c: Candidates, similarities: Callable[[int, list[int]], dict[int, float]],
               question: str = "") -> set[int]:
    """The first of ``top`` and those of the rest that restate it (:func:`_says_alike` at a cosine of at least
    ``RESTATED_COSINE``) or answer ``question`` as well (:func:`_answers_alike`); empty when none does. The words
    decide first; the cosines are read (one read, the first against those left) only when some hit's words say
    what the first's say and do not answer alike, so most recalls read none."""
    found = {s for s in top[1:] if _answers_alike(c, s, top[0], question)}
    alike = [s for s in top[1:] if s in found or _says_alike(c.rows[s], c.rows[top[0]])]
    if len(found) < len(alike):
        cosines = similarities(top[0], [s for s in alike if s not in found])
        found |= {s for s in alike if cosines.get(s, -1.0) >= RESTATED_COSINE}
    return found | {top[0]} if found else set()


def _answers_alike(c: Candidates, seq: int, best: int, question: str) -> bool:
    """Whether ``seq`` and ``best`` hold the same of ``question``'s words (their coverage) and differ only
    in words it does not hold: each one answer of a question leaving that slot open ("which services are
    written in Java?": the catalog service, the search service)."""
    if not question or not c.coverage.get(best) or not math.isclose(c.coverage.get(seq, 0.0), c.coverage[best]):
        return False
    mine, theirs = _stems(c.rows[seq].content or ""), _stems(c.rows[best].content or "")
    return len(mine & theirs) >= ALIKE_WORDS * len(mine | theirs) \
        and (mine ^ theirs).isdisjoint(stem(w) for w in _WORD.findall(question.lower()))


def the_time_first(c: Candidates, hits: list[Scored]) -> list[Scored]:
    """``hits`` with each of the time asked that it leaves unsure (``c.untimed``) after any other of that
    time surer than it (:func:`best_first` then makes it no surer than any hit above it;
    docs/retrieval-tuning.md#time)."""
    slots = [i for i, hit in enumerate(hits) if dated_then(c, hit.memory)]
    timed: list[Scored] = []
    for hit in (hits[i] for i in slots):
        at = len(timed)
        while hit.seq not in c.untimed and at and timed[at - 1].seq in c.untimed and timed[at - 1].confidence < hit.confidence:
            at -= 1
        timed.insert(at, hit)
    ordered = list(hits)
    for i, hit in zip(slots, timed, strict=True):
        ordered[i] = hit
    return ordered
