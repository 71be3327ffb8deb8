"""Forgetting a captured session (issue 26): its turns deleted and every version of its digest
erased in one transaction, the bytes gone after the scrub; other sessions and tenants keep
theirs. State on both backends, the serving role on PostgreSQL, and over the MCP server."""

from __future__ import annotations

import pytest
from conftest import file_bytes
from mcp import Client

from memvault.server.app import build_server
from memvault.server.config import Config
from memvault.storage.errors import NotFound
from memvault.storage.records import NewTurn
from memvault.storage.store import Store

MARKER = "wombatmarker8812"


def captured(store: Store, session_id: str, tenant: str = "a", words: str = MARKER) -> None:
    store.episodes.append(tenant=tenant, scope="proj", session_id=session_id, turns=[
        NewTurn("user", f"Where did we leave the {words} migration?"),
        NewTurn("assistant", f"The {words} migration stopped at step 3.")])


@pytest.mark.contract
def test_forgetting_a_session_deletes_its_turns_and_every_digest_version_and_nothing_else(store):
    captured(store, "s-1")
    first = store.episodes.end(tenant="a", session_id="s-1").digest_id
    captured(store, "s-1")  # the session goes on: its next end supersedes the digest
    second = store.episodes.end(tenant="a", session_id="s-1").digest_id
    captured(store, "s-2", words="otter")
    captured(store, "s-1", tenant="b")  # same id, another tenant
    outcome = store.episodes.forget(tenant="a", session_id="s-1")
    assert (outcome.session, outcome.turns_deleted, sorted(outcome.forgotten_ids)) == ("s-1", 4, sorted([first, second]))
    with pytest.raises(NotFound):
        store.episodes.turns(tenant="a", session_id="s-1")
    assert [s.id for s in store.episodes.sessions(tenant="a")] == ["s-2"]
    assert all(store.get(tenant="a", id=d).content is None for d in (first, second))
    hits = store.recall(tenant="a", query=f"{MARKER} migration", scopes=["proj"], include_history=True).hits
    assert not any(MARKER in (h.memory.content or "") for h in hits)
    # The owner of the rest still finds it.
    assert len(store.episodes.turns(tenant="a", session_id="s-2")) == 2
    assert [t.text for t in store.episodes.turns(tenant="b", session_id="s-1")][0].startswith("Where did we")
    with pytest.raises(NotFound, match="or already forgotten"):  # gone: a retry is told why it finds nothing
        store.episodes.forget(tenant="a", session_id="s-1")
    with pytest.raises(NotFound):
        store.episodes.forget(tenant="c", session_id="s-2")  # another tenant's session is never found


def test_a_forgotten_sessions_text_leaves_the_database_files(store, db_path):
    captured(store, "s-9")
    store.episodes.end(tenant="a", session_id="s-9")
    assert MARKER.encode() in file_bytes(db_path)
    assert store.episodes.forget(tenant="a", session_id="s-9").scrubbed is False
    assert store.upkeep.scrub()  # waits for the background scrub
    assert MARKER.encode() not in file_bytes(db_path)


def test_the_serving_role_forgets_a_session_of_its_tenant_only(pg_server):
    from test_sessions_postgres import _database, _drop

    from fakes import FakeEmbedder

    roles = _database(pg_server, "forget_s")
    try:
        Store(roles[1], FakeEmbedder()).close()  # type: ignore[arg-type]  # the owner migrates
        store = Store(roles[3], FakeEmbedder())  # type: ignore[arg-type]  # the serving role
        try:
            captured(store, "same")
            captured(store, "same", tenant="b")
            store.episodes.end(tenant="a", session_id="same")
            assert store.episodes.forget(tenant="a", session_id="same").turns_deleted == 2
            assert len(store.episodes.turns(tenant="b", session_id="same")) == 2
        finally:
            store.close()
    finally:
        _drop(pg_server, (roles[0], roles[2]))


@pytest.mark.asyncio
async def test_forget_with_session_id_over_the_mcp_server_and_its_bad_input(db_path, one_model):
    store = Store(db_path, None)
    try:
        captured(store, "wire-1", tenant="default")
    finally:
        store.close()
    async with Client(build_server(Config(db=db_path))) as c:
        schema = {t.name: t for t in (await c.list_tools()).tools}["forget"].input_schema
        neither = await c.call_tool("forget", {})
        both = await c.call_tool("forget", {"id": "01a238e8-0000", "session_id": "wire-1"})
        unknown = await c.call_tool("forget", {"session_id": "no-such-session"})
        bad = await c.call_tool("forget", {"session_id": "has spaces/and slashes"})
        done = await c.call_tool("forget", {"session_id": "wire-1"})
        sessions = (await c.read_resource("memory://sessions")).contents[0].text
    assert "session_id" in schema["properties"] and "id" not in schema.get("required", [])
    assert neither.is_error and "id" in neither.content[0].text and "session_id" in neither.content[0].text
    assert both.is_error and "id" in both.content[0].text
    assert unknown.is_error and "no-such-session" in unknown.content[0].text
    assert bad.is_error and "session_id" in bad.content[0].text
    assert not done.is_error and done.structured_content["session"] == "wire-1"
    assert done.structured_content["turns_deleted"] == 2 and done.structured_content["id"] is None
    assert "wire-1" not in sessions


@pytest.mark.contract
def test_an_end_that_races_an_append_leaves_one_digest_and_forgetting_the_session_leaves_none(store, monkeypatch):
    from memvault.storage.episodes import Episodes
    from memvault.storage.query import Filters

    captured(store, "race-1")
    original, calls = Episodes._write_digest, []

    def racing(self, tenant, session, text, earlier):  # type: ignore[no-untyped-def]
        written = original(self, tenant, session, text, earlier)
        if not calls:  # a turn arrives while the first digest is written: end tries again
            store.episodes.append(tenant="a", scope="proj", session_id="race-1",
                                  turns=[NewTurn("user", f"one more {MARKER} detail")])
        calls.append(written)
        return written

    monkeypatch.setattr(Episodes, "_write_digest", racing)
    ended = store.episodes.end(tenant="a", session_id="race-1")

    def live_digests() -> list[str]:
        every = Filters(tenant="a", scopes=["proj"], now=store.clock(), kinds=["episode"])
        with store.backend.read("a") as tx:
            return [m.id for m in tx.memories("a", filters=every).values() if m.source == "session race-1"]

    assert len(calls) == 2 and live_digests() == [ended.digest_id]
    store.episodes.forget(tenant="a", session_id="race-1")
    assert live_digests() == []
    hits = store.recall(tenant="a", query=f"{MARKER} migration detail", scopes=["proj"], include_history=True).hits
    assert not any(MARKER in (h.memory.content or "") for h in hits)


def test_forgetting_a_sessions_digest_says_its_turns_are_kept(store):
    captured(store, "kept-1")
    digest_id = store.episodes.end(tenant="a", session_id="kept-1").digest_id
    outcome = store.forget(tenant="a", id=digest_id or "")
    assert outcome.sessions_kept == ["kept-1"] and len(store.episodes.turns(tenant="a", session_id="kept-1")) == 2
    plain = store.remember(tenant="a", scope="proj", content="An ordinary note.").id
    assert store.forget(tenant="a", id=plain).sessions_kept == []
