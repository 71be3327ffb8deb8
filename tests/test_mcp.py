"""The MCP surface through the SDK's in-process client: tools, schemas, errors, resources."""

from __future__ import annotations

import json
import re

import pytest
from conftest import names_field
from mcp import Client

from memvault.server.app import build_server
from memvault.server.config import Config
from memvault.storage.embeddings import TokenCounter

pytestmark = pytest.mark.usefixtures("one_model")  # the packaged model loaded once (conftest)



def client(db, tenant: str = "default", scope: str = "proj", boot_tokens: int = 2000) -> Client:
    return Client(build_server(Config(db=db, tenant=tenant, scope=scope, boot_tokens=boot_tokens)))


@pytest.mark.asyncio
async def test_tools_are_listed_with_annotations_and_output_schemas(db_path):
    async with client(db_path) as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
    assert set(tools) == {"remember", "recall", "supersede", "forget", "confirm"}
    hints = {
        n: (a.read_only_hint, a.destructive_hint, a.idempotent_hint, a.open_world_hint)
        for n, a in ((n, t.annotations) for n, t in tools.items())
    }
    assert hints == {
        "remember": (False, False, True, False), "recall": (True, False, True, False),
        "supersede": (False, False, False, False), "forget": (False, True, True, False),
        "confirm": (False, False, False, False),
    }
    for tool in tools.values():
        assert tool.output_schema and tool.output_schema["type"] == "object"
        for name, prop in tool.input_schema["properties"].items():
            assert prop.get("description"), f"{tool.name}.{name} has no description"


@pytest.mark.asyncio
async def test_each_tool_round_trips_structured_content(db_path):
    async with client(db_path) as c:
        r = await c.call_tool("remember", {"content": "The CI runner image is ubuntu-24.04", "tags": ["CI"]})
        assert not r.is_error and r.structured_content["created"] is True
        first = r.structured_content["id"]
        r = await c.call_tool("recall", {"query": "which image does CI run on"})
        assert not r.is_error and not r.structured_content["abstained"]
        top = r.structured_content["memories"][0]
        assert top["id"] == first and top["tags"] == ["ci"] and top["signals"]["keyword_rank"] == 1
        r = await c.call_tool("supersede", {"id": first, "content": "The CI runner image is ubuntu-26.04"})
        assert not r.is_error and r.structured_content["superseded_id"] == first
        second = r.structured_content["id"]
        r = await c.call_tool("recall", {"query": "CI runner image"})
        assert [m["id"] for m in r.structured_content["memories"]] == [second]
        r = await c.call_tool("forget", {"id": second, "include_history": True})
        assert not r.is_error and sorted(r.structured_content["forgotten_ids"]) == sorted([first, second])
        r = await c.call_tool("recall", {"query": "CI runner image"})
        assert r.structured_content["memories"] == []


@pytest.mark.parametrize(
    ("tool", "args", "field", "says"),
    [
        ("remember", {"content": ""}, "content", "is empty; it must be 1-8,000 characters"),
        ("remember", {"content": "   "}, "content", "is only white space; it must be 1-8,000 characters"),
        ("remember", {"content": "x", "importance": 11}, "importance", "10"),
        ("remember", {"content": "x", "kind": "opinion"}, "kind", "'opinion'"),
        ("remember", {"content": "x", "observed_at": "last tuesday"}, "observed_at", "ISO-8601"),
        ("remember", {}, "content", "required"),
        ("recall", {"query": "x", "limit": 0}, "limit", "1"),
        ("recall", {"query": "x", "limit": 51}, "limit", "50"),
        ("recall", {"query": "x", "since": "2024-99-99"}, "since", "'2024-99-99' is not a date: month 99 is not from 1 to 12"),
        ("supersede", {"content": "x"}, "id", "required"),
        ("forget", {}, "id", "required"),
        ("forget", {"id": "0123abcd-0000"}, "id", "no memory with id '0123abcd-0000'"),
        ("forget", {"id": "no-such-memory"}, "id", "'no-such-memory' is not a memory id: an id is 36 hex digits"),
    ],
)
@pytest.mark.asyncio
async def test_invalid_arguments_give_is_error_naming_the_field(db_path, tool, args, field, says):
    async with client(db_path) as c:
        r = await c.call_tool(tool, args)
        text = r.content[0].text
        assert r.is_error and names_field(text, field) and says in text, text
        ok = await c.call_tool("remember", {"content": "still serving"})
        assert not ok.is_error


@pytest.mark.asyncio
async def test_conflicts_reach_the_client_with_their_reason(db_path):
    async with client(db_path) as c:
        a = (await c.call_tool("remember", {"content": "v1", "idempotency_key": "k"})).structured_content["id"]
        r = await c.call_tool("remember", {"content": "v2", "idempotency_key": "k"})
        assert r.is_error and "'k'" in r.content[0].text
        b = (await c.call_tool("supersede", {"id": a, "content": "v3"})).structured_content["id"]
        r = await c.call_tool("supersede", {"id": a, "content": "v4"})
        assert r.is_error and b in r.content[0].text


