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
        └── Busy           another connection held the write lock past the busy timeout;
                           nothing was written and retrying is safe

Every message of an InvalidInput, NotFound or Conflict starts with the field concerned
and a colon (``id: ...``), names the value refused (quoted alike everywhere:
:func:`shown`) and the limit or format expected, so an agent can correct its call.
The MCP layer turns these into ``isError`` tool results.
"""

from __future__ import annotations

import json

SHOWN_MAX_CHARS = 60  # of an offending value quoted in a message
SHOWN_SCAN_CHARS = 1_000  # of an offending value searched for a credential before it is quoted


def shown(value: object) -> str:
    """How every message shows the value it refuses: a string in quotes as Python writes
    it (``'yesterday'``, ``'2026-13-45'``), cut to ``SHOWN_MAX_CHARS`` characters with
    "..."; anything else as JSON (``11``, ``3.5``, ``1e+30``, ``true``, ``null``, ``["a"]``),
    cut likewise, so a number reads in the notation it came in (an integer in all its
    digits, a float as JSON writes it); an integer too long to show whole is described
    (``an integer of 309 digits``).

    A value in which the secret detector (``secrets.find_secrets``, the one that guards
    stored fields) finds a credential is named by what it looks like, never quoted
    (``a value that looks like a GitHub token``): refusals are sent to the client and
    logged, whichever field held the value. Its first ``SHOWN_SCAN_CHARS`` characters are
    scanned, before any cut, so a long key cannot leave its first characters behind, and
    a refusal of a huge value costs no more than one of a short one."""
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
    """What a message says instead of quoting a text in which the secret detector
    (``secrets.find_secrets``) finds a credential: ``a value that looks like a GitHub
    token`` (each kind once, first found first, for all ``texts`` together); None when
    none of them holds one."""
    from .secrets import find_secrets  # secrets imports this module

    kinds = dict.fromkeys(kind for found in find_secrets(*texts) for kind, _ in found)
    if not kinds:
        return None
    return "a value that looks like " + " and ".join(_with_article(kind) for kind in kinds)


def _with_article(kind: str) -> str:
    """"a GitHub token", "an AWS access key", "an npm access token"."""
    return ("an " if kind[:1].lower() in "aeiou" or kind.split()[0] in {"npm", "SSH", "HMAC"} else "a ") + kind


class MemvaultError(Exception):
    """Base class of every error memvault raises on purpose."""


class InvalidInput(MemvaultError):
    """A field is missing, malformed or outside its limits.

    ``field`` names the offending argument (e.g. ``"content"``, ``"tags[3]"``); a ``message``
    naming another argument puts it in backticks (``"`kinds`"``), which the command line
    spells as its flag (``--kind``).
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.reason = message


class NotFound(MemvaultError):
    """No memory with that id exists in the caller's tenant.

    The message is the same for an unknown id and an id that belongs to another
    tenant, so tenants cannot be probed.
    """

    def __init__(self, memory_id: str) -> None:
        self.field = "id"
        self.reason = f"no memory with id {shown(memory_id)}"
        super().__init__(f"{self.field}: {self.reason}")
        self.memory_id = memory_id


class Conflict(MemvaultError):
    """The request contradicts stored state; the message says what to do instead.

    Like :class:`InvalidInput`, it starts with the field the conflict is about:
    ``id: memory 01a22ff4-... was already superseded; ...``.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.reason = message


class ModelUnavailable(MemvaultError):
    """The embedding model cannot be used (missing, corrupt, or not the database's model)."""


class StoreError(MemvaultError):
    """The database file cannot be used by this version of memvault."""


class StorageUnavailable(MemvaultError):
    """A write failed for a reason outside memvault (disk full, read-only file, I/O error).

    The transaction was rolled back, so nothing was written; the message says so
    and whether retrying can succeed.
    """


class Busy(StorageUnavailable):
    """Another connection held the database's write lock longer than the busy timeout."""
