"""Strength and procedure runs on the wire (issue 27): the ``confirm`` tool through the MCP server,
and what recall, the memory resource and the boot context show."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest
from conftest import names_field
from mcp import Client

from memvault.server import auth
from memvault.server.app import build_server
from memvault.server.config import Config

pytestmark = [pytest.mark.usefixtures("one_model"), pytest.mark.contract]
GITHUB_TOKEN = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A"


def client(db) -> Client:  # type: ignore[no-untyped-def]
    return Client(build_server(Config(db=db, tenant="default", scope="proj")))


def days_ago(days: int) -> str:
    return (datetime.now(timezone.utc) - timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.mark.anyio
async def test_confirm_raises_strength_and_a_memory_unconfirmed_for_seven_months_needs_review(db):
    async with client(db) as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        hints = tools["confirm"].annotations
        assert (hints.read_only_hint, hints.destructive_hint, hints.idempotent_hint) == (False, False, False)
        assert tools["confirm"].input_schema["properties"]["outcome"]["enum"] == ["success", "failure"]
        fresh = await c.call_tool("remember", {"content": "The metrics dashboard is grafana.internal"})
        fresh_id = fresh.structured_content["id"]
        r = await c.call_tool("confirm", {"id": fresh_id})
        assert not r.is_error and r.structured_content["strength"] == 0.8
        assert r.structured_content["confirmations"] == 1 and r.structured_content["runs"] is None
        assert r.content[0].text == f"Confirmed {fresh_id}: strength 0.80."
        old = await c.call_tool(
            "remember",
            {"content": "The metrics dashboard password rotates monthly", "observed_at": days_ago(213)},
        )
        old_id = old.structured_content["id"]
        found = await c.call_tool("recall", {"query": "metrics dashboard"})
        by_id = {m["id"]: m for m in found.structured_content["memories"]}
        assert by_id[fresh_id]["strength"] == 0.8 and by_id[fresh_id]["needs_review"] is False
        assert by_id[old_id]["needs_review"] is True and by_id[old_id]["strength"] < 0.3
        assert found.content[0].text.count(", needs review") == 1
        doc = json.loads((await c.read_resource(f"memory://memories/{old_id}")).contents[0].text)
        assert (
            doc["memory"]["needs_review"] is True and doc["memory"]["strength"] == by_id[old_id]["strength"]
        )
        boot = (await c.read_resource("memory://boot")).contents[0].text
        assert '"The metrics dashboard is grafana.internal"\n' in boot
        assert '"The metrics dashboard password rotates monthly" — needs review\n' in boot
        r = await c.call_tool("confirm", {"id": old_id})
        assert r.structured_content["strength"] == 0.8 and r.structured_content["needs_review"] is False


@pytest.mark.anyio
async def test_procedure_runs_cross_the_wire_and_two_failures_flag_it(db):
    async with client(db) as c:
        made = await c.call_tool(
            "remember",
            {"kind": "procedure", "content": "To deploy the site: run make build, then rsync to web-2"},
        )
        memory_id = made.structured_content["id"]
        for note in ("rsync: connection refused", "make build ran out of memory"):
            r = await c.call_tool("confirm", {"id": memory_id, "outcome": "failure", "note": note})
            assert not r.is_error and r.structured_content["outcome"] == "failure"
        runs = r.structured_content["runs"]
        assert (runs["runs"], runs["successes"], runs["failure_streak"], runs["flagged"]) == (2, 0, 2, True)
        assert runs["failure_modes"] == ["make build ran out of memory", "rsync: connection refused"]
        assert r.structured_content["confirmations"] == 0
        found = await c.call_tool("recall", {"query": "how do I deploy the site"})
        hit = found.structured_content["memories"][0]
        assert hit["id"] == memory_id and hit["runs"]["flagged"] is True
        assert "(flagged: the last two runs failed)" in found.content[0].text
        boot = (await c.read_resource("memory://boot")).contents[0].text
        assert '" — 2 runs, 0 succeeded' in boot and '"make build ran out of memory"' in boot
        r = await c.call_tool("confirm", {"id": memory_id, "outcome": "success"})
        assert r.structured_content["runs"]["flagged"] is False and r.structured_content["confirmations"] == 1
        assert r.content[0].text.startswith(
            f"Recorded a success of {memory_id}: strength 0.80. Runs: 3 runs, 1 succeeded, last "
        )


@pytest.mark.anyio
async def test_confirm_refusals_name_their_field(db):
    async with client(db) as c:
        memory_id = (
            await c.call_tool("remember", {"content": "The release branch is main"})
        ).structured_content["id"]
        procedure = (
            await c.call_tool(
                "remember", {"content": "To release: merge to main and tag it", "kind": "procedure"}
            )
        ).structured_content["id"]
        gone = (
            await c.call_tool("remember", {"content": "Old runbook lives in the shared drive"})
        ).structured_content
        await c.call_tool("forget", {"id": gone["id"]})
        cases = [
            ({"id": memory_id, "outcome": "success"}, "outcome", "is of kind fact"),
            ({"id": procedure, "outcome": "partial"}, "outcome", "partial"),
            (
                {"id": procedure, "outcome": "failure", "note": f"push refused {GITHUB_TOKEN}"},
                "note",
                "GitHub",
            ),
            ({"id": gone["id"]}, "id", "was forgotten, so it cannot be confirmed"),
            ({}, "id", "required"),
        ]
        for args, field, says in cases:
            r = await c.call_tool("confirm", args)
            assert r.is_error and names_field(r.content[0].text, field) and says in r.content[0].text, (
                r.content
            )
        r = await c.call_tool("recall", {"query": "release", "kinds": ["procedure"]})
        assert r.structured_content["memories"][0]["runs"]["runs"] == 0


def test_confirm_needs_the_write_scope():
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "confirm", "arguments": {}}}
    assert auth.missing_scope({auth.READ}, json.dumps(call).encode()) == auth.WRITE
    assert auth.missing_scope({auth.WRITE}, json.dumps(call).encode()) is None
    # A read-only key is answered by the tool (auth.ReadOnly naming it), a read-only token with 403.
    assert auth.missing_scope({auth.READ}, json.dumps(call).encode(), key=True) is None
    assert auth.missing_scope(set(), json.dumps(call).encode(), key=True) == auth.READ
