"""Messages say what happened: a memory erased because it expired is called expired
(not forgotten) wherever it is named, and a read-only refusal names the credential the
caller used (an API key, or an OAuth token without the write scope)."""

from __future__ import annotations

import uuid

import pytest
from fakes import Clock, FakeEmbedder
from httpwire import HttpServer, free_port, new_key, refused

from memvault.server import cli
from memvault.storage.errors import Conflict
from memvault.storage.store import Store
from memvault.storage.timefmt import parse_iso
from memvault.tools import handlers, text
from memvault.tools.handlers import Caller

EXPIRES = "2026-01-02T00:00:00Z"
WEEK_MS = 7 * 86_400_000  # far past the grace period after which an expired memory is erased


def erased_after_expiry(store, clock: Clock, content: str = "Parking spot is 7781", **kw):
    """A memory that expired and was erased by the next write after the grace period."""
    memory = store.remember(tenant="a", scope="s", content=content, expires_at=EXPIRES, **kw)
    clock.now = parse_iso("now", EXPIRES) + WEEK_MS
    store.remember(tenant="a", scope="s", content=f"a later write {uuid.uuid4()}")
    store.worker.run(lambda: None)  # the write had the store's worker erase it: wait for that job
    assert store.get(tenant="a", id=memory.id).forgotten_at is not None  # erased, a tombstone
    return memory


@pytest.mark.contract
def test_superseding_a_memory_erased_after_expiry_says_it_expired(store, clock: Clock):
    memory = erased_after_expiry(store, clock)
    with pytest.raises(Conflict) as refused:
        store.supersede(tenant="a", id=memory.id, content="Parking spot is 9921")
    assert str(refused.value) == (f"id: memory {memory.id} expired at 2026-01-02T00:00:00.000Z, so it cannot be "
                                  "superseded: remember the new content")


@pytest.mark.contract
def test_a_history_whose_newest_version_was_erased_after_expiry_says_it_expired(store, clock: Clock):
    old = store.remember(tenant="a", scope="s", content="On call: Dee")
    newest = store.supersede(tenant="a", id=old.id, content="On call: Eli", expires_at=EXPIRES)
    clock.now = parse_iso("now", EXPIRES) + WEEK_MS
    store.remember(tenant="a", scope="s", content="a later write")
    with pytest.raises(Conflict, match=f"its newest version {newest.id} expired at 2026-01-02") as refused:
        store.supersede(tenant="a", id=old.id, content="On call: Fay")
    assert "forgotten" not in str(refused.value)


def test_a_forgotten_memory_that_would_have_expired_later_is_still_forgotten(store, clock: Clock):
    memory = store.remember(tenant="a", scope="s", content="Parking spot is 7781", expires_at="2099-01-01T00:00:00Z")
    store.forget(tenant="a", id=memory.id)
    with pytest.raises(Conflict, match=f"memory {memory.id} was forgotten, so it cannot be superseded"):
        store.supersede(tenant="a", id=memory.id, content="Parking spot is 9921")


def test_showing_a_memory_erased_after_expiry_says_it_expired(store, clock: Clock):
    memory = erased_after_expiry(store, clock)
    view = handlers.memory_view(store, Caller(tenant="a", scope="s"), memory.id)
    assert view["memory"] == {"id": memory.id, "expired_at": "2026-01-02T00:00:00.000Z"}
    assert "forgotten" not in text.memory_view_text(view)


def test_the_command_line_says_expired_for_a_memory_erased_after_expiry(db_path, capsys):
    clock = Clock()
    store = Store(db_path, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        memory = erased_after_expiry(store, clock)
    finally:
        store.close()
    db = ["--db", str(db_path), "--tenant", "a"]
    assert cli.main(["supersede", memory.id, "Parking spot is 9921", *db]) == 1
    err = capsys.readouterr().err
    assert f"memory {memory.id} expired at 2026-01-02" in err and "forgotten" not in err
    assert cli.main(["show", memory.id, *db]) == 0
    assert "expired at 2026-01-02" in capsys.readouterr().out


@pytest.mark.slow
def test_a_read_only_refusal_names_the_credential_that_was_used(tmp_path):
    from test_oauth import ISSUER, Issuer, _claims, _token

    issuer = Issuer()
    port = free_port()
    resource = f"http://127.0.0.1:{port}/mcp"
    oauth = HttpServer(tmp_path / "oauth.db", "--auth", "oauth", "--oauth-issuer", ISSUER, "--oauth-resource",
                       resource, "--oauth-jwks-url", issuer.jwks_url, "--oauth-tenant-claim", "org", port=port)
    keyed = HttpServer(tmp_path / "keys.db")
    try:
        key = new_key(tmp_path / "keys.db", "t", read_only=True)
        token = _token(issuer, _claims(resource, org="ro", scope="memvault:read"))

        call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "remember", "arguments": {"content": "written by a read-only caller"}}}
        by_token, by_key = oauth.post(token, call), keyed.post(key, call)
    finally:
        oauth.close()
        keyed.close()
        issuer.close()
    # A token: 403 with the scope to ask its authorization server for (RFC 6750 §3.1, the MCP step-up).
    assert refused(by_token, 403, "insufficient_scope") == (
        "this request needs the memvault:write scope, which the token does not grant")
    # A key cannot step up: the tool's error result, which the client shows, names the read-only key.
    assert by_key.status_code == 200 and by_key.json()["result"]["isError"], by_key.text
    said = by_key.json()["result"]["content"][0]["text"]
    assert said.startswith("this API key (id ") and "is read-only: it lacks the memvault:write scope" in said
    assert "memvault keys create" in said and key not in said and "token" not in said
