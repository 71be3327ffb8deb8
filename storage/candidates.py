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
from .query import PASSWORD_WORDS, QUERY_OPERATORS, STOP_WORDS, Filters, asks_for_password, content_words, query_chunks
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
_POSSESSIVE = re.compile(r"'s?$")


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


def vector_side(
    tx: Reader, filters: Filters, embedding: np.ndarray, when: TimeRange | None, kinds: frozenset[str], pool: int
) -> list[tuple[int, float]]:
    """The vector candidates of a recall in the read transaction ``tx``: ``pool`` memories
    nearest ``embedding`` (the question's), ``(seq, cosine similarity)`` best first, and
    as many of those observed in the time ``when`` or of the ``kinds`` the question names."""
    vector = tx.vector(filters, embedding, pool)
    # Memories observed in the time the question names, or of the kind it names, are
    # candidates even when many others are closer to its words ("what broke in March?",
    # "which decisions did we make?").
    for narrowed in (within(filters, when), of_kinds(filters, kinds)):
        if narrowed is not None:
            vector = sorted(dict(vector + tx.vector(narrowed, embedding, pool)).items(),
                            key=lambda v: v[1], reverse=True)
    return vector


# What ``gather``'s ``nearest`` returns: the question's embedding and its vector
# candidates when they were searched elsewhere (see ``gather``), or None to search them in
# ``tx``; None in all for no vectors.
Nearest = Callable[[], "tuple[np.ndarray, list[tuple[int, float]] | None] | None"]


def gather(
    tx: Reader,
    filters: Filters,
    words_query: str,
    named: tuple[frozenset[str], bool],
    nearest: Nearest,
    when: TimeRange | None,
    pool: int,
    degraded: str | None,
) -> Candidates:
    """Run the candidate queries in the read transaction ``tx``.

    ``words_query``: the question without its time expression (the keyword side);
    ``named``: the kinds it names and whether it names nothing else
    (``query.named_kinds(words_query)``); ``nearest``: waits for the question's
    embedding (see :data:`Nearest`); ``pool``: candidates taken from each side. Everything that does not need the embedding runs
    first, while the question is embedded.

    The vector candidates may come from another read transaction (e.g. on the thread that
    embedded the question, while this one ran the keyword side): the answer is still that of
    ``tx``'s snapshot, those candidates only as far as they pass ``filters`` in it (a memory
    remembered, forgotten, superseded or expired between the two snapshots is no candidate;
    one whose vector changed in between keeps the similarity read in the other).
    """
    kinds, kind_only = named
    chunks = query_chunks(words_query)
    keyword = tx.keyword(filters, chunks, pool)
    weights = idf_weights(tx, tx.query_terms(content_words(chunks)))
    # Only keyword candidates contain any of the question's words (the keyword side
    # ranks every memory that does; past its top ``pool`` the coverage is taken as 0).
    terms = tx.document_terms([seq for seq, _, _ in keyword])
    unknown_password = asks_for_password(words_query) and not tx.contains(filters, [[w] for w in PASSWORD_WORDS])
    unknown = unknown_names(tx, filters, words_query)
    similarity: dict[int, float] = {}
    vector: list[tuple[int, float]] = []
    elsewhere = False
    found = nearest()
    if found is not None:
        embedding, searched = found
        elsewhere = searched is not None
        vector = searched if searched is not None else vector_side(tx, filters, embedding, when, kinds, pool)
    keyword_seqs = [seq for seq, _, _ in keyword]
    read = tx.rows(list(dict.fromkeys(keyword_seqs + [seq for seq, _ in vector])))
    if elsewhere:  # searched in another snapshot: only the candidates that pass the filters in this one
        vector = [v for v in vector if v[0] in read and admits(filters, read[v[0]])]
    seqs = list(dict.fromkeys(keyword_seqs + [seq for seq, _ in vector]))
    rows = {seq: read[seq] for seq in seqs}
    if found is not None:
        similarity = dict(vector)
        missing = [seq for seq in keyword_seqs if seq not in similarity]
        similarity.update(tx.similarity(missing, embedding))
    # The time the question names is part of what it asks, though its words are no
    # keywords: a memory observed then covers it, weighed as the question's most specific
    # word ("what broke in March?" is not answered by November's "the build broke").
    in_time = max(weights.values(), default=1.0) if when is not None else 0.0
    total = sum(weights.values()) + in_time

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
    closest = terms.get(vector[0][0], (set(), set()))[0] if vector else set()
    unknown = named_around(tx, unknown, set(weights), closest)
    return Candidates(keyword, vector, rows, similarity, coverage, when, degraded,
                      unknown, unknown_password, kinds, kind_only)


def admits(filters: Filters, memory: Memory) -> bool:
    """Whether ``memory`` passes ``filters``, as every candidate query applies them inside
    (``backend``): for candidates read in another transaction."""
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
    digit or a second capital letter is a name wherever it stands, and a word starting
    with a small letter is one when it holds a digit ("db-stg-03", "v3", "tern-350m":
    hosts, versions and run ids are typed in small letters; "8k" or "1st", starting with
    a digit, are quantities). A possessive's "'s" is not part of the name ("Åsa's" names
    Åsa). Not names: the words of query syntax (``QUERY_OPERATORS``: "NEAR(Kafka" asks
    for Kafka), and in a question written all in capitals, any word without a digit
    (shouting is no identifier)."""
    shouted = not any(ch.islower() for ch in query)
    found: list[str] = []
    for sentence in _SENTENCE.split(query):
        words = _NAME.findall(sentence)
        for position, word in enumerate(words):
            word = _POSSESSIVE.sub("", word)
            opens = position == 0 and sentence[:1].isalpha()
            digit = any(ch.isdigit() for ch in word)
            identifier = digit or (not shouted and sum(ch.isupper() for ch in word) > 1)
            if (opens or shouted) and not identifier:
                continue
            lower = word.lower()
            named = word[:1].isupper() or (digit and word[:1].isalpha())
            if named and lower not in STOP_WORDS and lower not in QUERY_OPERATORS and word not in found:
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
