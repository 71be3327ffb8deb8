"""The SQLite backend: one file, one writer connection behind a lock, one reader
connection per thread.
More: docs/storage-tuning.md#sqlite-backend."""

from __future__ import annotations

import collections
import contextlib
import logging
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path

import apsw

from ..errors import Damaged, StorageUnavailable, StoreError
from ..limits import BUSY_TIMEOUT_MS
from . import cells as vector_cells
from . import crypto, health
from .db import damaged, fts_tokenizer, open_connection, read_header, scrub, write_transaction
from .schema import (
    VECTOR_SEQ, VECTOR_TABLE, check_compatible, create_keyword_index, fill_keyword_index, keyword_table, migrate,
    rebuild_turn_index,
)
from ..backend import MODEL_DIM, MODEL_ID, SCRUB_DUE
from .tx import SqliteTransaction
from .vector_cache import VectorCache, trim_heap


log = logging.getLogger(__name__)
SCRUB_SETTLE_S = 5.0  # a scrub waits at most this long for this process's older reads to end
# A scrub's final checkpoint needs a moment when no reader uses the WAL: under steady
# reads and writes it is tried again, this many times, this long apart (seconds).
SCRUB_ATTEMPTS = 10
SCRUB_PAUSE_S = 0.2
PRELOAD_BATCH = 64  # cells read into the vector copy per read transaction at warm-up (tens of ms)
# After a checkpoint that finished, one for a forget that came in meanwhile waits this
# long (seconds): each holds the file's write lock up to ``db.SCRUB_WAIT_MS``, and two
# back to back made another process's write wait for both; blocked writers look again
# every ``db.WAIT_POLL_S``, so they get in.
SCRUB_GAP_S = 0.02
MOVE_BATCH = 500  # vectors moved to the newest cells per write transaction (a few tens of ms)
TRAINED_ON = "vector_cells_trained_on"  # settings key: vectors the newest cells were trained on
CHECK_STEPS = 1_000  # SQLite progress steps between two looks at whether a damage check must stop (docs/storage-tuning.md#the-damage-check)
CHECKPOINT_PAGES = 1000  # WAL pages after a commit from which a checkpoint is asked for (SQLite's default)


