"""Gathering what one recall looks at, inside one read transaction: keyword and vector
candidates (every filter inside the candidate queries), the rows they name, each
candidate's cosine similarity (its best window) and how much of the question's
content it covers.
More: docs/storage-tuning.md#candidates."""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING, TypeVar


from . import successors
from .backend import Found, Reader, Search
from .contradiction import brief
from .contradiction_words import stem
from .history import SESSION_TAG, session_of
from .query import (
    LAST_SESSION_DIGESTS, MEANINGS, PASSWORD_WORDS, QUERY_OPERATORS, SHORT_FORMS, STOP_WORDS, Filters, asked_act,
    asked_meanings, asked_of, asked_relation, asked_type, asked_verbs, asking_leave_aside, asks_for_last_session,
    asks_for_password, asks_how, content_words, labels, names_no_subject, query_chunks, subject_words, topic_words,
    verb_forms,
)
from .records import Memory
from .siblings import SPELLED_OTHERWISE
from .subjects import AUDIENCE_SPELLINGS, qualifying
from .timeforeign import another_language
from .timewords import TimeRange, names_as_times

if TYPE_CHECKING:
    import numpy as np  # annotations; numpy is imported where vectors are used (docs/hooks.md#speed)

CONTEXT_COVERAGE = 0.5  # an episode's context covers at half weight (docs/retrieval-tuning.md#coverage)
_SENTENCE = re.compile(r"[.!?:;]\s+|\n")
_NAME = re.compile(r"\w[\w'-]*")
# An acronym, not a proper name (:func:`named_around`; docs/retrieval-tuning.md#acronyms).
_ACRONYM = re.compile(r"[A-Z]{2,5}s?")
_ACRONYM_IN = re.compile(r"(?<!\w)[A-Z]{2,5}s?(?!\w)")  # where one of _NAME's words may be an _ACRONYM
_POSSESSIVE = re.compile(r"'s?$")
_INFINITIVE = re.compile(r"\bto\s+(\w+)", re.IGNORECASE)
_AFTER_HOW = re.compile(r"\bhow\s+(\w+)", re.IGNORECASE)
_WH_WORD = re.compile(r"\b(?:what|which|who|whom|whose|where|when|why|how)\b", re.IGNORECASE)
_OPENING_MARKS = "\u00bf\u00a1"  # "¿" and "¡", which open a Spanish question or exclamation
# Kinds whose text names what they are about: a decision of the time asked holding no word of the
# question's subject earns no confidence by the time (an episode or failure is told by its symptoms:
# "Heat pump stopped" answers "what broke at home?"; docs/retrieval-tuning.md#time).
SUBJECT_KINDS = frozenset({"decision"})


@dataclass(frozen=True)
class Through:
    """A superseded memory (``seq``, ``id``) whose evidence a current memory carries, and that
    memory's own coverage and similarity before the credit."""

    seq: int
    id: str
    own_coverage: float
    own_similarity: float | None


@dataclass(frozen=True)
class Candidates:
    """What one recall found, before ranking.
    More: docs/storage-tuning.md#candidates-candidates."""

    keyword: list[tuple[int, float, float]]
    vector: list[tuple[int, float]]
    rows: dict[int, Memory]
    similarity: dict[int, float]
    coverage: dict[int, float]
    when: TimeRange | None
    degraded: str | None
    unknown_names: list[str]
    unknown_password: bool = False
    kinds: frozenset[str] = frozenset()
    kind_only: bool = False
    through: dict[int, Through] = field(default_factory=dict)
    subject: bool = True
    named: frozenset[int] | None = None
    newest_digest: int | None = None  # for a question asking for the last session (``last_digests``)
    said: frozenset[str] = frozenset()  # ids of memories whose text names the time (``TimeRange.said``)
    # In a question naming a time: the coverage without the time of each memory holding no word of its
    # subject (``query.subject_words``) that is of one of ``SUBJECT_KINDS`` it asks for, or not of what its
    # verb asks for (``query.MEANINGS``; ranking.unearned); and of each not holding the act or the doer the
    # question names (``query.asked_act``)
    untimed: dict[int, float] = field(default_factory=dict)
    # In a question naming a time and a meaning (``query.MEANINGS``): the memories of that meaning
    fits: frozenset[int] = frozenset()
    # In a question naming a time and a subject: ids of the memories whose text holds a word of that
    # subject (``query.subject_words``): of the time whatever their kind when observed then (ranking.observed_then)
    worded: frozenset[str] = frozenset()
    # In a question naming someone or something the store knows: the words of what it asks about that no
    # memory holds (``unheard``; "indentation" of "what does Marcus prefer for indentation?")
    unheard: tuple[str, ...] = ()
    # Each superseded candidate (``include_history``, or one credited to its head) -> its chain's current head
    heads: dict[int, int] = field(default_factory=dict)
    # The candidates holding no word naming the question's subject (``query.topic_words``), nor a superseded
    # version of them does: never sure (ranking.rank)
    off_topic: frozenset[int] = frozenset()
    # In a question naming someone the store knows and no time, asking what they do by its verb alone
    # (``query.asked_of``): the candidates holding none of its words, nor of the kind its verb names ("June is
    # on parental leave" for "What does June prefer?"): never sure (ranking.capped)
    unanswered: frozenset[int] = frozenset()


