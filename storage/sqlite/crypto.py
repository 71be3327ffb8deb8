"""Encryption at rest of the SQLite file (SQLite3 Multiple Ciphers, as built into ``apsw-sqlite3mc``):
where the key comes from, applying it to a connection, and telling plain files from encrypted ones.
More: docs/encryption.md."""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import logging
import os
import stat
from pathlib import Path

import apsw

from ..errors import StoreError

KEY_FILE = "MEMVAULT_KEY_FILE"  # a file holding the key, readable by its owner only
KEYRING = "MEMVAULT_KEYRING"  # 1: the key is in the OS keyring (service SERVICE, name: the database's real path)
SERVICE = "memvault"
SQLITE_HEADER = b"SQLite format 3\x00"  # the first 16 bytes of every plain SQLite file
# SQLite3 Multiple Ciphers' ChaCha20 key derivation (PBKDF2-HMAC-SHA256, this many rounds, the file's
# 16-byte salt), done here once per store and file instead of by SQLite at every connection
# (docs/encryption.md#cost).
KDF_ITERATIONS = 64_007
SALT_BYTES = 16
log = logging.getLogger(__name__)
REINSTALL = "pip install --force-reinstall --no-deps apsw-sqlite3mc"
HOW = (f"set {KEY_FILE} to a file holding the key, or {KEYRING}=1 with the key in the OS keyring "
       "(docs/encryption.md)")


class Key:
    """A database key (the bytes of the key file or keyring entry); never shown by ``repr`` or ``str``."""

    __slots__ = ("_derived", "_secret", "source")

    def __init__(self, secret: bytes, source: str) -> None:
        self._secret = secret
        self.source = source  # what a message names: "MEMVAULT_KEY_FILE (/path)" or "the OS keyring"
        self._derived: dict[bytes, bytes] = {}  # salt -> the key SQLite3 Multiple Ciphers derives from it

    def __repr__(self) -> str:
        return f"Key(from {self.source})"

    __str__ = __repr__

    def apply(self, conn: apsw.Connection, path: Path | str | None = None) -> None:
        """Give ``conn`` (on the file at ``path``) this key, before its first read (SQLite3 Multiple
        Ciphers' ``hexkey`` pragma): for an encrypted file, the key derived from its salt (once per
        salt); for a new file, the key itself, which SQLite derives with a new salt."""
        require_ciphers()
        salt = None if path is None else file_salt(path)
        value = self._secret.hex() if salt is None else self._raw(salt)
        try:
            conn.pragma("hexkey", value)
        except apsw.Error:
            raise StoreError(f"the key from {self.source} could not be applied") from None

    def _raw(self, salt: bytes) -> str:
        derived = self._derived.get(salt)
        if derived is None:
            derived = hashlib.pbkdf2_hmac("sha256", self._secret, salt, KDF_ITERATIONS, 32)
            self._derived[salt] = derived
        return f"raw:{derived.hex()}".encode().hex()

    def uri_parameter(self) -> str:
        """The key as a URI query parameter (``hexkey=...``) naming an encrypted file to create."""
        return f"hexkey={self._secret.hex()}"


def configured(path: Path | str) -> Key | None:
    """The key configured for the database at ``path`` (from :data:`KEY_FILE` or the OS keyring),
    or None when neither is set.

    Raises:
        StoreError: both are set; the key file is missing, empty, not the user's own or readable by
            group or others; the keyring lacks ``keyring`` or the entry. The message names what is
            missing, never the key.
    """
    file, ring = os.environ.get(KEY_FILE, "").strip(), os.environ.get(KEYRING, "").strip().lower()
    if ring not in ("", "0", "1", "true", "false", "yes", "no"):
        raise StoreError(f"{KEYRING}: must be 1/true/yes or 0/false/no")
    use_ring = ring in ("1", "true", "yes")
    if file and use_ring:
        raise StoreError(f"both {KEY_FILE} and {KEYRING} are set: set one")
    if file:
        return _from_file(Path(os.path.expanduser(file)).absolute())
    if use_ring:
        return _from_keyring(str(Path(path).resolve()))  # one name however the path is spelled
    return None


