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

from memvault.server import transcripts
from memvault.server.config import Config
from memvault.storage.records import NewTurn
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


@pytest.fixture
def here(cli_here):  # type: ignore[no-untyped-def]
    """``here(env, argv, stdin, cwd)``: ``memvault ARGV`` in this process (conftest's ``cli_here``), for what a
    hook or an import does with its input and the store; running as a client runs it (a fresh process, its
    imports) is :func:`_hook`'s, kept by the tests of each event's output, of credentials and of imports."""
    return lambda env, argv, stdin="", cwd=None: cli_here(argv, env, stdin, cwd)


@pytest.fixture
def hook(here):  # type: ignore[no-untyped-def]
    """``hook(env, event, stdin)``: :func:`_hook` run in this process (:func:`here`)."""
    return lambda env, event, stdin: here(env, [*HOOK[3:], event], stdin if isinstance(stdin, str) else json.dumps(stdin))


def _context(result: subprocess.CompletedProcess[str], event: str) -> str:
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["hookSpecificOutput"]["hookEventName"] == event
    return document["hookSpecificOutput"]["additionalContext"]


def _open(env: dict[str, str]) -> Store:
    return Store(env["MEMVAULT_DB"])


def test_session_start_prints_the_boot_context_led_by_the_working_directorys_project(env, stored, real_embedder):
    store = Store(env["MEMVAULT_DB"], real_embedder)  # with its vector, as a server stores it: a pending one is unsure
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
    assert MEMORIES[0][0] in context and "Degraded" not in context  # with the model
    assert MEMORIES[1][0] not in context  # only what surely answers
    for paraphrase in ("What port should I use to reach the staging DB?", "staging db port, quick?"):
        reworded = _context(_hook(env, "UserPromptSubmit", _payload("UserPromptSubmit", prompt=paraphrase)),
                            "UserPromptSubmit")
        assert MEMORIES[0][0] in reworded, paraphrase  # by meaning: the model is loaded for prompts
    unrelated = _hook(env, "UserPromptSubmit",
                      _payload("UserPromptSubmit", prompt="Write a haiku about autumn leaves falling"))
    assert (unrelated.returncode, unrelated.stdout) == (0, "")


@pytest.mark.parametrize("prompt", [
    "which package manager does the shop use and where does the staging database listen?",
    "Which package manager does the shop use? Which port is the staging database on?",
    "what package manager is used in the shop; which port does the staging DB listen on",
])
def test_a_prompt_of_two_questions_gives_the_memory_answering_each(env, stored, real_embedder, prompt, hook):
    store = Store(env["MEMVAULT_DB"], real_embedder)
    try:
        store.remember(tenant="default", scope="default", content="The shop uses pnpm as its package manager.",
                       kind="fact")
    finally:
        store.close()
    context = _context(hook(env, "UserPromptSubmit", _payload("UserPromptSubmit", prompt=prompt)),
                       "UserPromptSubmit")
    assert "pnpm" in context and MEMORIES[0][0] in context, context
    assert context.count("\n- ") == 2 and MEMORIES[1][0] not in context  # each once, only what answers


@pytest.mark.parametrize(("prompt", "asked"), [
    ("which package manager does the shop use and where is the staging database?",
     ["which package manager does the shop use", "where is the staging database?"]),
    ("Which port? Who owns billing? When do we deploy? How big is staging?",
     ["Which port?", "Who owns billing?", "When do we deploy?"]),  # the first PROMPT_QUESTIONS
    ("What is the difference between staging and production?", []),  # one question: "and" joins nouns
    ("Build and deploy the shop, then tell me how it went", []),
    ("where is the staging database", []),
])
def test_the_questions_of_a_prompt_are_asked_apart(prompt, asked):
    from memvault.server.hooks import questions

    assert questions(prompt) == asked


def test_a_prompt_is_redacted_before_it_is_searched_and_episodes_are_left_to_the_boot_context(env, stored, hook):
    store = _open(env)
    try:  # an episode quoting the question (as a session's digest does) answers nothing
        store.remember(tenant="default", scope="default", kind="episode",
                       content='Asked: "Which port does the staging database listen on?"')
    finally:
        store.close()
    for tail in ("", " <private>plans for the migration</private>", f" (my token is {TOKEN})"):
        asked = hook(env, "UserPromptSubmit",
                      _payload("UserPromptSubmit", prompt=f"Which port does the staging database listen on?{tail}"))
        assert asked.stdout, (tail, asked.stderr)
        context = _context(asked, "UserPromptSubmit")
        assert MEMORIES[0][0] in context and "Asked:" not in context, tail
        assert TOKEN not in asked.stdout and "plans for the migration" not in asked.stdout


