"""A write blocked by another connection's lock (``db.wait_for_locks``) looks again
every ``WAIT_POLL_S``, so it takes the lock as soon as it is free, and gives up after
its busy timeout of elapsed time, however late its wake-ups (issue 9). The clock and
the sleeps are the test's, so nothing here depends on the machine's speed."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from memvault.storage.errors import Busy
from memvault.storage.sqlite import db

pytestmark = pytest.mark.sqlite_only


@pytest.fixture
def held(tmp_path: Path):  # type: ignore[no-untyped-def]
    """(a connection holding the write lock in an open transaction, the file's path)."""
    path = tmp_path / "locks.db"
    holder = db.open_connection(path)
    holder.execute("CREATE TABLE t(x)")
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("INSERT INTO t VALUES (1)")
    yield holder, path
    if holder.in_transaction:
        holder.execute("ROLLBACK")
    holder.close()


def test_a_blocked_write_looks_again_every_poll_and_takes_the_lock_once_it_is_free(held, monkeypatch):
    holder, path = held
    writer = db.open_connection(path, busy_timeout_ms=30_000)
    looks: list[float] = []

    def sleep(seconds: float) -> None:  # the holder commits during the third wait
        looks.append(seconds)
        if len(looks) == 3:
            holder.execute("COMMIT")

    monkeypatch.setattr(db, "time", SimpleNamespace(monotonic=time.monotonic, sleep=sleep))
    try:
        with db.write_transaction(writer):
            writer.execute("INSERT INTO t VALUES (2)")
        assert looks == [db.WAIT_POLL_S] * 3
        assert writer.execute("SELECT count(*) FROM t").fetchone()[0] == 2
        assert writer.busy_timeout_ms == 30_000
    finally:
        writer.close()


def test_a_blocked_write_gives_up_after_its_timeout_of_elapsed_time_however_late_it_wakes(held, monkeypatch):
    holder, path = held
    writer = db.open_connection(path, busy_timeout_ms=1_000)
    now = [50.0]
    looks: list[float] = []

    def sleep(seconds: float) -> None:  # every wake-up comes 100 ms late (a loaded machine)
        looks.append(seconds)
        now[0] += seconds + 0.1

    monkeypatch.setattr(db, "time", SimpleNamespace(monotonic=lambda: now[0], sleep=sleep))
    try:
        with pytest.raises(Busy, match=r"more than 1 s"), db.write_transaction(writer):
            writer.execute("INSERT INTO t VALUES (2)")
        assert 1 < len(looks) <= 10  # about 1 s of looks 0.1 s apart, not 1 s of sleeps
        assert looks[0] == db.WAIT_POLL_S and looks[-1] == db.WAIT_SLOW_POLL_S  # slower after WAIT_FAST_S
        assert holder.in_transaction and writer.execute("SELECT count(*) FROM t").fetchone()[0] == 0
    finally:
        writer.close()


def test_a_connection_opened_without_waits_answers_busy_at_once(held):
    _, path = held
    writer = db.open_connection(path, busy_timeout_ms=0)
    try:
        with pytest.raises(Busy), db.write_transaction(writer):
            writer.execute("INSERT INTO t VALUES (2)")
    finally:
        writer.close()
