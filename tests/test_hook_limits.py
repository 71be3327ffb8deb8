"""What a hook says and makes at its edges (issue 26): one true message for a bad session id with a
missing transcript, no database made by a hook that only reads, SessionStart's context kept under what
Claude Code shows whole, and `setup --write` refusing a settings file with comments for every JSON client."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import server_env
from fakes import FakeEmbedder

from memvault.server import hooks
from memvault.server.capture import HookInputError, capture
from memvault.server.config import Config
from memvault.storage.store import Store


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Config:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return Config(db=tmp_path / "m.db")


@pytest.mark.parametrize("end", [False, True])
@pytest.mark.parametrize("where", ["missing.jsonl", "folder"])
def test_a_bad_session_id_with_a_missing_transcript_says_nothing_was_captured_once(config, tmp_path, caplog, end,
                                                                                   where):
    (tmp_path / "folder").mkdir()
    store = Store(config.db, FakeEmbedder())  # type: ignore[arg-type]
    try:
        with pytest.raises(HookInputError) as refused:
            capture(store, config, "claude-code", {"session_id": "bad id!", "transcript_path": str(tmp_path / where)},
                    end=end)
    finally:
        store.close()
    assert "nothing captured" in caplog.text
    assert "were captured" not in str(refused.value) and str(refused.value).startswith("session_id: ")


def test_a_bad_session_id_with_a_transcript_still_says_its_sessions_were_captured(config, tmp_path):
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(json.dumps({"type": "user", "uuid": "u1", "sessionId": "good-1", "cwd": "/x",
                                      "timestamp": "2025-12-01T09:00:00Z",
                                      "message": {"role": "user", "content": "hello"}}) + "\n")
    store = Store(config.db, FakeEmbedder())  # type: ignore[arg-type]
    try:
        with pytest.raises(HookInputError, match="the transcript's sessions were captured"):
            capture(store, config, "claude-code", {"session_id": "bad id!", "transcript_path": str(transcript)},
                    end=False)
        assert store.episodes.session(tenant="default", session_id="good-1").turns == 1
    finally:
        store.close()


@pytest.mark.parametrize("event", ["SessionStart", "UserPromptSubmit"])
@pytest.mark.parametrize("name", ["typo.db", "m.db.nope", "notes.txt"])
def test_a_hook_that_only_reads_makes_no_database_and_says_there_is_none(tmp_path, monkeypatch, caplog, event,
                                                                         name):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    data = {"session_id": "s-1", "cwd": "/x", "prompt": "where is the staging database?"}
    assert hooks.run(Config(db=tmp_path / name), "claude-code", event, data) is None  # nothing printed: exit 0
    assert f"there is no database at {tmp_path / name} yet" in caplog.text
    assert list(tmp_path.iterdir()) == []  # no database, no -wal, no folder


def test_a_capture_hook_still_makes_the_database_in_a_folder_that_is_there(config, tmp_path):
    hooks.run(config, "claude-code", "Stop", {"session_id": "s-1", "transcript_path": str(tmp_path / "none.jsonl")})
    assert Path(config.db).exists()


def test_session_start_over_the_hooks_limit_is_made_again_smaller_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    store = Store(tmp_path / "m.db", FakeEmbedder())  # type: ignore[arg-type]
    try:
        for i in range(400):
            store.remember(tenant="default", scope="default", content=f"Service {i} of the fleet listens on port "
                           f"{9000 + i} and logs to /var/log/service-{i}/current with rotation every {i % 7 + 1} days")
    finally:
        store.close()
    small = Config(db=tmp_path / "m.db", boot_tokens=1_000)
    large = Config(db=tmp_path / "m.db", boot_tokens=50_000)
    data = {"session_id": "s-1", "cwd": "/home/dev/fleet"}
    kept = hooks.run(small, "claude-code", "SessionStart", data)["hookSpecificOutput"]["additionalContext"]  # type: ignore[index]
    cut = hooks.run(large, "claude-code", "SessionStart", data)["hookSpecificOutput"]["additionalContext"]  # type: ignore[index]
    assert len(kept) < hooks.CONTEXT_MAX_CHARS and "MEMVAULT_BOOT_TOKENS" not in kept
    assert hooks.CONTEXT_MAX_CHARS * 0.6 < len(cut) <= hooks.CONTEXT_MAX_CHARS
    assert "not the 50,000 of MEMVAULT_BOOT_TOKENS" in cut and cut.startswith("# Memory boot context")


@pytest.mark.parametrize("client", ["zed", "cursor", "windsurf", "gemini-cli"])
def test_setup_write_refuses_settings_with_comments_exits_1_and_writes_nothing(tmp_path, client):
    home = tmp_path / "home"
    env = server_env(tmp_path / "m.db", HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"))
    shown = subprocess.run([sys.executable, "-m", "memvault.server", "setup", client, "--json"], env=env,
                           capture_output=True, text=True, timeout=120)
    path = Path(json.loads(shown.stdout)["path"])
    path.parent.mkdir(parents=True, exist_ok=True)
    commented = '// my settings\n{\n  "theme": "One Dark" // mine\n}\n'
    path.write_text(commented)
    done = subprocess.run([sys.executable, "-m", "memvault.server", "setup", client, "--write"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "nothing was written" in done.stderr
    assert path.read_text() == commented
