"""Strict, self-describing tools: typed schemas with the server's own limits, unknown
arguments refused with a suggestion, one coercion rule, one error style, compact text."""

from __future__ import annotations

import jsonschema
import pytest
from mcp import Client

from memvault.server.app import build_server
from memvault.server.config import Config
from memvault.storage import limits
from memvault.storage.embeddings import TokenCounter

pytestmark = pytest.mark.usefixtures("one_model")  # the packaged model loaded once (conftest)



def client(db, scope: str = "proj") -> Client:
    return Client(build_server(Config(db=db, scope=scope)))


async def schemas(db) -> dict[str, dict]:
    async with client(db) as c:
        return {t.name: t.input_schema for t in (await c.list_tools()).tools}


@pytest.mark.asyncio
async def test_every_field_has_a_plain_type_and_no_other_fields_are_allowed(db_path):
    for name, schema in (await schemas(db_path)).items():
        assert schema["additionalProperties"] is False, name
        for field, prop in schema["properties"].items():
            assert prop["type"] in {"string", "integer", "boolean", "array"}, (name, field)
            assert "anyOf" not in prop and prop["description"], (name, field)


def pointers(node) -> list[str]:
    """Every ``$ref`` and ``$defs`` key anywhere in a schema."""
    if isinstance(node, list):
        return [found for item in node for found in pointers(item)]
    if not isinstance(node, dict):
        return []
    return [k for k in node if k in ("$ref", "$defs")] + [found for v in node.values() for found in pointers(v)]


@pytest.mark.asyncio
async def test_output_schemas_need_no_reference_resolved_and_describe_the_results(db_path, real_embedder):
    # Some clients fail tools/list on a "#/$defs/..." pointer in an outputSchema
    # (anthropics/claude-code#76040): every schema is written out in full.
    import jsonschema

    async with client(db_path) as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        for name, tool in tools.items():
            assert tool.output_schema is not None and pointers(tool.output_schema) == [], name
        stored = await c.call_tool("remember", {"content": "Releases ship on Tuesdays", "tags": ["release"]})
        found = await c.call_tool("recall", {"query": "when do releases ship last week?"})
        listed = await c.call_tool("recall", {"query": "", "tags": ["release"]})
    assert found.structured_content["memories"] and found.structured_content["memories"][0]["signals"]
    assert found.structured_content["time"] is not None
    for name, result in (("remember", stored), ("recall", found), ("recall", listed)):
        assert not result.is_error
        jsonschema.validate(result.structured_content, tools[name].output_schema)


@pytest.mark.asyncio
@pytest.mark.parametrize("query", ["what changed this week about releases?", "releases the last few weeks",
                                   "releases in the past 2 weeks", "what did we release today"])
async def test_a_time_read_in_a_question_is_shown_ending_by_now(db_path, real_embedder, query):
    """Issue 25: "this week" was shown ending tomorrow (the day of clock skew kept for matching)."""
    from memvault.storage.timefmt import now_ms, parse_iso

    async with client(db_path) as c:
        await c.call_tool("remember", {"content": "Releases ship on Tuesdays", "tags": ["release"]})
        found = await c.call_tool("recall", {"query": query})
    time = found.structured_content["time"]
    assert time is not None and parse_iso("until", time["until"]) <= now_ms()
    assert parse_iso("since", time["since"]) < parse_iso("until", time["until"])


def branches(node) -> list[list]:
    """Every ``anyOf`` anywhere in a schema."""
    if isinstance(node, list):
        return [found for item in node for found in branches(item)]
    if not isinstance(node, dict):
        return []
    return ([node["anyOf"]] if "anyOf" in node else []) + [found for v in node.values() for found in branches(v)]