Listed = TypeVar("Listed", tuple[int, float, float], tuple[int, float])


def current_and_older(
    tx: Reader, query: Search, rows: dict[int, Memory], credit: bool = True,
) -> tuple[Found, list[tuple[int, float, float]], list[tuple[int, float]]]:
    """``query``'s answer, and the superseded memories among its candidates with the history
    admitted (none without ``credit``); rows read are added to ``rows``.
    More: docs/retrieval-tuning.md#candidates-current-and-older."""
    if query.filters.include_history or not credit:
        return tx.search(query), [], []
    mixed = tx.search(replace(query, history=True))
    listed = [f[0] for f in mixed.keyword] + [f[0] for f in mixed.vector]
    unread = [seq for seq in dict.fromkeys(listed) if seq not in rows]  # the keyword side's rows are read already
    rows.update(tx.memories(query.filters.tenant, seqs=unread))

    def older(found: list[Listed]) -> list[Listed]:
        return [f for f in found if f[0] in rows and rows[f[0]].superseded_by is not None]

    older_keyword, older_vector = older(mixed.keyword), older(mixed.vector)
    return (tx.search(query) if older_keyword or older_vector else mixed), older_keyword, older_vector


def vector_side(
    tx: Reader, filters: Filters, embedding: np.ndarray, when: TimeRange | None, kinds: frozenset[str], pool: int,
    rows: dict[int, Memory], credit: bool = True, seqs: list[int] | None = None,
) -> tuple[list[tuple[int, float]], list[tuple[int, float]], dict[int, float]]:
    """The ``pool`` memories nearest ``embedding`` ``(seq, cosine)`` best first, plus as many
    of the time ``when`` or the ``kinds`` named; the superseded ones (:func:`current_and_older`);
    and the similarity of each of ``seqs``."""
    found, _, older = current_and_older(tx, Search(filters, k=pool, vector=embedding, seqs=seqs or []), rows, credit)
    vector = found.vector
    # Memories of the time or kind named are candidates even when others are closer.
    for narrowed in (*within(filters, when), of_kinds(filters, kinds)):
        if narrowed is not None:
            vector = sorted(dict(vector + tx.search(Search(narrowed, k=pool, vector=embedding)).vector).items(),
                            key=lambda v: v[1], reverse=True)
    return vector, older, found.similarity


# What ``gather``'s ``nearest`` returns: the question's embedding once made, None for no vectors.
Nearest = Callable[[], "np.ndarray | None"]


