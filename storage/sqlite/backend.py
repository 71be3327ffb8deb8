"""The SQLite backend: one file, one apsw connection per backend, one lock.

A lock gives the connection to one thread at a time (sqlite-vec has crashed peers
that shared a connection across threads). Several processes may open the same
file: WAL lets readers go on while one writer writes, and every write is one
``BEGIN IMMEDIATE`` transaction (``db.write_transaction``).
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Iterator
from pathlib import Path

import apsw

from ..limits import BUSY_TIMEOUT_MS
from . import health
from .db import fts_tokenizer, open_connection, scrub, write_transaction
from .schema import VECTOR_TABLE, check_compatible, migrate
from .tx import SCRUB_DUE, SqliteTransaction

log = logging.getLogger(__name__)


class SqliteBackend:
    """``backend.Backend`` over the SQLite file at ``path`` (created with its folder, mode 0600).

    Raises (on open): :class:`errors.StoreError` for a file of another program or of
    a newer memvault (left untouched), :class:`errors.StorageUnavailable` when it is
    locked past ``busy_timeout_ms`` or cannot be written.
    """

    kind = "sqlite"
    inline_scrub = True  # VACUUM of a desktop-sized file: well under a second (issue 9 measures larger)

    def __init__(self, path: Path | str, *, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> None:
        self.path = Path(path)
        self.location = str(self.path)
        self._lock = threading.RLock()
        self._conn = open_connection(self.path, check=check_compatible, busy_timeout_ms=busy_timeout_ms)
        migrate(self._conn)
        self._tx = SqliteTransaction(self._conn, fts_tokenizer(self._conn))

    @contextlib.contextmanager
    def read(self, tenant: str | None) -> Iterator[SqliteTransaction]:
        """One read transaction (every method filters the tenant itself)."""
        with self._lock:
            self._conn.execute("BEGIN")
            try:
                yield self._tx
            finally:
                self._conn.execute("COMMIT")

    @contextlib.contextmanager
    def write(self, tenant: str | None) -> Iterator[SqliteTransaction]:
        """One ``BEGIN IMMEDIATE`` transaction. Raises Busy or StorageUnavailable (nothing written)."""
        with self._lock, write_transaction(self._conn):
            yield self._tx

    def settings(self) -> dict[str, str]:
        """Every row of the settings table."""
        with self._lock:
            return dict(self._conn.execute("SELECT key, value FROM settings").fetchall())

    def put_setting(self, key: str, value: str | None) -> None:
        """Set or (``value`` None) delete one setting, in its own transaction."""
        with self.write(None):
            if value is None:
                self._conn.execute("DELETE FROM settings WHERE key = ?", (key,))
            else:
                self._conn.execute("INSERT OR REPLACE INTO settings(key, value) VALUES (?, ?)", (key, value))

    def scrub_due(self) -> bool:
        """Whether a forget or an expiry erase has not been scrubbed from the file yet."""
        return SCRUB_DUE in self.settings()

    def scrub(self) -> bool:
        """``VACUUM`` and a ``TRUNCATE`` checkpoint when a scrub is due (see ``db.scrub``).

        True when none is due any more; False when it could not run (another
        connection held the file, the disk is full: logged, still due) or another
        forget came in meanwhile. Never raises an SQLite error.
        """
        with self._lock:
            try:
                due = self.settings().get(SCRUB_DUE)
                if due is None:
                    return True
                if scrub(self._conn):
                    with write_transaction(self._conn):
                        self._conn.execute("DELETE FROM settings WHERE key = ? AND value = ?", (SCRUB_DUE, due))
                    self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                    return not self.scrub_due()
            except apsw.Error as exc:
                log.warning("scrub of forgotten content postponed: %s", exc)
            return False

    def stats(self, now: int) -> dict[str, object]:
        """Counts over the whole file (see ``health.stats``)."""
        with self.read(None):
            return {"database": self.location, **health.stats(self._conn, now)}

    def check(self) -> list[str]:
        """SQLite's and FTS5's integrity checks and the agreement of the derived indexes (see ``health.check``)."""
        with self.read(None):
            return health.check(self._conn)

    def rebuild_keyword_index(self) -> None:
        """Rebuild the FTS5 index from the memories, in one transaction."""
        with self.write(None):
            self._conn.execute("INSERT INTO memories_fts(memories_fts) VALUES ('rebuild')")

    def reset_vectors(self, model_id: str, dim: int) -> None:
        """Drop every vector, record ``model_id``/``dim``, mark every live memory pending (one transaction)."""
        with self.write(None) as tx:
            self._conn.execute(f"DROP TABLE IF EXISTS {VECTOR_TABLE}")
            self._conn.execute("DELETE FROM memory_windows")
            self._conn.execute("DELETE FROM settings WHERE key IN ('model_id', 'model_dim')")
            tx.claim_model(model_id, dim)
            self._conn.execute("UPDATE memories SET vector_pending = 1 WHERE forgotten_at IS NULL")

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._conn.close()