@pytest.mark.asyncio
async def test_output_schemas_give_a_field_that_may_be_null_a_list_of_types(db_path):
    # A validator tries every branch of an anyOf (the MCP Python client's jsonschema builds an error
    # for each one that fails): a plain field that may be null is one check of ["string", "null"].
    async with client(db_path) as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
    memory = tools["recall"].output_schema["properties"]["memories"]["items"]["properties"]
    assert memory["expires_at"]["type"] == ["string", "null"] and memory["source"]["type"] == ["string", "null"]
    assert memory["signals"]["properties"]["keyword_rank"]["type"] == ["integer", "null"]
    for name, tool in tools.items():
        assert [b for b in branches(tool.output_schema) if {"type": "null"} in b and len(b) == 2
                and all(set(x) == {"type"} or x.get("type") == "object" for x in b)] == [], name
    # An object that may be null too ("runs", "signals"): one check of ["object", "null"], its properties
    # still checked on an object.
    runs = memory["runs"]
    assert runs["type"] == ["object", "null"] and "anyOf" not in runs and runs["properties"]
    validator = jsonschema.Draft202012Validator(runs)
    assert validator.is_valid(None) and not validator.is_valid("3 runs") and not validator.is_valid([])
    one = {field: 0 for field in runs["properties"]}
    assert validator.is_valid({k: v for k, v in one.items() if k in runs.get("required", [])}) or not runs.get("required")
    assert not validator.is_valid({field: "many" for field in runs.get("required", runs["properties"])})


@pytest.mark.asyncio
async def test_schemas_carry_the_limits_the_server_enforces(db_path):
    s = await schemas(db_path)
    remember, recall = s["remember"]["properties"], s["recall"]["properties"]
    assert remember["kind"]["enum"] == list(limits.KINDS) == recall["kinds"]["items"]["enum"]
    assert (remember["importance"]["minimum"], remember["importance"]["maximum"]) == (1, 10)
    assert remember["content"]["maxLength"] == limits.CONTENT_MAX_CHARS
    assert remember["tags"]["maxItems"] == limits.TAGS_MAX
    assert remember["tags"]["items"]["maxLength"] == limits.TAG_MAX_CHARS
    assert remember["scope"]["maxLength"] == limits.SCOPE_MAX_CHARS
    assert recall["limit"]["maximum"] == limits.RECALL_MAX_LIMIT
    assert recall["query"]["maxLength"] == limits.QUERY_MAX_CHARS
    for field in ("observed_at", "expires_at"):
        assert remember[field]["format"] == "date-time"
    assert recall["since"]["format"] == recall["until"]["format"] == "date-time"
    assert "inherited" in s["supersede"]["properties"]["kind"]["description"].lower()
    assert s["remember"]["required"] == ["content"] and s["supersede"]["required"] == ["id"]
    assert not s["forget"].get("required")  # id, or session_id
    assert s["forget"]["properties"]["session_id"]["maxLength"] == limits.SESSION_ID_MAX_CHARS


@pytest.mark.parametrize(
    ("tool", "args", "field", "limit"),
    [
        ("remember", {"content": "x" * (limits.CONTENT_MAX_CHARS + 1)}, "content", "8,000"),
        ("remember", {"content": "x", "tags": ["t"] * (limits.TAGS_MAX + 1)}, "tags", str(limits.TAGS_MAX)),
        ("remember", {"content": "x", "tags": ["t" * 65]}, "tags[0]", "64"),
        ("remember", {"content": "x", "importance": 0}, "importance", "1 to 10"),
        ("remember", {"content": "x", "scope": "s" * 129}, "scope", "128"),
        ("recall", {"query": "x", "limit": 51}, "limit", "1 to 50"),
        ("recall", {"query": "x", "limit": 1e308}, "limit", "must be an integer from 1 to 50; got 1e+308"),
        ("recall", {"query": "q" * 2001}, "query", "2,000"),
        ("recall", {"query": "x", "kinds": ["opinion"]}, "kinds[0]", "fact"),
        ("forget", {"id": "x", "reason": "r" * 501}, "reason", "500"),
    ],
)
@pytest.mark.asyncio
async def test_limits_are_enforced_with_the_field_and_the_limit_named(db_path, tool, args, field, limit):
    async with client(db_path) as c:
        r = await c.call_tool(tool, args)
    text = r.content[0].text
    assert r.is_error and text.startswith(f"{field}:") and limit in text


