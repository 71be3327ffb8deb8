"""A database on a read-only file system: reads are served, writes refused as read-only
(it said "unable to open database file" to every command). Needs a private mount
namespace (``unshare -m``, as root); skipped where there is none."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys

import httpx2
import pytest
from conftest import server_env
from fakes import FakeEmbedder

from memvault.storage.store import Store


def _can_mount_read_only() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount --bind /tmp /tmp && mount -o remount,ro,bind /tmp"],
                           capture_output=True)
    return probe.returncode == 0


pytestmark = pytest.mark.skipif(not _can_mount_read_only(), reason="needs unshare -m and mount (root)")


def mounted_read_only(folder, command: list[str]) -> list[str]:
    """``command`` run with ``folder`` mounted read-only for that process only."""
    script = f"mount --bind {shlex.quote(str(folder))} {shlex.quote(str(folder))} && " \
             f"mount -o remount,ro,bind {shlex.quote(str(folder))} && exec {shlex.join(command)}"
    return ["unshare", "-m", "sh", "-c", script]


def read_only(folder, db, *argv: str) -> subprocess.CompletedProcess[str]:
    """``memvault ARGV`` with ``folder`` mounted read-only for that process only."""
    return subprocess.run(mounted_read_only(folder, [sys.executable, "-m", "memvault.server", *argv]),
                          env=server_env(db), capture_output=True, text=True, timeout=180)


@pytest.fixture
def stored(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "memvault.db"
    store = Store(db, FakeEmbedder())  # type: ignore[arg-type]
    try:
        for content in ("The staging DB is db-stg-03", "Deploys go out on Tuesdays"):
            store.remember(tenant="default", scope="default", content=content)
    finally:
        store.close()  # the last connection: the WAL is checkpointed and removed
    return folder, db


@pytest.mark.parametrize(("argv", "says"), [
    (["list"], "Deploys go out on Tuesdays"),
    (["list", "--json"], "db-stg-03"),
    (["recall", "staging database"], "db-stg-03"),
    (["export"], "db-stg-03"),
    (["show", "--json", "0"], None),  # an unknown id: refused as usual, not as a failure to open
    (["stats"], "current"),
])
def test_reads_are_served_from_a_read_only_file_system(stored, argv, says):
    folder, db = stored
    before = sorted(p.name for p in folder.iterdir())
    done = read_only(folder, db, *argv)
    assert "unable to open" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    if says is not None:
        assert done.returncode == 0 and says in done.stdout
    assert sorted(p.name for p in folder.iterdir()) == before


@pytest.mark.parametrize("argv", [["remember", "Written on a read-only disk"], ["forget", "0000000000"],
                                  ["import", "-"]])
def test_a_write_on_a_read_only_file_system_is_refused_as_read_only(stored, argv):
    folder, db = stored
    done = read_only(folder, db, *argv)
    assert "unable to open" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    if argv[0] == "remember":
        assert done.returncode == 1 and "the database is read-only here" in done.stderr
        assert "nothing was written" in done.stderr


def test_a_new_database_on_a_read_only_file_system_says_read_only(tmp_path):
    done = read_only(tmp_path, tmp_path / "new.db", "remember", "Nowhere to go")
    assert done.returncode == 2 and "is on a read-only file system" in done.stderr and not (tmp_path / "new.db").exists()


REFUSED = "the database is read-only here (the file is on a read-only file system)"


async def _reads_served_writes_refused(c) -> None:
    """Recall, the boot resource and a memory's resource answer; each write is refused, naming why."""
    r = await c.call_tool("recall", {"query": "which host is the staging database"})
    assert not r.is_error and "db-stg-03" in r.structured_content["memories"][0]["content"]
    first = r.structured_content["memories"][0]["id"]
    assert "Deploys go out on Tuesdays" in (await c.read_resource("memory://boot")).contents[0].text
    assert first in (await c.read_resource(f"memory://memories/{first}")).contents[0].text
    for tool, args in [("remember", {"content": "Written on a read-only disk"}), ("forget", {"id": first}),
                       ("supersede", {"id": first, "content": "The staging DB is db-stg-04"}),
                       ("confirm", {"id": first})]:
        r = await c.call_tool(tool, args)
        text = r.content[0].text
        assert r.is_error and REFUSED in text and "nothing was written" in text, (tool, text)


@pytest.mark.slow
@pytest.mark.parametrize("auth", ["none", "keys"])
@pytest.mark.asyncio
async def test_the_team_server_serves_reads_from_a_read_only_file_system(stored, auth):
    """Issue 25's closing pass: the server opened the file, then its readiness read opened it again
    without SQLite's immutable flag, and every call (recall too) got 503 "unable to open database file"."""
    from httpwire import HttpServer, client, new_key

    folder, db = stored
    key = new_key(db, "default") if auth == "keys" else "none"
    before = sorted(p.name for p in folder.iterdir())
    server = HttpServer(db, "--auth", auth, logs=folder.parent,
                        wrap=lambda command: mounted_read_only(folder, command))
    try:
        health = httpx2.get(f"{server.base}/healthz", timeout=10)
        assert health.status_code == 200, health.text
        assert health.json()["database"] == "read-only"
        assert health.json()["writes"] == "refused: the file is on a read-only file system"
        async with client(server.url, key) as c:
            await _reads_served_writes_refused(c)
        log = server.log()
    finally:
        server.close()
    assert "unable to open" not in log and "Traceback" not in log, log
    assert "is read-only here (the file is on a read-only file system)" in log
    assert sorted(p.name for p in folder.iterdir()) == before


