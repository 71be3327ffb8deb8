"""``memvault hook claude-code EVENT`` run as Claude Code runs it: a real-format payload piped into a
subprocess; what crosses stdout, the exit code, and what the store holds afterwards. Also
``import --from claude-code`` and ``setup claude-code --hooks``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import file_bytes, server_env

from memvault.storage.store import Store

DATA = Path(__file__).parent / "data"
SESSION = "5d0c7a51-2f3e-4b8a-9c1d-0e6f7a8b9c01"
CWD = "/home/dev/projects/shop"
TOKEN = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A"  # the fixture's credential
HOOK = [sys.executable, "-m", "memvault.server", "hook", "claude-code"]
MEMORIES = [
    ("The staging database listens on port 5433, not the default 5432.", "fact"),
    ("Prefer pytest fixtures over setUp methods in this repository.", "preference"),
    ("We decided to round the cart total once, after all discounts.", "decision"),
]


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """A user with an empty home (state, settings) and a database at tmp_path/m.db."""
    home = tmp_path / "home"
    home.mkdir()
    extra = {"HOME": str(home), "XDG_STATE_HOME": str(home / ".local" / "state")}
    values = server_env(tmp_path / "m.db", **extra)
    values.pop("CLAUDE_CONFIG_DIR", None)
    return values


@pytest.fixture
def stored(env: dict[str, str], real_embedder) -> list[str]:  # type: ignore[no-untyped-def]
    store = Store(env["MEMVAULT_DB"], real_embedder)
    try:
        return [store.remember(tenant="default", scope="default", content=c, kind=k).id for c, k in MEMORIES]
    finally:
        store.close()


def _payload(event: str, transcript: Path | None = None, **fields: object) -> dict[str, object]:
    """A hook input as Claude Code's hooks reference documents it (docs/hooks.md)."""
    return {"session_id": SESSION, "transcript_path": str(transcript or Path("/nowhere/t.jsonl")), "cwd": CWD,
            "permission_mode": "default", "hook_event_name": event, **fields}


def _hook(
    env: dict[str, str], event: str, stdin: dict[str, object] | str
) -> subprocess.CompletedProcess[str]:
    text = stdin if isinstance(stdin, str) else json.dumps(stdin)
    return subprocess.run([*HOOK, event], input=text, env=env, capture_output=True, text=True, timeout=180)


def _context(result: subprocess.CompletedProcess[str], event: str) -> str:
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["hookSpecificOutput"]["hookEventName"] == event
    return document["hookSpecificOutput"]["additionalContext"]


def _open(env: dict[str, str]) -> Store:
    return Store(env["MEMVAULT_DB"])


def test_session_start_prints_the_boot_context_led_by_the_working_directorys_project(env, stored):
    store = _open(env)
    try:
        shop = store.remember(tenant="default", scope="default", content="The shop project's checkout "
                              "service is written in Go", importance=2).id
    finally:
        store.close()
    result = _hook(env, "SessionStart", _payload("SessionStart", source="startup", model="claude-sonnet-4-5"))
    context = _context(result, "SessionStart")
    assert context.startswith("# Memory boot context") and MEMORIES[0][0] in context
    assert context.index("checkout service") < context.index(MEMORIES[0][0])  # cwd .../shop: the task
    store = _open(env)
    try:  # a session is opened by its first capture: a client that never captures leaves none behind
        assert store.episodes.sessions(tenant="default") == []
        assert store.get(tenant="default", id=shop).content is not None
    finally:
        store.close()


def test_user_prompt_submit_gives_a_sure_memory_and_nothing_for_an_unrelated_prompt(env, stored):
    asked = _hook(env, "UserPromptSubmit",
                  _payload("UserPromptSubmit", prompt="Which port does the staging database listen on?"))
    context = _context(asked, "UserPromptSubmit")
    assert MEMORIES[0][0] in context and "Degraded: keyword search only" in context  # said, as decided
    assert MEMORIES[1][0] not in context  # only what surely answers
    unrelated = _hook(env, "UserPromptSubmit",
                      _payload("UserPromptSubmit", prompt="Write a haiku about autumn leaves falling"))
    assert (unrelated.returncode, unrelated.stdout) == (0, "")