@pytest.mark.asyncio
async def test_boot_context_lists_current_memories_with_ids_in_order(db_path):
    async with client(db_path) as c:
        empty = (await c.read_resource("memory://boot")).contents[0].text
        assert empty.count("\n") == 1 and "No memories" in empty
        ids = {}
        for kind, text in [("episode", "Yesterday we debugged the flaky login test"),
                           ("fact", "The API gateway is Envoy"),
                           ("preference", "The user wants answers in British English")]:
            r = await c.call_tool("remember", {"content": text, "kind": kind})
            ids[kind] = r.structured_content["id"]
        old = (await c.call_tool("remember", {"content": "Old decision: use MySQL", "kind": "decision"}))
        await c.call_tool("supersede", {"id": old.structured_content["id"], "content": "Decision: use Postgres"})
        boot = (await c.read_resource("memory://boot")).contents[0].text
    shorts = re.findall(r"^- \[([0-9a-f-]+)\]", boot, flags=re.M)
    assert len(shorts) == 4 and all(len(x) >= 8 for x in shorts)
    position = {kind: next(i for i, x in enumerate(shorts) if memory_id.startswith(x)) for kind, memory_id in ids.items()}
    assert "use MySQL" not in boot and "use Postgres" in boot
    assert position["preference"] < position["fact"] < position["episode"]
    assert "_4 of 4 memories shown" in boot


@pytest.mark.asyncio
async def test_boot_context_stays_within_its_token_budget(db_path, real_embedder):
    async with client(db_path, boot_tokens=150) as c:
        for i in range(40):
            await c.call_tool("remember", {"content": f"Fact number {i}: the service port for unit {i} is {9000 + i}"})
        boot = (await c.read_resource("memory://boot")).contents[0].text
    used = TokenCounter()(boot)
    assert used <= 150
    shown = boot.count("\n- [")
    footer = re.search(r"_(\d+) of 40 memories shown, within (\d+) tokens\. (\d+) more: `recall`", boot)
    assert footer and 0 < shown < 40 and int(footer.group(1)) == shown and int(footer.group(3)) == 40 - shown
    assert used <= int(footer.group(2))


@pytest.mark.asyncio
async def test_memory_resource_shows_the_chain_and_hides_other_tenants(db_path):
    async with client(db_path, tenant="alice") as alice:
        first = (await alice.call_tool("remember", {"content": "Alice's editor is Helix"})).structured_content["id"]
        second = (await alice.call_tool("supersede", {"id": first, "content": "Alice's editor is Zed"}))
        second_id = second.structured_content["id"]
        doc = json.loads((await alice.read_resource(f"memory://memories/{first}")).contents[0].text)
        assert doc["memory"]["id"] == first and doc["memory"]["superseded_by"] == second_id
        assert [m["id"] for m in doc["history"]] == [first, second_id]
    async with client(db_path, tenant="bob") as bob:
        with pytest.raises(Exception, match="no memory"):
            await bob.read_resource(f"memory://memories/{first}")
        r = await bob.call_tool("recall", {"query": "Alice editor Zed Helix"})
        assert r.structured_content["memories"] == []
        assert second_id not in (await bob.read_resource("memory://boot")).contents[0].text
        for tool, args in [("supersede", {"id": second_id, "content": "Bob's now"}), ("forget", {"id": second_id})]:
            r = await bob.call_tool(tool, args)
            assert r.is_error and "no memory" in r.content[0].text
    async with client(db_path, tenant="alice") as alice:
        r = await alice.call_tool("recall", {"query": "Alice editor"})
        assert [m["id"] for m in r.structured_content["memories"]] == [second_id]


@pytest.mark.asyncio
async def test_concurrent_calls_in_one_server_all_land(db_path):
    import anyio

    async with client(db_path) as c:
        results = {}

        async def one(i: int) -> None:
            r = await c.call_tool("remember", {"content": f"parallel memory number {i}"})
            results[i] = r

        async with anyio.create_task_group() as tg:
            for i in range(30):
                tg.start_soon(one, i)
        assert all(not r.is_error for r in results.values())
        ids = {r.structured_content["id"] for r in results.values()}
        assert len(ids) == 30
        r = await c.call_tool("recall", {"query": "parallel memory number 17"})
        assert r.structured_content["memories"][0]["content"] == "parallel memory number 17"




@pytest.mark.asyncio
async def test_prompts_are_listed_with_described_arguments_and_render(db_path):
    async with client(db_path) as c:
        prompts = {p.name: p for p in (await c.list_prompts()).prompts}
        assert set(prompts) == {"save_session", "review_memories", "consolidate"}
        for prompt in prompts.values():
            assert prompt.title and prompt.description
            assert all(a.description for a in prompt.arguments)
        required = {p.name: [a.name for a in p.arguments if a.required] for p in prompts.values()}
        assert required == {"save_session": [], "review_memories": ["topic"], "consolidate": []}
        saved = await c.get_prompt("save_session", {"scope": "proj"})
        review = await c.get_prompt("review_memories", {"topic": "database hosts"})
    text = saved.messages[0].content.text
    assert "supersede" in text and "remember" in text and 'scope "proj"' in text
    assert 'query "database hosts"' in review.messages[0].content.text
