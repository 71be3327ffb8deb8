"""The ``memvault`` command for people: inspect, change and delete memories, text or
--json on every command, focused help, clear notes on stderr, client set-up."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
from conftest import SERVE, server_env
from fakes import Clock

from memvault.server import cli, setup
from memvault.storage.store import Store
from memvault.storage.timefmt import format_ms

pytestmark = pytest.mark.usefixtures("one_model")  # the packaged model loaded once (conftest)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_people_can_list_show_supersede_and_forget_without_an_mcp_client(db_path, capsys):
    db = ["--db", str(db_path)]
    code, out, err = run(capsys, "remember", "The staging DB is db-stg-03", "--tag", "ops", *db)
    assert code == 0 and out.startswith("Stored as ") and f"created a new database at {db_path}" in err
    first = out.split()[2].rstrip(".")
    run(capsys, "remember", "Prefer dark mode", "--kind", "preference", *db)
    code, out, _ = run(capsys, "list", *db)
    assert out.splitlines()[0] == "2 of 2 memories, newest first:"
    short = out.splitlines()[2].split("[")[1].split("]")[0]  # the short id list printed: what people type
    assert out.splitlines()[2].startswith(f"2. [{short}] fact, ") and 8 <= len(short) < len(first)
    assert first.startswith(short)
    code, out, _ = run(capsys, "supersede", short, "The staging DB is db-stg-04", "--reason", "migrated", "--json", *db)
    second = json.loads(out)["id"]
    code, out, _ = run(capsys, "show", first, *db)
    assert "The staging DB is db-stg-03" in out and "replaced: migrated" in out and second in out
    code, out, _ = run(capsys, "list", "--kind", "fact", "--json", *db)
    assert [m["id"] for m in json.loads(out)["memories"]] == [second]
    code, out, _ = run(capsys, "forget", second, "--reason", "wrong project", *db)
    assert code == 0 and out.startswith(f"Forgot {second}")
    code, out, _ = run(capsys, "show", second, "--json", *db)
    assert json.loads(out)["memory"]["forget_reason"] == "wrong project"
    store = Store(db_path)
    try:
        assert store.get(tenant="default", id=second).content is None
        assert store.get(tenant="default", id=first).superseded_by == second
    finally:
        store.close()


@pytest.mark.parametrize("command", ["remember x", "recall x", "list", "show i", "forget i", "supersede i x",
                                     "stats", "reindex", "doctor", "setup cursor"])
def test_every_command_prints_one_json_document_with_json(db_path, capsys, command, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    code, out, _ = run(capsys, "remember", "The release train leaves on Thursdays", "--db", str(db_path), "--json")
    memory_id = json.loads(out)["id"]
    argv = [memory_id if word == "i" else word for word in command.split()]
    code, out, err = run(capsys, *argv, "--db", str(db_path), "--json")
    assert code == 0, err
    assert isinstance(json.loads(out), dict)


@pytest.mark.parametrize(
    ("command", "present", "absent"),
    [
        ("list", ["--kind", "--tag", "--since", "--limit", "--json", "--scope"],
         ["--boot-tokens", "--model-dir", "--importance"]),
        ("show", ["--json", "--db"], ["--kind", "--limit", "--boot-tokens", "--scope", "--allow-secrets"]),
        ("serve", ["--boot-tokens", "--allow-secrets"], ["--json", "--kind"]),
        ("stats", ["--json"], ["--tenant", "--scope", "--kind"]),
        ("forget", ["--reason", "--history"], ["--kind", "--importance"]),
    ],
)
def test_subcommand_help_has_a_description_and_only_its_flags(capsys, command, present, absent):
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    out = capsys.readouterr().out
    description = cli.COMMANDS[command][0]
    assert description.split(".")[0] in " ".join(out.split())
    assert all(flag in out for flag in present) and not any(flag in out for flag in absent)


def test_db_that_is_a_folder_is_named_as_one(tmp_path, capsys):
    code, out, err = run(capsys, "list", "--db", str(tmp_path))
    assert code == 2 and f"'{tmp_path}' is a folder" in err and str(tmp_path / "memvault.db") in err and out == ""
    assert not any(tmp_path.iterdir())


def test_a_new_database_is_reported_with_its_absolute_path(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    code, _, err = run(capsys, "remember", "hello", "--db", "sub/new.db")
    assert code == 0 and f"created a new database at {tmp_path / 'sub' / 'new.db'}" in err
    code, _, err = run(capsys, "remember", "again", "--db", "sub/new.db")
    assert "created" not in err


@pytest.mark.parametrize("folders", [("typo",), ("typo", "deeper")])
@pytest.mark.parametrize("command", [["remember", "hello"], ["import", "-"], ["keys", "create", "--tenant", "t"],
                                     ["serve"], ["serve", "--transport", "http", "--port", "0"]])
def test_every_command_that_makes_a_database_makes_no_folders(tmp_path, capsys, command, folders):
    """A typo in --db's folder would start an empty memory: every command that can make a database
    refuses it before it opens one (the stdio server used to make it at its first remember), as hooks do."""
    folder = tmp_path.joinpath(*folders)
    code, out, err = run(capsys, *command, "--db", str(folder / "m.db"))
    # the first folder missing is named
    assert code == 2 and f"--db: the folder '{tmp_path / 'typo'}' does not exist" in err and "create it, or fix --db" in err
    assert out == "" and not (tmp_path / "typo").exists()


def test_a_hook_makes_no_folders_and_lets_the_session_go_on(tmp_path, capsys, monkeypatch):
    import io
    import sys

    from memvault.server.hooks import NON_BLOCKING

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'{"session_id": "s1", "cwd": "/tmp"}')))
    code, out, err = run(capsys, "hook", "claude-code", "SessionStart", "--db", str(tmp_path / "typo" / "m.db"))
    assert code == NON_BLOCKING and "does not exist, and a hook makes no database" in err
    assert out == "" and not (tmp_path / "typo").exists()


def test_a_command_makes_its_database_in_a_folder_that_is_there(tmp_path, capsys):
    code, out, err = run(capsys, "keys", "create", "--tenant", "t", "--db", str(tmp_path / "m.db"))
    assert code == 0 and out.strip() and (tmp_path / "m.db").is_file()


@pytest.mark.parametrize("client", [c for c in setup.CLIENTS if c != "codex"])  # TOML: tests/test_setup.py
def test_setup_prints_the_entry_with_absolute_paths_and_writes_by_merging(client, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / ".config"))
    monkeypatch.setenv("APPDATA", str(tmp_path / "AppData"))
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "setup", client, "--db", "m.db", "--scope", "personal", "--json")
    plan = json.loads(out)
    path = Path(plan["path"])
    key = {"vscode": "servers", "zed": "context_servers"}.get(client, "mcpServers")
    entry = plan[key]["memvault"]
    assert path.is_absolute() and str(path).startswith(str(tmp_path))
    assert Path(entry["command"]).is_absolute() and entry["env"] == {
        "MEMVAULT_DB": str(tmp_path / "m.db"), "MEMVAULT_SCOPE": "personal"
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({key: {"other": {"command": "other-server"}}, "theme": "dark"}))
    code, _, err = run(capsys, "setup", client, "--db", "m.db", "--scope", "personal", "--write")
    written = json.loads(path.read_text())
    assert code == 0 and written["theme"] == "dark" and written[key]["other"] == {"command": "other-server"}
    assert written[key]["memvault"] == entry
    backups = list(path.parent.glob(path.name + ".*.bak"))
    assert len(backups) == 1 and "other-server" in backups[0].read_text() and str(backups[0]) in err


def test_the_claude_code_command_survives_paths_with_spaces(tmp_path, capsys, monkeypatch):
    import shlex

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "Application Support" / "mem vault.db"
    db.parent.mkdir()  # (setup refuses a --db whose folder is missing, as every command does)
    code, out, _ = run(capsys, "setup", "claude-code", "--db", str(db))
    line = next(x for x in out.splitlines() + [""] if "claude mcp add" in x)
    words = shlex.split(line[line.index("claude mcp add"):])
    assert code == 0 and words[words.index("-e") + 1] == f"MEMVAULT_DB={db}"


def test_setup_writes_a_config_holding_a_database_password_readable_by_its_owner_only(tmp_path, capsys, monkeypatch):
    import os
    import stat

    monkeypatch.setenv("HOME", str(tmp_path))
    previous = os.umask(0o022)  # the usual umask, put back below
    target = tmp_path / ".cursor" / "mcp.json"
    target.parent.mkdir()
    target.write_text('{"mcpServers": {}}')
    code, _, err = run(capsys, "setup", "cursor", "--db", "postgresql://u:s3cretPW@db.example/m", "--write")
    assert code == 0, err
    assert "s3cretPW" in target.read_text() and stat.S_IMODE(target.stat().st_mode) == 0o600
    assert [stat.S_IMODE(b.stat().st_mode) for b in target.parent.glob("mcp.json.*.bak")] == [0o600]
    code, _, err = run(capsys, "setup", "cursor", "--db", str(tmp_path / "m.db"), "--write")
    assert code == 0 and stat.S_IMODE(target.stat().st_mode) == 0o600  # the file's mode kept: never widened
    fresh = tmp_path / ".cursor" / "new"
    fresh.mkdir()
    target.rename(fresh / "old.json")
    code, _, err = run(capsys, "setup", "cursor", "--db", str(tmp_path / "m.db"), "--write")
    os.umask(previous)
    assert code == 0 and stat.S_IMODE(target.stat().st_mode) == 0o644  # a new file without password: the umask's


def test_setup_never_overwrites_a_file_it_cannot_read(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    target = tmp_path / ".cursor" / "mcp.json"
    target.parent.mkdir()
    target.write_text('{"mcpServers": {}, // a comment\n}')
    code, _, err = run(capsys, "setup", "cursor", "--write")
    assert code == 1 and "not plain JSON" in err and "comment" in target.read_text()


@pytest.mark.slow
def test_serve_in_a_terminal_says_it_waits_for_a_client(db_path):
    import pty

    leader, follower = pty.openpty()
    proc = subprocess.Popen(SERVE, env=server_env(db_path), stdin=follower, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert "waiting for an MCP client" in line and "memvault setup claude-desktop" in line
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)
        os.close(leader)
        os.close(follower)
        for stream in (proc.stdout, proc.stderr):
            stream.close()  # type: ignore[union-attr]


@pytest.mark.slow
def test_ctrl_c_stops_reindex_cleanly_doctor_sees_it_and_a_rerun_resumes(db_path, cli_here):
    import fcntl
    import pty
    import re
    import select
    import struct
    import termios

    total = 1280  # twenty batches: Ctrl-C comes after the first (with ten, a loaded machine once let all finish first)
    store = Store(db_path)  # no model: every vector pending, quick to fill
    for i in range(total):
        store.remember(tenant="t", scope="s", content=f"note {i}: the build agent {i} runs job {i * 7}")
    store.close()
    reindex = [*SERVE[:-1], "reindex", "--json"]
    terminal, stderr = pty.openpty()  # the progress bar is drawn on a terminal only
    fcntl.ioctl(stderr, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))  # 80 columns, not 0
    # Ctrl-C's default action restored in the child: a test run started in the background
    # (`cmd &` from a script) ignores SIGINT, and a child inherits that (POSIX), so the reindex
    # would never see the signal.
    proc = subprocess.Popen(reindex, env=server_env(db_path), stdout=subprocess.PIPE, stderr=stderr,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    os.close(stderr)
    assert proc.stdout is not None
    seen = b""

    def read() -> bytes:
        ready, _, _ = select.select([terminal], [], [], 120)
        assert ready, seen[-500:]
        try:
            return os.read(terminal, 4096)
        except OSError:  # EIO: the process has closed the terminal
            return b""

    while not re.search(rb"reindex:\s+\d+%\|.*\| *[1-9]\d*/", seen):  # the first batch is written
        chunk = read()
        assert chunk, f"reindex ended before its first batch: {seen[-500:]!r}"
        seen += chunk
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=60)
    while chunk := read():
        seen += chunk
    os.close(terminal)
    err = seen.decode()
    proc.stdout.close()
    assert proc.returncode == 130 and "Traceback" not in err and "reindex stopped" in err
    doctor = cli_here(["doctor", "--json"], server_env(db_path))  # (what follows needs no process of its own)
    report = json.loads(doctor.stdout)
    missing = report["vectors_pending"]
    assert doctor.returncode == 1 and 0 < missing < total
    assert any("no vector yet" in p for p in report["problems"])
    assert any("a reindex was interrupted" in p for p in report["problems"])
    rerun = cli_here(["reindex", "--json"], server_env(db_path))
    assert rerun.returncode == 0 and json.loads(rerun.stdout)["reindexed"] == missing  # resumed, not restarted
    doctor = cli_here(["doctor", "--json"], server_env(db_path))
    assert doctor.returncode == 0 and json.loads(doctor.stdout)["vectors_pending"] == 0


@pytest.mark.parametrize(("argv", "usage"), [(["stats", "--tenant", "x"], "memvault stats"),
                                             (["list", "--frob"], "memvault list")])
def test_a_flag_a_command_does_not_take_is_named_with_that_commands_usage(capsys, argv, usage):
    with pytest.raises(SystemExit) as exit_:
        cli.main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and err.startswith(f"usage: {usage}") and f"`{usage}` takes no {argv[1]}" in err


# A command with the arguments it needs, and each flag allowed before a command with a value.
COMMAND_ARGS = {"serve": [], "remember": ["x"], "recall": ["x"], "list": [], "show": ["0190a8e4"],
                "forget": ["0190a8e4"], "supersede": ["0190a8e4", "x"], "stats": [], "reindex": [], "doctor": [],
                "export": [], "import": ["m.jsonl"], "setup": ["claude-code"], "keys create": ["--tenant", "acme"],
                "keys list": [], "keys revoke": ["0190a8e4"]}
LEADING_VALUES = {"--db": ["x.db"], "--tenant": ["acme"], "--scope": ["work"], "--model-dir": ["models"],
                  "--json": [], "--allow-secrets": []}


@pytest.mark.parametrize("flag", LEADING_VALUES)
@pytest.mark.parametrize("command", COMMAND_ARGS)
def test_every_global_flag_reads_the_same_before_and_after_every_command(capsys, command, flag):
    """`memvault --tenant t stats` got argparse's "unrecognized arguments": a flag a command does
    not take is refused alike before and after it, in flags, naming the ones it takes."""
    words, given = [*command.split(), *COMMAND_ARGS[command]], [flag, *LEADING_VALUES[flag]]
    outcomes: list[object] = []
    for argv in ([*given, *words], [*words, *given]):
        try:
            outcomes.append(vars(cli.parse(argv)))
        except SystemExit as exc:
            outcomes.append((exc.code, capsys.readouterr().err))
    assert outcomes[0] == outcomes[1]
    takes = cli.flags_of(command)
    if flag in takes:
        assert isinstance(outcomes[0], dict)
        return
    code, err = outcomes[0]  # type: ignore[misc]
    assert code == 2 and f"error: `memvault {command}` takes no {flag}" in err and "unrecognized" not in err
    named = re.findall(r"--[a-z-]+", err.split("its flags: ")[1])
    assert named and all(name in takes for name in named), named


def test_serve_help_says_the_rate_limit_is_counted_per_process(capsys):
    with pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "counted by each process on its own" in text and "N processes behind a balancer" in text


class _Terminal:
    """A stderr that says it is a terminal (and keeps what is written)."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> int:
        self.text += text
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("terminal", [False, True])
def test_import_and_reindex_draw_progress_bars_only_on_a_terminal(tmp_path, capsys, monkeypatch, terminal):
    dump, db = tmp_path / "m.jsonl", tmp_path / "m.db"
    dump.write_text("".join(json.dumps({"content": f"Build agent {i} runs the nightly job."}) + "\n" for i in range(3)))
    screen = _Terminal()
    if terminal:
        monkeypatch.setattr("sys.stderr", screen)
    code, _, err = run(capsys, "import", "--db", str(db), str(dump))
    code2, out, err2 = run(capsys, "reindex", "--db", str(db))
    err = screen.text if terminal else err + err2
    assert code == code2 == 0
    assert "imported 3 of 3 memory lines" in err and out.startswith("Reindexed: 3 vectors made")
    bars = ("import: 100%|", "reindex: 100%|")
    if terminal:
        assert all(bar in err for bar in bars) and "\r" in err
    else:
        assert not any(bar.split(":")[0] + ":" in err for bar in bars) and "\r" not in err and "%|" not in err


