"""Reading a database file's header keeps SQLite's locks: closing any descriptor of a file drops every
POSIX lock the process holds on it (sqlite.org/howtocorrupt.html, 2.2), and another SQLite program
would then take itself for the live file's last user and delete its -wal under the server."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memvault.storage.sqlite import crypto, db


def locks_held(path: Path) -> int:
    """POSIX locks this process holds on ``path`` (Linux's /proc/locks)."""
    inode, pid = os.stat(path).st_ino, os.getpid()
    return sum(1 for line in Path("/proc/locks").read_text().splitlines()
               if f":{inode} " in line and f" {pid} " in line)


@pytest.mark.skipif(not Path("/proc/locks").exists(), reason="Linux's /proc/locks lists the locks")
def test_reading_the_header_of_an_open_database_keeps_the_processs_locks(tmp_path):
    path = tmp_path / "m.db"
    conn = db.open_connection(path)
    try:
        conn.execute("CREATE TABLE t(x)")
        conn.execute("SELECT count(*) FROM t").fetchall()
        held = locks_held(path)
        assert held >= 1
        crypto.check_file(path, None)  # every new connection and /healthz's re-read do this
        assert crypto.is_plain(path) is True and crypto.file_salt(path) is None
        second = db.open_connection(path)
        second.close()
        assert locks_held(path) == held
    finally:
        conn.close()
    assert crypto.is_plain(tmp_path / "missing.db") is None
    (tmp_path / "empty.db").touch()
    assert crypto.is_plain(tmp_path / "empty.db") is None and crypto.file_salt(tmp_path / "empty.db") is None
