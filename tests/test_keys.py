"""API keys in storage, HTTP settings, the rate limiter and the per-request caller
(fast: no server process)."""

from __future__ import annotations

import os

import apsw
import pytest
import raw
from conftest import file_bytes
from fakes import FakeEmbedder
from mcp import Client

from memvault.server.app import build_server
from memvault.server.config import Config, load_http
from memvault.server.http import RateLimiter
from memvault.server.runtime import Runtime
from memvault.storage import keys
from memvault.storage.sqlite import schema
from memvault.storage.errors import InvalidInput, NotFound
from memvault.storage.store import Store
from memvault.storage.timefmt import format_ms
from memvault.tools import handlers


@pytest.mark.contract
def test_a_key_is_stored_only_as_its_hash_and_found_again(store, db, backend) -> None:
    record, key = keys.create(store, "acme", scope="web", name="ci bot", read_only=True, expires_days=30)
    other, other_key = keys.create(store, "globex")
    assert key.startswith(keys.PREFIX) and len(key) > 40
    assert keys.find(store, key) == record and record.read_only and record.scope == "web"
    assert keys.find(store, key + "x") is None and keys.find(store, key[:-1]) is None
    assert [k.id for k in keys.list_keys(store)] == [record.id, other.id]
    store.close()
    stored = raw.execute(db, "SELECT key_hash FROM api_keys")
    assert sorted(h for (h,) in stored) == sorted([keys.digest(key), keys.digest(other_key)])
    if backend == "sqlite":
        data = file_bytes(db)
        assert key.encode() not in data and key[4:24].encode() not in data and keys.digest(key).encode() in data


@pytest.mark.contract
def test_revoked_and_expired_keys_say_why_they_are_refused(store, clock) -> None:
    record, key = keys.create(store, "acme", expires_days=1)
    assert record.refusal(clock()) is None
    assert record.refusal(clock() + keys.DAY_MS) == f"expired on {format_ms(record.expires_at)}"
    revoked = keys.revoke(store, record.id)
    assert revoked.refusal(clock()) == f"revoked on {format_ms(revoked.revoked_at)}" and keys.find(store, key) == revoked
    assert keys.revoke(store, record.id) == revoked  # twice changes nothing


@pytest.mark.parametrize(("field", "kwargs"), [
    ("tenant", {"tenant": ""}), ("tenant", {"tenant": "x" * 129}), ("scope", {"tenant": "a", "scope": " "}),
    ("name", {"tenant": "a", "name": "n" * 201}), ("expires", {"tenant": "a", "expires_days": 0}),
    ("expires", {"tenant": "a", "expires_days": 3651}),
])
@pytest.mark.contract
def test_bad_key_settings_are_refused_naming_the_field(store, field: str, kwargs: dict) -> None:
    with pytest.raises(InvalidInput) as caught:
        keys.create(store, **kwargs)
    assert caught.value.field == field
    assert keys.list_keys(store) == []


@pytest.mark.parametrize("days", [0, 3651, -1, True, "7", 2.5])
def test_a_key_expiry_that_is_not_a_whole_number_of_days_in_range_is_refused_in_one_wording(store, days) -> None:
    """keys.create checks its range with the one integer validator, unit included (it
    compared by hand before: "7" raised TypeError and True made a key expiring in a day)."""
    with pytest.raises(InvalidInput, match=r"^expires: must be an integer from 1 to 3,650 days; got "):
        keys.create(store, "acme", expires_days=days)
    assert keys.list_keys(store) == []
    assert keys.create(store, "acme", expires_days=3650)[0].expires_at is not None


@pytest.mark.contract
def test_revoking_an_unknown_key_names_the_id(store) -> None:
    record, _ = keys.create(store, "acme")
    unknown = "0123abcd" + record.id[8:]
    with pytest.raises(NotFound, match=f"^id: no API key with id '{unknown}' "):
        keys.revoke(store, unknown)
    assert keys.list_keys(store)[0].revoked_at is None


@pytest.mark.contract
@pytest.mark.parametrize(("given", "says"), [
    ("01a2", "id: '01a2' is too short: give at least 8 characters of the id"),
    ("nope", "id: 'nope' is not an API key id: a key id is 36 hex digits and hyphens"),
    ("", "id: is empty: a key id is 36 hex digits"),
])
def test_a_key_id_follows_the_memory_ids_length_rule_and_words(store, given, says) -> None:
    """New-user trial: `memvault keys revoke 01a2` said "not found" where a memory id that
    short is "too short"."""
    keys.create(store, "acme")
    with pytest.raises(InvalidInput) as refused:
        keys.revoke(store, given)
    assert str(refused.value).startswith(says)
    assert keys.list_keys(store)[0].revoked_at is None