def gather(
    tx: Reader,
    filters: Filters,
    words_query: str,
    named: tuple[frozenset[str], bool],
    nearest: Nearest,
    when: TimeRange | None,
    pool: int,
    degraded: str | None,
    credit: bool = True,
    timed: set[str] | frozenset[str] = frozenset(),
) -> Candidates:
    """Run the candidate searches in the read transaction ``tx``; ``timed``: the words of times
    ``words_query`` still names, never a name. More: docs/retrieval-tuning.md#candidates-gather."""
    kinds, kind_only = named
    chunks = query_chunks(asking_leave_aside(words_query))
    # The time's words are keywords too ("2027-03-14", "March" in a memory's text), a quarter's as "Q3" too.
    quarter = when.said.quarter() if when is not None and when.said is not None else None
    time_chunks = [c for c in query_chunks(f"{when.text} {quarter or ''}") if c not in chunks] \
        if when is not None and when.written else []
    asked = [name for name in names(words_query) if name.lower() not in timed]
    # A name that is also a function word ("Will", "Don", "Can"), or holds one ("Plan A"), is a phrase of the
    # question's subject.
    chunks += [words for name in asked if name.lower() in STOP_WORDS or " " in name
               for words in _phrase(name) if words not in chunks]
    meanings = asked_meanings(words_query) if when is not None else frozenset()
    meaning_words = [w for m in sorted(meanings) for w in MEANINGS[m][2].split()]
    act = asked_act(words_query) if when is not None else None
    act_words = [w for verb in act.verbs for w in verb_forms(verb)] if act is not None else []
    doer_words = content_words(query_chunks(" ".join(act.doer))) if act is not None and act.doer else []
    name_words = {name: content_words(query_chunks(name)) for name in asked}
    password = asks_for_password(words_query)
    known: dict[int, Memory] = {}  # rows read in ``tx`` on the way
    # A short form's words are keywords too ("database" of "DB": ``spelled_out``).
    other_chunks = [c for _, other in other_forms(tuple(_NAME.findall(words_query))) for c in query_chunks(other)]
    found, older_keyword, _ = current_and_older(tx, Search(
        filters, k=pool, words=chunks + time_chunks + [c for c in other_chunks if c not in chunks],
        terms=list(dict.fromkeys(content_words(chunks, asked) + (content_words(time_chunks) if time_chunks else [])
                                 + [w for ws in name_words.values() for w in ws] + asked + meaning_words
                                 + act_words + doer_words)),
        exists=([[[w] for w in PASSWORD_WORDS]] if password else []) + [_phrase(name) for name in asked],
    ), known, credit)
    keyword = found.keyword

    def lexemes(words: list[str]) -> set[str]:
        return {t for w in words for t in found.lexemes.get(w, [])}

    weights = idf_weights(found, lexemes(content_words(chunks, asked)))
    time_terms = lexemes(content_words(time_chunks)) if time_chunks else None
    # Only keyword candidates hold the question's words (past the top ``pool``: coverage 0).
    terms = {seq: found.terms[seq] for seq, _, _ in keyword if seq in found.terms}
    unknown_password = password and not found.exists[0]
    unknown = [name for name, there in zip(asked, found.exists[int(password):], strict=True) if not there]
    similarity: dict[int, float] = {}
    vector: list[tuple[int, float]] = []
    older_vector: list[tuple[int, float]] = []
    keyword_seqs = [seq for seq, _, _ in keyword]
    embedding = nearest()
    if embedding is not None:
        vector, older_vector, similarity = vector_side(tx, filters, embedding, when, kinds, pool, known, credit,
                                                       keyword_seqs)
        similarity = {**similarity, **dict(vector)}
    read = known | tx.memories(filters.tenant, seqs=[seq for seq in dict.fromkeys(keyword_seqs + [seq for seq, _ in vector]) if seq not in known])
    seqs = list(dict.fromkeys(keyword_seqs + [seq for seq, _ in vector]))
    rows = {seq: read[seq] for seq in seqs}
    # Matches on superseded memories count for their successor (``successors``).
    if filters.include_history and credit:
        older_keyword, older_vector = keyword, vector
    older_seqs = list(dict.fromkeys([seq for seq, _, _ in older_keyword] + [seq for seq, _ in older_vector]))
    read.update(tx.memories(filters.tenant, seqs=[seq for seq in older_seqs if seq not in read]))
    history = replace(filters, include_history=True)
    older = successors.heads(tx, filters, {seq: read[seq] for seq in older_seqs
                                           if seq in read and admits(history, read[seq])}, admits)
    added = [head for head, _ in older.values() if head not in rows]
    rows.update((head, memory) for head, memory in older.values())
    seqs += list(dict.fromkeys(added))
    listed = last_digests(tx, filters, words_query)
    digests = {seq: memory for seq, memory in listed.items() if seq not in rows}
    rows.update(digests)
    seqs += list(digests)
    if older or digests:
        unscored = [seq for seq in [*older, *added, *digests] if seq not in similarity] if embedding is not None else []
        unread = [seq for seq in [*older, *digests] if seq not in terms]
        more = tx.search(Search(filters, vector=embedding, seqs=list(dict.fromkeys(unscored + unread))))
        similarity.update((seq, more.similarity[seq]) for seq in unscored if seq in more.similarity)
        terms.update((seq, more.terms[seq]) for seq in unread if seq in more.terms)
    # The time named weighs as the question's most specific word (docs/retrieval-tuning.md#time).
    in_time = max(weights.values(), default=1.0) if when is not None else 0.0
    total = sum(weights.values()) + in_time
    relation = lexemes([verb]) & weights.keys() if (verb := asked_relation(words_query)) else set()

    # A word sharing Porter's stem covers like the word itself (docs/retrieval-tuning.md#coverage); the verb
    # relating what a which-question asks for (``query.RELATION_VERBS``) weighs only where it is held.
    def covered(found: set[str]) -> float:
        weighed = total - sum(weights[t] for t in relation - found)
        return sum(weights[t] for t in found & weights.keys()) / weighed if weighed else 0.0

    read_then: dict[str, bool] = {}  # by memory id: coverage and ``said`` ask it of the same candidates

    def says_then(memory: Memory) -> bool:
        if when is None:
            return False
        if memory.id not in read_then:
            text = memory.content or ""
            read_then[memory.id] = (when.said is not None and when.said.in_text(text)
                                    or when.said_relative(text, memory.observed_at) or when.repeated_in(text))
        return read_then[memory.id]

    # An acronym and its words meet both ways ("DR" and "disaster recovery"; ``spelled_out``).
    question_words = _NAME.findall(words_query)

    read_terms: dict[int, tuple[set[str], set[str]]] = {}

    def words_held(seq: int, memory: Memory) -> tuple[set[str], set[str]]:
        """The question's index terms ``memory``'s text (an acronym spelled out too) and its episode context hold."""
        if seq not in read_terms:
            own, context = terms.get(seq, (set(), set()))
            person = names_as_times(words_query, memory.content or "")
            if person is not None:  # "in August" holds no "August" of "What does August do?"
                own = own - lexemes(content_words(query_chunks(person)))
            joined = spelled_out(question_words, memory.content or "")
            read_terms[seq] = (own | lexemes(content_words([[w.lower() for w in joined]])) if joined else own, context)
        return read_terms[seq]

    # A hit holding none of the words naming the question's subject (nor a superseded version of it) is never
    # sure, and where other candidates hold one it covers nothing by its verb or manner words ("use" of
    # "which CI do we use?"; docs/retrieval-tuning.md#topic). A question naming a time has its own rules
    # (``untimed``): an event is told by its symptoms ("Heat pump stopped" answers "what broke at home?").
    topic = lexemes([w for w in topic_words(words_query, content_words(chunks, asked), asked)
                     if _one_spelling(w)]) if when is None else set()
    heads = {seq: head for seq, (head, _) in older.items()}
    on_topic = {found for seq, memory in [*((s, rows[s]) for s in seqs), *((s, read[s]) for s in older)]
                if topic & set().union(*words_held(seq, memory)) for found in (seq, heads.get(seq, seq))}
    off_topic = frozenset(seq for seq in seqs if seq not in on_topic) if topic else frozenset()

    def written_then(seq: int, memory: Memory) -> bool:
        """Whether ``memory``'s text names the time asked, or writes its words as a time."""
        return when is not None and (says_then(memory) or bool(
            time_terms and time_terms <= words_held(seq, memory)[0] and when.written_in(memory.content or "")))

    def coverage_of(seq: int, memory: Memory, timed: bool = True) -> float:
        own, context = words_held(seq, memory)
        then = timed and when is not None and (when.holds(memory.observed_at) or written_then(seq, memory))
        if on_topic and not topic & (own | context):
            own, context = set(), set()
        return max(covered(own), CONTEXT_COVERAGE * covered(context)) + (in_time / total if then else 0.0)

    coverage = {seq: coverage_of(seq, rows[seq]) for seq in seqs}
    # Saying the time ranks a memory as one observed then only with another word of a question that
    # has a subject: the time alone never makes it the answer (docs/how-recall-works.md#4-time-in-the-question).
    subject = not names_no_subject(words_query)
    said = frozenset(rows[seq].id for seq in seqs if says_then(rows[seq])
                     and (not subject or covered(terms.get(seq, (set(), set()))[0]) > 0))
    closest = terms.get(vector[0][0], (set(), set()))[0] if vector else set()
    keyword, vector, raised_by = credit_heads(
        keyword, vector, similarity, coverage, heads,
        older_keyword, older_vector, {seq: coverage_of(seq, read[seq]) for seq in older},
    )
    through = {head: Through(seq, read[seq].id, *mine) for head, (seq, *mine) in raised_by.items()}
    similarity = {seq: value for seq, value in similarity.items() if seq in rows}  # superseded: only as evidence
    if older and unknown:  # a name only a superseded memory holds is known through its head
        held = set().union(*(terms.get(seq, (set(), set()))[0] for seq in older))
        unknown = [name for name in unknown if not lexemes(name_words[name]) <= held]
    if unknown:  # an acronym whose words a candidate says is known ("DR" in "disaster recovery drill")
        spelled = {w for seq in seqs for w in spelled_out(unknown, rows[seq].content or "")}
        unknown = [name for name in unknown if name not in spelled]
    # Only a question naming a time is asked who holds its names (ranking.unearned).
    known = [lexemes(name_words[name]) for name in asked if name not in unknown] if when is not None else []
    named = holding(tx, filters, rows, older, terms, [words for words in known if words]) if any(known) else None
    # A decision of a time holding no word of the question's subject, or a hit of any kind holding none
    # and not of what the question's verb asks for (``query.MEANINGS``), earns nothing sure from the time.
    held_kinds = (kinds | {MEANINGS[m][0] for m in meanings}) & SUBJECT_KINDS if when is not None else frozenset()
    about = [{term} for term in lexemes(subject_words(content_words(chunks)))] if held_kinds or meanings else []
    subject_held = holding(tx, filters, rows, older, terms, about) if about else frozenset()
    # Of a meaning by its own words: an episode's context is the turn before it, of another meaning.
    fitting_kinds = {MEANINGS[m][0] for m in meanings}
    fits = frozenset(seq for seq in rows if rows[seq].kind in fitting_kinds) | holding(
        tx, filters, rows, older, terms, [{t} for t in lexemes(meaning_words)], context=False) \
        if meanings else frozenset()
    # Nor a hit not holding the act the question names (its verb's forms, or of its meaning) or not
    # holding its doer ("what did legal deploy?": not someone else's deployment).
    acted = fits | holding(tx, filters, rows, older, terms, [{t} for t in lexemes(act_words)], context=False) \
        if act_words else frozenset(rows)
    by_doer = holding(tx, filters, rows, older, terms, [{t} for t in lexemes(doer_words)]) \
        if doer_words else frozenset(rows)
    bare = {seq: coverage_of(seq, rows[seq], timed=False) for seq in seqs} if when is not None else {}
    naming = {t for t in time_terms if not t.isdigit()} if time_terms else set()  # "Black Friday" of "... 2024"

    def time_alone(seq: int) -> bool:
        """Nor a hit holding no word of a question with a subject, nor its act, nor the time in its text, nor of
        the meaning it asks for: the time raises a hit its words or vector find, never makes one sure alone; a
        kind named ("what happened with the load balancer ...?") is no subject (docs/retrieval-tuning.md#time)."""
        memory = rows[seq]
        return bool(subject) and bare.get(seq) == 0.0 and seq not in fits and not (act_words and seq in acted) \
            and not written_then(seq, memory) and not naming & words_held(seq, memory)[0]

    untimed = {seq: bare[seq] for seq in seqs if (seq not in subject_held and (
        (about and rows[seq].kind in held_kinds) or (meanings and seq not in fits)))
        or seq not in acted or seq not in by_doer or time_alone(seq)}
    unknown = named_around(unknown, set(weights), closest, lexemes)
    subject_terms = lexemes(subject_words(content_words(chunks))) if when is not None and subject else set()
    worded = frozenset(rows[seq].id for seq in seqs if subject_terms & terms.get(seq, (set(), set()))[0])
    heard = [name for name in asked if name not in unknown]
    # The act of the question from its wh-word on ("According to Gina, what makes ...").
    wh = _WH_WORD.search(words_query)
    verbs = asked_verbs(words_query[wh.start():] if wh else words_query) if heard else ()
    # "prefer to drink": a verb; "how fast": the measure asked for, which a memory states without naming it
    after = _INFINITIVE.findall(words_query) + _AFTER_HOW.findall(words_query) if heard else []
    # "from accounting" of "Does Bob from accounting prefer tea?" tells whom it asks of (``subjects.qualifying``)
    # "service" of "which service listens on port 2049?": the kind asked for, which the answer names otherwise
    # and "uses" of it, a verb relating the two that the answer states otherwise ("NFS listens ...")
    typed = [word for word in (asked_type(words_query), asked_relation(words_query)) if word]
    unheard = tuple(unknown) + unheard_words(subject_words(content_words(chunks)),
                                             [*asked, *verbs, *after, *typed, *qualifying(words_query)],
                                             found) if heard and not another_language(words_query) else ()
    return Candidates(keyword, vector, rows, similarity, coverage, when, degraded,
                      unknown, unknown_password, kinds, kind_only, through, subject, named,
                      next(iter(listed), None), said, untimed, fits, worded, unheard, heads, off_topic,
                      unanswered(words_query, rows) if heard and when is None else frozenset())


