"""PostgreSQL query text: the words the full-text index sees, and the keyword, vector and
row queries with their bound parameters. Nothing here runs a query.
More: docs/storage-tuning.md#postgres-sql."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, fields

from ..limits import KINDS
from ..query import Filters, content_words
from ..records import Memory
from ..textindex import index_text

TS_CONFIG = "memvault"  # text search configuration created by schema.py
BOUNDLESS = 2**62  # a bound no count reaches: every match ranked
CONTEXT_WEIGHT = 0.3  # weight of the episode-context column, content counting 1.0 (as on SQLite)
BM25_K1, BM25_B = 1.2, 0.75  # FTS5's bm25() constants
_WORD = re.compile(r"\w+")

# Each field of ``records.Memory`` and the SQL over ``memories AS m`` that reads it (by name).
MEMORY_FIELDS = {f.name: f"m.{f.name}" for f in fields(Memory)} | {
    "tags": "coalesce((SELECT array_agg(t.tag ORDER BY t.tag) FROM memory_tags t WHERE t.memory_seq = m.seq), '{}')"}
MEMORY_COLUMNS = ", ".join(f"{sql_text} AS {name}" for name, sql_text in MEMORY_FIELDS.items())


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


def filter_sql(f: Filters) -> tuple[str, dict[str, object]]:
    """SQL condition over ``memories AS m`` for ``f``, with its named parameters."""
    parts = [
        "m.tenant = %(tenant)s",
        "m.forgotten_at IS NULL",
        "(m.expires_at IS NULL OR m.expires_at > %(now)s)",
    ]
    params: dict[str, object] = {"tenant": f.tenant, "now": f.now}
    if f.scopes is not None:
        parts.append("m.scope = ANY(%(scopes)s)")
        params["scopes"] = list(f.scopes)
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


# The ``tsquery`` of each of ``phrases``, in order (built once, not again for every row).
_PHRASE_QUERIES = (f"ARRAY(SELECT phraseto_tsquery('{TS_CONFIG}', t.p)"
                   " FROM unnest(%(phrases)s::text[]) WITH ORDINALITY AS t(p, i) ORDER BY t.i)")


def _phrases(chunks: list[list[str]]) -> list[str]:
    """The distinct phrases (index words) of the word chunks, in order; empty ones left out."""
    return list(dict.fromkeys(p for p in (index_words(" ".join(words)) for words in chunks) if p))


def holds_sql(f: Filters, chunks: list[list[str]]) -> tuple[str, dict[str, object]] | None:
    """One row: whether a memory passing ``f`` holds one of the chunks' phrases, found by the
    first such memory (``memvault_holds``, schema version 16); None when the chunks have no words."""
    phrases = _phrases(chunks)
    if not phrases:
        return None
    sql = (f"SELECT memvault_holds({_PHRASE_QUERIES}, %(tenant)s, %(scopes)s, %(kinds)s, %(tags)s,"
           " %(now)s, %(history)s, %(since)s, %(until)s)")
    return sql, {"phrases": phrases, "tenant": f.tenant, "scopes": None if f.scopes is None else list(f.scopes),
                 "kinds": list(f.kinds) if f.kinds else None, "tags": list(dict.fromkeys(f.tags)) if f.tags else None,
                 "now": f.now, "history": f.include_history, "since": f.since, "until": f.until}


@dataclass(frozen=True)
class TextStats:
    """Of one phrase or content word: its index terms, the tenant's memories whose own text
    holds it, and those passing the filters holding it anywhere (None: not a phrase, or not
    known; of a phrase a bounded search ranks only in part, those of the memories ranked)."""

    lexemes: tuple[str, ...]
    documents: int
    passing: int | None


@dataclass(frozen=True)
class Keyword:
    """The keyword statement's SQL and parameters, and how to read its rows (:meth:`split`)."""

    sql: str
    params: dict[str, object]
    texts: list[str]
    phrases: int

    def split(self, rows: list[tuple]) -> KeywordFound:
        """The statement's rows, read."""
        return KeywordFound(
            candidates=[(int(a), float(b), float(c) + 0.0) for part, a, b, c, _, _ in rows if part == 0],
            total=next((int(b) for part, _, b, _, _, _ in rows if part == 2), 0),
            bounded=any(part == 2 and c for part, _, _, c, _, _ in rows),
            texts={
                self.texts[a - 1]: TextStats(tuple(lexemes), int(b),
                                             int(c) if a <= self.phrases and c is not None else None)
                for part, a, b, c, lexemes, _ in rows if part == 1
            },
            terms={int(a): (set(own), set(context)) for part, a, _, _, own, context in rows if part == 0},
        )


