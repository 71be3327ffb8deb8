"""The team server over real HTTP on loopback: authentication, read-only keys, the
guards in front of /mcp, isolation between tenants, and sharing a database with stdio."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from contextlib import AsyncExitStack
from pathlib import Path

import anyio
import httpx2
import pytest
from conftest import BACKENDS, SERVE, server_env
from httpwire import PING, HttpServer, client, new_key, refused
from hypothesis import HealthCheck, given, settings
from npx import npx_command
from hypothesis import strategies as st
from wire import StdioServer

from memvault.server.config import HttpConfig
from memvault.server.http import PROBE_CACHE_S, allowed, transport_security
from memvault.storage import keys
from memvault.storage.records import NewTurn
from memvault.storage.store import Store
from memvault.storage.timefmt import format_ms, now_ms
from memvault.tools import handlers

pytestmark = pytest.mark.slow
DAY_MS = 86_400_000


@pytest.fixture(scope="module", params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path | str:
    """One database per backend for the tests that share the module's server."""
    if request.param == "postgresql":
        return request.getfixturevalue("pg_server").new_database()
    return tmp_path_factory.mktemp("http") / "memvault.db"


@pytest.fixture(scope="module")
def server(db: Path | str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpServer]:
    new_key(db, "setup")  # creates the database before the server opens it
    s = HttpServer(db, logs=tmp_path_factory.mktemp("http-logs"))
    yield s
    s.close()


def _stored(db: Path, tenant: str) -> list[tuple[str, str | None]]:
    """(id, content) of every memory of ``tenant``, history included, read from the file."""
    store = Store(db)
    try:
        found = handlers.list_memories(store, handlers.Caller(tenant, "default"), limit=50, include_history=True)
        return [(m.id, m.content) for m in found.memories]
    finally:
        store.close()


def _refused(response: httpx2.Response) -> str | None:
    """The ``error_description`` of a 401's RFC 6750 challenge (None for one without an
    error code), checked equal to the body's."""
    assert response.status_code == 401, response.text
    header = response.headers["www-authenticate"]
    if header == 'Bearer realm="memvault"':
        assert refused(response, 401, None)
        return None
    found = re.fullmatch(r'Bearer realm="memvault", error="invalid_token", error_description="([^"\\]*)"', header)
    assert found, header
    assert refused(response, 401, "invalid_token") == found.group(1)
    return found.group(1)


def test_requests_without_a_valid_key_get_401_saying_why(server: HttpServer, db: Path) -> None:
    revoked = new_key(db, "acme")
    store = Store(db)
    try:
        revoked_on = format_ms(keys.revoke(store, keys.find(store, revoked).id).revoked_at)  # type: ignore[union-attr]
    finally:
        store.close()
    two_days_ago = Store(db, clock=lambda: now_ms() - 2 * DAY_MS)
    try:
        record, expired = keys.create(two_days_ago, "acme", expires_days=1)
    finally:
        two_days_ago.close()
    valid = new_key(db, "acme")
    wrong = valid[:-4] + ("AAAA" if not valid.endswith("AAAA") else "BBBB")
    never_issued = keys.PREFIX + "x" * 43
    # RFC 6750 §3.1: no credentials, no error code; a refused token, invalid_token and why.
    assert _refused(server.post(None, PING)) is None
    assert _refused(server.post(None, PING, authorization="Basic YWNtZTpwdw==")) is None
    expected = {wrong: "unknown key", never_issued: "unknown key",
                "not-a-memvault-key": f"not a memvault API key (they start with {keys.PREFIX})",
                revoked: f"key revoked on {revoked_on}", expired: f"key expired on {format_ms(record.expires_at)}"}
    for key, description in expected.items():
        response = server.post(key, PING)
        assert _refused(response) == description, key
        assert key not in response.text and key not in str(response.headers)
    assert server.post(valid, PING).status_code == 200
    log = server.log()
    assert "refused API key" in log and f"revoked on {revoked_on}" in log and "expired on" in log
    assert "refused a request without a bearer token" in log
    for key in (wrong, revoked, expired):
        assert key not in log and key[4:20] not in log


def test_a_read_only_key_may_recall_and_read_but_never_write(server: HttpServer, db: Path) -> None:
    tenant = f"ro-{uuid.uuid4().hex[:8]}"
    writer, reader = new_key(db, tenant), new_key(db, tenant, read_only=True)

    async def run() -> str:
        async with client(server.url, writer) as c:
            stored = await c.call_tool("remember", {"content": "The staging database lives on host db-7."})
            assert not stored.is_error
            memory_id = str(stored.structured_content["id"])
        async with client(server.url, reader) as c:
            found = await c.call_tool("recall", {"query": "staging database host"})
            assert [m["id"] for m in found.structured_content["memories"]] == [memory_id]
            assert "db-7" in (await c.read_resource(f"memory://memories/{memory_id}")).contents[0].text
        return memory_id

    memory_id = anyio.run(run)
    [record] = [k for k in _keys_of(db) if k.tenant == tenant and k.read_only]
    said = (f"this API key (id {record.id}) is read-only: it lacks the memvault:write scope, so it may recall and "
            "read resources but not remember, supersede, forget or confirm; nothing was written; writing needs a "
            "key made without --read-only (memvault keys create)")
    calls = [("remember", {"content": "Read-only keys can write."}),
             ("supersede", {"id": memory_id, "content": "It is on db-9."}),
             ("forget", {"id": memory_id}), ("confirm", {"id": memory_id})]

    async def refused() -> list[tuple[bool, str]]:  # what the SDK's client (and so the agent) gets
        async with client(server.url, reader) as c:
            return [(r.is_error, r.content[0].text) for r in [await c.call_tool(n, a) for n, a in calls]]

    # A key cannot step up (no authorization server grants it more): the tool answers, naming the key,
    # where a 403 would reach the agent as "Server returned an error response" alone.
    assert anyio.run(refused) == [(True, said)] * len(calls)
    raw = [{"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": name, "arguments": args}}
           for i, (name, args) in enumerate(calls)]
    for body in raw:
        response = server.post(reader, body)
        assert response.status_code == 200 and "www-authenticate" not in response.headers, response.text
        assert response.json()["result"]["isError"] and response.json()["result"]["content"][0]["text"] == said
    batch = server.post(reader, [{**raw[0], "method": "ping", "params": {}}, raw[2]])
    assert batch.status_code == 200, batch.text
    assert [(r["id"], r["result"].get("isError")) for r in batch.json()] == [(0, None), (2, True)]
    assert _stored(db, tenant) == [(memory_id, "The staging database lives on host db-7.")]


