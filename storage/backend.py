"""The narrow interface between the memory rules (``store.Store``) and a database.

A backend answers questions and applies changes inside transactions; it decides
nothing about what a memory means. Everything memvault means — validation,
duplicates and confirmations, idempotency, supersede and forget rules, fusion,
abstention, boot order — lives above it in ``store``, ``candidates`` and
``ranking``, once for every backend.

Two backends implement it: ``storage.sqlite`` (one file: FTS5, sqlite-vec) and
``storage.postgres`` (pgvector, full-text search, row-level security).

Conventions:
- ``seq`` is the backend's integer key of a memory row; rules receive it from a
  candidate query and hand it back, never invent it. ``id`` is the public UUIDv7.
- Times are ms since the epoch (UTC). Vectors are float32 ``numpy`` arrays of the
  model's dimension, unit length; window 0 is the whole memory's start.
- ``Backend.read(tenant)`` and ``Backend.write(tenant)`` open one transaction bound
  to ``tenant``: a backend may enforce it below the queries (PostgreSQL row-level
  security) and every method also filters the tenant itself. ``tenant=None`` is
  for maintenance across tenants only (never on a request path).
- Every filter of a candidate query (:class:`query.Filters`) is inside that query,
  so a filtered top-k is a full top-k of the allowed memories.
- Errors: :class:`errors.Busy` when another writer holds the database past the
  busy timeout, :class:`errors.StorageUnavailable` when it cannot be read or
  written (disk full, server gone); both leave nothing half-written.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

import numpy as np

from .query import Filters
from .records import ApiKey, Memory

Order = Literal["observed", "importance"]  # newest observed first; most important, then newest


@dataclass(frozen=True)
class NewRow:
    """A memory row to insert, as the rules decided it (``remember``, ``supersede``, import).

    ``vectors`` None leaves the vector pending (filled later); ``context_seq`` is the
    episode this one continues (its words index this memory at a lower weight);
    ``idempotency_key`` is recorded against the new row with its ``content_hash``.
    """

    id: str
    tenant: str
    scope: str
    kind: str
    content: str
    content_hash: str
    tags: tuple[str, ...]
    importance: int
    source: str | None
    observed_at: int
    recorded_at: int
    expires_at: int | None = None
    supersedes: str | None = None
    superseded_by: str | None = None
    supersede_reason: str | None = None
    confirmations: int = 0
    last_confirmed_at: int | None = None
    context_seq: int | None = None
    idempotency_key: str | None = None
    vectors: list[np.ndarray] | None = None


class Reader(Protocol):
    """One read transaction: every answer comes from the same snapshot."""

    # -- retrieval candidates (every filter inside the query) -----------------------
    def keyword(self, filters: Filters, words: list[list[str]], k: int) -> list[tuple[int, float, float]]:
        """Top-``k`` keyword matches of the question's word chunks (``query.query_chunks``;
        each chunk a phrase, chunks OR-ed, never parsed as query syntax), best first, as
        ``(seq, score, content score)``: lower score is better; ``content score`` counts
        the memory's own text alone and is 0.0 when only its episode context matched."""
        ...

    def contains(self, filters: Filters, words: list[list[str]]) -> bool:
        """Whether any memory passing ``filters`` matches one of the word chunks, as
        :meth:`keyword` would match it (an existence check: nothing is ranked)."""
        ...

    def vector(self, filters: Filters, vector: np.ndarray, k: int) -> list[tuple[int, float]]:
        """Top-``k`` memories by cosine similarity of their best window, ``(seq, similarity)``, best first."""
        ...

    def similarity(self, seqs: list[int], vector: np.ndarray) -> dict[int, float]:
        """Cosine similarity of each named memory's best window to ``vector`` (memories without vectors left out)."""
        ...

    def pair_similarity(self, a: int, b: int) -> float | None:
        """Cosine similarity of two memories' window-0 vectors, None if either has none."""
        ...

    def query_terms(self, words: list[str]) -> list[str]:
        """The index terms (as the keyword index stems them) of the question's words."""
        ...

    def document_terms(self, seqs: list[int]) -> dict[int, tuple[set[str], set[str]]]:
        """Index terms of each named memory's own text and of its episode context."""
        ...

    def term_counts(self, terms: list[str]) -> tuple[int, dict[str, int]]:
        """How many memories of the transaction's tenant are indexed, and in how many of them
        each term occurs (for IDF). Every ranking statistic (these, and BM25's inside
        :meth:`keyword`) counts the tenant's own memories only: another tenant's writes
        change none of its figures."""
        ...

    # -- rows -------------------------------------------------------------------------
    def rows(self, seqs: list[int]) -> dict[int, Memory]:
        """The named memories (any state)."""
        ...

    def by_id(self, tenant: str, memory_id: str) -> tuple[int, Memory] | None:
        """The memory with exactly this id in ``tenant``, with its seq."""
        ...

    def by_prefix(self, tenant: str, prefix: str, limit: int) -> list[Memory]:
        """Up to ``limit`` memories of ``tenant`` whose id starts with ``prefix``, in id order."""
        ...

    def id_neighbours(self, tenant: str, memory_id: str) -> tuple[str | None, str | None]:
        """The ids of ``tenant`` just before and just after ``memory_id`` in sorted order."""
        ...

    def memories(self, filters: Filters, order: Order, limit: int | None, offset: int = 0) -> list[Memory]:
        """Memories passing ``filters`` in ``order`` (ties: newest row first), the first
        ``offset`` skipped; None for no limit."""
        ...

    def count(self, filters: Filters) -> int:
        """How many memories pass ``filters``."""
        ...

    def current_counts(self, tenant: str, now: int) -> dict[tuple[str, str], int]:
        """Current, unexpired memories of ``tenant`` per ``(scope, kind)`` (none: left out),
        read from counts the write transactions keep, never counted over the memories."""
        ...

    def idempotency_key(self, tenant: str, key: str) -> tuple[str, str] | None:
        """``(memory id, content hash)`` recorded for this key, or None."""
        ...

    def current_with_hash(self, tenant: str, scope: str, content_hash: str, now: int, but: str | None) -> str | None:
        """The id of a current, unexpired memory of the scope with this content hash, other than ``but``."""
        ...

    def latest_episode(self, tenant: str, scope: str, since: int, until: int, but: str | None) -> int | None:
        """The seq of the current episode of the scope observed last in [since, until], other than ``but``."""
        ...

    def model(self) -> tuple[str, int] | None:
        """The embedding model id and dimension the stored vectors come from, None before the first."""
        ...

    def export_page(self, tenant: str, now: int, after_seq: int, size: int) -> list[tuple[int, Memory]]:
        """Up to ``size`` memories of ``tenant`` after ``after_seq``, neither forgotten nor expired, by seq."""
        ...

    def expired(self, cutoff: int) -> list[tuple[str, int]]:
        """``(id, expires_at)`` of every unforgotten memory (all tenants) that expired at or before ``cutoff``."""
        ...

    def scrub_due(self) -> bool:
        """Whether a forget or an expiry erase has not been scrubbed from the files yet."""
        ...

    def pending(self, after_seq: int, size: int) -> list[tuple[int, str, str]]:
        """Up to ``size`` memories with content whose vectors are pending, after ``after_seq``: ``(seq, tenant, content)``."""
        ...

    def api_key(self, key_hash: str) -> tuple[str, ApiKey] | None:
        """``(stored hash, key)`` of the API key with this hash (the caller compares in constant time)."""
        ...

    def api_keys(self) -> list[ApiKey]:
        """Every API key, oldest first (by creation time, then id)."""
        ...