def test_a_prompt_is_redacted_before_it_is_searched_and_episodes_are_left_to_the_boot_context(env, stored):
    store = _open(env)
    try:  # an episode quoting the question (as a session's digest does) answers nothing
        store.remember(tenant="default", scope="default", kind="episode",
                       content='Asked: "Which port does the staging database listen on?"')
    finally:
        store.close()
    for tail in ("", " <private>plans for the migration</private>", f" (my token is {TOKEN})"):
        asked = _hook(env, "UserPromptSubmit",
                      _payload("UserPromptSubmit", prompt=f"Which port does the staging database listen on?{tail}"))
        assert asked.stdout, (tail, asked.stderr)
        context = _context(asked, "UserPromptSubmit")
        assert MEMORIES[0][0] in context and "Asked:" not in context, tail
        assert TOKEN not in asked.stdout and "plans for the migration" not in asked.stdout


def test_capture_then_session_end_stores_the_turns_in_order_and_the_digest(env, tmp_path):
    lines = (DATA / "claude_code_session.jsonl").read_bytes().splitlines(keepends=True)
    transcript = tmp_path / "projects" / "-home-dev-projects-shop" / f"{SESSION}.jsonl"
    transcript.parent.mkdir(parents=True)
    transcript.write_bytes(b"".join(lines[:7]))  # Claude Code has written up to the Grep call
    for event in ("SessionStart", "PostToolUse"):
        result = _hook(env, event, _payload(event, transcript, tool_name="Grep", tool_input={},
                                            tool_response={}))
        assert result.returncode == 0, result.stderr
    transcript.write_bytes(b"".join(lines))
    for event, extra in (("PostToolUse", {"tool_name": "Bash"}), ("Stop", {"stop_hook_active": False}),
                         ("PreCompact", {"trigger": "auto", "custom_instructions": ""}),
                         ("SessionEnd", {"reason": "prompt_input_exit"})):
        result = _hook(env, event, _payload(event, transcript, **extra))
        assert (result.returncode, result.stdout) == (0, ""), result.stderr
    store = _open(env)
    try:
        session = store.episodes.session(tenant="default", session_id=SESSION)
        turns = store.episodes.turns(tenant="default", session_id=SESSION)
        digest = store.get(tenant="default", id=session.digest_id)  # type: ignore[arg-type]
    finally:
        store.close()
    assert [(t.role, t.tool) for t in turns] == [
        ("user", None), ("assistant", None), ("assistant", "Grep"), ("tool", "Grep"), ("assistant", "Bash"),
        ("tool", "Bash"), ("user", None), ("assistant", None)]
    assert [t.seq for t in turns] == list(range(1, 9)) and session.ended_at is not None
    assert digest.kind == "episode" and session.cwd == CWD
    said = turns[6]
    assert "[GitHub token]" in said.text and TOKEN not in said.text and "4242" not in said.text
    assert set(said.redacted) >= {"GitHub token", "private"}
    data = file_bytes(Path(env["MEMVAULT_DB"]))
    assert TOKEN.encode() not in data and b"my card ends 4242" not in data
    # The offsets lost (a new state folder): the transcript is read again, and nothing is stored twice.
    lost = {**env, "XDG_STATE_HOME": str(tmp_path / "other-state")}
    again = _hook(lost, "Stop", _payload("Stop", transcript))
    assert again.returncode == 0, again.stderr
    store = _open(env)
    try:
        assert store.episodes.turns(tenant="default", session_id=SESSION) == turns
    finally:
        store.close()


def test_codex_gets_the_boot_context_at_session_start_and_has_no_capture_hook(env, stored):
    codex = [sys.executable, "-m", "memvault.server", "hook", "codex"]
    start = subprocess.run([*codex, "SessionStart"], env=env, capture_output=True, text=True, timeout=120,
                           input=json.dumps(_payload("SessionStart", source="startup")))
    assert MEMORIES[0][0] in _context(start, "SessionStart")
    store = _open(env)
    try:  # Codex cannot capture: no empty session is left open
        assert store.episodes.sessions(tenant="default") == []
    finally:
        store.close()
    stop = subprocess.run([*codex, "Stop"], input=json.dumps(_payload("Stop")), env=env, capture_output=True,
                          text=True, timeout=60)
    assert (stop.returncode, stop.stdout) == (1, "")
    assert "codex hooks are SessionStart, UserPromptSubmit" in stop.stderr