@dataclass(frozen=True)
class KeywordFound:
    """``candidates`` ``(seq, score, content score)`` best first; ``total``, BM25's N;
    ``texts``' statistics; ``terms``, each candidate's own and context index terms;
    ``bounded``: whether some phrase's matches were not all ranked."""

    candidates: list[tuple[int, float, float]]
    total: int
    bounded: bool
    texts: dict[str, TextStats]
    terms: dict[int, tuple[set[str], set[str]]]


def keyword_texts(chunks: list[list[str]]) -> tuple[list[str], int]:
    """The texts the keyword statement counts: the chunks' phrases, then the content words
    that are no phrase of their own; and how many of them are phrases."""
    phrases = _phrases(chunks)
    words = [w for w in dict.fromkeys(index_words(w) for w in content_words(chunks))
             if w and w not in phrases]
    return phrases + words, len(phrases)


# Of each text (1-based ``i``), the tenant's memories holding it in their own text and in either
# column, from the counts kept per index term (``keyword_terms``, schema version 14): a text of
# several terms counts as its rarest.
_COUNTS = ("SELECT t.i::integer AS i, coalesce(min(coalesce(k.content, 0)), 0)::bigint AS content,"
           " coalesce(min(coalesce(k.content + k.context, 0)), 0)::bigint AS anywhere"
           " FROM unnest(%(phrases)s::text[]) WITH ORDINALITY AS t(p, i)"
           f" LEFT JOIN LATERAL unnest(tsvector_to_array(to_tsvector('{TS_CONFIG}', t.p))) AS l(term) ON true"
           " LEFT JOIN keyword_terms k ON k.tenant = %(tenant)s AND k.term = l.term"
           " GROUP BY t.i")