def _keys_of(db: Path) -> list:
    store = Store(db, None)
    try:
        return keys.list_keys(store)
    finally:
        store.close()


def test_a_read_only_key_searches_its_tenants_turns_and_no_other_tenants(server: HttpServer, db: Path) -> None:
    mine, theirs = (f"turns-{uuid.uuid4().hex[:8]}" for _ in range(2))
    store = Store(db, None)
    try:
        for tenant in (mine, theirs):
            store.episodes.append(tenant=tenant, scope="proj", session_id="s-1", turns=[
                NewTurn("user", f"the flaky orchard test of {tenant}")])
    finally:
        store.close()
    keys_of = {tenant: new_key(db, tenant, scope="proj", read_only=True) for tenant in (mine, theirs)}

    async def run(tenant: str) -> list[dict]:
        async with client(server.url, keys_of[tenant]) as c:
            found = await c.call_tool("recall", {"query": "flaky orchard", "turns": True})
            return found.structured_content["turns"]

    for tenant in (mine, theirs):
        found = anyio.run(run, tenant)
        assert [(t["session_id"], t["seq"], t["text"]) for t in found] == [
            ("s-1", 1, f"the flaky orchard test of {tenant}")]


def test_a_token_in_the_query_string_is_refused(server: HttpServer, db: Path) -> None:
    key = new_key(db, "acme")
    for name in ("access_token", "api_key", "token"):
        response = httpx2.post(f"{server.url}?{name}={key}", json=PING, timeout=30, headers={
            "content-type": "application/json", "accept": "application/json, text/event-stream",
            "authorization": f"Bearer {key}",
        })
        assert response.status_code == 400, name
        assert "Authorization header" in response.json()["error"]["message"]
    assert key not in server.log()


def test_a_request_with_two_authorization_headers_is_refused(server: HttpServer, db: Path) -> None:
    """Adversarial pass: with two, the first won, so a proxy adding its own header could be read
    as another tenant. Either order is refused and nothing is stored; one header is served."""
    first, second = (f"two-{uuid.uuid4().hex[:8]}" for _ in range(2))
    keys = {first: new_key(db, first), second: new_key(db, second)}
    store = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
             "params": {"name": "remember", "arguments": {"content": "Two headers name two tenants."}}}
    for order in ((first, second), (second, first)):
        response = httpx2.post(server.url, json=store, timeout=30, headers=[
            ("content-type", "application/json"), ("accept", "application/json, text/event-stream"),
            *(("authorization", f"Bearer {keys[t]}") for t in order)])
        assert "one Authorization header" in refused(response, 400, "invalid_request")
    assert _stored(db, first) == [] and _stored(db, second) == []
    assert server.post(keys[first], store).status_code == 200
    assert [content for _, content in _stored(db, first)] == ["Two headers name two tenants."]
    assert _stored(db, second) == []


def test_a_foreign_host_or_origin_is_refused(server: HttpServer, db: Path) -> None:
    """Refused in the JSON shape of the 400 and 401 (a new-user trial found them plain text)."""
    key = new_key(db, "acme")
    # a port is digits, whole (the SDK's "localhost:*" matched "localhost:1:2" as a prefix)
    for host in ("evil.example", f"attacker.test:{server.port}", f"localhost:{server.port}:1",
                 f"127.0.0.1:{server.port}x", "localhost:", f"[::1]:{server.port}:80", "evil.example.",
                 f"localhost..:{server.port}", f"localhost.:{server.port}x"):
        described = refused(server.post(key, PING, host=host), 421, "invalid_host")
        assert "--allowed-host" in described and host not in described
    for origin in ("http://evil.example", f"https://127.0.0.1.evil.example:{server.port}",
                   f"http://localhost:{server.port}:1", f"http://127.0.0.1:{server.port}/x"):
        described = refused(server.post(key, PING, origin=origin), 403, "invalid_origin")
        assert "--allowed-origin" in described and origin not in described
    plain = httpx2.post(server.url, content=json.dumps(PING), timeout=30, headers={
        "content-type": "text/plain", "accept": "application/json, text/event-stream", "authorization": f"Bearer {key}"})
    assert "application/json" in refused(plain, 400, "invalid_request")
    allowed = server.post(key, PING, origin=f"http://localhost:{server.port}")
    assert allowed.status_code == 200 and "access-control-allow-origin" not in allowed.headers  # CORS off
    # a fully qualified name's final dot is the same name (RFC 1034 §3.1; trial 51 got 421)
    for host in (f"localhost:{server.port}", f"127.0.0.1:{server.port}", "localhost", f"LOCALHOST:{server.port}",
                 f"localhost.:{server.port}", f"127.0.0.1.:{server.port}", "localhost."):
        assert server.post(key, PING, host=host).status_code == 200, host
    for origin in ("http://localhost", "http://127.0.0.1", "http://[::1]"):  # port 80, not written
        assert server.post(key, PING, origin=origin).status_code == 200, origin


