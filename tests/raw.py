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
