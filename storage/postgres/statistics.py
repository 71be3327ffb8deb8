"""What ANALYZE may not copy into ``pg_statistic``: the columns holding what a forget removes
(text, its words, hashes, vectors), kept out of its samples, and what it copied before
removed. Why: docs/postgresql.md#what-forget-guarantees."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import sql

# Per table, the columns whose values a forget empties or deletes (the tombstone keeps the others:
# tenant, scope, kind, ids, times). ANALYZE stores samples of a column (most common values, histogram
# bounds, a tsvector's most common words) in pg_statistic, which no table rewrite touches; at
# statistics target 0 it samples none (PostgreSQL's ALTER TABLE ... SET STATISTICS).
UNSAMPLED: dict[str, tuple[str, ...]] = {
    "memories": ("content", "content_hash", "source", "supersede_reason", "tokens", "content_terms",
                 "context_terms"),
    "memory_tags": ("tag",),
    "idempotency_keys": ("key", "content_hash"),
    "runs": ("note",),
    "sessions": ("id", "client", "cwd"),
    "turns": ("text", "tool", "call_id", "ref", "terms"),
    "keyword_terms": ("term",),
    "memory_vectors": ("embedding",),  # made by memvault_vector_tables, which sets the target itself
    "memory_windows": ("embedding",),
}
# Setting: pg_statistic may still hold values of ``UNSAMPLED`` columns, sampled before their
# target was 0 (a database migrated from schema version 19 or older): the next scrub removes them.
STATISTICS_DUE = "statistics_due"
_CLEARS = "pg_clear_attribute_stats(text, text, text, boolean)"  # PostgreSQL 18: the table's owner may run it


def unsampled_sql(table: str) -> list[sql.Composed]:
    """DDL setting the statistics target of ``table``'s ``UNSAMPLED`` columns to 0 (ANALYZE skips them)."""
    return [sql.SQL("ALTER TABLE {} ALTER COLUMN {} SET STATISTICS 0").format(sql.Identifier(table),
                                                                             sql.Identifier(column))
            for column in UNSAMPLED[table]]


def scalar(conn: psycopg.Connection, query: str, params: tuple = ()) -> Any:
    """The first column of the first row of ``query`` (which always returns one)."""
    row = conn.execute(query, params).fetchone()  # type: ignore[arg-type]
    assert row is not None
    return row[0]


def clear(conn: psycopg.Connection) -> str | None:
    """Remove the statistics of every ``UNSAMPLED`` column, then rewrite ``pg_statistic`` (``VACUUM
    FULL``: the removed rows would stay in its files as dead tuples). ``conn`` is in autocommit. None
    when done; else why not (this role may not), changing nothing that matters."""
    tables = [t for t in UNSAMPLED if scalar(conn, "SELECT to_regclass(%s) IS NOT NULL", (t,))]
    if scalar(conn, "SELECT to_regprocedure(%s) IS NOT NULL", (_CLEARS,)):
        for table in tables:
            for column in UNSAMPLED[table]:
                conn.execute("SELECT pg_clear_attribute_stats(current_schema(), %s, %s, false)", (table, column))
    elif scalar(conn, "SELECT rolsuper FROM pg_roles WHERE rolname = current_user"):
        for table in tables:
            conn.execute("DELETE FROM pg_catalog.pg_statistic WHERE starelid = %s::regclass AND staattnum IN"
                         " (SELECT attnum FROM pg_attribute WHERE attrelid = %s::regclass AND attname = ANY(%s))",
                         (table, table, list(UNSAMPLED[table])))
    else:
        return "before PostgreSQL 18 only a superuser may remove a column's statistics"
    before = scalar(conn, "SELECT pg_relation_filenode('pg_catalog.pg_statistic')")
    conn.execute("VACUUM FULL pg_catalog.pg_statistic")  # skipped with a warning where not permitted
    if scalar(conn, "SELECT pg_relation_filenode('pg_catalog.pg_statistic')") == before:
        return ("only the database's owner, a superuser or a role granted MAINTAIN on pg_catalog.pg_statistic "
                "may rewrite pg_statistic")
    return None