def unanswered(question: str, rows: dict[int, Memory]) -> frozenset[int]:
    """The seqs of ``rows`` that do not answer what ``question`` asks someone named does (``query.asked_of``):
    their text holds none of its words (``contradiction.stem`` alike) and they are not of the kind its verb
    names; none for any other question."""
    asked = asked_of(question)
    if asked is None:
        return frozenset()
    words, kind = asked
    stems = {stem(w) for w in words}
    return frozenset(seq for seq, memory in rows.items() if memory.kind != kind
                     and stems.isdisjoint(stem(w) for w in _NAME.findall((memory.content or "").lower())))


def worded_near(tx: Reader, filters: Filters, text: str, vector: np.ndarray | int, k: int,
                near: list[tuple[int, float]]) -> list[tuple[int, float]]:
    """``near`` (``(seq, cosine)`` nearest ``vector``) and the ``k`` best keyword matches of a brief
    ``text`` (``contradiction.brief``) not among them, with their cosine: a change's older memory
    beyond the nearest in meaning, among many worded alike ("The config key limit_17 is set to
    40") or worded apart ("We switched payment processing to Adyen")."""
    if not brief(text):
        return near
    seen = {seq for seq, _ in near}
    more = [seq for seq, _, _ in tx.search(Search(filters, k=k, words=query_chunks(text))).keyword if seq not in seen]
    cosines = tx.search(Search(filters, vector=vector, seqs=more)).similarity if more else {}
    return near + [(seq, cosines[seq]) for seq in more if seq in cosines]


