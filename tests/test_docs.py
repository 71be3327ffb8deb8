"""The README and docs/ document every tool, parameter, resource, prompt, command and setting
the server exposes, and every link between them resolves."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx2
import pytest
from conftest import REPO, server_env
from httpwire import PING, HttpServer, new_key
from mcp import Client

from memvault.server.app import build_server
from memvault.server.cli import COMMANDS
from memvault.server.config import Config
from memvault.storage.store import Store

DOCS = REPO / "docs"
README_MAX_LINES = 250  # a newcomer reads it in five minutes; the rest lives in docs/


def _page(name: str) -> str:
    return (REPO / name).read_text(encoding="utf-8")


def _section(text: str, heading: str) -> str:
    """The part of ``text`` from the line ``heading`` to the next heading of its level or higher."""
    level = heading.split(" ", 1)[0]
    start = text.index(f"\n{heading}\n")
    end = re.search(rf"\n#{{1,{len(level)}}} ", text[start + 1:])
    return text[start:start + 1 + end.start()] if end else text[start:]


def _slug(heading: str) -> str:
    """GitHub's anchor for a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _markdown_files() -> list[Path]:
    return [REPO / "README.md", *sorted(DOCS.glob("*.md"))]


@pytest.mark.asyncio
async def test_every_tool_resource_and_prompt_is_in_the_readme_and_every_parameter_in_docs_tools(db_path, one_model):
    readme, tools_page = _page("README.md"), _page("docs/tools.md")
    async with Client(build_server(Config(db=db_path))) as client:
        tools = (await client.list_tools()).tools
        resources = (await client.list_resources()).resources
        templates = (await client.list_resource_templates()).resource_templates
        prompts = (await client.list_prompts()).prompts
    names = [t.name for t in tools] + [str(r.uri) for r in resources] + [t.uri_template for t in templates]
    names += [p.name for p in prompts] + [a.name for p in prompts for a in p.arguments or []]
    missing = [f"README: {name}" for name in names if f"`{name}`" not in readme]
    for tool in tools:  # each tool's own section of docs/tools.md names every parameter it takes
        section = _section(tools_page, f"## `{tool.name}`") if f"\n## `{tool.name}`\n" in tools_page else ""
        missing += [f"docs/tools.md ## `{tool.name}`: {p}" for p in tool.input_schema["properties"]
                    if f"`{p}`" not in section]
    prompts_part = _section(tools_page, "## Prompts")
    missing += [f"docs/tools.md ## Prompts: {p.name}.{a.name}" for p in prompts for a in p.arguments or []
                if f"`{a.name}`" not in prompts_part or f"`{p.name}`" not in prompts_part]
    missing += [f"docs/tools.md: {name}" for name in names if f"`{name}`" not in tools_page]
    assert not missing, f"undocumented: {missing}"


def test_every_command_is_in_the_readme_and_in_docs_cli():
    readme, cli_page = _page("README.md"), _page("docs/cli.md")
    missing = [f"README: {c}" for c in COMMANDS if f"`memvault {c}" not in readme]
    missing += [f"docs/cli.md: {c}" for c in COMMANDS if f"`memvault {c}" not in cli_page]
    assert not missing, f"undocumented commands: {missing}"


def test_the_readme_is_short_and_holds_the_ci_test_command_word_for_word():
    readme = _page("README.md")
    assert len(readme.splitlines()) <= README_MAX_LINES
    ci = [line for line in _page(".ci/run").splitlines() if line.startswith("python3 -m venv")]
    assert len(ci) == 1 and f"\n{ci[0]}\n" in readme, "the README's test command is not what CI runs"
    assert "](docs/README.md)" in readme


def test_every_docs_page_is_linked_from_the_docs_index():
    index = _page("docs/README.md")
    pages = [p.name for p in DOCS.glob("*.md") if p.name != "README.md"]
    assert pages
    assert [name for name in pages if f"]({name})" not in index] == []


def test_every_relative_link_and_anchor_of_the_readme_and_docs_resolves():
    broken = []
    for page in _markdown_files():
        text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue  # an external URL
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            if not file.exists():
                broken.append(f"{page.name}: {target} (no such file)")
            elif anchor and file.suffix == ".md":
                body = re.sub(r"```.*?```", "", file.read_text(encoding="utf-8"), flags=re.S)
                anchors = {_slug(h) for h in re.findall(r"^#+ (.+)$", body, flags=re.M)}
                if anchor not in anchors:
                    broken.append(f"{page.name}: {target} (no such heading)")
    assert not broken, broken


def test_claude_config_example_launches_memvault_serve():
    config = json.loads((REPO / "claude_config_example.json").read_text())
    entry = config["mcpServers"]["memvault"]
    assert entry["command"].endswith("memvault") and entry["args"] == ["serve"]
    assert "MEMVAULT_SCOPE" not in entry["env"]  # the same default scope as the README's shell example
    assert all(key.startswith("MEMVAULT_") for key in entry["env"])


def _python_blocks(page: str, heading: str) -> list[str]:
    """The ```python blocks of ``page``'s section under ``heading``."""
    return re.findall(r"```python\n(.*?)```", _section(_page(page), heading), flags=re.S)


