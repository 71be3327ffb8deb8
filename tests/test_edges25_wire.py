"""Request edges answered alike over stdio and HTTP (issue 25, round 3): a query on a resource
URI that takes none is refused in memvault's words naming the resources that take one; a lone
surrogate in a tool's argument names the field over HTTP as over stdio; a key given twice in one
object is refused, never silently read as its last value; a call refused for a credential in its
reason or note says what it did NOT do, and did not do it (a refused forget said "remove it" only).
Round 40: a lone surrogate anywhere (an argument's name hung stdio for good) is refused naming where,
and the server answers the next request; NaN and Infinity are refused over HTTP as over stdio (they
hid a key given twice); an ``id`` given twice is answered with a null id."""

from __future__ import annotations

import json
import socket
import subprocess
import sys

import httpx2
import pytest
from wire import StdioServer

from conftest import server_env

from memvault.server.checks import Checks
from memvault.server.wire import Wire
from memvault.storage.errors import credentials_in

HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream",
           "mcp-protocol-version": "2025-06-18"}


@pytest.fixture
def servers(wire_servers):
    return wire_servers  # the worker's pair (conftest), shared with test_params_wire


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
TOKEN = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789AB"  # a GitHub token's shape, nobody's
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


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("uri", ["memory://boot?task=" + "x" * 70_000 + "+token+" + TOKEN,
                                 "memory://sessions/" + "y" * 40_000 + TOKEN, "memory://" + TOKEN * 600])
def test_an_over_long_resource_uri_is_refused_by_its_length_and_never_quoted(servers, transport, uri):
    """An adversarial pass: 70,000 characters passed memvault's checks, and the SDK's "Unknown resource"
    sent the URI back whole (140 KB, a GitHub token in it) and logged it twice."""
    reply = read(servers, transport, uri)
    message = reply["error"]["message"]
    assert reply["error"]["code"] == -32602 and message.startswith("uri: is ") and "the limit is" in message
    assert TOKEN not in json.dumps(reply) and len(json.dumps(reply)) < 1_000
    assert TOKEN not in servers[1].log()
    assert "contents" in read(servers, transport, "memory://boot?task=" + "deploy " * 280)["result"]  # 1,960


CREDENTIALS = [TOKEN, "AKIA" + "IOSFODNN7EXAMPLQ", "xoxb-" + "123456789012-1234567890123-abcdefghijklmnopqrstuvwx",
               "sk-proj-" + "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKL0123456789ab"]
IN_URI = [  # where a credential may sit in a URI; {} is the credential, {q} it percent-encoded whole
    "memory://boot?{}=1", "memory://boot?{}", "memory://boot?task=deploy&{}=1", "memory://boot?task=deploy&x={}",
    "memory://boot?{q}=1", "memory://sessions?{}=1", "memory://review?a=1&{q}", "memory://sessions/abc?tokens=5&{}=1",
    "memory://memories/{}", "memory://nowhere/{}", "memory://boot?task={}",
    # adversarial pass 57 F2: what the SDK does not read as a parameter the resource takes, sent back all the same
    "memory://boot?t%61sk={}", "memory://boot?task=deploy#{}", "memory://sessions/abc?tok%65ns={}",
    "memory://sessions/abc?tokens=5#{}",
]


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("credential", CREDENTIALS)
@pytest.mark.parametrize("shape", IN_URI)
def test_a_resource_uri_holding_a_credential_anywhere_is_refused_and_never_sent_back(servers, transport, credential,
                                                                                    shape):
    """An adversarial pass: a query parameter's NAME holding a token on memory://boot (which ignores the
    parameters it does not take) was read, and the result's ``uri`` sent the token back."""
    from urllib.parse import quote

    encoded = "".join(f"%{b:02X}" for b in credential.encode())  # every character, "_" and "-" too
    uri = shape.replace("{q}", encoded).replace("{}", credential)
    reply = read(servers, transport, uri)
    text = json.dumps(reply)
    assert "result" not in reply and reply["error"]["code"] == -32602, text
    assert credential not in text and encoded not in text and quote(credential) not in text
    assert "a value that looks like" in reply["error"]["message"]  # described by its kind (uri, task, id, ...)
    assert credential not in servers[1].log()


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("uri", ["memory://boot?task=deploy&task={}", "memory://boot?task={}&task=deploy",
                                 "memory://sessions/abc?tokens=5&tokens={}", "memory://sessions/abc?tokens={}&tokens=5",
                                 "memory://sessions/abc?x=1&tokens=5&y=2&tokens={}"])
