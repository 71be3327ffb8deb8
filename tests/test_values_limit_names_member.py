"""A message past the wire's JSON-value limit names the member the count passed the limit in (trial 77
S11: 5,000 tags were refused naming neither ``tags`` nor where), on stdio and HTTP, and stores nothing;
no member name is quoted from the message unless it is a plain name, and many small containers (the
costly shapes test_json_values_limit measures) still name nothing."""

from __future__ import annotations

import json

import pytest
from httpwire import HttpServer, new_key
from raw import execute
from wire import StdioServer

from memvault.server import wire
from memvault.server.wire import VALUES_MAX, crowded


def _call(arguments: dict, request_id: int = 1) -> dict:
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
            "params": {"name": "remember", "arguments": arguments}}


def _text(message: object, indent: int | None = None) -> bytes:
    return json.dumps(message, indent=indent).encode()


@pytest.mark.parametrize(("arguments", "where"), [
    ({"content": "x", "tags": [f"t{i}" for i in range(5_000)]}, "params.arguments.tags"),
    ({"content": "x", "tags": [f"a, b [{i}]: {{c}}" for i in range(5_001)]}, "params.arguments.tags"),
    ({"content": "x", "tags": list(range(10_001))}, "params.arguments.tags"),
    ({"content": "x", "tags": [None] * 10_001}, "params.arguments.tags"),
    ({"content": "x", "kinds": ["fact"] * 3_000, "scopes": ["web"] * 3_000}, "params.arguments.scopes"),
    ({"query": "x", "ids": [""] * 6_000}, "params.arguments.ids"),
    ({"content": "a\\", "b\\": "\\", "tags": ["\\"] * 6_000}, "params.arguments.tags"),  # escapes before
])
@pytest.mark.parametrize("indent", [None, 1])
def test_a_long_list_is_named_where_the_count_passed_the_limit(arguments, where, indent):
    text = _text(_call(arguments), indent)
    with pytest.raises(wire.TooManyValues) as refused:
        wire.loads(text)
    assert str(refused.value).endswith(f"; the count passed {VALUES_MAX:,} inside {where}"), refused.value
    assert crowded(text) == where


@pytest.mark.parametrize("name", ["t\nags", "t\"ags", "<b>tags</b>", "x" * 41, "tâgs", "1tags", ""])
def test_a_name_that_is_no_plain_name_is_never_quoted(name):
    text = _text(_call({"content": "x", name: ["a"] * 6_000}))
    with pytest.raises(wire.TooManyValues) as refused:
        wire.loads(text)
    assert str(refused.value).endswith(" inside params.arguments"), refused.value


def test_a_deep_path_is_cut_to_its_last_four_names():
    inner: object = list(range(11_000))
    for name in "abcdefg":
        inner = {name: inner}
    assert crowded(_text(inner)) == "….d.c.b.a"
    assert crowded(_text({"a": 1})) is None  # within the limit


@pytest.mark.parametrize("text", [
    b"[" + b"[]," * VALUES_MAX + b"[]]",  # many small containers: past the token budget
    b"[" * 20_000 + b"]" * 20_000,
    _text([_call({"content": "x", "tags": ["a"] * 20}, i) for i in range(400)]),  # a batch too large
])
def test_many_small_containers_name_nothing(text):
    with pytest.raises(wire.TooManyValues) as refused:
        wire.loads(text)
    assert "the count passed" not in str(refused.value)


def test_a_count_that_stays_within_the_limit_is_read():
    text = _text(_call({"content": "x", "tags": ["a"] * (VALUES_MAX // 2 - 20)}))
    assert not wire.values_over(text) and crowded(text) is None
    assert wire.loads(text)["params"]["arguments"]["tags"][0] == "a"


def test_over_stdio_the_refusal_names_tags_and_nothing_is_stored(db_path):
    server = StdioServer(db_path)
    try:
        server.send_raw(_text(_call({"content": "too many tags", "tags": [f"t{i}" for i in range(5_000)]}, 7)))
        reply = server.receive()
        assert reply["id"] == 7 and reply["error"]["code"] == -32600, reply
        assert reply["error"]["message"].endswith("inside params.arguments.tags"), reply
        ok = server.call_tool("remember", {"content": "a few tags", "tags": ["a", "b"]})
        assert not ok.get("isError"), ok
    finally:
        server.close()
    assert [row[0] for row in execute(db_path, "SELECT content FROM memories")] == ["a few tags"]


def test_over_http_the_refusal_names_tags_and_nothing_is_stored(db_path):
    key = new_key(db_path, "acme")
    server = HttpServer(db_path, "--auth", "keys")
    try:
        reply = server.post(key, _call({"content": "too many tags", "tags": [f"t{i}" for i in range(5_000)]}, 7))
        assert reply.status_code == 400 and reply.json()["id"] == 7, reply.text
        assert reply.json()["error"]["message"].endswith("inside params.arguments.tags"), reply.text
        assert server.post(key, _call({"content": "a few tags", "tags": ["a", "b"]})).status_code == 200
    finally:
        server.close()
    assert [row[0] for row in execute(db_path, "SELECT content FROM memories")] == ["a few tags"]