def test_capture_then_session_end_stores_the_turns_in_order_and_the_digest(env, tmp_path, hook):
    lines = (DATA / "claude_code_session.jsonl").read_bytes().splitlines(keepends=True)
    transcript = tmp_path / "projects" / "-home-dev-projects-shop" / f"{SESSION}.jsonl"
    transcript.parent.mkdir(parents=True)
    transcript.write_bytes(b"".join(lines[:7]))  # Claude Code has written up to the Grep call
    for event in ("SessionStart", "PostToolUse"):
        result = hook(env, event, _payload(event, transcript, tool_name="Grep", tool_input={},
                                            tool_response={}))
        assert result.returncode == 0, result.stderr
    transcript.write_bytes(b"".join(lines))
    for event, extra in (("PostToolUse", {"tool_name": "Bash"}), ("Stop", {"stop_hook_active": False}),
                         ("PreCompact", {"trigger": "auto", "custom_instructions": ""}),
                         ("SessionEnd", {"reason": "prompt_input_exit"})):
        result = hook(env, event, _payload(event, transcript, **extra))
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
    states = list(Path(env["XDG_STATE_HOME"]).rglob("*.json"))  # where each transcript's capture stopped
    assert states and {p.stat().st_mode & 0o777 for p in states} == {0o600}
    assert {p.parent.stat().st_mode & 0o777 for p in states} == {0o700}
    # The offsets lost (a new state folder): the transcript is read again, and nothing is stored twice.
    lost = {**env, "XDG_STATE_HOME": str(tmp_path / "other-state")}
    again = hook(lost, "Stop", _payload("Stop", transcript))
    assert again.returncode == 0, again.stderr
    store = _open(env)
    try:
        assert store.episodes.turns(tenant="default", session_id=SESSION) == turns
    finally:
        store.close()
    # The next session asks for the last one: its digest answers, though the hook leaves other episodes out
    # and no server has filled the digest's vector.
    for prompt in ("where did we leave off?", "what did we do last time?", "recap of the last session please"):
        context = _context(hook(env, "UserPromptSubmit", {**_payload("UserPromptSubmit", prompt=prompt),
                                                           "session_id": "6e1d8b62-3f4a-4c9b-8d2e-1f7a8b9c0d12"}),
                           "UserPromptSubmit")
        assert digest.id[:8] in context, (prompt, context)


def test_codex_gets_the_boot_context_at_session_start_and_has_no_capture_hook(env, stored, here):
    codex = [sys.executable, "-m", "memvault.server", "hook", "codex"]
    start = subprocess.run([*codex, "SessionStart"], env=env, capture_output=True, text=True, timeout=120,
                           input=json.dumps(_payload("SessionStart", source="startup")))
    assert MEMORIES[0][0] in _context(start, "SessionStart")
    store = _open(env)
    try:  # Codex cannot capture: no empty session is left open
        assert store.episodes.sessions(tenant="default") == []
    finally:
        store.close()
    stop = here(env, ["hook", "codex", "Stop"], json.dumps(_payload("Stop")))
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
    (["SessionStart"], "[" * 100_000 + "]" * 100_000, "stdin: not JSON"),
    (["SessionStart"], json.dumps({"hook_event_name": "SessionStart"}), "session_id"),
    (["UserPromptSubmit"], json.dumps(_payload("UserPromptSubmit")), "prompt"),
    (["PostToolUse"], json.dumps({**_payload("PostToolUse"), "transcript_path": None}), "transcript_path"),
    (["Stop"], json.dumps(_payload("SessionEnd")),
     "hook_event_name: is 'SessionEnd' but the command says Stop"),
    (["Notification"], json.dumps(_payload("Notification")), "EVENT: claude-code hooks are"),
    (["SessionStart", "--model-dir", "/m"], json.dumps(_payload("SessionStart")), "--model-dir"),
    (["SessionStart", "--no-such-flag"], json.dumps(_payload("SessionStart")), "--no-such-flag"),
])
def test_a_bad_payload_or_command_is_a_non_blocking_error_said_on_stderr(env, argv, stdin, said, here):
    result = here(env, [*HOOK[3:], *argv], stdin)
    assert (result.returncode, result.stdout) == (1, "")  # 1, never 2: Claude Code would block on 2
    assert said in result.stderr


def test_stdin_that_is_not_utf8_is_a_non_blocking_error_naming_stdin(env):
    result = subprocess.run([*HOOK, "SessionStart"], input=b'{"session_id": "\xff"}', env=env,
                            capture_output=True, timeout=60)
    assert (result.returncode, result.stdout) == (1, b"") and b"stdin: not UTF-8" in result.stderr


def test_a_bad_setting_is_a_non_blocking_error_too(env, hook):
    result = hook({**env, "MEMVAULT_BOOT_TOKENS": "lots"}, "SessionStart", _payload("SessionStart"))
    assert (result.returncode, result.stdout) == (1, "") and "MEMVAULT_BOOT_TOKENS" in result.stderr


IMPORT = ["import", "--from", "claude-code", "--json"]


def _turns(store: Store, session_id: str) -> list[tuple[int, str, str]]:
    return [(t.seq, t.role, t.text) for t in store.episodes.turns(tenant="default", session_id=session_id)]


def _sessions_and_turns(env: dict[str, str]) -> dict[str, list[tuple[int, str, str]]]:
    store = _open(env)
    try:
        return {s.id: _turns(store, s.id)
                for s in store.episodes.sessions(tenant="default")}
    finally:
        store.close()


