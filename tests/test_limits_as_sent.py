"""Every text field's length limit counts the text as sent, white space around it included: ``since`` of
200,000 spaces was taken (the spaces trimmed off, then nothing over the limit), and so were a source, an
idempotency key, a scope or a query padded past their limits. Refused naming the field and the limit, over MCP
and the command line, and nothing is written."""

from __future__ import annotations

import pytest
from mcp import Client

from memvault.server.app import build_server
from memvault.server.config import Config
from memvault.storage import limits
from memvault.storage.store import Store

pytestmark = pytest.mark.usefixtures("one_model")  # the packaged model loaded once (conftest)

PAD = " " * 200_000
DATE = "2020-01-01T00:00:00Z"


def _padded(tool: str, field: str, value: str) -> dict[str, object]:
    """Arguments of ``tool`` with ``field`` set to ``value``, padded by 200,000 spaces before it."""
    base: dict[str, object] = {"recall": {"query": "VPN gateway"}, "remember": {"content": "The VPN gateway is vpn-9."},
                               "forget": {"id": "00000000"}}[tool]
    return {**base, field: PAD + value if field != "tags" else [PAD + value]}


CASES = [  # (tool, field as named in the refusal, value after the padding, limit)
    ("recall", "since", DATE, limits.TIME_MAX_CHARS), ("recall", "until", DATE, limits.TIME_MAX_CHARS),
    ("recall", "query", "VPN", limits.QUERY_MAX_CHARS), ("recall", "scope", "proj", limits.SCOPE_MAX_CHARS),
    ("recall", "tags", "infra", limits.TAG_MAX_CHARS),
    ("remember", "observed_at", DATE, limits.TIME_MAX_CHARS),
    ("remember", "expires_at", "2999-01-01", limits.TIME_MAX_CHARS),
    ("remember", "source", "wiki", limits.SOURCE_MAX_CHARS),
    ("remember", "idempotency_key", "k1", limits.IDEMPOTENCY_KEY_MAX_CHARS),
    ("remember", "scope", "proj", limits.SCOPE_MAX_CHARS), ("forget", "reason", "stale", limits.REASON_MAX_CHARS),
]


@pytest.mark.asyncio
async def test_a_field_padded_past_its_limit_is_refused_over_mcp_naming_field_and_limit(db_path):
    async with Client(build_server(Config(db=db_path, scope="proj"))) as c:
        own = await c.call_tool("remember", {"content": "The VPN gateway is vpn-7.example.org."})
        for tool, field, value, limit in CASES:
            got = await c.call_tool(tool, _padded(tool, field, value))
            named = f"{field}[0]" if field == "tags" else field
            sent = len(PAD) + len(value)
            assert got.is_error, (tool, field, got.content[0].text[:200])
            assert got.content[0].text.startswith(f"{named}: is {sent:,} characters; the limit is {limit:,}"), (
                tool, field, got.content[0].text[:200])
        padded = await c.call_tool("remember", {"content": "The printer is on floor 3." + PAD})
        assert padded.is_error and padded.content[0].text.startswith(
            f"content: is {len(PAD) + 26:,} characters; the limit is {limits.CONTENT_MAX_CHARS:,}")
        found = await c.call_tool("recall", {"query": "VPN gateway"})  # the owner still finds its own memory
    assert [m["id"] for m in found.structured_content["memories"]] == [own.structured_content["id"]]
    store = Store(db_path)
    try:
        assert store.count_memories(tenant="default", scopes=["proj", "global"]) == 1  # nothing else written
    finally:
        store.close()


_LONG = " " * 100_000  # under Linux's 128 KiB for one argument


@pytest.mark.parametrize(("argv", "field", "limit"), [
    (["recall", "VPN", "--since", _LONG + DATE], "--since", limits.TIME_MAX_CHARS),
    (["recall", "VPN", "--until", _LONG + DATE], "--until", limits.TIME_MAX_CHARS),
    (["remember", "The build cache is on cache-3.", "--observed-at", _LONG + DATE], "--observed-at",
     limits.TIME_MAX_CHARS),
    (["remember", "The build cache is on cache-3.", "--source", _LONG + "x"], "--source", limits.SOURCE_MAX_CHARS),
    (["remember", "The build cache is on cache-3." + _LONG], "CONTENT", limits.CONTENT_MAX_CHARS),
])
def test_a_flag_padded_past_its_limit_is_refused_on_the_command_line(db_path, cli_here, argv, field, limit):
    from conftest import server_env

    env = server_env(db_path)
    assert cli_here(["remember", "The VPN gateway is vpn-7.example.org."], env).returncode == 0
    done = cli_here(argv, env)
    assert done.returncode != 0
    assert f"{field}: is {len(argv[-1]):,} characters; the limit is {limit:,}" in done.stderr, done.stderr
    mine = cli_here(["recall", "VPN gateway"], env)
    assert "vpn-7.example.org" in mine.stdout and "cache-3" not in mine.stdout
