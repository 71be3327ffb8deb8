"""Gathering what one recall looks at, inside one read transaction: keyword and vector
candidates (every filter inside the candidate queries), the rows they name, each
candidate's cosine similarity (its best window) and how much of the question's
content it covers.

Coverage is the IDF-weighted share of the question's index terms (stemmed as FTS5
stems them) that occur in a memory's own text (or, at half weight, in its episode
context); IDF as in BM25 (Robertson & Zaragoza,
"The Probabilistic Relevance Framework: BM25 and Beyond", 2009). The time the question
names counts as one more term, as heavy as its heaviest word, that a memory observed
then holds.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from .backend import Reader
from .query import PASSWORD_WORDS, QUERY_OPERATORS, STOP_WORDS, Filters, asks_for_password, content_words, named_kinds, query_chunks
from .records import Memory
from .timewords import TimeRange

# An episode's context (the turn before it) covers the question at half weight, so a
# match through the context alone never outranks the memory that says it (LoCoMo R@10
# 0.693 → 0.701; agent facts have no context).
CONTEXT_COVERAGE = 0.5
_SENTENCE = re.compile(r"[.!?:;]\s+|\n")
_NAME = re.compile(r"\w[\w'-]*")
# A word of two to five capitals ("HTTPS", "SLA", "QBR", plural "PRs") is most often a common
# term's abbreviation, which a memory may put another way ("TLS certificates" answers "HTTPS
# certificates"), not a proper name: unknown, it leaves a question unanswered (ranking's
# unknown-name rule) unless the memory closest in meaning holds all the question's other
# words. Half of them in any memory was too little: "Which DNS TTL do we use now?" asked of
# another agentic store found "use" and "now" together, "NAT gateway deleted" "gateway".
_ACRONYM = re.compile(r"[A-Z]{2,5}s?")


@dataclass(frozen=True)
class Candidates:
    """What one recall found, before ranking.

    ``keyword``: ``(seq, bm25, content bm25)`` best first (FTS5: lower is better;
    content bm25 0.0 means only the episode context matched); ``vector``: ``(seq,
    cosine similarity)`` best first, a long memory by its best window; ``rows``: the
    memories named; ``similarity``: cosine similarity in [-1, 1] of every candidate
    with a vector; ``coverage``: share in [0, 1] of the question's IDF weight found in
    each candidate's text (the time the question names counting as one more word, covered
    by a memory observed then); ``when``: the time the question names, if any;
    ``degraded``: why vectors were not searched (None when they were);
    ``unknown_names``: capitalised words of the question (not opening a sentence)
    that no memory passing the filters contains (an acronym only while the memory closest
    in meaning lacks another of the question's words: :func:`named_around`);
    ``unknown_password``: the question
    asks for a password (``query.PASSWORD_WORDS``) and no memory passing the filters
    mentions one; ``kinds``: the memory kinds the question names (``query.named_kinds``),
    ``kind_only`` when it names nothing else ("what decisions did we make?").
    """

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


def gather(
    tx: Reader,
    filters: Filters,
    words_query: str,
    query_vector: Callable[[], np.ndarray | None],
    when: TimeRange | None,
    pool: int,
    degraded: str | None,
) -> Candidates:
    """Run the candidate queries in the read transaction ``tx``.

    ``words_query``: the question without its time expression (the keyword side);
    ``query_vector``: returns the question's embedding, or None without vectors;
    ``pool``: candidates taken from each side.
    """
    chunks = query_chunks(words_query)
    kinds, kind_only = named_kinds(words_query)
    keyword = tx.keyword(filters, chunks, pool)
    similarity: dict[int, float] = {}
    vector: list[tuple[int, float]] = []
    embedding = query_vector()
    if embedding is not None:
        vector = tx.vector(filters, embedding, pool)
        # Memories observed in the time the question names, or of the kind it names, are
        # candidates even when many others are closer to its words ("what broke in March?",
        # "which decisions did we make?").
        for narrowed in (within(filters, when), of_kinds(filters, kinds)):
            if narrowed is not None:
                vector = sorted(dict(vector + tx.vector(narrowed, embedding, pool)).items(),
                                key=lambda v: v[1], reverse=True)
        similarity = dict(vector)
        missing = [seq for seq, _, _ in keyword if seq not in similarity]
        similarity.update(tx.similarity(missing, embedding))
    seqs = list(dict.fromkeys([seq for seq, _, _ in keyword] + [seq for seq, _ in vector]))
    rows = tx.rows(seqs)
    weights = idf_weights(tx, tx.query_terms(content_words(chunks)))
    # The time the question names is part of what it asks, though its words are no
    # keywords: a memory observed then covers it, weighed as the question's most specific
    # word ("what broke in March?" is not answered by November's "the build broke").
    in_time = max(weights.values(), default=1.0) if when is not None else 0.0
    total = sum(weights.values()) + in_time
    # Only keyword candidates contain any of the question's words (the keyword side
    # ranks every memory that does; past its top ``pool`` the coverage is taken as 0).
    terms = tx.document_terms([seq for seq, _, _ in keyword])

    # A word sharing only Porter's stem with the question's covers it like the word itself
    # ("internal" for "intern": "who is the intern?" finds an internal tool). Counting only
    # the word as written or inflected made that question abstain, but cost agentic R@5
    # 0.949 -> 0.944: "deduplicated" no longer found "deduplication", a derived word like
    # "internal"; telling the two kinds apart needs a lexicon (Krovetz's stemmer).
    def covered(found: set[str]) -> float:
        return sum(weights[t] for t in found & weights.keys()) / total if total else 0.0

    coverage = {}
    for seq in seqs:
        own, context = terms.get(seq, (set(), set()))
        then = when is not None and when.holds(rows[seq].observed_at)
        coverage[seq] = max(covered(own), CONTEXT_COVERAGE * covered(context)) + (in_time / total if then else 0.0)
    unknown_password = asks_for_password(words_query) and not tx.contains(filters, [[w] for w in PASSWORD_WORDS])
    closest = terms.get(vector[0][0], (set(), set()))[0] if vector else set()
    unknown = named_around(tx, unknown_names(tx, filters, words_query), set(weights), closest)
    return Candidates(keyword, vector, rows, similarity, coverage, when, degraded,
                      unknown, unknown_password, kinds, kind_only)


def within(filters: Filters, when: TimeRange | None) -> Filters | None:
    """``filters`` narrowed to the time ``when`` names; None without one or when nothing can pass."""
    if when is None:
        return None
    since = when.start if filters.since is None else max(filters.since, when.start)
    until = when.end if filters.until is None else min(filters.until, when.end)
    return replace(filters, since=since, until=until) if since < until else None


def of_kinds(filters: Filters, kinds: frozenset[str]) -> Filters | None:
    """``filters`` narrowed to ``kinds``; None without any or when the filters exclude them all."""
    allowed = sorted(k for k in kinds if filters.kinds is None or k in filters.kinds)
    return replace(filters, kinds=allowed) if allowed else None


def idf_weights(tx: Reader, terms: list[str]) -> dict[str, float]:
    """BM25's IDF of each term over every memory's content: ln(1 + (N - n + 0.5) / (n + 0.5))."""
    if not terms:
        return {}
    total, counts = tx.term_counts(terms)
    return {t: math.log(1.0 + (total - counts.get(t, 0) + 0.5) / (counts.get(t, 0) + 0.5)) for t in terms}


def names(query: str) -> list[str]:
    """Capitalised words of ``query`` that do not open a sentence ("Caroline", "SOC",
    "Kafka"), and identifiers that do ("OPS-4521 status", "K8S upgrade"): a word with a
    digit or a second capital letter is a name wherever it stands. Not names: the words
    of query syntax (``QUERY_OPERATORS``: "NEAR(Kafka" asks for Kafka), and in a question
    written all in capitals, any word without a digit (shouting is no identifier)."""
    shouted = not any(ch.islower() for ch in query)
    found: list[str] = []
    for sentence in _SENTENCE.split(query):
        words = _NAME.findall(sentence)
        for position, word in enumerate(words):
            opens = position == 0 and sentence[:1].isalpha()
            identifier = any(ch.isdigit() for ch in word) or (not shouted and sum(ch.isupper() for ch in word) > 1)
            if (opens or shouted) and not identifier:
                continue
            lower = word.lower()
            if word[:1].isupper() and lower not in STOP_WORDS and lower not in QUERY_OPERATORS and word not in found:
                found.append(word)
    return found


def named_around(tx: Reader, unknown: list[str], question: set[str], closest: set[str]) -> list[str]:
    """``unknown`` (names no memory contains) without its acronyms (``_ACRONYM``) when the
    memory closest in meaning holds every other index term of the question: ``question``
    and ``closest`` are those sets of terms."""
    acronyms = [name for name in unknown if _ACRONYM.fullmatch(name)]
    rest = question - set(tx.query_terms(acronyms)) if acronyms else set()
    return [name for name in unknown if name not in acronyms] if rest and rest <= closest else unknown


def unknown_names(tx: Reader, filters: Filters, query: str) -> list[str]:
    """The :func:`names` of ``query`` that no memory passing ``filters`` contains."""
    return [name for name in names(query) if not tx.contains(filters, query_chunks(name))]