def test_import_twice_gives_the_same_sessions_and_turns_and_a_hook_adds_none_of_them_again(env, tmp_path, hook, here):
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
    once = here(env, [*IMPORT, str(root)])
    assert once.returncode == 0, once.stderr
    report = json.loads(once.stdout)
    counts = (report["files"], report["sessions"], report["turns_added"], report["turns_already_there"])
    assert counts == (2, 2, 16, 0)
    assert report["redacted"] == ["GitHub token", "private"]
    after_once = _sessions_and_turns(env)
    assert sorted(after_once) == sorted([SESSION, other]) and len(after_once[SESSION]) == 8
    twice = here(env, [*IMPORT, str(root)])
    assert json.loads(twice.stdout)["turns_added"] == 0 and "nothing new" in twice.stderr
    assert _sessions_and_turns(env) == after_once
    end = hook(env, "SessionEnd", _payload("SessionEnd", first, reason="other"))
    assert end.returncode == 0, end.stderr
    assert _sessions_and_turns(env) == after_once  # the same entries, the same refs: nothing twice
    assert TOKEN not in once.stdout + once.stderr + twice.stdout + twice.stderr


SETUP = ["setup", "claude-code", "--hooks", "--write"]  # without --write it only prints: tests/test_setup.py


def test_setup_hooks_merges_into_the_settings_keeps_a_backup_and_a_second_run_changes_nothing(env, here):
    settings = Path(env["HOME"]) / ".claude" / "settings.json"
    settings.parent.mkdir()
    theirs = {"type": "command", "command": "prettier --write \"$CLAUDE_PROJECT_DIR\""}
    original = json.dumps({"model": "opus",
                           "hooks": {"PostToolUse": [{"matcher": "Edit|Write", "hooks": [theirs]}]}})
    settings.write_text(original, encoding="utf-8")
    first = here(env, SETUP)
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
    second = here(env, SETUP)
    assert second.returncode == 0 and "nothing changed" in second.stderr
    assert json.loads(settings.read_text(encoding="utf-8")) == written
    assert list(settings.parent.glob("settings.json.*.bak")) == backups
    # The command written runs, through a shell as Claude Code runs it.
    command = written["hooks"]["SessionStart"][-1]["hooks"][0]["command"]
    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(command, shell=True, input=json.dumps(_payload("SessionStart")), env=env,
                              capture_output=True, text=True, timeout=120)

    first_run = run()  # no database yet: SessionStart only reads, so it makes none and says so
    assert (first_run.returncode, first_run.stdout) == (0, "") and "no database at" in first_run.stderr
    assert not Path(env["MEMVAULT_DB"]).exists()
    _open(env).close()  # made by a capture hook or the server
    assert _context(run(), "SessionStart").startswith("No memories are stored yet")


def test_setup_hooks_refuses_settings_with_comments_and_writes_nothing(env, here):
    settings = Path(env["HOME"]) / ".claude" / "settings.json"
    settings.parent.mkdir()
    text = '{\n  // my model\n  "model": "opus"\n}\n'
    settings.write_text(text, encoding="utf-8")
    result = here(env, SETUP)
    assert result.returncode == 1 and "not plain JSON" in result.stderr
    assert settings.read_text(encoding="utf-8") == text
    assert os.listdir(settings.parent) == ["settings.json"]


def test_merged_replaces_an_older_memvault_hook_where_it_was_and_keeps_the_others():
    from memvault.server import hook_settings

    old = {"type": "command", "command": "/old/venv/bin/memvault hook claude-code Stop --db /x.db"}
    theirs = {"type": "command", "command": "notify-send done"}
    current = {"Stop": [{"hooks": [theirs, old]}, {"hooks": [{"type": "command", "command": "echo after"}]}],
               "Notification": [{"hooks": [theirs]}]}
    wanted = {"Stop": "/new/bin/memvault hook claude-code Stop --db /x.db"}
    result = hook_settings.merged(current, wanted)
    assert result["Notification"] == current["Notification"]
    assert result["Stop"] == [
        {"hooks": [{"type": "command", "command": wanted["Stop"], "async": True}]},
        {"hooks": [theirs]},
        {"hooks": [{"type": "command", "command": "echo after"}]},
    ]
    assert hook_settings.merged(result, wanted) == result  # a second merge changes nothing
    with pytest.raises(ValueError, match="hooks.Stop"):
        hook_settings.merged({"Stop": {"not": "a list"}}, wanted)


# --- capture that one bad entry cannot stop -------------------------------------------------------

PASSWORDS = ("Xk29slQpzR7vW", "Tr0ub4dor3horse", "Zq8wLmN3vB2x")


def _entry(
    uuid: str, session: str, content: object, kind: str = "user", at: str = "2025-11-30T09:00:00"
) -> str:
    return json.dumps({"type": kind, "uuid": uuid, "sessionId": session, "timestamp": f"{at}Z",
                       "cwd": CWD, "message": {"role": kind, "content": content}})


def _config(db_path: Path, monkeypatch: pytest.MonkeyPatch, state: Path) -> Config:
    monkeypatch.setenv("XDG_STATE_HOME", str(state))  # where the offsets are kept
    return Config(db=db_path)