def test_a_resource_parameter_given_twice_is_refused_and_never_sent_back_nor_logged(servers, transport, uri):
    """Adversarial pass 57 F2: the SDK reads a parameter's first value; the second was read nowhere, sent back
    in the result's uri and, for a failed read, written to the server's log by the SDK."""
    reply = read(servers, transport, uri.format(TOKEN))
    assert "result" not in reply and reply["error"]["code"] == -32602
    assert "is given 2 times" in reply["error"]["message"] and TOKEN not in json.dumps(reply)
    assert TOKEN not in servers[1].log()


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


# Round 40: text that is not valid Unicode anywhere in a request, NaN and Infinity, and an id given twice.

PING = b'{"jsonrpc":"2.0","id":%d,"method":"ping"}'


def said(reply: dict) -> tuple[int | None, str]:
    """(the JSON-RPC error code, or None for a tool result, and the text the client reads)."""
    if "error" in reply:
        return reply["error"]["code"], reply["error"]["message"]
    assert reply["result"]["isError"], reply
    return None, reply["result"]["content"][0]["text"]


def answers_next(servers, transport: str, request_id: int) -> bool:
    """The server still answers a request after the one before."""
    return send(servers, transport, PING % request_id)[1] == {"jsonrpc": "2.0", "id": request_id, "result": {}}


def request(method: str, params: str, request_id: int = 30) -> bytes:
    return b'{"jsonrpc":"2.0","id":%d,"method":"%s","params":%s}' % (request_id, method.encode(), params.encode())


UNREADABLE = [  # a request holding a lone surrogate, the code of its refusal (None: a tool result), its text
    (request("tools/call", '{"name":"recall","arguments":{"query":"z","\\ud800":1}}'), None,
     "arguments: a name '\\ud800' is not valid Unicode (a lone surrogate)"),
    (request("tools/call", '{"name":"remember","arguments":{"content":{"a\\udc00":1}}}'), None,
     "content: a name 'a\\udc00' is not valid Unicode (a lone surrogate)"),
    (request("tools/call", '{"name":"rec\\ud800all","arguments":{"query":"z"}}'), None,
     "name: must be valid Unicode (it contains a lone surrogate)"),
    (request("tools/call", '{"_meta":{"a":["\\udc00"]},"name":"recall","arguments":{"query":"z"}}'), -32600,
     "Invalid Request: params._meta.a[0]: must be valid Unicode (it contains a lone surrogate)"),
    (request("ping", '{"_meta":{"a":"\\udc00"}}'), -32600,
     "Invalid Request: params._meta.a: must be valid Unicode (it contains a lone surrogate)"),
    (request("prompts/get", '{"name":"save_session","arguments":{"\\ud800":"x"}}'), -32602,
     "prompt save_session: arguments: a name '\\ud800' is not valid Unicode (a lone surrogate)"),
    (request("prompts/get", '{"name":"save_session","arguments":{"focus":"x\\udc00"}}'), -32602,
     "prompt save_session: focus: must be valid Unicode (it contains a lone surrogate)"),
    (request("resources/read", '{"uri":"memory://boot?task=\\udc00"}'), -32600,
     "Invalid Request: params.uri: must be valid Unicode (it contains a lone surrogate)"),
    (b'{"jsonrpc":"2.0","id":30,"method":"pi\\ud800ng"}', -32600,
     "Invalid Request: method: must be valid Unicode (it contains a lone surrogate)"),
]


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("raw, code, text", UNREADABLE,
                         ids=["argument-name", "nested-name", "tool-name", "meta", "ping-meta", "prompt-argument-name",
                              "prompt-argument", "resource-uri", "method"])
