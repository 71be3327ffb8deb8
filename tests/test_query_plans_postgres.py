"""No query on the agent's path reads every memory of a tenant (issue 28), on PostgreSQL:
each SELECT that recall, a listing and the boot context run is planned by PostgreSQL
(``EXPLAIN (FORMAT JSON)`` with the bindings it ran with, as the serving role with the
tenant set, on a tenant of ~3,700 memories whose statistics are current) and must reach
memories through an index condition that bounds what it reads: no sequential scan of a
tenant table, no index walked for a whole tenant or scope."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from pgvector.psycopg import register_vector

from fakes import Clock, FakeEmbedder
from memvault.storage.postgres.schema import APP_ROLE
from memvault.storage.records import NewTurn
from memvault.storage.store import Store
from test_query_plans import calls, kept_pair

# Tables a plan may scan whole: sized by configuration, not by memories.
# memory_counts: a row per scope and kind; tenant_settings: a row per tenant and key (its primary key)
SMALL_TABLES = {"settings", "schema_version", "memory_counts", "tenant_settings"}
# Tables that grow with a tenant's memories.
TENANT_TABLES = {"memories", "memory_tags", "memory_vectors", "memory_windows", "idempotency_keys", "sessions", "turns"}
# Index conditions that name only the tenant (and scopes): what they find is everything
# the tenant or scope holds.
WIDE = re.compile(r"^\(?\(?tenant = [^()]+\)(?: AND \(scope = [^()]+\))*\)?$")
# The vector side, as on SQLite (test_query_plans.BOUNDED_ELSEWHERE): the windows of long
# memories are scanned exactly (issue 24 item 3), and PostgreSQL may plan a filtered vector
# search exactly over the vectors of the memories passing the filter rather than walk
# the HNSW index (cost-based; the exact search also runs when the HNSW search found fewer
# than k). What passes the filter must still be found through an index of memories.
VECTOR_TABLES = {"memory_vectors", "memory_windows"}
WINDOWS = "SELECT w.memory_seq, min(w.embedding <=>"  # the exact scan of every window: known
COPIES = 30  # copies of tenant a's memories made in SQL, for statistics of a real tenant
# Each memory of tenant a copied COPIES times, with its tags, vector and windows.
COPY = """
WITH src AS MATERIALIZED (
    SELECT m.*, g, gen_random_uuid()::text AS new_id FROM memories m, generate_series(1, %s) AS g WHERE tenant = 'a'),
made AS (
    INSERT INTO memories (id, tenant, scope, kind, content, content_hash, importance, observed_at, recorded_at,
                          vector_pending, content_terms)
    SELECT new_id, tenant, scope, kind, content || ' ' || g, md5(content || g), importance, observed_at - g * 60000,
           recorded_at, false, content_terms FROM src
    RETURNING seq, id),
pairs AS MATERIALIZED (SELECT src.seq AS old, made.seq AS new FROM made JOIN src ON src.new_id = made.id),
tags AS (INSERT INTO memory_tags SELECT p.new, t.tenant, t.tag FROM pairs p JOIN memory_tags t ON t.memory_seq = p.old),
vectors AS (INSERT INTO memory_vectors SELECT p.new, v.tenant, v.embedding FROM pairs p
            JOIN memory_vectors v ON v.memory_seq = p.old)
INSERT INTO memory_windows SELECT p.new, w.tenant, w.part, w.embedding FROM pairs p JOIN memory_windows w ON w.memory_seq = p.old
"""
# Each session of tenant a copied COPIES times (without turns: the boot context reads sessions only).
COPY_SESSIONS = """
INSERT INTO sessions (tenant, id, scope, client, cwd, started_at, last_at, ended_at, turns, tokens, digest_id)
SELECT tenant, id || '-' || g, scope, client, cwd, started_at - g, last_at - g, ended_at - g, turns, tokens, digest_id
FROM sessions, generate_series(1, %s) AS g WHERE tenant = 'a'
"""
# ... and turns for each of tenant a's sessions: its first as the original's, then TURNS_MORE that turn
# search's query ("7") never matches (turn search reads them by their terms).
TURNS_MORE = 9
COPY_TURNS = f"""
INSERT INTO turns (session_seq, seq, tenant, role, text, tokens, tokens_before, at, terms)
SELECT c.seq, t.seq, t.tenant, t.role, t.text, t.tokens, t.tokens_before, t.at, t.terms
FROM sessions o JOIN sessions c ON c.tenant = o.tenant AND c.id LIKE o.id || '-%%'
JOIN turns t ON t.session_seq = o.seq WHERE o.tenant = 'a' AND o.id NOT LIKE '%%-%%';
INSERT INTO turns (session_seq, seq, tenant, role, text, tokens, tokens_before, at, terms)
SELECT t.session_seq, t.seq + g, t.tenant, t.role, 'routine note x' || g, t.tokens, t.tokens_before, t.at,
       to_tsvector('memvault', 'routine note x' || g)
