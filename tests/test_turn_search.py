"""Turn search (issue 26): the sessions' turns found by their words on both backends, bound to the
tenant and the scopes, a credential never findable by its value, CJK and emoji found as memories
are, a forgotten session gone from the search, and a database made before turn search gaining it on
open. One store per backend for the module (the searches read; the few writes use their own sessions)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from conftest import BACKENDS

import raw
from memvault.storage.errors import InvalidInput, NotFound
from memvault.storage.records import NewTurn
from memvault.storage.store import Store

GITHUB_TOKEN = "ghp_" + "Zy9Xw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8"
CJK = "東京のサーバーを再起動した 🚀"
TURNS_A = (
    NewTurn("user", "How do we roll out the kafka consumer to staging?"),
    NewTurn("assistant", "make deploy-staging", tool="Bash"),
    NewTurn("tool", f"deploy failed: export GITHUB_TOKEN={GITHUB_TOKEN} is not accepted", tool="Bash"),
    NewTurn("user", CJK),
)


@pytest.fixture(scope="module", params=BACKENDS)
def store(request, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """Tenant a: session s-1 in scope proj, s-2 in scope other; tenant b: its own s-1."""
    if request.param == "postgresql":
        db = request.getfixturevalue("pg_server").new_database()
    else:
        db = str(tmp_path_factory.mktemp("turns") / "m.db")
    s = Store(db, None)
    s.episodes.append(tenant="a", scope="proj", session_id="s-1", turns=list(TURNS_A))
    s.episodes.append(tenant="a", scope="other", session_id="s-2", turns=[
        NewTurn("user", "the kafka consumer of the billing scope lags")])
    s.episodes.append(tenant="b", scope="proj", session_id="s-1", turns=[
        NewTurn("user", "bravo's own kafka consumer notes")])
    yield s
    s.close()


def found(store: Store, query: str, tenant: str = "a", scopes: list[str] | None = None, **kw) -> list[tuple]:
    hits = store.episodes.search(tenant=tenant, query=query, scopes=scopes, **kw)
    return [(h.turn.session_id, h.turn.seq, h.scope) for h in hits]


def test_the_owner_finds_its_turns_and_another_tenant_never_does(store: Store):
    assert found(store, "roll", scopes=["proj"]) == [("s-1", 1, "proj")]
    hit = store.episodes.search(tenant="a", query="staging", scopes=["proj"], limit=5)
    assert sorted((h.turn.seq, h.turn.role, h.turn.tool) for h in hit) == [
        (1, "user", None), (2, "assistant", "Bash")]
    assert hit[0].score >= hit[1].score > 0  # best first: the shorter turn's BM25 is higher on SQLite
    assert found(store, "roll", tenant="b") == []
    assert found(store, "bravo", tenant="a") == []
    assert found(store, "bravo", tenant="b") == [("s-1", 1, "proj")]
    assert found(store, "kafka consumer", tenant="c") == []
    assert sorted(found(store, "kafka consumer")) == [("s-1", 1, "proj"), ("s-2", 1, "other")]


def test_scopes_and_one_session_bound_the_search(store: Store):
    assert found(store, "kafka consumer", scopes=["other"]) == [("s-2", 1, "other")]
    assert found(store, "kafka consumer", scopes=["proj", "global"]) == [("s-1", 1, "proj")]
    assert found(store, "kafka consumer", session_id="s-2") == [("s-2", 1, "other")]
    assert found(store, "kafka consumer", scopes=["proj"], session_id="s-2") == []
    with pytest.raises(NotFound, match="s-9"):
        found(store, "kafka", session_id="s-9")
    with pytest.raises(NotFound):  # b's session of the same id is not a's to search
        found(store, "bravo", tenant="c", session_id="s-1")


def test_a_credential_in_a_turn_is_not_findable_by_its_value(store: Store):
    assert found(store, GITHUB_TOKEN) == []
    assert found(store, GITHUB_TOKEN[4:]) == []
    (hit,) = store.episodes.search(tenant="a", query="failed accepted", scopes=None)
    assert GITHUB_TOKEN not in hit.turn.text and "[GitHub token]" in hit.turn.text
    assert hit.turn.redacted == ("GitHub token",)


def test_cjk_and_emoji_turns_are_found_as_memories_are(store: Store):
    memory = store.remember(tenant="m", scope="proj", content=CJK).id
    for query in ("東京", "再起動", "サーバー", "🚀"):
        assert found(store, query) == [("s-1", 4, "proj")], query
        hits = store.recall(tenant="m", query=query, scopes=["proj"]).hits
        assert [h.memory.id for h in hits] == [memory], query


def test_a_tenants_turn_scores_do_not_move_when_another_tenant_writes(store: Store):
    before = [h.score for h in store.episodes.search(tenant="a", query="kafka consumer", scopes=None)]
    store.episodes.append(tenant="d", scope="proj", session_id="noise", turns=[
        NewTurn("user", f"kafka note {i}") for i in range(40)])
    after = [h.score for h in store.episodes.search(tenant="a", query="kafka consumer", scopes=None)]
    assert after == before and len(before) == 2


def test_forgetting_a_session_removes_its_turns_from_the_search(store: Store):
    store.episodes.append(tenant="a", scope="proj", session_id="gone", turns=[
        NewTurn("user", "the zeppelin rollout plan"), NewTurn("assistant", "zeppelin rollout done")])
    assert sorted(found(store, "zeppelin rollout")) == [("gone", 1, "proj"), ("gone", 2, "proj")]
    assert store.episodes.forget(tenant="a", session_id="gone").turns_deleted == 2
    assert found(store, "zeppelin") == []
    store.episodes.append(tenant="a", scope="proj", session_id="gone", turns=[NewTurn("user", "a new start")])
    assert found(store, "zeppelin") == [] and found(store, "new start") == [("gone", 1, "proj")]
    assert found(store, "roll") == [("s-1", 1, "proj")]


@pytest.mark.parametrize(("kwargs", "says"), [
    ({"query": "   "}, "query: has no words"),
    ({"query": "x" * 2001}, "query: is 2,001 characters"),
    ({"query": "kafka", "session_id": "s" * 129}, "session_id: is 129 characters; the limit is 128"),
    ({"query": "kafka", "session_id": "a b"}, "session_id: holds"),
    ({"query": "kafka", "limit": 0}, "limit: must be an integer from 1 to 50"),
])
def test_bad_input_names_the_field(store: Store, kwargs, says):
    with pytest.raises(InvalidInput) as refused:
        store.episodes.search(tenant="a", scopes=None, **kwargs)
    assert str(refused.value).startswith(says)


@pytest.mark.contract
def test_a_database_made_before_turn_search_indexes_its_turns_on_open(db: str, backend: str):
    from memvault.storage.postgres import schema as pg_schema
    from memvault.storage.sqlite import schema as sqlite_schema

    store = Store(db, None)
    try:
        for tenant in ("a", "b"):
            store.episodes.append(tenant=tenant, scope="proj", session_id="old", turns=[
                NewTurn("user", f"the {tenant} harbour crane schedule"), NewTurn("assistant", CJK)])
    finally:
        store.close()
    if backend == "sqlite":
        for (number,) in raw.execute(db, "SELECT number FROM turn_index_tenants"):
            raw.execute(db, f"DROP TABLE {sqlite_schema.turn_index_table(number)}")
        raw.execute(db, "DROP TABLE turn_index_tenants")
        before = sqlite_schema.MIGRATIONS.index(sqlite_schema._v14_turn_index)
        raw.execute(db, f"PRAGMA user_version = {before}")
    else:
        raw.execute(db, "ALTER TABLE turns DROP COLUMN terms")
        before = pg_schema.MIGRATIONS.index(pg_schema._v_turn_terms)
        raw.execute(db, f"UPDATE memvault_schema SET version = {before}")
    store = Store(db, None)
    try:
        for tenant in ("a", "b"):
            assert found(store, f"{tenant} harbour crane", tenant=tenant) == [("old", 1, "proj")]
            assert found(store, "東京", tenant=tenant) == [("old", 2, "proj")]
        assert store.episodes.append(tenant="a", scope="proj", session_id="old", turns=[
            NewTurn("user", "after the upgrade")]).added == (3,)
        assert found(store, "upgrade") == [("old", 3, "proj")]
    finally:
        store.close()
    if backend == "postgresql":  # the append-only trigger was set aside for the fill only
        enabled = raw.execute(db, "SELECT tgenabled FROM pg_trigger WHERE tgname = 'turns_append_only'")
        assert enabled == [("O",)]