def test_a_lone_surrogate_anywhere_is_refused_naming_where_and_the_server_goes_on(servers, transport, raw, code,
                                                                                  text):
    status, reply = send(servers, transport, raw)
    assert status in (None, 200) and reply["id"] == 30  # type: ignore[index]
    assert said(reply) == (code, text)  # type: ignore[arg-type]
    assert answers_next(servers, transport, 31)


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_credential_in_a_name_that_is_not_unicode_is_described_not_quoted(servers, transport):
    raw = request("tools/call", '{"name":"recall","arguments":{"query":"z","%s\\ud800":1}}' % TOKEN)
    code, text = said(send(servers, transport, raw)[1])  # type: ignore[arg-type]
    assert code is None and text.startswith("arguments: a name a value that looks like a GitHub token is not valid")
    assert TOKEN not in text and answers_next(servers, transport, 32)


def test_the_credential_check_reads_text_that_is_not_valid_unicode():  # an undecodable argv byte is one
    assert credentials_in(f"{TOKEN} \udcff") == "a value that looks like a GitHub token"
    assert credentials_in("--bo\udcffgus") is None


def recalled(servers, transport: str, query: str) -> list:
    raw = request("tools/call", json.dumps({"name": "recall", "arguments": {"query": query}}), 33)
    return send(servers, transport, raw)[1]["result"]["structuredContent"]["memories"]  # type: ignore[index]


# What HTTP adds to a refusal (every refusal of /mcp names its status and kind: docs/team-server.md).
_HTTP_DATA = {"http": {"data": {"status": 400, "error": "parse_error"}}}


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("raw, constant", [
    (b'{"x":NaN,"jsonrpc":"2.0","id":34,"method":"tools/call","params":{"name":"remember","arguments":'
     b'{"content":"nanfirst alpha","content":"nanfirst beta"}}}', "NaN"),
    (b'{"jsonrpc":"2.0","id":34,"method":"tools/call","params":{"_meta":{"z":Infinity},"name":"remember",'
     b'"arguments":{"content":"nanfirst gamma","content":"nanfirst delta"}}}', "Infinity"),
    (b'{"jsonrpc":"2.0","id":34,"method":"tools/call","params":{"name":"remember","arguments":'
     b'{"content":"nanfirst epsilon","importance":-Infinity}}}', "-Infinity"),
    (b'{"x":NaN,"jsonrpc":"2.0","id":34,"method":"tools/call","params":{"name":"remember","arguments":'
     b'{"content":"nanfirst lone \\ud800 zeta"}}}', "NaN"),
])
def test_nan_and_infinity_are_refused_on_both_transports_and_nothing_is_stored(servers, transport, raw, constant):
    status, reply = send(servers, transport, raw)
    assert status in (None, 400)
    assert reply == {"jsonrpc": "2.0", "id": None, "error": {"code": -32700,
                                                            "message": f"Parse error: {constant} is not JSON",
                                                            **_HTTP_DATA.get(transport, {})}}
    assert recalled(servers, transport, "nanfirst alpha beta gamma delta epsilon zeta") == []
    assert answers_next(servers, transport, 35)


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("number", ["1e400", "-1e400"])
def test_a_number_past_a_floats_range_is_refused_as_infinity_is(servers, transport, number):
    """Adversarial pass 59 (informational): 1e400 was read as infinity, past the refusal of Infinity."""
    raw = ('{"jsonrpc":"2.0","id":34,"method":"tools/call","params":{"name":"remember","arguments":'
           '{"content":"nanfirst eta","importance":' + number + '}}}').encode()
    status, reply = send(servers, transport, raw)
    assert status in (None, 400)
    assert reply == {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": (
        f"Parse error: the number '{number}' is beyond a 64-bit float's range (about 1.8e308)"),
        **_HTTP_DATA.get(transport, {})}}
    assert recalled(servers, transport, "nanfirst eta") == []
    assert answers_next(servers, transport, 35)


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("raw, request_id", [
    (b'{"jsonrpc":"2.0","id":36,"id":37,"method":"ping"}', None),  # which request is refused is unknown
    (b'{"jsonrpc":"2.0","id":36,"method":"ping","id":36}', None),
    (request("tools/call", '{"name":"forget","arguments":{"id":"a","id":"b"}}', 36), 36),  # the request's id is one
])
def test_an_id_given_twice_is_answered_with_a_null_id(servers, transport, raw, request_id):
    status, reply = send(servers, transport, raw)
    assert status in (None, 400)
    assert reply["id"] == request_id and reply["error"]["code"] == -32600  # type: ignore[index]
    assert "the key 'id' is given more than once" in reply["error"]["message"]  # type: ignore[index]
    assert answers_next(servers, transport, 38)