def _data(transcript: Path) -> dict[str, object]:
    return {"session_id": SESSION, "transcript_path": str(transcript), "cwd": CWD}


@pytest.mark.parametrize(("tool", "tool_input"), [
    ("Write", {"file_path": "/app/.env", "content": f"DEBUG=1\nSECRET_KEY={PASSWORDS[0]}\n"
                                                    f"DB_PASSWORD={PASSWORDS[1]}\n"}),
    ("Edit", {"file_path": "/app/settings.py", "old_string": f'DEBUG = True\nPASSWORD = "{PASSWORDS[2]}"\n',
              "new_string": 'DEBUG = True\nPASSWORD = os.environ["PASSWORD"]\n'}),
    ("MultiEdit", {"file_path": "/app/.env", "edits": [
        {"old_string": "A=1", "new_string": f"A=1\nSECRET_KEY={PASSWORDS[0]}"},
        {"old_string": "B=2", "new_string": f'B=2\nPASSWORD = "{PASSWORDS[2]}"'}]}),
    ("Bash", {"command": f"cat >> .env <<EOF\nAPP=shop\nSECRET_KEY={PASSWORDS[0]}\nEOF",
              "description": "Add the password"}),
])
def test_a_credential_in_a_tool_input_never_reaches_the_database(store, db_path, tool, tool_input):
    from memvault.server import capture

    path = db_path.parent / f"{SESSION}.jsonl"
    path.write_text(_entry("u1", SESSION, [{"type": "tool_use", "id": "toolu_1", "name": tool,
                                            "input": tool_input}], "assistant") + "\n")
    capture.store_turns(store, "default", "default", next(transcripts.chunks(path)).turns, "claude-code")
    data = file_bytes(db_path)
    assert not [word for word in PASSWORDS if word.encode() in data]
    (turn,) = store.episodes.turns(tenant="default", session_id=SESSION)
    assert turn.tool == tool and turn.redacted


def test_a_bad_entry_or_another_scopes_session_is_skipped_and_said_and_capture_goes_on(env, tmp_path, hook):
    store = _open(env)
    try:  # a session of scope "work", which a default-scope transcript names
        store.episodes.append(tenant="default", scope="work", session_id="other-scope", turns=[
            NewTurn(role="user", text="work only", ref="w1")])
    finally:
        store.close()
    transcript = tmp_path / f"{SESSION}.jsonl"
    transcript.write_text("\n".join([
        _entry("u1", SESSION, "first turn"), _entry("u2", "bad/id", "a path-like session id"),
        "[" * 100_000 + "]" * 100_000, _entry("u3", "other-scope", "not for the work scope"),
        _entry("u4", SESSION, "after the bad ones")]) + "\n")
    first = hook(env, "Stop", _payload("Stop", transcript))
    assert (first.returncode, first.stdout) == (0, "")
    for said in ("1 entry whose sessionId cannot be a session id", "1 line not JSON",
                 "1 turn of session other-scope, which belongs to another scope"):
        assert said in first.stderr
    with transcript.open("a") as fh:
        fh.write(_entry("u5", SESSION, "a turn written later") + "\n")
    second = hook(env, "Stop", _payload("Stop", transcript))
    assert (second.returncode, second.stdout, second.stderr) == (0, "", "")  # the bad lines are behind it
    got = _sessions_and_turns(env)
    assert [text for _, _, text in got[SESSION]] == [
        "first turn", "after the bad ones", "a turn written later"]
    assert [text for _, _, text in got["other-scope"]] == ["work only"] and len(got) == 2


class _Recording:
    """A store whose appends are recorded (the refs of each) and whose ``fail_at``-th append raises
    ``KeyboardInterrupt``, as a hook killed by its client's timeout; everything else is the store's."""

    def __init__(self, store: Store, fail_at: int | None = None) -> None:
        self.store, self.fail_at, self.sent = store, fail_at, []

    @property
    def episodes(self) -> _Recording:
        return self

    def append(self, **kwargs: object) -> object:
        self.sent.append([t.ref for t in kwargs["turns"]])  # type: ignore[attr-defined]
        if len(self.sent) == self.fail_at:
            raise KeyboardInterrupt
        return self.store.episodes.append(**kwargs)  # type: ignore[arg-type]

    def __getattr__(self, name: str) -> object:
        return getattr(self.store.episodes, name)


