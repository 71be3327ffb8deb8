"""/healthz finds damage to the SQLite file itself, with no tool call first (issue 25 §6, trial70 T13).

A file cut short (to half, or its last page gone) or written over in a middle page while the team server
ran: /healthz said 200 "ready" until a tool call happened to read the damaged page, and a load balancer
kept sending clients. Now the readiness probe compares the file's length with the pages its header counts
(O(1), a second look confirming it: a checkpoint writes page 1 before it extends the file), so a cut file is
503 "not ready" (reason "damaged") from the probe's second look; and it has the worker run SQLite's
quick_check of the whole file again when one is due (``maintenance.DAMAGE_CHECK_S`` after the last, lowered
here), so a page written over is 200 "damaged" (writes refused) once that check ran.
"""

from __future__ import annotations

import shutil
import sys
import threading
import time
from collections.abc import Callable, Sized
from pathlib import Path

import anyio
import httpx2
import pytest
from damaged_files import (PAGE, cut_inside_a_page, healthz, last_page_gone, looks_while,
                           middle_page_overwritten, tag_index_overwritten)
from fakes import FakeEmbedder
from httpwire import HttpServer, client

from memvault.server.http import PROBE_CACHE_S
from memvault.storage.errors import Damaged
from memvault.storage.sqlite import backend as sqlite_backend
from memvault.storage.sqlite import health
from memvault.storage.store import Store

# The server with its whole-file check due every second and a checkpoint after every 8 pages of the WAL
# (memvault's: 60 s and 1,000 pages), so that a test sees both within seconds.
_FREQUENT = ("import sys; from memvault.storage import maintenance; maintenance.DAMAGE_CHECK_S = 1.0; "
             "from memvault.storage.sqlite import backend; backend.CHECKPOINT_PAGES = 8; "
             "from memvault.server.cli import main; raise SystemExit(main())")
# No consolidation: a worker's read of a tenant meeting the damage, or a checkpoint queued behind one writing
# into a cut file, would find or hide the damage before the probe or the check could
QUIET = {"MEMVAULT_CONSOLIDATE_HOURS": "0", "MEMVAULT_CONSOLIDATE_AFTER_WRITES": "0"}
FOUND_WITHIN_S = 20  # the probe's second look, or the next check of the whole file, with this machine's load


def _frequent(command: list[str]) -> list[str]:
    serve = command.index("serve")
    return [sys.executable, "-c", _FREQUENT, *command[serve:]]


NOT_READY = (503, {"status": "error", "database": "not ready", "reason": "damaged"})
DAMAGED = (200, {"status": "ok", "database": "damaged"})  # reads served where they can be, writes refused


def _settled(server: HttpServer, key: str) -> None:
    """Once the server has served a call and its start-up work is done (the model, the vector index's
    warm-up, the check at start, a checkpoint the call asked for): from then on only the readiness probe and
    the whole-file check look at the file."""
    async def call() -> None:
        async with client(server.url, key) as c:
            assert not (await c.call_tool("recall", {"query": "which host runs svc-42"})).is_error

    anyio.run(call)
    deadline = time.monotonic() + 60
    while healthz(server).json()["model"] != "ready" and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(5)
    assert healthz(server).json() == {"status": "ok", "database": "ready", "model": "ready"}


def _says(health: httpx2.Response, answers: tuple[tuple[int, dict[str, str]], ...]) -> bool:
    return any(health.status_code == status and {k: v for k, v in health.json().items() if k in said} == said
               for status, said in answers)


# (damage, /healthz's answers once found): a cut file is not ready; pages written over are "damaged", or not
# ready once a read of a tenant (a background job's: the vector index's warm-up, a consolidation) met them
DAMAGES = [
    (cut_inside_a_page, (NOT_READY,)), (last_page_gone, (NOT_READY,)),
    (middle_page_overwritten, (DAMAGED, NOT_READY)), (tag_index_overwritten, (DAMAGED,)),
]


@pytest.mark.slow
@pytest.mark.parametrize(("damage", "answers"), DAMAGES, ids=lambda v: getattr(v, "__name__", ""))
def test_healthz_finds_damage_done_while_the_server_runs_with_no_call_reading_it(
        tmp_path: Path, fleet: tuple[Path, str], damage: Callable[[Path], None],
        answers: tuple[tuple[int, dict[str, str]], ...]) -> None:
    db = tmp_path / "m.db"
    shutil.copy(fleet[0], db)
    server = HttpServer(db, logs=tmp_path, wrap=_frequent, **QUIET)
    try:
        _settled(server, fleet[1])
        damage(db)
        began, looks = time.monotonic(), [healthz(server)]
        while not _says(looks[-1], answers) and time.monotonic() - began < FOUND_WITHIN_S:
            time.sleep(0.2)
            looks.append(healthz(server))
        found = looks[-1]
        remembered = server.post(fleet[1], {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "remember", "arguments": {"content": "The printer on floor 3 is out of toner."}}})
        log = server.log()
    finally:
        server.close()
    assert _says(found, answers), (found.text, log[-3000:])
    # before: "ready", or "damaged" when the whole-file check found a cut before the probe's second look did
    assert {r.json()["database"] for r in looks[:-1]} <= {"ready", "damaged"}
    if found.json()["database"] == "damaged":
        assert found.json()["writes"].startswith("refused: the database file is damaged"), found.text
    if remembered.status_code == 503:  # the probe's read or look met it: every request is refused, saying why
        assert remembered.json()["error"]["data"]["error"] == "database_unavailable", remembered.text
        assert remembered.json()["error"]["message"].startswith("the database file is damaged"), remembered.text
    else:  # the write tool says it
        assert remembered.status_code == 200 and "the database file is damaged" in remembered.text, remembered.text
    assert str(db) not in found.text + remembered.text and "Traceback" not in log
    assert log.count("database unavailable") <= 1  # logged as it changed, not per request


