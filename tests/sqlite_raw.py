"""The SQLite backend's own test helpers: a second connection to a store's file, for
tests that look below the storage interface (the bytes and rows SQLite keeps) or
damage a file on purpose. Nothing in memvault itself uses these."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import apsw

from memvault.storage.sqlite import SqliteBackend
from memvault.storage.sqlite.db import open_connection, write_transaction
from memvault.storage.store import Store


@contextlib.contextmanager
def connection(store: Store) -> Iterator[apsw.Connection]:
    """A new connection to ``store``'s SQLite file (sqlite-vec and memvault's SQL functions loaded)."""
    assert store.backend.kind == "sqlite", "an SQLite-only test"
    conn = open_connection(store.backend.location)
    try:
        yield conn
    finally:
        conn.close()


@contextlib.contextmanager
def writing(store: Store) -> Iterator[apsw.Connection]:
    """A second connection inside one ``BEGIN IMMEDIATE`` transaction."""
    with connection(store) as conn, write_transaction(conn):
        yield conn


@contextlib.contextmanager
def snapshot(store: Store) -> Iterator[apsw.Connection]:
    """A second connection inside one read transaction."""
    with connection(store) as conn:
        conn.execute("BEGIN")
        try:
            yield conn
        finally:
            conn.execute("COMMIT")


@contextlib.contextmanager
def own_connection(store: Store) -> Iterator[apsw.Connection]:
    """The backend's own connection, held under its lock: for per-connection settings
    (``PRAGMA max_page_count``) that a second connection cannot change."""
    backend = store.backend
    assert isinstance(backend, SqliteBackend), "an SQLite-only test"
    with backend._lock:
        yield backend._conn


def value(store: Store, sql: str, *args: object) -> object:
    """The first column of the first row of ``sql``."""
    with snapshot(store) as conn:
        return conn.execute(sql, args).fetchone()[0]


@contextlib.contextmanager
def statements(store: Store) -> Iterator[list[str]]:
    """The SQL statements (nested ones too) that the backend's reader connections run in
    the block: this thread's and every other thread's (a recall's vector side runs on
    the thread that embeds the question), those opened during the block included."""
    backend = store.backend
    assert isinstance(backend, SqliteBackend), "an SQLite-only test"
    seen: list[str] = []

    def watch(conn: apsw.Connection) -> None:
        conn.set_profile(lambda sql, _ns: seen.append(sql))

    watched = [backend._reader().conn, *backend._readers]
    for conn in watched:
        watch(conn)
    apsw.connection_hooks.append(watch)
    try:
        yield seen
    finally:
        apsw.connection_hooks.remove(watch)
        for conn in {*watched, *backend._readers}:
            conn.set_profile(None)


def keyword_table(conn: apsw.Connection, tenant: str) -> str:
    """The name of ``tenant``'s FTS5 keyword index in the file open on ``conn``."""
    from memvault.storage.sqlite.schema import keyword_table as name

    return name(conn.execute("SELECT number FROM keyword_tenants WHERE tenant = ?", (tenant,)).fetchone()[0])


def overwrite_pages(path: object, name: str, byte: bytes = b"\xa5") -> list[int]:
    """Overwrite every page of the b-tree ``name`` (a table or index) in the SQLite file at ``path``
    (closed, its WAL checkpointed) with ``byte``, as a disk or a stray write would; returns the pages
    (numbered from 1, SQLite's ``dbstat``)."""
    conn = apsw.Connection(str(path), flags=apsw.SQLITE_OPEN_READONLY)
    try:
        size = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = [p for (p,) in conn.execute("SELECT pageno FROM dbstat WHERE name = ?", (name,))]
    finally:
        conn.close()
    assert pages, name
    with open(str(path), "r+b") as fh:
        for page in pages:
            fh.seek((page - 1) * size)
            fh.write(byte * size)
    return pages