def test_a_capture_stopped_midway_keeps_what_it_stored_and_the_next_goes_on_from_there(
        store, db_path, tmp_path, monkeypatch):
    from memvault.server import capture

    monkeypatch.setattr(capture, "APPEND_AT_ONCE", 4)
    transcript = tmp_path / f"{SESSION}.jsonl"
    transcript.write_text("".join(_entry(f"u{n}", SESSION, f"turn {n}") + "\n" for n in range(10)))
    config = _config(db_path, monkeypatch, tmp_path / "state")
    with pytest.raises(KeyboardInterrupt):
        capture.capture(_Recording(store, fail_at=2), config, "claude-code", _data(transcript), end=False)
    assert len(store.episodes.turns(tenant="default", session_id=SESSION)) == 4
    going_on = _Recording(store)
    capture.capture(going_on, config, "claude-code", _data(transcript), end=False)
    assert going_on.sent == [["u4", "u5", "u6", "u7"], ["u8", "u9"]]  # from the saved offset
    turns = store.episodes.turns(tenant="default", session_id=SESSION)
    assert [t.ref for t in turns] == [f"u{n}" for n in range(10)]
    # The offsets lost: read from the start, the stored turns are left out before they are redacted.
    lost = _Recording(store)
    config = _config(db_path, monkeypatch, tmp_path / "other-state")
    stored = capture.capture(lost, config, "claude-code", _data(transcript), end=False)
    assert lost.sent == [] and stored.already == 10
    assert store.episodes.turns(tenant="default", session_id=SESSION) == turns


def test_import_goes_on_past_a_bad_entry_reads_a_last_line_without_its_end_and_ends_every_session(
        env, tmp_path, here):
    root = tmp_path / "projects" / "p"
    root.mkdir(parents=True)
    (root / "A.jsonl").write_text(_entry("a1", "A", "file A turn") + "\n")
    (root / "B.jsonl").write_text("".join(line + "\n" for line in [
        _entry("b1", "B", "file B turn"), _entry("b2", "x y", "bad id"),
        _entry("b3", "B", "file B, after the bad one", at="2025-11-30T09:00:05")]))
    (root / "C.jsonl").write_text(_entry("c1", "C", "file C turn") + "\n" + _entry("c2", "C", "no line end"))
    result = here(env, [*IMPORT, str(root.parent)])
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["refused_lines"] == {str(root / "B.jsonl"): [2]} and report["failed"] == {}
    assert (report["sessions"], report["sessions_ended"], report["turns_added"]) == (3, 3, 5)
    assert f"{root / 'B.jsonl'}: 1 entry skipped" in result.stderr and "line 2" in result.stderr
    got = _sessions_and_turns(env)
    assert {s: [text for _, _, text in turns] for s, turns in got.items()} == {
        "A": ["file A turn"], "B": ["file B turn", "file B, after the bad one"],
        "C": ["file C turn", "no line end"]}
    store = _open(env)
    try:
        assert all(s.ended_at is not None and s.digest_id for s in store.episodes.sessions(tenant="default"))
    finally:
        store.close()


def test_import_reports_a_file_that_fails_and_imports_the_others(store, tmp_path):
    from memvault.server import capture

    files = [tmp_path / "A.jsonl", tmp_path / "gone.jsonl", tmp_path / "C.jsonl"]
    files[0].write_text(_entry("a1", "A", "file A turn") + "\n")
    files[2].write_text(_entry("c1", "C", "file C turn") + "\n")
    report = capture.import_transcripts(store, "default", "default", files, lambda: None)
    assert list(report["failed"]) == [str(files[1])]
    assert "No such file or directory" in report["failed"][str(files[1])]
    assert "Error" not in report["failed"][str(files[1])]  # memvault's words, no class name
    assert (report["sessions"], report["sessions_ended"], report["turns_added"]) == (2, 2, 2)
    assert [s.ended_at is not None for s in store.episodes.sessions(tenant="default")] == [True, True]


def test_import_says_it_ended_a_session_a_hook_left_open_though_no_turn_was_new(env, tmp_path, hook, here):
    transcript = tmp_path / f"{SESSION}.jsonl"
    transcript.write_text(_entry("u1", SESSION, "first turn") + "\n")
    assert hook(env, "Stop", _payload("Stop", transcript)).returncode == 0
    once = here(env, [*IMPORT, str(transcript)])
    report = json.loads(once.stdout)
    assert (report["turns_added"], report["turns_already_there"], report["sessions_ended"]) == (0, 1, 1)
    assert "1 session ended, 1 digest written" in once.stderr and "nothing new" not in once.stderr
    twice = here(env, [*IMPORT, str(transcript)])
    assert json.loads(twice.stdout)["sessions_ended"] == 0 and "nothing new" in twice.stderr


def test_a_turn_the_store_refuses_is_skipped_and_counted_and_the_others_of_its_part_are_stored(
        store, tmp_path):
    from memvault.server import capture

    path = tmp_path / f"{SESSION}.jsonl"  # the store's clock is at 2026-01-01: a turn in 2027 is refused
    path.write_text("".join(_entry(f"u{n}", SESSION, f"turn {n}", at=at) + "\n" for n, at in enumerate(
        ["2025-11-30T09:00:00", "2027-01-01T00:00:00", "2025-11-30T09:00:02"])))
    stored = capture.store_turns(store, "default", "default", next(transcripts.chunks(path)).turns, "claude-code")
    assert stored.refused == 1 and "1 turn refused by the store (the first: turns[0].at: must be an integer" in stored.skipped()
    assert [t.ref for t in store.episodes.turns(tenant="default", session_id=SESSION)] == ["u0", "u2"]


