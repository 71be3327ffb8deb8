"""Naming memories (an id in any case, or a unique prefix like git's) and walking their
supersession chains (bounded: a cycle left by damage ends a walk)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import replace

from . import validate
from .backend import DIGEST_SOURCE, Reader, Writer, compaction_reason
from .errors import Conflict, NotFound
from .limits import ID_PREFIX_MIN_CHARS, REASON_MAX_CHARS
from .query import Filters
from .records import Memory
from .timefmt import format_ms

WEEK_MS = 7 * 86_400_000
_GIVEN_FOR = re.compile(r" \(given for [0-9a-f-]{36}\)$")  # a reason :func:`given_for` moved
DIGEST_ERASED = "a memory it compacted was forgotten"  # forget reason of a digest erased for its source


def expired(memory: Memory, now: int) -> bool:
    """Whether ``memory`` has an expiry at or before ``now`` (ms)."""
    return memory.expires_at is not None and memory.expires_at <= now


def ended(memory: Memory, now: int) -> str | None:
    """``expired at <time>``, ``was forgotten``, or None while ``memory`` is live."""
    if memory.expires_at is not None and memory.expires_at <= (memory.forgotten_at or now):
        return f"expired at {format_ms(memory.expires_at)}"
    return "was forgotten" if memory.forgotten_at is not None else None


def visible(memory: Memory, now: int) -> Memory:
    """``memory`` as reads may show it: an expired memory loses its content, like a tombstone."""
    if memory.forgotten_at is None and expired(memory, now):
        return replace(memory, content=None, tags=(), source=None, supersede_reason=None)
    return memory


def resolve(tx: Reader, tenant: str, given: str, field: str = "id") -> Memory:
    """The memory of ``tenant`` named by ``given`` (any case, or a unique prefix of at least
    ``ID_PREFIX_MIN_CHARS``); other tenants' ids are never looked at. Errors name ``field``.

    Raises:
        InvalidInput: not an id (:func:`validate.id_text`), or an ambiguous prefix.
        NotFound: nothing matches.
    """
    wanted = validate.id_text(field, given)
    rows = list(tx.memories(tenant, prefix=wanted, limit=2).values())
    if not rows:
        raise NotFound(given, field)
    if len(rows) > 1 and rows[0].id != wanted:
        raise validate.ambiguous_id(field, given)
    return rows[0]

def row(tx: Reader, tenant: str, memory_id: str) -> Memory:
    """The memory with exactly this id (as stored links name it). Raises NotFound."""
    for found in tx.memories(tenant, ids=[memory_id]).values():
        return found
    raise NotFound(memory_id)

def newest(tx: Reader, memory: Memory) -> Memory:
    """The last version reached from ``memory`` by ``superseded_by`` links (bounded: a cycle stops
    it; so does a compaction, which is no version)."""
    seen = {memory.id}
    current = memory
    while current.superseded_by is not None and current.superseded_by not in seen and not compacted_into(current):
        current = row(tx, memory.tenant, current.superseded_by)
        seen.add(current.id)
    return current

def given_for(reason: str | None, memory_id: str) -> str | None:
    """The reason of a link moved when a version joined its history between two others: the reason
    given, saying which memory it was given for ("moved (given for <id>)"; once, when moved again),
    within ``REASON_MAX_CHARS``."""
    mark = f" (given for {memory_id})"
    if reason is None or _GIVEN_FOR.search(reason):
        return reason
    return (reason if len(reason) + len(mark) <= REASON_MAX_CHARS
            else reason[:REASON_MAX_CHARS - len(mark) - 1].rstrip() + "…") + mark


def check_supersedable(tx: Reader, old: Memory, now: int) -> None:
    """Raise Conflict unless ``old`` is the current, live version of its history."""
    gone = ended(old, now)
    if gone is not None:
        raise Conflict("id", f"memory {old.id} {gone}, so it cannot be superseded: remember the new content")
    if old.superseded_by is None:
        return
    last = newest(tx, old)  # forward only: a writer locks the rows it reads, in chain order
    digest = compacted_into(last)
    if digest is not None:
        raise Conflict("id", f"memory {old.id} is an old episode compacted into the digest {digest}, so it "
                             "cannot be superseded: remember the new content")
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
    """Every memory linked to ``memory`` by supersession, oldest first (a cycle ends a walk)."""
    seen = {memory.id}
    first = memory
    while first.supersedes is not None and first.supersedes not in seen:
        first = row(tx, memory.tenant, first.supersedes)
        seen.add(first.id)
    chain = [first]
    while chain[-1].superseded_by is not None and chain[-1].superseded_by not in {m.id for m in chain} \
            and not compacted_into(chain[-1]):
        chain.append(row(tx, memory.tenant, chain[-1].superseded_by))
    if memory.id not in {m.id for m in chain}:
        chain.append(memory)
    return chain

def compacted_into(memory: Memory) -> str | None:
    """The digest ``memory`` was compacted into (:mod:`consolidate`), or None. A compaction is no
    new version: chain walks stop there."""
    digest = memory.superseded_by
    return digest if digest is not None and memory.supersede_reason == compaction_reason(digest) else None


def is_digest(memory: Memory) -> bool:
    """Whether ``memory`` is a live digest that consolidation wrote."""
    return memory.kind == "episode" and memory.source == DIGEST_SOURCE and memory.forgotten_at is None


SESSION_TAG = "session"  # a session's digest (:mod:`episodes`): this tag, and the source "session <id>"


def session_source(session_id: str) -> str:
    """The ``source`` of session ``session_id``'s digest."""
    return f"{SESSION_TAG} {session_id}"


