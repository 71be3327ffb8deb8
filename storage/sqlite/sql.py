"""The SQLite side of retrieval: keyword (FTS5 BM25) and vector (the cells of the
vector index, plus the windows of long memories) candidate queries, and how a question becomes an FTS5 query.
More: docs/storage-tuning.md#sqlite-sql."""

from __future__ import annotations

import json

from ..limits import KINDS
from ..query import Filters
from .cells import CELL_SHIFT, SEQ_MASK
from .schema import VECTOR_SEQ, VECTOR_TABLE

CONTEXT_WEIGHT = 0.3  # BM25 weight of the context column, content counting 1.0


def match_expression(chunks: list[list[str]]) -> str | None:
    """The FTS5 MATCH expression of a question's word chunks (``query.query_chunks``),
    or None when there are none.
    More: docs/storage-tuning.md#sqlite-sql-match-expression."""
    return " OR ".join('"' + " ".join(words) + '"' for words in chunks) or None


_EXPIRY = {
    None: "(m.expires_at IS NULL OR m.expires_at > :now)",
    False: "m.expires_at IS NULL",
    True: "m.expires_at > :now",
}


def filter_sql(f: Filters, expiring: bool | None = None) -> tuple[str, dict[str, object]]:
    """SQL condition over ``memories AS m`` for ``f``, with its named parameters.

    ``expiring``: None for every memory passing ``f``; False for those of them that never
    expire, True for those that expire after ``f.now`` (see :func:`passing_seqs_sql`)."""
    parts = [
        "m.tenant = :tenant",
        "m.forgotten_at IS NULL",
        _EXPIRY[expiring],
    ]
    params: dict[str, object] = {"tenant": f.tenant, "now": f.now}
    if f.scopes is not None:
        parts.append("m.scope IN (SELECT value FROM json_each(:scopes))")
        params["scopes"] = json.dumps(f.scopes)
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


def _scores(table: str) -> str:
    return f"bm25({table}, 1.0, {CONTEXT_WEIGHT}) AS score, bm25({table}, 1.0, 0.0) AS content"


def keyword_sql(
    f: Filters, match: str, k: int, newer_than: int | None = None, rare: str | None = None, common: str | None = None,
    *, table: str,
) -> tuple[str, dict[str, object]]:
    """Top-``k`` BM25 candidates as rows ``(seq, bm25, content bm25)``; lower bm25 is better.
    ``table``: the tenant's keyword index (``schema.keyword_table``).
    More: docs/storage-tuning.md#sqlite-sql-keyword-sql."""
    where, params = filter_sql(f)
    params = {**params, "match": match, "k": k}
    scores = _scores(table)
    if newer_than is None:
        ranked = f"SELECT rowid, {scores} FROM {table} WHERE {table} MATCH :match ORDER BY score LIMIT -1"
    elif rare is None:
        ranked = (f"SELECT rowid, {scores} FROM {table} WHERE {table} MATCH :match AND rowid > :newer_than"
                  " ORDER BY score LIMIT -1")
        params["newer_than"] = newer_than
    else:
        if common is None:
            raise ValueError("a bound with rare chunks needs the common ones too")
        scans = (
            f"SELECT rowid, {scores} FROM {table} WHERE {table} MATCH :match AND rowid > :newer_than"
            f" UNION ALL SELECT rowid, {scores} FROM {table} WHERE {table} MATCH :both"
            " AND rowid <= :newer_than"
            f" UNION ALL SELECT rowid, {scores} FROM {table} WHERE {table} MATCH :rare"
            " AND rowid <= :newer_than"
        )
        # min(): SQLite takes the bare column ``content`` from the row that has the minimum.
        ranked = f"SELECT rowid, min(score) AS score, content FROM ({scans}) GROUP BY rowid ORDER BY score LIMIT -1"
        params.update(newer_than=newer_than, rare=rare, both=f"({common}) AND ({rare})")
    sql = (
        f"SELECT m.seq, d.score, d.content FROM ({ranked}) d CROSS JOIN memories m ON m.seq = d.rowid"
        f" WHERE {where} ORDER BY d.score LIMIT :k"
    )
    return sql, params