def test_an_allowed_host_or_origin_may_write_its_default_port_and_no_other() -> None:
    """RFC 9110 §4.2.3: "name:443" is "name" behind a TLS proxy (an adversarial pass got 421); a port
    given in the setting is matched whole, and another port of a name given without one is refused."""
    security = transport_security(HttpConfig(
        allowed_hosts=("memory.example.com", "other.example:8443", "[2001:db8::1]"),
        allowed_origins=("https://memory.example.com", "http://plain.example", "https://ported.example:8443")))
    hosts, origins = security.allowed_hosts, security.allowed_origins
    for host in ("memory.example.com", "memory.example.com:443", "memory.example.com:80", "other.example:8443",
                 "[2001:db8::1]", "[2001:db8::1]:443"):
        assert allowed(host, hosts), host
    for host in ("memory.example.com:8443", "memory.example.com:4430", "memory.example.com:44", "other.example",
                 "other.example:443", "[2001:db8::1]:8080", "memory.example.com:443:443"):
        assert not allowed(host, hosts), host
    for origin in ("https://memory.example.com", "https://memory.example.com:443", "http://plain.example",
                   "http://plain.example:80", "https://ported.example:8443"):
        assert allowed(origin, origins), origin
    for origin in ("https://memory.example.com:80", "http://memory.example.com", "http://plain.example:443",
                   "https://ported.example", "https://ported.example:443"):
        assert not allowed(origin, origins), origin


def test_a_credential_in_a_refused_host_or_origin_stays_out_of_the_log(server: HttpServer, db: Path) -> None:
    """The SDK logs a refused Host or Origin header as sent (a new-user trial found a token
    there): the team server's log names the header, its length and a digest, never its text (the
    client chose it: adversarial pass 56 F2)."""
    key = new_key(db, "acme")
    token, aws = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A", "AKIA" + "QYLPMN5HFIQR7BZX"
    before = len(server.log())
    refused(server.post(key, PING, host=token), 421, "invalid_host")
    refused(server.post(key, PING, origin=f"http://{aws}.example"), 403, "invalid_origin")
    refused(server.post(key, PING, host="plain.example"), 421, "invalid_host")
    log = server.log()[before:]
    assert token not in log and aws not in log and "plain.example" not in log
    digest = hashlib.sha256(b"plain.example").hexdigest()[:12]
    assert f"refused the host header: not an allowed host (13 characters, sha256 {digest})" in log
    assert log.count("refused the origin header") == 1


def test_a_request_body_over_the_limit_is_refused_and_nothing_is_written(server: HttpServer, db: Path) -> None:
    tenant = f"big-{uuid.uuid4().hex[:8]}"
    key = new_key(db, tenant)
    for size in (300_000, 2_000_000):
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "remember", "arguments": {"content": "x" * size}}}
        assert server.post(key, body).status_code == 413
    assert _stored(db, tenant) == []


def test_healthz_reports_readiness_without_authentication_or_secrets(server: HttpServer, db: Path) -> None:
    for _ in range(300):  # the model loads on a background thread after start
        response = httpx2.get(f"{server.base}/healthz", timeout=10)
        if response.json()["model"] != "loading":
            break
        time.sleep(0.2)
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ready", "model": "ready"}
    assert str(db) not in response.text and "postgres" not in response.text


# The Inspector CLI 0.15.0 (the last on Node 20) cannot send a header; it launches the
# mcp-remote bridge as its stdio server, which sends one (mcp-remote expands ${VAR}
# from its environment, so the key stays out of the process list).
INSPECTOR, MCP_REMOTE = "@modelcontextprotocol/inspector@0.15.0", "mcp-remote@0.15.1"


