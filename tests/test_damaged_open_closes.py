"""A store whose opening fails partway, on damage met after its connections were opened (the settings or
the expiry index read at open: ``errors.Damaged``), closes them: a server tries again on every request,
and each refused request left its connections (the file, its -wal and -shm) open (issue 25 §6)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from sqlite_raw import overwrite_pages

from memvault.server.config import Config
from memvault.server.runtime import Runtime
from memvault.storage.errors import Damaged, MemvaultError
from memvault.storage.store import Store

TRIES = 5


def _open_files(db: Path) -> int:
    """This process's file descriptors open on ``db``, its -wal or its -shm."""
    fds = Path("/proc/self/fd")
    return sum(1 for fd in os.listdir(fds) if os.path.realpath(fds / fd).startswith(str(db)))


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("template") / "m.db"
    Store(db).close()
    return db


@pytest.mark.parametrize("damaged", ["settings", "memories_expiring"])
def test_a_store_failing_to_open_on_damage_leaves_no_file_open(tmp_path, template, damaged):
    db = tmp_path / "m.db"
    shutil.copy(template, db)
    overwrite_pages(db, damaged)
    before = _open_files(db)
    for _ in range(TRIES):
        with pytest.raises(Damaged):
            Store(db)
    assert _open_files(db) == before == 0


@pytest.mark.parametrize("damaged", ["settings", "memories_expiring"])
def test_a_servers_refused_calls_on_a_file_damaged_at_open_leave_no_file_open(tmp_path, template, damaged):
    db = tmp_path / "m.db"
    shutil.copy(template, db)
    overwrite_pages(db, damaged)
    runtime = Runtime(Config(db=str(db)))
    try:
        for _ in range(TRIES):  # each call opens the store anew (Runtime.store), as each request does
            with pytest.raises(MemvaultError, match="the database file is damaged"):
                runtime.store()
        assert _open_files(db) == 0
        assert runtime.health()["database"].startswith("error: the database file is damaged")
    finally:
        runtime.close()


def test_a_sound_store_closes_every_file_it_opened(tmp_path, template):
    db = tmp_path / "m.db"
    shutil.copy(template, db)
    for _ in range(TRIES):
        store = Store(db)
        assert _open_files(db) > 0
        store.close()
    assert _open_files(db) == 0
