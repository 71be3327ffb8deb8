"""PostgreSQL's two-role set-up (docs/postgresql.md): one role owns memvault's schema and
runs its migrations, another (NOINHERIT, a member of ``memvault_app``, owning nothing)
serves. Raw SQL in a serving session reads no tenant's rows that it does not name,
whatever role it tries to take, and the tenants served that way still find their own
memories (issue 25, §1.9)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

import psycopg
import pytest
from fakes import FakeEmbedder

from memvault.storage import consolidate as consolidation
from memvault.storage import keys
from memvault.storage.errors import NotFound, StorageUnavailable, StoreError
from memvault.storage.postgres import PostgresBackend, schema
from memvault.storage.store import Store

TABLES = ("memories", "memory_tags", "idempotency_keys", "api_keys", "memory_counts", "memory_vectors",
          "memory_windows", "tenant_settings", "review_pairs")
STANDUPS = ("The team standup is at 9:15 every weekday.", "The team standup is at 10:30 every weekday.")


@dataclass
class Roles:
    owner: str  # the owner's name
    owner_url: str
    serve: str
    serve_url: str
    alpha_key: str  # an API key of tenant alpha
    pairs: dict[str, tuple[str, str]]  # each tenant's contradicting pair kept for review


def _database(pg_server, tag: str) -> tuple[str, str, str, str]:
    """A new database owned by a new owner role, with pgvector; a NOINHERIT serving role."""
    owner, serve = f"mv_owner_{tag}", f"mv_serve_{tag}"
    pg_server.admin(f"DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{schema.APP_ROLE}') THEN"
                    f" CREATE ROLE {schema.APP_ROLE} NOLOGIN; END IF; END $$")
    pg_server.admin(f"CREATE ROLE {owner} LOGIN")
    pg_server.admin(f"CREATE ROLE {serve} LOGIN NOINHERIT")
    pg_server.admin(f"GRANT {schema.APP_ROLE} TO {owner}, {serve}")
    name = f"t_roles_{tag}"
    pg_server.admin(f'CREATE DATABASE "{name}" OWNER {owner}')
    with psycopg.connect(pg_server.url(name), autocommit=True) as conn:  # as the administrator
        conn.execute("CREATE EXTENSION vector")
        conn.execute(f"ALTER SCHEMA public OWNER TO {owner}")
    return owner, pg_server.url(name, user=owner), serve, pg_server.url(name, user=serve)


def _drop(pg_server, roles: tuple[str, ...]) -> None:
    """Drop the database of ``_database`` and its two roles."""
    pg_server.admin(f'DROP DATABASE IF EXISTS "t_roles_{roles[0].removeprefix("mv_owner_")}" WITH (FORCE)')
    pg_server.admin(f"DROP ROLE IF EXISTS {', '.join(roles)}")


@pytest.fixture(scope="module")
def roles(pg_server) -> Iterator[Roles]:
    """One database for the module: tenants alpha and bravo written by a store as the owner
    (memories with tags, keys, vectors, an episode with a later window), an API key each, a
    contradicting pair each kept for review."""
    owner, owner_url, serve, serve_url = _database(pg_server, f"{os.getpid()}_m")
    store = Store(owner_url, FakeEmbedder())  # type: ignore[arg-type]
    try:
        for tenant in ("alpha", "bravo"):
            store.remember(tenant=tenant, scope="s", content=f"{tenant} keeps the launch codes in vault seven",
                           tags=[f"{tenant}-tag"], idempotency_key=f"{tenant}-key")
            store.remember(tenant=tenant, scope="s", kind="episode",
                           content=f"{tenant} long episode " + "with many words " * 200)
        _, alpha_key = keys.create(store, "alpha")
        keys.create(store, "bravo")
        pairs = {tenant: _contradiction(store, tenant) for tenant in ("alpha", "bravo")}
    finally:
        store.close()
    yield Roles(owner, owner_url, serve, serve_url, alpha_key, pairs)
    _drop(pg_server, (owner, serve))


def _contradiction(store: Store, tenant: str) -> tuple[str, str]:
    """Two disagreeing facts of ``tenant``, kept for review (older first), and compared by a scan."""
    pair = tuple(store.remember(tenant=tenant, scope="s", content=text, kind="fact").id for text in STANDUPS)
    consolidation.note(store, tenant, [pair])  # type: ignore[list-item]
    consolidation.scan(store, tenant, store.clock(), consolidation.Report())
    return pair  # type: ignore[return-value]


def _reviewed(store: Store, tenant: str) -> list[tuple[str, str]]:
    return [(older, newer) for older, newer, _ in store.review(tenant, ["s"]).contradictions]


def _tenants(conn: psycopg.Connection, table: str) -> set[str]:
    """The tenants whose rows ``table`` shows in this session (none when it may not read it)."""
    try:
        with conn.transaction():
            return {t for (t,) in conn.execute(f"SELECT DISTINCT tenant FROM {table}").fetchall()}
    except psycopg.errors.InsufficientPrivilege:
        return set()


def test_every_tenant_table_forces_row_level_security_and_the_serving_role_owns_nothing(roles):
    with psycopg.connect(roles.owner_url) as conn:
        flags = dict(conn.execute(
            "SELECT relname, (relrowsecurity AND relforcerowsecurity) FROM pg_class"
            " WHERE relname = ANY(%s) AND relkind = 'r'", (list(TABLES),)).fetchall())
        assert flags == dict.fromkeys(TABLES, True)
        assert conn.execute("SELECT count(*) FROM pg_class WHERE relowner = %s::regrole",
                            (roles.serve,)).fetchone() == (0,)
        assert conn.execute("SELECT rolsuper OR rolbypassrls, rolinherit FROM pg_roles WHERE rolname = %s",
                            (roles.serve,)).fetchone() == (False, False)


# Each: what the serving session runs before reading, and the tenants it may then see.
ATTEMPTS = {
    "as itself, no tenant": ([], set()),
    "as memvault_app, no tenant": ([f"SET ROLE {schema.APP_ROLE}"], set()),
    "as memvault_app, tenant empty": ([f"SET ROLE {schema.APP_ROLE}", "SET memvault.tenant = ''"], set()),
    "as memvault_app, tenant bravo": ([f"SET ROLE {schema.APP_ROLE}", "SET memvault.tenant = 'bravo'"], {"bravo"}),
    "tenant bravo, then RESET ROLE": ([f"SET ROLE {schema.APP_ROLE}", "SET memvault.tenant = 'bravo'",
                                       "RESET ROLE"], set()),
    "SET ROLE NONE": ([f"SET ROLE {schema.APP_ROLE}", "SET ROLE NONE"], set()),
    "a local role that ends with its transaction": (
        [f"BEGIN; SET LOCAL ROLE {schema.APP_ROLE}; SET LOCAL memvault.tenant = 'bravo'; COMMIT"], set()),
}


@pytest.mark.parametrize("steps", ATTEMPTS.values(), ids=ATTEMPTS.keys())
def test_raw_sql_in_a_serving_session_sees_only_the_tenant_it_names(roles, steps):
    statements, allowed = steps
    with psycopg.connect(roles.serve_url, autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)
        for table in TABLES:
            assert _tenants(conn, table) == allowed, table


@pytest.mark.parametrize("become", ["owner", "postgres", "pg_read_all_data", "pg_write_all_data"])
def test_a_serving_session_cannot_become_the_owner_or_a_privileged_role(roles, become):
    name = roles.owner if become == "owner" else become
    with psycopg.connect(roles.serve_url, autocommit=True) as conn:
        for statement in (f"SET ROLE {name}", f"SET SESSION AUTHORIZATION {name}"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)
        for statement in ("ALTER TABLE memories DISABLE ROW LEVEL SECURITY", "DROP POLICY memvault_tenant ON memories",
                          "ALTER TABLE memories NO FORCE ROW LEVEL SECURITY", f"GRANT {roles.owner} TO CURRENT_USER"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)


def test_definer_functions_give_nothing_without_a_tenant(roles):
    with psycopg.connect(roles.serve_url, autocommit=True) as conn:
        conn.execute(f"SET ROLE {schema.APP_ROLE}")
        for tenant in ("alpha", "bravo", ""):
            assert conn.execute(
                "SELECT count(*) FROM memvault_phrase_hits(ARRAY[plainto_tsquery('memvault', 'vault seven')], %s)",
                (tenant,)).fetchone() == (0,)
            assert conn.execute("SELECT documents FROM memvault_term_documents(ARRAY['vault', 'seven'], %s)",
                                (tenant,)).fetchall() == [(0,), (0,)]
        assert conn.execute("SELECT count(*) FROM memvault_api_key(%s)", ("0" * 64,)).fetchone() == (0,)
        conn.execute("SET memvault.tenant = 'alpha'")  # named: its own rows, and still not bravo's
        assert conn.execute(
            "SELECT count(*) FROM memvault_phrase_hits(ARRAY[plainto_tsquery('memvault', 'vault seven')], 'alpha')"
        ).fetchone() == (1,)
        assert conn.execute(
            "SELECT count(*) FROM memvault_phrase_hits(ARRAY[plainto_tsquery('memvault', 'vault seven')], 'bravo')"
        ).fetchone() == (0,)


def test_a_tenant_named_reads_and_writes_only_its_own_review_state(roles):
    """Review state is a tenant's own (``tenant_settings`` and ``review_pairs``, under the tenant
    policy); the untenanted ``settings`` names no tenant (adversarial review 41, fault 5)."""
    with psycopg.connect(roles.serve_url, autocommit=True) as conn:
        conn.execute(f"SET ROLE {schema.APP_ROLE}")
        conn.execute("SET memvault.tenant = 'alpha'")
        for key, value in conn.execute("SELECT key, value FROM settings").fetchall():
            assert "alpha" not in key + value and "bravo" not in key + value
            assert not {i for pair in roles.pairs.values() for i in pair} & set(value.split('"'))
        assert conn.execute("SELECT tenant, key FROM tenant_settings").fetchall() == [("alpha", "review")]
        assert conn.execute("UPDATE tenant_settings SET value = '{}' WHERE tenant = 'bravo'").rowcount == 0
        assert conn.execute("DELETE FROM tenant_settings WHERE tenant = 'bravo'").rowcount == 0
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
            conn.execute("INSERT INTO tenant_settings VALUES ('bravo', 'review', '{}')")
        assert conn.execute("SELECT tenant, older, newer FROM review_pairs").fetchall() == [
            ("alpha", *roles.pairs["alpha"])]
        assert conn.execute("UPDATE review_pairs SET older = newer WHERE tenant = 'bravo'").rowcount == 0
        assert conn.execute("DELETE FROM review_pairs WHERE tenant = 'bravo'").rowcount == 0
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
            conn.execute("INSERT INTO review_pairs VALUES ('bravo', 'x', 'y')")
    served = Store(roles.serve_url, FakeEmbedder())  # type: ignore[arg-type]
    try:  # the serving role keeps and finds alpha's own pairs (a scan saves under the policy)
        consolidation.scan(served, "alpha", served.clock(), consolidation.Report())
        consolidation.note(served, "alpha", [roles.pairs["alpha"]])
        assert _reviewed(served, "alpha") == [roles.pairs["alpha"]]
    finally:
        served.close()
    owner = Store(roles.owner_url, FakeEmbedder())  # type: ignore[arg-type]
    try:
        assert {t: _reviewed(owner, t) for t in roles.pairs} == {t: [p] for t, p in roles.pairs.items()}
    finally:
        owner.close()


def test_temporary_tables_of_a_serving_session_change_nothing_a_definer_function_returns(roles):
    """A temporary ``api_keys`` or ``memories`` made in a serving session is not read by the
    definer functions (their search path ends with pg_temp; adversarial review 41, fault 6)."""
    forged = ("zebra", keys.digest("forged key"))
    with psycopg.connect(roles.serve_url, autocommit=True) as conn:
        conn.execute(f"SET ROLE {schema.APP_ROLE}")
        conn.execute("CREATE TEMP TABLE api_keys (LIKE api_keys)")
        conn.execute("INSERT INTO api_keys VALUES ('forged', %s, 'bravo', 's', 'forged', false, 0, NULL,"
                     " NULL)", (forged[1],))
        conn.execute("CREATE TEMP TABLE memories (LIKE memories INCLUDING DEFAULTS)")
        conn.execute("INSERT INTO memories(seq, id, tenant, scope, kind, content, importance, observed_at,"
                     " recorded_at, content_terms) VALUES (1, 'forged', 'alpha', 's', 'fact', %s, 5, 1, 1,"
                     " to_tsvector('memvault', %s))", forged[:1] * 2)
        conn.execute(f"GRANT SELECT ON pg_temp.api_keys, pg_temp.memories TO {roles.owner}")
        conn.execute("SET memvault.tenant = 'alpha'")
        assert conn.execute("SELECT count(*) FROM memories").fetchone() == (1,)  # the session's own shadow
        phrases = "ARRAY[plainto_tsquery('memvault', %s)]"
        assert conn.execute("SELECT tenant FROM memvault_api_key(%s)", (forged[1],)).fetchall() == []
        assert conn.execute("SELECT tenant FROM memvault_api_key(%s)",
                            (keys.digest(roles.alpha_key),)).fetchall() == [("alpha",)]
        for word, found in (("zebra", 0), ("vault seven", 1)):
            assert conn.execute(f"SELECT count(*) FROM memvault_phrase_hits({phrases}, 'alpha')",
                                (word,)).fetchone() == (found,)
            assert conn.execute(f"SELECT count(*) FROM memvault_bounded_hits({phrases}, ARRAY[true], 10,"
                                " 'alpha')", (word,)).fetchone() == (found,)
        assert conn.execute("SELECT documents FROM memvault_term_documents(ARRAY['zebra'], 'alpha')"
                            ).fetchall() == [(0,)]


def test_every_memvault_function_searches_its_schema_then_pg_temp_and_none_the_caller_may_create_in(roles):
    with psycopg.connect(roles.owner_url) as conn:
        paths = dict(conn.execute("SELECT p.proname, p.proconfig FROM pg_proc p"
                                  " WHERE p.prosecdef OR (p.proname LIKE 'memvault%%' AND p.prokind = 'f')"
                                  ).fetchall())
        assert {"memvault_api_key", "memvault_vector_tables", "memvault_turn_hits", "memvault_phrase_hits",
                "memvault_term_documents", "memvault_bounded_hits", "memvault_count_terms", "memvault_holds"} <= set(paths)
        assert {n: [c for c in config if c.startswith("search_path=")] for n, config in paths.items()} \
            == {n: ["search_path=public, pg_temp"] for n in paths}
        # memvault_holds plans with bitmap scans only (schema.py, version 16); no other function sets more
        assert {n: sorted(c for c in config if not c.startswith("search_path=")) for n, config in paths.items()
                if len(config) > 1} == {"memvault_holds": ["enable_indexscan=off", "enable_seqscan=off"]}
        assert conn.execute("SELECT has_schema_privilege(%s, 'public', 'CREATE'),"
                            " has_database_privilege(%s, current_database(), 'CREATE')",
                            (roles.serve, roles.serve)).fetchone() == (False, False)


def test_a_database_keeping_review_state_in_settings_moves_it_to_each_tenant(pg_url):
    """A database of schema version 14 (review state under ``review:<tenant>`` in ``settings``, the
    functions' search path without pg_temp) is migrated: each tenant keeps its pairs."""
    store = Store(pg_url, FakeEmbedder())  # type: ignore[arg-type]
    try:
        pairs = {tenant: _contradiction(store, tenant) for tenant in ("alpha", "bravo")}
    finally:
        store.close()
    with psycopg.connect(pg_url) as conn:  # as version 14 kept them: the pairs in the JSON
        conn.execute("INSERT INTO settings SELECT 'review:' || p.tenant, (coalesce((SELECT s.value::jsonb"
                     " FROM tenant_settings s WHERE s.tenant = p.tenant), '{\"mark\": 0}') || jsonb_build_object("
                     "'pairs', jsonb_agg(jsonb_build_array(p.older, p.newer))))::text FROM review_pairs p"
                     " GROUP BY p.tenant")
        conn.execute("DROP TABLE tenant_settings, review_pairs")
        conn.execute("ALTER FUNCTION memvault_api_key(text) SET search_path = \"$user\", public")
        conn.execute("UPDATE memvault_schema SET version = %s",
                     (schema.MIGRATIONS.index(schema._v_tenant_settings),))
    store = Store(pg_url, FakeEmbedder())  # type: ignore[arg-type]
    try:
        assert {t: _reviewed(store, t) for t in pairs} == {t: [p] for t, p in pairs.items()}
    finally:
        store.close()
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT count(*) FROM settings WHERE key LIKE 'review%%'").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM tenant_settings WHERE value LIKE '%%pairs%%'").fetchone() == (0,)
        pinned = conn.execute("SELECT proconfig FROM pg_proc WHERE proname = 'memvault_api_key'").fetchone()
        assert pinned == (["search_path=public, pg_temp"],)


