"""What ANALYZE copies out of memvault's tables (``pg_statistic``: most common values, histogram
bounds, a tsvector's most common words, vectors) holds nothing a forget removed once `memvault
doctor` has scrubbed, as the tables' files hold nothing (docs/postgresql.md#what-forget-guarantees;
issue 25 §9). The markers are of several shapes: a long word, a tag, a word common enough to be a
most common value, a JSON value, a key, a source, a session's id and folder, a turn, a run's note,
and a memory's vector."""

from __future__ import annotations

import json
import re
import secrets
import string
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from fakes import FakeEmbedder

from memvault.storage import embeddings
from memvault.storage.backend import SCRUB_DUE
from memvault.storage.postgres import schema, statistics
from memvault.storage.records import NewTurn
from memvault.storage.store import Store

# Columns of memvault's tables holding text, words, hashes or vectors that ANALYZE may sample: a
# forget keeps them (the tombstone's names and ids) or never touches the table (keys, settings).
KEPT = {
    "memories": {"id", "tenant", "scope", "kind", "supersedes", "superseded_by", "forget_reason"},
    "memory_tags": {"tenant"}, "idempotency_keys": {"tenant"}, "runs": {"tenant", "outcome"},
    "sessions": {"tenant", "scope", "digest_id"}, "turns": {"tenant", "role", "redacted"},
    "keyword_terms": {"tenant"}, "keyword_documents": {"tenant"}, "memory_counts": {"tenant", "scope", "kind"},
    "memory_vectors": {"tenant"}, "memory_windows": {"tenant"}, "review_pairs": {"tenant", "older", "newer"},
    "dismissed_pairs": {"tenant", "memory", "other"},
    "tenant_settings": {"tenant", "key", "value"}, "settings": {"key", "value"},
    "api_keys": {"id", "key_hash", "tenant", "scope", "name"},
}
VALUE_TYPES = ("text", "text[]", "tsvector", "vector", "json", "jsonb", "bytea")


def _word() -> str:
    """A made-up word of letters that stemming leaves whole."""
    return "zq" + "".join(secrets.choice(string.ascii_lowercase) for _ in range(14)) + "qz"


@dataclass
class Marked:
    """One tenant's memories and sessions holding the markers, by shape (``forget`` erases them all);
    ``vector``, a forgotten memory's vector (as text)."""

    store: Store
    words: dict[str, str]
    ids: list[str]
    vector: str = ""

    def forget(self) -> None:
        for memory_id in self.ids:
            assert self.store.forget(tenant="a", id=memory_id).scrubbed is False  # never on PostgreSQL's forget
        for i in range(2):
            self.store.episodes.forget(tenant="a", session_id=f"{self.words['session']}-{i}")


def _fill(store: Store) -> Marked:
    """Markers in every column a forget empties, beside memories and a session that stay. Each marker
    is in two rows at least (ANALYZE keeps no value of a column holding one distinct value)."""
    words = {shape: _word() for shape in ("long", "tag", "common", "json", "key", "source", "session", "cwd",
                                          "turn", "note")}
    ids = [store.remember(tenant="a", scope="s", content=f"the lighthouse keeper wrote {words['long']} twice").id,
           store.remember(tenant="a", scope="s", content=json.dumps({"door": words["json"], "floor": 3})).id]
    ids += [store.remember(tenant="a", scope="s", content=f"standup note {i} mentions {words['common']}",
                           tags=[words["tag"]], idempotency_key=f"{words['key']}-{i}",
                           source=f"{words['source']}-{i}").id
            for i in range(20)]  # in two fifths of the memories: a most common word
    procedure = store.remember(tenant="a", scope="s", content="Restart the lighthouse lamp", kind="procedure").id
    for i in range(2):
        store.confirm(tenant="a", id=procedure, outcome="failure", note=f"it hung on {words['note']} {i}")
    ids.append(procedure)
    for i in range(2):
        store.episodes.append(tenant="a", scope="s", session_id=f"{words['session']}-{i}",
                              cwd=f"/home/{words['cwd']}/{i}",
                              turns=[NewTurn(role="user", text=f"deploy {words['turn']} tonight {i}")])
    for i in range(25):
        store.remember(tenant="a", scope="s", content=f"kitchen inventory line {i} lists {i + 3} plates",
                       tags=["kitchen"], idempotency_key=f"kitchen-{i}", source="inventory")
    store.episodes.append(tenant="a", scope="s", session_id="kept", cwd="/home/kept",
                          turns=[NewTurn(role="user", text="an unrelated talk")])
    return Marked(store, words, ids)


