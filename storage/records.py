"""The values the store returns: frozen dataclasses, no behaviour."""

from __future__ import annotations

from dataclasses import dataclass, field

from .timefmt import format_ms
from .timewords import TimeRange


@dataclass(frozen=True)
class Memory:
    """One row of ``memories``. Times are ms since the epoch (UTC).

    A forgotten memory is a tombstone: ``content``, ``source`` and ``tokens`` are None,
    ``tags`` is empty, ``forgotten_at`` is set. ``tokens``: the content's size as shown
    (``literal.literal_tokens``), kept so that budgets never tokenize on a read.
    """

    id: str
    tenant: str
    scope: str
    kind: str
    content: str | None
    tags: tuple[str, ...]
    importance: int
    source: str | None
    observed_at: int
    recorded_at: int
    expires_at: int | None
    supersedes: str | None
    superseded_by: str | None
    supersede_reason: str | None
    forgotten_at: int | None
    forget_reason: str | None
    confirmations: int
    last_confirmed_at: int | None
    vector_pending: bool
    tokens: int | None


@dataclass(frozen=True)
class RememberOutcome:
    """What ``Store.remember`` did: ``created`` False means an existing id was returned.

    ``duplicate_of`` is set when identical content already existed (not for an
    idempotent replay); ``degraded`` says why the memory has no vector yet.
    ``not_applied`` names the fields given with a value other than the stored
    memory's when nothing new was stored (the stored memory keeps its own).
    ``similar``: current memories of the scope very close in meaning (see
    ``Store.remember``), most similar first.
    """

    id: str
    created: bool
    duplicate_of: str | None = None
    degraded: str | None = None
    not_applied: tuple[str, ...] = ()
    similar: tuple[str, ...] = ()


@dataclass(frozen=True)
class SupersedeOutcome:
    """What ``Store.supersede`` did: ``id`` is the new memory, ``superseded_id`` the
    replaced one; ``degraded`` says why the new memory has no vector yet."""

    id: str
    superseded_id: str
    degraded: str | None = None


@dataclass(frozen=True)
class Signals:
    """Why a memory was recalled.

    ``keyword_rank``/``vector_rank`` are 1-based ranks in each candidate list
    (None: not a candidate there); ``keyword_score`` is FTS5's BM25 with the sign
    flipped (higher is better); ``vector_similarity`` is cosine similarity in [-1, 1]
    (a long memory's best window; None only for a memory without a vector yet);
    ``coverage`` is the IDF-weighted share in [0, 1] of the question's content words
    found in the memory's text, the time the question names counting as one more word
    that a memory observed then covers. ``through``: the id of a superseded version of
    this memory whose match found it (its better signals count as this memory's: see
    ``successors``), else None.
    """

    keyword_rank: int | None = None
    keyword_score: float | None = None
    vector_rank: int | None = None
    vector_similarity: float | None = None
    coverage: float | None = None
    through: str | None = None


@dataclass(frozen=True)
class Hit:
    """A recalled memory with its fused ``score`` (only the order matters), its
    ``confidence`` in [0, 1] (see ``ranking.confidence``) and the signals behind it."""

    memory: Memory
    score: float
    signals: Signals
    confidence: float = 0.0


@dataclass(frozen=True)
class RecallOutcome:
    """``hits`` best first; ``abstained`` when nothing was relevant enough;
    ``degraded`` says what part of the search did not run, and why; ``time``, the time
    the question names, as read (a soft preference: hits may lie outside it)."""

    hits: list[Hit]
    abstained: bool
    degraded: str | None = None
    time: TimeRange | None = None


@dataclass(frozen=True)
class ForgetOutcome:
    """``forgotten_ids`` lists every memory emptied by this call (the whole chain
    with ``include_history``); ``scrubbed`` is True only when the deleted text is in
    none of the database's files (SQLite: no scrub pending any more). False means it
    may still be there: on SQLite in the file or ``-wal`` bytes until the pending scrub,
    started on the background thread, ends (it is recorded and survives a crash); on
    PostgreSQL always, since ``pg_wal`` and the HNSW index keep it until reused."""

    id: str
    already_forgotten: bool
    forgotten_ids: list[str] = field(default_factory=list)
    scrubbed: bool = True


@dataclass(frozen=True)
class DueWork:
    """What ``maintenance.Upkeep.run_due`` did: ``purged_ids`` are expired memories
    erased into tombstones; ``scrub_pending`` says a scrub is still due (the database was busy)."""

    purged_ids: list[str]
    scrub_pending: bool


@dataclass(frozen=True)
class ApiKey:
    """One key's metadata (never the key): times in ms since the epoch."""

    id: str
    tenant: str
    scope: str
    name: str | None
    read_only: bool
    created_at: int
    expires_at: int | None
    revoked_at: int | None

    def refusal(self, now: int) -> str | None:
        """Why this key may not be used at ``now`` (ms), or None when it may:
        ``"revoked on <ISO-8601 time>"`` or ``"expired on <ISO-8601 time>"``."""
        if self.revoked_at is not None:
            return f"revoked on {format_ms(self.revoked_at)}"
        if self.expires_at is not None and self.expires_at <= now:
            return f"expired on {format_ms(self.expires_at)}"
        return None
