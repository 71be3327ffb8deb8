"""Every request line gets a reply over real stdio: JSON-RPC batches are answered, and
lines that are not JSON or not valid requests get JSON-RPC errors; the server keeps serving."""

from __future__ import annotations

import json

import apsw
import pytest
from wire import StdioServer

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("wire") / "wire.db"
    s = StdioServer(db, protocol="2025-03-26")  # the revision that allows batches
    s.call_tool("remember", {"content": "a first memory, so the database exists"})
    s.db = db  # type: ignore[attr-defined]
    yield s
    s.close()


def line(message: object) -> bytes:
    return json.dumps(message).encode()


def still_serving(server) -> None:  # type: ignore[no-untyped-def]
    assert server.request("ping") == {"jsonrpc": "2.0", "id": server._next, "result": {}}


def memory_count(db) -> int:  # type: ignore[no-untyped-def]
    conn = apsw.Connection(str(db), flags=apsw.SQLITE_OPEN_READONLY)
    try:
        return conn.execute("SELECT count(*) FROM memories").fetchone()[0]
    finally:
        conn.close()


def test_the_revision_that_allows_batches_is_accepted_and_batches_are_answered(server):
    assert server.initialized["result"]["protocolVersion"] == "2025-03-26"


def test_a_batch_gets_one_array_with_a_response_per_request(server):
    server.send_raw(line([{"jsonrpc": "2.0", "id": "b1", "method": "ping"},
                          {"jsonrpc": "2.0", "id": "b2", "method": "tools/list"}]))
    reply = server.receive()
    assert isinstance(reply, list) and sorted(r["id"] for r in reply) == ["b1", "b2"]
    by_id = {r["id"]: r for r in reply}
    assert by_id["b1"]["result"] == {}
    assert {t["name"] for t in by_id["b2"]["result"]["tools"]} == {"remember", "recall", "supersede", "forget",
                                                                   "confirm"}
    still_serving(server)


PIPE_BYTES = 65_536  # a Linux pipe's buffer: a larger write waits for the reader to catch up


def _tools_list(i: int) -> dict:
    return {"jsonrpc": "2.0", "id": f"big{i}", "method": "tools/list"}


def _long_recall(i: int) -> dict:
    return {"jsonrpc": "2.0", "id": f"big{i}", "method": "tools/call", "params": {
        "name": "recall", "arguments": {"query": f"note {i} " + "deploy pipeline " * 120, "limit": 1}}}


@pytest.mark.parametrize("make, count, larger", [
    (_tools_list, 12, "reply"),  # one reply line of several pipes' worth
    (_long_recall, 40, "request"),  # lines passed on to the SDK faster than it reads them
])
def test_a_batch_larger_than_a_pipe_holds_is_answered_whole(server, make, count, larger):
    batch = [make(i) for i in range(count)]
    server.send_raw(line(batch))
    reply = server.receive()
    assert isinstance(reply, list) and sorted(r["id"] for r in reply) == sorted(m["id"] for m in batch)
    assert all("result" in r and not r["result"].get("isError") for r in reply), reply
    assert len(line(reply if larger == "reply" else batch)) > PIPE_BYTES
    still_serving(server)


def test_a_mixed_batch_answers_requests_and_bad_entries_but_not_notifications(server):
    server.send_raw(line([
        {"jsonrpc": "2.0", "id": 41, "method": "tools/call",
         "params": {"name": "remember", "arguments": {"content": "Batches reach the tools too"}}},
        {"jsonrpc": "2.0", "method": "notifications/roots/list_changed"},
        {"jsonrpc": "2.0", "id": 42, "result": {}},  # a response nobody asked for: never answered
        {"id": 43, "method": "ping"},
        {"jsonrpc": "2.0", "id": 44},
        7,
    ]))
    reply = server.receive()
    by_id = {r["id"]: r for r in reply}
    assert len(reply) == 4 and set(by_id) == {41, 43, 44, None}
    assert by_id[41]["result"]["structuredContent"]["created"] is True
    assert by_id[43]["error"]["code"] == -32600 and "jsonrpc" in by_id[43]["error"]["message"]
    assert by_id[44]["error"]["code"] == -32600 and "method" in by_id[44]["error"]["message"]
    assert by_id[None]["error"] == {"code": -32600, "message": "Invalid Request: a message must be a JSON object"}
    still_serving(server)