def filtered_keyword_sql(f: Filters, match: str, k: int, *, table: str) -> tuple[str, dict[str, object]]:
    """:func:`keyword_sql`'s rows over every match, each memory looked up for the filter
    before its BM25 is computed: the cheaper order when the filter passes few matches."""
    where, params = filter_sql(f)
    sql = (
        f"SELECT m.seq, {_scores(table)}"
        f" FROM {table} JOIN memories m ON m.seq = {table}.rowid"
        f" WHERE {table} MATCH :match AND {where}"
        " ORDER BY score LIMIT :k"
    )
    return sql, {**params, "match": match, "k": k}


def documents_sql(terms: list[str], *, table: str) -> tuple[str, dict[str, object]]:
    """Rows ``(term, column, documents)``: in how many memories each index term occurs in
    each column ("content", "context"); no row for a column where it does not occur."""
    sql = f"SELECT term, col, doc FROM {table}_terms WHERE term IN (SELECT value FROM json_each(:terms))"
    return sql, {"terms": json.dumps(terms)}


def newest_match_sql(match: str, skip: int, *, table: str) -> tuple[str, dict[str, object]]:
    """One row ``(seq,)``: the ``skip + 1``-th newest memory matching ``match``; none when fewer match."""
    sql = f"SELECT rowid FROM {table} WHERE {table} MATCH :match ORDER BY rowid DESC LIMIT 1 OFFSET :skip"
    return sql, {"match": match, "skip": skip}


def contains_sql(f: Filters, match: str, *, table: str) -> tuple[str, dict[str, object]]:
    """One row ``(1,)`` when a memory passing ``f`` matches ``match``, else ``(0,)``: the
    first match that passes ends the query, no score is computed."""
    where, params = filter_sql(f)
    sql = (
        f"SELECT EXISTS (SELECT 1 FROM {table} JOIN memories m ON m.seq = {table}.rowid"
        f" WHERE {table} MATCH :match AND {where})"
    )
    return sql, {**params, "match": match}


def _seq(alias: str) -> str:
    """The memory seq of row ``alias`` of the vector table, as ``VECTOR_SEQ`` (its index) has it."""
    return f"({alias}.key & {SEQ_MASK})"


def vector_sql(f: Filters, k: int, cells: list[int] | None, nearest: int | None = None) -> tuple[str, dict[str, object]]:
    """Top-``k`` cosine candidates as rows ``(seq, distance)``; bind ``:vector``.
    More: docs/storage-tuning.md#sqlite-sql-vector-sql."""
    distance = "vec_distance_cosine(v.embedding, :vector)"
    if cells is None:
        passing, params = passing_seqs_sql(f)
        sql = (
            f"SELECT p.seq, {distance} AS distance FROM ({passing}) p CROSS JOIN {VECTOR_TABLE} v"
            f" ON {_seq('v')} = +p.seq ORDER BY distance LIMIT :k"
        )
        return sql, {**params, "k": k}
    where, params = filter_sql(f)
    in_cells = (
        f"json_each(:cells) c CROSS JOIN {VECTOR_TABLE} v"
        f" ON v.key BETWEEN c.value << {CELL_SHIFT} AND (c.value << {CELL_SHIFT}) | {SEQ_MASK}"
    )
    params = {**params, "k": k, "cells": json.dumps(cells)}
    if nearest is None:
        sql = (
            f"SELECT m.seq, {distance} AS distance FROM {in_cells}"
            f" CROSS JOIN memories m ON m.seq = {_seq('v')} WHERE {where} ORDER BY distance LIMIT :k"
        )
        return sql, params
    sql = (
        f"SELECT m.seq, d.distance FROM (SELECT {_seq('v')} AS seq, {distance} AS distance FROM {in_cells}"
        " ORDER BY distance LIMIT :nearest) d"
        f" CROSS JOIN memories m ON m.seq = d.seq WHERE {where} ORDER BY d.distance LIMIT :k"
    )
    return sql, {**params, "nearest": nearest}