# On SQLite only: this is about the transport (the Inspector and mcp-remote over HTTP with a key);
# PostgreSQL's keys, writes and reads over HTTP are the other tests' here, on both backends.
@pytest.mark.parametrize("db", ["sqlite"], indirect=True)
@pytest.mark.skipif(shutil.which("npx") is None, reason="npx (Node.js) is not installed")
def test_the_inspector_cli_lists_tools_and_remembers_and_recalls_over_http_with_a_key(
        server: HttpServer, db: Path, tmp_path: Path) -> None:
    tenant = f"insp-{uuid.uuid4().hex[:8]}"
    key = new_key(db, tenant)

    def inspector(key: str | None, *args: str) -> subprocess.CompletedProcess[str]:
        header = ["--header", "Authorization: Bearer ${MEMVAULT_KEY}"] if key is not None else []
        cmd = [npx_command(INSPECTOR, "mcp-inspector"), "--cli", npx_command(MCP_REMOTE, "mcp-remote"), server.url,
               *header, *args]
        env = server_env(db, MCP_REMOTE_CONFIG_DIR=str(tmp_path / "mcp-auth"),
                         **({"MEMVAULT_KEY": key} if key is not None else {}))
        return subprocess.run(cmd, capture_output=True, text=True, timeout=180, env=env)

    def called(key: str, *args: str) -> dict:
        done = inspector(key, *args)
        assert done.returncode == 0, done.stderr[-2000:]
        assert key not in done.stdout
        return json.loads(done.stdout)

    assert {t["name"] for t in called(key, "--method", "tools/list")["tools"]} >= {"remember", "recall"}
    stored = called(key, "--method", "tools/call", "--tool-name", "remember",
                    "--tool-arg", "content=The on-call rotation changes on Mondays.")
    found = called(key, "--method", "tools/call", "--tool-name", "recall", "--tool-arg", "query=on-call rotation")
    assert [m["id"] for m in found["structuredContent"]["memories"]] == [stored["structuredContent"]["id"]]
    for refused_key, logged in ((None, "refused a request without a bearer token"),
                                (keys.PREFIX + "y" * 43, "refused an API key: unknown key")):
        before = server.log().count(logged)
        done = inspector(refused_key, "--method", "tools/call", "--tool-name", "remember",
                         "--tool-arg", "content=Written without a valid key.")
        assert done.returncode != 0 and '"structuredContent"' not in done.stdout
        assert server.log().count(logged) > before
    assert _stored(db, tenant) == [(stored["structuredContent"]["id"], "The on-call rotation changes on Mondays.")]


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.10.20"])
def test_a_non_loopback_bind_without_auth_refuses_to_start(tmp_path: Path, host: str) -> None:
    done = subprocess.run(
        [*SERVE, "--transport", "http", "--host", host, "--auth", "none", "--port", "1"],
        env=server_env(tmp_path / "m.db"), capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert "--auth" in done.stderr and host in done.stderr
    assert not (tmp_path / "m.db").exists()


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_a_port_in_use_fails_naming_it_without_claiming_to_run(tmp_path: Path, host: str) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([*SERVE, "--transport", "http", "--host", host, "--port", str(port)],
                              env=server_env(tmp_path / "m.db"), capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr
    assert f"memvault: cannot listen on {host}:{port}: the port is already in use" in done.stderr
    assert "--port" in done.stderr and done.stdout == ""
    assert "serving MCP" not in done.stderr and "startup complete" not in done.stderr
    assert "Uvicorn running" not in done.stderr and "Traceback" not in done.stderr


def test_stdio_and_http_servers_on_one_database_see_each_others_writes(server: HttpServer, db: Path) -> None:
    tenant = f"both-{uuid.uuid4().hex[:8]}"
    key = new_key(db, tenant)
    stdio = StdioServer(db, MEMVAULT_TENANT=tenant)
    try:
        over_stdio = stdio.request("tools/call", {"name": "remember", "arguments": {
            "content": "The release train leaves every second Tuesday."}})["result"]["structuredContent"]["id"]

        async def run() -> str:
            async with client(server.url, key) as c:
                found = await c.call_tool("recall", {"query": "when does the release train leave"})
                assert over_stdio in [m["id"] for m in found.structured_content["memories"]]
                stored = await c.call_tool("remember", {"content": "Hotfixes need two reviewers."})
                return str(stored.structured_content["id"])

        over_http = anyio.run(run)
        found = stdio.request("tools/call", {"name": "recall", "arguments": {"query": "reviewers for hotfixes"}})
        assert over_http in [m["id"] for m in found["result"]["structuredContent"]["memories"]]
    finally:
        stdio.close()


# Property-based isolation: several tenants (one with two keys) interleave writes,
# reads and resource reads; each sees exactly its own live memories, never another's.
OPS = st.lists(
    st.tuples(st.sampled_from(["remember", "recall", "supersede", "forget", "read", "poke"]),
              st.integers(0, 3), st.integers(0, 50)),
    min_size=4, max_size=12,
)


@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))
@given(ops=OPS)
def test_tenants_never_see_or_change_each_others_memories_over_http(server: HttpServer, db: Path, ops) -> None:
    run = uuid.uuid4().hex[:8]
    tenants = [f"t{i}-{run}" for i in range(3)]
    principals = [(t, new_key(db, t)) for t in tenants] + [(tenants[0], new_key(db, tenants[0]))]
    live: dict[str, dict[str, str]] = {t: {} for t in tenants}  # tenant -> id -> content

    async def listing(c) -> set[str]:  # type: ignore[no-untyped-def]
        result = await c.call_tool("recall", {"query": "", "since": "2000-01-01T00:00:00Z", "limit": 50})
        assert not result.is_error, result.content
        return {m["id"] for m in result.structured_content["memories"]}

    async def step(c, op: str, who: int, n: int) -> None:  # type: ignore[no-untyped-def]
        tenant, _ = principals[who]
        others = [i for t, ids in live.items() if t != tenant for i in ids]
        own = sorted(live[tenant])
        if op == "remember":
            content = f"Note {n} of {tenant}: marker {uuid.uuid4().hex}."
            result = await c.call_tool("remember", {"content": content})
            live[tenant][result.structured_content["id"]] = content
        elif op == "supersede" and own:
            old = own[n % len(own)]
            content = f"Revised note {n} of {tenant}: marker {uuid.uuid4().hex}."
            result = await c.call_tool("supersede", {"id": old, "content": content})
            assert not result.is_error, result.content
            del live[tenant][old]
            live[tenant][result.structured_content["id"]] = content
        elif op == "forget" and own:
            gone = own[n % len(own)]
            assert not (await c.call_tool("forget", {"id": gone})).is_error
            del live[tenant][gone]
        elif op == "read" and own:
            mine = own[n % len(own)]
            text = (await c.read_resource(f"memory://memories/{mine}")).contents[0].text
            assert live[tenant][mine] in text
        elif op == "poke" and others:
            foreign = others[n % len(others)]
            for name, args in (("supersede", {"id": foreign, "content": "Overwritten by a stranger."}),
                               ("forget", {"id": foreign})):
                assert (await c.call_tool(name, args)).is_error
            with pytest.raises(Exception):  # noqa: B017 - the SDK raises its MCPError on a resource error
                await c.read_resource(f"memory://memories/{foreign}")
            boot = (await c.read_resource("memory://boot")).contents[0].text
            assert all(text not in boot for t, ids in live.items() if t != tenant for text in ids.values())
        assert await listing(c) == set(live[tenant])

    async def run_all() -> None:
        async with AsyncExitStack() as stack:  # a session per principal, not per step (CPU of the handshakes)
            clients = [await stack.enter_async_context(client(server.url, key)) for _, key in principals]
            for op, who, n in ops:
                await step(clients[who], op, who, n)
        for tenant, key in principals:  # new sessions see the same
            async with client(server.url, key) as c:
                assert await listing(c) == set(live[tenant])

    anyio.run(run_all)


