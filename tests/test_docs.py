"""The README documents every tool, parameter and resource the server exposes."""

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


def _readme_python(after: str) -> list[str]:
    """The ```python blocks of the README paragraph that starts with ``after``, up to the next heading."""
    readme = (REPO / "README.md").read_text()
    part = readme[readme.index(after):]
    part = part[:part.index("\n## ")]
    return re.findall(r"```python\n(.*?)```", part, flags=re.S)


@pytest.mark.slow
def test_the_readme_sdk_examples_run_against_a_real_server_over_stdio_and_http(tmp_path):
    stdio_code, http_code = _readme_python("**Python SDK client.**")
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
def test_healthz_is_exempt_from_the_host_check_as_the_readme_says(tmp_path):
    readme = " ".join((REPO / "README.md").read_text().split())
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
def test_the_readme_commands_start_and_stop_the_test_postgresql_server(how):
    pytest.importorskip("pgserver")
    readme = " ".join((REPO / "README.md").read_text().split())
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


def test_every_setting_is_a_row_of_the_readme_configuration_table_with_its_real_flag():
    from memvault.server import cli, config

    readme = (REPO / "README.md").read_text()
    section = readme.split("\n## Configuration\n", 1)[1].split("\n## ", 1)[0]
    rows = dict(re.findall(r"^\| `(MEMVAULT_[A-Z_]+)` \| `(--[a-z-]+)` \|", section, flags=re.M))
    serve = cli._parser()[1]["serve"]
    assert set(rows) == set(config.SETTINGS), "README's table and config.SETTINGS differ"
    assert all(flag in serve._option_string_actions for flag in rows.values()), rows
    for name, flag in rows.items():  # each flag's help names its variable
        help_text = serve._option_string_actions[flag].help or ""
        assert name in help_text, (name, flag, help_text)