def test_recall_speaks_to_a_person_at_a_terminal_not_to_an_agent(db_path, capsys):
    from memvault.tools import handlers, text

    db = ["--db", str(db_path)]
    assert run(capsys, "remember", "The dentist appointment is on Friday at 3 pm", "--scope", "personal", *db)[0] == 0
    for query in ("when is the dentist appointment", "what day is my dentist appointment"):
        code, out, _ = run(capsys, "recall", query, *db)
        assert code == 0
        assert "Nothing stored in scopes default, global answers this." in out and "say you do not know" not in out
        assert "Other scopes have matches: 'personal' (1). Run it again with --scope" in out
        assert "--scope personal" in out and "Recall again with scope set" not in out
        code, out, _ = run(capsys, "recall", query, "--scope", "personal", *db)
        assert code == 0 and "Friday" in out
    store = Store(db_path)  # the MCP tool's text, for agents, is unchanged
    try:
        found = handlers.recall(store, handlers.Caller("default", "default"), query="when is the dentist appointment")
    finally:
        store.close()
    assert "say you do not know" in text.recall_text(found) and "--scope" not in text.recall_text(found)



def test_show_describes_an_expired_memory_and_expired_history(db_path, capsys):
    clock = Clock(int(time.time() * 1000) - 600_000)  # the store was written ten minutes ago
    store = Store(db_path, clock=clock)
    try:
        old = store.remember(tenant="default", scope="default", content="Standup is at 9:15").id
        new = store.supersede(tenant="default", id=old, content="Standup is at 9:30 for now",
                              expires_at=format_ms(clock.now + 60_000)).id
    finally:
        store.close()
    code, out, err = run(capsys, "show", new, "--db", str(db_path))
    assert code == 0 and out.startswith(f"{new} expired at "), err
    code, out, err = run(capsys, "show", old, "--db", str(db_path))
    assert code == 0 and "Standup is at 9:15" in out and f"{new} expired " in out, err