@pytest.mark.anyio
async def test_a_fault_on_one_stdio_message_answers_it_and_the_next_is_still_read(monkeypatch, caplog):
    async def broken(name: str, arguments: object) -> None:
        raise ZeroDivisionError("a fault in memvault's own code")

    checks = Checks(resources=())
    monkeypatch.setattr(checks, "refuse_call", broken)
    written: list = []
    passed: list = []

    async def out(data: bytes) -> None:
        written.append(json.loads(data))

    async def to_sdk(data: bytes) -> None:
        passed.append(json.loads(data))

    wire = Wire(out, to_sdk, checks)
    await wire.incoming(request("tools/call", '{"name":"recall","arguments":{"\\ud800":1}}', 40))
    await wire.incoming(PING % 41)
    assert [(w["id"], w["error"]["code"]) for w in written] == [(40, -32603)]
    assert "(ZeroDivisionError; its log has the traceback)" in written[0]["error"]["message"]
    assert "a fault in memvault" not in written[0]["error"]["message"]  # the exception's text may quote the request
    assert passed == [{"jsonrpc": "2.0", "id": 41, "method": "ping"}]
    assert any(r.exc_info is not None and r.exc_info[0] is ZeroDivisionError for r in caplog.records)


READER_DIES = """
import sys
from memvault.server import cli, wire

async def incoming(self, raw):
    raise RuntimeError("the reader itself failed")

wire.Wire.incoming = incoming
sys.exit(cli.main(["serve"]))
"""


def test_a_stdio_server_whose_reader_fails_ends_instead_of_hanging(tmp_path):
    proc = subprocess.run([sys.executable, "-c", READER_DIES], input=PING % 1 + b"\n", capture_output=True,
                          env=server_env(tmp_path / "m.db"), timeout=60)  # it hung for good: the SDK waited on stdin
    assert proc.returncode == 1 and b"the reader itself failed" in proc.stderr and proc.stdout == b""


def raw_http(servers, target: str, method: str = "POST", headers: str = "", body: str = "") -> tuple[int, str, str]:
    """One request with ``target`` as sent on the request line: (status, Content-Type, body)."""
    from urllib.parse import urlsplit

    url = urlsplit(servers[1].url)
    body = body or json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    with socket.create_connection((url.hostname, url.port), timeout=30) as conn:
        conn.sendall((f"{method} {target} HTTP/1.1\r\nHost: {url.netloc}\r\nContent-Type: application/json\r\n"
                      f"Accept: application/json, text/event-stream\r\n{headers}Content-Length: {len(body)}\r\n"
                      f"Connection: close\r\n\r\n{body}").encode())
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    head, _, content = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    kind = next((line.split(":", 1)[1].strip() for line in lines if line.lower().startswith("content-type:")), "")
    return int(lines[0].split()[1]), kind, content.decode("utf-8", "replace")


