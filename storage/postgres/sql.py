"""The PostgreSQL side of retrieval: the text the full-text index sees, and the keyword
(``tsvector``/``tsquery``), vector (pgvector HNSW, plus the windows of long memories)
and row queries, as SQL text plus bound parameters. Nothing here runs a query.

Every filter (tenant, scope, kind, tags, time range, expiry, supersession) is part
of the candidate query itself, as on SQLite (``storage.sqlite.sql``): filtering after
a top-k makes filtered searches miss. Values are always bound (``%(name)s``);
identifiers come only from constants.

Text. Both the stored ``tsvector`` and the query are built from :func:`index_words`,
applied in Python: CJK runs as bigrams and a few Latin letters folded
(``textindex.index_text``), diacritics removed (as FTS5's ``remove_diacritics``),
then only the ``\\w`` words, joined by single spaces, words with non-ASCII letters
lower-cased and spelled in hex. PostgreSQL's parser therefore only ever sees ASCII
words and numbers, so what is indexed does not depend on the server's locale (under
``LC_CTYPE=C`` its parser drops non-ASCII letters), host names, paths and version
numbers are split into words as FTS5 splits them, and a phrase spans punctuation as
it does in FTS5. The configuration ``memvault`` stems those words with the Snowball
English stemmer (Porter's second version) and drops no stop word, like FTS5's
``porter unicode61``.
"""

from __future__ import annotations

import re
import unicodedata

from ..query import Filters
from ..textindex import index_text

TS_CONFIG = "memvault"  # text search configuration created by schema.py
CONTEXT_WEIGHT = 0.3  # weight of the episode-context column, content counting 1.0 (as on SQLite)
BM25_K1, BM25_B = 1.2, 0.75  # FTS5's bm25() constants
_WORD = re.compile(r"\w+")

MEMORY_COLUMNS = (  # the fields of ``records.Memory`` over ``memories AS m``, in order
    "m.id, m.tenant, m.scope, m.kind, m.content,"
    " coalesce((SELECT array_agg(t.tag ORDER BY t.tag) FROM memory_tags t WHERE t.memory_seq = m.seq), '{}'),"
    " m.importance, m.source, m.observed_at, m.recorded_at, m.expires_at, m.supersedes,"
    " m.superseded_by, m.supersede_reason, m.forgotten_at, m.forget_reason, m.confirmations,"
    " m.last_confirmed_at, m.vector_pending"
)


def _spell(word: str) -> str:
    """``word`` as the index stores it: ASCII as it is, anything else lower-cased and in hex."""
    if word.isascii():
        return word
    return "u" + "".join(f"{ord(c):06x}" for c in word.lower())


def index_words(text: str | None) -> str:
    """The words of ``text`` the full-text index sees, joined by single spaces ("" for None)."""
    folded = unicodedata.normalize("NFKD", index_text(text) or "")
    plain = "".join(c for c in folded if not unicodedata.combining(c)).replace("_", " ")
    return " ".join(_spell(w) for w in _WORD.findall(plain))


def tsquery_sql(chunks: list[list[str]]) -> tuple[str, dict[str, object]]:
    """The ``tsquery`` expression of a question's word chunks (``query.query_chunks``)
    and its parameters: one ``phraseto_tsquery`` per chunk, OR-ed with ``||``.

    The words are bound values and reach PostgreSQL only as the text of a phrase, so
    quotes, ``!``, ``&``, ``|``, ``:*``, ``<->`` and parentheses are never query syntax.
    Chunks that have no index words left are dropped; "" when none is left.
    """
    phrases = [p for p in (index_words(" ".join(words)) for words in chunks) if p]
    sql = " || ".join(f"phraseto_tsquery('{TS_CONFIG}', %(phrase{i})s)" for i in range(len(phrases)))
    return sql, {f"phrase{i}": phrase for i, phrase in enumerate(phrases)}


def filter_sql(f: Filters) -> tuple[str, dict[str, object]]:
    """SQL condition over ``memories AS m`` for ``f``, with its named parameters."""
    parts = [
        "m.tenant = %(tenant)s",
        "m.forgotten_at IS NULL",
        "(m.expires_at IS NULL OR m.expires_at > %(now)s)",
        "m.scope = ANY(%(scopes)s)",
    ]
    params: dict[str, object] = {"tenant": f.tenant, "now": f.now, "scopes": list(f.scopes)}
    if not f.include_history:
        parts.append("m.superseded_by IS NULL")
    if f.kinds:
        parts.append("m.kind = ANY(%(kinds)s)")
        params["kinds"] = list(f.kinds)
    if f.tags:
        parts.append(
            "(SELECT count(*) FROM memory_tags t WHERE t.memory_seq = m.seq AND t.tag = ANY(%(tags)s))"
            " = %(tag_count)s"
        )
        params["tags"] = list(f.tags)
        params["tag_count"] = len(set(f.tags))
    if f.since is not None:
        parts.append("m.observed_at >= %(since)s")
        params["since"] = f.since
    if f.until is not None:
        parts.append("m.observed_at < %(until)s")
        params["until"] = f.until
    return " AND ".join(parts), params


def _bm25_sql(column: str) -> str:
    """BM25 of the candidate ``c`` in ``column`` over the weighted phrases ``w`` (a scalar subquery)."""
    norm = f"{BM25_K1} * ({1 - BM25_B} + {BM25_B} * length(c.{column}) / a.avgdl)"
    return f"(SELECT coalesce(sum(w.idf * {BM25_K1 + 1} / (1 + {norm})), 0) FROM w WHERE c.{column} @@ w.q)"