def _vector(url: str, memory_id: str) -> str:
    """``memory_id``'s vector as pgvector writes it (as text, as ``pg_stats`` shows it)."""
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT v.embedding::text FROM memory_vectors v JOIN memories m ON m.seq = v.memory_seq"
                            " WHERE m.id = %s", (memory_id,)).fetchone()[0]


class Files:
    """The database's files under the data directory's ``base/``, read after a CHECKPOINT."""

    def __init__(self, data: Path, admin_url: str) -> None:
        self.admin_url = admin_url
        with psycopg.connect(admin_url) as conn:
            dboid = conn.execute("SELECT oid FROM pg_database WHERE datname = current_database()").fetchone()[0]
        self.base = data / "base" / str(dboid)

    def _read(self) -> dict[Path, bytes]:
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute("CHECKPOINT")
        return {p: p.read_bytes() for p in self.base.rglob("*") if p.is_file()}

    def holding(self, words: list[str]) -> dict[str, list[str]]:
        """Each word with the files holding it (none: absent)."""
        files = self._read()
        return {w: [p.name for p, data in files.items() if w.encode() in data] for w in words
                if any(w.encode() in data for data in files.values())}


def sampled(admin_url: str, words: list[str]) -> set[str]:
    """The words found in pg_statistic's rows or the pg_stats view (as a superuser: every row)."""
    found = set()
    with psycopg.connect(admin_url) as conn:
        for word in words:
            like = f"%{word}%"
            rows = conn.execute(
                "SELECT 1 FROM pg_statistic WHERE concat_ws(' ', stavalues1::text, stavalues2::text, stavalues3::text,"
                " stavalues4::text, stavalues5::text) LIKE %(w)s UNION ALL SELECT 1 FROM pg_stats WHERE concat_ws(' ',"
                " most_common_vals::text, histogram_bounds::text, most_common_elems::text) LIKE %(w)s",
                {"w": like}).fetchall()
            if rows:
                found.add(word)
    return found


def _analyze_database(conn: psycopg.Connection) -> None:
    conn.execute("ANALYZE")


def _analyze_each_table(conn: psycopg.Connection) -> None:
    """As autovacuum does: one table at a time, each once its rows changed enough."""
    for (table,) in conn.execute("SELECT c.oid::regclass::text FROM pg_class c JOIN pg_namespace n"
                                 " ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'"
                                 ).fetchall():
        conn.execute(f"VACUUM ANALYZE {table}")


ANALYZES: dict[str, Callable[[psycopg.Connection], None]] = {
    "database": _analyze_database, "each table": _analyze_each_table}


def analyze(admin_url: str, how: str = "database") -> None:
    with psycopg.connect(admin_url, autocommit=True) as conn:
        ANALYZES[how](conn)


@pytest.fixture
def files(pg_server, pg_url) -> Files:
    if pg_server.data is None:
        pytest.skip("needs the data directory of the test server")
    return Files(pg_server.data, pg_url)


@pytest.fixture
def marked(pg_url) -> Iterator[Marked]:
    store = Store(pg_url, FakeEmbedder())  # type: ignore[arg-type]
    try:
        yield _fill(store)
    finally:
        store.close()