@pytest.mark.parametrize("target", ["http://{host}/mcp", "HTTP://{host}/mcp/", "http://{HOST}/mcp"])
def test_an_absolute_form_target_naming_this_server_is_served_as_its_path(servers, target):
    """RFC 9112 §3.2.2: a server must accept the absolute form; it got Starlette's plain-text 404."""
    from urllib.parse import urlsplit

    host = urlsplit(servers[1].url).netloc
    status, kind, body = raw_http(servers, target.format(host=host, HOST=host.upper()))
    assert status == 200 and kind == "application/json" and json.loads(body)["result"]["tools"]


@pytest.mark.parametrize("target", ["*", "{host}", "http://evil.example/mcp", f"http://evil.example/mcp?{TOKEN}=1",
                                    "mcp", f"http://{TOKEN}.example/healthz"])
@pytest.mark.parametrize("method", ["POST", "GET", "OPTIONS"])
def test_any_other_request_target_is_refused_in_json_naming_what_is_accepted(servers, target, method):
    from urllib.parse import urlsplit

    status, kind, body = raw_http(servers, target.format(host=urlsplit(servers[1].url).netloc), method)
    said = json.loads(body)
    assert status == 400 and kind == "application/json" and said["error"]["data"]["error"] == "invalid_request"
    assert "request target" in said["error"]["message"] and "POST /mcp" in said["error"]["message"]
    assert TOKEN not in body and "evil" not in body


@pytest.mark.parametrize(("method", "path", "status"), [("GET", "/nope", 404), ("POST", f"/{TOKEN}", 404),
                                                        ("POST", "/mcp/tools", 404), ("POST", "/healthz", 405),
                                                        ("DELETE", "/healthz", 405)])
def test_an_unknown_path_or_method_gets_memvaults_json_naming_what_is_served(servers, method, path, status):
    got, kind, body = raw_http(servers, path, method)
    said = json.loads(body)
    assert got == status and kind == "application/json"
    assert said["error"]["data"] == {"status": status, "error": "not_found" if status == 404 else "method_not_allowed"}
    assert "POST /mcp, GET /healthz" in said["error"]["message"] and TOKEN not in body


@pytest.mark.parametrize("version", ["2099-01-01", "bogus", "", "2025-6-18", "2025-06-18, 2025-03-26", "1" * 5_000,
                                     TOKEN])
def test_an_unknown_protocol_version_is_refused_naming_the_header_and_the_versions_accepted(servers, version):
    """It got the SDK's message about ``params._meta`` envelope keys (taken for a newer protocol)."""
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

    status, kind, body = raw_http(servers, "/mcp", headers=f"MCP-Protocol-Version: {version}\r\n")
    said = json.loads(body)
    assert status == 400 and kind == "application/json"
    assert said["error"]["data"]["error"] == "unsupported_protocol_version"
    assert "the MCP-Protocol-Version header is" in said["error"]["message"] and "_meta" not in body
    assert all(v in said["error"]["message"] and v in said["error"]["data"]["supported"]
               for v in HANDSHAKE_PROTOCOL_VERSIONS)
    assert TOKEN not in body and len(body) < 1_000


@pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"])
def test_every_handshake_protocol_version_is_still_served(servers, version):
    status, _, body = raw_http(servers, "/mcp", headers=f"MCP-Protocol-Version: {version}\r\n")
    assert status == 200 and json.loads(body)["result"]["tools"]


