"""Naming memories and walking their histories, over any backend: an id given in any
letter case or as a unique prefix (like git's abbreviated hashes), the shortest
prefix that names a memory, and supersession chains (bounded, so a cycle left by
damage ends a walk instead of looping).
"""

from __future__ import annotations

import os
from dataclasses import replace

from . import validate
from .backend import Reader
from .errors import Conflict, NotFound
from .limits import ID_PREFIX_MIN_CHARS
from .records import Memory
from .timefmt import format_ms


def expired(memory: Memory, now: int) -> bool:
    """Whether ``memory`` has an expiry at or before ``now`` (ms)."""
    return memory.expires_at is not None and memory.expires_at <= now


def ended(memory: Memory, now: int) -> str | None:
    """How ``memory``'s content ended, as every message says it: ``expired at <time>``
    (also once an expired memory is erased, which keeps a tombstone like forget), ``was
    forgotten``, or None while it is live."""
    if memory.expires_at is not None and memory.expires_at <= (memory.forgotten_at or now):
        return f"expired at {format_ms(memory.expires_at)}"
    return "was forgotten" if memory.forgotten_at is not None else None


def visible(memory: Memory, now: int) -> Memory:
    """``memory`` as reads may show it: an expired memory loses its content, like a tombstone."""
    if memory.forgotten_at is None and expired(memory, now):
        return replace(memory, content=None, tags=(), source=None, supersede_reason=None)
    return memory


def resolve(tx: Reader, tenant: str, given: str) -> Memory:
    """The memory of ``tenant`` named by ``given``: its id in any letter case, or a
    unique prefix of at least ``ID_PREFIX_MIN_CHARS`` characters (like git).

    Only ``tenant``'s ids are looked at, so another tenant's memory neither
    matches nor makes a prefix ambiguous: it looks exactly like an unknown id.

    Raises:
        InvalidInput: ``given`` is not a non-empty string, holds a character no id
            has, is shorter than ``ID_PREFIX_MIN_CHARS`` (:func:`validate.id_text`),
            or the prefix is ambiguous.
        NotFound: nothing matches.
    """
    wanted = validate.id_text("id", given)
    rows = list(tx.memories(tenant, prefix=wanted, limit=2).values())
    if not rows:
        raise NotFound(given)
    if len(rows) > 1 and rows[0].id != wanted:
        raise validate.ambiguous_id("id", given)
    return rows[0]

def row(tx: Reader, tenant: str, memory_id: str) -> Memory:
    """The memory with exactly this id (as stored links name it). Raises NotFound."""
    for found in tx.memories(tenant, ids=[memory_id]).values():
        return found
    raise NotFound(memory_id)

def newest(tx: Reader, memory: Memory) -> Memory:
    """The last version reached from ``memory`` by ``superseded_by`` links (bounded: a cycle stops it)."""
    seen = {memory.id}
    current = memory
    while current.superseded_by is not None and current.superseded_by not in seen:
        current = row(tx, memory.tenant, current.superseded_by)
        seen.add(current.id)
    return current

def check_supersedable(tx: Reader, old: Memory, now: int) -> None:
    """Raise Conflict unless ``old`` is the current, live version of its history."""
    gone = ended(old, now)
    if gone is not None:
        raise Conflict("id", f"memory {old.id} {gone}, so it cannot be superseded: remember the new content")
    if old.superseded_by is None:
        return
    last = newest(tx, old)
    if last.superseded_by is not None:
        raise Conflict(
            "id", f"the history of memory {old.id} is damaged (its versions link in a cycle): run memvault doctor"
        )
    gone = ended(last, now)
    if gone is not None:
        raise Conflict(
            "id", f"memory {old.id} was superseded, and its newest version {last.id} {gone}: this history "
            "has no current version any more; remember the new content"
        )
    raise Conflict(
        "id", f"memory {old.id} was already superseded; its current version is {last.id}: "
        f"supersede {last.id} instead"
    )

def chain(tx: Reader, memory: Memory) -> list[Memory]:
    """Every memory linked to ``memory`` by supersession, oldest first.

    Each walk stops at an id it has seen, so a cycle left by damage or hand
    edits ends it instead of looping (``memvault doctor`` reports cycles).
    """
    seen = {memory.id}
    first = memory
    while first.supersedes is not None and first.supersedes not in seen:
        first = row(tx, memory.tenant, first.supersedes)
        seen.add(first.id)
    chain = [first]
    while chain[-1].superseded_by is not None and chain[-1].superseded_by not in {m.id for m in chain}:
        chain.append(row(tx, memory.tenant, chain[-1].superseded_by))
    if memory.id not in {m.id for m in chain}:
        chain.append(memory)
    return chain

def short_ids(tx: Reader, tenant: str, ids: list[str], min_length: int = ID_PREFIX_MIN_CHARS) -> dict[str, str]:
    """The shortest prefix (at least ``min_length`` characters) of each id that no
    other memory id of ``tenant`` starts with, like git's abbreviated hashes.

    A prefix one character longer than the longest prefix shared with either
    neighbour in sorted order is unique. UUIDv7 ids begin with their time, so
    memories made in the same minute need more than 8 characters. A prefix may
    become ambiguous as memories are added (then it is an error, never another memory).
    """
    out: dict[str, str] = {}
    neighbours = tx.id_neighbours(tenant, list(dict.fromkeys(ids))) if ids else {}
    for memory_id in ids:
        shared = max((len(os.path.commonprefix([memory_id, n])) for n in neighbours[memory_id] if n), default=0)
        short = memory_id[: max(min_length, shared + 1)]
        out[memory_id] = memory_id[: len(short) + 1] if short.endswith("-") else short
    return out
