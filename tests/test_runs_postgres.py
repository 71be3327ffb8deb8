"""Runs on PostgreSQL's two-role set-up (docs/postgresql.md): the serving role records and reads the
runs of the tenant it names, raw SQL in a serving session sees no other tenant's runs, and row-level
security is forced on the table (issue 27)."""

from __future__ import annotations

import os

import psycopg
import pytest
from fakes import FakeEmbedder
from test_postgres_roles import _database, _drop

from memvault.storage.postgres import schema
from memvault.storage.store import Store


@pytest.fixture
def two_roles(pg_server):
    roles = _database(pg_server, f"{os.getpid()}_r")
    Store(roles[1], FakeEmbedder()).close()  # type: ignore[arg-type]  # the owner migrates
    yield roles
    _drop(pg_server, (roles[0], roles[2]))


def test_the_serving_role_keeps_runs_per_tenant(two_roles):
    _, owner_url, _, serve_url = two_roles
    store = Store(serve_url, FakeEmbedder())  # type: ignore[arg-type]
    try:
        ids = {}
        for tenant in ("alpha", "bravo"):
            ids[tenant] = store.remember(tenant=tenant, scope="s", kind="procedure",
                                         content=f"To deploy {tenant}: make ship").id
            store.confirm(tenant=tenant, id=ids[tenant], outcome="failure", note=f"{tenant} timed out")
        assert store.run_summaries(tenant="bravo", ids=list(ids.values())).keys() == {ids["bravo"]}
        store.forget(tenant="alpha", id=ids["alpha"])
    finally:
        store.close()
    with psycopg.connect(serve_url, autocommit=True) as conn:
        conn.execute(f"SET ROLE {schema.APP_ROLE}")
        assert conn.execute("SELECT count(*) FROM runs").fetchone() == (0,)  # no tenant named: nothing
        conn.execute("SET memvault.tenant = 'bravo'")
        assert conn.execute("SELECT tenant, note FROM runs").fetchall() == [("bravo", "bravo timed out")]
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("DELETE FROM runs")
    with psycopg.connect(owner_url, autocommit=True) as conn:
        flags = conn.execute("SELECT relrowsecurity AND relforcerowsecurity FROM pg_class"
                             " WHERE relname = 'runs' AND relkind = 'r'").fetchall()
        assert flags == [(True,)]
        assert sorted(conn.execute("SELECT tenant, note FROM runs").fetchall()) == [
            ("alpha", None), ("bravo", "bravo timed out")]