def _recalls_its_own(store: Store) -> None:
    hits = store.recall(tenant="a", query="kitchen inventory plates", scopes=["s"]).hits
    assert hits and all("kitchen inventory" in hit.memory.content for hit in hits)
    assert [t.text for t in store.episodes.turns(tenant="a", session_id="kept")] == ["an unrelated talk"]


@pytest.mark.parametrize("how", ANALYZES)
def test_forgotten_text_analyzed_while_live_is_in_no_file_and_no_statistics_after_the_scrub(files, pg_url, marked, how):
    words = list(marked.words.values())
    marked.vector = _vector(pg_url, marked.ids[0])
    analyze(pg_url, how)
    assert set(files.holding(words)) == set(words)  # written to the table files while live
    assert sampled(pg_url, words) == set()  # never sampled
    marked.forget()
    assert marked.store.upkeep.scrub()
    assert files.holding(words) == {}
    assert sampled(pg_url, words) == set()
    assert sampled(pg_url, [marked.vector]) == set()
    _recalls_its_own(marked.store)


def _as_before_version_20(url: str) -> None:
    """The statistics targets as schema version 19 left them (the default: sampled)."""
    with psycopg.connect(url) as conn:
        for table in statistics.UNSAMPLED:
            if conn.execute("SELECT to_regclass(%s)", (table,)).fetchone() != (None,):
                for column in statistics.UNSAMPLED[table]:
                    conn.execute(f"ALTER TABLE {table} ALTER COLUMN {column} SET STATISTICS -1")


def _set_back(url: str) -> None:
    """Schema version 19 recorded: the next opening runs version 20 again."""
    with psycopg.connect(url) as conn:
        conn.execute("UPDATE memvault_schema SET version = %s", (schema.MIGRATIONS.index(schema._v_unsampled),))


def test_a_database_analyzed_before_version_20_keeps_forgotten_text_in_pg_statistic_until_the_next_scrub(
        files, pg_url, marked):
    """The fault itself, then its mending: a table rewrite leaves pg_statistic as it was."""
    words = list(marked.words.values())
    marked.vector = _vector(pg_url, marked.ids[0])
    _as_before_version_20(pg_url)
    analyze(pg_url)
    assert sampled(pg_url, words) == set(words)  # every shape
    marked.forget()
    assert marked.store.upkeep.scrub()  # the tables rewritten, as version 19 did
    assert set(files.holding(words)) >= {marked.words["long"], marked.words["common"]}
    assert {p for held in files.holding(words).values() for p in held} <= {"2619", *_toast_of_statistics(pg_url)}
    assert sampled(pg_url, [marked.vector]) == {marked.vector}
    marked.store.close()
    _set_back(pg_url)
    store = Store(pg_url, FakeEmbedder())  # type: ignore[arg-type]
    try:
        assert store.upkeep.scrub_pending()  # version 20 records the statistics to clear
        assert store.upkeep.scrub()
        assert files.holding(words) == {}
        assert sampled(pg_url, words) == set()
        assert sampled(pg_url, [marked.vector]) == set()
        assert set(_unsampled_targets(pg_url).values()) == {0}  # sampled no more
        _recalls_its_own(store)
    finally:
        store.close()


def _toast_of_statistics(url: str) -> set[str]:
    with psycopg.connect(url) as conn:
        return {str(conn.execute("SELECT pg_relation_filenode(reltoastrelid) FROM pg_class"
                                 " WHERE oid = 'pg_statistic'::regclass").fetchone()[0])}


def _columns(url: str) -> list[tuple[str, str, str, int]]:
    """(table, column, type, statistics target: -1 the default) of every column of memvault's tables."""
    with psycopg.connect(url) as conn:
        return conn.execute(
            "SELECT c.relname, a.attname, format_type(a.atttypid, NULL), coalesce(a.attstattarget, -1)"
            " FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = current_schema() AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped"
        ).fetchall()