def test_a_database_that_cannot_be_opened_is_a_503_naming_it_never_a_500(tmp_path: Path) -> None:
    unreachable = "postgresql://memvault:S3cretPw@127.0.0.1:1/memvault"  # port 1: connection refused
    s = HttpServer(unreachable, "--auth", "none", logs=tmp_path, ready=False)
    try:
        for _ in range(300):  # the database is first opened a moment after start
            health = httpx2.get(f"{s.base}/healthz", timeout=5)
            if health.json()["status"] == "error":
                break
            time.sleep(0.2)
        assert health.status_code == 503 and health.json() == {"status": "error", "database": "not ready", "reason": "unavailable",
                                                       "model": "not loaded"}
        assert "127.0.0.1:1" not in health.text and "memvault:" not in health.text  # /healthz is unauthenticated
        response = s.post(None, PING)
        assert response.status_code == 503 and response.json()["error"]["data"]["error"] == "database_unavailable"
        assert "127.0.0.1:1" in response.text  # without authentication (loopback only) /mcp names it
        assert "cannot connect" in s.log() and "127.0.0.1:1" in s.log()
        assert "S3cretPw" not in response.text + health.text + s.log()
        assert "Traceback" not in s.log()
    finally:
        s.close()


def test_a_database_file_damaged_while_serving_is_a_503_saying_damaged(tmp_path: Path) -> None:
    """Closing pass of issue 25: an authenticated caller was told "the database cannot be opened"
    whatever happened (PostgreSQL stopped too); now what happened, never which database."""
    db = tmp_path / "m.db"
    key = new_key(db, "acme")
    s = HttpServer(db, logs=tmp_path)
    try:
        assert s.post(key, PING).status_code == 200
        with open(db, "r+b") as f:
            f.seek(100)  # past the header: the schema's page
            f.write(b"not a database page" * 50)
        time.sleep(PROBE_CACHE_S + 0.2)
        described = refused(s.post(key, PING), 503, "database_unavailable")
        log = s.log()
    finally:
        s.close()
    assert described.startswith("the database file is damaged") and "memvault doctor" in described, described
    assert str(db) not in described and "damaged" in log and "Traceback" not in log


def _cut(db: Path) -> None:
    with open(db, "r+b") as f:
        f.truncate(0)


def _pages_overwritten(db: Path) -> None:
    with open(db, "r+b") as f:
        f.seek(4096)
        f.write(b"\xff" * 65_536)


@pytest.mark.parametrize("damage", [_cut, _pages_overwritten])
def test_healthz_is_not_ready_while_damage_refuses_every_call(tmp_path: Path, damage) -> None:  # type: ignore[no-untyped-def]
    """Trial verify66 N3: with the file cut to 0 bytes, /healthz said 200 "ready", then 200 "damaged", while
    every call was a 503: a load balancer kept sending the clients there. The readiness read now reads what
    each request reads (the settings and a key's row), so such damage makes it 503 too."""
    db = tmp_path / "m.db"
    key = new_key(db, "acme")
    s = HttpServer(db, logs=tmp_path)
    try:
        for n in range(3):
            remember = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                        "params": {"name": "remember", "arguments": {"content": f"The parrot is called P{n}."}}}
            assert s.post(key, remember).status_code == 200
        damage(db)
        time.sleep(PROBE_CACHE_S + 0.2)
        calls = [s.post(key, PING).status_code for _ in range(2)]
        time.sleep(PROBE_CACHE_S + 0.2)
        health = httpx2.get(f"{s.base}/healthz", timeout=30)
    finally:
        s.close()
    assert calls == [503, 503]
    assert health.status_code == 503 and health.json()["database"] == "not ready", health.text


