"""A NUL character is refused in a text that is searched as in every other text field (trial 77 S12:
recall took {"query": "x\\u0000y"} and returned hits), naming the field: recall's query (memories and
turns), the boot task, the review prompt's topic. A hook's prompt holding one is still searched."""

from __future__ import annotations

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS

from memvault.server.app import build_server
from memvault.server.config import Config
from memvault.storage import validate
from memvault.storage.errors import InvalidInput

NUL_QUERIES = ["x\x00y", "\x00", "deploy on\x00 Fridays", "a" * 100 + "\x00"]


@pytest.mark.parametrize("query", NUL_QUERIES)
@pytest.mark.parametrize("turns", [False, True])
@pytest.mark.asyncio
async def test_recall_refuses_a_query_holding_nul_naming_the_field(db_path, query, turns):
    async with Client(build_server(Config(db=db_path, tenant="t", scope="proj"))) as c:
        await c.call_tool("remember", {"content": "Never deploy on Fridays x y"})
        r = await c.call_tool("recall", {"query": query, **({"turns": True} if turns else {})})
        assert r.is_error and r.content[0].text.startswith("query: must not contain NUL characters"), r.content
        if query.strip("\x00"):
            other = await c.call_tool("recall", {"query": query.replace("\x00", " ")})
            assert not other.is_error  # the same words without it are searched


@pytest.mark.asyncio
async def test_the_boot_task_and_the_review_topic_refuse_nul_naming_their_field(db_path):
    async with Client(build_server(Config(db=db_path, tenant="t", scope="proj"))) as c:
        with pytest.raises(MCPError) as task:
            await c.read_resource("memory://boot?task=deploy%00now")
        with pytest.raises(MCPError) as topic:
            await c.get_prompt("review_memories", {"topic": "deploy\x00now"})
        assert (await c.read_resource("memory://boot?task=deploy%20now")).contents[0].text
    for refused, field in ((task, "task"), (topic, "topic")):
        assert refused.value.error.code == INVALID_PARAMS
        assert field in refused.value.error.message and "NUL" in refused.value.error.message


@pytest.mark.parametrize("text", ["x\x01y", "tab\there", "line\nbreak", "\x7f"])
def test_other_control_characters_stay_allowed_in_a_query(text):
    assert validate.query(text) == text


def test_a_query_over_its_limit_names_the_field_given():
    with pytest.raises(InvalidInput) as refused:
        validate.query("x" * 2001, "task")
    assert str(refused.value).startswith("task: is 2,001 characters; the limit is 2,000")