@pytest.mark.asyncio
async def test_lengths_are_counted_as_sent_white_space_around_the_text_included(db_path):
    """A text over its limit only by white space around it was trimmed and taken: ``since`` of 200,000 spaces
    before a date was read as the date, a scope padded past 128 characters was taken while a short padded
    one is refused. The limit is the text's as sent (docs/limits.md)."""
    async with client(db_path) as c:
        kept = await c.call_tool("remember", {"content": "  " + "a" * (limits.CONTENT_MAX_CHARS - 4) + " \n"})
        over = await c.call_tool("remember", {"content": " " + "b" * limits.CONTENT_MAX_CHARS})
        scope = await c.call_tool("remember", {"content": "x", "scope": " " + "s" * 127 + " "})
    assert not kept.is_error and len(kept.structured_content["id"]) == 36
    assert over.is_error and over.content[0].text.startswith("content: is 8,001 characters")
    assert over.content[0].text.endswith(limits.SPLIT_ADVICE)  # as the command line and import say it
    assert scope.is_error and scope.content[0].text == "scope: is 129 characters; the limit is 128"


@pytest.mark.parametrize(
    ("tool", "args", "unknown", "suggestion"),
    [
        ("remember", {"content": "dark mode please", "type": "preference"}, "type", "kind"),
        ("remember", {"content": "infra note", "tag": "infra"}, "tag", "tags"),
        ("remember", {"content": "infra note", "importnace": 8}, "importnace", "importance"),
        ("recall", {"query": "dark mode", "kind": "decision"}, "kind", "kinds"),
        ("recall", {"q": "dark mode"}, "q", "query"),
        ("forget", {"memory_id": "abc"}, "memory_id", "id"),
        ("supersede", {"id": "abc", "text": "new"}, "text", "content"),
    ],
)
@pytest.mark.asyncio
async def test_unknown_arguments_are_refused_with_the_closest_valid_one(db_path, tool, args, unknown, suggestion):
    async with client(db_path) as c:
        r = await c.call_tool(tool, args)
        assert r.is_error
        assert f"unknown argument {unknown!r}; did you mean {suggestion!r}?" in r.content[0].text
        listed = await c.call_tool("recall", {"query": "", "scope": "proj"})
    assert listed.structured_content["memories"] == []  # nothing was stored


@pytest.mark.parametrize(
    ("value", "stored"),
    [(7, 7), (7.0, 7), ("8", 8), (" 9 ", 9), (True, None), ("yes", None), (7.5, None), ("7.5", None), ([7], None)],
)
@pytest.mark.asyncio
async def test_one_coercion_rule_for_integers(db_path, value, stored):
    async with client(db_path) as c:
        r = await c.call_tool("remember", {"content": f"importance {value!r}", "importance": value})
        assert r.is_error is (stored is None), r.content[0].text
        if stored is not None:
            found = await c.call_tool("recall", {"query": "", "scope": "proj"})
            assert found.structured_content["memories"][0]["importance"] == stored


@pytest.mark.parametrize(
    ("value", "accepted"), [(True, True), (False, True), ("true", True), (1, False), ("yes", False), ("1", False)]
)
@pytest.mark.asyncio
async def test_one_coercion_rule_for_booleans(db_path, value, accepted):
    async with client(db_path) as c:
        r = await c.call_tool("recall", {"query": "anything", "include_history": value})
    assert r.is_error is not accepted
    if not accepted:
        assert r.content[0].text.startswith("include_history: must be true or false")