@pytest.mark.parametrize(("argv", "named"), [
    (["recall", "x", "--kind", "bogus"], "--kind: 'bogus' is not one of"),
    (["list", "--kind", "fact", "--kind", "nope"], "--kind: 'nope' is not one of"),
    (["recall", "x", "--tag", "ok", "--tag", " "], "--tag: "),
    (["remember", "x", "--importance", "11"], "--importance: must be an integer from 1 to 10; got 11"),
    (["supersede", "deadbeef-0000", "y", "--importance", "0"], "--importance: must be an integer from 1 to 10; got 0"),
    (["recall", "x", "--since", "last thursdayish"], "--since: "),
    (["recall", "x", "--limit", "0"], "--limit: "),
    (["list", "--limit", "0"], "--limit: "),
    (["remember", "   "], "CONTENT: is only white space; it must be 1-8,000 characters"),
    (["show", "nope"], "ID: 'nope' is not a memory id: an id is 36 hex digits"),
    (["forget", "0"], "ID: '0' is too short"),
    (["confirm", "deadbeef-0000", "--beside", "nope"], "--beside: 'nope' is not a memory id: an id is 36 hex digits"),
    (["confirm", "deadbeef-0000", "--beside", "0"], "--beside: '0' is too short"),
    (["import", "no-such-file.jsonl"], "FILE: 'no-such-file.jsonl' does not exist"),
    (["import", "/"], "FILE: '/' is a folder, not a file"),
    (["export", "-o", "/no/such/folder/m.jsonl"], "--output: cannot write '/no/such/folder/m.jsonl': No such file"),
    (["export", "-o", "/"], "--output: cannot write '/': Is a directory"),
    (["recall", ""], "QUERY: is empty: give words to search for, or a filter (--kind, --tag, --since, --until, "
                     "--scope) to list memories"),
    (["recall", "\u200b "], "QUERY: is empty: give words"),
    (["list", "--cursor", "bm9wZQ"], "--cursor: is not a cursor a listing gave"),
    (["list", "--cursor", "x" * 600], "--cursor: must be a cursor a listing gave, at most"),
    (["list", "--since", "2026-05-01", "--until", "2026-04-01"], "--until: must be later than --since ('2026-05-01')"),
])
def test_bad_arguments_are_named_as_the_command_line_spells_them(db_path, capsys, argv, named):
    """New-user trial: "TEXT: must not be empty" named an argument the usage line called
    "text". An error names it as the command's own usage shows it."""
    run(capsys, "remember", "something to open the database with", "--db", str(db_path))
    code, out, err = run(capsys, *argv, "--db", str(db_path))
    assert code == 2 and out == "" and err.startswith(f"memvault: {named}")  # as argparse exits on a bad argument
    with pytest.raises(SystemExit):
        cli.main([argv[0], "--help"])
    usage = capsys.readouterr().out
    assert named.split(":")[0] in usage
    assert "kinds[" not in err and "tags[" not in err and "content:" not in err
    assert "`" not in err and "next_cursor" not in err and "(kinds" not in err  # arguments as the tools name them
    store = Store(db_path)
    try:  # nothing was written by the refused command
        assert len(store.list_memories(tenant="default", scopes=["default"])) == 1
    finally:
        store.close()


