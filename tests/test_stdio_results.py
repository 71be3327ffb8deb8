"""What crosses stdio is what the tools made: each result read over ``memvault serve`` (behind
``server.wire``) equals the same read through the SDK's in-memory client, which has no wire."""

from __future__ import annotations

import json

import pytest
from mcp import Client
from wire import StdioServer

from memvault.server.app import build_server
from memvault.server.config import Config

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("one_model")]

ENV = {"MEMVAULT_TENANT": "t", "MEMVAULT_SCOPE": "proj", "MEMVAULT_BOOT_TOKENS": "800"}

# Texts of the kinds a wire can change: non-ASCII (accents, CJK, emoji), JSON escapes, line
# separators, a character outside the BMP, quotes in quotes, and one long enough for several pipe writes.
STORED = [
    ("fact", "The staging database is db-staging.internal on port 5433"),
    ("preference", "Zoë prefers réunions before 10:00; 会议 notes in French ✅"),
    ("decision", 'We chose "blue/green" deploys because \\ rollbacks were slow\tand risky'),
    ("procedure", "To rotate the TLS cert: run certbot renew, then reload nginx\nand check the expiry date"),
    ("episode", "Debugged the flaky payment test with Ana \u2028 it was a time zone bug 🐛 in 𝔘TC parsing"),
    ("failure", "The migration failed on the orders table: lock timeout after 30 s"),
    ("fact", "Release notes live in docs/releases.md; " + "each release lists its changes and owners. " * 160),
]
FACTS = [("fact", f"Service {name} listens on port {port}") for name, port in
         (("billing", 8001), ("search", 8002), ("auth", 8003), ("mailer", 8004), ("reports", 8005))]

RECALLS = ["staging database port", "what does Zoë prefer?", "how do we deploy?", "rotate the TLS certificate",
           "payment test bug", "migration lock timeout", "release notes", "which port does billing use?",
           "something nobody ever wrote down about giraffes"]
LISTINGS = [{"kinds": ["fact"], "limit": 3}, {"kinds": ["preference", "decision"]}, {"kinds": ["episode"]},
            {"tags": ["ops"]}, {"scope": "proj", "limit": 20}]
RESOURCES = ["memory://boot", "memory://boot?task=fix%20the%20deploy", "memory://sessions"]


async def fill(db) -> list[str]:
    """The memories above (one confirmed run of the procedure, one fact superseded), written through the SDK's
    in-memory client (what crosses stdio here is the reads'); their ids. The server is closed before anything
    is read: its queued background work is done."""
    async with Client(build_server(Config(db=db, tenant="t", scope="proj", boot_tokens=800))) as client:
        ids = []
        for n, (kind, content) in enumerate(STORED + FACTS):
            result = await client.call_tool("remember", {
                "content": content, "kind": kind, "tags": ["ops"] if n % 3 else [],
                "observed_at": f"2026-0{1 + n % 9}-1{n % 10}T09:00:00Z"})
            ids.append(result.structured_content["id"])
        await client.call_tool("confirm", {"id": ids[3], "outcome": "success"})
        await client.call_tool("supersede", {"id": ids[-1], "content": "Service reports listens on port 8015"})
    return ids


def calls(ids: list[str]) -> list[tuple[str, dict]]:
    tools = [("tools/call", {"name": "recall", "arguments": {"query": q, "limit": 5}}) for q in RECALLS]
    tools += [("tools/call", {"name": "recall", "arguments": {"query": "", **f}}) for f in LISTINGS]
    tools.append(("tools/call", {"name": "recall", "arguments": {"query": "port", "include_history": True}}))
    reads = [("resources/read", {"uri": uri}) for uri in RESOURCES + [f"memory://memories/{ids[0]}"]]
    return tools + reads


async def in_memory(db, requests: list[tuple[str, dict]]) -> list[dict]:
    """The results of ``requests`` through the SDK's in-memory client, as JSON."""
    out = []
    async with Client(build_server(Config(db=db, tenant="t", scope="proj", boot_tokens=800))) as client:
        for method, params in requests:
            if method == "tools/call":
                result = await client.call_tool(params["name"], params["arguments"])
            else:
                result = await client.read_resource(params["uri"])
            out.append(result.model_dump(mode="json", by_alias=True, exclude_none=True))
    return out


@pytest.mark.asyncio
async def test_results_over_stdio_equal_the_tools_own_for_recalls_listings_and_reads(db_path):
    requests = calls(await fill(db_path))
    server = StdioServer(db_path, **ENV)
    try:
        wired = []
        for method, params in requests:
            wired.append(server.request(method, params)["result"])
        cursor = wired[len(RECALLS)]["structuredContent"]["next_cursor"]  # a listing's next page too
        assert cursor
        page = {"name": "recall", "arguments": {"query": "", **LISTINGS[0], "cursor": cursor}}
        requests.append(("tools/call", page))
        wired.append(server.request("tools/call", page)["result"])
    finally:
        server.close()
    direct = await in_memory(db_path, requests)
    for (method, params), got, expected in zip(requests, wired, direct, strict=True):
        if method == "tools/call":
            assert not got.get("isError"), got
            assert got["structuredContent"] == expected["structuredContent"], params
            assert got["content"] == expected["content"], params
        else:
            assert got["contents"] == expected["contents"], params


def test_a_response_is_one_line_with_its_text_in_utf8_not_escaped(db_path):
    server = StdioServer(db_path, **ENV)
    try:
        server.call_tool("remember", {"content": STORED[1][1], "kind": "preference"})
        server.call_tool("remember", {"content": STORED[6][1]})  # its response is over one pipe write (4,096 bytes)
        assert server.proc.stdout is not None and server.proc.stdin is not None
        lines = []
        for n, query in enumerate(("Zoë réunions", "release notes owners")):
            request = {"jsonrpc": "2.0", "id": f"r{n}", "method": "tools/call",
                       "params": {"name": "recall", "arguments": {"query": query}}}
            server.proc.stdin.write(json.dumps(request) + "\n")
            server.proc.stdin.flush()
            lines.append(server.proc.stdout.readline())
    finally:
        server.close()
    responses = [json.loads(line) for line in lines]
    assert [r["id"] for r in responses] == ["r0", "r1"] and all(line.count("\n") == 1 for line in lines)
    assert "Zoë prefers réunions" in lines[0] and "会议" in lines[0] and "\\u00eb" not in lines[0]
    assert len(lines[1].encode()) > 2 * 4096 and "Release notes live in docs/releases.md" in lines[1]