def test_hooks_never_print_a_credential_even_one_a_memory_was_allowed_to_keep(env, real_embedder):
    store = Store(env["MEMVAULT_DB"], real_embedder, allow_secrets=True)
    try:
        store.remember(tenant="default", scope="default", content=f"The deploy bot token is {TOKEN}")
    finally:
        store.close()
    start = _hook(env, "SessionStart", _payload("SessionStart", source="startup"))
    asked = _payload("UserPromptSubmit", prompt="What is the deploy bot token?")
    prompt = _hook(env, "UserPromptSubmit", asked)
    assert "deploy bot token" in _context(start, "SessionStart")
    for result in (start, prompt):
        assert result.returncode == 0 and TOKEN not in result.stdout and TOKEN not in result.stderr


@pytest.mark.parametrize(("argv", "stdin", "said"), [
    (["SessionStart"], "not json", "stdin: not JSON"),
    (["SessionStart"], "", "stdin: not JSON"),
    (["SessionStart"], "[1, 2]", "a JSON object is expected"),
    (["SessionStart"], json.dumps({"hook_event_name": "SessionStart"}), "session_id"),
    (["UserPromptSubmit"], json.dumps(_payload("UserPromptSubmit")), "prompt"),
    (["PostToolUse"], json.dumps({**_payload("PostToolUse"), "transcript_path": None}), "transcript_path"),
    (["Stop"], json.dumps(_payload("SessionEnd")),
     "hook_event_name: is 'SessionEnd' but the command says Stop"),
    (["Notification"], json.dumps(_payload("Notification")), "EVENT: claude-code hooks are"),
    (["SessionStart", "--model-dir", "/m"], json.dumps(_payload("SessionStart")), "--model-dir"),
    (["SessionStart", "--no-such-flag"], json.dumps(_payload("SessionStart")), "--no-such-flag"),
])
def test_a_bad_payload_or_command_is_a_non_blocking_error_said_on_stderr(env, argv, stdin, said):
    result = subprocess.run([*HOOK, *argv], input=stdin, env=env, capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stdout) == (1, "")  # 1, never 2: Claude Code would block on 2
    assert said in result.stderr


def test_a_bad_setting_is_a_non_blocking_error_too(env):
    result = _hook({**env, "MEMVAULT_BOOT_TOKENS": "lots"}, "SessionStart", _payload("SessionStart"))
    assert (result.returncode, result.stdout) == (1, "") and "MEMVAULT_BOOT_TOKENS" in result.stderr


def _import(env: dict[str, str], path: Path) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "memvault.server", "import", "--from", "claude-code", str(path), "--json"]
    return subprocess.run(argv, env=env, capture_output=True, text=True, timeout=180)


def _turns(store: Store, session_id: str) -> list[tuple[int, str, str]]:
    return [(t.seq, t.role, t.text) for t in store.episodes.turns(tenant="default", session_id=session_id)]


def _sessions_and_turns(env: dict[str, str]) -> dict[str, list[tuple[int, str, str]]]:
    store = _open(env)
    try:
        return {s.id: _turns(store, s.id)
                for s in store.episodes.sessions(tenant="default")}
    finally:
        store.close()


def test_import_twice_gives_the_same_sessions_and_turns_and_a_hook_adds_none_of_them_again(env, tmp_path):
    root = tmp_path / "projects"
    (root / "-home-dev-projects-shop").mkdir(parents=True)
    (root / "-home-dev-projects-other").mkdir()
    original = (DATA / "claude_code_session.jsonl").read_text(encoding="utf-8")
    first = root / "-home-dev-projects-shop" / f"{SESSION}.jsonl"
    first.write_text(original, encoding="utf-8")
    other = "0a1b2c3d-0000-4000-8000-00000000beef"
    (root / "-home-dev-projects-other" / f"{other}.jsonl").write_text(
        original.replace(SESSION, other).replace("00000000-0000-4000-8000", "11111111-0000-4000-8000"),
        encoding="utf-8")
    once = _import(env, root)
    assert once.returncode == 0, once.stderr
    report = json.loads(once.stdout)
    counts = (report["files"], report["sessions"], report["turns_added"], report["turns_already_there"])
    assert counts == (2, 2, 16, 0)
    assert report["redacted"] == ["GitHub token", "private"]
    after_once = _sessions_and_turns(env)
    assert sorted(after_once) == sorted([SESSION, other]) and len(after_once[SESSION]) == 8
    twice = _import(env, root)
    assert json.loads(twice.stdout)["turns_added"] == 0 and "nothing new" in twice.stderr
    assert _sessions_and_turns(env) == after_once
    end = _hook(env, "SessionEnd", _payload("SessionEnd", first, reason="other"))
    assert end.returncode == 0, end.stderr
    assert _sessions_and_turns(env) == after_once  # the same entries, the same refs: nothing twice
    assert TOKEN not in once.stdout + once.stderr + twice.stdout + twice.stderr


