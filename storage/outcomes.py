"""What the store's writes did (``Store.remember``, ``supersede``, ``forget``, ``confirm``,
``Episodes.forget``). Frozen dataclasses, no behaviour; apart from ``records`` because a hook's capture
makes none of them (each frozen dataclass costs every process its definition: docs/hooks.md#speed)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .records import Memory
    from .runs import RunSummary


@dataclass(frozen=True)
class RememberOutcome:
    """What ``Store.remember`` did: ``created`` False returns an existing id (``duplicate_of``
    for identical content, not a replay); ``not_applied``, fields given that the stored memory
    keeps otherwise; ``similar``, close memories; ``contradicts``, (id, reason) of current
    memories on the same subject whose words disagree, and ``newer``, those of them observed after the
    new one (a memory written late about an earlier time), ``other_scopes``, (id, scope) of those of another
    scope (``global``); ``degraded``, why no vector yet; ``redacted``,
    ``("private",)`` when the content's ``<private>`` spans were dropped before it was stored;
    ``lookalike_scope``, a scope of the tenant with memories that the new memory's scope, holding none
    before it, differs from only by letter case or compatibility form (``validate.lookalike``)."""

    id: str
    created: bool
    duplicate_of: str | None = None
    degraded: str | None = None
    not_applied: tuple[str, ...] = ()
    similar: tuple[str, ...] = ()
    contradicts: tuple[tuple[str, str], ...] = ()
    other_scopes: tuple[tuple[str, str], ...] = ()
    newer: tuple[str, ...] = ()
    redacted: tuple[str, ...] = ()
    lookalike_scope: str | None = None


@dataclass(frozen=True)
class SupersedeOutcome:
    """What ``Store.supersede`` did: ``id`` is the new memory, ``superseded_id`` the
    replaced one; ``degraded`` says why the new memory has no vector yet; ``stored`` False
    when ``id`` was stored before (``Store.supersede_by``); ``redacted``, ``contradicts``, ``other_scopes``
    and ``newer`` as ``RememberOutcome``'s, of the other current memories of the scope (never the one replaced)."""

    id: str
    superseded_id: str
    degraded: str | None = None
    stored: bool = True
    redacted: tuple[str, ...] = ()
    contradicts: tuple[tuple[str, str], ...] = ()
    other_scopes: tuple[tuple[str, str], ...] = ()
    newer: tuple[str, ...] = ()


@dataclass(frozen=True)
class ForgetOutcome:
    """``forgotten_ids``: every memory emptied by this call (with a digest that quoted one of them);
    ``restored_ids``: memories made current again, as the digest that compacted them was emptied
    (the next consolidation compacts them anew); ``session``, ``turns_deleted``: a session
    forgotten (``id`` None) and how many turns went; ``sessions_kept``, sessions whose digest was
    forgotten here while their turns stay; ``redacted``, ``("private",)`` when the reason's
    ``<private>`` spans were dropped (never stored). ``scrubbed``: the text is in none
    of the database's files (SQLite: no scrub pending; PostgreSQL: never, ``pg_wal`` and the
    HNSW index keep it until reused)."""

    id: str | None
    already_forgotten: bool
    forgotten_ids: list[str] = field(default_factory=list)
    restored_ids: list[str] = field(default_factory=list)
    scrubbed: bool = True
    session: str | None = None
    turns_deleted: int = 0
    sessions_kept: list[str] = field(default_factory=list)
    redacted: tuple[str, ...] = ()


@dataclass(frozen=True)
class ConfirmOutcome:
    """What ``Store.confirm`` did: ``memory`` as stored after it; ``runs``, a procedure's runs
    (None for other kinds); ``outcome``, the run recorded (None: a plain confirmation);
    ``redacted``, ``("private",)`` when the note's ``<private>`` spans were dropped (never stored);
    ``beside``, the id of the memory it was judged to hold beside (that pair dismissed), None for none;
    ``paired``, whether those two were a contradicting pair (kept for review, or their words disagree)."""

    memory: Memory
    runs: RunSummary | None = None
    outcome: str | None = None
    redacted: tuple[str, ...] = ()
    beside: str | None = None
    paired: bool = False
