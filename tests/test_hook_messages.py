"""What a hook says on stderr: whatever field of its input (a path, a session id, the event named,
a tool's name, its command-line flags) a message quotes, no credential is printed; and a transcript
path that is no regular file is said for what it is. Run as Claude Code runs a hook: a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import server_env

from memvault.storage.store import Store

HOOK = [sys.executable, "-m", "memvault.server", "hook", "claude-code"]
# Credentials of several kinds, each as the label redaction writes for it
TOKENS = [("ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A", "[GitHub token]"),
          ("sk-proj-" + "Tq8vLm2Xw9Rb4Kc7Nd1Fh6Jp3Ys5Ue0Gz" * 2, "[OpenAI"),
          ("xoxb-" + "1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "[Slack token]"),
          ("AKIA" + "QW7ZK3LMN8PRT2VX", "[AWS access key]")]


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir()
    values = server_env(tmp_path / "m.db", HOME=str(home), XDG_STATE_HOME=str(home / ".state"))
    values.pop("CLAUDE_CONFIG_DIR", None)
    return values


def _hook(env: dict[str, str], argv: list[str], stdin: dict[str, object] | str) -> subprocess.CompletedProcess[str]:
    text = stdin if isinstance(stdin, str) else json.dumps(stdin)
    return subprocess.run([*HOOK, *argv], input=text, env=env, capture_output=True, text=True, timeout=120)


def _cases(token: str, tmp_path: Path) -> list[tuple[list[str], dict[str, object] | str]]:
    """Hook runs whose message quotes ``token`` from one field or flag of the input."""
    missing = f"/tmp/x/{token}.jsonl"
    return [
        (["Stop"], {"session_id": "s1", "transcript_path": missing}),  # the trial's case
        (["PostToolUse"], {"session_id": "s1", "transcript_path": f"/tmp/{token}/t.jsonl", "tool_name": token}),
        (["SessionEnd"], {"session_id": token, "transcript_path": missing, "cwd": f"/home/{token}"}),
        (["Stop"], {"session_id": "s1", "transcript_path": missing, "hook_event_name": token}),
        ([token], {"session_id": "s1"}),
        (["SessionStart"], {"session_id": token, "cwd": "/tmp"}),
        (["Stop", "--db", str(tmp_path / token / "m.db")], {"session_id": "s1", "transcript_path": missing}),
        (["Stop"], f'{{"session_id": "{token}", "transcript_path": '),  # not JSON: the text quoted in the error
    ]


@pytest.mark.parametrize("token,label", TOKENS, ids=[label for _, label in TOKENS])
def test_no_hook_message_prints_a_credential_from_its_input(env, tmp_path, token, label):
    said = []
    for argv, stdin in _cases(token, tmp_path):
        result = _hook(env, argv, stdin)
        assert result.returncode in (0, 1), result.stderr  # never 2: that would block the session
        assert token not in result.stderr and token not in result.stdout, (argv, result.stderr)
        assert token[:12] not in result.stderr  # not a prefix of it either
        said.append(result.stderr)
    assert label in said[0] and "is not there" in said[0]  # said, with the credential's kind in its place
    assert all(s.strip() for s in said)  # each run said something


def test_a_credential_given_before_the_hook_command_is_redacted_too(env, tmp_path):
    token = TOKENS[0][0]
    argv = [sys.executable, "-m", "memvault.server", "--db", str(tmp_path / "m.db"), "hook", "claude-code", "Stop"]
    result = subprocess.run(argv, input=json.dumps({"session_id": "s1", "transcript_path": f"/x/{token}"}), env=env,
                            capture_output=True, text=True, timeout=120)
    assert token not in result.stderr and "[GitHub token]" in result.stderr


def _fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.jsonl"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("make,said", [
    (lambda tmp_path: Path("/dev/zero"), "is not a regular file (it is a device)"),
    (lambda tmp_path: Path("/dev/null"), "is not a regular file (it is a device)"),
    (_fifo, "is not a regular file (it is a named pipe (FIFO))"),
    (lambda tmp_path: tmp_path, "is a folder"),
    (lambda tmp_path: tmp_path / "gone.jsonl", "is not there"),
], ids=["dev-zero", "dev-null", "fifo", "folder", "missing"])
def test_a_transcript_path_that_is_no_file_is_said_for_what_it_is_and_nothing_is_stored(env, tmp_path, make, said):
    path = make(tmp_path)
    result = _hook(env, ["Stop"], {"session_id": "s1", "transcript_path": str(path)})
    assert result.returncode == 0 and result.stdout == ""
    assert f"transcript_path: {path} {said}: nothing captured" in result.stderr
    store = Store(env["MEMVAULT_DB"])
    try:
        assert store.episodes.sessions(tenant="default") == []
    finally:
        store.close()


@pytest.mark.parametrize(("exc", "said"), [
    (PermissionError(13, "Permission denied", "/data/m.db"), "Permission denied (/data/m.db)"),
    (RuntimeError("the queue closed"), "a memvault fault (the queue closed); please report it"),
    (KeyError("x"), "a memvault fault ('x'); please report it"),
    (ValueError(), "a memvault fault (it gave no message); please report it"),
])
def test_a_hook_failure_is_said_without_a_class_name(exc, said):
    from memvault.server.cli_io import failure_words as hook_failure
    from memvault.storage.errors import Busy

    assert hook_failure(exc).startswith(said) and type(exc).__name__ not in hook_failure(exc)
    assert "Busy" not in hook_failure(Busy("the database is busy; nothing was written"))


@pytest.mark.parametrize("event", ["SessionStart", "UserPromptSubmit", "Stop"])
@pytest.mark.parametrize("given", ["MEMVAULT_DB", "--db"])
@pytest.mark.parametrize("path", ["~/x.db", "~/nope/x.db"])
def test_a_hooks_message_on_the_database_names_where_its_value_came_from(env, event, given, path):
    env = {**env, "MEMVAULT_DB": path} if given == "MEMVAULT_DB" else {k: v for k, v in env.items() if k != "MEMVAULT_DB"}
    argv = [event] if given == "MEMVAULT_DB" else [event, "--db", path]
    done = _hook(env, argv, {"session_id": "s1", "cwd": "/tmp", "prompt": "where is the VPN?",
                             "transcript_path": "/nowhere/t.jsonl"})
    said = [line for line in done.stderr.splitlines() if "database" in line]
    assert done.returncode in (0, 1) and (said or event == "Stop"), done.stderr
    other = "--db" if given == "MEMVAULT_DB" else "MEMVAULT_DB"
    for line in said:
        assert f"{given}: " in line and f"fix {given}" in line and other not in line, line
    assert not (Path(env["HOME"]) / "x.db").exists() or event == "Stop"