def keyword_sql(f: Filters, chunks: list[list[str]], k: int, ranked: int | None = None,
                newest: int = 0) -> Keyword | None:
    """Top-``k`` full-text candidates, best first, with their index terms, then statistics
    rows (read them with :meth:`Keyword.split`); None when the chunks have no index words.
    ``ranked``: when the phrases' counts (``keyword_terms``) sum past it, rank whole only the
    rarest phrases, at most ``ranked`` matches in all, and the others' matches among those and
    the tenant's ``newest`` newest memories, decided in the same statement (None: rank every
    match). More: docs/storage-tuning.md#postgres-sql-keyword-sql."""
    texts, phrase_count = keyword_texts(chunks)
    if not phrase_count:
        return None
    where, params = filter_sql(f)

    def bm25(tf: str) -> str:
        return (f"CASE WHEN {tf} > 0 THEN (SELECT idf FROM i)[h.phrase] * {tf} * {BM25_K1 + 1}::float8 / ({tf}"
                f" + {BM25_K1}::float8 * ({1 - BM25_B}::float8 + {BM25_B}::float8 * h.length / (SELECT avgdl FROM a)))"
                " ELSE 0 END")

    def tsqueries(last: str) -> str:
        return (f"ARRAY(SELECT phraseto_tsquery('{TS_CONFIG}', t.p) FROM unnest(%(phrases)s::text[])"
                f" WITH ORDINALITY AS t(p, i) WHERE t.i <= {last} ORDER BY t.i)")

    whole = "(SELECT whole FROM b)"
    df = f"CASE WHEN {whole}[h.phrase] THEN count(*) ELSE (SELECT anywhere FROM b)[h.phrase] END"
    every = "(SELECT every FROM b)"  # every phrase ranked whole: no bound
    sql = (
        f"WITH c AS MATERIALIZED ({_COUNTS}),"
        # The rarest phrases, by count, while their counts sum to at most %(ranked)s (ties by order).
        " b AS MATERIALIZED (SELECT array_agg(x.whole ORDER BY x.i) AS whole, bool_and(x.whole) AS every,"
        " array_agg(x.anywhere ORDER BY x.i) AS anywhere"
        " FROM (SELECT c.i, c.anywhere, sum(c.anywhere) OVER (ORDER BY c.anywhere, c.i) <= %(ranked)s AS whole"
        " FROM c WHERE c.i <= %(phrase_count)s) x),"
        # Unbounded: every text's matches (the content words' count the texts); bounded: the phrases'.
        f" hits AS MATERIALIZED (SELECT * FROM memvault_phrase_hits({tsqueries('cardinality(%(phrases)s::text[])')},"
        f" %(tenant)s) WHERE {every}"
        f" UNION ALL SELECT * FROM memvault_bounded_hits({tsqueries('%(phrase_count)s')}, {whole}, %(newest)s,"
        f" %(tenant)s) WHERE NOT {every}),"
        " h AS MATERIALIZED (SELECT m.phrase, m.seq, max(m.in_content::int)::float8 AS fc,"
        " max((NOT m.in_content)::int)::float8 AS fx, max(m.terms)::float8 AS length"
        f" FROM hits m WHERE m.phrase <= %(phrase_count)s AND {where} GROUP BY m.phrase, m.seq),"
        # N, kept by a trigger (schema.py, keyword_documents).
        " d AS MATERIALIZED (SELECT coalesce(sum(k.documents), 0)::float8 AS n FROM keyword_documents k"
        " WHERE k.tenant = %(tenant)s),"
        # n: the matches passing the filters; of a phrase not ranked whole, every memory of the
        # tenant holding it (as FTS5 counts).
        " w AS MATERIALIZED (SELECT h.phrase, count(*) AS passing,"
        f" greatest(ln((greatest((SELECT n FROM d) - {df}, 0) + 0.5) / ({df} + 0.5)), 1e-6) AS idf"
        " FROM h GROUP BY h.phrase),"
        # IDFs and the average length read once (an InitPlan each), not joined to every match.
        " i AS MATERIALIZED (SELECT array_agg(coalesce(w.idf, 0) ORDER BY g.i) AS idf"
        " FROM generate_series(1, %(phrase_count)s) g(i) LEFT JOIN w ON w.phrase = g.i),"
        " a AS MATERIALIZED (SELECT greatest(avg(length), 1) AS avgdl FROM (SELECT DISTINCT seq, length FROM h) l),"
        f" top AS (SELECT h.seq, -sum({bm25(f'(h.fc + {CONTEXT_WEIGHT}::float8 * h.fx)')}) AS score, -sum({bm25('h.fc')})"
        " AS content FROM h GROUP BY h.seq ORDER BY score, h.seq DESC LIMIT %(k)s)"
        " SELECT 0 AS part, top.seq, top.score, top.content,"
        " tsvector_to_array(coalesce(m.content_terms, ''::tsvector)) AS lexemes,"
        " tsvector_to_array(coalesce(m.context_terms, ''::tsvector)) AS context"
        " FROM top JOIN memories m ON m.seq = top.seq"
        # The tenant's memories holding each text in their own text: counted among the matches
        # when all are read, else kept per term. Passing: of a phrase not ranked whole, the
        # memories ranked that hold it, when there are any (then some pass).
        f" UNION ALL SELECT 1, t.i, CASE WHEN {every} THEN coalesce(o.n, 0) ELSE c.content END,"
        f" CASE WHEN {every} OR {whole}[t.i] THEN coalesce(w.passing, 0) WHEN w.passing > 0 THEN w.passing END,"
        f" tsvector_to_array(to_tsvector('{TS_CONFIG}', t.p)), NULL FROM unnest(%(phrases)s::text[]) WITH ORDINALITY AS t(p, i)"
        " JOIN c ON c.i = t.i"
        " LEFT JOIN (SELECT phrase, count(*) FILTER (WHERE in_content) AS n FROM hits GROUP BY phrase) o ON o.phrase = t.i"
        " LEFT JOIN w ON w.phrase = t.i"
        f" UNION ALL SELECT 2, 0, d.n, (NOT {every})::int, NULL, NULL FROM d"
        " ORDER BY part, score, seq DESC"
    )
    return Keyword(sql, {**params, "phrases": texts, "phrase_count": phrase_count, "k": k,
                         "ranked": BOUNDLESS if ranked is None else ranked, "newest": newest}, texts, phrase_count)