@pytest.mark.asyncio
async def test_lists_may_come_as_json_text_and_strings_are_never_converted(db_path):
    async with client(db_path) as c:
        r = await c.call_tool("remember", {"content": "tagged as text", "tags": '["Infra", "db"]', "source": "[1]"})
        assert not r.is_error, r.content[0].text
        found = await c.call_tool("recall", {"query": "", "tags": ["infra"]})
        memory = found.structured_content["memories"][0]
        assert sorted(memory["tags"]) == ["db", "infra"] and memory["source"] == "[1]"
        r = await c.call_tool("remember", {"content": 42})
        assert r.is_error and r.content[0].text.startswith("content: must be a string")


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("remember", {"content": "x", "importance": "high"}),
        ("remember", {"content": ["a"]}),
        ("remember", {"content": "x", "tags": "infra"}),
        ("recall", {"query": "x", "limit": "all"}),
        ("recall", {"query": {"text": "x"}}),
        ("forget", {"id": 7}),
        ("supersede", {"id": "x", "content": "y", "kind": 3}),
    ],
)
@pytest.mark.asyncio
async def test_type_errors_speak_memvault_not_pydantic(db_path, tool, args):
    async with client(db_path) as c:
        r = await c.call_tool(tool, args)
    text = r.content[0].text
    assert r.is_error
    assert text.split(":")[0] in args and ("must be" in text or " is not " in text)
    for leak in ("pydantic", "validation error", "http", "Arguments", "Error executing"):
        assert leak not in text, text


@pytest.mark.asyncio
async def test_recall_text_is_compact_and_structured_content_complete(db_path, real_embedder):
    count = TokenCounter()
    async with client(db_path) as c:
        stored = []
        for i, text in enumerate(["The staging database host is db-stg-03.internal",
                                  "The production database host is db-prod-01.internal",
                                  "Database backups run nightly at 02:00 UTC"]):
            r = await c.call_tool("remember", {"content": text, "tags": ["db"], "source": "user"})
            stored.append(r.structured_content["id"])
        r = await c.call_tool("recall", {"query": "database host"})
    memories = r.structured_content["memories"]
    assert len(memories) >= 2 and {"signals", "recorded_at", "tags", "source"} <= set(memories[0])
    text = r.content[0].text
    for m in memories:
        assert m["content"] in text and f"[{m['short_id']}]" in text and m["id"].startswith(m["short_id"])
    json_tokens = count(r.structured_content.__repr__())
    assert count(text) * 3 < json_tokens  # a fraction of the JSON's tokens


@pytest.mark.slow
def test_strict_tools_over_real_stdio(db_path):
    from wire import StdioServer

    server = StdioServer(db_path)
    try:
        tools = {t["name"]: t for t in server.request("tools/list")["result"]["tools"]}
        assert all(t["inputSchema"]["additionalProperties"] is False for t in tools.values())
        assert tools["remember"]["inputSchema"]["properties"]["importance"]["type"] == "integer"
        assert all(t["annotations"]["openWorldHint"] is False for t in tools.values())
        r = server.call_tool("remember", {"content": "Dark mode everywhere", "type": "preference"})
        assert r["isError"] and "did you mean 'kind'?" in r["content"][0]["text"]
        r = server.call_tool("remember", {"content": "Dark mode everywhere", "kind": "preference", "importance": "8"})
        assert not r.get("isError") and r["structuredContent"]["created"]
        r = server.call_tool("recall", {"query": "dark mode", "limit": "3"})
        memory = r["structuredContent"]["memories"][0]
        assert memory["importance"] == 8 and memory["kind"] == "preference"
        assert r["content"][0]["text"] == f'1 memory, best first:\n1. [{memory["short_id"]}] preference, ' \
            f'{memory["observed_at"][:10]}, confidence {memory["confidence"]:.2f}: "Dark mode everywhere"' \
            f' — strength {memory["strength"]:.2f}'
        r = server.call_tool("recall", {"query": "x", "limit": 3.5})
        assert r["isError"] and r["content"][0]["text"] == "limit: must be an integer from 1 to 50; got 3.5"
        prompts = server.request("prompts/list")["result"]["prompts"]
        assert {p["name"] for p in prompts} == {"save_session", "review_memories", "consolidate"}
        got = server.request("prompts/get", {"name": "review_memories", "arguments": {"topic": "dark mode"}})
        assert 'query "dark mode"' in got["result"]["messages"][0]["content"]["text"]
        boot = server.request("resources/read", {"uri": "memory://boot"})["result"]["contents"][0]["text"]
        assert f'[{memory["short_id"]}] preference' in boot and "_1 of 1 memory shown" in boot
    finally:
        server.close()


