"""What a recall returns (``Store.recall``): its hits, each a memory with its score and the signals
behind it. Frozen dataclasses, no behaviour; apart from ``records`` because only a search needs
them (each frozen dataclass costs every process its definition: docs/hooks.md#speed)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .records import Memory
    from .timewords import TimeRange


@dataclass(frozen=True)
class Signals:
    """Why a memory was recalled: 1-based ranks in each candidate list (None: not there), BM25
    (higher is better), cosine of the best window, ``coverage`` (IDF-weighted share of the
    question's words, in [0, 1]), ``through``, the superseded version that found it, and ``newer_of``, the
    hit it possibly outdates when it is returned for that hit rather than for its own match."""

    keyword_rank: int | None = None
    keyword_score: float | None = None
    vector_rank: int | None = None
    vector_similarity: float | None = None
    coverage: float | None = None
    through: str | None = None
    newer_of: str | None = None


@dataclass(frozen=True)
class Hit:
    """A recalled memory with its fused ``score`` (only the order matters), its
    ``confidence`` in [0, 1] (see ``ranking.confidence``) and the signals behind it;
    ``outdated_by``, a newer current memory on the same subject that contradicts it."""

    memory: Memory
    score: float
    signals: Signals
    confidence: float = 0.0
    outdated_by: str | None = None


@dataclass(frozen=True)
class RecallOutcome:
    """``hits`` best first; ``abstained`` when nothing was relevant enough;
    ``degraded`` says what part of the search did not run, and why; ``time``, the time
    the question names, as read (a soft preference: hits may lie outside it)."""

    hits: list[Hit]
    abstained: bool
    degraded: str | None = None
    time: TimeRange | None = None