@pytest.mark.slow
def test_a_sound_server_under_writes_and_checkpoints_stays_ready(tmp_path: Path, fleet: tuple[Path, str]) -> None:
    db = tmp_path / "m.db"
    shutil.copy(fleet[0], db)
    server = HttpServer(db, logs=tmp_path, wrap=_frequent)

    async def busy(looks: Sized) -> list[tuple[bool, str]]:
        done: list[tuple[bool, str]] = []

        async def writer(first: int) -> None:
            async with client(server.url, fleet[1]) as c:
                n = first  # 15 writes each, and more until the probe has looked 11 times (a fast machine writes 45 in <1 s)
                while n < first + 15 or (len(looks) <= 10 and n < first + 100):
                    n += 1
                    got = await c.call_tool("remember", {"content": f"Build agent {n} in pool {n % 5} runs Ubuntu "
                                                                    f"24.04 with {n * 3} GB of disk for cache {n}."})
                    done.append((got.is_error, got.content[0].text))

        async with anyio.create_task_group() as tasks:
            for first in (0, 100, 200):
                tasks.start_soon(writer, first)
        return done

    try:
        done, looks = looks_while(server, busy)
        time.sleep(1.5)  # one more whole-file check after the writes
        looks.append(healthz(server))
        log = server.log()
    finally:
        server.close()
    assert [text for failed, text in done if failed] == []
    assert len(looks) > 10
    assert {(r.status_code, r.json()["status"], r.json()["database"]) for r in looks} == {(200, "ok", "ready")}
    assert "damaged" not in log


def _backend(store: Store) -> sqlite_backend.SqliteBackend:
    assert isinstance(store.backend, sqlite_backend.SqliteBackend)
    return store.backend


def test_a_file_shorter_than_its_header_counts_is_damaged_at_the_probes_second_look(tmp_path: Path) -> None:
    store = Store(tmp_path / "m.db", FakeEmbedder())  # type: ignore[arg-type]
    try:
        for i in range(40):
            store.remember(tenant="acme", scope="default", content=f"Runner {i} builds the {i}th service image.")
        _backend(store).checkpoint()
        _backend(store).read_header()
        last_page_gone(Path(_backend(store).location))
        _backend(store).read_header()  # a checkpoint may be writing: not yet
        assert _backend(store).damaged is None
        with pytest.raises(Damaged, match="the size check failed"):
            _backend(store).read_header()
        assert "the size check failed" in (_backend(store).damaged or "")
    finally:
        store.close()


def test_a_file_extended_between_two_looks_is_not_damaged(tmp_path: Path) -> None:
    """As a checkpoint leaves it: page 1 counting pages not yet written, then written."""
    db = tmp_path / "m.db"
    store = Store(db, FakeEmbedder())  # type: ignore[arg-type]
    try:
        for i in range(40):
            store.remember(tenant="acme", scope="default", content=f"Runner {i} builds the {i}th service image.")
        _backend(store).checkpoint()
        whole = db.read_bytes()
        with open(db, "r+b") as f:
            f.truncate(len(whole) - 2 * PAGE)
        _backend(store).read_header()
        with open(db, "r+b") as f:
            f.seek(len(whole) - 2 * PAGE)
            f.write(whole[-2 * PAGE:])
        _backend(store).read_header()
        _backend(store).read_header()
        assert _backend(store).damaged is None
    finally:
        store.close()


def test_looks_at_a_file_written_and_checkpointed_meanwhile_find_no_damage(tmp_path: Path, monkeypatch) -> None:
    """Not even one look sees the file shorter than its header counts while this process's checkpoints
    extend it (db.grow_before_writing): the probe's second look is for other programs' checkpoints."""
    monkeypatch.setattr(sqlite_backend, "CHECKPOINT_PAGES", 2)  # a checkpoint after nearly every write
    db = tmp_path / "m.db"
    store = Store(db, FakeEmbedder())  # type: ignore[arg-type]
    stop = threading.Event()

    def write() -> None:
        n = 0
        while not stop.is_set():
            store.remember(tenant="acme", scope="default", content=f"Runner {n} builds image {n} of service {n % 9}. " * 20)
            n += 1

    writer = threading.Thread(target=write)
    writer.start()
    try:
        looks, short, sizes = 0, [], set()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            short += [found] if (found := health.short_of_pages(db)) else []
            _backend(store).read_header()
            sizes.add(db.stat().st_size)
            looks += 1
    finally:
        stop.set()
        writer.join()
        store.close()
    assert looks > 20 and len(sizes) > 5, (looks, len(sizes))  # the checkpoints did extend the file
    assert short == [] and _backend(store).damaged is None


@pytest.mark.slow
def test_a_damaged_file_is_logged_once_not_once_per_refused_request(tmp_path: Path, fleet: tuple[Path, str]) -> None:
    db = tmp_path / "m.db"
    shutil.copy(fleet[0], db)
    server = HttpServer(db, logs=tmp_path, **QUIET)  # --auth keys
    try:
        cut_inside_a_page(db)
        time.sleep(PROBE_CACHE_S)  # (the last sound look is served for PROBE_CACHE_S)
        refused = [server.post(fleet[1], {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {
            "name": "recall", "arguments": {"query": "which host runs svc-42"}}}) for n in range(12)]
        log = server.log()
    finally:
        server.close()
    assert [r.status_code for r in refused] == [503] * 12
    assert all(r.json()["error"]["message"].startswith("the database file is damaged") for r in refused)
    assert log.count("database unavailable: the database file is damaged") == 1, log