def unheard_words(words: list[str], names: list[str], found: Found) -> tuple[str, ...]:
    """The ``words`` (a question's subject, ``query.subject_words``) that are none of ``names`` (its
    names, the verbs of its act, after "to", after "how" and the kind it asks for: "use" of "which port does
    Redis use?", "fast" of "how fast", "service" of "which service listens ...") and that no memory of the
    tenant holds (each of its index terms in none: ``found``'s counts), those that ask how rather than what
    (``query.asks_how``), those of a script other than Latin and the words for a relative or pet written in
    several ways ("colleague" of a memory's "coworker": ``siblings.ONE_OF``), and the words for an audience
    another word names too ("developers" of "engineers": ``subjects.SAME_AUDIENCE``) aside."""
    lowered = {name.lower() for name in names}
    return tuple(dict.fromkeys(
        w for w in words if w.lower() not in lowered and not asks_how(w) and _latin(w) and found.lexemes.get(w)
        and w.lower() not in SPELLED_OTHERWISE and w.lower() not in AUDIENCE_SPELLINGS
        and not any(found.counts.get(t, 0) for t in found.lexemes[w])))


def _one_spelling(word: str) -> bool:
    """Whether ``word`` (accents aside) is no relative, pet or audience a memory may name in other words
    (``siblings.SPELLED_OTHERWISE``, ``subjects.AUDIENCE_SPELLINGS``: "roommate" for "flatmate")."""
    folded = "".join(c for c in unicodedata.normalize("NFKD", word.lower()) if not unicodedata.combining(c))
    return folded not in SPELLED_OTHERWISE and folded not in AUDIENCE_SPELLINGS


