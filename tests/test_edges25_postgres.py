"""PostgreSQL stopped under a running team server: ``/healthz`` and the tools say the database is
unreachable (a refused connection), not a timeout and not "busy", which stays the word for a
pool whose every connection is in use (issue 25, round 3)."""

from __future__ import annotations

import shutil
import tempfile
import time
import warnings
from pathlib import Path
from urllib.parse import urlsplit

import httpx2
import pytest
from httpwire import HttpServer

from memvault.storage.errors import StorageUnavailable
from memvault.storage.postgres.connect import open_pool, pooled

HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream",
           "mcp-protocol-version": "2025-06-18"}
RECALL = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "recall", "arguments": {"query": "x"}}}


@pytest.fixture
def own_postgres():
    """A PostgreSQL server of this test alone (it is stopped by the test): ``(url, stop)``."""
    pgserver = pytest.importorskip("pgserver")
    data = Path(tempfile.mkdtemp(prefix="mv-e25-"))  # short: the socket path has a length limit
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        server = pgserver.get_server(data, cleanup_mode="stop")
    try:
        yield server.get_uri(), server.cleanup, data
    finally:
        server.cleanup()
        shutil.rmtree(data, ignore_errors=True)


def test_a_full_pool_is_busy_and_a_stopped_postgresql_is_unreachable_on_healthz_and_the_tools(own_postgres):
    import psycopg
    from psycopg_pool import PoolTimeout

    url, stop, data = own_postgres
    served = HttpServer(url, "--auth", "none", logs=data)
    pool = None
    try:
        assert served.post(None, RECALL).json()["result"]["isError"] is False
        with psycopg.connect(url, autocommit=True) as admin:  # the server made pgvector's type
            assert admin.execute("SELECT 1 FROM pg_type WHERE typname = 'vector'").fetchone()
        pool = open_pool(url, 1, 0.6)
        with pooled(pool, 0.6):
            with pytest.raises(PoolTimeout):  # every connection in use, the server answering: busy
                with pooled(pool, 0.6):
                    pass
        stop()
        time.sleep(1.1)  # past the cached healthz answer (PROBE_CACHE_S)
        said = httpx2.post(served.url, json=RECALL, headers=HEADERS, timeout=60)
        assert said.status_code == 503, said.text
        description = said.json()["error"]["message"]
        # (a pooled connection the stop cut may be the one tried first: it says the connection failed)
        assert description.startswith(("PostgreSQL is unreachable", "the connection to PostgreSQL failed"))
        assert "busy" not in description
        health = httpx2.get(f"{served.base}/healthz", timeout=30).json()
        assert health["status"] == "error" and health["reason"] == "unavailable", health
        for _ in range(2):  # the pool's idle connection is dead: its first use fails, then it is replaced
            try:
                with pooled(pool, 0.6) as conn:
                    conn.execute("SELECT 1")
            except StorageUnavailable as exc:
                assert str(exc).startswith("PostgreSQL is unreachable")
                break
            except psycopg.OperationalError:
                continue
        else:
            pytest.fail("a stopped server was never said unreachable by the pool")
    finally:
        if pool is not None:
            pool.close()
        served.close()


def test_a_stopped_postgresql_is_said_unreachable_to_an_authenticated_caller(own_postgres):
    """Closing pass of issue 25: with keys, the 503 said "the database cannot be opened" while the
    docs said the tools say PostgreSQL is unreachable; it says what happened, never which database."""
    from httpwire import PING, new_key

    url, stop, data = own_postgres
    key = new_key(url, "acme")
    served = HttpServer(url, logs=data)
    try:
        assert served.post(key, PING).status_code == 200
        stop()
        time.sleep(1.1)  # past the cached healthz answer (PROBE_CACHE_S)
        said = served.post(key, RECALL)
        log = served.log()
    finally:
        served.close()
    assert said.status_code == 503 and said.json()["error"]["data"]["error"] == "database_unavailable", said.text
    description = said.json()["error"]["message"]
    assert description.startswith("PostgreSQL is unreachable (stopped"), description
    assert "busy" not in description and "the server's log says which database and why" in description
    parts = urlsplit(url)
    for private in (parts.path.strip("/"), parts.username, parts.hostname, str(data)):
        assert not private or private not in description, private
    assert "Traceback" not in log