def vector_sql(f: Filters, k: int, exact: bool) -> tuple[str, dict[str, object]]:
    """Top-``k`` memories by cosine distance of window 0 as rows ``(seq, distance)``; bind ``vector``.
    More: docs/storage-tuning.md#postgres-sql-vector-sql."""
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
    """Top-``k`` ``(seq, distance)`` by the best later window (exact scan); bind ``vector``."""
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
        f" SELECT memory_seq AS seq, v.embedding <=> %(vector)s AS distance FROM memory_vectors v"
        f" WHERE memory_seq = ANY(%(seqs)s){own}"
        f" UNION ALL SELECT memory_seq, w.embedding <=> %(vector)s FROM memory_windows w"
        f" WHERE memory_seq = ANY(%(seqs)s){own}) d GROUP BY seq"
    )


def pairs_sql(tenant: str | None) -> str:
    """Rows ``(a, b, best cosine distance)``: of the own (window 0) vector of each of ``seqs`` (bind
    it, and ``tenant`` when not None) to every vector of each of them, all windows included."""
    own, a_own = (" AND tenant = %(tenant)s", " AND a.tenant = %(tenant)s") if tenant is not None else ("", "")
    return (
        "SELECT a.memory_seq, b.seq, min(b.embedding <=> a.embedding) FROM memory_vectors a CROSS JOIN ("
        f" SELECT memory_seq AS seq, embedding FROM memory_vectors WHERE memory_seq = ANY(%(seqs)s){own}"
        f" UNION ALL SELECT memory_seq, embedding FROM memory_windows WHERE memory_seq = ANY(%(seqs)s){own}) b"
        f" WHERE a.memory_seq = ANY(%(seqs)s){a_own} GROUP BY a.memory_seq, b.seq"
    )


def listing_sql(
    f: Filters, order: str, limit: int, after: tuple[int, int] | None = None
) -> tuple[str, dict[str, object]]:
    """Up to ``limit`` current memories passing ``f`` in ``order``, after the keyset ``after``:
    one bounded index range per scope and kind, so a page costs what it shows."""
    where, params = filter_sql(f)
    if after is not None:
        where += " AND (m.observed_at, m.seq) < (%(after_at)s, %(after_seq_key)s)"
        params = {**params, "after_at": after[0], "after_seq_key": after[1]}
    keys = ("observed_at", "seq") if order == "observed" else ("importance", "observed_at", "seq")
    inner = ", ".join(f"m.{k} DESC" for k in keys)
    outer = ", ".join(f"page.{k} DESC" for k in keys)
    sql = (
        f"SELECT m.seq, {MEMORY_COLUMNS} FROM unnest(%(scopes)s::text[]) AS s(scope) CROSS JOIN unnest(%(all_kinds)s::text[]) AS k(kind)"
        f" CROSS JOIN LATERAL (SELECT {', '.join(f'm.{k}' for k in keys)} FROM memories m"
        f" WHERE m.scope = s.scope AND m.kind = k.kind AND {where} ORDER BY {inner} LIMIT %(limit)s) page"
        f" JOIN memories m ON m.seq = page.seq ORDER BY {outer} LIMIT %(limit)s"
    )
    return sql, {**params, "all_kinds": list(f.kinds or KINDS), "limit": limit}


# The runs of the memories of a tenant named in ``ids``, each memory's oldest first.
# Two steps (the memories by id, then their runs by seq): joined, the planner walked a memories
# index whole on small tables (tests/test_query_plans_postgres.py).
RUNS_SQL = ("SELECT r.memory_seq, r.at, r.outcome, r.note FROM runs r WHERE r.memory_seq = ANY(%(seqs)s)"
            " ORDER BY r.memory_seq, r.at, r.seq")