@pytest.mark.parametrize("db", ["sqlite"], indirect=True)
def test_a_server_without_keys_warns_and_a_key_after_two_spaces_is_still_read(server: HttpServer,
                                                                               tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    s = HttpServer(db)
    try:
        assert "no API key in database" in s.log() and "memvault keys create" in s.log()
        key = new_key(db, "acme")
        assert s.post(key, PING).status_code == 200
        spaced = s.post(None, PING, Authorization=f"Bearer  {key}")
        assert spaced.status_code == 200, spaced.headers.get("www-authenticate")
    finally:
        s.close()
    assert "no API key" not in server.log()  # the module's server started on a database holding a key


def test_each_request_does_not_add_a_log_line(server: HttpServer, db: Path) -> None:
    """A new-user trial counted 53 "Terminating session: None" lines (the SDK's INFO in
    stateless mode) in a short session; the server's own lines stay."""
    key = new_key(db, "acme")
    before = server.log().count("\n")
    for _ in range(5):
        assert server.post(key, PING).status_code == 200
    assert "Terminating session" not in server.log() and server.log().count("\n") - before < 5


@pytest.mark.parametrize("method", ["GET", "DELETE", "PUT", "PATCH", "OPTIONS"])
def test_every_method_but_post_gets_405_at_once_naming_post(server: HttpServer, db: Path, method: str) -> None:
    """A stateless server has no stream to open on GET (the SDK's answer was a 200
    event stream that never ended) and no session to end on DELETE."""
    key = new_key(db, "acme")
    headers = {"authorization": f"Bearer {key}", "accept": "text/event-stream, application/json"}
    for path in ("/mcp", "/mcp/"):
        response = httpx2.request(method, server.base + path, headers=headers, timeout=10)
        assert response.status_code == 405 and response.headers["allow"] == "POST", (path, response.text)
        assert response.headers["content-type"] == "application/json"
        assert response.json()["error"]["code"] == -32600 and method in response.json()["error"]["message"]
    head = httpx2.request("HEAD", server.url, headers=headers, timeout=10)
    assert head.status_code == 405 and head.headers["allow"] == "POST"
    assert _refused(httpx2.request(method, server.url, timeout=10)) is None  # no key: 401 first, as for POST
    # DNS-rebinding protection before the 405, as for POST: a foreign Host 421, Origin 403.
    refused(httpx2.request(method, server.url, headers={**headers, "host": "evil.example"}, timeout=10), 421,
                "invalid_host")
    refused(httpx2.request(method, server.url, headers={**headers, "origin": "http://evil.example"}, timeout=10),
                403, "invalid_origin")
    assert server.post(key, PING).status_code == 200


# Section 6 of issue 25: the SDK's transport as memvault ships it, over a real server.

def _raw(server: HttpServer, key: str | None, body: bytes | str, path: str = "/mcp", **headers: str) -> httpx2.Response:
    sent = {"content-type": "application/json", "accept": "application/json, text/event-stream", **headers}
    if key is not None:
        sent["authorization"] = f"Bearer {key}"
    return httpx2.post(server.base + path, content=body, headers=sent, timeout=30)


@pytest.mark.parametrize("path", ["/mcp/", "/mcp//", "/mcp///"])
def test_a_trailing_slash_reaches_the_endpoint_never_a_redirect(server: HttpServer, db: Path, path: str) -> None:
    """POST /mcp/ was 307 to an absolute http:// URL (wrong behind a TLS proxy)."""
    key = new_key(db, "acme")
    response = _raw(server, key, json.dumps(PING), path=path)
    assert response.status_code == 200 and "location" not in response.headers, response.text
    assert response.json() == {"jsonrpc": "2.0", "id": 1, "result": {}}
    assert _refused(_raw(server, None, json.dumps(PING), path=path)) is None  # still authenticated first
    health = httpx2.get(f"{server.base}/healthz/", timeout=10)
    assert health.status_code in (200, 503) and "location" not in health.headers and "database" in health.json()


@pytest.mark.parametrize(("host", "origin"), [
    ("LOCALHOST:{port}", None), ("LocalHost:{port}", None), ("LOCALHOST", None), ("127.0.0.1:{port}", None),
    ("localhost:{port}", "HTTP://LOCALHOST:{port}"), ("localhost:{port}", "http://LocalHost:{port}"),
])
def test_host_and_origin_are_compared_without_regard_to_case(server: HttpServer, db: Path, host: str,
                                                             origin: str | None) -> None:
    key = new_key(db, "acme")
    headers = {"host": host.format(port=server.port)}
    if origin is not None:
        headers["origin"] = origin.format(port=server.port)
    response = server.post(key, PING, **headers)
    assert response.status_code == 200, response.text
    refused(server.post(key, PING, host="EVIL.example"), 421, "invalid_host")  # still refused
    refused(server.post(key, PING, origin="HTTP://EVIL.EXAMPLE"), 403, "invalid_origin")


def _events(response: httpx2.Response) -> list[dict]:
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/event-stream")
    return [json.loads(line[5:]) for line in response.text.splitlines() if line.startswith("data:")]


@pytest.mark.parametrize("accept", ["text/event-stream", "text/event-stream; q=1.0", "TEXT/EVENT-STREAM",
                                    # a type of quality 0 is not acceptable (RFC 9110 §12.4.2; trial 52 got JSON)
                                    "application/json;q=0, text/event-stream", "text/event-stream, application/json; Q=0.000",
                                    "*/*;q=0, text/event-stream"])
def test_an_event_stream_only_accept_gets_the_reply_as_one_event(server: HttpServer, db: Path, accept: str) -> None:
    """A hosted connector's proxy sends exactly Accept: text/event-stream (406 before)."""
    tenant = f"sse-{uuid.uuid4().hex[:8]}"
    key = new_key(db, tenant)
    assert _events(server.post(key, PING, accept=accept)) == [{"jsonrpc": "2.0", "id": 1, "result": {}}]
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "remember", "arguments": {"content": "Proxies accept only event streams"}}}
    [reply] = _events(server.post(key, call, accept=accept))
    assert reply["id"] == 2 and reply["result"]["structuredContent"]["created"] is True
    assert [content for _, content in _stored(db, tenant)] == ["Proxies accept only event streams"]
    bare = httpx2.post(server.url, content=json.dumps(PING), timeout=30,  # no Accept: any type
                       headers={"content-type": "application/json", "authorization": f"Bearer {key}"})
    assert bare.status_code == 200 and bare.json()["result"] == {}
    assert server.post(key, PING, accept="text/html").status_code == 406  # still not acceptable


