"""WAL checkpoints on a background thread, not on the thread that commits.

SQLite's default (``wal_autocheckpoint``, 1,000 pages) runs a checkpoint inside the
``COMMIT`` that takes the WAL past that size: that call copies the WAL's pages into the
database file and syncs it while the backend's write lock is held, and every other write
of the process waits behind it (docs/storage-tuning.md#checkpoints-off-the-committing-thread).
Here the writer
connection's WAL hook (``sqlite3_wal_hook``, which replaces the automatic checkpoint)
only wakes a thread that runs the same ``PASSIVE`` checkpoint on a connection of its
own: it waits for no reader or writer, and readers and writers do not wait for it
(``scrub``'s own checkpoints may find it running, and try again as they do for readers).

Durability does not change: a commit is in the WAL before the hook runs, ``synchronous``
is what it was, and a checkpoint (here or SQLite's) only copies committed pages.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

import apsw

log = logging.getLogger(__name__)
CHECKPOINT_PAGES = 1000  # WAL pages after a commit from which a checkpoint is started (SQLite's default)


class Checkpointer:
    """Runs ``PASSIVE`` checkpoints on its own thread when a commit left the WAL at
    ``CHECKPOINT_PAGES`` pages or more. ``connect`` opens the connection it uses (on
    its thread, at the first checkpoint). Install with :meth:`install`; :meth:`close`
    stops the thread (after the checkpoint it may be running)."""

    def __init__(self, connect: Callable[[], apsw.Connection]) -> None:
        self._connect = connect
        self._wanted = threading.Event()
        self._closing = False
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.done = 0  # checkpoints run (for tests and benchmarks)

    def install(self, conn: apsw.Connection) -> None:
        """Let ``conn``'s commits start checkpoints here instead of in the commit."""
        conn.set_wal_hook(self._committed)

    def _committed(self, _conn: apsw.Connection, _name: str, pages: int) -> int:
        if pages >= CHECKPOINT_PAGES:
            self.request()
        return apsw.SQLITE_OK

    def request(self) -> None:
        """Start a checkpoint on the thread (at once, or after the one it is running)."""
        with self._lock:
            if self._closing:
                return
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="memvault-checkpoint", daemon=True)
                self._thread.start()
        self._wanted.set()

    def _run(self) -> None:
        conn: apsw.Connection | None = None
        try:
            while True:
                self._wanted.wait()
                self._wanted.clear()
                if self._closing:
                    return
                try:
                    if conn is None:
                        conn = self._connect()
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    self.done += 1
                except apsw.Error as exc:  # the WAL keeps its pages: the next commit asks again
                    log.warning("checkpoint of the write-ahead log postponed: %s", exc)
        finally:
            if conn is not None:
                conn.close()

    def close(self) -> None:
        """Stop the thread once its current checkpoint (if any) is done."""
        with self._lock:
            self._closing = True
            thread = self._thread
        self._wanted.set()
        if thread is not None:
            thread.join()