class Writer(Reader, Protocol):
    """One write transaction: committed whole when the block ends without error, else rolled back.

    **A write transaction locks what a decision reads before reading it**, and holds the
    lock to its end: a memory read by :meth:`by_id` or :meth:`by_prefix` (so every row of a
    supersession chain), the content hash looked up by :meth:`current_with_hash` and the
    idempotency key looked up by :meth:`idempotency_key`. A concurrent writer of the same
    row, hash or key waits, then reads what the first one committed, so every decision
    is one of the serial orders' (SQLite: ``BEGIN IMMEDIATE`` excludes every other writer;
    PostgreSQL: row locks and advisory locks, see ``postgres.backend``).
    """

    def claim_model(self, model_id: str, dim: int) -> bool:
        """True when vectors of this model may be written: records it on first use
        (creating what vectors need); afterwards it must match the recorded one."""
        ...

    def insert(self, row: NewRow) -> int:
        """Insert a memory with its tags, keyword entry, vectors (or pending) and key; returns its seq.

        Raises :class:`errors.Conflict` when its id exists already."""
        ...

    def confirm(self, memory_id: str, now: int) -> None:
        """Count one more confirmation of a memory."""
        ...

    def record_key(self, tenant: str, key: str, memory_id: str, content_hash: str, now: int) -> None:
        """Record an idempotency key against a memory, at ``now``."""
        ...

    def drop_keys(self, before: int) -> None:
        """Delete the idempotency keys recorded before ``before`` (ms), the tenant's or,
        where the transaction is not bound to one, all."""
        ...

    def link(self, old_id: str, new_id: str, reason: str | None) -> None:
        """Mark ``old_id`` superseded by ``new_id``; it stops being any episode's context."""
        ...

    def erase(self, memory_id: str, now: int, reason: str | None) -> None:
        """Empty a memory into a tombstone: content, hash, source, tags, reason, keyword
        entry, vectors and idempotency keys go; ``forgotten_at``/``forget_reason`` are
        set; memories using it as context lose it; a scrub is recorded as due."""
        ...

    def set_vectors(self, seq: int, content: str, vectors: list[np.ndarray]) -> bool:
        """Store the vectors of a pending memory if it still holds ``content``; True when written."""
        ...

    def insert_api_key(self, key_hash: str, key: ApiKey) -> None:
        """Store a new API key by the SHA-256 hex of the key itself."""
        ...

    def revoke_api_key(self, key_id: str, now: int) -> ApiKey | None:
        """Revoke a key (keeping the first revocation time); None when no such key."""
        ...