FROM turns t, generate_series(1, {TURNS_MORE}) AS g WHERE t.tenant = 'a' AND t.seq = 1
"""
# Other tenants' review queues as full as tenant a's: a server's table of pairs holds many tenants' (with
# tenant a's alone, reading the whole table is the same as reading its pairs by the index).
PAIR_TENANTS = 30
COPY_PAIRS = "INSERT INTO review_pairs SELECT 'c' || g, older, newer FROM review_pairs, generate_series(1, %s) AS g"
# ... and each of those tenants' pairs dismissed too (both ways round, as ``confirm`` with ``beside`` stores them).
DISMISS_PAIRS = ("INSERT INTO dismissed_pairs SELECT tenant, older, newer, 0 FROM review_pairs WHERE tenant <> 'a'"
                 " UNION SELECT tenant, newer, older, 0 FROM review_pairs WHERE tenant <> 'a'")


@pytest.fixture(scope="module")
def tenant(pg_server) -> Iterator[tuple[str, Store]]:  # type: ignore[no-untyped-def]
    """The URL of a database holding a tenant of ~3,700 memories whose statistics are current, and a store
    on it; built once for the module (building it took 22-28 s in each test of the CI): the tests only
    plan queries on it and recall from it."""
    name = f"t_{os.getpid()}_plans"
    pg_server.admin(f'CREATE DATABASE "{name}"')
    url = pg_server.url(name)
    store = Store(url, FakeEmbedder(), clock=Clock())
    for tenant in ("a", "b"):
        for i in range(60):
            store.remember(
                tenant=tenant, scope=("proj", "other")[i % 2], kind=("fact", "episode", "decision", "failure")[i % 4],
                content=f"note {i} about the kafka deploy of {tenant}" + (" and more words" * 80 if i % 10 == 0 else ""),
                tags=["ops"] if i % 3 == 0 else [], importance=1 + i % 9,
            )
        for i in range(20):  # sessions of both scopes, every other one ended (with its digest)
            store.episodes.append(tenant=tenant, scope=("proj", "other")[i % 2], session_id=f"s{i}",
                                  turns=[NewTurn(role="user", text=f"deploy kafka {i}")])
            if i % 2 == 0:
                store.episodes.end(tenant=tenant, session_id=f"s{i}")
    with psycopg.connect(url, autocommit=True) as conn:  # the schema's owner: rows made in bulk
        conn.execute(COPY, (COPIES,))
        conn.execute(COPY_SESSIONS, (COPIES,))
        conn.execute(COPY_TURNS)
        conn.execute("VACUUM turns")  # the GIN index's pending entries merged, as autovacuum does
        conn.execute("ANALYZE")
    kept_pair(store)  # after the copies: its older is recall's first hit (consolidate keeps PAIRS_KEPT pairs)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(COPY_PAIRS, (PAIR_TENANTS,))
        conn.execute(DISMISS_PAIRS)
        conn.execute("ANALYZE")  # the pairs' statistics too: autovacuum's reading of them came at any time
    try:
        yield url, store
    finally:
        store.close()
        pg_server.admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def traced(tenant: tuple[str, Store], monkeypatch) -> Iterator[tuple[Store, list[tuple[str, Any]]]]:  # type: ignore[no-untyped-def]
    """The tenant's store, with every SELECT recorded with its bindings."""
    store = tenant[1]
    seen: list[tuple[str, Any]] = []
    execute = psycopg.Cursor.execute

    def recorded(self, query, params=None, **kwargs):  # type: ignore[no-untyped-def]
        seen.append((query if isinstance(query, str) else query.as_string(self.connection), params))
        return execute(self, query, params, **kwargs)

    monkeypatch.setattr(psycopg.Cursor, "execute", recorded)
    try:
        yield store, seen
    finally:
        monkeypatch.undo()

