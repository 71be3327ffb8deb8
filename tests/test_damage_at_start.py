"""A server started on a damaged SQLite file says so (issue 25 §6): the team server's /healthz is a JSON 503
"not ready" with reason "damaged" (never a path), its tool calls a 503 ``database_unavailable`` saying the
file is damaged, its log names the database and the damage once, never a traceback; ``memvault serve`` on
stdio says it on stderr and in each tool result. Damage the opening meets (a cut file, a schema page or the
header's page size written over, SQLite's header over noise) and damage only reads meet (a page written over)
alike; damage the settings' check finds before opening (the header written over, a cut inside a page, a file
that is no database, a folder) stops the server at once with one line saying which check failed.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import anyio
import httpx2
import pytest
from conftest import SERVE, server_env
from damaged_files import DAMAGED, PAGE, calls
from httpwire import HttpServer, free_port
from wire import StdioServer


pytestmark = pytest.mark.slow
OPEN_FAILED = f"cannot be opened: {DAMAGED}"  # the log's line, once


def _written(offset: Callable[[int], int], data: bytes) -> Callable[[Path], None]:
    def write(db: Path) -> None:
        with open(db, "r+b") as f:
            f.seek(offset(db.stat().st_size))
            f.write(data)
    return write


def _cut_to(size: Callable[[int], int]) -> Callable[[Path], None]:
    def cut(db: Path) -> None:
        os.truncate(db, size(db.stat().st_size))
    return cut


def _noise_after_the_header(db: Path) -> None:
    noise = random.Random(7)
    db.write_bytes(b"SQLite format 3\x00\x10\x00" + bytes(noise.randrange(256) for _ in range(8 * PAGE - 18)))


def _folder(db: Path) -> None:
    db.unlink()
    db.mkdir()


# Damage the opening meets: the database cannot be opened at all.
OPEN_FAILS = {
    "last page gone": _cut_to(lambda size: size - PAGE),
    "cut in half": _cut_to(lambda size: size // 2 // PAGE * PAGE),
    "schema page written over": _written(lambda size: 100, b"not a database page" * 50),
    "page size written over": _written(lambda size: 16, b"\x00\x03"),
    "SQLite's header over noise": _noise_after_the_header,
}
# Damage only reads meet: opened, reads served where SQLite can, writes refused once the check at start found it.
READ_FAILS = {
    "middle page written over": _written(lambda size: size // PAGE // 2 * PAGE, b"\xa5" * PAGE),
    "last page zeroed": _written(lambda size: size - PAGE, b"\x00" * PAGE),
}
# Damage the settings' check finds before opening: (exit code, what stderr says).
REFUSED = {
    "header zeroed": (_written(lambda size: 0, b"\x00" * 100), 1, "the header check failed"),
    "cut inside a page": (_cut_to(lambda size: size // 2 - 1000), 1, "is not a whole number of 4,096-byte pages"),
    "not a database": (lambda db: db.write_bytes(b"hello, these are notes, not a database\n" * 300), 2,
                       "is not an SQLite database in clear"),
    "a folder": (_folder, 2, "is a folder"),
}
RECALL = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
          "params": {"name": "recall", "arguments": {"query": "which host runs svc-42"}}}
REMEMBER = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "remember", "arguments": {"content": "The printer on floor 3 is out of toner."}}}


def _damaged_copy(tmp_path: Path, fleet: tuple[Path, str], damage: Callable[[Path], None]) -> Path:
    db = tmp_path / "m.db"
    shutil.copy(fleet[0], db)
    damage(db)
    return db


def _health(server: HttpServer) -> httpx2.Response:
    return httpx2.get(f"{server.base}/healthz", timeout=30)


def _settled(server: HttpServer, past: tuple[str, ...] = ("opening",)) -> httpx2.Response:
    """The first /healthz whose ``database`` is none of ``past`` (the opening is tried a moment after start)."""
    deadline = time.monotonic() + 60
    while (health := _health(server)).json()["database"] in past and time.monotonic() < deadline:
        time.sleep(0.1)
    return health


def _not_ready_damaged(health: httpx2.Response, db: Path) -> None:
    said = health.json()
    assert health.status_code == 503 and said == {"status": "error", "database": "not ready", "reason": "damaged",
                                                  "model": said["model"]}, health.text
    assert str(db) not in health.text and db.name not in health.text


@pytest.mark.parametrize("damage", OPEN_FAILS.values(), ids=OPEN_FAILS)
def test_a_team_server_started_on_a_file_it_cannot_open_is_not_ready_because_damaged(
        tmp_path: Path, fleet: tuple[Path, str], damage: Callable[[Path], None]) -> None:
    db = _damaged_copy(tmp_path, fleet, damage)
    server = HttpServer(db, logs=tmp_path, ready=False)
    try:
        looks = [_settled(server)]
        answers = [server.post(fleet[1], body) for body in (RECALL, REMEMBER, RECALL)]
        looks.append(_health(server))
        log = server.log()
    finally:
        server.close()
    for health in looks:
        _not_ready_damaged(health, db)
    for answer in answers:  # refused before any tool: nothing is read or written
        said = answer.json()
        assert answer.status_code == 503 and said["error"]["data"]["error"] == "database_unavailable", answer.text
        assert said["error"]["message"].startswith(DAMAGED) and "memvault doctor" in said["error"]["message"]
        assert str(db) not in answer.text
    assert "Traceback" not in log and log.count(OPEN_FAILED) == 1 and str(db) in log, log


@pytest.mark.parametrize("damage", READ_FAILS.values(), ids=READ_FAILS)
def test_a_team_server_started_on_a_file_damaged_in_its_pages_refuses_writes_and_says_damaged(
        tmp_path: Path, fleet: tuple[Path, str], damage: Callable[[Path], None]) -> None:
    db = _damaged_copy(tmp_path, fleet, damage)
    server = HttpServer(db, logs=tmp_path, ready=False)
    try:
        found = _settled(server, past=("opening", "ready"))  # the check at start found the damage
        (recall_failed, recall_text), (remember_failed, remember_text) = anyio.run(calls, server, fleet[1])
        after = _health(server)
        log = server.log()
    finally:
        server.close()
    assert remember_failed and remember_text.startswith(DAMAGED), remember_text
    assert not recall_failed or recall_text.startswith(DAMAGED), recall_text
    for health, met in ((found, False), (after, recall_failed)):
        if met or health.status_code == 503:  # a read of a tenant (a call's, or the warm-up's) met the damage
            _not_ready_damaged(health, db)
        else:  # served, writes refused
            assert health.status_code == 200 and health.json()["database"] == "damaged", health.text
    assert "Traceback" not in log and OPEN_FAILED not in log and str(db) in log, log


@pytest.mark.parametrize("damage", [*OPEN_FAILS.values(), *READ_FAILS.values()], ids=[*OPEN_FAILS, *READ_FAILS])
def test_a_stdio_server_started_on_a_damaged_file_says_so_on_stderr_and_in_each_tool_result(
        tmp_path: Path, fleet: tuple[Path, str], damage: Callable[[Path], None]) -> None:
    db = _damaged_copy(tmp_path, fleet, damage)
    with (tmp_path / "stderr.log").open("w") as stderr:
        server = StdioServer(db, stderr=stderr)
        try:
            remembered = server.call_tool("remember", {"content": "The printer on floor 3 is out of toner."})
            recalled = server.call_tool("recall", {"query": "which host runs svc-42"})
        finally:
            server.close()
    log = (tmp_path / "stderr.log").read_text()
    said = [r["content"][0]["text"] for r in (remembered, recalled) if r.get("isError")]
    assert remembered.get("isError") and all(text.startswith(DAMAGED) for text in said), said
    assert "Traceback" not in log and str(db) in log, log
    if damage in OPEN_FAILS.values():
        assert recalled.get("isError") and log.count(OPEN_FAILED) == 1, log
    else:
        assert DAMAGED in log and OPEN_FAILED not in log, log


@pytest.mark.parametrize(("damage", "code", "check"), REFUSED.values(), ids=REFUSED)
@pytest.mark.parametrize("transport", ["http", "stdio"])
def test_a_server_on_a_file_found_damaged_before_opening_stops_at_once_saying_which_check_failed(
        tmp_path: Path, fleet: tuple[Path, str], damage: Callable[[Path], None], code: int, check: str,
        transport: str) -> None:
    db = _damaged_copy(tmp_path, fleet, damage)
    flags = ["--transport", "http", "--port", str(free_port())] if transport == "http" else []
    done = subprocess.run([*SERVE, *flags], env=server_env(db), stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == code and done.stdout == "", done
    assert check in done.stderr and "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file of mode 000")
def test_a_team_server_started_on_a_file_it_may_not_read_is_not_ready_and_says_so(
        tmp_path: Path, fleet: tuple[Path, str]) -> None:
    db = _damaged_copy(tmp_path, fleet, lambda db: db.chmod(0))
    server = HttpServer(db, logs=tmp_path, ready=False)
    try:
        health = _settled(server)
        answer = server.post(fleet[1], RECALL)
        log = server.log()
    finally:
        server.close()
        db.chmod(0o600)
    said = health.json()
    assert health.status_code == 503 and said["database"] == "not ready" and said["reason"] == "unavailable", said
    assert answer.status_code == 503 and answer.json()["error"]["data"]["error"] == "database_unavailable", answer.text
    assert str(db) not in health.text + answer.text and "Traceback" not in log, log