def test_a_batch_of_notifications_gets_no_reply_and_an_empty_batch_gets_an_error(server):
    server.send_raw(line([{"jsonrpc": "2.0", "method": "notifications/roots/list_changed"}]))
    still_serving(server)  # the next line is the ping's answer, nothing for the batch
    server.send_raw(b"[]")
    assert server.receive() == {"jsonrpc": "2.0", "id": None,
                                "error": {"code": -32600, "message": "Invalid Request: the batch is empty"}}
    still_serving(server)


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        (b"{not json", "Expecting property name"),
        (b'{"jsonrpc": "2.0", "id": 5, "method": "ping"', "Expecting ',' delimiter"),
        (b'{"jsonrpc": "2.0", "id": 5, "method": "ping", "params": {"x": NaN}}', "NaN is not JSON"),
        (b'{"jsonrpc": "2.0", "id": 5, "method": "p\xffng"}', "not valid UTF-8"),
        # under the values count (deeper is refused before it is parsed: tests/test_json_values_limit.py)
        (b"[" * 5_000 + b"]" * 5_000, "nested too deeply"),
    ],
    ids=["not-json", "truncated", "nan", "bad-utf8", "nesting-5000"],
)
def test_a_line_that_is_not_json_gets_a_parse_error(server, raw, says):
    server.send_raw(raw)
    reply = server.receive()
    assert reply["id"] is None and reply["error"]["code"] == -32700 and says in reply["error"]["message"]
    still_serving(server)


@pytest.mark.parametrize(
    ("message", "reply_id", "says"),
    [
        ({"id": 7, "method": "ping"}, 7, "jsonrpc"),
        ({"jsonrpc": "1.0", "id": "x", "method": "ping"}, "x", "jsonrpc"),
        ({"jsonrpc": "2.0", "id": 8, "method": 12}, 8, "method"),
        ({"jsonrpc": "2.0", "id": {"no": 1}, "method": "ping"}, None, "id"),
        ("just a string", None, "JSON object"),
    ],
)
def test_a_message_that_is_not_a_request_gets_invalid_request(server, message, reply_id, says):
    server.send_raw(line(message))
    reply = server.receive()
    assert reply["id"] == reply_id and reply["error"]["code"] == -32600 and says in reply["error"]["message"]
    still_serving(server)


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        ({"content": "lone \ud800 surrogate"}, "content: must be valid Unicode"),
        ({"content": "ok", "tags": ["fine", "lone \udfff tag"]}, "tags[1]: must be valid Unicode"),
        ({"content": "deep", "tags": [json.loads("[" * 400 + "]" * 400)]}, "tags[0]: must be a string"),
    ],
    ids=["surrogate-content", "surrogate-tag", "nesting-400"],
)
def test_text_the_sdk_parser_rejects_reaches_argument_validation(server, arguments, says):
    before = memory_count(server.db)
    result = server.call_tool("remember", arguments)
    assert result["isError"] is True and says in result["content"][0]["text"]
    assert memory_count(server.db) == before


def test_requests_in_flight_are_answered_after_stdin_closes(tmp_path):
    import subprocess

    from conftest import SERVE, server_env

    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "remember", "arguments": {"content": "written just before the client left"}}},
        [{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "recall", "arguments": {"query": "client left"}}}, {"jsonrpc": "2.0", "id": 4, "method": "ping"}],
        {"jsonrpc": "2.0", "id": 2, "method": "ping"},  # id 2 is still in flight
    ]
    run = subprocess.run(SERVE, env=server_env(tmp_path / "m.db"), input="".join(json.dumps(x) + "\n" for x in lines),
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    replies = [json.loads(x) for x in run.stdout.splitlines()]
    flat = [r for x in replies for r in (x if isinstance(x, list) else [x])]
    assert sorted(r["id"] for r in flat) == [1, 2, 2, 3, 4]
    assert [r for r in flat if r["id"] == 2 and "error" in r][0]["error"]["code"] == -32600
    assert [r for r in flat if r["id"] == 2 and "result" in r][0]["result"]["structuredContent"]["created"] is True
    assert sorted(r["id"] for r in next(x for x in replies if isinstance(x, list))) == [3, 4]