def _latin(word: str) -> bool:
    """Whether ``word`` is written in Latin letters, whose forms the index folds ("поиск" is no form of
    "поиска" to it: a word of another script is never known unheard)."""
    return all(not c.isalpha() or unicodedata.name(c, "").startswith("LATIN") for c in word)


def holding(
    tx: Reader, filters: Filters, rows: dict[int, Memory], older: dict[int, tuple[int, Memory]],
    terms: dict[int, tuple[set[str], set[str]]], names: list[set[str]], context: bool = True,
) -> frozenset[int]:
    """The seqs of ``rows`` whose text or (with ``context``) episode context holds every index term
    of one of ``names`` (each a name's lexemes), or whose superseded version ``older`` does; the
    terms of rows missing from ``terms`` are read in ``tx``."""
    missing = [seq for seq in [*rows, *older] if seq not in terms]
    if missing:
        terms = {**terms, **tx.search(Search(filters, seqs=missing)).terms}

    def holds(seq: int) -> bool:
        own, before = terms.get(seq, (set(), set()))
        return any(name <= (own | before if context else own) for name in names)

    return frozenset({seq for seq in rows if holds(seq)} | {head for seq, (head, _) in older.items() if holds(seq)})


def last_digests(tx: Reader, filters: Filters, words_query: str) -> dict[int, Memory]:
    """For a question asking what happened in the last session (``query.asks_for_last_session``), the
    newest :data:`LAST_SESSION_DIGESTS` session digests passing ``filters``, newest first: candidates even
    without a vector (a capture hook writes a digest without the model) or a word shared with the question."""
    if not asks_for_last_session(words_query) or (filters.kinds and "episode" not in filters.kinds):
        return {}
    digests = replace(filters, kinds=["episode"], tags=[*(filters.tags or []), SESSION_TAG])
    found = tx.memories(filters.tenant, filters=digests, limit=LAST_SESSION_DIGESTS * 2)
    # A session without a turn is none (an older version wrote its digest): never the last session.
    named = {seq: session_of(memory) for seq, memory in found.items()}
    ids = [i for i in named.values() if i]
    turns = {s.id: s.turns for s in tx.sessions(filters.tenant, ids=ids)} if ids else {}
    kept = [seq for seq in found if turns.get(named[seq] or "", 1)]  # a digest whose session is gone: kept
    return {seq: found[seq] for seq in kept[:LAST_SESSION_DIGESTS]}