@pytest.mark.parametrize("argv", [
    ("remember", "x", "--importance", "11"),
    ("remember", "x", "--kind", "anecdote"),
    ("remember", "x", "--tag", "t" * 300),
    ("keys", "create", "--tenant", "acme", "--expires", "0"),
])
def test_a_refused_command_leaves_no_database_behind(tmp_path, capsys, argv):
    """Second new-user trial: `keys create --expires 0` and `remember --importance 11` said
    "created a new database" and left the file; a database that already holds memories is
    kept whatever is refused."""
    db = tmp_path / "new.db"
    code, _, err = run(capsys, *argv, "--db", str(db))
    assert code != 0 and "created a new database" not in err
    assert list(tmp_path.iterdir()) == []
    assert run(capsys, "remember", "kept", "--db", str(db))[0] == 0
    run(capsys, *argv, "--db", str(db))
    assert db.is_file() and run(capsys, "list", "--db", str(db))[1].count("kept") == 1


def test_a_refused_command_keeps_a_new_database_another_process_opened_meanwhile(tmp_path, capsys, monkeypatch):
    """Two clients on one new file (an MCP client starting its server while a refused
    `memvault remember` runs): the refused command found no file, but removing the file
    it then saw empty would leave the server writing into a deleted file, every memory
    it takes lost at its restart (lost writes of concurrent clients, as in
    modelcontextprotocol/servers#4797)."""
    db = tmp_path / "new.db"
    others: list[Store] = []
    refuse = cli.RUN["remember"]

    def server_opens_then_refused(store, caller, args):  # type: ignore[no-untyped-def]
        others.append(Store(db))  # the server opens the file the command created
        return refuse(store, caller, args)

    monkeypatch.setitem(cli.RUN, "remember", server_opens_then_refused)
    code, _, err = run(capsys, "remember", "x", "--importance", "11", "--db", str(db))
    assert code != 0 and "created a new database" not in err
    server = others[0]
    try:
        kept = server.remember(tenant="default", scope="default", content="Stored by the agent meanwhile").id
    finally:
        server.close()
    assert db.is_file()
    reopened = Store(db)
    try:
        assert reopened.get(tenant="default", id=kept).content == "Stored by the agent meanwhile"
    finally:
        reopened.close()