def _from_file(path: Path) -> Key:
    where = f"{KEY_FILE} ({path})"
    try:
        info = path.stat()
    except OSError as exc:
        raise StoreError(f"{where}: cannot be read: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        what = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise StoreError(f"{where}: is {what}; give the file holding the key")
    if os.name == "posix" and info.st_mode & 0o077:
        raise StoreError(f"{where}: has mode {stat.S_IMODE(info.st_mode):o}, readable by others than its "
                         f"owner: `chmod 600 {path}` (and make a new key if others may have read it)")
    if os.name == "posix" and info.st_uid != os.geteuid():
        raise StoreError(f"{where}: belongs to another user (uid {info.st_uid})")
    try:
        secret = path.read_bytes().rstrip(b"\r\n")
    except OSError as exc:
        raise StoreError(f"{where}: cannot be read: {exc.strerror or exc}") from None
    if not secret:
        raise StoreError(f"{where}: is empty: write the key into it (docs/encryption.md)")
    if not secret.strip():
        raise StoreError(f"{where}: holds only white space: write the key into it (docs/encryption.md)")
    return Key(secret, where)


def _from_keyring(name: str) -> Key:
    if importlib.util.find_spec("keyring") is None:
        raise StoreError(f'{KEYRING}=1 needs the keyring package: pip install "memvault[encrypted]"')
    import keyring
    import keyring.errors

    entry = f"service {SERVICE!r}, name {name!r}"
    try:
        secret = keyring.get_password(SERVICE, name)
    except keyring.errors.NoKeyringError:
        raise StoreError(f"{KEYRING}=1: no OS keyring is available here (keyring found no usable backend): "
                         f"use {KEY_FILE} instead (docs/encryption.md)") from None
    except Exception as exc:  # any backend's failure (D-Bus, Keychain, a locked collection): said, by type
        raise StoreError(f"{KEYRING}=1: the OS keyring ({type(keyring.get_keyring()).__name__}) failed to "
                         f"read the key ({entry}): {type(exc).__name__}; nothing was created") from None
    if secret is None:
        raise StoreError(f"{KEYRING}=1: the OS keyring has no key for {entry}: `keyring set {SERVICE} {name}` "
                         "stores one (it asks for it)")
    if not secret.strip():
        raise StoreError(f"{KEYRING}=1: the OS keyring's entry ({entry}) is empty: `keyring set {SERVICE} "
                         f"{name}` stores the key (it asks for it)")
    return Key(secret.encode("utf-8"), f"the OS keyring ({KEYRING}: {entry})")


@functools.cache
def has_ciphers() -> bool:
    """Whether the loaded apsw is built with SQLite3 Multiple Ciphers (plain apsw ignores the key pragma)."""
    conn = apsw.Connection(":memory:")
    try:
        conn.execute("SELECT sqlite3mc_version()").fetchall()
        return True
    except apsw.SQLError:
        return False
    finally:
        conn.close()


def require_ciphers() -> None:
    """Raise StoreError (naming the fix) when the loaded apsw cannot encrypt."""
    if not has_ciphers():
        raise StoreError("a key is configured, but the apsw module installed here has no ciphers (the "
                         f"`apsw` distribution's files replaced `apsw-sqlite3mc`'s): {REINSTALL} "
                         "(docs/encryption.md)")


def file_head(path: Path | str, size: int) -> bytes | None:
    """The first ``size`` bytes of the file at ``path`` (fewer when it is shorter), None when it cannot
    be opened. Read through SQLite's own unix file layer, never Python's: closing any descriptor of a
    file drops every POSIX lock this process holds on it, SQLite's too, so that another SQLite program
    takes itself for the file's last user and deletes its -wal (sqlite.org/howtocorrupt.html, 2.2);
    SQLite defers its own closes while this process holds locks on the file."""
    try:
        file = apsw.VFSFile("unix", str(path), [apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_MAIN_DB, 0])
    except apsw.Error:  # missing, a folder, unreadable: opening it says why
        return None
    try:  # the size from the file system: SQLite reports a 1-byte file as empty (its ticket #3260)
        length = min(size, os.stat(path).st_size)
        return file.xRead(length, 0) if length else b""
    except (apsw.Error, OSError):  # a folder, or a file gone meanwhile
        return None
    finally:
        file.xClose()


def is_plain(path: Path | str) -> bool | None:
    """True when the file at ``path`` starts as a plain SQLite file, False when it holds bytes that do
    not (encrypted, or another program's), None when it is missing or empty."""
    header = file_head(path, len(SQLITE_HEADER))
    return None if not header else header == SQLITE_HEADER


def file_salt(path: Path | str) -> bytes | None:
    """The salt an encrypted file starts with, or None (no file, empty, or plain)."""
    head = file_head(path, SALT_BYTES)
    return head if head is not None and len(head) == SALT_BYTES and head != SQLITE_HEADER else None


def check_file(path: Path | str, key: Key | None) -> None:
    """Refuse before opening: a plain file while a key is configured, an encrypted one without a key;
    say on stderr when a new file is made plain while a key setting is present but empty.

    Raises:
        StoreError: :func:`mismatch`'s message.
    """
    plain = is_plain(path)
    if key is not None and plain:
        raise mismatch(path, "plain", key)
    if key is None and plain is False:
        raise mismatch(path, "no key")
    empty = [name for name in (KEY_FILE, KEYRING) if name in os.environ and not os.environ[name].strip()]
    if key is None and plain is None and empty:
        log.warning("%s is set but empty, which means no key: the new database %s is plain (unencrypted); "
                    "set it to a key (or remove it) (docs/encryption.md#setting-it-up)",
                    " and ".join(empty), str(path))


def mismatch(path: Path | str, state: str, key: Key | None = None) -> StoreError:
    """The one message, on every surface (commands, servers, ``memvault ui``, hooks), for a key that does
    not fit the database at ``path``: ``state`` "no key" (encrypted, none configured), "wrong" (``key``
    does not decrypt it) or "plain" (a plain file, ``key`` configured). Never holds the key."""
    where = repr(str(path))
    if state == "no key":
        text = (f"{where} is not an SQLite database in clear: it is encrypted (or another program's file) "
                f"and no key is configured: {HOW}")
    elif state == "wrong":
        text = (f"the key from {key.source if key else '?'} does not decrypt {where} (a wrong key, or not "
                f"memvault's file): check {KEY_FILE} / {KEYRING} (docs/encryption.md)")
    else:
        text = (f"{where} is a plain (unencrypted) database, and a key is configured "
                f"({key.source if key else '?'}): `memvault encrypt` encrypts it with that key; or unset "
                f"{KEY_FILE} / {KEYRING} to use it plain (docs/encryption.md)")
    return StoreError(f"{text}. Nothing was written.")
