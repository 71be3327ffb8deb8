"""``memvault encrypt`` and ``decrypt``: a copy written beside the file (SQLite's ``VACUUM INTO``, with
or without the key), synced, checked, then renamed over it, while an exclusive lock keeps every other
connection out. A crash leaves the old file or the new one, each whole.
More: docs/encryption.md#converting-a-store."""

from __future__ import annotations

import logging
import os
import stat
import urllib.parse
from pathlib import Path

import apsw

from ..errors import StoreError
from . import crypto

SUFFIX = ".converting"  # the copy's name: the database's own, with this added
log = logging.getLogger(__name__)


def reached(stage: str) -> None:
    """Called at each point of a conversion ("locked", "created", "written", "checked", "renamed",
    "replaced"); does nothing (tests replace it to stop the process there)."""


_LEFT_ALONE: set[str] = set()  # the files of a user's named like a copy, already said


def remove_leftover(path: Path | str) -> None:
    """Remove the copy (and its SQLite journal) that a conversion of the database at ``path`` left when
    it was stopped before its rename, saying so on stderr; the database itself is whole. A copy that a
    running conversion holds (its lock, :func:`_hold`) is left alone."""
    copy = Path(f"{path}{SUFFIX}")
    files = [name for name in (copy, Path(f"{copy}-journal")) if os.path.lexists(name)]
    if not files:
        return
    if not all(_made_here(name) for name in files):
        if str(copy) in _LEFT_ALONE:  # said once a process: every connection's open comes here
            return
        _LEFT_ALONE.add(str(copy))
        log.warning("left %s alone: named like the copy a stopped `memvault encrypt` or `decrypt` leaves, but "
                    "not one (not an SQLite file or journal of yours); move it if it is yours",
                    " and ".join(str(name) for name in files))
        return
    fd = -1
    try:
        fd = -1 if os.name == "nt" else os.open(files[0], os.O_RDONLY)
        if fd >= 0 and not _hold(fd, wait=False):
            return
        for name in files:
            name.unlink(missing_ok=True)
    except FileNotFoundError:  # the conversion renamed or removed it meanwhile
        return
    except OSError as exc:  # a read-only folder or file system: said, and the store opened as it can be
        running = os.name == "nt" and isinstance(exc, PermissionError)  # Windows: a conversion has it open
        if not running:
            log.warning("cannot remove %s, the unfinished copy of a stopped `memvault encrypt` or `decrypt`: %s",
                        files[0], exc.strerror or exc)
        return
    finally:
        if fd >= 0:
            os.close(fd)
    log.warning("removed %s: the unfinished copy of a `memvault encrypt` or `decrypt` that was stopped "
                "(%s is whole, as it was before; run the command again to convert it)",
                " and ".join(str(name) for name in files), path)


# The first bytes of a plain SQLite file and of a rollback journal (zeroed once its transaction ends).
_HEADERS = (b"SQLite format 3\x00", b"\xd9\xd5\x05\xf9\x20\xa1\x63\xd7", b"\x00" * 8)


def _made_here(name: Path) -> bool:
    """Whether ``name`` can be a conversion's copy or its journal: a regular file of this user, empty
    (stopped just after it was made), a plain SQLite file or journal, or an encrypted one (whose bytes
    are random, so only its size tells: whole pages, a multiple of 512 bytes)."""
    try:
        info = name.lstat()
        with open(name, "rb") as fh:
            head = fh.read(16)
    except OSError:
        return False
    mine = stat.S_ISREG(info.st_mode) and (os.name == "nt" or info.st_uid == os.getuid())
    return mine and (not head or head.startswith(_HEADERS) or info.st_size % 512 == 0)