def test_stats_for_people_has_headings_in_words_and_json_keeps_the_keys(db_path, capsys):
    run(capsys, "remember", "The build runs on Fridays", "--db", str(db_path))
    code, out, err = run(capsys, "stats", "--db", str(db_path))
    headings = [line.split(":")[0] for line in out.splitlines() if not line.startswith(" ")]
    assert code == 0 and headings and not [h for h in headings if "_" in h], out
    assert "vectors pending: 0" in out and "current memories by kind:" in out and "model: " in out
    code, out, err = run(capsys, "stats", "--json", "--db", str(db_path))
    assert {"vectors_pending", "model_id", "by_kind"} <= set(json.loads(out))


def test_list_says_how_many_of_how_many_and_pages_through_the_rest_with_offset(db_path, capsys):
    db = ["--db", str(db_path)]
    lines = [{"content": f"Note number {i}", "observed_at": f"2026-01-{i:02d}T09:00:00Z"} for i in range(1, 26)]
    lines += [{"content": f"Session {i}", "kind": "episode", "observed_at": f"2026-02-{i:02d}T09:00:00Z"}
              for i in range(1, 4)]
    source = db_path.parent / "notes.jsonl"
    source.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert run(capsys, "import", str(source), *db)[0] == 0
    code, out, _ = run(capsys, "list", "--kind", "fact", *db)
    assert code == 0 and out.splitlines()[0] == "20 of 25 memories, newest first:"
    assert '"Note number 25"' in out.splitlines()[1] and out.splitlines()[-1].startswith(
        "More follow: run it again with --cursor ")
    code, out, _ = run(capsys, "list", "--kind", "fact", "--offset", "20", *db)
    assert code == 0 and out.splitlines()[0] == "Memories 21-25 of 25, newest first:"
    assert [line.split(".", 1)[0] for line in out.splitlines()[1:]] == [str(n) for n in range(21, 26)]
    shown = [line.split(": ", 1)[1].split(" — strength ")[0] for line in out.splitlines()[1:]]
    assert shown == [f'"Note number {i}"' for i in range(5, 0, -1)]
    code, out, _ = run(capsys, "list", "--kind", "fact", "--offset", "18", "--limit", "3", *db)
    assert out.splitlines()[0] == "Memories 19-21 of 25, newest first:" and "--offset 21 " in out.splitlines()[-1]
    code, out, _ = run(capsys, "list", "--kind", "episode", *db)
    assert out.splitlines()[0] == "3 of 3 memories, newest first:" and "--offset" not in out and "--cursor" not in out
    code, out, _ = run(capsys, "list", "--kind", "fact", "--offset", "30", *db)
    assert code == 0 and out.strip() == "No memories after the newest 30: 25 memories match these filters."
    code, out, err = run(capsys, "list", "--kind", "fact", "--offset", "-1", *db)
    assert code == 2 and err.strip().endswith("--offset: must be an integer from 0 to 1,000,000,000; got -1")


def test_list_json_gives_the_total_and_the_next_offset_null_at_the_end(db_path, capsys):
    db = ["--db", str(db_path)]
    source = db_path.parent / "notes.jsonl"
    source.write_text("".join(json.dumps({"content": f"Note number {i}", "observed_at": f"2026-01-{i:02d}T09:00:00Z"})
                              + "\n" for i in range(1, 8)))
    assert run(capsys, "import", str(source), *db)[0] == 0
    seen, offset, pages = [], 0, []
    while offset is not None:
        code, out, _ = run(capsys, "list", "--json", "--limit", "3", "--offset", str(offset), *db)
        page = json.loads(out)
        assert code == 0 and page["total"] == 7
        seen += [m["content"] for m in page["memories"]]
        pages.append(page["next_offset"])
        offset = page["next_offset"]
    assert pages == [3, 6, None] and seen == [f"Note number {i}" for i in range(7, 0, -1)]
    seen, cursor, sizes = [], None, []
    while True:  # the same pages by cursor, the text saying which comes next
        code, out, _ = run(capsys, "list", "--json", "--limit", "3", *db, *(["--cursor", cursor] if cursor else []))
        page = json.loads(out)
        seen += [m["content"] for m in page["memories"]]
        sizes.append(len(page["memories"]))
        if page["next_cursor"] is None:
            break
        text = run(capsys, "list", "--limit", "3", *db, *(["--cursor", cursor] if cursor else []))[1]
        assert text.splitlines()[-1] == f"More follow: run it again with --cursor {page['next_cursor']} (and the same filters)."
        assert text.splitlines()[0] == ("3 more of 7 memories, newest first:" if cursor else "3 of 7 memories, newest first:")
        cursor = page["next_cursor"]
    assert sizes == [3, 3, 1] and seen == [f"Note number {i}" for i in range(7, 0, -1)]
    code, _, err = run(capsys, "list", "--cursor", "nope!", *db)
    assert code == 2 and err.startswith("memvault: --cursor: is not a cursor a listing gave")
    code, _, err = run(capsys, "list", "--limit", "3", "--cursor", (page["next_cursor"] or cursor)[:-2], *db)
    assert code == 2 and err.startswith("memvault: --cursor: is not a cursor a listing gave") and "changed or cut" in err
    code, _, err = run(capsys, "list", "--cursor", page["next_cursor"] or cursor, "--kind", "fact", *db)
    assert code == 2 and err.startswith("memvault: --cursor: was given by a listing with other filters or scopes: "
                                        "page with the same --kind, --tag, --since, --until and --scope")
    page = json.loads(run(capsys, "list", "--json", "--offset", "30", *db)[1])
    assert page["memories"] == [] and page["total"] == 7 and page["next_offset"] is None
    page = json.loads(run(capsys, "list", "--json", "--kind", "episode", *db)[1])
    assert page["total"] == 0 and page["next_offset"] is None


def test_the_list_and_recall_help_give_the_limit_s_maximum(capsys):
    for command in ("list", "recall"):
        with pytest.raises(SystemExit):
            cli.main([command, "--help"])
        out = " ".join(capsys.readouterr().out.split())
        assert "--limit LIMIT at most this many, 1 to 50 (default" in out
    with pytest.raises(SystemExit):
        cli.main(["list", "--help"])
    assert "--offset OFFSET" in capsys.readouterr().out


