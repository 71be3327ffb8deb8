"""The team server's HTTP refusals reach a user of the MCP SDK's own client (issue 25): every refusal of a
request to /mcp is a JSON-RPC error body (``memvault.server.wire.http_refusal``), which the SDK's
``streamable_http_client`` raises as ``MCPError`` with memvault's words (a body in another shape was "Server
returned an error response"). The HTTP status and headers stay; the kind is in ``error.data``."""

from __future__ import annotations

import os
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from httpwire import PING, HttpServer, free_port, new_key, refused
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError

from memvault.server.http import MAX_BODY_BYTES
from memvault.storage.keys import PREFIX as KEY_PREFIX
from memvault.storage.store import Store
from memvault.tools import handlers

pytestmark = pytest.mark.slow
TOO_LARGE = f"the request body is over the limit of {MAX_BODY_BYTES:,} bytes (a memory is at most 8,000 characters)"
HOST = "the Host header names no host this server answers to"
UNAVAILABLE = "the server's log says which database and why"
Session = Callable[[ClientSession], Awaitable[Any]]


async def _recall(session: ClientSession) -> Any:
    return await session.call_tool("recall", {"query": "who owns the billing service"})


async def _remember(session: ClientSession, content: str = "Nils owns the billing service") -> Any:
    return await session.call_tool("remember", {"content": content})


def _raised(url: str, token: str | None, call: Session | None = None, **headers: str) -> MCPError:
    """The ``MCPError`` the SDK's ``ClientSession`` raises initializing over ``streamable_http_client``
    with ``token`` as bearer token (none: no Authorization), then making ``call``."""
    sent = {**headers, **({"Authorization": f"Bearer {token}"} if token is not None else {})}

    async def run() -> MCPError:
        async with create_mcp_http_client(headers=sent) as http, \
                streamable_http_client(url, http_client=http) as (read, write), ClientSession(read, write) as session:
            with pytest.raises(MCPError) as raised:
                await session.initialize()
                if call is not None:
                    await call(session)
            return raised.value

    return anyio.run(run)


def _stored(db: Path, tenant: str) -> list[str]:
    store = Store(db)
    try:
        return [m.content for m in handlers.list_memories(store, handlers.Caller(tenant, "default"), limit=50).memories]
    finally:
        store.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[HttpServer, Path, str]]:
    db = tmp_path_factory.mktemp("refusals") / "memvault.db"
    key = new_key(db, "acme")
    server = HttpServer(db)
    yield server, db, key
    server.close()


@pytest.mark.parametrize(("case", "status", "kind", "said"), [
    ("unknown key", 401, "invalid_token", "unknown key"),
    ("not a key", 401, "invalid_token", "not a memvault API key (they start with mvk_)"),
    ("no token", 401, None, "authentication required: send Authorization: Bearer <token>"),
    ("too large", 413, "request_too_large", TOO_LARGE),
    ("foreign host", 421, "invalid_host", HOST),
    ("token in the url", 400, "invalid_request", "the query string holds a memvault API key: tokens are accepted "
                                                 "only in the Authorization header (Authorization: Bearer <token>)"),
])
def test_a_refusal_reaches_the_sdk_clients_exception_in_memvaults_words(
        served: tuple[HttpServer, Path, str], case: str, status: int, kind: str | None, said: str) -> None:
    server, db, key = served
    token, url, call, headers = key, server.url, None, {}
    if case == "unknown key":
        token = KEY_PREFIX + "A" * 43
    elif case == "not a key":
        token = "a-password"
    elif case == "no token":
        token = None
    elif case == "too large":
        call = lambda session: _remember(session, "x" * (MAX_BODY_BYTES + 1))  # noqa: E731
    elif case == "foreign host":
        headers = {"Host": "evil.example"}
    else:
        url = f"{server.url}?x={key}"
    error = _raised(url, token, call, **headers)
    assert error.message.startswith(said), error.message
    assert error.code == -32600 and error.error.data == {"status": status, **({"error": kind} if kind else {})}
    assert "Server returned an error response" not in error.message and key not in error.message
    assert _stored(db, "acme") == []


