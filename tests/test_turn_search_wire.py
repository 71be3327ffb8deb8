"""Turn search as a user reaches it (issue 26): recall with ``turns: true`` over the MCP SDK client and
``memvault recall --turns`` (text and --json); bad input refused naming the field; recall without
``turns`` unchanged (no turns). Over the team server's HTTP with a read-only key: tests/test_http.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp import Client

from memvault.server import cli
from memvault.server.app import build_server
from memvault.server.config import Config
from memvault.storage.records import NewTurn
from memvault.storage.store import Store

pytestmark = pytest.mark.usefixtures("one_model")  # the packaged model loaded once (conftest)

GITHUB_TOKEN = "ghp_" + "Qw1Er2Ty3Ui4Op5As6Df7Gh8Jk9Lz0Xc1Vb2Nm"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Tenant t (scope proj): two sessions; tenant u: one with the same words."""
    path = tmp_path_factory.mktemp("turn-wire") / "m.db"
    store = Store(path, None)
    try:
        store.episodes.append(tenant="t", scope="proj", session_id="s-build", turns=[
            NewTurn("user", "Why does the flaky orchard test fail on CI?"),
            NewTurn("tool", f"orchard: auth failed with token {GITHUB_TOKEN}", tool="Bash")])
        store.episodes.append(tenant="t", scope="proj", session_id="s-docs", turns=[
            NewTurn("user", "Rewrite the orchard README section " + "and more words " * 200 + "trellis")])
        store.remember(tenant="t", scope="proj", kind="episode", content="Worked on the orchard build")
        store.episodes.append(tenant="u", scope="proj", session_id="s-build", turns=[
            NewTurn("user", "u's orchard question")])
    finally:
        store.close()
    return path


@pytest.mark.asyncio
async def test_recall_with_turns_over_the_sdk_client(db: Path):
    async with Client(build_server(Config(db=db, tenant="t", scope="proj"))) as c:
        found = await c.call_tool("recall", {"query": "flaky orchard", "turns": True})
        one = await c.call_tool("recall", {"query": "orchard", "turns": True, "session_id": "s-docs"})
        cut = await c.call_tool("recall", {"query": "trellis", "turns": True})
        leaked = await c.call_tool("recall", {"query": GITHUB_TOKEN, "turns": True})
        plain = await c.call_tool("recall", {"query": "", "kinds": ["episode"]})
        refused = {name: await c.call_tool("recall", args) for name, args in (
            ("turns", {"query": "orchard", "turns": "yes"}),
            ("session_id", {"query": "orchard", "turns": True, "session_id": "s" * 129}),
            ("unknown", {"query": "orchard", "turns": True, "session_id": "s-none"}),
            ("query", {"query": "  ", "turns": True}),
            ("kinds", {"query": "orchard", "turns": True, "kinds": ["fact"]}),
            ("alone", {"query": "orchard", "session_id": "s-build"}))}
    out = found.structured_content
    assert out["search"] == "keyword" and out["memories"] == [] and out["scopes"] == ["proj", "global"]
    assert [(t["session_id"], t["seq"], t["role"]) for t in out["turns"]][0] == ("s-build", 1, "user")
    assert {t["session_id"] for t in out["turns"]} <= {"s-build", "s-docs"}
    assert "keyword search" in found.content[0].text and "flaky orchard test" in found.content[0].text
    assert [(t["session_id"], t["seq"]) for t in one.structured_content["turns"]] == [("s-docs", 1)]
    (long,) = cut.structured_content["turns"]
    assert long["cut"] and long["text"].startswith("…") and long["text"].endswith("trellis")
    assert len(long["text"]) <= 1_001
    assert leaked.structured_content["turns"] == [] and GITHUB_TOKEN not in str(found.structured_content)
    assert plain.structured_content["turns"] is None and plain.structured_content["search"] is None
    assert [m["content"] for m in plain.structured_content["memories"]] == ["Worked on the orchard build"]
    says = {name: result.content[0].text for name, result in refused.items()}
    assert all(result.is_error for result in refused.values()), says
    assert says["turns"].startswith("turns: must be true or false; got 'yes'")
    assert "session_id" in says["session_id"] and "128" in says["session_id"]
    assert "session_id" in says["unknown"] and "s-none" in says["unknown"]
    assert says["query"].startswith("query: has no words")
    assert says["kinds"].startswith("kinds: is not taken with `turns` (true)")
    assert says["alone"].startswith("session_id: is taken with `turns` (true) only")


def test_memvault_recall_turns_in_text_and_json(db: Path, capsys):
    flags = ["--db", str(db), "--tenant", "t", "--scope", "proj"]
    assert cli.main(["recall", "flaky orchard", "--turns", *flags]) == 0
    text = capsys.readouterr().out
    assert "session `s-build` #1 user" in text and "keyword search" in text
    assert cli.main(["recall", "orchard", "--turns", "--session", "s-build", "--json", *flags]) == 0
    out = json.loads(capsys.readouterr().out)
    assert sorted((t["session_id"], t["seq"]) for t in out["turns"]) == [("s-build", 1), ("s-build", 2)]
    assert [t["redacted"] != [] for t in sorted(out["turns"], key=lambda t: t["seq"])] == [False, True]
    assert out["search"] == "keyword" and GITHUB_TOKEN not in json.dumps(out)
    assert cli.main(["recall", "orchard", "--turns", "--session", "s-none", *flags]) == 1
    assert "s-none" in capsys.readouterr().err


def test_the_command_line_names_its_own_flags_in_a_turn_search_refusal(db: Path, capsys):
    flags = ["--db", str(db), "--tenant", "t", "--scope", "proj"]
    assert cli.main(["recall", "orchard", "--session", "s-build", *flags]) == 2
    said = capsys.readouterr().err
    assert said.startswith("memvault: --session: is taken with --turns (true) only") and "`" not in said
    assert cli.main(["recall", "orchard", "--turns", "--kind", "fact", *flags]) == 2
    assert "--kind: is not taken with --turns (true)" in capsys.readouterr().err
