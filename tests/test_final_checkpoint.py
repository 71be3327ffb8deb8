"""The scrub's final checkpoint (``db.truncate``) holds the file's write lock while it
waits for readers of older snapshots: it waits for them to leave, and gives the lock
back once its span of elapsed time is up, however few times it looked; and a scrub
never runs two of them back to back (issue 9). The clock and the sleeps are the
test's, so nothing here depends on the machine's speed."""

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
GUARD_MS = 30_000  # only ever reached when the checkpoint does not notice the reader leaving


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


def test_the_final_checkpoint_waits_for_a_reader_of_an_older_snapshot_and_then_empties_the_wal(files, monkeypatch):
    path, _, reader, checkpointing = files
    looks: list[float] = []

    def sleep(seconds: float) -> None:  # the reader leaves while the checkpoint waits
        looks.append(seconds)
        if reader.in_transaction:
            reader.execute("COMMIT")

    monkeypatch.setattr(db, "time", SimpleNamespace(monotonic=time.monotonic, sleep=sleep))
    assert wal_size(path) > 0
    assert db.truncate(checkpointing, GUARD_MS) is True
    assert looks and looks[0] == db.SCRUB_POLL_S and wal_size(path) == 0


def test_the_final_checkpoint_lets_the_write_lock_go_when_its_time_is_up_however_few_times_it_looked(
    files, monkeypatch
):
    path, _, reader, checkpointing = files
    now = [100.0]
    looks: list[float] = []

    def monotonic() -> float:
        return now[0]

    def sleep(seconds: float) -> None:  # a late wake-up on a loaded machine: 30 ms pass
        looks.append(seconds)
        now[0] += 0.030

    monkeypatch.setattr(db, "time", SimpleNamespace(monotonic=monotonic, sleep=sleep))
    assert db.truncate(checkpointing, 50) is False
    assert len(looks) == 2  # at 0 and 30 ms it looked again; at 60 ms the 50 ms were up
    assert reader.in_transaction and wal_size(path) > 0  # the reader keeps the old frames in use
    other = db.open_connection(path, busy_timeout_ms=0)
    try:
        other.execute("BEGIN IMMEDIATE")  # the write lock is free at once
        other.execute("ROLLBACK")
    finally:
        other.close()


def test_the_final_checkpoint_answers_busy_instead_of_raising_when_a_writer_holds_the_lock(files, monkeypatch):
    path, writer, reader, checkpointing = files
    reader.execute("COMMIT")
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("INSERT INTO t VALUES (1)")
    now = [0.0]

    def sleep(seconds: float) -> None:
        now[0] += seconds

    monkeypatch.setattr(db, "time", SimpleNamespace(monotonic=lambda: now[0], sleep=sleep))
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
        assert store.scrub() is True  # waits for the background scrub
        assert steps == ["checkpoint", ("pause", sqlite_backend.SCRUB_GAP_S), "checkpoint"]
        assert b"quokka1182" not in file_bytes(db_path) and b"quokka2293" not in file_bytes(db_path)
    finally:
        store.close()