def test_content_type_is_read_without_regard_to_case_and_every_refusal_is_memvault_s_json(
        server: HttpServer, db: Path) -> None:
    """RFC 9110 §8.3.1: `APPLICATION/JSON` got 415, and refusals came in two shapes (400 memvault JSON
    for text/plain or none, a 415 JSON-RPC error for upper case or application/jsonx)."""
    key = new_key(db, "acme")
    for accepted in ("APPLICATION/JSON", "Application/Json; charset=utf-8",
                     "application/JSON ;charset=UTF-8"):
        response = server.post(key, PING, **{"content-type": accepted})
        assert response.status_code == 200 and response.json()["result"] == {}, (accepted, response.text)
    for sent in ("application/jsonx", "APPLICATION/JSONX", "application/json-seq", "text/plain", "",
                 "application/x-www-form-urlencoded"):
        response = server.post(key, PING, **{"content-type": sent})
        assert "application/json" in refused(response, 400, "invalid_request"), sent
    two = [("authorization", f"Bearer {key}"), ("accept", "application/json"),
           ("content-type", "application/json"), ("content-type", "text/plain")]
    response = httpx2.post(server.url, content=json.dumps(PING), headers=two, timeout=30)
    refused(response, 400, "invalid_request")


def _accepting(server: HttpServer, key: str, lines: list[str]) -> httpx2.Response:
    """PING sent with one Accept header line per item of ``lines``."""
    sent = [("authorization", f"Bearer {key}"), ("content-type", "application/json")]
    return httpx2.post(server.url, content=json.dumps(PING), headers=sent + [("accept", a) for a in lines],
                       timeout=30)


@pytest.mark.parametrize("lines", [["text/event-stream", "application/json"], ["", "application/json"],
                                   ["text/html", "application/json"],
                                   ["application/json", "text/event-stream"]])
def test_accept_sent_on_several_lines_is_read_as_one_list(server: HttpServer, db: Path, lines) -> None:
    """RFC 9110 §5.3: the SDK read the first Accept line only (event-stream, then application/json: 406)."""
    key = new_key(db, "acme")
    response = _accepting(server, key, lines)
    assert response.status_code == 200 and response.json()["result"] == {}, response.text
    assert _accepting(server, key, ["text/html", "image/png"]).status_code == 406


def test_a_batch_gets_one_array_with_a_reply_per_request(server: HttpServer, db: Path) -> None:
    tenant = f"batch-{uuid.uuid4().hex[:8]}"
    key = new_key(db, tenant)
    batch = [
        {"jsonrpc": "2.0", "id": "b1", "method": "ping"},
        {"jsonrpc": "2.0", "id": "b2", "method": "tools/call",
         "params": {"name": "remember", "arguments": {"content": "Batches reach the tools over HTTP"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},  # no reply
        {"id": "b3", "method": "ping"},  # no jsonrpc: -32600 with its id
        7,
    ]
    response = _raw(server, key, json.dumps(batch))
    assert response.status_code == 200, response.text
    by_id = {r["id"]: r for r in response.json()}
    assert set(by_id) == {"b1", "b2", "b3", None}
    assert by_id["b1"]["result"] == {} and by_id["b2"]["result"]["structuredContent"]["created"] is True
    assert by_id["b3"]["error"]["code"] == by_id[None]["error"]["code"] == -32600
    assert [content for _, content in _stored(db, tenant)] == ["Batches reach the tools over HTTP"]
    only_notifications = _raw(server, key, json.dumps([{"jsonrpc": "2.0", "method": "notifications/initialized"}]))
    assert only_notifications.status_code == 202 and only_notifications.content == b""
    empty = _raw(server, key, "[]")
    assert empty.status_code == 400 and empty.json()["error"] == {
        "code": -32600, "message": "Invalid Request: the batch is empty",
        "data": {"status": 400, "error": "invalid_request"}}  # every refusal of /mcp names both (adversarial pass 78 L2)
    assert _refused(_raw(server, None, json.dumps(batch))) is None  # authenticated as a whole first
    many = _raw(server, key, json.dumps([PING] * 51))  # each runs as a request: bounded
    assert many.status_code == 400 and "at most 50 messages; got 51" in many.json()["error"]["message"]


@pytest.mark.parametrize(("body", "reply_id", "says"), [
    ('"hello"', None, "a message must be a JSON object"),
    ("5", None, "a message must be a JSON object"),
    ("null", None, "a message must be a JSON object"),
    ("true", None, "a message must be a JSON object"),
    ('{"id": 3, "method": "ping"}', 3, "jsonrpc"),
    ('{"jsonrpc": "2.0", "id": 4, "method": 12}', 4, "method"),
    ('{"jsonrpc": "2.0", "id": {"x": 1}, "method": "ping"}', None, "id"),
])
def test_a_body_that_is_no_json_rpc_message_gets_invalid_request_not_a_pydantic_dump(
        server: HttpServer, db: Path, body: str, reply_id: object, says: str) -> None:
    key = new_key(db, "acme")
    response = _raw(server, key, body)
    assert response.status_code == 400, response.text
    error = response.json()
    assert error["id"] == reply_id and error["error"]["code"] == -32600 and says in error["error"]["message"]
    for leak in ("validation error", "pydantic", "input_value", "union["):
        assert leak not in response.text, response.text


def test_a_body_over_the_limit_gets_413_in_json_naming_the_limit(server: HttpServer, db: Path) -> None:
    key = new_key(db, "acme")
    big = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"_meta": {"x": "y" * 300_000}}})

    def chunked():  # no Content-Length: counted as it is read
        for i in range(0, len(big), 65_536):
            yield big[i:i + 65_536].encode()

    for response in (_raw(server, key, big), _raw(server, key, chunked())):  # type: ignore[arg-type]
        described = refused(response, 413, "request_too_large")
        assert "262,144 bytes" in described
    assert _raw(server, key, json.dumps(PING)).status_code == 200