def _setup(env: dict[str, str], *more: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "memvault.server", "setup", "claude-code", "--hooks", *more],
                          env=env, capture_output=True, text=True, timeout=60)


def test_setup_hooks_merges_into_the_settings_keeps_a_backup_and_a_second_run_changes_nothing(env):
    settings = Path(env["HOME"]) / ".claude" / "settings.json"
    settings.parent.mkdir()
    theirs = {"type": "command", "command": "prettier --write \"$CLAUDE_PROJECT_DIR\""}
    original = json.dumps({"model": "opus",
                           "hooks": {"PostToolUse": [{"matcher": "Edit|Write", "hooks": [theirs]}]}})
    settings.write_text(original, encoding="utf-8")
    first = _setup(env)
    assert first.returncode == 0, first.stderr
    written = json.loads(settings.read_text(encoding="utf-8"))
    assert written["model"] == "opus"
    assert written["hooks"]["PostToolUse"][0] == {"matcher": "Edit|Write", "hooks": [theirs]}
    events = ("SessionStart", "UserPromptSubmit", "PostToolUse", "Stop", "PreCompact", "SessionEnd")
    for event in events:
        command = written["hooks"][event][-1]["hooks"][0]["command"]
        assert f" hook claude-code {event} --db " in command and env["MEMVAULT_DB"] in command
    assert [event for event in events if written["hooks"][event][-1]["hooks"][0].get("async")] == [
        "PostToolUse", "Stop", "PreCompact"]  # in the background; SessionEnd ends the session before exit
    backups = list(settings.parent.glob("settings.json.*.bak"))
    assert [b.read_text(encoding="utf-8") for b in backups] == [original]
    second = _setup(env)
    assert second.returncode == 0 and "nothing changed" in second.stderr
    assert json.loads(settings.read_text(encoding="utf-8")) == written
    assert list(settings.parent.glob("settings.json.*.bak")) == backups
    # The command written runs, through a shell as Claude Code runs it.
    command = written["hooks"]["SessionStart"][-1]["hooks"][0]["command"]
    ran = subprocess.run(command, shell=True, input=json.dumps(_payload("SessionStart")), env=env,
                         capture_output=True, text=True, timeout=120)
    assert _context(ran, "SessionStart").startswith("No memories are stored yet")


def test_setup_hooks_refuses_settings_with_comments_and_writes_nothing(env):
    settings = Path(env["HOME"]) / ".claude" / "settings.json"
    settings.parent.mkdir()
    text = '{\n  // my model\n  "model": "opus"\n}\n'
    settings.write_text(text, encoding="utf-8")
    result = _setup(env)
    assert result.returncode == 1 and "not plain JSON" in result.stderr
    assert settings.read_text(encoding="utf-8") == text
    assert os.listdir(settings.parent) == ["settings.json"]


def test_merged_replaces_an_older_memvault_hook_where_it_was_and_keeps_the_others():
    from memvault.server import hooks

    old = {"type": "command", "command": "/old/venv/bin/memvault hook claude-code Stop --db /x.db"}
    theirs = {"type": "command", "command": "notify-send done"}
    current = {"Stop": [{"hooks": [theirs, old]}, {"hooks": [{"type": "command", "command": "echo after"}]}],
               "Notification": [{"hooks": [theirs]}]}
    wanted = {"Stop": "/new/bin/memvault hook claude-code Stop --db /x.db"}
    result = hooks.merged(current, wanted)
    assert result["Notification"] == current["Notification"]
    assert result["Stop"] == [
        {"hooks": [{"type": "command", "command": wanted["Stop"], "async": True}]},
        {"hooks": [theirs]},
        {"hooks": [{"type": "command", "command": "echo after"}]},
    ]
    assert hooks.merged(result, wanted) == result  # a second merge changes nothing
    with pytest.raises(ValueError, match="hooks.Stop"):
        hooks.merged({"Stop": {"not": "a list"}}, wanted)
