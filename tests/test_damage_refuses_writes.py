"""A damaged SQLite file takes no write (issue 25 §5): damage in pages no call reads is found by
SQLite's quick check, run once by a server's worker when it opens the file and by the CLI before a
write; damage any call met counts the same. Every write is then refused with the damaged-file
wording, reads go on where SQLite can serve them, and /healthz, the boot resource and recall say so."""

from __future__ import annotations

import sys
import threading
import time

import anyio
import apsw
import httpx2
import pytest
from conftest import server_env
from fakes import FakeEmbedder
from sqlite_raw import keyword_table, overwrite_pages

from memvault.storage import transfer
from memvault.storage.errors import StorageUnavailable
from memvault.storage.store import Store

MEMVAULT = [sys.executable, "-m", "memvault.server"]
DAMAGED = "the database file is damaged"
WAIT_S = 60  # for a server's check to have run (it runs at start, in the background)


def _stored(db) -> list[str]:  # type: ignore[no-untyped-def]
    """60 memories, every other one with 8 tags; their ids, oldest first."""
    store = Store(db, FakeEmbedder())  # type: ignore[arg-type]
    try:
        return [store.remember(tenant="default", scope="default", content=f"Host {i} of the fleet is web-{i}.example",
                               tags=[f"rack-{i}-{j}" for j in range(8)] if i % 2 else None).id for i in range(60)]
    finally:
        store.close()  # the last connection: the WAL is checkpointed and removed


@pytest.fixture
def damaged(db_path):  # type: ignore[no-untyped-def]
    """A file whose index of tags (pages remember, supersede and forget of an untagged memory never
    read) is overwritten; its memories' ids."""
    ids = _stored(db_path)
    overwrite_pages(db_path, "memory_tags_by_tag")
    return ids


def _files(db) -> dict[str, bytes]:  # type: ignore[no-untyped-def]
    """The database's files' bytes (a -wal holding no frame counts as none)."""
    found = {s: p.read_bytes() for s in ("", "-wal") if (p := db.with_name(db.name + s)).exists()}
    if len(found.get("-wal", b"")) <= 32:  # a WAL header alone: no change
        found.pop("-wal", None)
    return found


@pytest.fixture
def cli(cli_here):  # type: ignore[no-untyped-def]
    """``cli(db, *argv)``: ``memvault ARGV`` on ``db`` (conftest's ``cli_here``: what it writes, not how a process
    starts; the servers below start their own)."""
    return lambda db, *argv: cli_here(list(argv), server_env(db))


@pytest.mark.parametrize("write", ["remember", "supersede", "forget"])
def test_the_command_line_refuses_a_write_into_a_file_damaged_where_the_write_never_reads(db_path, damaged, write,
                                                                                          cli):
    argv = {"remember": ["remember", "The staging DB is db-stg-03"],
            "supersede": ["supersede", damaged[0], "Host 0 of the fleet is web-00.example"],
            "forget": ["forget", damaged[2]]}[write]
    before = _files(db_path)
    done = cli(db_path, *argv)
    assert done.returncode == 1, done.stdout + done.stderr
    assert DAMAGED in done.stderr and "memvault doctor" in done.stderr and "Nothing was changed" in done.stderr
    assert "Traceback" not in done.stderr
    assert _files(db_path) == before
    shown = cli(db_path, "show", damaged[2])  # reads of what the damage spares still answer
    assert shown.returncode == 0 and "web-2.example" in shown.stdout, shown.stderr


def test_a_sound_file_takes_the_command_lines_writes(db_path, cli):
    ids = _stored(db_path)
    for argv in (["remember", "The staging DB is db-stg-03"], ["supersede", ids[0], "Host 0 is web-00.example"],
                 ["forget", ids[2]]):
        done = cli(db_path, *argv)
        assert done.returncode == 0 and DAMAGED not in done.stderr, done.stderr


async def _boot(c) -> str:  # type: ignore[no-untyped-def]
    return (await c.read_resource("memory://boot")).contents[0].text


@pytest.mark.slow
@pytest.mark.asyncio
async def test_a_fresh_stdio_server_refuses_writes_once_its_check_found_the_damage(db_path, damaged, tmp_path):
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    before = _files(db_path)
    params = StdioServerParameters(command=MEMVAULT[0], args=[*MEMVAULT[1:], "serve"], env=server_env(db_path))
    with open(tmp_path / "server.log", "w") as errlog:
        async with Client(stdio_client(params, errlog=errlog)) as c:
            deadline = time.monotonic() + WAIT_S
            while "Writes are refused" not in (boot := await _boot(c)) and time.monotonic() < deadline:
                await anyio.sleep(0.2)
            assert f"**Writes are refused**: {DAMAGED}" in boot and "memvault doctor" in boot
            assert "web-4.example" in boot  # the boot resource reads on
            for tool, args in [("remember", {"content": "The staging DB is db-stg-03"}),
                               ("supersede", {"id": damaged[0], "content": "Host 0 of the fleet is web-00.example"}),
                               ("forget", {"id": damaged[2]})]:
                r = await c.call_tool(tool, args)
                text = r.content[0].text
                assert r.is_error and DAMAGED in text and "memvault doctor" in text, (tool, text)
            view = (await c.read_resource(f"memory://memories/{damaged[2]}")).contents[0].text
            assert "web-2.example" in view
            r = await c.call_tool("recall", {"query": "which host is web-4.example"})
            assert not r.is_error and "web-4.example" in r.structured_content["memories"][0]["content"]
            assert DAMAGED in r.structured_content["degraded"]
    log = (tmp_path / "server.log").read_text()
    assert "Traceback" not in log and "is damaged (SQLite's integrity check failed in the pages of memory_tags_by_tag" \
        in log, log
    assert _files(db_path) == before


