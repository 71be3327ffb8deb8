"""Hostile input over the real stdio wire: every tool's arguments fuzzed, plus hand-picked
cases. Every case gets an ``isError`` result or a valid one, the server stays up, its
memory stays bounded, and a rejected call writes nothing."""

from __future__ import annotations

import json

import apsw
import pytest
from conftest import HEAVY, figure
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wire import ProtocolError, StdioServer

pytestmark = pytest.mark.slow

NASTY_TEXT = [
    "", " ", "\x00", "a\x00b", "‏مرحبا‎ rtl", "e\u0301\u0301\u0301", "🙂" * 50,
    'NEAR(a b)', '"', "*", "AND OR NOT", "col:val^2", "'; DROP TABLE memories; --", "1 OR 1=1",
    "2024-02-30", "2024-01-01T00:00:00+25:00", "2024-01-01T25:00:00Z", "yesterday", "9999-12-31T23:59:59Z",
    "0001-01-01", "-1", "NaN", "x" * 9000,
]
json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=200), st.sampled_from(NASTY_TEXT),
)
json_value = st.recursive(
    json_leaf, lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=10), inner, max_size=5)),
    max_leaves=20,
)
TOOL_PARAMS = {
    "remember": ["content", "kind", "tags", "importance", "scope", "source", "observed_at", "expires_at", "idempotency_key"],
    "recall": ["query", "limit", "kinds", "tags", "scope", "since", "until", "include_history"],
    "supersede": ["id", "content", "reason", "kind", "tags", "importance", "source", "observed_at", "expires_at"],
    "forget": ["id", "reason", "include_history"],
}


@st.composite
def tool_calls(draw):  # type: ignore[no-untyped-def]
    tool = draw(st.sampled_from(sorted(TOOL_PARAMS)))
    args = {}
    for name in TOOL_PARAMS[tool]:
        if draw(st.booleans()):
            args[name] = draw(json_value)
    if draw(st.integers(0, 9)) == 0:
        args[draw(st.text(min_size=1, max_size=8))] = draw(json_value)
    return tool, args


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("fuzz") / "fuzz.db"
    s = StdioServer(db)
    s.call_tool("remember", {"content": "a first memory, so the database exists"})
    s.db = db  # type: ignore[attr-defined]
    s.stats = {"cases": 0, "errors": 0, "partial": 0}  # type: ignore[attr-defined]
    yield s
    s.close()


def counts(db) -> tuple[int, ...]:
    conn = apsw.Connection(str(db), flags=apsw.SQLITE_OPEN_READONLY)
    try:
        row = conn.execute(
            "SELECT (SELECT count(*) FROM memories), (SELECT count(*) FROM memory_tags),"
            " (SELECT sum(documents) FROM keyword_tenants), (SELECT count(*) FROM memories WHERE forgotten_at IS NULL),"
            " (SELECT count(*) FROM memories WHERE superseded_by IS NOT NULL)"
        ).fetchone()
    finally:
        conn.close()
    return tuple(row)


def run_case(server, tool: str, args) -> None:  # type: ignore[no-untyped-def]
    before = counts(server.db)
    try:
        result = server.call_tool(tool, args)
    except ProtocolError:
        result = {"isError": True, "content": [{"type": "text", "text": "protocol error"}]}
    server.stats["cases"] += 1
    if result.get("isError"):
        server.stats["errors"] += 1
        assert result["content"][0]["text"].strip()
        if counts(server.db) != before:
            server.stats["partial"] += 1
            raise AssertionError(f"rejected {tool}({str(args)[:200]}) changed the database")
    else:
        assert isinstance(result["structuredContent"], dict)


@settings(
    max_examples=1000 if HEAVY else 200, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(call=tool_calls())
def test_fuzzed_arguments_get_clean_answers(server, call):
    run_case(server, *call)


HAND_PICKED = [
    ("remember", {"content": "x" * 10_000_000}),
    ("remember", {"content": "ok", "tags": ["t"] * 100_000}),
    ("remember", {"content": "ok", "tags": [{"deep": [[[[[[[[[["x"]]]]]]]]]]}]}),
    ("remember", {"content": "ok", "tags": [json.loads("[" * 150 + "]" * 150)]}),
    ("remember", {"content": "nul\x00byte"}),
    ("remember", {"content": "ok", "importance": 2.5}),
    ("remember", {"content": "ok", "importance": "high"}),
    ("remember", {"content": "ok", "observed_at": "2024-01-01T00:00:00+25:00"}),
    ("remember", {"content": "ok", "expires_at": "2020-01-01T00:00:00Z"}),
    ("recall", {"query": "x", "limit": -1}),
    ("recall", {"query": "x", "limit": 2.5}),
    ("recall", {"query": "x", "limit": 1000}),
    ("recall", {"query": "NEAR(a b) AND \"x\" OR -y* ^z col:1"}),
    ("recall", {"query": "'; DROP TABLE memories; --"}),
    ("recall", {"query": "🙂🚀"}),
    ("recall", {"query": "x", "since": "not a date"}),
    ("supersede", {"id": "'; DROP TABLE memories; --", "content": "x"}),
    ("forget", {"id": None}),
    ("forget", {"id": ["a"]}),
    ("recall", ["not", "an", "object"]),
    ("remember", "just a string"),
]


@pytest.mark.parametrize(("tool", "args"), HAND_PICKED, ids=[f"{t}-{i}" for i, (t, _) in enumerate(HAND_PICKED)])
def test_hand_picked_hostile_cases(server, tool, args):
    run_case(server, tool, args)


def test_server_is_still_up_and_bounded_after_the_fuzzing(server):
    result = server.call_tool("remember", {"content": "still alive after fuzzing"})
    assert result["structuredContent"]["created"] in (True, False)
    rss = server.rss_mb()
    assert rss < 1500, f"server uses {rss:.0f} MiB"
    stats = server.stats
    figure(f"hostile input over stdio: {stats['cases']} cases, {stats['errors']} rejected cleanly, "
           f"0 server crashes, {stats['partial']} partial writes, server RSS {rss:.0f} MiB")