def _unsampled_targets(url: str) -> dict[tuple[str, str], int | None]:
    """The statistics target of each ``UNSAMPLED`` column (None: no such column)."""
    targets = {(table, column): target for table, column, _, target in _columns(url)}
    return {(t, c): targets.get((t, c)) for t, cs in statistics.UNSAMPLED.items() for c in cs}


def test_a_fresh_database_has_no_statistics_to_clear(pg_url):
    Store(pg_url, FakeEmbedder()).close()  # type: ignore[arg-type]
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT key FROM settings WHERE key IN (%s, %s)",
                            (SCRUB_DUE, statistics.STATISTICS_DUE)).fetchall() == []


def test_every_column_holding_what_a_forget_removes_is_unsampled_and_no_other_is_left_unnamed(marked, pg_url):
    """A table or column added later without a statistics target fails here (``KEPT`` says why each
    sampled one may be)."""
    columns = _columns(pg_url)
    with psycopg.connect(pg_url) as conn:
        extended = conn.execute("SELECT count(*) FROM pg_statistic_ext").fetchone()[0]
    unsampled = {(t, c) for t, cs in statistics.UNSAMPLED.items() for c in cs}
    assert _unsampled_targets(pg_url) == dict.fromkeys(unsampled, 0)
    values = {(t, c) for t, c, kind, _ in columns if re.sub(r"\(.*\)", "", kind) in VALUE_TYPES
              or kind.startswith("vector")}
    kept = {(t, c) for t, cs in KEPT.items() for c in cs}
    assert values - unsampled - kept == set()
    assert not kept & unsampled
    assert extended == 0  # no extended statistics (their MCV lists copy values of several columns)


# -- who may clear what was sampled before version 20 ----------------------------------------------

@dataclass
class Owned:
    """A database whose memvault schema a non-superuser role owns (docs/postgresql.md, the two-role
    set-up), ``db_owner`` when it owns the database too."""

    url: str  # the owner's
    admin_url: str
    owner: str


@pytest.fixture
def owned(pg_server, request) -> Iterator[Owned]:
    db_owner = request.param
    tag = secrets.token_hex(4)
    owner, name = f"mv_stat_{tag}", f"t_stat_{tag}"
    pg_server.admin(f"DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{schema.APP_ROLE}') THEN"
                    f" CREATE ROLE {schema.APP_ROLE} NOLOGIN; END IF; END $$")
    pg_server.admin(f"CREATE ROLE {owner} LOGIN")
    pg_server.admin(f"GRANT {schema.APP_ROLE} TO {owner}")
    pg_server.admin(f'CREATE DATABASE "{name}"' + (f" OWNER {owner}" if db_owner else ""))
    with psycopg.connect(pg_server.url(name), autocommit=True) as conn:
        conn.execute("CREATE EXTENSION vector")
        conn.execute(f"ALTER SCHEMA public OWNER TO {owner}")
    try:
        yield Owned(pg_server.url(name, user=owner), pg_server.url(name), owner)
    finally:
        pg_server.admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        pg_server.admin(f"DROP ROLE IF EXISTS {owner}")


def _analyzed_before_version_20(url: str, admin_url: str) -> tuple[list[str], str]:
    """A database of schema version 19 whose forgotten memories ANALYZE sampled while they were live, its
    tables rewritten by a scrub; the markers, and a memory that stays."""
    store = Store(url, FakeEmbedder())  # type: ignore[arg-type]
    try:
        words = [_word() for _ in range(2)]
        ids = [store.remember(tenant="a", scope="s", content=f"note {i} of {words[0]}", tags=[words[1]]).id
               for i in range(6)]
        kept = store.remember(tenant="a", scope="s", content="the kitchen has twelve plates", tags=["kitchen"]).id
        store.remember(tenant="a", scope="s", content="the kitchen has four cups", tags=["kitchen"])
        _as_before_version_20(admin_url)
        analyze(admin_url)
        assert sampled(admin_url, words) == set(words)
        for memory_id in ids:
            store.forget(tenant="a", id=memory_id)
        assert store.upkeep.scrub()
    finally:
        store.close()
    _set_back(admin_url)
    return words, kept