def rescore_sql(f: Filters, k: int) -> tuple[str, dict[str, object]]:
    """Top-``k`` cosine candidates among the vectors under the given keys (bind ``:keys``,
    a JSON list of ``memory_vectors`` keys, and ``:vector``), as rows ``(seq, distance)``:
    each row read by its key, its memory looked up for the filter, scored exactly."""
    where, params = filter_sql(f)
    sql = (
        f"SELECT m.seq, vec_distance_cosine(v.embedding, :vector) AS distance FROM json_each(:keys) j"
        f" CROSS JOIN {VECTOR_TABLE} v ON v.key = j.value CROSS JOIN memories m ON m.seq = {_seq('v')}"
        f" WHERE {where} ORDER BY distance LIMIT :k"
    )
    return sql, {**params, "k": k}


def passing_seqs_sql(f: Filters) -> tuple[str, dict[str, object]]:
    """Rows ``(seq,)`` of the memories passing ``f``: those that never expire, then those
    expiring after ``f.now``, each found by its own search of the index ``memories_kept``
    (tenant, scope, expires_at, kind, observed_at), named in the query: as one condition
    over expiry, or left to the planner, the search read every memory of the scope or of the
    tenant (docs/storage-tuning.md#the-memories-passing-a-filter)."""
    never, params = filter_sql(f, expiring=False)
    later, _ = filter_sql(f, expiring=True)
    table = "memories m INDEXED BY memories_kept"
    return f"SELECT m.seq FROM {table} WHERE {never} UNION ALL SELECT m.seq FROM {table} WHERE {later}", params


def passing_sql(f: Filters, limit: int) -> tuple[str, dict[str, object]]:
    """One row: how many memories pass ``f``, counting no further than ``limit``."""
    passing, params = passing_seqs_sql(f)
    return f"SELECT count(*) FROM ({passing} LIMIT :limit)", {**params, "limit": limit}


def window_sql(f: Filters, k: int) -> tuple[str, dict[str, object]]:
    """Top-``k`` memories by their best later window (long memories), rows ``(seq, distance)``;
    bind ``:vector``. An exact scan of the windows of the memories that pass the filter.
    More: docs/storage-tuning.md#sqlite-sql-window-sql."""
    where, params = filter_sql(f)
    sql = (
        "SELECT w.memory_seq, min(vec_distance_cosine(w.embedding, :vector)) AS distance"
        " FROM memory_windows w CROSS JOIN memories m ON m.seq = w.memory_seq"
        f" WHERE {where} GROUP BY w.memory_seq ORDER BY distance LIMIT :k"
    )
    return sql, {**params, "k": k}


def similarity_sql(seqs: list[int]) -> tuple[str, dict[str, object]]:
    """Cosine distance to ``:vector`` (bind it) of every vector of the named memories, all
    windows included: rows ``(seq, distance)``, several per long memory."""
    sql = (
        f"SELECT {VECTOR_SEQ}, vec_distance_cosine(embedding, :vector) FROM {VECTOR_TABLE}"
        f" WHERE {VECTOR_SEQ} IN (SELECT value FROM json_each(:seqs))"
        " UNION ALL SELECT memory_seq, vec_distance_cosine(embedding, :vector) FROM memory_windows"
        " WHERE memory_seq IN (SELECT value FROM json_each(:seqs))"
    )
    return sql, {"seqs": json.dumps(seqs)}