def test_a_database_file_gone_while_serving_is_503_and_healthz_says_so(tmp_path: Path) -> None:
    """The file moved away: every call was a 500 (or a "memvault fault") while /healthz said ready."""
    db = tmp_path / "m.db"
    key = new_key(db, "acme")
    s = HttpServer(db)
    aside = tmp_path / "aside.db"
    try:
        assert s.post(key, PING).status_code == 200
        for how in ("moved", "replaced"):
            db.rename(aside)
            if how == "replaced":
                shutil.copy(aside, db)  # another file at the path
            call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                    "params": {"name": "recall", "arguments": {"query": "x"}}}
            # Before a key can be checked (the keys are in that database): the client is told
            # the database cannot be opened, the log names which and why.
            described = refused(s.post(key, call), 503, "database_unavailable")
            assert str(db) not in described and "log" in described
            assert described.startswith("the database file is gone" if how == "moved" else
                                        "the database file was replaced"), described
            assert refused(s.post(None, PING, Authorization="Bearer mvk_x"), 503, "database_unavailable")
            health = httpx2.get(f"{s.base}/healthz", timeout=10)
            assert health.status_code == 503 and health.json()["status"] == "error"
            assert str(db) not in health.text
            assert str(db) in s.log() and ("gone" if how == "moved" else "replaced") in s.log()
            if how == "replaced":
                db.unlink()
            aside.rename(db)
            time.sleep(PROBE_CACHE_S + 0.2)  # the readiness answer is kept that long
            assert s.post(key, PING).status_code == 200  # back where it was: served again
            assert httpx2.get(f"{s.base}/healthz", timeout=10).json()["database"] == "ready"
        assert "Traceback" not in s.log()
    finally:
        s.close()


NO_PORTS = ["454470", "65536", "99999", "0", "8x", "", "-1", "+80", "80.0", "0x50"]


@pytest.mark.parametrize("port", NO_PORTS)
def test_a_host_or_origin_whose_port_is_no_tcp_port_is_refused(server: HttpServer, db: Path, port: str) -> None:
    """A port is 1 to 65535 in ASCII digits: "127.0.0.1:454470" passed the Host check."""
    key = new_key(db, "acme")
    source = f"127.0.84.{10 + NO_PORTS.index(port)}"  # its own address: refusals are counted per address
    refused(server.post(key, PING, source=source, host=f"127.0.0.1:{port}"), 421, "invalid_host")
    refused(server.post(key, PING, source=source, origin=f"http://localhost:{port}"), 403, "invalid_origin")
    assert server.post(key, PING, source=source, host=f"127.0.0.1:{server.port}").status_code == 200


@pytest.mark.parametrize("accept", ["application/json;q=0", "application/json; q=0.0, text/event-stream;q=0",
                                    "*/*;q=0", "application/*;q=0, text/*;Q=0.000"])
def test_an_accept_naming_only_types_of_quality_zero_gets_406(server: HttpServer, db: Path, accept: str) -> None:
    """q=0 is "not acceptable" (RFC 9110 §12.4.2): "application/json;q=0" alone was answered in JSON."""
    tenant = f"q0-{uuid.uuid4().hex[:8]}"
    key = new_key(db, tenant)
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "remember", "arguments": {"content": "Not acceptable answers are not written"}}}
    response = server.post(key, call, accept=accept)
    assert response.status_code == 406, response.text
    assert response.json()["error"]["data"]["error"] == "not_acceptable"
    assert _stored(db, tenant) == []
    assert server.post(key, PING, accept="application/json;q=0.5").json()["result"] == {}  # a quality above 0 counts
