"""memvault's exceptions, one small hierarchy.

    MemvaultError
    ├── InvalidInput       a field is missing, malformed or out of its limits
    ├── NotFound           no such memory in this tenant (unknown and foreign ids look alike)
    ├── Conflict           the request contradicts stored state (reused idempotency key,
    │                      superseding a memory that already has a successor)
    ├── ModelUnavailable   the embedding model could not be loaded or does not match
    ├── StoreError         the database cannot be used (newer schema, missing extension)
    └── StorageUnavailable a write could not be made now (disk full, read-only file);
        │                  nothing was written; the message says whether a retry can succeed
        ├── Busy           another connection held the write lock past the busy timeout;
        │                  nothing was written and retrying is safe
        └── Damaged        the database file is damaged (SQLite found it corrupt or not a
                           database); nothing was written; `memvault doctor` says how to recover

An InvalidInput, NotFound or Conflict message starts with the field and a colon, shows the
value refused (:func:`shown`) and the limit expected; the MCP layer makes it ``isError``.
"""

from __future__ import annotations

import json
import re

SHOWN_MAX_CHARS = 60  # of an offending value quoted in a message
SHOWN_SCAN_CHARS = 1_000  # of an offending value searched for a credential before it is quoted


def shown(value: object) -> str:
    """How every message shows a refused value: a string as Python quotes it, anything else
    as JSON, cut to ``SHOWN_MAX_CHARS``; a value holding a credential (its first
    ``SHOWN_SCAN_CHARS`` scanned) only by what it looks like (:func:`credentials_in`)."""
    if isinstance(value, str):
        text = value
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**SHOWN_MAX_CHARS:
        try:
            return f"an integer of {len(str(abs(value))):,} digits"
        except ValueError:  # over Python's 4,300-digit limit for str()
            return "an integer of over 4,300 digits"
    else:
        try:
            text = json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError):
            return type(value).__name__
    described = credentials_in(text[:SHOWN_SCAN_CHARS])
    if described is not None:
        return described
    if isinstance(value, str):
        return repr(value if len(value) <= SHOWN_MAX_CHARS else value[: SHOWN_MAX_CHARS - 3] + "...")
    return text if len(text) <= SHOWN_MAX_CHARS else text[: SHOWN_MAX_CHARS - 3] + "..."


def credentials_in(*texts: str) -> str | None:
    """``a value that looks like a GitHub token`` (each kind found in ``texts`` once), or None. A lone
    surrogate (text from JSON's ``\\ud800`` or an undecodable argv byte) is read as U+FFFD: the scanner
    takes valid Unicode only."""
    from .secrets import find_secrets  # secrets imports this module

    kinds = dict.fromkeys(kind for found in find_secrets(*map(_unicode, texts)) for kind, _ in found)
    if not kinds:
        return None
    return "a value that looks like " + " and ".join(_with_article(kind) for kind in kinds)


_SURROGATE = re.compile("[\ud800-\udfff]")
NOT_UNICODE = "must be valid Unicode (it contains a lone surrogate)"  # a text field's refusal when not encodable


def encodable(text: str) -> bool:
    """Whether ``text`` is valid Unicode: no lone surrogate (JSON's ``\\ud800``, an undecodable
    argv byte), which no encoder and no RE2 pattern takes."""
    return _SURROGATE.search(text) is None


def _unicode(text: str) -> str:
    return text if encodable(text) else _SURROGATE.sub("\ufffd", text)


def _with_article(kind: str) -> str:
    """"a GitHub token", "an AWS access key", "an npm access token"."""
    return ("an " if kind[:1].lower() in "aeiou" or kind.split()[0] in {"npm", "SSH", "HMAC"} else "a ") + kind


class MemvaultError(Exception):
    """Base class of every error memvault raises on purpose."""


class InvalidInput(MemvaultError):
    """A field (``"content"``, ``"tags[3]"``) is missing, malformed or outside its limits; a
    message naming another argument puts it in backticks (the CLI spells it as its flag)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.reason = message


class NotFound(MemvaultError):
    """No memory with that id in the caller's tenant (the same message for another tenant's);
    ``field``/``what`` name another thing looked up (a session)."""

    def __init__(self, memory_id: str, field: str = "id", what: str = "memory with id", why: str = "") -> None:
        self.field = field
        self.reason = f"no {what} {shown(memory_id)}{why}"
        super().__init__(f"{self.field}: {self.reason}")
        self.memory_id = memory_id


class Conflict(MemvaultError):
    """The request contradicts stored state; the message (field first) says what to do instead."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.reason = message


class ModelUnavailable(MemvaultError):
    """The embedding model cannot be used (missing, corrupt, or not the database's model)."""


class StoreError(MemvaultError):
    """The database file cannot be used by this version of memvault."""


class StorageUnavailable(MemvaultError):
    """A write failed for a reason outside memvault (disk full, read-only); nothing was written."""


class Busy(StorageUnavailable):
    """Another connection held the database's write lock longer than the busy timeout."""


class Damaged(StorageUnavailable):
    """The database file is damaged: SQLite met a corrupt page or a file that is not a database,
    opening or reading it. Nothing was written."""