def convert(path: Path | str, key: crypto.Key, encrypt: bool) -> Path:
    """Encrypt the plain database at ``path`` with ``key`` (``encrypt``), or decrypt it with ``key``;
    returns ``path``, now the converted file.

    Raises:
        StoreError: no database there, already converted, the key does not open it, another connection
            has it open (a server), or the copy cannot be written; the file is then left as it was.
    A stopped conversion's copy is removed first (:func:`remove_leftover`).
    """
    path = Path(path).absolute()
    plain = crypto.is_plain(path)
    if plain is None:
        raise StoreError(f"no database at {str(path)!r}")
    if plain != encrypt and encrypt and not _opens(path, key):
        raise crypto.mismatch(path, "wrong", key)  # not "already encrypted": not with this key
    if plain != encrypt:
        state = "already encrypted with this key" if encrypt else "plain already"
        raise StoreError(f"{str(path)!r} is {state}: nothing to do")
    source = _locked(path, None if encrypt else key)
    copy = path.with_name(path.name + SUFFIX)
    fd, created = -1, False
    try:
        reached("locked")
        remove_leftover(path)  # a conversion stopped before: its copy never replaced the file
        # Not a copy of ours (remove_leftover said so), or another conversion's; a journal SQLite would take
        # for the copy's own, and remove.
        there = next((name for name in (copy, Path(f"{copy}-journal")) if os.path.lexists(name)), None)
        try:
            if there is None:
                fd = os.open(copy, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:  # made meanwhile
            there = copy
        if there is not None:
            raise StoreError(f"{str(there)!r} exists and is not a stopped conversion's copy: move it away and run "
                             "this again; the database is unchanged")
        created = True
        _hold(fd, wait=True)  # until the rename: an open of the store then leaves the copy alone
        reached("created")
        target = f"file:{urllib.parse.quote(str(copy))}?{key.uri_parameter() if encrypt else 'key='}"
        try:
            source.execute("VACUUM INTO ?", (target,))
        except apsw.Error as exc:  # the message would quote the target, key included
            raise StoreError(f"cannot write {str(copy)!r} ({type(exc).__name__}); the database is "
                             "unchanged") from None
        if os.fstat(fd).st_nlink == 0:  # removed meanwhile (its lock was taken a moment late)
            raise StoreError(f"{str(copy)!r} was removed while being written; the database is unchanged: "
                             "run this again")
        _sync(copy)
        reached("written")
        _check(copy, key if encrypt else None)
        reached("checked")
        if os.name == "nt":  # Windows renames no open file
            source.close()
            os.close(fd)
            fd = -1
        os.replace(copy, path)
        created = False
        reached("renamed")
        _sync(path.parent)
        reached("replaced")
    except BaseException:
        if created:
            for name in (copy, Path(f"{copy}-journal")):
                name.unlink(missing_ok=True)
        raise
    finally:
        if fd >= 0:
            os.close(fd)
        source.close()
    return path


def _locked(path: Path, key: crypto.Key | None) -> apsw.Connection:
    """A connection to ``path`` holding SQLite's exclusive lock until it closes, its WAL copied into
    the file and removed (the next open returns it to WAL mode).

    Raises:
        StoreError: another connection has the file open, or ``key`` does not open it.
    """
    flags = apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_URI  # URI: the copy's name carries the key
    try:
        conn = apsw.Connection(str(path), flags=flags)
    except apsw.Error as exc:
        raise StoreError(f"cannot open database {str(path)!r}: {exc}") from exc
    try:
        if key is not None:
            key.apply(conn, path)
        conn.set_busy_timeout(0)
        try:
            # A first read before the exclusive mode: it joins the WAL's shared memory, whose lock every
            # other open connection holds. (Exclusive mode set first never uses it, and would take the
            # file from under idle servers, whose later writes would go to the replaced file.)
            conn.execute("SELECT count(*) FROM sqlite_schema").fetchall()
            conn.execute("PRAGMA locking_mode=EXCLUSIVE").fetchall()
            conn.execute("BEGIN EXCLUSIVE")
            conn.execute("SELECT count(*) FROM sqlite_schema").fetchall()
            conn.execute("COMMIT")
        except apsw.BusyError:
            raise StoreError(f"another process has {str(path)!r} open (a memvault server, an MCP client's, "
                             "or a command): stop it and run this again. Nothing was changed.") from None
        except apsw.NotADBError:
            unreadable = StoreError(f"{str(path)!r} cannot be read")
            raise (crypto.mismatch(path, "wrong", key) if key else unreadable) from None
        mode = conn.execute("PRAGMA journal_mode=DELETE").fetchall()  # WAL copied into the file; -wal, -shm gone
        if mode != [("delete",)]:  # only the one connection of the file may leave WAL mode
            raise StoreError(f"another process has {str(path)!r} open: stop it and run this again. Nothing was "
                             "changed.")
        from .db import vec0_path  # (db imports this module)

        conn.enable_load_extension(True)  # the vector tables' module, for the copy to read their schema
        conn.load_extension(vec0_path())
        conn.enable_load_extension(False)
    except BaseException:
        conn.close()
        raise
    return conn


def _opens(path: Path, key: crypto.Key) -> bool:
    """Whether ``key`` decrypts the database at ``path`` (read only)."""
    try:
        _check(path, key)
    except StoreError:
        return False
    return True


def _check(copy: Path, key: crypto.Key | None) -> None:
    """Read the whole copy back (``PRAGMA quick_check``) with the key it is to be opened with."""
    uri = f"file:{urllib.parse.quote(str(copy))}?mode=ro"
    conn = apsw.Connection(uri, flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    try:
        if key is not None:
            key.apply(conn, copy)
        result = conn.execute("PRAGMA quick_check").fetchall()
    except apsw.Error as exc:
        raise StoreError(f"the copy {str(copy)!r} cannot be read back ({type(exc).__name__}); the database "
                         "is unchanged") from None
    finally:
        conn.close()
    if result != [("ok",)]:
        raise StoreError(f"the copy {str(copy)!r} is damaged ({result[0][0]}); the database is unchanged")


def _hold(fd: int, wait: bool) -> bool:
    """Take the lock (``flock``, not SQLite's) that marks a copy as being written; False when another
    process has it and not ``wait``. None on Windows: there an open file cannot be removed."""
    if os.name == "nt":
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        return False
    return True


def _sync(path: Path) -> None:
    """Flush ``path`` (a file, or a folder's entries) to the disk."""
    if os.name == "nt" and path.is_dir():  # Windows cannot open a folder to flush it; its rename is durable
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