def keyword_sql(f: Filters, chunks: list[list[str]], k: int) -> tuple[str, dict[str, object]] | None:
    """Top-``k`` full-text candidates as rows ``(seq, score, content score)``, best first;
    None when the chunks have no index words.

    ``score`` is minus the BM25 of the memory's content plus ``CONTEXT_WEIGHT`` times that
    of its episode context, so lower is better as with FTS5's ``bm25()``; ``content score``
    is minus the content's alone (0.0 when only the context matched). BM25 (Robertson &
    Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond", 2009) with FTS5's
    k1 = 1.2, b = 0.75, over the memories that pass the filters: each chunk (phrase) is
    weighted by its IDF among them (every memory holding it is a candidate, so its
    document frequency is counted among the candidates), its frequency in a memory is
    taken as 1, and a memory's length is its number of distinct index terms against the
    candidates' average. Measured on LoCoMo (keyword side alone, 1,078 questions):
    R@5 0.532 against FTS5's 0.536; counting each phrase's occurrences gave 0.538 at
    1.7 times the time (15 ms against 9 ms a query).
    """
    query, phrases = tsquery_sql(chunks)
    if not phrases:
        return None
    where, params = filter_sql(f)
    sql = (
        "WITH q AS MATERIALIZED ("
        f" SELECT phraseto_tsquery('{TS_CONFIG}', t.p) AS q FROM unnest(%(phrases)s::text[]) AS t(p)),"
        " c AS MATERIALIZED (SELECT m.seq, m.content_terms, m.context_terms"
        f" FROM memories m, (SELECT {query} AS q) q WHERE (m.content_terms @@ q.q OR m.context_terms @@ q.q)"
        f" AND {where}),"
        f" docs AS MATERIALIZED (SELECT count(*) AS n FROM memories m WHERE {where} AND m.content_terms IS NOT NULL),"
        " w AS MATERIALIZED (SELECT q.q, ln(1 + (d.n - df.n + 0.5) / (df.n + 0.5)) AS idf"
        " FROM q CROSS JOIN docs d CROSS JOIN LATERAL (SELECT count(*) AS n FROM c WHERE c.content_terms @@ q.q) df),"
        " a AS (SELECT greatest(avg(length(content_terms)), 1) AS avgdl FROM c),"
        f" s AS (SELECT c.seq, {_bm25_sql('content_terms')} AS content, {_bm25_sql('context_terms')} AS context"
        " FROM c, a)"
        f" SELECT seq, -(content + {CONTEXT_WEIGHT} * context) AS score, -content FROM s"
        " ORDER BY score, seq DESC LIMIT %(k)s"
    )
    return sql, {**params, **phrases, "phrases": list(phrases.values()), "k": k}


def vector_sql(f: Filters, k: int, exact: bool) -> tuple[str, dict[str, object]]:
    """Top-``k`` memories by cosine distance of window 0 as rows ``(seq, distance)``; bind ``vector``.

    Not ``exact``: ordered by the HNSW index (``memory_vectors_hnsw``), every filter in
    the same query; with ``hnsw.iterative_scan`` the index scan goes on until ``k``
    rows pass the filters (pgvector ≥ 0.8), and the outer ``ORDER BY`` restores the
    strict order that ``relaxed_order`` may break. ``exact``: the distance of every
    memory passing the filters, computed in a materialised CTE the index cannot serve.
    """
    where, params = filter_sql(f)
    source = (
        "SELECT v.memory_seq AS seq, v.embedding <=> %(vector)s AS distance"
        " FROM memory_vectors v JOIN memories m ON m.seq = v.memory_seq"
        f" WHERE v.tenant = %(tenant)s AND {where}"
    )
    if exact:
        sql = f"WITH c AS MATERIALIZED ({source}) SELECT seq, distance FROM c ORDER BY distance, seq LIMIT %(k)s"
    else:
        sql = (
            f"SELECT seq, distance FROM ({source} ORDER BY v.embedding <=> %(vector)s LIMIT %(k)s) c"
            " ORDER BY distance, seq"
        )
    return sql, {**params, "k": k}


def window_sql(f: Filters, k: int) -> tuple[str, dict[str, object]]:
    """Top-``k`` memories by their best later window (long memories), rows ``(seq, distance)``;
    bind ``vector``. An exact scan of the windows of the memories that pass the filter."""
    where, params = filter_sql(f)
    sql = (
        "SELECT w.memory_seq, min(w.embedding <=> %(vector)s) AS distance"
        " FROM memory_windows w JOIN memories m ON m.seq = w.memory_seq"
        f" WHERE w.tenant = %(tenant)s AND {where} GROUP BY w.memory_seq ORDER BY distance LIMIT %(k)s"
    )
    return sql, {**params, "k": k}


def similarity_sql(tenant: str | None) -> str:
    """Rows ``(seq, best cosine distance)`` of the memories ``seqs`` (bind it and ``vector``,
    and ``tenant`` when not None) over all their windows."""
    own = " AND tenant = %(tenant)s" if tenant is not None else ""
    return (
        "SELECT seq, min(distance) FROM ("
        f" SELECT memory_seq AS seq, embedding <=> %(vector)s AS distance FROM memory_vectors"
        f" WHERE memory_seq = ANY(%(seqs)s){own}"
        " UNION ALL SELECT memory_seq, embedding <=> %(vector)s FROM memory_windows"
        f" WHERE memory_seq = ANY(%(seqs)s){own}) d GROUP BY seq"
    )