def test_tenants_served_by_the_serving_role_find_their_own_memories_and_no_others(roles):
    store = Store(roles.serve_url, FakeEmbedder())  # type: ignore[arg-type]
    try:
        assert keys.find(store, roles.alpha_key).tenant == "alpha"  # keys are checked without a tenant
        found = store.recall(tenant="alpha", query="where are the launch codes", scopes=["s"])
        assert [h.memory.content for h in found.hits][:1] == ["alpha keeps the launch codes in vault seven"]
        assert all(h.memory.tenant == "alpha" for h in found.hits)
        assert not [h for h in store.recall(tenant="carol", query="launch codes vault", scopes=["s"]).hits]
        new = store.remember(tenant="alpha", scope="s", content="the second vault is in Oslo")
        assert new.created and store.get(tenant="alpha", id=new.id).content == "the second vault is in Oslo"
        with pytest.raises(NotFound):
            store.get(tenant="bravo", id=new.id)
        with pytest.raises(StorageUnavailable, match="schema owner"):  # keys are the owner's to make
            keys.create(store, "alpha")
        gone = store.forget(tenant="alpha", id=new.id)
        assert gone.scrubbed is False  # only the owner may rewrite the tables: the scrub waits for it
    finally:
        store.close()
    owner = Store(roles.owner_url, FakeEmbedder())  # type: ignore[arg-type]
    try:  # (opening it may have scrubbed already)
        assert owner.upkeep.scrub() and not owner.upkeep.scrub_pending()
    finally:
        owner.close()