@pytest.mark.slow
def test_healthz_says_the_file_is_damaged_and_writes_are_refused(db_path, damaged):
    from httpwire import HttpServer

    server = HttpServer(db_path, "--auth", "none")
    try:
        deadline = time.monotonic() + WAIT_S
        while (health := httpx2.get(f"{server.base}/healthz", timeout=10)).json()["database"] != "damaged" \
                and time.monotonic() < deadline:
            time.sleep(0.2)
        assert health.status_code == 200 and health.json()["status"] == "ok", health.text
        # Unauthenticated: the kind only; the tables and pages stay in the log (adversarial pass 78 L5).
        assert health.json()["writes"] == f"refused: {DAMAGED} (the server's log and `memvault doctor` say where)"
        assert "memory_tags_by_tag" not in health.text and "page" not in health.text
        assert "SQLite's integrity check failed in the pages of memory_tags_by_tag" in server.log()
    finally:
        server.close()


def test_damage_a_read_met_refuses_later_writes_that_would_not_meet_it(db_path):
    """Another tenant's keyword index damaged: a recall of that tenant meets it; a write of the
    first tenant, which never reads it, is refused from then on (before it begins)."""
    _stored(db_path)
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    try:
        for i in range(20):
            store.remember(tenant="other", scope="default", content=f"Printer {i} sits on floor {i}")
    finally:
        store.close()
    conn = apsw.Connection(str(db_path), flags=apsw.SQLITE_OPEN_READONLY)  # (the store is closed)
    try:
        table = keyword_table(conn, "other")
    finally:
        conn.close()
    for part in ("_data", "_idx"):
        overwrite_pages(db_path, table + part)
    before = _files(db_path)
    store = Store(db_path, FakeEmbedder(), upkeep=False)  # type: ignore[arg-type]  # no check: what a call meets alone
    try:
        with pytest.raises(StorageUnavailable, match=DAMAGED):
            store.recall(tenant="other", query="which floor is printer 3 on", scopes=["default"])
        with pytest.raises(StorageUnavailable, match=f"{DAMAGED}.*Nothing was changed"):
            store.remember(tenant="default", scope="default", content="The staging DB is db-stg-03")
        assert store.recall(tenant="default", query="which host is web-4.example", scopes=["default"]).hits
    finally:
        store.close()
    assert _files(db_path) == before


def test_a_write_that_meets_the_damage_is_rolled_back_whole(db_path, damaged):
    """A write that meets damaged pages half way (its tags go in the damaged index after its row
    went in) leaves nothing, and the next write is refused before it begins."""
    store = Store(db_path, FakeEmbedder(), upkeep=False)  # type: ignore[arg-type]
    try:
        with pytest.raises(StorageUnavailable, match=DAMAGED):
            store.remember(tenant="default", scope="default", content="Rack 9 holds web-9", tags=["rack-9"])
        assert store.backend.damaged is not None
    finally:
        store.close()
    rows = Store(db_path, FakeEmbedder(), upkeep=False)  # type: ignore[arg-type]
    try:
        assert rows.count_memories(tenant="default", scopes=["default"]) == 60
    finally:
        rows.close()


def test_a_sound_file_is_never_found_damaged_while_others_write_during_the_check(db_path):
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    try:
        lines = [f'{{"content": "Note {i}: the {" ".join(f"w{i}x{j}" for j in range(30))} ends."}}' for i in range(3000)]
        transfer.import_lines(store, iter(lines), tenant="default", scope="default")
        stop = threading.Event()
        written: list[str] = []

        def writer() -> None:
            i = 0
            while not stop.is_set():
                written.append(store.remember(tenant="default", scope="default", content=f"Written {i} during the "
                                              f"check, rack {i}", tags=[f"t{i}"]).id)
                i += 1

        thread = threading.Thread(target=writer)
        thread.start()
        try:
            for _ in range(5):
                store.upkeep.check_damage().result()
                assert store.backend.damaged is None
        finally:
            stop.set()
            thread.join()
        assert len(written) > 5  # writes went on during the checks
        store.remember(tenant="default", scope="default", content="The staging DB is db-stg-03")
    finally:
        store.close()


def test_a_check_stopped_by_closing_says_nothing_and_leaves_the_store_whole(db_path, damaged):
    """The check asks ``stop()`` (the worker closing) while SQLite runs it: stopped, it found nothing,
    sets no refusal and leaves no transaction open; a check run to its end finds the damage."""
    store = Store(db_path, FakeEmbedder(), upkeep=False)  # type: ignore[arg-type]
    try:
        assert store.backend.check_damage(lambda: True) is None  # type: ignore[union-attr]
        assert store.backend.damaged is None
        assert "memory_tags_by_tag" in store.backend.check_damage(lambda: False)  # type: ignore[union-attr,operator]
        assert store.backend.damaged is not None
    finally:
        store.close()