def test_a_limited_client_is_told_when_to_retry(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    key = new_key(db, "acme")
    server = HttpServer(db, "--rate-limit", "3", logs=tmp_path)

    async def calls(session: ClientSession) -> None:
        for _ in range(4):  # initialize and its notification were two of the three
            await _recall(session)

    try:
        error = _raised(server.url, key, calls)
        raw = server.post(key, PING)
    finally:
        server.close()
    assert error.message.startswith("too many requests for this key: the limit is 3 a minute; retry in ")
    assert error.message.endswith(" s")
    assert error.code == -32600 and error.error.data == {"status": 429, "error": "rate_limited"}
    assert refused(raw, 429, "rate_limited") == ("too many requests for this key: the limit is 3 a minute; retry in "
                                                 f"{raw.headers['retry-after']} s")
    assert int(raw.headers["retry-after"]) >= 1


def _header_zeroed(db: Path) -> None:
    with open(db, "r+b") as f:
        f.write(b"\x00" * 100)


@pytest.mark.parametrize(("harm", "said"), [
    (_header_zeroed, "the database file is damaged; `memvault doctor` says how to recover"),
    (os.remove, "the database file is gone (moved or deleted while the server ran)"),
], ids=["damaged", "gone"])
def test_a_database_that_cannot_serve_is_named_to_the_sdk_client(tmp_path: Path, harm: Any, said: str) -> None:
    db = tmp_path / "m.db"
    key = new_key(db, "acme")
    server = HttpServer(db, logs=tmp_path)
    try:
        harm(db)
        deadline = time.monotonic() + 10  # the readiness read before the harm is served for PROBE_CACHE_S
        while httpx2.get(f"{server.base}/healthz", timeout=30).status_code == 200 and time.monotonic() < deadline:
            time.sleep(0.2)
        error = _raised(server.url, key, _recall)
        raw = server.post(key, PING)
    finally:
        server.close()
    assert error.message == f"{said}; {UNAVAILABLE}"
    assert error.code == -32603 and error.error.data == {"status": 503, "error": "database_unavailable"}
    assert refused(raw, 503, "database_unavailable") == error.message and raw.headers["retry-after"] == "5"


def test_a_read_only_token_writing_is_told_which_scope_it_lacks_and_nothing_is_written(tmp_path: Path) -> None:
    from test_oauth import ISSUER, Issuer, _claims, _token

    issuer, port, db = Issuer(), free_port(), tmp_path / "m.db"
    resource = f"http://127.0.0.1:{port}/mcp"
    server = HttpServer(db, "--auth", "oauth", "--oauth-issuer", ISSUER, "--oauth-resource", resource,
                        "--oauth-jwks-url", issuer.jwks_url, "--oauth-tenant-claim", "org", port=port, logs=tmp_path)
    try:
        token = _token(issuer, _claims(resource, scope="memvault:read"))
        error = _raised(server.url, token, _remember)
        raw = server.post(token, {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                                  "params": {"name": "remember", "arguments": {"content": "Nils owns billing"}}})
        also = _raised(server.url, "not-a-jwt", None)
    finally:
        server.close()
        issuer.close()
    assert error.message == "this request needs the memvault:write scope, which the token does not grant"
    assert error.code == -32600
    assert error.error.data == {"status": 403, "error": "insufficient_scope", "scope": "memvault:write"}
    assert refused(raw, 403, "insufficient_scope") == error.message and raw.json()["id"] == 7  # its id, read
    assert 'error="insufficient_scope", ' in raw.headers["www-authenticate"]
    assert also.error.data == {"status": 401, "error": "invalid_token"} and also.message
    assert _stored(db, "acme") == []


def test_a_read_only_api_key_writing_still_gets_the_tools_error_result_naming_the_key(
        served: tuple[HttpServer, Path, str]) -> None:
    """No refusal: a key cannot step up, so its write is the tool's error result (docs/team-server.md)."""
    server, db, _ = served
    key = new_key(db, "acme", read_only=True)

    async def run() -> Any:
        async with create_mcp_http_client(headers={"Authorization": f"Bearer {key}"}) as http, \
                streamable_http_client(server.url, http_client=http) as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            return await _remember(session)

    result = anyio.run(run)
    assert result.is_error and "is read-only: it lacks the memvault:write scope" in result.content[0].text
    assert _stored(db, "acme") == []


@pytest.mark.parametrize(("request_args", "status", "kind"), [
    ({"headers": {"Origin": "http://evil.example"}}, 403, "invalid_origin"),
    ({"headers": {"MCP-Protocol-Version": "1999-01-01"}}, 400, "unsupported_protocol_version"),
    ({"headers": {"Content-Encoding": "gzip"}}, 415, "unsupported_content_coding"),
    ({"headers": {"Content-Type": "text/plain"}}, 400, "invalid_request"),
    ({"method": "GET"}, 405, "method_not_allowed"),
    ({"method": "DELETE"}, 405, "method_not_allowed"),
    ({"path": "/nothing"}, 404, "not_found"),
    ({"headers": {"Host": "x" * 1_001}}, 400, "invalid_request"),
    ({"headers": {"Authorization": "Bearer " + KEY_PREFIX + "A" * 43}}, 401, "invalid_token"),
], ids=["origin", "protocol version", "content coding", "content type", "GET", "DELETE", "path", "long host",
        "unknown key"])
def test_every_refusal_of_a_request_is_a_json_rpc_error_keeping_its_status(
        served: tuple[HttpServer, Path, str], request_args: dict[str, Any], status: int, kind: str) -> None:
    server, _, key = served
    headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json",
               "Accept": "application/json, text/event-stream", **request_args.get("headers", {})}
    response = httpx2.request(request_args.get("method", "POST"), server.base + request_args.get("path", "/mcp"),
                              content=b'{"jsonrpc": "2.0", "id": 3, "method": "ping"}', headers=headers, timeout=30)
    assert refused(response, status, kind)
    if status == 405:
        assert response.headers["allow"]
    if status == 401:
        assert response.headers["www-authenticate"].startswith('Bearer realm="memvault", error="invalid_token"')