@pytest.mark.slow
@pytest.mark.asyncio
async def test_stdio_serves_reads_from_a_read_only_file_system(stored, tmp_path):
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    folder, db = stored
    command = mounted_read_only(folder, [sys.executable, "-m", "memvault.server", "serve"])
    params = StdioServerParameters(command=command[0], args=command[1:], env=server_env(db))
    with open(tmp_path / "server.log", "w") as errlog:
        async with Client(stdio_client(params, errlog=errlog)) as c:
            await _reads_served_writes_refused(c)
    log = (tmp_path / "server.log").read_text()
    assert "unable to open" not in log and "Traceback" not in log, log


HOOK_EVENTS = ["Stop", "PostToolUse", "SessionEnd", "PreCompact", "SessionStart", "UserPromptSubmit"]


@pytest.mark.parametrize("event", HOOK_EVENTS)
def test_a_hook_on_a_read_only_file_system_says_so_in_memvaults_words(stored, tmp_path, event):
    import json
    from pathlib import Path

    folder, db = stored
    transcript = tmp_path / "t.jsonl"
    transcript.write_bytes((Path(__file__).parent / "data" / "claude_code_session.jsonl").read_bytes())
    payload = {"session_id": "5d0c7a51-2f3e-4b8a-9c1d-0e6f7a8b9c01", "transcript_path": str(transcript),
               "cwd": "/tmp", "hook_event_name": event, "prompt": "where is the staging DB?", "tool_name": "Bash",
               "tool_input": {"command": "ls"}, "tool_response": {"stdout": "x"}}
    (tmp_path / "in.json").write_text(json.dumps(payload))
    command = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "memvault.server", "hook", "claude-code", event])
    script = f"mount --bind {shlex.quote(str(folder))} {shlex.quote(str(folder))} && " \
             f"mount -o remount,ro,bind {shlex.quote(str(folder))} && exec {command} < {tmp_path / 'in.json'}"
    done = subprocess.run(["unshare", "-m", "sh", "-c", script], env=server_env(db), capture_output=True,
                          text=True, timeout=180)
    assert done.returncode in (0, 1), done.stderr  # never 2: that would block the session
    assert not re.search(r"\b[A-Z][a-z]+[A-Z]\w*(Error|Unavailable|Exception)?\b:", done.stderr), done.stderr
    assert "Traceback" not in done.stderr and "StorageUnavailable" not in done.stderr
    if done.returncode:  # a hook that writes: refused as read-only, in the words every command uses
        assert f"claude-code {event} hook failed: the database is read-only here" in done.stderr
        assert "nothing was written" in done.stderr


def test_doctor_on_a_read_only_file_system_says_the_fts5_check_could_not_run_once(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "memvault.db"
    store = Store(db, FakeEmbedder())  # type: ignore[arg-type]
    try:
        for tenant in ("alpha", "bravo", "charlie", "delta"):
            store.remember(tenant=tenant, scope="default", content=f"{tenant} deploys on Tuesdays")
    finally:
        store.close()
    done = read_only(folder, db, "doctor")
    said = done.stdout + done.stderr
    # A read-only file is not a problem: one note, and doctor --repair (which writes) not suggested.
    assert said.count("note: the database is read-only here (the file is on a read-only file system): every "
                      "check that reads ran, not the FTS5 index's own check") == 1, said
    assert "the FTS5 index could not be checked" not in said and "problem: the database is read-only" not in said
    assert "nothing can be repaired here" in said and "or doctor --repair)" not in said


def test_import_of_transcripts_on_a_read_only_file_system_names_no_class(stored, tmp_path):
    from pathlib import Path

    folder, db = stored
    transcript = tmp_path / "5d0c7a51-2f3e-4b8a-9c1d-0e6f7a8b9c01.jsonl"
    transcript.write_bytes((Path(__file__).parent / "data" / "claude_code_session.jsonl").read_bytes())
    done = read_only(folder, db, "import", "--from", "claude-code", str(transcript))
    assert done.returncode == 1 and "the database is read-only here" in done.stderr, done.stderr
    assert "StorageUnavailable" not in done.stderr and "Traceback" not in done.stderr


def test_doctor_of_a_sound_file_on_a_read_only_file_system_notes_it_and_exits_0(tmp_path, cli_here):
    """It said "problem: the FTS5 index could not be checked" and exited 1, suggesting nothing that works."""
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "memvault.db"
    made = cli_here(["remember", "Deploys go out on Tuesdays"], server_env(db))  # (doctor runs read-only below)
    assert made.returncode == 0, made.stderr
    for argv in (["doctor"], ["doctor", "--json"]):
        done = read_only(folder, db, *argv)
        assert done.returncode == 0 and "problem:" not in done.stdout + done.stderr, done.stdout + done.stderr
        if argv == ["doctor"]:
            assert "note: the database is read-only here (the file is on a read-only file system)" in done.stdout
        else:
            report = json.loads(done.stdout)
            assert report["ok"] and report["problems"] == [] and "nothing can be repaired" in report["notes"][0]
