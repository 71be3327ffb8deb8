"""A command refused by its settings or its input says so before importing what it would have run: a team server
before the MCP SDK and the HTTP transport, a store command before the tools. A new process each, as a user, a
supervisor or a hook starts it, exiting with the flag or field named."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest
from conftest import server_env

pytestmark = pytest.mark.slow

RUN = """
import json, sys
from memvault.server import cli
code = cli.main(sys.argv[1:])
sys.stderr.flush()
heavy = ("mcp", "memvault.server.http", "memvault.server.app", "memvault.server.web", "memvault.tools.handlers")
print(json.dumps([code, sorted(m for m in heavy if m in sys.modules)]))
"""

HTTP = ["serve", "--transport", "http", "--port", "1"]


@pytest.mark.parametrize(("flags", "named"), [
    (["--trusted-proxy", "*"], "--trusted-proxy"),
    (["--trusted-proxy", "10.0.0.0/33"], "--trusted-proxy"),
    (["--auth", "oauth", "--oauth-issuer", "https://issuer.example", "--oauth-resource", "http://127.0.0.1:9/mcp",
      "--oauth-jwks-url", "http://10.0.0.5/jwks"], "--oauth-jwks-url"),
    (["--host", "0.0.0.0", "--auth", "none"], "--auth none"),
    (["--auth", "keys", "--tenant", "acme"], "--tenant"),
    (["--rate-limit", "fast"], "--rate-limit"),
])
def test_a_refused_http_setting_is_said_before_the_server_is_imported(tmp_path, flags: list[str], named: str) -> None:
    run = subprocess.run([sys.executable, "-c", RUN, *HTTP, *flags], env=server_env(tmp_path / "m.db"),
                         stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    code, imported = json.loads(run.stdout.splitlines()[-1])
    assert code == 2 and named in run.stderr and "Traceback" not in run.stderr, run.stderr
    assert imported == [], imported
    assert not (tmp_path / "m.db").exists()  # nothing was created either


def test_a_good_http_setting_still_reaches_the_server(tmp_path) -> None:
    """The check itself: a port already taken is only found by the server, which it imports for that."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = subprocess.run([sys.executable, "-c", RUN, "serve", "--transport", "http", "--port", str(port)],
                             env=server_env(tmp_path / "m.db"), stdin=subprocess.DEVNULL, capture_output=True,
                             text=True, timeout=120)
    code, imported = json.loads(run.stdout.splitlines()[-1])
    assert code == 1 and str(port) in run.stderr, run.stderr
    assert imported == ["mcp", "memvault.server.app", "memvault.server.http"], imported


@pytest.mark.parametrize(("argv", "code", "said"), [
    (["recall", "port"], 1, "no database at"),
    (["list"], 1, "no database at"),
    (["import", "{folder}/missing.jsonl"], 2, "does not exist: nothing to import"),
    (["import", "{folder}"], 2, "is a folder, not a file"),
    (["import"], 2, "give the JSON lines file"),
    (["ui", "--no-browser"], 1, "no database at"),
])
def test_a_store_command_refused_before_the_store_opens_imports_no_tool(tmp_path, argv: list[str], code: int,
                                                                          said: str) -> None:
    argv = [arg.format(folder=tmp_path) for arg in argv]
    run = subprocess.run([sys.executable, "-c", RUN, *argv], env=server_env(tmp_path / "m.db"),
                         stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    got, imported = json.loads(run.stdout.splitlines()[-1])
    assert got == code and said in run.stderr and "Traceback" not in run.stderr, run.stderr
    assert imported == [], imported
    assert not (tmp_path / "m.db").exists()


@pytest.mark.parametrize(("flags", "said"), [
    (["--auth", "keys"], "--auth, --oauth-* and --allowed-* are taken with --allow-network only"),
    (["--allow-network", "--host", "0.0.0.0", "--auth", "none"], "--auth none"),
    (["--allow-network", "--auth", "oauth", "--oauth-issuer", "https://issuer.example", "--oauth-resource",
      "http://127.0.0.1:9/mcp", "--oauth-jwks-url", "http://10.0.0.5/jwks"], "--oauth-jwks-url"),
])
def test_a_refused_setting_of_the_memory_view_is_said_before_its_server_is_imported(tmp_path, empty_sqlite,
                                                                                   flags: list[str], said: str) -> None:
    db = tmp_path / "m.db"
    shutil.copy(empty_sqlite, db)  # a store to show: the settings are what is refused
    run = subprocess.run([sys.executable, "-c", RUN, "ui", "--no-browser", *flags], env=server_env(db),
                         stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    got, imported = json.loads(run.stdout.splitlines()[-1])
    assert got == 2 and said in run.stderr and "Traceback" not in run.stderr, run.stderr
    assert imported == [], imported


def test_a_store_command_that_runs_imports_the_tools(tmp_path) -> None:
    run = subprocess.run([sys.executable, "-c", RUN, "remember", "The staging database listens on port 5433"],
                         env=server_env(tmp_path / "m.db"), stdin=subprocess.DEVNULL, capture_output=True,
                         text=True, timeout=120)
    got, imported = json.loads(run.stdout.splitlines()[-1])
    assert got == 0 and "stored" in run.stdout.lower(), (run.stdout, run.stderr)
    assert imported == ["memvault.tools.handlers"], imported
    assert (tmp_path / "m.db").exists()