@pytest.mark.anyio
async def test_an_id_is_free_again_once_its_response_is_being_written():
    """CI (1 run in 6): the stdio client read the reply to id 7 and sent id 7 again while the reply's
    write had not returned; the id was still held, and the next request got -32600 "already used"."""
    import anyio

    written: list = []
    passed: list = []
    wire: Wire

    async def out(data: bytes) -> None:  # the client reads the reply, and reuses its id, before the write returns
        written.append(json.loads(data))
        if len(written) == 1:
            await wire.incoming(PING % 7)
        await anyio.sleep(0)

    async def to_sdk(data: bytes) -> None:
        passed.append(json.loads(data))

    wire = Wire(out, to_sdk, None)
    await wire.incoming(PING % 7)
    await wire.outgoing(b'{"jsonrpc":"2.0","id":7,"result":{}}')
    assert written == [{"jsonrpc": "2.0", "id": 7, "result": {}}]  # no -32600 for the second ping
    assert passed == [{"jsonrpc": "2.0", "id": 7, "method": "ping"}] * 2
    with anyio.fail_after(5):  # the second ping is open: drained waits for it, then returns once it is answered
        async with anyio.create_task_group() as tg:
            tg.start_soon(wire.drained, 10.0)
            await wire.outgoing(b'{"jsonrpc":"2.0","id":7,"result":{}}')
    assert len(written) == 2


def _keys_call(keys: int, request_id: int = 11) -> dict:
    """A recall with ``keys`` members in all (the envelope's 6 and unknown arguments)."""
    arguments = {"query": "x", **{f"k{i}": 0 for i in range(keys - 7)}}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {"name": "recall",
                                                                                  "arguments": arguments}}


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_message_with_more_keys_than_the_limit_is_refused_before_any_tool_runs(servers, transport):
    """Adversarial pass 57 F3: 20,000 argument keys (243 KiB) went through five full passes before the
    caller's turn. Over MEMBERS_MAX keys in all, the message is refused as it is parsed; a batch whose
    first call is a good remember writes nothing."""
    from memvault.server.wire import MEMBERS_MAX

    over = _keys_call(MEMBERS_MAX + 1)
    remember = {"jsonrpc": "2.0", "id": 12, "method": "tools/call", "params": {"name": "remember", "arguments": {
        "content": f"the {transport} keys canary is never written"}}}
    for body, request_id in ((over, 11), ([remember, _keys_call(MEMBERS_MAX - 6, 13)], None)):
        status, reply = send(servers, transport, json.dumps(body).encode())  # answered to its id when it leads
        assert status in (None, 400) and reply["id"] == request_id and reply["error"]["code"] == -32600, reply
        assert reply["error"]["message"] == (f"Invalid Request: the message's objects hold more than {MEMBERS_MAX:,} "
                                             f"keys in all; memvault reads at most {MEMBERS_MAX:,} (a call needs a "
                                             "few dozen)")
    recalled = send(servers, transport, json.dumps({"jsonrpc": "2.0", "id": 14, "method": "tools/call", "params": {
        "name": "recall", "arguments": {"query": f"{transport} keys canary"}}}).encode())[1]
    assert "canary" not in json.dumps(recalled["result"])


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_message_with_keys_just_under_the_limit_is_read(servers, transport):
    from memvault.server.wire import MEMBERS_MAX

    status, reply = send(servers, transport, json.dumps(_keys_call(MEMBERS_MAX)).encode())
    assert reply["id"] == 11 and reply["result"]["isError"], reply  # its arguments' refusal, by the tool's check
    assert "unknown argument 'k0'" in reply["result"]["content"][0]["text"]


@pytest.mark.anyio
async def test_a_batch_answered_in_part_before_its_last_message_is_passed_on_is_written_once_whole():
    """fixadv59, under load: the SDK answered a batch's first request before the wire passed on the
    second, the batch's waiting set was empty for a moment, and the client got [b1] then [b1, b2]."""
    written: list = []
    wire: Wire

    async def out(data: bytes) -> None:
        written.append(json.loads(data))

    async def to_sdk(data: bytes) -> None:  # the SDK answers each request as soon as it reads it
        sent = json.loads(data)
        await wire.outgoing(json.dumps({"jsonrpc": "2.0", "id": sent["id"], "result": {}}).encode())

    wire = Wire(out, to_sdk, None)
    await wire.incoming(b'[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]\n')
    assert written == [[{"jsonrpc": "2.0", "id": 1, "result": {}}, {"jsonrpc": "2.0", "id": 2, "result": {}}]]