@pytest.mark.asyncio
async def test_the_named_times_until_is_described_as_recall_shows_it(db_path, real_embedder):
    """Issue 25: the schema said "(exclusive)" while a time running on to now is shown ending at now
    (a memory observed then is in it). A past time ends at the first moment after it; a time running on
    to now ends at now; none ends after now."""
    from datetime import UTC, datetime, timedelta

    from memvault.storage.timefmt import now_ms, parse_iso

    async with client(db_path) as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        await c.call_tool("remember", {"content": "The deploy of the billing service failed"})
        before = now_ms()
        found = {q: (await c.call_tool("recall", {"query": q})).structured_content["time"]
                 for q in ("what failed yesterday?", "what failed this week?", "what failed in the last 3 days?",
                           "what failed today?", "what failed last week?")}
        after = now_ms()
    described = tools["recall"].output_schema["properties"]["time"]
    described = next(s for s in described.get("anyOf", [described]) if "object" in s.get("type", ()))
    until = described["properties"]["until"]["description"]
    assert "exclusive" not in until and "never later than now" in until.lower() and "yesterday" in until
    midnight = datetime.fromtimestamp(before / 1000, UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    ms = {q: (parse_iso("since", t["since"]), parse_iso("until", t["until"])) for q, t in found.items()}
    day = int(timedelta(days=1).total_seconds() * 1000)
    today = int(midnight.timestamp() * 1000)
    assert ms["what failed yesterday?"] == (today - day, today)  # ends at today's 00:00
    for q in ("what failed this week?", "what failed in the last 3 days?", "what failed today?"):
        assert before <= ms[q][1] <= after, q  # runs on to now: ends at now
    assert ms["what failed in the last 3 days?"][1] - ms["what failed in the last 3 days?"][0] == 3 * day
    assert ms["what failed last week?"][1] <= today - (midnight.weekday() * day)  # ends where this week starts
    assert all(u <= after for _, u in ms.values())


@pytest.mark.asyncio
@pytest.mark.parametrize(("query", "ranges"), [
    ("what did we decide on 12/01/2025?", [("2025-01-12", "2025-01-13"), ("2025-12-01", "2025-12-02")]),
    ("what did we decide on 03-04-2025?", [("2025-03-04", "2025-03-05"), ("2025-04-03", "2025-04-04")]),
    ("what did we decide on 06/05/25?", [("2025-05-06", "2025-05-07"), ("2025-06-05", "2025-06-06")]),
    ("what did we decide between 12/01/2025 and 12/02/2025?", [("2025-01-12", "2025-02-13"),
                                                                ("2025-12-01", "2025-12-03")]),
    # one range: since and until as they were, no ranges
    ("what did we decide on 13/01/2025?", None), ("what did we decide on 2025-01-12?", None),
    ("what did we decide on Sunday 12/01/2025?", None),  # the weekday picks 12 January
])
async def test_a_time_of_two_ranges_shows_each_and_no_span_between(db_path, real_embedder, query, ranges):
    """Verify 61 N10: "12/01/2026" was shown as since 12 January until 2 December, a span of eleven months that
    a client reusing since/until as filters would search; only the note said it was two days."""
    async with client(db_path) as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        await c.call_tool("remember", {"content": "We decided to adopt Ruff", "kind": "decision"})
        found = await c.call_tool("recall", {"query": query})
    jsonschema.validate(found.structured_content, tools["recall"].output_schema)
    time = found.structured_content["time"]
    assert time is not None
    if ranges is None:
        assert time.get("ranges") is None and time["since"] < time["until"]
    else:
        shown = [(span["since"][:10], span["until"][:10]) for span in time["ranges"]]
        assert shown == ranges and time["since"] is None and time["until"] is None and "read as both" in time["note"]