@pytest.mark.slow
def test_the_documented_sdk_examples_run_against_a_real_server_over_stdio_and_http(tmp_path):
    stdio_code, http_code = _python_blocks("docs/clients.md", "## Python SDK client")
    env = server_env(tmp_path / "unused.db")
    del env["MEMVAULT_DB"]  # the example names its own --db
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if not (Path(p) / "memvault").exists())  # as after the quick start: not on PATH
    ran = subprocess.run([sys.executable, "-c", stdio_code], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=180)
    assert ran.returncode == 0, ran.stderr
    assert "Deploys happen on Tuesdays" in ran.stdout and (tmp_path / "memvault.db").is_file()
    db = tmp_path / "team.db"
    key = new_key(db, "acme")
    server = HttpServer(db)
    try:
        code = http_code.replace("mvk_...", key).replace("http://127.0.0.1:8765/mcp", server.url)
        ran = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=180)
    finally:
        server.close()
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.startswith("The staging database is db-stg-03\n# Memory boot context")
    store = Store(db)
    try:  # stored for the key's tenant
        assert [m.content for m in store.list_memories(tenant="acme", scopes=["default"])] == [
            "The staging database is db-stg-03"]
    finally:
        store.close()


@pytest.mark.slow
def test_healthz_is_exempt_from_the_host_check_as_docs_team_server_says(tmp_path):
    readme = " ".join(_page("docs/team-server.md").split())
    assert "`GET /healthz` is exempt from the `Host` check" in readme
    db = tmp_path / "team.db"
    key = new_key(db, "acme")
    server = HttpServer(db)
    try:
        assert httpx2.get(f"{server.base}/healthz", headers={"host": "evil.com"}, timeout=10).status_code == 200
        assert server.post(key, PING, host="evil.com").status_code == 421
        assert server.post(key, PING).status_code == 200
    finally:
        server.close()


@pytest.mark.slow
@pytest.mark.parametrize("how", ["pgserver", "kill"])
def test_the_documented_commands_start_and_stop_the_test_postgresql_server(how):
    pytest.importorskip("pgserver")
    readme = " ".join(_page("docs/postgresql.md").split())
    start, stop_api, stop_kill = (re.search(pattern, readme).group(1) for pattern in (  # type: ignore[union-attr]
        r"`(\.venv/bin/python -c 'import pgserver; print[^`]*)`",
        r"`(\.venv/bin/python -c 'import pgserver; pgserver[^`]*cleanup_mode=\"stop\"[^`]*)`",
        r"`(kill -INT [^`]*)`",
    ))
    data = tempfile.mkdtemp(prefix="mv-pg-")  # short: the socket lives there
    try:
        def sh(command: str) -> subprocess.CompletedProcess:
            command = command.replace("/tmp/memvault-pg", data).replace(".venv/bin/python", sys.executable)
            return subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=120)

        started = sh(start)
        assert started.returncode == 0 and started.stdout.startswith("postgresql://"), started.stderr
        assert sh(stop_api if how == "pgserver" else stop_kill).returncode == 0
        for _ in range(100):
            if not Path(data, "postmaster.pid").exists():
                break
            time.sleep(0.1)
        assert not Path(data, "postmaster.pid").exists()  # removed by PostgreSQL when it has shut down
    finally:
        shutil.rmtree(data, ignore_errors=True)


def test_every_setting_is_a_row_of_the_configuration_table_with_its_real_flag():
    from memvault.server import cli, config

    section = _page("docs/configuration.md")
    rows = dict(re.findall(r"^\| `(MEMVAULT_[A-Z_]+)` \| `(--[a-z-]+)` \|", section, flags=re.M))
    serve = cli.COMMANDS["serve"][1]
    assert set(rows) == set(config.SETTINGS), "docs/configuration.md's table and config.SETTINGS differ"
    assert all(flag in serve for flag in rows.values()), rows
    for name, flag in rows.items():  # each flag's help names its variable
        help_text = serve[flag].get("help", "")
        assert name in help_text, (name, flag, help_text)



def test_every_docs_link_in_the_code_names_a_page_and_heading_that_exist():
    # A constant's comment points to the measurements that chose it ("docs/x.md#heading"):
    # the page and heading must exist, or the pointer leads nowhere.
    sources = [p for d in ("server", "tools", "storage", "bench") for p in (REPO / d).rglob("*.py")]
    broken, seen = [], 0
    for source in sources:
        for page, anchor in re.findall(r"\bdocs/([\w-]+\.md)(?:#([\w-]+))?", source.read_text(encoding="utf-8")):
            seen += 1
            target = DOCS / page
            if not target.exists():
                broken.append(f"{source.relative_to(REPO)}: docs/{page}")
                continue
            body = re.sub(r"```.*?```", "", target.read_text(encoding="utf-8"), flags=re.S)
            if anchor and anchor not in {_slug(h) for h in re.findall(r"^#+ (.+)$", body, flags=re.M)}:
                broken.append(f"{source.relative_to(REPO)}: docs/{page}#{anchor}")
    assert seen and not broken, broken