def test_a_serving_role_cannot_create_the_schema_and_is_told_which_role_can(pg_server):
    owner, owner_url, serve, serve_url = _database(pg_server, f"{os.getpid()}_f")
    try:
        with pytest.raises(StoreError, match="may not create or change memvault's schema.*role that owns it"):
            PostgresBackend(serve_url)
        PostgresBackend(owner_url).close()  # the owner migrates; then the serving role starts
        served = PostgresBackend(serve_url)
        assert served.schema_version == schema.SCHEMA_VERSION and not served.owner
        served.close()
    finally:
        _drop(pg_server, (owner, serve))


def test_a_server_at_its_connection_limit_is_busy_not_unreachable(pg_server):
    """A full server refuses a new connection (SQLSTATE 53300): the call waits for the pool's own
    connection as it would for a full pool, and is answered once it comes back."""
    import threading
    import time

    url = pg_server.new_database()
    Store(url, None).close()  # the schema, as the administrator
    role = f"mv_limit_{os.getpid()}"
    pg_server.admin(f"CREATE ROLE {role} LOGIN CONNECTION LIMIT 2 IN ROLE {schema.APP_ROLE}")
    pg_server.admin(f'GRANT CONNECT ON DATABASE "{pg_server.dbname(url)}" TO {role}')
    limited = pg_server.url(pg_server.dbname(url), user=role)
    store = Store(limited, None)
    other = psycopg.connect(limited)  # another client of the role takes the last place
    held = threading.Event()

    def long_read() -> None:
        with store.backend.read("t"):
            held.set()
            time.sleep(1.5)

    reader = threading.Thread(target=long_read)
    try:
        reader.start()
        held.wait()
        assert store.recall(tenant="t", query="anything", scopes=["p"]).hits == []  # waited, then answered
    finally:
        reader.join()
        other.close()
        store.close()
        pg_server.admin(f'DROP DATABASE IF EXISTS "{pg_server.dbname(url)}" WITH (FORCE)')
        pg_server.admin(f"DROP ROLE IF EXISTS {role}")


