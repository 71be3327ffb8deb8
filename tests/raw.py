"""Each backend's own test helper: SQL on a second connection to a test's database
(``db``: an SQLite path or a PostgreSQL URL), for tests that damage a database on
purpose or look below the storage interface. On PostgreSQL it connects as the
owning role, so row-level security does not apply. Nothing in memvault uses this."""

from __future__ import annotations

from pathlib import Path

from memvault.storage.location import is_url
from memvault.storage.sqlite.db import open_connection, write_transaction


def execute(db: Path | str, sql: str, *params: object) -> list[tuple]:
    """Run ``sql`` (``?`` placeholders) in one committed transaction; the rows it returns."""
    if is_url(db):
        import psycopg

        with psycopg.connect(str(db)) as conn:
            cur = conn.execute(sql.replace("?", "%s"), params)  # type: ignore[arg-type]
            return cur.fetchall() if cur.description else []
    conn = open_connection(db)
    try:
        with write_transaction(conn):
            return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def rewind(db: Path | str, sqlite_step, postgres_step) -> None:  # type: ignore[no-untyped-def]
    """Set ``db``'s schema version to just before its backend's migration step (``sqlite_step`` or
    ``postgres_step``, functions of each ``schema.MIGRATIONS``): the next open runs it and those after it again."""
    from memvault.storage.postgres import schema as pg_schema
    from memvault.storage.sqlite import schema as sqlite_schema

    if is_url(db):
        execute(db, "UPDATE memvault_schema SET version = ?", pg_schema.MIGRATIONS.index(postgres_step))
    else:
        execute(db, f"PRAGMA user_version = {sqlite_schema.MIGRATIONS.index(sqlite_step)}")