@pytest.mark.parametrize("event", ["SessionEnd", "Stop", "PostToolUse", "PreCompact"])
def test_a_capture_with_a_credential_as_its_session_id_stores_and_says_no_credential(env, tmp_path, event, hook):
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(_entry("u1", TOKEN, "hello there") + "\n" + _entry("u2", "other", "kept") + "\n")
    result = hook(env, event, {**_payload(event, transcript), "session_id": TOKEN})
    assert (result.returncode, result.stdout) == (1, "")
    assert "session_id: cannot be a session id" in result.stderr
    assert TOKEN not in result.stderr and TOKEN.encode() not in file_bytes(Path(env["MEMVAULT_DB"]))
    assert {s: [text for _, _, text in turns] for s, turns in _sessions_and_turns(env).items()} == {
        "other": ["kept"]}


@pytest.mark.parametrize("session_id", ["../../etc/passwd", "a/b", "..", "sess\u0000id", "x" * 200])
def test_every_capture_hook_refuses_a_session_id_as_session_start_does(env, tmp_path, session_id, hook):
    """A trial found Stop, PostToolUse and PreCompact silent on ids SessionStart and SessionEnd refuse."""
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(_entry("u1", "fine-session", "hello there") + "\n")
    for event in ("SessionStart", "Stop"):
        result = hook(env, event, {**_payload(event, transcript), "session_id": session_id})
        assert result.returncode == 1 and "session_id:" in result.stderr, (event, result.stderr)