def session_of(memory: Memory) -> str | None:
    """The id of the session whose digest ``memory`` is, or None."""
    return digest_session(memory.source, memory.tags)


def digest_session(source: str | None, tags: Iterable[str]) -> str | None:
    """The id of the session whose digest a memory with ``source`` and ``tags`` is, or None."""
    prefix = session_source("")
    return source[len(prefix):] if source and SESSION_TAG in tags and source.startswith(prefix) else None


def is_session_digest(memory: Memory) -> bool:
    """Whether ``memory`` is a session's digest (:mod:`episodes`)."""
    return session_of(memory) is not None


def digest_sources(tx: Reader, digest: Memory, now: int) -> list[Memory]:
    """The live memories compacted into ``digest``: episodes of its scope from its week, observed at
    or before it (one bounded range read)."""
    week = Filters(tenant=digest.tenant, scopes=[digest.scope], now=now, kinds=["episode"],
                   since=digest.observed_at - WEEK_MS, until=digest.observed_at + 1, include_history=True)
    return [m for m in tx.memories(digest.tenant, filters=week, order="seq").values()
            if compacted_into(m) == digest.id]


def erase(tx: Writer, memories: list[Memory], now: int, reason: str | None) -> tuple[list[str], list[str]]:
    """Erase the live ``memories`` into tombstones (:meth:`Writer.erase`), keeping compaction honest:
    a digest quoting one of them is erased too, with every version of it (its words go with theirs),
    and the other memories of a digest erased here become current again, for the next consolidation
    to compact anew.
    Returns (ids erased, ids made current again)."""
    live = [m for m in memories if m.forgotten_at is None]
    digests = {d for m in live if (d := compacted_into(m)) is not None} | {m.id for m in live if is_digest(m)}
    erased = [m.id for m in live]
    for member in live:
        tx.erase(member.id, now, reason)
    restored: list[str] = []
    for digest_id in sorted(digests):
        for version in chain(tx, row(tx, live[0].tenant, digest_id)):  # an edited digest quotes them too
            if version.forgotten_at is None and version.id not in erased:
                tx.erase(version.id, now, DIGEST_ERASED)
                erased.append(version.id)
            back = [m.id for m in digest_sources(tx, version, now) if m.id not in erased]
            if back:
                tx.release(version.id, back)
                restored += back
    return erased, restored


def short_ids(tx: Reader, tenant: str, ids: list[str], min_length: int = ID_PREFIX_MIN_CHARS) -> dict[str, str]:
    """The shortest prefix (at least ``min_length``) of each id that no other id of
    ``tenant`` starts with: one longer than it shares with either sorted neighbour."""
    out: dict[str, str] = {}
    neighbours = tx.id_neighbours(tenant, list(dict.fromkeys(ids))) if ids else {}
    for memory_id in ids:
        shared = max((len(os.path.commonprefix([memory_id, n])) for n in neighbours[memory_id] if n), default=0)
        short = memory_id[: max(min_length, shared + 1)]
        out[memory_id] = memory_id[: len(short) + 1] if short.endswith("-") else short
    return out