@pytest.mark.parametrize("before", [["--db", "{db}"], ["--db={db}"], ["--db", "{db}", "--json"]])
def test_flags_before_the_command_are_read_as_after_it(db_path, capsys, before):
    flags = [f.format(db=db_path) for f in before]
    assert run(capsys, *flags, "remember", "The staging DB is db-stg-03")[0] == 0
    code, out, err = run(capsys, *flags, "recall", "--", "--staging")  # after "--", a query, never a flag
    assert code == 0 and "db-stg-03" in out, err
    after = run(capsys, "stats", *flags)
    assert run(capsys, *flags, "stats") == after and after[0] == 0
    if "--json" not in flags:  # keys takes no --json
        assert run(capsys, *flags, "keys", "list")[0] == 0


def test_a_flag_before_a_command_that_does_not_take_it_is_refused_naming_the_command(db_path, capsys):
    with pytest.raises(SystemExit) as caught:
        cli.main(["--tenant", "acme", "stats", "--db", str(db_path)])
    assert caught.value.code == 2
    assert ("memvault stats: error: `memvault stats` takes no --tenant (it covers the whole database: every tenant "
            "and scope); its flags: --db, --json") in capsys.readouterr().err


def test_only_flags_typed_at_a_terminal_say_that_a_command_is_needed(db_path, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    with pytest.raises(SystemExit) as caught:
        cli.main(["--db", str(db_path)])
    err = capsys.readouterr().err
    assert caught.value.code == 2 and f"--db goes with a COMMAND, e.g. `memvault stats --db {db_path}`" in err
    assert "invalid choice" not in err


def test_no_memvault_database_at_a_url_is_worded_for_a_url(pg_url, capsys):
    code, _, err = run(capsys, "stats", "--db", pg_url)
    assert code == 1 and "no database at postgresql://" in err and "tables are not in that PostgreSQL database" in err and "give its URL with --db" in err
    assert "that file" not in err


def test_the_top_level_help_names_the_flags_allowed_before_the_command(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    out = capsys.readouterr().out
    listed = out.split("flags allowed before the command", 1)[1]
    for flag in cli.LEADING:
        assert f"\n  {flag}" in listed, flag


@pytest.mark.parametrize(("argv", "flag", "command"), [
    (["--limit", "3", "list"], "--limit", "list"),
    (["--limit=3", "list"], "--limit", "list"),
    (["--db", "x.db", "--offset", "20", "list"], "--offset", "list"),
    (["--reason", "old", "forget", "0190a8e4"], "--reason", "forget"),
])
def test_a_command_flag_before_the_command_says_it_goes_after_it(capsys, argv, flag, command):
    """New-user trial: `memvault --limit 3 list` said "invalid choice: '3'"."""
    with pytest.raises(SystemExit) as caught:
        cli.main(argv)
    err = capsys.readouterr().err
    assert caught.value.code == 2 and "invalid choice" not in err
    assert f"memvault: error: {flag} goes after the command: `memvault {command} {flag} ...`" in err


def test_import_into_a_new_database_says_so_before_its_summary(tmp_path, capsys):
    dump, db = tmp_path / "m.jsonl", tmp_path / "new.db"
    dump.write_text(json.dumps({"content": "The build agent runs the nightly job."}) + "\n")
    code, _, err = run(capsys, "import", str(dump), "--db", str(db))
    assert code == 0 and err.count("created a new database") == 1
    assert err.index(f"created a new database at {db}") < err.index("imported 1 of 1 memory line")


_LINES = [{"content": "Caf\u00e9 au lait is what Ren\u00e9e drinks at standup", "kind": "preference"},
          {"content": "The na\u00efve retry loop was removed from the billing worker"}]


@pytest.mark.parametrize(("encoding", "says"), [
    ("latin-1", "it is not UTF-8 (byte 0xE9 at offset 16"),
    ("cp1252", "it is not UTF-8 (byte 0xE9 at offset 16"),
    ("utf-16", "it looks like UTF-16 (it starts with a UTF-16 byte-order mark)"),
    ("utf-16-le", "it looks like UTF-16 or UTF-32 (it holds NUL bytes)"),
    ("utf-16-be", "it looks like UTF-16 or UTF-32 (it holds NUL bytes)"),
    ("utf-32", "it looks like UTF-32 (it starts with a UTF-32 byte-order mark)"),
])
def test_import_of_a_file_not_in_utf8_is_one_error_naming_the_encoding_and_writes_nothing(tmp_path, capsys,
                                                                                            encoding, says):
    dump, db = tmp_path / "m.jsonl", tmp_path / "m.db"
    dump.write_bytes("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in _LINES * 30).encode(encoding))
    code, _, err = run(capsys, "import", "--db", str(db), str(dump))
    assert code == 2 and says in err and "memvault imports JSON lines in UTF-8" in err, err
    assert "nothing was imported" in err and err.count("\n") == 1  # one error, not one per line
    assert "lone surrogate" not in err and "not valid JSON" not in err and not db.exists()


@pytest.mark.parametrize("encoding", ["latin-1", "cp1252", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le"])
def test_the_conversion_an_import_not_in_utf8_suggests_works(tmp_path, encoding, cli_here):
    """The command said is run as said (it was `iconv -t UTF-8`, which without -f reads UTF-8 and fails)."""
    from memvault.tools import handlers

    dump, db = tmp_path / "my dump.jsonl", tmp_path / "m.db"
    dump.write_bytes("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in _LINES * 30).encode(encoding))
    refused = cli_here(["import", str(dump)], server_env(db))
    assert refused.returncode == 2 and not db.exists(), refused.stderr
    command = re.search(r"convert it, e\.g\. `(iconv [^`]+)` and import that", refused.stderr)
    assert command is not None, refused.stderr
    subprocess.run(command[1], shell=True, check=True, cwd=tmp_path, timeout=60)
    done = cli_here(["import", f"{dump}.utf8"], server_env(db))
    assert done.returncode == 0 and "imported 2 of 60 memory lines" in done.stderr, done.stderr
    store = Store(db)
    try:
        stored = {m.content for m in handlers.list_memories(store, handlers.Caller("default", "default")).memories}
    finally:
        store.close()
    assert stored == {line["content"] for line in _LINES}


def test_import_reads_a_named_pipe_and_dev_null_as_streams(tmp_path, cli_here):
    """A named pipe, /dev/null and <(...) exist: they were said not to ("does not exist")."""
    import threading

    db, pipe = tmp_path / "m.db", tmp_path / "lines"
    os.mkfifo(pipe)
    writer = threading.Thread(target=lambda: pipe.write_text(json.dumps({"content": "The pipe carried this"}) + "\n"))
    writer.start()
    done = cli_here(["import", str(pipe)], server_env(db))
    writer.join()
    assert done.returncode == 0 and "imported 1 of 1 memory line" in done.stderr, done.stderr
    empty = cli_here(["import", "/dev/null"], server_env(db))
    assert empty.returncode == 0 and "imported 0 of 0 memory lines" in empty.stderr, empty.stderr
    gone = cli_here(["import", str(tmp_path / "nowhere.jsonl")], server_env(db))
    assert gone.returncode == 2 and "' does not exist: nothing to import" in gone.stderr, gone.stderr


def test_import_of_utf8_with_a_byte_order_mark_is_taken(tmp_path, capsys):
    dump, db = tmp_path / "m.jsonl", tmp_path / "m.db"
    dump.write_bytes(b"\xef\xbb\xbf" + "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in _LINES).encode())
    code, _, err = run(capsys, "import", "--db", str(db), str(dump))
    assert code == 0 and "imported 2 of 2 memory lines" in err, err


def test_import_of_a_file_whose_late_line_is_latin1_is_refused_whole(tmp_path, capsys):
    dump, db = tmp_path / "m.jsonl", tmp_path / "m.db"
    good = "".join(json.dumps({"content": f"Runner {i} builds the nightly image"}) + "\n" for i in range(3000))
    dump.write_bytes(good.encode() + json.dumps(_LINES[0], ensure_ascii=False).encode("latin-1") + b"\n")
    code, _, err = run(capsys, "import", "--db", str(db), str(dump))
    assert code == 2 and f"byte 0xE9 at offset {len(good.encode()) + 16:,}" in err and not db.exists(), err


LATE = 180  # lines before the one not in UTF-8


@pytest.mark.parametrize("late", [False, True])
def test_import_from_stdin_not_in_utf8_says_so_once(tmp_path, late):
    import sys

    from memvault.server.cli_io import UTF8_SAMPLE_BYTES

    db = tmp_path / "m.db"
    words = " ".join(f"then stage {j} of the pipeline" for j in range(12))
    head = b"".join(json.dumps({"content": f"Runner {i} builds the nightly image, {words}"}).encode() + b"\n"
                    for i in range(LATE if late else 0))
    assert not late or len(head) > UTF8_SAMPLE_BYTES  # past all stdin's buffer can hold of what is looked at first
    data = head + b"".join(json.dumps(line, ensure_ascii=False).encode("latin-1") + b"\n" for line in _LINES * 5)
    done = subprocess.run([sys.executable, "-m", "memvault.server", "import", "-"], input=data,
                          env=server_env(db), capture_output=True, timeout=180)
    said = done.stderr.decode()
    assert "lone surrogate" not in said and "not valid JSON" not in said, said
    if late:  # past what stdin's buffer held: the lines before it are imported, and the import stops there
        assert done.returncode == 1 and f"line {LATE + 1}: line: is not UTF-8: the import stopped here" in said
        assert f"imported {LATE} of {LATE} memory lines" in said and said.count("not UTF-8") == 1
    else:
        assert done.returncode == 2 and "stdin: it is not UTF-8 (byte 0xE9 at offset 16" in said and not db.exists()


@pytest.mark.parametrize(("line", "field", "what"), [
    ({"content": "The VPN is on port 1194", "colour": "red"}, "colour", "a line"),  # a memory line, as before
    ({"session_id": "s-2", "turns": [], "tenant_hint": "x"}, "tenant_hint", "a session's line"),
    ({"session_id": "s-2", "started": "2026-01-01T00:00:00Z", "turns": [{"seq": 1, "role": "user", "text": "hi"}]},
     "started", "a session's line"),
    ({"session_id": "s-2", "turns": [{"seq": 1, "role": "user", "text": "hi", "mood": "fine"}]}, "turns[0].mood",
     "a turn"),
    ({"session_id": "s-2", "turns": [{"seq": 1, "role": "user", "text": "hi"},
                                     {"seq": 2, "role": "assistant", "txt": "typo"}]}, "turns[1].txt", "a turn"),
    ({"content": "x", "a\nline 9: forged": 1}, "'a\\nline 9: forged'", "a line"),  # quoted: no forged line
])
def test_import_refuses_an_unknown_field_on_memory_session_and_turn_lines_alike(tmp_path, capsys, line, field, what):
    """The unknown field is named as the field (it was "line: has the field 'colour'")."""
    dump, db = tmp_path / "m.jsonl", tmp_path / "m.db"
    good = {"session_id": "s-1", "turns": [{"seq": 1, "role": "user", "text": "hello"}]}
    dump.write_text(json.dumps(good) + "\n" + json.dumps(line) + "\n")
    code, _, err = run(capsys, "import", "--db", str(db), str(dump))
    said = f"line 2: {field}: is not a field of "
    assert code == 1 and said in err and not any(shown.startswith("line 9") for shown in err.splitlines()), err
    if what == "a line":
        assert f"{said}memvault's export format; a line from elsewhere needs only content, e.g. " in err, err
    else:
        assert f"{said}{what} in memvault's export format (the fields: " in err, err
    store = Store(db)
    try:
        assert [s.id for s in store.episodes.sessions(tenant="default")] == ["s-1"]  # nothing of line 2
    finally:
        store.close()


def test_an_export_of_a_tenant_with_nothing_says_so_on_stderr(tmp_path, cli_here):
    """It wrote 0 bytes and said nothing (a mistyped --tenant looked like a good backup)."""
    db = tmp_path / "m.db"
    made = cli_here(["remember", "Deploys go out on Tuesdays"], server_env(db))
    assert made.returncode == 0, made.stderr
    for tenant, lines in (("nosuch", 0), ("default", 1)):
        done = cli_here(["export", "--tenant", tenant], server_env(db))
        assert done.returncode == 0 and len(done.stdout.splitlines()) == lines, done.stderr
        said = (f"exported nothing: tenant '{tenant}' has no memories or sessions in this database; if yours are "
                "under another tenant, give it with --tenant or MEMVAULT_TENANT")
        assert (said in done.stderr) == (lines == 0), done.stderr


@pytest.mark.parametrize(("name", "meant"), [("text", True), ("body", True), ("note", True), ("Text", True),
                                             ("colour", False), ("contents", False)])
def test_an_unknown_field_another_format_uses_for_the_text_asks_whether_content_was_meant(tmp_path, capsys, name,
                                                                                       meant):
    dump, db = tmp_path / "m.jsonl", tmp_path / "m.db"
    dump.write_text(json.dumps({"content": "The VPN is on port 1194"}) + "\n" + json.dumps({name: "x"}) + "\n")
    code, _, err = run(capsys, "import", "--db", str(db), str(dump))
    said = f"line 2: {name}: is not a field of memvault's export format"
    assert code == 1 and said in err and ("(did you mean content?)" in err) == meant, err
    assert "needs only content" in err and "imported 1 of 2 memory lines" in err, err


@pytest.mark.usefixtures("one_model")
def test_remember_and_supersede_read_their_text_from_stdin_given_a_dash(tmp_path, capsys, monkeypatch):
    """As ``import -`` reads its lines (trial 51: ``remember -`` stored a memory "-")."""
    import io
    import sys

    db = str(tmp_path / "m.db")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO("The deploy runs from the ops laptop.\n".encode())))
    code, out, _ = run(capsys, "remember", "-", "--db", db, "--json")
    assert code == 0
    memory_id = json.loads(out)["id"]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO("The deploy runs from CI since May.".encode())))
    code, out, _ = run(capsys, "supersede", memory_id, "-", "--db", db, "--json")
    assert code == 0
    code, out, _ = run(capsys, "list", "--db", db, "--json")
    assert [m["content"] for m in json.loads(out)["memories"]] == ["The deploy runs from CI since May."]


@pytest.mark.usefixtures("one_model")
def test_remember_from_stdin_reads_utf8_whatever_the_code_page_and_says_when_it_is_not(tmp_path):
    """Trial 54 #8: under PYTHONIOENCODING=cp1252 ``remember -`` raised a traceback on UTF-8 input, or
    stored a byte-order mark and mojibake."""
    import sys

    db = tmp_path / "m.db"
    env = {**server_env(db), "PYTHONIOENCODING": "cp1252"}
    text = "The BOM note: naïve résumé — “quoted” 東京"
    done = subprocess.run([sys.executable, "-m", "memvault.server", "remember", "-", "--json"],
                          input=b"\xef\xbb\xbf" + text.encode(), env=env, capture_output=True, timeout=180)
    assert done.returncode == 0 and "Traceback" not in done.stderr.decode("utf-8", "replace")
    memory_id = json.loads(done.stdout)["id"]
    store = Store(db)
    try:
        assert store.get(tenant="default", id=memory_id).content == text
    finally:
        store.close()
    refused = subprocess.run([sys.executable, "-m", "memvault.server", "remember", "-"], input="café".encode("latin-1"),
                             env=env, capture_output=True, timeout=180)
    said = refused.stderr.decode("cp1252", "replace")
    assert refused.returncode == 2 and "CONTENT: standard input: it is not UTF-8" in said and "Traceback" not in said


@pytest.mark.parametrize("argv", [
    ["--db", "{a}", "remember", "Flag order note.", "--db", "{b}"],
    ["remember", "--db", "{a}", "Flag order note.", "--db", "{b}"],
    ["--db", "{a}", "--tenant", "t1", "remember", "Flag order note.", "--tenant", "t2"],
    ["--db", "{a}", "remember", "Flag order note.", "--scope", "s1", "--scope", "s2"],
    ["--db", "{a}", "remember", "Flag order note.", "--kind", "fact", "--kind", "decision"],
    ["--db", "{a}", "--scope", "s1", "recall", "note", "--scope", "s2"],
    ["--db", "{a}", "list", "--limit", "2", "--limit", "3"],
    ["--db", "{a}", "import", "{a}.jsonl", "--db", "{b}"],
])
def test_a_flag_given_twice_with_two_values_is_refused_and_nothing_is_written(tmp_path, capsys, argv):
    """argparse keeps the last of a repeated flag, and a flag written before the command is read after
    it: `memvault --db A remember x --db B` wrote to A and never said so (trial 60 #10)."""
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    (tmp_path / "a.db.jsonl").write_text("")
    argv = [word.format(a=a, b=b) for word in argv]
    flag = next(word for word in argv if argv.count(word) == 2 and word.startswith("--"))
    with pytest.raises(SystemExit) as stopped:
        cli.main(argv)
    assert stopped.value.code == 2
    assert f"{flag} is given twice" in capsys.readouterr().err
    assert not a.exists() and not b.exists()


@pytest.mark.parametrize("argv", [["--db", "{a}", "remember", "Same flag twice.", "--db", "{a}"],
                                  ["remember", "--tag", "x", "--tag", "y", "--db", "{a}", "Same flag twice."]])
def test_a_flag_given_twice_with_one_value_or_a_repeatable_flag_is_taken(tmp_path, capsys, argv):
    a = tmp_path / "a.db"
    assert cli.main([word.format(a=a) for word in argv]) == 0
    capsys.readouterr()
    assert cli.main(["list", "--db", str(a), "--json"]) == 0
    assert [m["content"] for m in json.loads(capsys.readouterr().out)["memories"]] == ["Same flag twice."]