def credit_heads(
    keyword: list[tuple[int, float, float]],
    vector: list[tuple[int, float]],
    similarity: dict[int, float],
    coverage: dict[int, float],
    older: dict[int, int],
    older_keyword: list[tuple[int, float, float]],
    older_vector: list[tuple[int, float]],
    older_coverage: dict[int, float],
) -> tuple[list[tuple[int, float, float]], list[tuple[int, float]], dict[int, tuple[int, float, float | None]]]:
    """Each superseded memory's evidence given to the head of its chain (``successors``).
    More: docs/retrieval-tuning.md#candidates-credit-heads."""
    if not older:
        return keyword, vector, {}
    by_keyword = {seq: (bm25, content) for seq, bm25, content in keyword}
    by_vector = dict(vector)
    older_matches = {seq: (bm25, content) for seq, bm25, content in older_keyword}
    older_near = dict(older_vector)
    own = {head: (coverage.get(head, 0.0), similarity.get(head)) for head in older.values()}
    best: dict[int, tuple[float, float, int]] = {}
    for seq, head in older.items():
        raised = False
        match = older_matches.get(seq)
        if match is not None and (head not in by_keyword or match[0] < by_keyword[head][0]):
            by_keyword[head], raised = match, True
        if seq in similarity and similarity[seq] > similarity.get(head, -2.0):
            similarity[head], raised = similarity[seq], True
        if seq in older_near:
            by_vector[head] = max(by_vector.get(head, -2.0), similarity.get(head, -2.0), older_near[seq])
        if older_coverage[seq] > coverage.get(head, 0.0):
            coverage[head], raised = older_coverage[seq], True
        rank = (older_coverage[seq], similarity.get(seq, -2.0), seq)
        if raised and (head not in best or rank > best[head]):
            best[head] = rank
    return (sorted(((s, b, c) for s, (b, c) in by_keyword.items()), key=lambda e: e[1]),
            sorted(by_vector.items(), key=lambda e: e[1], reverse=True),
            {head: (seq, *own[head]) for head, (_, _, seq) in best.items()})


def admits(filters: Filters, memory: Memory) -> bool:
    """Whether ``memory`` passes ``filters``, as the candidate queries apply them."""
    return (
        memory.tenant == filters.tenant
        and memory.scope in filters.scopes
        and memory.forgotten_at is None
        and (memory.expires_at is None or memory.expires_at > filters.now)
        and (filters.include_history or memory.superseded_by is None)
        and (not filters.kinds or memory.kind in filters.kinds)
        and (not filters.tags or set(filters.tags) <= set(memory.tags))
        and (filters.since is None or memory.observed_at >= filters.since)
        and (filters.until is None or memory.observed_at < filters.until)
    )


def within(filters: Filters, when: TimeRange | None) -> list[Filters]:
    """``filters`` narrowed to the time ``when`` names, one for each of its days where it names several
    (``TimeRange.days``); none without one or when nothing can pass."""
    narrowed = []
    for start, end in (when.days or ((when.start, when.end),)) if when is not None else ():
        since = start if filters.since is None else max(filters.since, start)
        until = end if filters.until is None else min(filters.until, end)
        if since < until:
            narrowed.append(replace(filters, since=since, until=until))
    return narrowed


def of_kinds(filters: Filters, kinds: frozenset[str]) -> Filters | None:
    """``filters`` narrowed to ``kinds``; None without any or when the filters exclude them all."""
    allowed = sorted(k for k in kinds if filters.kinds is None or k in filters.kinds)
    return replace(filters, kinds=allowed) if allowed else None


def idf_weights(found: Found, terms: set[str]) -> dict[str, float]:
    """BM25's IDF of each term over the tenant's memories (``found``'s statistics): ln(1 + (N - n + 0.5) / (n + 0.5))."""
    total, counts = found.documents, found.counts
    return {t: math.log(1.0 + (total - counts.get(t, 0) + 0.5) / (counts.get(t, 0) + 0.5)) for t in sorted(terms)}


def _phrase(name: str) -> list[list[str]]:
    """The chunks of a name (:func:`query.query_chunks`), its words one chunk: "Plan A" is a phrase, as "db_host" is."""
    return query_chunks(name.replace(" ", "_"))


# Names of a question read at most (the first ones): each is searched for on its own (docs/team-server-security.md:
# a question's cost).
NAMES_MAX = 16


def names(query: str) -> list[str]:
    """The names in ``query``: capitalised words not opening a sentence, identifiers anywhere
    (a digit or a second capital: "OPS-4521", "db-stg-03"), a label that is a function word with its head
    ("Plan A", ``query.labels``), the first :data:`NAMES_MAX`; rules: docs/retrieval-tuning.md#names."""
    shouted = not any(ch.islower() for ch in query)
    found: list[str] = []
    for sentence in _SENTENCE.split(query):
        words = _NAME.findall(sentence)
        for position, word in enumerate(words):
            if len(found) == NAMES_MAX:
                return found
            word = _POSSESSIVE.sub("", word)
            if word.lower() in STOP_WORDS and labels(words, position):
                label = f"{words[position - 1]} {word}"  # "Plan A": the label is no function word, and no name alone
                found.extend([label] if label not in found else [])
                continue
            if position and word.lower() in STOP_WORDS and word[:1].isupper() and word[1:].islower() \
                    and words[position - 1].islower() and word.lower() != "i" and word not in found:
                found.append(word)  # "what does Will own?": a name, as "May" is; "What Does Will Own" is a title
                continue
            # Spanish opens a question or an exclamation with "¿" / "¡": still the sentence's first word.
            opens = position == 0 and sentence.lstrip(_OPENING_MARKS)[:1].isalpha()
            digit = any(ch.isdigit() for ch in word)
            identifier = digit or (not shouted and sum(ch.isupper() for ch in word) > 1)
            if (opens or shouted) and not identifier:
                continue
            lower = word.lower()
            named = word[:1].isupper() or (digit and word[:1].isalpha())
            # "IT" of "who handles IT?" is an acronym, not the pronoun; "OR", "AND", ... stay keyword
            # operators.
            if named and (lower not in STOP_WORDS or identifier) and lower not in QUERY_OPERATORS \
                    and word not in found:
                found.append(word)
    return found