def test_import_ends_a_session_at_its_newest_stored_turn_when_a_turn_is_dated_in_the_future(env, tmp_path, here):
    folder = tmp_path / "future"
    folder.mkdir()
    entries = [{"type": "user", "uuid": "u-1", "sessionId": "s-future", "timestamp": "2026-01-05T10:00:00Z",
                "message": {"role": "user", "content": "Plan the release notes"}},
               {"type": "user", "uuid": "u-2", "sessionId": "s-future", "timestamp": "2999-01-01T00:00:00Z",
                "message": {"role": "user", "content": "A clock gone wrong"}}]
    (folder / "s.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries), encoding="utf-8")
    for _ in range(2):  # the second run finds the session ended: nothing fails
        done = here(env, [*IMPORT, str(folder)])
        assert json.loads(done.stdout)["failed"] == {}, done.stderr
    store = _open(env)
    try:
        session = store.episodes.session(tenant="default", session_id="s-future")
        assert session.ended_at == session.last_at and session.digest_id is not None
        assert [t.text for t in store.episodes.turns(tenant="default", session_id="s-future")] == [
            "Plan the release notes"]
    finally:
        store.close()


def test_a_hook_with_a_database_in_a_missing_folder_makes_nothing_and_says_so(env, tmp_path, hook):
    typo = tmp_path / "no-such-folder" / "m.db"
    for event in ("SessionStart", "Stop"):
        result = hook({**env, "MEMVAULT_DB": str(typo)}, event, _payload(event))
        assert (result.returncode, result.stdout) == (1, "") and "MEMVAULT_DB" in result.stderr  # where it came from
        assert str(typo.parent) in result.stderr and not typo.parent.exists()


@pytest.mark.parametrize("where", ["missing", "folder"])
def test_capture_of_a_transcript_that_is_not_a_file_says_so_and_stores_nothing(env, tmp_path, where, hook):
    path = tmp_path / "t.jsonl"
    if where == "folder":
        path.mkdir()
    result = hook(env, "Stop", _payload("Stop", path))
    assert result.returncode == 0 and "transcript_path" in result.stderr and str(path) in result.stderr
    store = _open(env)
    try:
        assert store.episodes.sessions(tenant="default") == []
    finally:
        store.close()


def test_import_names_a_transcript_link_to_nothing_and_imports_the_rest(env, tmp_path, here):
    root = tmp_path / "projects" / "-home-dev-projects-shop"
    root.mkdir(parents=True)
    (root / f"{SESSION}.jsonl").write_text((DATA / "claude_code_session.jsonl").read_text(encoding="utf-8"),
                                           encoding="utf-8")
    dangling = root / "moved-away.jsonl"
    dangling.symlink_to(tmp_path / "gone.jsonl")
    result = here(env, [*IMPORT, str(tmp_path / "projects")])
    report = json.loads(result.stdout)
    assert result.returncode == 1 and str(dangling) in report["failed"] and str(dangling) in result.stderr
    assert (report["files"], report["turns_added"]) == (2, 8) and len(_sessions_and_turns(env)[SESSION]) == 8


# What searching imports, which a capture never does (docs/hooks.md#speed).
SEARCHING = {"memvault.storage.retrieval", "memvault.storage.ranking", "memvault.storage.contradiction",
             "memvault.storage.consolidate", "memvault.storage.candidates", "memvault.storage.timewords"}


@pytest.mark.parametrize("event, heavy", [
    # The transcript holds a credential: detect-secrets' own checks of a found value are imported then.
    ("PostToolUse", {"numpy", "pydantic", "onnxruntime", "sqlite_vec", *SEARCHING}),
    ("SessionEnd", {"numpy", "onnxruntime", "sqlite_vec", *SEARCHING}),
    ("SessionStart", {"numpy", "onnxruntime", "detect_secrets", "email", "sqlite_vec",
                      "importlib.resources"}),
])
def test_a_hook_imports_nothing_it_does_not_use(env, stored, tmp_path, event, heavy):
    """What a hook loads is most of its time (docs/hooks.md#speed): capture and the boot context touch
    no vector and no model, and the credential scanner needs neither detect-secrets nor its metadata."""
    lines = (DATA / "claude_code_session.jsonl").read_bytes().splitlines(keepends=True)
    transcript = tmp_path / f"{SESSION}.jsonl"
    transcript.write_bytes(b"".join(lines))
    result = subprocess.run([sys.executable, "-X", "importtime", *HOOK[1:], event],
                            input=json.dumps(_payload(event, transcript, source="startup")), env=env,
                            capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stderr[-2000:]
    loaded = {line.split("|")[2].strip() for line in result.stderr.splitlines()
              if line.startswith("import time:")}
    assert "memvault.storage.secrets" in loaded and heavy & loaded == set()


def test_the_boot_of_a_project_with_memories_about_it_imports_no_numpy(env, real_embedder):
    """The working directory's name ("shop") finds memories about it: ranking them compares their stored
    vectors, in SQL from the stored bytes, without numpy (docs/hooks.md#speed)."""
    store = Store(env["MEMVAULT_DB"], real_embedder)
    try:
        # The older one answers "shop" better (ranked first): the ranking asks whether the newer one
        # is on the same subject, a similarity of their stored vectors.
        for content, observed in (
                ("Shop: the shop's checkout rounds the cart total once, after all discounts.", "2026-01-05"),
                ("The shop's checkout rounds the cart total after each discount.", "2026-03-05")):
            store.remember(tenant="default", scope="default", content=content, kind="fact",
                           observed_at=observed)
    finally:
        store.close()
    result = subprocess.run([sys.executable, "-X", "importtime", *HOOK[1:], "SessionStart"],
                            input=json.dumps(_payload("SessionStart", source="startup")), env=env,
                            capture_output=True, text=True, timeout=180)
    loaded = {line.split("|")[2].strip() for line in result.stderr.splitlines()
              if line.startswith("import time:")}
    assert "memvault.storage.ranking" in loaded and "numpy" not in loaded, result.stderr[-2000:]
    assert "rounds the cart total after each discount" in _context(result, "SessionStart")


# What a capture of ASCII text never needs (docs/hooks.md#speed): the regex package (Unicode classes of
# non-ASCII text), uuid and platform (ids are written by hand), ctypes (malloc_trim, looked up when cells
# are dropped), difflib (suggestions for a refused value), the setup command's module, a recall's records,
# a procedure's runs, what the store's writes of memories return.
START_UP = {"regex", "uuid", "platform", "ctypes", "difflib", "memvault.server.setup", "memvault.storage.hits",
            "memvault.storage.runs", "memvault.storage.outcomes", "memvault.server.http", "memvault.tools.handlers"}


def test_a_capture_without_a_credential_imports_no_scanner_library_nor_package_resources(env, tmp_path):
    """A tool call and its result, no credential in them, as most captures see: the detectors are built
    from memvault's own tables (read beside their module) and detect-secrets is never imported."""
    base = {"sessionId": SESSION, "cwd": CWD, "isSidechain": False, "userType": "external"}
    call = {"type": "tool_use", "id": "toolu_1", "name": "Bash",
            "input": {"command": "pytest -q tests/test_cart.py"}}
    result = {"type": "tool_result", "tool_use_id": "toolu_1", "content": "12 passed in 0.4s"}
    entries = [{**base, "type": "assistant", "uuid": "call-1", "timestamp": "2026-12-01T10:00:00.000Z",
                "message": {"role": "assistant", "content": [call]}},
               {**base, "type": "user", "uuid": "result-1", "timestamp": "2026-12-01T10:00:01.000Z",
                "message": {"role": "user", "content": [result]}}]
    transcript = tmp_path / f"{SESSION}.jsonl"
    transcript.write_text("".join(json.dumps(e) + "\n" for e in entries), encoding="utf-8")
    done = subprocess.run([sys.executable, "-X", "importtime", *HOOK[1:], "Stop"],
                          input=json.dumps(_payload("Stop", transcript)), env=env,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    loaded = {line.split("|")[2].strip() for line in done.stderr.splitlines()
              if line.startswith("import time:")}
    heavy = {"numpy", "onnxruntime", "sqlite_vec", "pydantic", "mcp", "detect_secrets", "importlib.resources",
             *SEARCHING, *START_UP}
    assert "memvault.storage.secrets" in loaded and heavy & loaded == set()
    turns = _sessions_and_turns(env)[SESSION]
    assert [(role, text) for _, role, text in turns][-1:] == [("tool", "12 passed in 0.4s")]


def test_a_pasted_megabyte_prompt_is_redacted_only_as_far_as_the_query_reads(tmp_path, monkeypatch):
    """UserPromptSubmit redacts the head of the prompt a query can use (and a margin), not the
    whole paste: its cost does not grow with the prompt (a 20 MB paste took 48 s)."""
    from fakes import FakeEmbedder

    from memvault.server import hooks
    from memvault.storage import limits, secrets
    from memvault.tools.caller import Caller

    seen: list[int] = []
    redact = secrets.redact
    monkeypatch.setattr(secrets, "redact", lambda text: seen.append(len(text)) or redact(text))
    store = Store(tmp_path / "m.db", FakeEmbedder())  # type: ignore[arg-type]
    try:
        store.remember(tenant="default", scope="default", content="The staging database listens on port 5433")
        hooks.prompt_context(store, Caller(tenant="default", scope="default"),
                             f"staging database port? my token is {TOKEN} " + "lorem ipsum " * 300_000)
    finally:
        store.close()
    # then the lines it prints, which hold no part of the paste
    assert seen[0] == limits.QUERY_MAX_CHARS + limits.CONTENT_MAX_CHARS and sum(seen[1:]) < 1_000


@pytest.mark.parametrize("session_id", ["has space!", "x" * 300, "ID\n2"])
def test_session_start_checks_its_session_id_as_a_capture_does(session_id):
    from memvault.server import hooks

    text = json.dumps({"session_id": session_id, "hook_event_name": "SessionStart", "cwd": "/tmp"})
    with pytest.raises(hooks.HookInputError, match="^session_id: "):
        hooks.payload(text, "claude-code", "SessionStart")
    assert hooks.payload(text.replace(json.dumps(session_id), '"5d0c7a51-aa"'), "claude-code", "SessionStart")


def test_the_prompt_hook_says_of_a_memory_what_recall_says_a_failing_procedures_flag_too(tmp_path):
    from fakes import FakeEmbedder

    from memvault.server import hooks
    from memvault.tools.caller import Caller

    store = Store(tmp_path / "m.db", FakeEmbedder())  # type: ignore[arg-type]
    try:
        procedure = store.remember(tenant="default", scope="default", kind="procedure",
                                   content="To rotate the TLS certificate run certbot renew on the gateway").id
        for note in ("certbot timed out", "the gateway refused the reload"):
            store.confirm(tenant="default", id=procedure, outcome="failure", note=note)
        said = hooks.prompt_context(store, Caller(tenant="default", scope="default"),
                                    "rotate the TLS certificate on the gateway with certbot renew")
    finally:
        store.close()
    assert said is not None and "certbot renew" in said and "(flagged: the last two runs failed)" in said


@pytest.mark.parametrize("given", ["rel.db", "./rel.db", "sub/../rel.db"])
def test_a_hook_with_a_relative_db_is_refused_and_makes_nothing(env, tmp_path, given, here):
    """A client starts a hook in a folder of its choosing: a relative --db would open another file in
    each (as `serve` refuses it)."""
    for event in ("SessionStart", "Stop"):
        result = here(env, ["hook", "--db", given, *HOOK[4:], event], json.dumps(_payload(event)), cwd=tmp_path)
        assert result.returncode == 1 and result.stdout == "", result.stderr
        assert "relative path" in result.stderr and "--db" in result.stderr
        assert not (tmp_path / "rel.db").exists()


def test_session_start_shows_excerpts_when_every_memory_is_too_long_for_the_budget(env, real_embedder, hook):
    sentence = "The ledger shard {i} is backed up after the audit window closes. "
    store = Store(env["MEMVAULT_DB"], real_embedder)
    try:
        for i in range(4):
            store.remember(tenant="default", scope="default", kind="fact",
                           content=(sentence.format(i=i) * 130)[:7_990], importance=5 + i)
    finally:
        store.close()
    context = _context(hook(env, "SessionStart", _payload("SessionStart", source="startup")), "SessionStart")
    assert "0 of 4" not in context and "ledger shard 3 is backed up" in context
    assert context.count("— an excerpt, ") >= 1 and "memory://memories/" in context and "excerpt" in context.split("_")[-2]


@pytest.mark.parametrize("budget", ["200", "300"])
def test_session_start_at_a_small_budget_shows_a_line_of_every_section(env, real_embedder, budget, hook):
    """New-user trial 50, section 6: an 8,000-character procedure, a preference and three facts; at 200
    and 300 tokens the Procedures section was left out while the facts took the room."""
    store = Store(env["MEMVAULT_DB"], real_embedder)
    try:
        store.remember(tenant="default", scope="default", kind="procedure",
                       content=("The runbook for failover: " + "drain the primary, promote the replica. " * 200)[:8_000])
        store.remember(tenant="default", scope="default", kind="preference", content="Prefer squash merges on main")
        for fact in ("The VPN is on port 1194", "Deploys need two approvals", "The wiki lives on Confluence"):
            store.remember(tenant="default", scope="default", kind="fact", content=fact)
    finally:
        store.close()
    context = _context(hook({**env, "MEMVAULT_BOOT_TOKENS": budget}, "SessionStart",
                             _payload("SessionStart", source="startup")), "SessionStart")
    headings = [line for line in context.splitlines() if line.startswith("## ")]
    assert headings == ["## Preferences and decisions", "## Procedures", "## Facts"], context
    assert '"The runbook for failover: ' in context and "— an excerpt, " in context
