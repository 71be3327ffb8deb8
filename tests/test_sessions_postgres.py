"""Sessions on PostgreSQL's two-role set-up (docs/postgresql.md): the serving role appends,
reads and ends sessions of the tenant it names, raw SQL in a serving session sees no other
tenant's sessions or turns, and no role may change a turn once written (issue 26)."""

from __future__ import annotations

import os

import psycopg
import pytest
from fakes import FakeEmbedder
from test_postgres_roles import _database, _drop

from memvault.storage.errors import NotFound
from memvault.storage.postgres import schema
from memvault.storage.records import NewTurn
from memvault.storage.store import Store

TABLES = ("sessions", "turns")


@pytest.fixture
def two_roles(pg_server):
    roles = _database(pg_server, f"{os.getpid()}_s")
    Store(roles[1], FakeEmbedder()).close()  # type: ignore[arg-type]  # the owner migrates
    yield roles
    _drop(pg_server, (roles[0], roles[2]))


def test_the_serving_role_keeps_sessions_per_tenant_and_turns_cannot_change(two_roles):
    _, owner_url, _, serve_url = two_roles
    store = Store(serve_url, None)
    try:
        for tenant in ("alpha", "bravo"):
            store.episodes.append(tenant=tenant, scope="s", session_id="same-id", turns=[
                NewTurn("user", f"{tenant} asks about the launch"),
                NewTurn("assistant", f"{tenant} gets an answer")])
        ended = store.episodes.end(tenant="alpha", session_id="same-id")
        digest = store.get(tenant="alpha", id=ended.digest_id or "").content or ""
        assert "Session same-id:" in digest.splitlines()[0] and "alpha asks" in digest
        assert [t.text for t in store.episodes.turns(tenant="bravo", session_id="same-id")] == [
            "bravo asks about the launch", "bravo gets an answer"]
        with pytest.raises(NotFound):
            store.episodes.session(tenant="carol", session_id="same-id")
    finally:
        store.close()
    with psycopg.connect(serve_url, autocommit=True) as conn:
        conn.execute(f"SET ROLE {schema.APP_ROLE}")
        for table in TABLES:
            # No tenant named: nothing.
            assert conn.execute(f"SELECT count(*) FROM {table}").fetchone() == (0,)
        conn.execute("SET memvault.tenant = 'bravo'")
        for table in TABLES:
            assert {t for (t,) in conn.execute(f"SELECT DISTINCT tenant FROM {table}")} == {"bravo"}
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("UPDATE turns SET text = 'rewritten'")
    with psycopg.connect(owner_url, autocommit=True) as conn:
        flags = dict(conn.execute("SELECT relname, relrowsecurity AND relforcerowsecurity FROM pg_class"
                                  " WHERE relname = ANY(%s) AND relkind = 'r'", (list(TABLES),)).fetchall())
        assert flags == dict.fromkeys(TABLES, True)
        with pytest.raises(psycopg.errors.RaiseException, match="turns are append-only"):
            conn.execute("UPDATE turns SET text = 'rewritten'")
        assert conn.execute("SELECT count(*) FROM turns WHERE text = 'rewritten'").fetchone() == (0,)