def named_around(
    unknown: list[str], question: set[str], closest: set[str], lexemes: Callable[[list[str]], set[str]]
) -> list[str]:
    """``unknown`` without its acronyms when the memory ``closest`` in meaning holds every other
    index term of the ``question``."""
    acronyms = [name for name in unknown if _ACRONYM.fullmatch(name)]
    rest = question - lexemes(acronyms) if acronyms else set()
    return [name for name in unknown if name not in acronyms] if rest and rest <= closest else unknown


@lru_cache(maxsize=256)  # one question's words, asked of each candidate's text
def other_forms(question: tuple[str, ...]) -> tuple[tuple[tuple[str, ...], str], ...]:
    """Each short form among ``question``'s words (``query.SHORT_FORMS``) and run of them it stands for, as
    (the question's words, how a memory may write them instead, lower case): (("DB",), "database"),
    (("pull", "requests"), "prs")."""
    lower = tuple(w.lower() for w in question)
    found = [((word,), SHORT_FORMS[low]) for word, low in zip(question, lower, strict=True) if low in SHORT_FORMS]
    for short, long in SHORT_FORMS.items():
        words = tuple(long.split())
        found += [(question[i:i + len(words)], short) for i in range(len(lower) - len(words) + 1)
                  if lower[i:i + len(words)] == words]
    return tuple(found)


def spelled_out(question: list[str], text: str) -> list[str]:
    """The words of ``question`` (its words in order) that ``text`` says the other way round: an
    acronym of the question whose letters open consecutive words of ``text`` ("DR" in "disaster
    recovery"), and consecutive words of the question whose first letters spell an acronym of ``text``
    (docs/retrieval-tuning.md#acronyms); a short form and the words it stands for (:func:`other_forms`:
    "DB" and "database"); each word once. Linear in the two texts for each distinct acronym
    (docs/retrieval-tuning.md#acronyms)."""
    forms = other_forms(tuple(question))
    asking = _acronyms(tuple(question))
    if not asking and not forms and _ACRONYM_IN.search(text) is None:
        return []  # most texts and questions hold no acronym: no word of the text read
    said = _NAME.findall(text)
    written = f" {' '.join(said).lower()} " if forms else ""
    found: dict[str, None] = dict.fromkeys(w for words, other in forms for w in words
                                           if f" {other} " in written or f" {other}s " in written)
    named = set(said)
    asking = [w for w in asking if w not in named]
    saying = sorted({w for w in said if _ACRONYM.fullmatch(w)} - set(question))
    if asking:  # most texts and questions hold no acronym: no initials read
        spoken = _initials(said)
        found.update((word, None) for word in asking if _spelling(word, said, spoken))
    if saying:
        asked = _initials(question)
        for acronym in saying:
            found.update(dict.fromkeys(_spelling(acronym, question, asked)))
    return list(found)


@lru_cache(maxsize=256)  # one question's words, asked of each candidate's text
def _acronyms(words: tuple[str, ...]) -> tuple[str, ...]:
    """The acronyms among ``words``, each once, in order."""
    return tuple(w for w in dict.fromkeys(words) if _ACRONYM.fullmatch(w))


def _initials(words: list[str]) -> str:
    """One character a word: its first letter lowercased, or NUL for a stop word (no run holds one)."""
    return "".join(
        "\0" if w.lower() in STOP_WORDS or len(first := w[:1].lower()) != 1 else first for w in words)


def _spelling(acronym: str, words: list[str], initials: str) -> list[str]:
    """The first run of consecutive ``words`` (``initials``: theirs, :func:`_initials`), none a stop
    word, whose first letters spell ``acronym`` (a plural's "s" aside), or []."""
    letters = acronym.lower().removesuffix("s") if len(acronym) > 2 else acronym.lower()
    start = initials.find(letters)
    return words[start:start + len(letters)] if start >= 0 else []