def pairs_sql(seqs: list[int]) -> tuple[str, dict[str, object]]:
    """Rows ``(a, b, best cosine distance)``: of the own (window 0) vector of each of ``seqs``
    to every vector of each of ``seqs``, all windows included (the least over them)."""
    wanted = "(SELECT value FROM json_each(:seqs))"
    sql = (
        f"WITH own(seq, embedding) AS (SELECT {VECTOR_SEQ}, embedding FROM {VECTOR_TABLE}"
        f" WHERE {VECTOR_SEQ} IN {wanted}),"
        " every(seq, embedding) AS (SELECT seq, embedding FROM own UNION ALL SELECT memory_seq, embedding"
        f" FROM memory_windows WHERE memory_seq IN {wanted})"
        " SELECT a.seq, every.seq, min(vec_distance_cosine(every.embedding, a.embedding)) FROM own a CROSS JOIN every"
        " GROUP BY a.seq, every.seq"
    )
    return sql, {"seqs": json.dumps(seqs)}


def prefix_sql(columns: str, tenant: str, prefix: str) -> tuple[str, dict[str, object]]:
    """``columns`` (over ``memories AS m``) of ``tenant``'s first ``:limit`` memories whose id starts with
    ``prefix``, after ``:offset`` (bind both)."""
    sql = (
        f"SELECT {columns} FROM memories m WHERE m.tenant = :tenant AND m.id >= :prefix AND m.id < :after"
        " ORDER BY m.id LIMIT :limit OFFSET :offset"
    )
    return sql, {"tenant": tenant, "prefix": prefix, "after": prefix + "~"}  # '~' sorts after every id character


_LISTING_KEYS = {"observed": ("observed_at", "seq"), "importance": ("importance", "observed_at", "seq")}


def listing_sql(
    f: Filters, order: str, limit: int, after: tuple[int, ...] | None, columns: str
) -> tuple[str, dict[str, object]]:
    """``columns`` of the memories passing ``f`` in ``order`` ("observed": newest first;
    "importance": most important, then newest; ties: newest row first), at most
    ``limit``, starting after the row whose order key (``_LISTING_KEYS``) is ``after``.
    More: docs/storage-tuning.md#sqlite-sql-listing-sql."""
    where, params = filter_sql(f)
    keys = _LISTING_KEYS[order]
    key = ", ".join(f"m.{k}" for k in keys)
    desc = ", ".join(f"{k} DESC" for k in keys)
    params = {**params, "limit": limit}
    if after is not None:
        where += f" AND ({key}) < ({', '.join(f':after{i}' for i in range(len(keys)))})"
        params.update({f"after{i}": value for i, value in enumerate(after)})
    if f.include_history:
        if order != "observed":
            raise ValueError("a listing with history is ordered by observation time")
        return (f"SELECT {columns} FROM memories m INDEXED BY memories_observed WHERE {where}"
                f" ORDER BY {', '.join(f'm.{k} DESC' for k in keys)} LIMIT :limit"), params
    branches = []
    for i, (scope, kind) in enumerate((s, k) for s in f.scopes for k in (f.kinds or KINDS)):
        params[f"scope{i}"], params[f"kind{i}"] = scope, kind
        branches.append(
            f"SELECT * FROM (SELECT {key} FROM memories m INDEXED BY memories_{'recent' if order == 'observed' else 'important'}"
            f" WHERE m.scope = :scope{i} AND m.kind = :kind{i} AND {where} ORDER BY {desc} LIMIT :limit)"
        )
    return (f"SELECT {columns} FROM ({' UNION ALL '.join(branches)}) page CROSS JOIN memories m ON m.seq = page.seq"
            f" ORDER BY {', '.join(f'page.{k} DESC' for k in keys)} LIMIT :limit"), params


# The runs of the memories of a tenant named in a JSON array of ids, each memory's oldest first.
RUNS = ("SELECT m.id, r.at, r.outcome, r.note FROM memories m JOIN runs r ON r.memory_seq = m.seq"
        " WHERE m.tenant = ? AND m.id IN (SELECT value FROM json_each(?)) ORDER BY r.memory_seq, r.at, r.seq")