def doctor(url: str, monkeypatch, capsys) -> dict:
    """``memvault doctor --json`` with the fake embedder (the one the memories were written with)."""
    from memvault.server import cli

    monkeypatch.setattr(embeddings, "Embedder", lambda *args, **kwargs: FakeEmbedder())
    capsys.readouterr()
    cli.main(["doctor", "--db", url, "--json"])
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("owned", [True], indirect=True)
@pytest.mark.parametrize("clears", ["pg_clear_attribute_stats", "none (before PostgreSQL 18)"])
def test_the_database_owner_clears_what_was_sampled_before_version_20(owned, clears, monkeypatch, capsys, caplog):
    """The owner of the two-role set-up is no superuser: on PostgreSQL 18 it removes the statistics
    itself and may rewrite pg_statistic (it owns the database); before 18 it may not remove them, and
    the scrub stays pending, saying so."""
    words, kept = _analyzed_before_version_20(owned.url, owned.admin_url)
    if clears != "pg_clear_attribute_stats":
        monkeypatch.setattr(statistics, "_CLEARS", "memvault_no_such_function(text, text, text, boolean)")
    report = doctor(owned.url, monkeypatch, capsys)
    if clears == "pg_clear_attribute_stats":
        assert report["scrubbed"] is True and report["scrub_pending"] is False and report["ok"]
        assert sampled(owned.admin_url, words) == set()
    else:
        assert "scrubbed" not in report and report["scrub_pending"] is True and not report["ok"]
        assert "only a superuser may remove" in caplog.text
        assert sampled(owned.admin_url, words) == set(words)  # as said: still there
    store = Store(owned.url, FakeEmbedder())  # type: ignore[arg-type]
    try:
        assert [h.memory.id for h in store.recall(tenant="a", query="twelve plates", scopes=["s"]).hits][:1] == [kept]
    finally:
        store.close()


@pytest.mark.parametrize("owned", [False], indirect=True)
def test_a_schema_owner_not_owning_the_database_scrubs_once_granted_maintain_on_pg_statistic(
        owned, pg_server, monkeypatch, capsys, caplog):
    words, _ = _analyzed_before_version_20(owned.url, owned.admin_url)
    report = doctor(owned.url, monkeypatch, capsys)
    assert "scrubbed" not in report and report["scrub_pending"] is True
    assert "MAINTAIN on pg_catalog.pg_statistic" in caplog.text
    assert sampled(owned.admin_url, words) == set()  # removed, but pg_statistic's file keeps the dead rows:
    if pg_server.data is not None:
        assert Files(pg_server.data, owned.admin_url).holding(words)
    with psycopg.connect(owned.admin_url, autocommit=True) as conn:
        conn.execute(f"GRANT MAINTAIN ON pg_catalog.pg_statistic TO {owned.owner}")
    report = doctor(owned.url, monkeypatch, capsys)
    assert report["scrubbed"] is True and report["scrub_pending"] is False
    if pg_server.data is not None:
        assert Files(pg_server.data, owned.admin_url).holding(words) == {}


@pytest.mark.parametrize("owned", [False], indirect=True)
def test_a_superuser_clears_them_without_pg_clear_attribute_stats(owned, pg_server, monkeypatch):
    words, _ = _analyzed_before_version_20(owned.url, owned.admin_url)
    monkeypatch.setattr(statistics, "_CLEARS", "memvault_no_such_function(text, text, text, boolean)")
    store = Store(owned.admin_url, FakeEmbedder())  # type: ignore[arg-type]
    try:
        assert store.upkeep.scrub()
    finally:
        store.close()
    assert sampled(owned.admin_url, words) == set()
    if pg_server.data is not None:
        assert Files(pg_server.data, owned.admin_url).holding(words) == {}
