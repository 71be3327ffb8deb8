"""A third-party client: the MCP Inspector CLI drives ``memvault serve`` over stdio."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from conftest import SERVE_AS_SHIPPED as SERVE, server_env
from npx import npx_command

pytestmark = pytest.mark.slow

# Versions after 0.15 need Node >= 22; this project's machines run Node 20.
INSPECTOR = "@modelcontextprotocol/inspector@0.15.0"


def inspector(db, *args: str) -> dict:
    env = server_env(db)
    cmd = [npx_command(INSPECTOR, "mcp-inspector"), "--cli", *SERVE, "-e", f"MEMVAULT_DB={db}", *args]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


# Each Inspector call starts Node and a server (3-4 s): remembering and recalling are the next
# test's, with arguments of each JSON type the schema declares.
@pytest.mark.skipif(shutil.which("npx") is None, reason="npx (Node.js) is not installed")
def test_inspector_lists_the_tools(db_path):
    listed = inspector(db_path, "--method", "tools/list")
    assert {t["name"] for t in listed["tools"]} == {"remember", "recall", "supersede", "forget", "confirm"}


@pytest.mark.skipif(shutil.which("npx") is None, reason="npx (Node.js) is not installed")
def test_inspector_sends_integers_lists_and_booleans_the_schema_declares(db_path):
    stored = inspector(
        db_path, "--method", "tools/call", "--tool-name", "remember", "--tool-arg",
        "content=Deploys are frozen during the last week of December", "--tool-arg", "importance=8",
        "--tool-arg", 'tags=["ops","release"]', "--tool-arg", "kind=decision",
    )
    assert not stored.get("isError"), stored
    found = inspector(
        db_path, "--method", "tools/call", "--tool-name", "recall", "--tool-arg", "query=when are deploys frozen",
        "--tool-arg", "limit=3", "--tool-arg", "include_history=true",
    )
    top = found["structuredContent"]["memories"][0]
    assert (top["id"], top["importance"], sorted(top["tags"])) == (stored["structuredContent"]["id"], 8, ["ops", "release"])
    listed = inspector(
        db_path, "--method", "tools/call", "--tool-name", "recall", "--tool-arg", 'kinds=["decision"]',
        "--tool-arg", "limit=1",
    )
    assert [m["kind"] for m in listed["structuredContent"]["memories"]] == ["decision"]