@pytest.mark.contract
def test_a_unique_prefix_of_a_key_id_revokes_that_key_and_a_shared_one_is_refused(store) -> None:
    made = [keys.create(store, "acme")[0] for _ in range(2)]
    while len(os.path.commonprefix([made[-2].id, made[-1].id])) < 8:  # ids begin with their time (65 s a step)
        made.append(keys.create(store, "acme")[0])
    first, second = made[-2:]
    shared = len(os.path.commonprefix([first.id, second.id]))
    with pytest.raises(InvalidInput, match="is the start of several API key ids; give more characters"):
        keys.revoke(store, first.id[:shared])
    assert keys.revoke(store, first.id[: shared + 1].upper()).id == first.id
    assert [k.id for k in keys.list_keys(store) if k.revoked_at is not None] == [first.id]


def test_a_database_with_memories_from_before_keys_gains_the_keys_table(db_path) -> None:
    conn = apsw.Connection(str(db_path))
    conn.execute(schema._V1 + "PRAGMA user_version = 1;")
    conn.execute(
        "INSERT INTO memories(id, tenant, scope, kind, content, content_hash, importance, observed_at, recorded_at)"
        " VALUES ('0190aaaa-0000-7000-8000-000000000001', 'a', 'default', 'fact', 'Standup at nine', 'h', 5, 0, 0)"
    )
    conn.close()
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    try:
        _, key = keys.create(store, "a")
        assert keys.find(store, key) is not None
        assert store.get(tenant="a", id="0190aaaa-0000-7000-8000-000000000001").content == "Standup at nine"
    finally:
        store.close()


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "10.1.2.3", "memory.example.com"])
def test_serving_a_non_loopback_address_without_auth_is_refused(host: str) -> None:
    with pytest.raises(ValueError, match="--auth") as caught:
        load_http(host=host, auth="none")
    assert host in str(caught.value)
    assert load_http(host=host).auth == "keys"  # the default authenticates


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "localhost", "::1"])
def test_no_auth_is_allowed_on_loopback(host: str) -> None:
    assert load_http(host=host, auth="none").loopback


def test_oauth_needs_its_issuer_and_resource(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="--oauth-issuer"):
        load_http(auth="oauth", resource="https://m.example/mcp")
    with pytest.raises(ValueError, match="--oauth-resource"):
        load_http(auth="oauth", issuer="https://id.example")
    monkeypatch.setenv("MEMVAULT_OAUTH_ISSUER", "https://id.example/realm")
    monkeypatch.setenv("MEMVAULT_OAUTH_RESOURCE", "https://m.example/mcp")
    http = load_http(auth="oauth")
    assert http.jwks_url == "https://id.example/realm/.well-known/jwks.json" and http.tenant_claim == "tenant"


def test_the_rate_limiter_lets_a_minutes_worth_through_then_says_how_long_to_wait() -> None:
    now = [0.0]
    limiter = RateLimiter(60, clock=lambda: now[0])
    assert all(limiter.wait_s("a") == 0 for _ in range(60))
    assert limiter.wait_s("a") == pytest.approx(1.0)
    assert limiter.wait_s("b") == 0  # per key
    now[0] += 2.0
    assert limiter.wait_s("a") == 0 and limiter.wait_s("a") == 0 and limiter.wait_s("a") > 0


def test_a_request_counted_as_many_leaves_its_caller_in_debt_for_as_long() -> None:
    """A body too costly to read (over wire.MEMBERS_MAX keys) counts as a full batch (adversarial pass 57 F3)."""
    now = [0.0]
    limiter = RateLimiter(60, clock=lambda: now[0])
    assert limiter.wait_s("a", cost=70) == 0  # taken while the bucket held one: 10 requests of debt
    assert limiter.wait_s("a") == pytest.approx(11.0) and limiter.wait_s("b") == 0
    now[0] += 11.0
    assert limiter.wait_s("a") == 0 and limiter.wait_s("a") > 0


def test_refusals_checked_together_are_all_counted_the_bucket_left_in_debt() -> None:
    """Requests checked before the bucket emptied and refused after (the database probe between: ci25, 104
    outage refusals counted against a bound of 101) are each paid for: the next request waits for all of them."""
    now = [0.0]
    limiter = RateLimiter(60, clock=lambda: now[0])
    for _ in range(59):
        limiter.charge("a")
    assert all(limiter.wait_s("a", count=False) == 0 for _ in range(16))  # 16 in flight pass the check together
    for _ in range(16):
        limiter.charge("a")  # each refused once its check ended: 15 requests of debt
    assert limiter.wait_s("a", count=False) == pytest.approx(16.0) and limiter.wait_s("b", count=False) == 0
    now[0] += 15.0
    assert limiter.wait_s("a", count=False) > 0
    now[0] += 1.0
    assert limiter.wait_s("a", count=False) == 0


@pytest.mark.asyncio
async def test_with_auth_on_a_request_without_a_verified_token_uses_no_tenant(db_path, one_model) -> None:
    config = Config(db=db_path, tenant="process-tenant")
    async with Client(build_server(config, runtime=Runtime(config, authenticated=True))) as c:
        refused = await c.call_tool("remember", {"content": "Written with the process's tenant."})
        assert refused.is_error and "no verified token" in refused.content[0].text
        assert (await c.call_tool("recall", {"query": "tenant"})).is_error
    store = Store(db_path)
    try:
        found = handlers.list_memories(store, handlers.Caller("process-tenant", "default"), limit=10)
        assert found.memories == []
    finally:
        store.close()


