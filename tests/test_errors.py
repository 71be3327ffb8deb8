"""Failures outside memvault (a write lock held elsewhere, a full disk, a fault in memvault
itself) reach the client as clear ``isError`` results that say whether retrying is safe."""

from __future__ import annotations

import apsw
import pytest
from mcp import Client

from memvault.server import app
from memvault.server.app import build_server
from memvault.server.config import Config
from memvault.storage.errors import Busy, StorageUnavailable
from memvault.storage.store import Store
from memvault.tools import handlers
import sqlite_raw

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("one_model")]  # the packaged model loaded once (conftest)


def counts(db) -> tuple[int, int, int]:
    conn = apsw.Connection(str(db), flags=apsw.SQLITE_OPEN_READONLY)
    try:
        return conn.execute(
            "SELECT (SELECT count(*) FROM memories), (SELECT count(*) FROM memories WHERE forgotten_at IS NULL),"
            " (SELECT count(*) FROM memories WHERE superseded_by IS NOT NULL)"
        ).fetchone()
    finally:
        conn.close()


async def test_a_write_lock_held_elsewhere_gives_a_clear_busy_error_and_nothing_half_written(db_path):
    async with Client(build_server(Config(db=db_path, busy_timeout_ms=200))) as c:
        first = (await c.call_tool("remember", {"content": "The release train leaves on Thursdays"}))
        first_id = first.structured_content["id"]
        before = counts(db_path)
        other = apsw.Connection(str(db_path))
        other.execute("BEGIN IMMEDIATE")  # another process holding the write lock past the timeout
        try:
            for tool, args in [
                ("remember", {"content": "The freeze starts on Mondays", "tags": ["release"]}),
                ("supersede", {"id": first_id, "content": "The release train leaves on Fridays"}),
                ("forget", {"id": first_id}),
            ]:
                r = await c.call_tool(tool, args)
                text = r.content[0].text
                assert r.is_error, (tool, text)
                assert "database is busy" in text and "Nothing was written; retrying is safe" in text, text
                assert text.strip() != f"Error executing tool {tool}"
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert counts(db_path) == before
        r = await c.call_tool("remember", {"content": "The freeze starts on Mondays", "tags": ["release"]})
        assert not r.is_error and r.structured_content["created"] is True
        r = await c.call_tool("supersede", {"id": first_id, "content": "The release train leaves on Fridays"})
        assert not r.is_error
    assert counts(db_path) == (before[0] + 2, before[1] + 2, before[2] + 1)


def test_a_full_disk_is_a_clear_error_and_rolls_back(store):
    store.remember(tenant="a", scope="s", content="a first memory so that the tables exist")
    with sqlite_raw.own_connection(store) as conn:  # the file may not grow past its current size: a full disk
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(StorageUnavailable, match="disk holding the database is full.*Nothing was written") as caught:
        for i in range(50):
            store.remember(tenant="a", scope="s", content=f"memory {i}: " + "filler words " * 600)
    assert isinstance(caught.value.__cause__, apsw.FullError)
    with sqlite_raw.snapshot(store) as conn:  # the store still works and holds only whole memories
        rows = conn.execute("SELECT content FROM memories").fetchall()
    assert all(r[0].startswith(("a first", "memory ")) for r in rows)
    with sqlite_raw.own_connection(store) as conn:
        conn.execute("PRAGMA max_page_count = 1073741823")
    assert store.remember(tenant="a", scope="s", content="room again").created


@pytest.mark.parametrize("tool", ["remember", "recall", "forget"])
async def test_an_unexpected_fault_is_described_not_hidden(db_path, monkeypatch, caplog, tool):
    def broken(*args, **kwargs):
        raise ZeroDivisionError("division by zero in a handler")

    monkeypatch.setattr(handlers, tool, broken)
    args = {"remember": {"content": "x"}, "recall": {"query": "x"}, "forget": {"id": "x"}}[tool]
    async with Client(build_server(Config(db=db_path))) as c:
        r = await c.call_tool(tool, args)
        assert r.is_error
        text = r.content[0].text
        assert f"could not complete {tool}" in text and "ZeroDivisionError: division by zero in a handler" in text
        assert "check (recall) before retrying" in text
    logged = [rec for rec in caplog.records if rec.name == app.__name__]
    assert logged and logged[0].exc_info is not None  # the traceback goes to the server log


async def test_an_unexpected_fault_in_a_resource_is_described(db_path, monkeypatch):
    def broken(*args, **kwargs):
        raise KeyError("boom")

    monkeypatch.setattr(handlers, "memory_document", broken)
    async with Client(build_server(Config(db=db_path))) as c:
        with pytest.raises(Exception, match="unexpected KeyError"):
            await c.read_resource("memory://memories/abc")


def test_opening_a_database_another_connection_has_locked_is_a_busy_error(db_path):
    other = apsw.Connection(str(db_path))  # a new file, not yet in WAL mode
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(Busy, match="database is busy.*retrying is safe"):
            Store(db_path, None, busy_timeout_ms=100)
    finally:
        other.execute("ROLLBACK")
        other.close()
