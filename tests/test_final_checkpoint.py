"""The scrub's final checkpoint (``db.truncate``) holds the file's write lock while it
waits for readers of older snapshots: it lets the lock go when they stay, empties the
WAL once they leave, and gives the connection its own lock waits back; a scrub never
runs two of them back to back (issue 9)."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import file_bytes
from fakes import FakeEmbedder

from memvault.storage.sqlite import backend as sqlite_backend
from memvault.storage.sqlite import db
from memvault.storage.store import Store

pytestmark = pytest.mark.sqlite_only


@pytest.fixture
def files(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A WAL database with a reader on an older snapshot: (path, writer, reader, checkpointing connection)."""
    path = tmp_path / "wal.db"
    writer = db.open_connection(path)
    writer.execute("CREATE TABLE t(x)")
    writer.execute("INSERT INTO t VALUES (randomblob(3000))")
    reader = db.open_connection(path)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM t").fetchall()
    writer.execute("INSERT INTO t VALUES (randomblob(3000))")  # the reader's snapshot is now the older one
    checkpointing = db.open_connection(path, busy_timeout_ms=4321)
    yield path, writer, reader, checkpointing
    for conn in (checkpointing, reader, writer):
        conn.close()


def wal_size(path: Path) -> int:
    return Path(f"{path}-wal").stat().st_size


def test_the_final_checkpoint_lets_the_write_lock_go_while_a_reader_keeps_the_wal_and_empties_it_after(files):
    path, _, reader, checkpointing = files
    assert db.truncate(checkpointing, 10) is False
    assert reader.in_transaction and wal_size(path) > 0  # the reader keeps the old frames in use
    other = db.open_connection(path, busy_timeout_ms=0)
    try:
        other.execute("BEGIN IMMEDIATE")  # the write lock is free at once
        other.execute("ROLLBACK")
    finally:
        other.close()
    reader.execute("COMMIT")
    assert db.truncate(checkpointing) is True and wal_size(path) == 0


def test_the_final_checkpoint_gives_the_connection_its_own_lock_waits_back(files, monkeypatch):
    path, writer, reader, checkpointing = files
    reader.execute("COMMIT")
    assert db.truncate(checkpointing) is True
    writer.execute("BEGIN IMMEDIATE")
    looks: list[float] = []

    def sleep(seconds: float) -> None:  # the writer commits during the second look
        looks.append(seconds)
        if len(looks) == 2:
            writer.execute("COMMIT")

    monkeypatch.setattr(db, "time", SimpleNamespace(monotonic=time.monotonic, sleep=sleep))
    with db.write_transaction(checkpointing):
        checkpointing.execute("INSERT INTO t VALUES (3)")
    assert looks == [db.WAIT_POLL_S] * 2 and checkpointing.busy_timeout_ms == 4321


def test_the_final_checkpoint_answers_busy_instead_of_raising_when_a_writer_holds_the_lock(files):
    path, writer, reader, checkpointing = files
    reader.execute("COMMIT")
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("INSERT INTO t VALUES (1)")
    try:
        assert db.truncate(checkpointing, 5) is False
    finally:
        writer.execute("COMMIT")
    assert db.truncate(checkpointing) is True and wal_size(path) == 0


def test_a_scrub_pauses_before_checkpointing_again_for_a_forget_that_came_in_meanwhile(db_path, monkeypatch):
    monkeypatch.setattr(sqlite_backend, "SCRUB_ATTEMPTS", 1)  # only checkpoints that fail count against it
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    try:
        first = store.remember(tenant="a", scope="s", content="The shed key is under the blue pot (marker quokka1182)")
        second = store.remember(tenant="a", scope="s", content="The alarm code is kept by Dana (marker quokka2293)")
        steps: list[object] = []
        real_scrub = sqlite_backend.scrub

        def scrub(conn, *args):  # type: ignore[no-untyped-def]
            steps.append("checkpoint")
            done = real_scrub(conn, *args)
            if steps.count("checkpoint") == 1:  # the next forget arrives while the first checkpoint runs
                store.forget(tenant="a", id=second.id)
            return done

        monkeypatch.setattr(sqlite_backend, "scrub", scrub)
        monkeypatch.setattr(sqlite_backend, "time", SimpleNamespace(sleep=lambda s: steps.append(("pause", s))))
        store.forget(tenant="a", id=first.id)
        assert store.upkeep.scrub() is True  # waits for the background scrub
        assert steps == ["checkpoint", ("pause", sqlite_backend.SCRUB_GAP_S), "checkpoint"]
        assert b"quokka1182" not in file_bytes(db_path) and b"quokka2293" not in file_bytes(db_path)
    finally:
        store.close()
