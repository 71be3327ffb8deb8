"""A request whose line and headers are over the team server's limit is refused naming the largest of them
(issue 25 §6): a tool's name sent through the SDK's client goes into the Mcp-Name header, and a 120 KB one
got "the request line and headers are 120,235 bytes" without saying which."""

from __future__ import annotations

import json
import re
import select
import socket

import anyio
import httpx2
import pytest
from httpwire import HttpServer
from mcp import Client, MCPError
from mcp.client.streamable_http import streamable_http_client

from memvault.server.http import HEAD_MAX_BYTES

pytestmark = pytest.mark.slow
LIMIT = f"the limit is {HEAD_MAX_BYTES:,}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    s = HttpServer(tmp_path_factory.mktemp("sizes") / "m.db", "--auth", "none")
    yield s
    s.close()


def _call(name: str) -> dict[str, object]:
    return {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": {}}}


def _post(server: HttpServer, headers: dict[str, str], query: str = "", name: str = "recall") -> httpx2.Response:
    sent = {"content-type": "application/json", "accept": "application/json", **headers}
    return httpx2.post(f"{server.url}{query}", json=_call(name), headers=sent, timeout=30)


@pytest.mark.parametrize(("headers", "query", "named"), [
    ({"mcp-name": "r" * 120_000, "mcp-method": "tools/call"}, "", "the 'Mcp-Name' header"),
    ({"mcp-name": "r" * 40_000}, "", "the 'Mcp-Name' header"),
    ({"x-trace-context": "t" * 33_000}, "", "the 'X-Trace-Context' header"),
    ({"cookie": "c=" + "v" * 40_000}, "", "the 'Cookie' header"),
    ({f"x-part-{i}": "p" * (900 + i) for i in range(40)}, "", "the 'X-Part-39' header"),
    ({}, "?q=" + "s" * 40_000, "the request target"),
], ids=["mcp-name 120 KB", "mcp-name 40 KB", "another header", "cookie", "many headers", "query string"])
def test_a_head_over_the_limit_is_refused_naming_its_largest_part(server: HttpServer, headers: dict[str, str],
                                                                   query: str, named: str) -> None:
    response = _post(server, headers, query)
    assert response.status_code == 400 and response.headers["content-type"] == "application/json"
    said = response.json()
    assert said["error"]["data"]["error"] == "invalid_request", said
    described = said["error"]["message"]
    assert re.match(r"the request line and [\d,]+ headers are [\d,]+ bytes, ", described)
    assert described.endswith(f"of them {named}; {LIMIT}")
    assert "p" * 100 not in described and "v" * 100 not in described  # never the value


def test_a_long_name_within_the_limit_reaches_the_tools(server: HttpServer) -> None:
    response = _post(server, {"mcp-name": "r" * 20_000, "mcp-method": "tools/call"}, name="r" * 20_000)
    assert response.status_code == 200 and response.json()["result"]["isError"], response.text
    assert "unknown tool" in response.json()["result"]["content"][0]["text"]


def test_the_sdk_clients_long_tool_name_is_refused_naming_the_mcp_name_header(server: HttpServer) -> None:
    answers: list[httpx2.Response] = []

    async def kept(response: httpx2.Response) -> None:
        await response.aread()
        answers.append(response)

    async def call() -> None:
        async with httpx2.AsyncClient(event_hooks={"response": [kept]}, timeout=30) as http:
            async with Client(streamable_http_client(server.url, http_client=http)) as c:
                with pytest.raises(MCPError):  # the SDK's client raises on a 400, without its body
                    await c.call_tool("r" * 120_000, {})

    anyio.run(call)
    refused = answers[-1]
    assert refused.status_code == 400, refused.text
    assert refused.json()["error"]["message"].endswith(f"of them the 'Mcp-Name' header; {LIMIT}")


@pytest.mark.parametrize("count", [10, 3_000])
@pytest.mark.parametrize("over", [False, True])
def test_a_head_is_measured_without_describing_each_header(monkeypatch, count: int, over: bool) -> None:
    """Every request's head is sized before authentication: no header name goes through the credential
    check (``shown``) but the one a refusal names, however many headers come (an adversarial pass: 3,000
    headers a request held the event loop for seconds, before any token was asked for)."""
    from memvault.server import http

    described: list[str] = []
    monkeypatch.setattr(http, "shown", lambda text, *a, **k: described.append(text) or repr(text))
    each = (HEAD_MAX_BYTES // count) + (8 if over else -40)
    scope = {"type": "http", "raw_path": b"/mcp", "query_string": b"",
             "headers": [(f"x-{i}".encode(), b"v" * max(each - len(f"x-{i}") - 4, 0)) for i in range(count)]}
    refused = http._over_long(scope)
    assert (refused is not None) == over
    assert len(described) == (1 if over else 0)


@pytest.mark.parametrize(("line", "named"), [
    (b"Mcp-Name: " + b"r" * 120_000, "the 'Mcp-Name' header"),
    (b"Cookie: c=" + b"v" * 60_000, "the 'Cookie' header"),
], ids=["mcp-name", "cookie"])
def test_a_head_over_the_limit_sent_in_pieces_gets_the_same_json_refusal(server: HttpServer, line: bytes,
                                                                          named: str) -> None:
    """h11 refuses a head it holds more than the limit of before its end (as when it comes in pieces):
    that answer is memvault's JSON too, naming the largest header seen, and reaches the client although
    the rest of the request is still being sent (closed unread, the connection would be reset)."""
    body = json.dumps(_call("recall")).encode()
    head = (f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Type: application/json\r\n"
            f"Accept: application/json\r\nContent-Length: {len(body)}\r\n").encode() + line + b"\r\n\r\n"
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(head[:HEAD_MAX_BYTES + 4_000])
        assert select.select([sock], [], [], 10)[0], "no answer to the head's first piece"  # refused already
        try:
            sock.sendall(head[HEAD_MAX_BYTES + 4_000:] + body)
        except ConnectionError:
            pass
        got = b""
        while chunk := sock.recv(65536):
            got += chunk
    status, _, content = got.partition(b"\r\n\r\n")
    assert status.startswith(b"HTTP/1.1 400 ") and b"content-type: application/json" in status.lower(), got[:300]
    described = json.loads(content)["error"]["message"]
    assert re.match(r"the request line and [\d,]+ headers are at least [\d,]+ bytes, ", described), described
    assert described.endswith(f"of them {named}; {LIMIT}")


def test_a_head_h11_cannot_read_gets_memvaults_json_refusal(server: HttpServer) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n")
        got = b""
        while chunk := sock.recv(65536):
            got += chunk
    status, _, content = got.partition(b"\r\n\r\n")
    assert status.startswith(b"HTTP/1.1 400 ") and b"content-type: application/json" in status.lower(), got
    assert json.loads(content) == {"jsonrpc": "2.0", "id": None, "error": {
        "code": -32600, "message": "the request could not be read as HTTP/1.1 (its request line, a header, or the "
        "framing of its body)", "data": {"status": 400, "error": "invalid_request"}}}
