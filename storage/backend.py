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
- Errors: :class:`errors.Busy` when another writer holds the database past the
  busy timeout, :class:`errors.StorageUnavailable` when it cannot be read or
  written (disk full, server gone); both leave nothing half-written.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol


from .errors import Conflict, InvalidInput
from .query import Filters
from .records import ApiKey, Memory, Session, Turn
from .turn_search import TurnHit

if TYPE_CHECKING:
    import numpy as np  # annotations; numpy is imported where vectors are used (docs/hooks.md#speed)

    from .runs import Run  # annotations; a procedure's runs are read by few calls (no hook)

MODEL_ID, MODEL_DIM, SCRUB_DUE = "model_id", "model_dim", "scrub_due"  # settings keys (see Reader.settings)
Order = Literal["observed", "importance", "seq"]  # newest observed first; most important, then newest; oldest row first


@dataclass(frozen=True)
class NewRow:
    """A memory row to insert, as the rules decided it (``remember``, ``supersede``, import).

    ``vectors`` (of model ``model``) None leaves the vector pending (filled later);
    ``supersedes``: the memory this one replaces, marked superseded by it with ``reason``;
    ``context_seq`` is the episode this one continues (its words index this memory at a
    lower weight); ``idempotency_key`` is recorded against the new row with its ``content_hash``;
    ``tokens`` is ``literal.literal_tokens`` of the content, counted before the write begins;
    ``compacts``: memories this one (a digest) compacts, each marked superseded by it with the
    reason ``compaction_reason(id)`` (:mod:`consolidate`).
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
    tokens: int
    expires_at: int | None = None
    supersedes: str | None = None
    reason: str | None = None
    confirmations: int = 0
    last_confirmed_at: int | None = None
    context_seq: int | None = None
    idempotency_key: str | None = None
    vectors: list[np.ndarray] | None = None
    model: str | None = None
    compacts: tuple[str, ...] = ()


COMPACTED = "compacted into "
DIGEST_SOURCE = "memvault consolidate"  # the ``source`` of a digest (:mod:`consolidate`)


def compaction_reason(digest_id: str) -> str:
    """The ``supersede_reason`` of a memory compacted into ``digest_id`` (kept when it is forgotten:
    the link stays, and ``memvault doctor`` reads it as complete)."""
    return f"{COMPACTED}{digest_id}"


# SQL (both backends) an erase sets ``supersede_reason`` to: a compaction's reason stays (no user text).
KEPT_REASON = (f"CASE WHEN substr(supersede_reason, 1, {len(COMPACTED)}) = '{COMPACTED}'"
               " THEN supersede_reason END")
# SQL (both backends): the tenants holding current memories or API keys, each found by one index seek
# from the last (a "loose index scan"): the cost grows with the tenants, not with their memories or keys.
TENANTS_HELD = """
WITH RECURSIVE m(t) AS (
    SELECT min(tenant) FROM memory_counts
    UNION ALL SELECT (SELECT min(tenant) FROM memory_counts WHERE tenant > m.t) FROM m WHERE m.t IS NOT NULL
), k(t) AS (
    SELECT min(tenant) FROM api_keys
    UNION ALL SELECT (SELECT min(tenant) FROM api_keys WHERE tenant > k.t) FROM k WHERE k.t IS NOT NULL
)
SELECT t FROM m WHERE t IS NOT NULL AND EXISTS (SELECT 1 FROM memory_counts c WHERE c.tenant = m.t AND c.current > 0)
UNION SELECT t FROM k WHERE t IS NOT NULL ORDER BY 1"""
# SQL (both backends): the supersession link ``a.superseded_by`` = ``b.id`` is whole.
LINKED = f"(b.supersedes = a.id OR a.supersede_reason = '{COMPACTED}' || b.id)"


@dataclass(frozen=True)
class Search:
    """One candidate search, every filter inside its queries (a filtered top-k is a full
    top-k of the allowed memories).

    ``k``: candidates from each side; ``words``: the question's word chunks
    (``query.query_chunks``: each chunk a phrase, chunks OR-ed, never parsed as query
    syntax; empty: no keyword side); ``vector``: the question's embedding, or the seq of a
    memory whose own (window 0) vector is the question (None: no vector side);
    ``history``: the candidates with superseded memories admitted, whatever
    ``filters.include_history`` says (every other answer keeps ``filters``); ``terms``:
    words whose index terms and statistics are wanted; ``exists``: chunk lists, each
    answered whether any memory passing ``filters`` matches it as the keyword side would;
    ``seqs``: memories whose similarity to ``vector`` and index terms are wanted too;
    ``pairs``: memories whose cosines to one another are wanted (``Found.pairs``).
    """

    filters: Filters
    k: int = 0
    words: list[list[str]] = field(default_factory=list)
    vector: np.ndarray | int | None = None
    history: bool = False
    terms: list[str] = field(default_factory=list)
    exists: list[list[list[str]]] = field(default_factory=list)
    seqs: list[int] = field(default_factory=list)
    pairs: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Found:
    """What :meth:`Reader.search` found.

    ``keyword``: top-``k`` ``(seq, score, content score)`` best first: lower score is
    better, ``content score`` counts the memory's own text alone (0.0 when only its
    episode context matched); ``vector``: top-``k`` ``(seq, cosine similarity)`` of each
    memory's best window, best first; ``similarity``: of each of ``seqs`` that has a
    vector (best window); ``terms``: index terms of each keyword candidate's and each of
    ``seqs``' own text and of its episode context; ``lexemes``: each of ``terms``' words
    as the keyword index stems it; ``documents`` and ``counts``: how many memories of the
    transaction's tenant are indexed, and in how many of them each lexeme occurs in their
    own text (absent: none). Every statistic (these, and BM25's inside ``keyword``) counts
    the tenant's own memories only: another tenant's writes change none of its figures.
    ``exists``: one answer per ``exists`` entry; ``pairs``: ``{(a, b): cosine}`` of memory
    ``a``'s own (window 0) vector to ``b``'s best window, for every ``a`` and ``b`` (``a`` too) of
    ``Search.pairs`` where ``a`` has its own vector and ``b`` a vector, in one statement.
    """

    keyword: list[tuple[int, float, float]] = field(default_factory=list)
    vector: list[tuple[int, float]] = field(default_factory=list)
    similarity: dict[int, float] = field(default_factory=dict)
    terms: dict[int, tuple[frozenset[str], frozenset[str]]] = field(default_factory=dict)
    lexemes: dict[str, list[str]] = field(default_factory=dict)
    documents: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    exists: list[bool] = field(default_factory=list)
    pairs: dict[tuple[int, int], float] = field(default_factory=dict)


@dataclass(frozen=True)
class Repeats:
    """What :meth:`Reader.repeats` found: ``keyed``, the ``(memory id, content hash)``
    recorded for the idempotency key; ``same``, the id of a current, unexpired memory of
    the scope with the content hash."""

    keyed: tuple[str, str] | None
    same: str | None


@dataclass(frozen=True)
class TurnRow:
    """A turn to append, as ``episodes`` prepared it: ``text`` redacted and cut, ``tokens`` its
    ``literal.literal_tokens``, ``at`` ms; ``seq`` None: the next; ``redacted``, the kinds replaced."""

    role: str
    text: str
    tool: str | None
    call_id: str | None
    ref: str | None
    tokens: int
    at: int
    seq: int | None
    redacted: tuple[str, ...]


def number_turns(
    session: Session, scope: str, known_refs: set[str], turns: list[TurnRow]
) -> tuple[list[tuple[int, TurnRow]], int]:
    """The rule of an append, once for every backend: each turn of ``turns`` with its seq (the
    session's next, in order), and how many were repeats: a turn with a seq the session has
    reached, or a ref among ``known_refs`` (the session's, of these turns) or earlier in ``turns``.

    Raises:
        Conflict: the session belongs to another scope.
        InvalidInput: a given seq beyond the session's next one (a turn would be missing).
    """
    if session.scope != scope:
        raise Conflict("scope", f"session {session.id} belongs to scope {session.scope!r}, not {scope!r}")
    numbered: list[tuple[int, TurnRow]] = []
    refs, following, repeated = set(known_refs), session.turns + 1, 0
    for i, turn in enumerate(turns):
        if (turn.seq is not None and turn.seq < following) or (turn.ref is not None and turn.ref in refs):
            repeated += 1
            continue
        if turn.seq is not None and turn.seq > following:
            raise InvalidInput(f"turns[{i}].seq", f"is {turn.seq} but the session's next turn is "
                                                  f"{following}: a given seq retries a turn written, or is "
                                                  "the next one")
        numbered.append((following, turn))
        following += 1
        if turn.ref is not None:
            refs.add(turn.ref)
    return numbered, repeated


class Reader(Protocol):
    """One read transaction: every answer comes from the same snapshot."""

    def search(self, query: Search) -> Found:
        """The candidates of ``query`` and what ranking needs to weigh them, in one call (see :class:`Found`)."""
        ...

    def memories(
        self, tenant: str | None, *, seqs: list[int] | None = None, ids: list[str] | None = None,
        prefix: str | None = None, filters: Filters | None = None, order: Order = "observed",
        limit: int | None = None, offset: int = 0, after_seq: int = 0, after_key: tuple[int, int] | None = None,
        expired_before: int | None = None, pending: bool = False,
    ) -> dict[int, Memory]:
        """Memories of ``tenant`` as ``{seq: memory}``, chosen by one of: ``seqs`` or ``ids``
        (any state), an id ``prefix`` (any state, in id order), ``filters`` (tenant
        ``filters.tenant``; ``filters.scopes`` None for every scope) in ``order``, ties newest
        row first, or (``tenant`` None: every tenant) the unforgotten memories that expired
        at or before ``expired_before``, or the memories with content whose vectors are
        ``pending`` (those passing ``filters`` when given), in seq order. Rows after ``after_seq`` only; the first ``offset``
        skipped, at most ``limit`` (None: all); ``after_key`` ``(observed_at, seq)``: in order
        "observed", only the rows that come after that one (a keyset page, stable under writes).
        In a write transaction the memories read by id or prefix are locked."""
        ...

    def id_neighbours(self, tenant: str, ids: list[str]) -> dict[str, tuple[str | None, str | None]]:
        """For each of ``ids``, the ids of ``tenant`` just before and just after it in sorted order
        (short ids), in one statement."""
        ...

    def counts(self, filters: Filters) -> dict[tuple[str, str], int]:
        """How many memories pass ``filters`` per ``(scope, kind)`` (none: left out). Filters
        of scopes and kinds alone over current memories are answered from counts the
        write transactions keep, never counted over the memories."""
        ...

    def repeats(
        self, tenant: str, scope: str, content_hash: str, now: int, *, key: str | None = None, but: str | None = None,
        keys_since: int = 0,
    ) -> Repeats:
        """What a new memory with this content (and idempotency ``key``, recorded at or
        after ``keys_since``) would repeat, other than ``but``. In a write transaction with
        a ``key``, the keys recorded before ``keys_since`` are deleted first."""
        ...

    def settings(self) -> dict[str, str]:
        """The database's settings: ``MODEL_ID``/``MODEL_DIM`` of the stored vectors
        (absent before the first), ``SCRUB_DUE`` while forgotten bytes may remain in the
        files, markers of unfinished work."""
        ...

    def tenant_setting(self, tenant: str, key: str) -> str | None:
        """The value of ``tenant``'s own setting ``key`` (state of one tenant, such as its review
        pairs), None when unset. On PostgreSQL under the tenant's row-level policy."""
        ...

    def review_pairs(self, tenant: str, older: list[str] | None = None, limit: int | None = None,
                     scopes: list[str] | None = None) -> list[tuple[str, str]]:
        """``tenant``'s contradicting pairs kept for review, ``(older id, newer id)`` sorted; with
        ``older``, only the pairs whose older id is one of them, by index (recall's hits); else with
        ``scopes``, only those whose older memory is of one of them (its row looked up by id for each
        pair read); with ``limit``, the first that many (by index: the boot context's bounded count,
        of the caller's scopes)."""
        ...

    def dismissed(self, tenant: str, ids: list[str]) -> set[tuple[str, str]]:
        """The pairs ``(id, other)`` of ``ids`` that an agent judged both true (:meth:`Writer.dismiss`): no
        contradiction, whichever is older. By the primary key, one lookup per id."""
        ...

    def api_keys(self, key_hash: str | None = None) -> dict[str, ApiKey]:
        """Every API key by its stored hash, oldest first (by creation time, then id); with
        ``key_hash``, only the key of that hash (the caller compares in constant time)."""
        ...

    def tenants_beside(self, tenant: str) -> list[str]:
        """``[tenant]`` when it holds current memories or API keys, else every tenant that does, sorted;
        by index lookups, never a scan of the memories or keys (``TENANTS_HELD``)."""
        ...

    def sessions(
        self, tenant: str, *, ids: list[str] | None = None, scopes: list[str] | None = None,
        limit: int | None = None,
    ) -> list[Session]:
        """Sessions of ``tenant``: those of ``ids``, or those of ``scopes`` (None: every scope),
        newest activity (``last_at``) first, then id; at most ``limit``. In a write transaction
        the sessions read by id are locked."""
        ...

    def turns(
        self, tenant: str, session_id: str, *, after_seq: int = 0, limit: int | None = None,
        tokens: int | None = None,
    ) -> list[Turn]:
        """Turns of ``tenant``'s session after ``after_seq``, in seq order, at most ``limit``;
        with ``tokens``: only the newest whose tokens sum to at most ``tokens`` (and of them the
        newest ``limit``), read from the running totals, never summed over the session."""
        ...

    def search_turns(
        self, tenant: str, chunks: list[list[str]], *, scopes: list[str] | None, session_id: str | None,
        limit: int,
    ) -> list[TurnHit]:
        """The ``limit`` turns of ``tenant``'s sessions of ``scopes`` (None: all; ``session_id``: that
        session only) that hold one of the word ``chunks`` (``query.query_chunks``) as a phrase, best
        keyword score first, then newest; through the tenant's turn index, never a scan of its turns."""
        ...

    def runs(self, tenant: str, memory_ids: list[str]) -> dict[str, list[Run]]:
        """The recorded runs of each of ``memory_ids`` that has any, oldest first."""
        ...


class Writer(Reader, Protocol):
    """One write transaction: committed whole when the block ends without error, else rolled back.

    **A write transaction locks what a decision reads before reading it**, and holds the
    lock to its end: a memory read by id or prefix (:meth:`memories`, so every row of a
    supersession chain), and the content hash and idempotency key looked up by
    :meth:`repeats`. A concurrent writer of the same row, hash or key waits, then reads
    what the first one committed, so every decision is one of the serial orders'
    (SQLite: ``BEGIN IMMEDIATE`` excludes every other writer; PostgreSQL: row locks and
    advisory locks, see ``postgres.backend``).

    An append locks its session's row before reading its count and refs (SQLite: the write
    lock; PostgreSQL: ``SELECT ... FOR UPDATE`` after an insert that creates it if absent), so
    two concurrent appends to one session get distinct, consecutive seqs.

    Vectors are written only when their model is the recorded one; the first vectors
    record theirs (creating what vectors need). Vectors of another model leave the
    memory pending.
    """

    def insert(self, row: NewRow) -> int:
        """Insert a memory with its tags, keyword entry, vectors (or pending) and key, and
        mark the memory it supersedes, and each it ``compacts``, superseded by it (no longer
        any episode's context); returns its seq.

        Raises :class:`errors.Conflict` when its id exists already."""
        ...

    def confirm(self, memory_id: str, now: int, key: str | None = None) -> None:
        """Count one more confirmation of a memory, made at ``now`` (ms; its last confirmation stays
        the later of the two), and record the idempotency ``key`` against it."""
        ...

    def add_run(self, memory_id: str, at: int, outcome: str, note: str | None) -> None:
        """Record a run of a memory (a procedure) at ``at`` with its outcome and failure ``note``."""
        ...

    def link(self, old_id: str, new_id: str, reason: str | None) -> None:
        """Mark the memory ``old_id`` superseded by the stored ``new_id`` (which then supersedes it),
        with ``reason``; ``old_id`` is no longer any episode's context."""
        ...

    def dismiss(self, tenant: str, memory_id: str, other_id: str, now: int) -> None:
        """Record that the memories ``memory_id`` and ``other_id`` both hold (at ``now``, ms): read by
        :meth:`Reader.dismissed` either way round; another pair of either is not affected."""
        ...

    def release(self, digest_id: str, ids: list[str]) -> None:
        """Make the memories ``ids`` that are compacted into ``digest_id`` current again (their
        link and its reason cleared); others are left as they are."""
        ...

    def erase(self, memory_id: str, now: int, reason: str | None) -> None:
        """Empty a memory into a tombstone: content, hash, source, tags, reason, keyword
        entry, vectors, idempotency keys, its runs' notes and its dismissed pairs go;
        ``forgotten_at``/``forget_reason`` are set; memories using it as context lose it; a scrub is recorded as due."""
        ...

    def set_vectors(self, seq: int, content: str, vectors: list[np.ndarray], model: str) -> bool:
        """Store the vectors of a pending memory if it still holds ``content``; True when written."""
        ...

    def put_api_key(self, key_hash: str, key: ApiKey) -> None:
        """Store an API key by the SHA-256 hex of the key itself (a key of the same id: its revocation time)."""
        ...

    def change_tenant_setting(self, tenant: str, key: str, change: Callable[[str | None], str]) -> None:
        """Set ``tenant``'s setting ``key`` to ``change(its value now)``, the value read under a lock
        that another writer of it waits for (a read-modify-write no other process interleaves)."""
        ...

    def change_review_pairs(self, tenant: str, add: set[tuple[str, str]], drop: set[tuple[str, str]],
                            most: int) -> None:
        """Keep ``add`` and no longer ``drop`` among ``tenant``'s pairs kept for review, then only the
        ``most`` of the newest newer ids (ties: the greatest older id), under a lock that another
        writer of them waits for."""
        ...

    def append_turns(
        self, tenant: str, scope: str, session_id: str, *, client: str | None, cwd: str | None, now: int,
        turns: list[TurnRow],
    ) -> tuple[list[int], int]:
        """Append ``turns`` to ``tenant``'s session ``session_id``, creating it (in ``scope``, started
        at its first turn or ``now``) when absent: the session row is locked first, then the turns
        are numbered by :func:`number_turns` and inserted, and the session's counts, ``last_at``,
        ``started_at`` (the earliest), ``client``/``cwd`` (when it had none) follow; a turn added
        reopens an ended session. Returns the seqs written and the repeats; raises as
        :func:`number_turns` (nothing written)."""
        ...

    def end_session(self, tenant: str, session_id: str, ended_at: int, digest_id: str | None) -> None:
        """Record that ``tenant``'s session ended at ``ended_at``, summarised by memory ``digest_id``."""
        ...

    def delete_session(self, tenant: str, session_id: str) -> int:
        """Delete ``tenant``'s session and its turns (its digest memory is the rules' to erase) and
        record a scrub as due; returns how many turns went."""
        ...


class Backend(Protocol):
    """A database holding memories of many tenants.

    ``kind``: "sqlite" or "postgresql"; ``location``: the file or the URL without its
    password; ``read_only``: why every write will be refused (a SQLite file on a read-only
    file system), or None; ``damaged``: the same once this process found the SQLite file
    damaged; ``unreadable``: the same once a read of a tenant met the damage (reads are refused
    too). What the CLI and a server's start ask beyond the memory rules (``stats``,
    ``check``, ``rebuild_keyword_index``, ``reset_vectors``, ``put_setting``, ``warm_up``)
    are each backend's own methods (the same on both), not this contract.
    """

    kind: str
    location: str
    read_only: str | None
    damaged: str | None
    unreadable: str | None

    def read(self, tenant: str | None) -> AbstractContextManager[Reader]:
        """One read transaction bound to ``tenant`` (None: maintenance across tenants)."""
        ...

    def write(self, tenant: str | None) -> AbstractContextManager[Writer]:
        """One write transaction bound to ``tenant`` (None: maintenance across tenants)."""
        ...

    def maintain(self, stop: Callable[[], bool]) -> bool:
        """Inside nothing, off the request path: the backend's own upkeep in bounded steps,
        ``stop()`` asked before each: a due scrub first (forgotten content made
        unrecoverable from the files; never raises for a busy database), then the vector
        index's upkeep (each write transaction short). True when no scrub is due any more.
        Raises Busy or StorageUnavailable from the index's upkeep (nothing half-written)."""
        ...

    def close(self) -> None:
        """Release connections; the backend cannot be used afterwards."""
        ...


def recorded_model(settings: dict[str, str]) -> tuple[str, int] | None:
    """The embedding model id and dimension ``settings`` record, None before the first vectors."""
    return (settings[MODEL_ID], int(settings.get(MODEL_DIM, 0))) if MODEL_ID in settings else None