def test_keys_create_prints_the_key_alone_and_list_never_shows_it(db_path, capsys) -> None:
    from memvault.server.cli import main

    assert main(["remember", "--db", str(db_path), "a memory, so the database exists"]) == 0
    capsys.readouterr()
    assert main(["keys", "list", "--db", str(db_path)]) == 0  # none yet: said, not silence
    out, err = capsys.readouterr()
    assert out == "" and "no API keys" in err
    assert main(["keys", "create", "--db", str(db_path), "--tenant", "acme", "--name", "ci", "--read-only"]) == 0
    out, err = capsys.readouterr()
    key = out.strip()
    assert out == key + "\n" and key.startswith(keys.PREFIX) and "tenant=acme" in err and key not in err
    assert main(["keys", "list", "--db", str(db_path)]) == 0
    listed = capsys.readouterr().out
    assert "tenant=acme" in listed and "read-only" in listed and key not in listed and key[4:20] not in listed
    key_id = listed.split()[0]
    assert main(["keys", "revoke", "--db", str(db_path), key_id]) == 0
    assert "revoked" in capsys.readouterr().out
    assert main(["keys", "revoke", "--db", str(db_path), "no-such-id"]) == 2  # no key id's shape: a bad argument
    assert "no-such-id" in capsys.readouterr().err
    assert main(["keys", "revoke", "--db", str(db_path), key_id[:4]]) == 2  # as `memvault show` words and exits
    assert capsys.readouterr().err == f"memvault: ID: '{key_id[:4]}' is too short: give at least 8 characters of the id\n"
    for days in ("0", "-3", "3651"):  # exit 2 like argparse, the flag named as the command line spells it
        assert main(["keys", "create", "--db", str(db_path), "--tenant", "acme", "--expires", days]) == 2
        assert capsys.readouterr().err.startswith(f"memvault: --expires: must be an integer from 1 to 3,650 days; got {days}")
    assert main(["keys", "create", "--db", str(db_path), "--tenant", " "]) == 2
    assert capsys.readouterr().err.startswith("memvault: --tenant: is only white space; it must be 1-128 characters")


@pytest.mark.slow
def test_bare_memvault_started_by_a_client_still_serves_stdio(db_path) -> None:
    import json
    import subprocess
    import sys

    from conftest import server_env

    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}
    done = subprocess.run([sys.executable, "-m", "memvault.server"], input=json.dumps(hello) + "\n",
                          env=server_env(db_path), capture_output=True, text=True, timeout=60)
    assert json.loads(done.stdout.splitlines()[0])["result"]["serverInfo"]["name"] == "memvault"


@pytest.mark.parametrize("host", ["::", "0.0.0.0", "10.1.2.3", "memory.example.com"])
def test_the_team_server_can_be_built_for_any_bind_address_with_keys(db_path, host: str) -> None:
    from memvault.server.http import build_app, transport_security

    http = load_http(host=host, allowed_hosts=["memory.example.org"])
    assert build_app(Config(db=db_path), http) is not None
    allowed = transport_security(http).allowed_hosts
    assert f"{host}:*" in allowed and "memory.example.org" in allowed and "127.0.0.1:*" in allowed
    assert not db_path.exists()  # nothing is opened before the server runs


@pytest.mark.parametrize("name", ["ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A", "ci password is Zq81kkLm",
                                  "AKIAQYLPMN5HFIQR7BZX", "A\u212aIAQYLPMN5HFIQR7BZX"])
def test_a_key_name_that_looks_like_a_credential_is_refused_on_the_command_line(db_path, capsys, name) -> None:
    from memvault.server.cli import main

    assert main(["keys", "create", "--db", str(db_path), "--tenant", "acme", "--name", name]) != 0
    out, err = capsys.readouterr()
    assert "name" in err and "looks like" in err and name[-10:] not in out + err
    assert main(["keys", "create", "--db", str(db_path), "--tenant", "acme", "--name", "ci bot"]) == 0


@pytest.mark.parametrize(("given", "code"), [
    ("01a2", 2), ("zzzzzzzzzz", 2), ("0190a8e4-7c5b-7d2e-9f3a-1b2c3d4e5f60-extra", 2), ("", 2),  # no key id's shape
    ("0123abcd", 1), ("0190a8e4-7c5b-7d2e-9f3a-1b2c3d4e5f60", 1),  # a key id's shape, no such key
])
def test_keys_revoke_exits_as_memory_commands_do(db_path, capsys, given: str, code: int) -> None:
    """An adversarial pass: `memvault keys revoke 1234` exited 1 where `memvault show 1234` exits 2 (docs/cli.md: a
    bad argument exits 2, a command that ran and failed 1)."""
    from memvault.server.cli import main

    store = Store(db_path)
    try:
        keys.create(store, "acme")
    finally:
        store.close()
    assert main(["keys", "revoke", "--db", str(db_path), given]) == code
    assert main(["show", "--db", str(db_path), given]) == code
    assert capsys.readouterr().err.count("memvault: ID: ") == 2