def plans(url: str, seen: list[tuple[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each distinct SELECT run, with its plan, planned as the serving role on tenant a."""
    out: dict[str, dict[str, Any]] = {}
    with psycopg.connect(url, autocommit=True) as conn:
        register_vector(conn)
        for sql, params in seen:
            if sql in out or not sql.lstrip().upper().startswith(("SELECT", "WITH")) or "set_config(" in sql:
                continue
            with conn.transaction():
                conn.execute("SELECT set_config('role', %s, true), set_config('memvault.tenant', 'a', true)",
                             (APP_ROLE,))
                out[sql] = conn.execute("EXPLAIN (FORMAT JSON) " + sql, params).fetchone()[0][0]["Plan"]
    return out

def nodes(plan: dict[str, Any], limited: bool = False) -> Iterator[tuple[dict[str, Any], bool]]:
    """Every node of ``plan``, with whether a Limit above it stops reading early."""
    yield plan, limited
    for child in plan.get("Plans", []):
        # rows reach a Limit in index order only through nodes that do not gather them all
        through = limited and plan["Node Type"] not in ("Sort", "Aggregate", "Hash", "Materialize")
        yield from nodes(child, plan["Node Type"] == "Limit" or through)

def unbounded(plan: dict[str, Any]) -> list[str]:
    """The nodes of ``plan`` that read a whole tenant table, or every memory of a tenant or scope."""
    bad = []
    for node, limited in nodes(plan):
        relation = node.get("Relation Name") or ""
        kind = node["Node Type"]
        if kind == "Seq Scan" and relation not in SMALL_TABLES | VECTOR_TABLES:
            bad.append(f"{kind} on {relation}")
        elif kind in ("Index Scan", "Index Only Scan", "Bitmap Index Scan") and not limited:
            cond = node.get("Index Cond", "")
            table = relation or node.get("Index Name", "")
            if (not cond or WIDE.match(cond)) and any(table.startswith(t) for t in TENANT_TABLES):
                bad.append(f"{kind} using {node.get('Index Name')} ({cond or 'no condition'})")
    return bad

def test_recall_listings_and_boot_read_no_tenant_whole(traced, tenant):
    store, seen = traced
    calls(store)
    found = plans(tenant[0], seen)
    assert len(found) > 5  # the trace saw the store's queries
    bad = {sql.strip()[:300]: lines for sql, plan in found.items()
           if not sql.lstrip().startswith(WINDOWS) and (lines := unbounded(plan))}
    assert not bad, "\n".join(f"{k}\n  -> {v}" for k, v in bad.items())

def test_the_check_sees_a_scan_and_an_index_walked_for_a_whole_tenant():
    seq = {"Node Type": "Seq Scan", "Relation Name": "memories"}
    assert unbounded(seq) == ["Seq Scan on memories"]
    wide = {"Node Type": "Index Scan", "Relation Name": "memories", "Index Name": "memories_observed",
            "Index Cond": "(tenant = 'a'::text)"}
    assert unbounded({"Node Type": "Sort", "Plans": [wide]}) == ["Index Scan using memories_observed ((tenant = 'a'::text))"]
    assert unbounded({"Node Type": "Limit", "Plans": [wide]}) == []  # read in order until the limit
    assert unbounded({"Node Type": "Limit", "Plans": [{"Node Type": "Sort", "Plans": [wide]}]})
    assert not unbounded({"Node Type": "Index Scan", "Relation Name": "memories", "Index Name": "memories_pkey",
                          "Index Cond": "(seq = m.seq)"})

# One test for the three (the tenant above is built once per xdist worker that runs one of them: 25 s each).
NAMES = [("Kafka", ["proj"]), ("Kafka", ["nowhere"]), ("Zanzibar", None)]


def test_the_check_of_a_name_reaches_memories_through_the_word_index_only(tenant):
    """``memvault_holds`` (whether a memory passing a recall's filters holds a name) stops at the
    first memory found; its body, planned as it runs (the function's own settings, the owner's
    role), reads memories through the full-text indexes whatever the name and the filters (each of
    :data:`NAMES`): a first-row plan walking an index of the tenant would read all of it when nothing passes."""
    failed = []
    with psycopg.connect(tenant[0], autocommit=True) as conn:
        body, settings = conn.execute("SELECT prosrc, proconfig FROM pg_proc WHERE proname = 'memvault_holds'").fetchone()
        arguments = {"phrases": "ARRAY[phraseto_tsquery('memvault', %(name)s)]", "for_tenant": "'a'::text",
                     "scopes": "%(scopes)s::text[]", "kinds": "NULL::text[]", "tags": "NULL::text[]",
                     "now_ms": "0::bigint", "history": "false", "since_ms": "NULL::bigint", "until_ms": "NULL::bigint"}
        for argument, value in arguments.items():
            body = re.sub(rf"(?<![.\w]){argument}(?!\w)", f"({value})", body)
        for name, scopes in NAMES:
            with conn.transaction():
                for setting in settings:
                    key, value = setting.split("=", 1)
                    conn.execute("SELECT set_config(%s, %s, true)", (key, value))
                conn.execute("SELECT set_config('memvault.tenant', 'a', true)")
                plan = conn.execute("EXPLAIN (FORMAT JSON) " + body, {"name": name, "scopes": scopes}).fetchone()[0][0]["Plan"]
            if unbounded(plan) or not any(node.get("Index Name", "").endswith("_terms") for node, _ in nodes(plan)):
                failed.append(f"{name} {scopes}: {unbounded(plan)} {plan}")
    assert not failed, "\n".join(failed)