class SqliteBackend:
    """``backend.Backend`` over the SQLite file at ``path`` (created with its folder, mode 0600).
    More: docs/storage-tuning.md#sqlite-backend-sqlitebackend.

    Raises (on open): :class:`errors.StoreError` for a file of another program or of
    a newer memvault (left untouched), :class:`errors.StorageUnavailable` when it is
    locked past ``busy_timeout_ms`` or cannot be written.
    """

    kind = "sqlite"

    def __init__(
        self, path: Path | str, *, busy_timeout_ms: int = BUSY_TIMEOUT_MS,
        submit: Callable[[str, Callable[[], object]], object] | None = None,
    ) -> None:
        self.path = Path(path)
        self.location = str(self.path)
        self._busy_timeout_ms = busy_timeout_ms
        self._key = crypto.configured(self.path)  # read once: every connection of this store gets it
        self._lock = threading.RLock()  # the writer connection, one thread at a time (sqlite-vec crashed peers sharing one)
        self._conn = open_connection(self.path, check=check_compatible, busy_timeout_ms=busy_timeout_ms,
                                     key=self._key)
        try:
            migrate(self._conn)
        except BaseException:  # (damage a migration met: db.damaged) nothing of this store is left open
            self._conn.close()
            raise
        self.read_only = self._conn.read_only  # why writes are refused (read-only file system or file), or None
        self.damaged: str | None = None  # why writes are refused once damage was seen (:meth:`found_damage`), or None
        # Why calls' reads are refused once one met damage: a read of a tenant, never the readiness probe's (of no
        # tenant: its pages may be whole while a call's are not); as ``damaged``, until a restart on a recovered file.
        self.unreadable: str | None = None
        self._seen_short: str | None = None  # what read_header's last look found short (health.short_of_pages)
        self._submit = submit
        if submit is not None:
            self._conn.set_wal_hook(self._committed)  # (replaces SQLite's checkpoint inside the commit)
        self.vector_cache = VectorCache(release=None if submit is None else lambda: submit("trim", trim_heap))
        self._tx = SqliteTransaction(self._conn, fts_tokenizer(self._conn), self.vector_cache)
        self._local = threading.local()  # .tx: this thread's reader (a SqliteTransaction over its connection)
        # Every open reader, closed by close(); a finished thread's reader is closed with its locals.
        self._readers: weakref.WeakSet[apsw.Connection] = weakref.WeakSet()
        self._readers_lock = threading.Lock()  # close() on one thread, a reader opened on another: none left open
        self._closed = False
        # Reads in flight by the generation they began in, so a scrub can wait for the
        # older ones (see ``_wait_for_older_reads``).
        self._generation = 0
        self._reads: collections.Counter[int] = collections.Counter()
        self._reads_changed = threading.Condition()  # a scrub waits here: older reads keep the WAL from truncation

    def _reader(self) -> SqliteTransaction:
        """This thread's reader connection (opened on first use, configured like the writer's)."""
        tx: SqliteTransaction | None = getattr(self._local, "tx", None)
        if tx is None:
            conn = open_connection(self.path, busy_timeout_ms=self._busy_timeout_ms, key=self._key)
            with self._readers_lock:
                if self._closed:
                    conn.close()
                    raise StoreError("the store is closed")
                self._readers.add(conn)
            tx = self._local.tx = SqliteTransaction(conn, fts_tokenizer(conn), self.vector_cache)
        return tx

    @contextlib.contextmanager
    def read(self, tenant: str | None) -> Iterator[SqliteTransaction]:
        """One read transaction on this thread's connection: one snapshot, taken at its
        first query, so it sees every commit made before the block began, and no lock
        of this process is held (every method filters the tenant itself)."""
        tx = self._reader()
        with self._reads_changed:
            generation = self._generation
            self._reads[generation] += 1
        try:
            tx.conn.execute("BEGIN")
            tx.begun(tenant)
            try:
                yield tx
            finally:
                tx.conn.execute("COMMIT")
        except (apsw.CorruptError, apsw.NotADBError, UnicodeDecodeError) as exc:
            # memvault writes only UTF-8: a text that is not was written over
            error = self.found_damage(exc if isinstance(exc, apsw.Error) else
                                      apsw.CorruptError(f"a text is not UTF-8: {exc.reason}"))
            if tenant is not None:
                self.unreadable = self.unreadable or str(error)
            raise error from exc
        finally:
            with self._reads_changed:
                self._reads[generation] -= 1
                self._reads_changed.notify_all()

    def _wait_for_older_reads(self) -> None:
        """Wait (holding no lock; at most ``SCRUB_SETTLE_S``) until every read of this
        process that began before now has ended: after a checkpoint has copied the WAL,
        reads that begin later do not use it, so only these keep it from being truncated."""
        with self._reads_changed:
            self._generation += 1
            newest = self._generation
            self._reads_changed.wait_for(
                lambda: not any(n for g, n in self._reads.items() if g < newest), SCRUB_SETTLE_S
            )
            self._reads = collections.Counter({g: n for g, n in self._reads.items() if n})

    @contextlib.contextmanager
    def write(self, tenant: str | None) -> Iterator[SqliteTransaction]:
        """One ``BEGIN IMMEDIATE`` transaction. Raises Busy or StorageUnavailable (nothing written): also
        at once, nothing begun, once damage was seen (:meth:`found_damage`)."""
        if self.damaged is not None:
            raise Damaged(self.damaged)
        try:
            with self._lock:
                with write_transaction(self._conn):
                    self._tx.begun(tenant, writes=True)
                    yield self._tx
                self._tx.committed()
        except StorageUnavailable as exc:  # (write_transaction rolled back and said it with db.damaged)
            if isinstance(exc.__cause__, (apsw.CorruptError, apsw.NotADBError)):
                self.found_damage(exc.__cause__)
            raise
        except UnicodeDecodeError as exc:  # rolled back: as in read()
            raise self.found_damage(apsw.CorruptError(f"a text is not UTF-8: {exc.reason}")) from exc

    def found_damage(self, exc: apsw.Error) -> Damaged:
        """The error for damage met (SQLITE_CORRUPT, SQLITE_NOTADB, a text not UTF-8, or
        :meth:`check_damage`'s finding; ``db.damaged``), remembered in ``damaged``: from now on this
        process refuses every write with it, before beginning one, and reads go on where SQLite can
        serve them. The only place ``damaged`` is set; said once in the log, at INFO (a server's log shows
        it; a CLI command's error already says it)."""
        error = damaged(exc)
        if self.damaged is None:
            self.damaged = str(error)
            log.info("memvault database %s is damaged (%s): reads are served where SQLite can read them, every "
                     "write is refused until memvault is started again on a recovered file; `memvault doctor` "
                     "says how to recover (docs/troubleshooting.md#a-damaged-database)", self.location, exc)
        return error

    def read_header(self) -> None:
        """The readiness probe's look at the file, the same cost at any size: its length against the pages
        its header counts (``health.cut_in_a_page``, and ``health.short_of_pages`` when this look finds what
        the last one found: a checkpoint writes page 1 before it extends the file), then its header and schema
        on a new connection (``db.read_header``: this process's connections may still serve a damaged file from
        their page caches). Damage found is remembered as damage met (:meth:`found_damage`), as is a plain
        file's header written over (``health.overwritten``: the key check would take it for another program's
        file). Raises StorageUnavailable or StoreError."""
        short = health.short_of_pages(self.path)
        cut = health.cut_in_a_page(self.path) or (short if short is not None and short == self._seen_short else None)
        self._seen_short = short
        if cut is not None:
            raise self.found_damage(apsw.CorruptError(cut))
        overwritten = health.overwritten(self.path) if self._key is None else None
        if overwritten is not None:
            raise self.found_damage(apsw.NotADBError(overwritten))
        try:
            read_header(self.path)
        except StorageUnavailable as exc:
            if isinstance(exc.__cause__, (apsw.CorruptError, apsw.NotADBError)):
                raise self.found_damage(exc.__cause__) from exc.__cause__
            raise

    def check_damage(self, stop: Callable[[], bool]) -> str | None:
        """SQLite's ``quick_check`` of the whole file (``health.failed_pages``; FTS5's own check of each
        keyword index included) in one read transaction on a connection of its own (WAL: writers and
        readers go on meanwhile), so that damage in pages no call has read yet is known
        (:meth:`found_damage`); returns the problem found, or None (also when ``stop()``, asked every
        ``CHECK_STEPS`` of SQLite's steps, ended it first). A new connection: on one that had read
        the file before, FTS5's check used the index structure it kept from an earlier snapshot while
        another connection wrote, and reported a sound file damaged. Run once per server start, and
        by the CLI before a write (docs/troubleshooting.md#a-damaged-database)."""
        conn = open_connection(self.path, busy_timeout_ms=self._busy_timeout_ms, key=self._key)
        try:
            conn.set_progress_handler(stop, CHECK_STEPS)
            conn.execute("BEGIN")  # ended by the close: an interrupted check may have ended it already
            found = health.failed_pages(conn, "quick_check")
        except apsw.InterruptError:
            return None
        except (apsw.CorruptError, apsw.NotADBError) as exc:  # it met the damage itself
            found = str(exc)
        finally:
            conn.close()
        if found is not None:
            self.found_damage(apsw.CorruptError(found))
        return found

    def _committed(self, _conn: apsw.Connection, _name: str, pages: int) -> int:
        if pages >= CHECKPOINT_PAGES and self._submit is not None:
            self._submit("checkpoint", self.checkpoint)
        return apsw.SQLITE_OK

    def checkpoint(self) -> None:
        """A ``PASSIVE`` WAL checkpoint on this thread's reader connection, run on the worker
        after a commit left the WAL at ``CHECKPOINT_PAGES`` or more: unlike SQLite's own, in
        the commit, it makes no writer wait (docs/storage-tuning.md#checkpoints-off-the-committing-thread);
        it waits for nobody, and durability is unchanged. Logged when it cannot run (the next commit asks again)."""
        try:
            self._reader().conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except (apsw.Error, StoreError) as exc:
            log.warning("checkpoint of the write-ahead log postponed: %s", exc)

    def put_setting(self, key: str, value: str | None) -> None:
        """Set or (``value`` None) delete one setting, in its own transaction (a repair, not the contract)."""
        with self.write(None):
            if value is None:
                self._conn.execute("DELETE FROM settings WHERE key = ?", (key,))
            else:
                self._conn.execute("INSERT OR REPLACE INTO settings(key, value) VALUES (?, ?)", (key, value))

    def _scrub_due(self) -> str | None:
        with self.read(None) as tx:
            return tx.settings().get(SCRUB_DUE)

    def maintain(self, stop: Callable[[], bool]) -> bool:
        """See ``backend.Backend.maintain``: :meth:`scrub`, then :meth:`index_vectors` steps."""
        scrubbed = self.scrub()
        while not stop() and self.index_vectors():
            pass
        return scrubbed

    def scrub(self) -> bool:
        """A complete, truncating WAL checkpoint when a scrub is due (see ``db.scrub``),
        then the duty is cleared.
        More: docs/storage-tuning.md#sqlite-backend-scrub."""
        try:
            conn = self._reader().conn
            failed, pause = 0, 0.0
            while failed < SCRUB_ATTEMPTS:
                due = self._scrub_due()  # (again: a forget may have come in meanwhile)
                if due is None:
                    return True
                if pause:
                    time.sleep(pause)
                if scrub(conn, self._wait_for_older_reads):
                    # Cleared only now: a crash before this line leaves the duty for the next start.
                    with self.write(None):
                        self._conn.execute("DELETE FROM settings WHERE key = ? AND value = ?", (SCRUB_DUE, due))
                    pause = SCRUB_GAP_S
                else:
                    failed, pause = failed + 1, SCRUB_PAUSE_S
            if self._scrub_due() is None:
                return True
            log.warning("scrub of forgotten content postponed: readers kept the write-ahead log in use")
        except (apsw.Error, StorageUnavailable) as exc:
            log.warning("scrub of forgotten content postponed: %s", exc)
        return False

    def index_vectors(self) -> bool:
        """One bounded step of the vector index's upkeep (see ``cells``); True when more are due.
        More: docs/storage-tuning.md#sqlite-backend-index-vectors."""
        import numpy as np
        with self.read(None) as r:
            cells = r.cells()
            first = cells.newest_first << vector_cells.CELL_SHIFT
            waiting = r.conn.execute(
                f"SELECT key, embedding FROM {VECTOR_TABLE} WHERE key < ? LIMIT ?", (first, MOVE_BATCH)
            ).fetchall() if cells.size else []
            trained_on = int(r.conn.execute(
                "SELECT ifnull((SELECT value FROM settings WHERE key = ?), 0)", (TRAINED_ON,)).fetchone()[0])
            due_at = max(vector_cells.TRAIN_AT, vector_cells.GROW * trained_on)
            stored = 0
            # max(seq) bounds the count of vectors and costs nothing; the count is read only past it.
            if not waiting and r.conn.execute("SELECT ifnull(max(seq), 0) FROM memories").fetchone()[0] >= due_at:
                stored = r.conn.execute(f"SELECT count(*) FROM {VECTOR_TABLE}").fetchone()[0]
            if stored >= due_at:
                count = vector_cells.cell_count(stored)
                size = min(stored, vector_cells.TRAIN_SAMPLE_MAX, count * vector_cells.TRAIN_SAMPLE_PER_CELL)
                sample = r.conn.execute(
                    f"SELECT embedding FROM {VECTOR_TABLE} WHERE {VECTOR_SEQ} % ? = 0", (max(1, stored // size),)
                ).fetchall()
        if stored >= due_at:
            self._train(cells, sample, count, stored)
            return True
        if waiting:
            matrix = np.frombuffer(b"".join(row[1] for row in waiting), dtype=np.float32).reshape(len(waiting), -1)
            moves = [(vector_cells.key(int(cell), old & vector_cells.SEQ_MASK), old)
                     for (old, _), cell in zip(waiting, cells.assign(matrix))]
            with self.write(None) as w:
                # A vector forgotten or written again meanwhile is not there to move.
                if np.array_equal(w.cells().ids, cells.ids):
                    self._conn.executemany(f"UPDATE {VECTOR_TABLE} SET key = ? WHERE key = ?", moves)
            return True
        if cells.size and cells.ids.min() < cells.newest_first:
            with self.write(None):
                self._conn.execute(
                    f"DELETE FROM vector_cells WHERE cell < ? AND NOT EXISTS (SELECT 1 FROM {VECTOR_TABLE} WHERE key < ?)",
                    (cells.newest_first, first),
                )
        return False

    def _train(self, cells: vector_cells.Cells, sample: list[tuple[bytes]], count: int, stored: int) -> None:
        """Record a new generation of ``count`` cells trained on ``sample`` (rows of
        float32 blobs) of ``stored`` vectors, unless the centroids changed meanwhile."""
        import numpy as np
        matrix = np.frombuffer(b"".join(row[0] for row in sample), dtype=np.float32).reshape(len(sample), -1)
        centroids = vector_cells.kmeans(matrix, min(count, len(matrix)))
        with self.write(None) as w:
            if not np.array_equal(w.cells().ids, cells.ids):
                return
            generation = int(cells.generations.max(initial=0)) + 1
            top = int(cells.ids.max(initial=0))
            self._conn.executemany(
                "INSERT INTO vector_cells(cell, generation, centroid) VALUES (?, ?, ?)",
                [(top + 1 + i, generation, c.tobytes()) for i, c in enumerate(centroids)],
            )
            self._conn.execute("INSERT OR REPLACE INTO settings(key, value) VALUES (?, ?)", (TRAINED_ON, str(stored)))

    def stats(self, now: int) -> dict[str, object]:
        """Counts over the whole file (see ``health.stats``), and whether it is encrypted."""
        with self.read(None) as tx:
            return {"database": self.location, "encrypted": self._key is not None, **health.stats(tx.conn, now)}

    def tenants(self) -> list[str]:
        """The tenants holding current memories, from the counts kept as memories change (no scan)."""
        with self.read(None) as tx:
            return [row[0] for row in tx.conn.execute(
                "SELECT DISTINCT tenant FROM memory_counts WHERE current > 0 ORDER BY tenant")]

    def check(self) -> list[str]:
        """SQLite's and FTS5's integrity checks and the agreement of the derived indexes (see ``health.check``)."""
        with self.read(None) as tx:
            return health.check(tx.conn)

    def rebuild_keyword_index(self) -> None:
        """Rebuild every tenant's FTS5 index from the memories, and its turn index from its turns, in
        one transaction."""
        with self.write(None):
            rebuild_turn_index(self._conn)
            numbers = dict(self._conn.execute("SELECT tenant, number FROM keyword_tenants").fetchall())
            for (tenant,) in self._conn.execute(
                    "SELECT DISTINCT tenant FROM memories WHERE content IS NOT NULL").fetchall():
                if tenant not in numbers:
                    numbers[tenant] = create_keyword_index(self._conn, tenant)
            for tenant, number in numbers.items():
                table = keyword_table(number)
                self._conn.execute(f"INSERT INTO {table}({table}) VALUES ('delete-all')")
                fill_keyword_index(self._conn, tenant, number)
            self._tx.forget()  # (written here, not by its ``_index``)

    def reset_vectors(self, model_id: str, dim: int) -> None:
        """Drop every vector and the vector index's cells, record ``model_id``/``dim``,
        mark every live memory pending (one transaction)."""
        with self.write(None) as tx:
            self._conn.execute(f"DELETE FROM {VECTOR_TABLE}")
            self._conn.execute("DELETE FROM vector_cells")
            self._conn.execute("DELETE FROM settings WHERE key = ?", (TRAINED_ON,))
            self._conn.execute("DELETE FROM memory_windows")
            self._conn.execute("DELETE FROM settings WHERE key IN (?, ?)", (MODEL_ID, MODEL_DIM))
            tx.claim_model(model_id, dim)
            self._conn.execute("UPDATE memories SET vector_pending = 1 WHERE forgotten_at IS NULL")

    def warm_up(self, stop: Callable[[], bool] = lambda: False) -> None:
        """Read the vector index's cells into the in-memory copy (``vector_cache``) up to
        its budget, ``PRELOAD_BATCH`` cells per read transaction (so a scrub never waits
        long for it), newest generation first: the first searches after a start then
        score cells already in memory instead of reading them (at 1,000,000 memories,
        about 45 cells a question, 19 s for the whole budget). Stops at the budget, when
        ``stop()`` is true or the store closes (checked between two transactions), or
        when the copy moves to another snapshot (searches load cells as before)."""
        import numpy as np
        with self.read(None) as tx:
            cells = tx.cells()
            order = np.argsort(-cells.generations, kind="stable")
            ids = [c for c in [0, *cells.ids[order].tolist()] if c not in self.vector_cache]  # (resumed: go on)
        for start in range(0, len(ids), PRELOAD_BATCH):
            if self._closed or stop():
                return
            with self.read(None) as tx:
                if not self.vector_cache.preload(tx.conn, ids[start:start + PRELOAD_BATCH]):
                    return

    def close(self) -> None:
        """Close every connection (from any thread, once no call is in flight)."""
        with self._readers_lock:
            self._closed = True
            readers = list(self._readers)
        for conn in readers:
            conn.close()
        with self._lock:
            self._conn.close()
