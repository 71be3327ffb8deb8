"""Opening the SQLite database: file permissions, pragmas, sqlite-vec, transactions.
More: docs/storage-tuning.md#sqlite-db."""

from __future__ import annotations

import array
import contextlib
import importlib.util
import os
import time
import urllib.parse
from collections.abc import Callable, Iterator
from pathlib import Path

import apsw

from ..errors import Busy, Damaged, StorageUnavailable, StoreError
from ..limits import BUSY_TIMEOUT_MS
from ..textindex import SQL_FUNCTION, index_text
from . import convert, crypto


# A writer blocked by another connection's lock looks again this often during its
# first ``WAIT_FAST_S``, then every ``WAIT_SLOW_POLL_S`` (see ``wait_for_locks``).
WAIT_POLL_S = 0.001
WAIT_FAST_S = 0.25
WAIT_SLOW_POLL_S = 0.01


def vec0_path() -> str:
    """sqlite-vec's loadable extension, where ``sqlite_vec.loadable_path()`` says it is (beside the
    package's ``__init__``), found without importing the package: its import brings numpy, 0.1 s in
    every hook that never touches a vector (docs/hooks.md#speed)."""
    spec = importlib.util.find_spec("sqlite_vec")
    if spec is None or not spec.submodule_search_locations:
        raise StoreError("cannot load the sqlite-vec extension: the sqlite-vec package is not installed")
    return os.path.join(spec.submodule_search_locations[0], "vec0")


class Connection(apsw.Connection):
    """An apsw connection that knows how long it waits for other connections' locks
    (``busy_timeout_ms``, set by :func:`wait_for_locks`; ``PRAGMA busy_timeout`` reads
    0 once a busy handler of Python's is installed)."""

    busy_timeout_ms: int = 0
    read_only: str | None = None  # why this connection was opened read-only (:func:`read_only_reason`)


def wait_for_locks(conn: Connection, timeout_ms: int) -> None:
    """Make ``conn`` wait up to ``timeout_ms`` of elapsed time for a lock another
    connection holds, looking again every ``WAIT_POLL_S`` (after ``WAIT_FAST_S`` of
    waiting, every ``WAIT_SLOW_POLL_S``); then SQLite answers busy as before. The
    handler is Python's, so each look takes the GIL (only while the connection is
    blocked). Why not SQLite's own timeout: docs/storage-tuning.md#polling-for-locks.
    """
    timeout_s = timeout_ms / 1000
    started = 0.0

    def busy(tries: int) -> bool:
        nonlocal started
        now = time.monotonic()
        if tries == 0:
            started = now
        waited = now - started
        if waited >= timeout_s:
            return False
        time.sleep(min(WAIT_POLL_S if waited < WAIT_FAST_S else WAIT_SLOW_POLL_S, timeout_s - waited))
        return True

    conn.busy_timeout_ms = timeout_ms
    if timeout_ms > 0:
        conn.set_busy_handler(busy)
    else:
        conn.set_busy_timeout(0)


CONFIGURED = "configured"  # open_connection's key: the one the settings name (crypto.configured)


