"""The README documents every tool, parameter and resource the server exposes."""

from __future__ import annotations

import json

import pytest
from conftest import REPO
from mcp import Client

from memvault.server.app import build_server
from memvault.server.cli import COMMANDS
from memvault.server.config import Config



@pytest.mark.asyncio
async def test_every_tool_parameter_and_resource_is_in_the_readme(db_path):
    readme = (REPO / "README.md").read_text()
    async with Client(build_server(Config(db=db_path))) as client:
        tools = (await client.list_tools()).tools
        resources = (await client.list_resources()).resources
        templates = (await client.list_resource_templates()).resource_templates
        prompts = (await client.list_prompts()).prompts
    missing = [f"tool {t.name}" for t in tools if f"### `{t.name}`" not in readme]
    missing += [
        f"{t.name}.{p}" for t in tools for p in t.input_schema["properties"] if f"`{p}`" not in readme
    ]
    missing += [str(r.uri) for r in resources if f"`{r.uri}`" not in readme]
    missing += [t.uri_template for t in templates if f"`{t.uri_template}`" not in readme]
    missing += [f"prompt {p.name}" for p in prompts if f"`{p.name}`" not in readme]
    missing += [f"prompt {p.name}.{a.name}" for p in prompts for a in p.arguments or [] if f"`{a.name}`" not in readme]
    missing += [f"command {c}" for c in COMMANDS if f"`memvault {c}" not in readme]
    assert not missing, f"undocumented in README.md: {missing}"


def test_claude_config_example_launches_memvault_serve():
    config = json.loads((REPO / "claude_config_example.json").read_text())
    entry = config["mcpServers"]["memvault"]
    assert entry["command"].endswith("memvault") and entry["args"] == ["serve"]
    assert "MEMVAULT_SCOPE" not in entry["env"]  # the same default scope as the README's shell example
    assert all(key.startswith("MEMVAULT_") for key in entry["env"])