@pytest.mark.parametrize(("said", "full"), [
    ('connection to server on socket "/tmp/.s.PGSQL.5432" failed: FATAL:  sorry, too many clients already', True),
    ('connection failed: FATAL:  too many connections for role "mv_serve"', True),
    ('connection failed: FATAL:  too many connections for database "memvault"', True),
    ('connection to server at "db" (10.0.0.7), port 5432 failed: Connection refused', False),
    ('connection failed: FATAL:  password authentication failed for user "mv_serve"', False),
])
def test_a_refusal_for_being_full_is_told_from_one_for_being_away(said, full):
    """The server's three ways of saying it is full come without their SQLSTATE on a new connection."""
    from memvault.storage.postgres.connect import _full

    assert _full(psycopg.OperationalError(said)) is full


def test_a_team_server_run_as_the_tables_owner_warns_and_one_run_as_the_serving_role_does_not(roles, tmp_path):
    """Issue 25 §1.9: one role (the quick start) is the owner; the team server says so at start."""
    from httpwire import PING, HttpServer

    said = {}
    for who, url in (("owner", roles.owner_url), ("serve", roles.serve_url)):
        server = HttpServer(url, logs=tmp_path)
        try:
            assert server.post(roles.alpha_key, PING).status_code == 200
            said[who] = server.log()
        finally:
            server.close()
    assert "privileges of its tables' owner" in said["owner"] and "one-role-or-two" in said["owner"]
    assert "owner" not in said["serve"].lower(), said["serve"]