def open_connection(
    path: Path | str,
    check: Callable[[apsw.Connection], object] | None = None,
    busy_timeout_ms: int = BUSY_TIMEOUT_MS,
    key: crypto.Key | None | str = CONFIGURED,
) -> Connection:
    """Open (creating if needed) the database at ``path`` and configure it; with a ``key`` (by
    default the configured one, None for none) the file is encrypted (docs/encryption.md).
    More: docs/storage-tuning.md#sqlite-db-open-connection.

    Raises:
        StoreError: the file cannot be opened or sqlite-vec cannot be loaded; the key is missing,
            wrong or not wanted (a plain file with a key configured: :func:`crypto.check_file`).
        StorageUnavailable: another connection holds a lock past the busy
            timeout (:class:`Busy`), or the file cannot be written.
    """
    path = Path(path)
    if isinstance(key, str):
        key = crypto.configured(path)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not path.exists():
            fd = os.open(path, os.O_CREAT | os.O_WRONLY, 0o600)
            os.close(fd)
        elif path.stat().st_size == 0:
            path.chmod(0o600)  # an empty file becomes a new database: make it private like one
    except OSError as exc:
        raise StoreError(f"cannot create database {str(path)!r}: {exc.strerror or exc}") from exc
    # A file this process cannot write (a read-only file system, a read-only file) is
    # opened read-only, so reads are served and writes refused as read-only.
    read_only = read_only_reason(path)
    convert.remove_leftover(path)  # a stopped `memvault decrypt` may have left a plain copy
    crypto.check_file(path, key)
    inode = path.stat().st_ino
    try:
        if read_only:
            conn = Connection(read_only_uri(path), flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
            conn.read_only = read_only
        else:
            conn = Connection(str(path))
    except apsw.Error as exc:
        raise StoreError(f"cannot open database {str(path)!r}: {exc}") from exc
    try:
        wait_for_locks(conn, busy_timeout_ms)
        if key is not None:
            _unlock(conn, path, key)
        # The FTS5 view and triggers of files of schema 2-6 call it, until they are migrated.
        conn.create_scalar_function(SQL_FUNCTION, index_text, 1, deterministic=True)
        if check is not None:
            check(conn)
        if not read_only:
            conn.execute("PRAGMA journal_mode=WAL")
    except apsw.Error as exc:
        translated = unavailable(exc, conn)
        conn.close()
        raise (translated or StoreError(f"cannot open database {str(path)!r}: {exc}")) from exc
    except BaseException:
        conn.close()
        raise
    try:
        conn.enable_load_extension(True)
        conn.load_extension(vec0_path())
    except apsw.Error as exc:
        raise StoreError(f"cannot load the sqlite-vec extension: {exc}") from exc
    finally:
        conn.enable_load_extension(False)
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA secure_delete=ON")
    conn.execute("PRAGMA mmap_size=0")  # docs/storage-tuning.md#no-memory-map
    if not read_only:
        grow_before_writing(conn)
    if path.stat().st_ino != inode:  # `memvault encrypt` or `decrypt` replaced it meanwhile
        conn.close()
        raise StorageUnavailable(f"{str(path)!r} was replaced by another file while being opened (`memvault "
                                 "encrypt` or `decrypt`?). Nothing was written; opening it again is safe.")
    return conn


def grow_before_writing(conn: apsw.Connection) -> None:
    """Have ``conn``'s checkpoints extend the file to its final size before they write page 1, whose
    header counts the pages: SQLite's unix VFS acts on a checkpoint's size hint only when a chunk size
    is set (``SQLITE_FCNTL_CHUNK_SIZE``, sqlite.org/c3ref/c_fcntl_begin_atomic_write.html). Without it
    the file is shorter than its header says until the checkpoint ends, which the readiness probe
    cannot tell from a cut (``health.short_of_pages``). A chunk of one page: the file grows as before."""
    page_size = array.array("i", [conn.execute("PRAGMA page_size").fetchone()[0]])  # (no ctypes: a hook's import time)
    conn.file_control("main", apsw.SQLITE_FCNTL_CHUNK_SIZE, page_size.buffer_info()[0])


def read_only_reason(path: Path) -> str | None:
    """Why this process cannot write the existing file at ``path`` ("the file is on a read-only
    file system", or "this process may not write the file"), or None when it can."""
    if os.access(path, os.W_OK):
        return None
    try:
        on_read_only_mount = bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        on_read_only_mount = False
    return "the file is on a read-only file system" if on_read_only_mount else "this process may not write the file"


def read_only_uri(path: Path | str) -> str:
    """The URI every read-only connection to ``path`` opens (the server's, the CLI's, a readiness
    probe's): ``mode=ro``, and ``immutable=1`` when the file cannot be written and no ``-shm`` file
    exists beside it or can be made there (a WAL file cannot be read without one: "unable to open
    database file"). SQLite's URI parameters: https://sqlite.org/uri.html."""
    path = Path(path)
    immutable = not os.access(path, os.W_OK) and not os.access(path.parent, os.W_OK) and \
        not Path(f"{path}-shm").exists()
    return f"file:{urllib.parse.quote(str(path))}?mode=ro{'&immutable=1' if immutable else ''}"


def _unlock(conn: apsw.Connection, path: Path, key: crypto.Key) -> None:
    """Apply ``key`` and read the schema with it: a key that does not decrypt the file is said as such."""
    key.apply(conn, path)
    try:
        conn.execute("SELECT count(*) FROM sqlite_schema").fetchall()
    except apsw.NotADBError:
        raise crypto.mismatch(path, "wrong", key) from None


@contextlib.contextmanager
def write_transaction(conn: apsw.Connection) -> Iterator[apsw.Connection]:
    """Run the block as one ``BEGIN IMMEDIATE`` transaction.
    More: docs/storage-tuning.md#sqlite-db-write-transaction.

    Raises:
        Busy: the write lock stayed taken past the busy timeout (nothing written).
        StorageUnavailable: the disk is full, the file read-only or unwritable
            (nothing written).
    """
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:  # SQLite may already have rolled back (e.g. on SQLITE_FULL)
                conn.execute("ROLLBACK")
            raise
    except apsw.Error as exc:
        translated = unavailable(exc, conn)
        if translated is None:
            raise
        raise translated from exc


def read_header(path: Path | str) -> None:
    """Read the file's header and schema on a new read-only connection: a server's own
    connections keep serving a file damaged under them from their page caches, until a
    write elsewhere makes them read it again.

    Raises:
        StorageUnavailable: the file is damaged, busy or cannot be read (:func:`unavailable`).
        StoreError: it cannot be opened.
    """
    key = crypto.configured(path)
    crypto.check_file(path, key)  # a plain file with a key: said as such, not as a wrong key
    try:
        conn = apsw.Connection(read_only_uri(path), flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    except apsw.Error as exc:
        raise StoreError(f"cannot open database {str(path)!r}: {exc}") from exc
    try:
        conn.set_busy_timeout(1000)
        if key is not None:
            _unlock(conn, Path(path), key)
        conn.execute("SELECT count(*) FROM sqlite_schema").fetchall()
    except apsw.Error as exc:
        raise (unavailable(exc, conn) or StoreError(f"cannot read database {str(path)!r}: {exc}")) from exc
    finally:
        conn.close()


def unavailable(exc: apsw.Error, conn: apsw.Connection) -> StorageUnavailable | None:
    """memvault's error for an SQLite failure that is not memvault's fault, or None.

    Busy and locked (SQLITE_BUSY, SQLITE_LOCKED), full (SQLITE_FULL), read-only
    (SQLITE_READONLY) and I/O errors (SQLITE_IOERR); each message says that
    nothing was written and whether retrying can succeed.
    """
    if isinstance(exc, (apsw.BusyError, apsw.LockedError)):
        if isinstance(conn, Connection):
            seconds = conn.busy_timeout_ms / 1000
        else:
            seconds = conn.execute("PRAGMA busy_timeout").fetchone()[0] / 1000
        return Busy(
            f"the database is busy: another connection held its write lock for more than {seconds:g} s "
            f"({exc}). Nothing was written; retrying is safe."
        )
    if isinstance(exc, (apsw.CorruptError, apsw.NotADBError)):
        return damaged(exc)
    if isinstance(exc, apsw.FullError):
        return StorageUnavailable(
            f"the disk holding the database is full ({exc}). Nothing was written; retrying is safe "
            "but fails again until space is freed."
        )
    if isinstance(exc, apsw.ReadOnlyError):
        why = getattr(conn, "read_only", None) or f"{exc}: a read-only file system or file"
        return StorageUnavailable(
            f"the database is read-only here ({why}): recall and reads are served, nothing was written. "
            "To write, make the file and its folder writable, or copy it elsewhere."
        )
    if isinstance(exc, apsw.IOError):
        return StorageUnavailable(
            f"the database file cannot be written ({type(exc).__name__}: {exc}). Nothing was written; "
            "retrying is safe but fails again until the file or disk is fixed."
        )
    return None


def damaged(exc: apsw.Error) -> Damaged:
    """memvault's error for a damaged file (SQLITE_CORRUPT, SQLITE_NOTADB): what happened,
    that nothing was written, and how to recover."""
    return Damaged(
        f"the database file is damaged ({exc}). Nothing was changed. `memvault doctor` says what is wrong "
        "and how to recover (docs/troubleshooting.md#a-damaged-database)."
    )


# How long the scrub's final checkpoint waits for readers of older snapshots; new
# writers wait meanwhile (SQLite's TRUNCATE checkpoint holds the write lock), so it
# stays below a 100 ms wait for any other call (docs/storage-tuning.md#sqlite-backend-scrub).
# A scrub that does not get its moment is retried.
SCRUB_WAIT_MS = 50


def scrub(conn: apsw.Connection, settle: Callable[[], object] = lambda: None) -> bool:
    """Make deleted bytes unrecoverable from every file: checkpoint the WAL, then truncate it.
    More: docs/storage-tuning.md#sqlite-db-scrub.

    Returns:
        True when the WAL was fully checkpointed and truncated; False when a reader
        (in this process or another) or a writer kept it from finishing (old page
        images may then remain in the ``-wal`` file: the caller tries again later).
    """
    conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
    settle()
    return truncate(conn)


def truncate(conn: apsw.Connection, wait_ms: int = SCRUB_WAIT_MS) -> bool:
    """A ``TRUNCATE`` checkpoint on ``conn`` (outside any transaction of it) that waits
    for the write lock and for readers of older snapshots with SQLite's own busy
    timeout of ``wait_ms``; ``conn``'s own waits (:func:`wait_for_locks`, or a plain
    connection's busy timeout) are restored afterwards. True when the WAL was fully
    checkpointed and truncated.
    More: docs/storage-tuning.md#sqlite-db-truncate."""
    own_ms = conn.busy_timeout_ms if isinstance(conn, Connection) else conn.execute("PRAGMA busy_timeout").fetchone()[0]
    conn.set_busy_timeout(wait_ms)
    try:
        busy, _log, _done = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    finally:
        if isinstance(conn, Connection):
            wait_for_locks(conn, own_ms)
        else:
            conn.set_busy_timeout(own_ms)
    return busy == 0


def fts_tokenizer(conn: apsw.Connection) -> Callable[[str], list[str]]:
    """The keyword indexes' tokenizer (porter over unicode61, diacritics removed) as a function."""
    tokenizer = conn.fts5_tokenizer("porter", ["unicode61", "remove_diacritics", "2"])

    def tokenize(text: str) -> list[str]:
        return [t[2] for t in tokenizer(text.encode("utf-8"), apsw.FTS5_TOKENIZE_DOCUMENT, None)]

    return tokenize

