"""Gathering what one recall looks at, inside one read transaction: keyword and vector
candidates (every filter inside the candidate queries), the rows they name, each
candidate's cosine similarity (its best window) and how much of the question's
content it covers.

Coverage is the IDF-weighted share of the question's index terms (stemmed as FTS5
stems them) that occur in a memory's own text (or, at half weight, in its episode
context); IDF as in BM25 (Robertson & Zaragoza,
"The Probabilistic Relevance Framework: BM25 and Beyond", 2009).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass

import apsw

from . import search
from .records import Memory
from .schema import VECTOR_TABLE
from .textindex import index_text
from .timewords import TimeRange

Tokenize = Callable[[str], list[str]]
# An episode's context (the turn before it) covers the question at half weight, so a
# match through the context alone never outranks the memory that says it (LoCoMo R@10
# 0.693 → 0.701; agent facts have no context).
CONTEXT_COVERAGE = 0.5
_SENTENCE = re.compile(r"[.!?:;]\s+|\n")
_NAME = re.compile(r"\w[\w'-]*")


@dataclass(frozen=True)
class Candidates:
    """What one recall found, before ranking.

    ``keyword``: ``(seq, bm25, content bm25)`` best first (FTS5: lower is better;
    content bm25 0.0 means only the episode context matched); ``vector``: ``(seq,
    cosine similarity)`` best first, a long memory by its best window; ``rows``: the
    memories named; ``similarity``: cosine similarity in [-1, 1] of every candidate
    with a vector; ``coverage``: share in [0, 1] of the question's IDF weight found in
    each candidate's text; ``when``: the time the question names, if any;
    ``degraded``: why vectors were not searched (None when they were);
    ``unknown_names``: capitalised words of the question (not opening a sentence)
    that no memory passing the filters contains.
    """

    keyword: list[tuple[int, float, float]]
    vector: list[tuple[int, float]]
    rows: dict[int, Memory]
    similarity: dict[int, float]
    coverage: dict[int, float]
    when: TimeRange | None
    degraded: str | None
    unknown_names: list[str]


def index_terms(tokenize: Tokenize, text: str) -> set[str]:
    """The FTS5 index terms of ``text`` (CJK as bigrams, stemmed)."""
    return set(tokenize(index_text(text) or ""))


def query_terms(tokenize: Tokenize, words: list[str]) -> list[str]:
    """Index terms of the question's content words (stop words left out unless nothing else is left)."""
    content = [w for w in words if w.lower() not in search.STOP_WORDS] or words
    return sorted({t for w in content for t in tokenize(w)})


def idf_weights(conn: apsw.Connection, terms: list[str]) -> dict[str, float]:
    """BM25's IDF of each term over every memory's content: ln(1 + (N - n + 0.5) / (n + 0.5))."""
    if not terms:
        return {}
    total = conn.execute("SELECT count(*) FROM memories_fts_docsize").fetchone()[0]
    counts = dict(conn.execute(*search.term_counts_sql(terms)).fetchall())
    return {t: math.log(1.0 + (total - counts.get(t, 0) + 0.5) / (counts.get(t, 0) + 0.5)) for t in terms}


def gather(
    conn: apsw.Connection,
    tokenize: Tokenize,
    filters: search.Filters,
    words_query: str,
    query_vector: Callable[[], bytes | None],
    when: TimeRange | None,
    pool: int,
    degraded: str | None,
    rows_by_seq: Callable[[list[int]], dict[int, Memory]],
) -> Candidates:
    """Run the candidate queries on ``conn`` (inside a read transaction).

    ``words_query``: the question without its time expression (the keyword side);
    ``query_vector``: returns the question's embedding (float32 blob), or None
    without vectors; ``pool``: candidates taken from each side.
    """
    match = search.match_expression(words_query)
    keyword = conn.execute(*search.keyword_sql(filters, match, pool)).fetchall() if match else []
    similarity: dict[int, float] = {}
    vector: list[tuple[int, float]] = []
    vector_blob = query_vector()
    if vector_blob is not None:
        best: dict[int, float] = {}
        for sql, params in (search.vector_sql(filters, VECTOR_TABLE, pool), search.window_sql(filters, pool)):
            for seq, distance in conn.execute(sql, {**params, "vector": vector_blob}):
                best[seq] = max(best.get(seq, -1.0), 1.0 - distance)
        vector = sorted(best.items(), key=lambda item: item[1], reverse=True)[:pool]
        similarity = dict(vector)
        missing = [seq for seq, _, _ in keyword if seq not in similarity]
        if missing:
            sql, params = search.similarity_sql(VECTOR_TABLE, missing)
            for seq, distance in conn.execute(sql, {**params, "vector": vector_blob}):
                similarity[seq] = max(similarity.get(seq, -1.0), 1.0 - distance)
    seqs = list(dict.fromkeys([seq for seq, _, _ in keyword] + [seq for seq, _ in vector]))
    rows = rows_by_seq(seqs)
    words = [w for chunk in search.query_chunks(words_query) for w in chunk]
    weights = idf_weights(conn, query_terms(tokenize, words))
    total = sum(weights.values())
    # Only keyword candidates contain any of the question's words (BM25 ranks every
    # memory that does; past its top ``pool`` the coverage is taken as 0).
    matched = [seq for seq, _, _ in keyword]
    contexts = dict(conn.execute(search.context_sql(), {"seqs": json.dumps(matched)}).fetchall()) if matched else {}

    def covered(text: str) -> float:
        found = index_terms(tokenize, text) & weights.keys()
        return sum(weights[t] for t in found) / total if total else 0.0

    coverage = dict.fromkeys(seqs, 0.0)
    for seq in matched:
        coverage[seq] = max(covered(rows[seq].content or ""), CONTEXT_COVERAGE * covered(contexts.get(seq) or ""))
    return Candidates(keyword, vector, rows, similarity, coverage, when, degraded,
                      unknown_names(conn, filters, words_query))


def names(query: str) -> list[str]:
    """Capitalised words of ``query`` that do not open a sentence ("Caroline", "SOC", "Kafka")."""
    found: list[str] = []
    for sentence in _SENTENCE.split(query):
        for word in _NAME.findall(sentence)[1:] if sentence[:1].isalpha() else _NAME.findall(sentence):
            if word[:1].isupper() and word.lower() not in search.STOP_WORDS and word not in found:
                found.append(word)
    return found


def unknown_names(conn: apsw.Connection, filters: search.Filters, query: str) -> list[str]:
    """The :func:`names` of ``query`` that no memory passing ``filters`` contains."""
    unknown = []
    for name in names(query):
        match = search.match_expression(name)
        if match and not conn.execute(*search.keyword_sql(filters, match, 1)).fetchall():
            unknown.append(name)
    return unknown


def porter_tokenizer(conn: apsw.Connection) -> Tokenize:
    """The tokenizer of ``memories_fts`` (porter over unicode61, diacritics removed) as a function."""
    tokenizer = conn.fts5_tokenizer("porter", ["unicode61", "remove_diacritics", "2"])

    def tokenize(text: str) -> list[str]:
        return [t[2] for t in tokenizer(text.encode("utf-8"), apsw.FTS5_TOKENIZE_DOCUMENT, None)]

    return tokenize