@runtime_checkable
class VectorLog(Protocol):
    """What a transaction of a backend that logs its vector changes also answers (SQLite),
    so that ``remember`` can search similar memories in a read snapshot before its write
    and check in the write only what changed since (see ``Store.remember``)."""

    def vector_mark(self) -> int:
        """A mark of this snapshot's vectors, for :meth:`vectors_since`."""
        ...

    def vectors_since(self, mark: int) -> list[int] | None:
        """The seqs of every memory (any tenant) whose vectors were written or removed after
        ``mark`` was taken, as this snapshot sees it; None when that is no longer known."""
        ...


class Backend(Protocol):
    """A database holding memories of many tenants.

    ``kind``: "sqlite" or "postgresql"; ``location``: the file or the URL without its
    password; ``parallel_writes``: write transactions of several connections run at once, so a
    write may begin before the vectors it stores are made (else one write excludes all
    others, and the store begins it only once they are made); ``parallel_reads``: one
    thread may hold a read transaction while waiting for another thread's (a recall's
    keyword side then runs in a transaction of its own beside its vector side; else a
    connection pool that ran out could leave each waiting for the other).
    """

    kind: str
    location: str
    parallel_writes: bool
    parallel_reads: bool

    def read(self, tenant: str | None) -> AbstractContextManager[Reader]:
        """One read transaction bound to ``tenant`` (None: maintenance across tenants)."""
        ...

    def write(self, tenant: str | None) -> AbstractContextManager[Writer]:
        """One write transaction bound to ``tenant`` (None: maintenance across tenants)."""
        ...

    def scrub_due(self) -> bool:
        """Whether forgotten bytes may still be in the database's files."""
        ...

    def scrub(self) -> bool:
        """Make forgotten content unrecoverable from the files now if a scrub is due;
        True when none is due any more. Never raises for a busy database (False)."""
        ...

    def stats(self, now: int) -> dict[str, object]:
        """Counts over the whole database (see ``maintenance.stats``)."""
        ...

    def check(self) -> list[str]:
        """Every inconsistency of the database's own structures, as sentences."""
        ...

    def rebuild_keyword_index(self) -> None:
        """Rebuild the keyword index of every memory from its content (one transaction)."""
        ...

    def reset_vectors(self, model_id: str, dim: int) -> None:
        """Inside nothing: drop every vector, record ``model_id``/``dim`` and mark every live memory pending."""
        ...

    def index_vectors(self) -> bool:
        """Inside nothing: one bounded step of the vector index's upkeep (each write
        transaction short); True when more steps are due. Raises Busy or
        StorageUnavailable (nothing written)."""
        ...

    def warm_up(self, stop: Callable[[], bool] = lambda: False) -> None:
        """Inside nothing, off the request path: read into memory what the first searches
        after a start would otherwise wait for, until ``stop()`` is true. Never needed
        for a correct answer."""
        ...

    def settings(self) -> dict[str, str]:
        """The database's settings (model id, markers of unfinished work)."""
        ...

    def put_setting(self, key: str, value: str | None) -> None:
        """Set (None: delete) one setting in its own transaction."""
        ...

    def close(self) -> None:
        """Release connections; the backend cannot be used afterwards."""
        ...

