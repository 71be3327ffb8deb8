"""Request edges answered alike over stdio and HTTP (issue 25, round 3): a query on a resource
URI that takes none is refused in memvault's words naming the resources that take one; a lone
surrogate in a tool's argument names the field over HTTP as over stdio; a key given twice in one
object is refused, never silently read as its last value; a call refused for a credential in its
reason or note says what it did NOT do, and did not do it (a refused forget said "remove it" only)."""

from __future__ import annotations

import json

import httpx2
import pytest
from httpwire import HttpServer
from wire import StdioServer

HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream",
           "mcp-protocol-version": "2025-06-18"}


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    folder = tmp_path_factory.mktemp("wire")
    stdio = StdioServer(folder / "stdio.db")
    http = HttpServer(folder / "http.db", "--auth", "none")
    yield stdio, http
    stdio.close()
    http.close()


def send(servers, transport: str, raw: bytes) -> tuple[int | None, object]:
    """``raw`` sent as one message: (HTTP status or None, the reply parsed)."""
    stdio, http = servers
    if transport == "stdio":
        stdio.send_raw(raw)
        return None, stdio.receive()
    reply = httpx2.post(http.url, content=raw, headers=HEADERS, timeout=30)
    return reply.status_code, reply.json()


def read(servers, transport: str, uri: str) -> dict:
    raw = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "resources/read", "params": {"uri": uri}}).encode()
    return send(servers, transport, raw)[1]  # type: ignore[return-value]


TRANSPORTS = ["stdio", "http"]
UNTAKEN = [  # a URI of a resource that takes no query, and the parameter it names
    ("memory://sessions?foo", "'foo'", "memory://sessions takes no query"),
    ("memory://sessions?limit=5&foo=1", "'foo', 'limit'", "memory://sessions takes no query"),
    ("memory://review?a=b", "'a'", "memory://review takes no query"),
    ("memory://memories/01a23a5b-6bd3-7276-bf85-485ed3ff6b2d?x=1", "'x'", "memory://memories/{memory_id} takes no"),
]


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("uri, unknown, takes", UNTAKEN)
def test_a_query_on_a_resource_that_takes_none_is_refused_naming_what_takes_one(servers, transport, uri, unknown,
                                                                                takes):
    reply = read(servers, transport, uri)
    message = reply["error"]["message"]
    assert reply["error"]["code"] == -32602 and message.startswith("uri: ")
    assert f"unknown query parameter {unknown}" in message and takes in message
    assert "memory://boot?task=..." in message and "Unknown resource" not in message


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("uri", ["memory://boot", "memory://boot?task=deploy", "memory://review",
                                 "memory://boot?task=deploy&utm=x"])  # a query-taking resource ignores the rest
def test_a_query_the_resource_takes_is_still_read(servers, transport, uri):
    assert "contents" in read(servers, transport, uri)["result"]


def call(arguments: str, request_id: int = 9) -> bytes:
    return (b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"remember","arguments":%s}}'
            % (request_id, arguments.encode()))


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("arguments, field", [
    ('{"content":"a\\ud800b"}', "content"),
    ('{"content":"fine","tags":["x\\udfff"]}', "tags"),
    ('{"content":"fine","source":"\\ud83d"}', "source"),
])
def test_a_lone_surrogate_names_its_field_on_both_transports(servers, transport, arguments, field):
    status, reply = send(servers, transport, call(arguments))
    assert status in (None, 200)
    assert reply["id"] == 9 and reply["result"]["isError"]  # type: ignore[index]
    text = reply["result"]["content"][0]["text"]  # type: ignore[index]
    assert text.startswith(f"{field}") and "lone surrogate" in text and "Parse error" not in text


def test_a_lone_surrogate_in_an_http_batch_names_its_field(servers):
    _, http = servers
    reply = httpx2.post(http.url, content=b"[" + call('{"content":"a\\ud800b"}', 11) + b"]", headers=HEADERS,
                        timeout=30).json()
    assert reply[0]["id"] == 11 and reply[0]["result"]["content"][0]["text"].startswith("content")


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("raw, key", [
    (call('{"content":"first value","content":"second value"}', 12), "'content'"),
    (call('{"content":"fine","tags":["a"],"tags":["b"]}', 12), "'tags'"),
    (b'{"jsonrpc":"2.0","id":12,"method":"ping","method":"tools/list"}', "'method'"),
])
def test_a_key_given_twice_is_refused_and_nothing_is_stored(servers, transport, raw, key):
    status, reply = send(servers, transport, raw)
    assert status in (None, 400)
    assert reply["id"] == 12 and reply["error"]["code"] == -32600  # type: ignore[index]
    assert f"the key {key} is given more than once" in reply["error"]["message"]  # type: ignore[index]
    listed = send(servers, transport, b'{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"recall",'
                                      b'"arguments":{"query":"second value first value"}}}')[1]
    assert listed["result"]["structuredContent"]["memories"] == []  # type: ignore[index]


TOKEN = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789AB"  # a GitHub token's shape, nobody's


def stored(server: StdioServer, text: str) -> str:
    return server.call_tool("remember", {"content": text})["structuredContent"]["id"]


def unchanged(server: StdioServer, memory_id: str, content: str) -> bool:
    """The memory still holds its content, is current, and has no confirmation or run."""
    reply = server.request("resources/read", {"uri": f"memory://memories/{memory_id}"})
    memory = json.loads(reply["result"]["contents"][0]["text"])["memory"]
    return (memory["content"], memory["superseded_by"], memory["confirmations"], memory["runs"]) == (
        content, None, 0, None)


@pytest.mark.parametrize("tool, arguments, undone", [
    ("forget", {"reason": f"it quoted {TOKEN} by mistake"}, "The memory was NOT forgotten"),
    ("supersede", {"content": "The rotation runs weekly", "reason": f"old key {TOKEN}"}, "Nothing was superseded"),
    ("confirm", {"outcome": "failure", "note": f"failed with {TOKEN}"}, "Nothing was recorded"),
])
def test_a_refused_reason_says_the_call_did_nothing_and_it_did_nothing(servers, tool, arguments, undone):
    server = servers[0]
    content = f"The token rotation for {tool} runs nightly"
    memory_id = stored(server, content)
    result = server.call_tool(tool, {"id": memory_id, **arguments})
    text = result["content"][0]["text"]
    assert result["isError"] and "credential (GitHub token)" in text and undone in text
    assert TOKEN not in text
    assert unchanged(server, memory_id, content)
