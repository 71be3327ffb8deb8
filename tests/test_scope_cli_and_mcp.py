"""A scope reads the same by the CLI and over MCP (trial verify63 N9): a typed ``--scope S`` is the tools'
``scope: "S"`` (that scope only), and ``MEMVAULT_SCOPE=S`` without ``--scope`` is the configured scope of a
server called without ``scope`` (S plus ``global``). Each read the CLI has (``recall`` with words, ``recall ""``
with a filter, ``list``) against its MCP twin over stdio, on one store."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from wire import StdioServer

from memvault.server import cli

MEMORIES = [  # (scope, content)
    ("personal", "The dentist appointment is on Friday at 3 pm"),
    ("personal", "My company holiday request for August is approved"),
    ("global", "The company holiday is on 24 December"),
    ("global", "The office closes at 18:00 on company holidays"),
    ("default", "The company holiday calendar lives in the HR wiki"),
    ("work", "Company holiday shifts are covered by the on-call rota"),
]
# (CLI arguments after the command, the tool's arguments): the twin reads of each command
READS = [
    (["recall", "company holiday", "--limit", "10"], {"query": "company holiday", "limit": 10}),
    (["recall", "when is the dentist?"], {"query": "when is the dentist?"}),
    (["recall", "", "--kind", "fact", "--limit", "10"], {"query": "", "kinds": ["fact"], "limit": 10}),
    (["list", "--limit", "10", "--kind", "fact", "--kind", "decision"],
     {"query": "", "limit": 10, "kinds": ["fact", "decision"]}),
]


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("scopes") / "m.db"
    for scope, content in MEMORIES:
        assert cli.main(["remember", content, "--db", str(db), "--scope", scope, "--json"]) == 0
    return db


@pytest.fixture(scope="module")
def server(stored: Path) -> Iterator[StdioServer]:
    """One server on the store for the typed-scope reads: each names its scope, none writes."""
    served = StdioServer(stored)
    yield served
    served.close()


def cli_ids(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[list[str], list[str]]:
    capsys.readouterr()
    assert cli.main([*argv, "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    return [m["id"] for m in found["memories"]], found["scopes"]


def mcp_ids(server: StdioServer, arguments: dict[str, object]) -> tuple[list[str], list[str]]:
    result = server.call_tool("recall", arguments)
    assert not result.get("isError"), result
    found = result["structuredContent"]
    return [m["id"] for m in found["memories"]], found["scopes"]


@pytest.mark.usefixtures("one_model")
@pytest.mark.parametrize("scope", ["personal", "global", "default", "work", "nowhere"])
def test_a_typed_scope_reads_as_the_tools_scope(stored, server, capsys, scope):
    for argv, arguments in READS:
        typed = cli_ids(capsys, [*argv, "--db", str(stored), "--scope", scope])
        assert typed == mcp_ids(server, {**arguments, "scope": scope}), argv
        assert typed[1] == [scope]


@pytest.mark.usefixtures("one_model")
@pytest.mark.parametrize("scope", ["personal", "default", "work"])
def test_the_configured_scope_reads_itself_and_global_by_both(stored, capsys, monkeypatch, scope):
    server = StdioServer(stored, MEMVAULT_SCOPE=scope)
    monkeypatch.setenv("MEMVAULT_SCOPE", scope)
    try:
        for argv, arguments in READS:
            configured = cli_ids(capsys, [*argv, "--db", str(stored)])
            assert configured == mcp_ids(server, arguments), argv
            assert configured[1] == [scope, "global"]
    finally:
        server.close()
