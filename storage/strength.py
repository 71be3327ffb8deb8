"""Strength: how firmly memvault holds a memory as still true, in [0, 1]; not recall's
``confidence`` (relevance to one question). Computed at read time from the memory's kind,
its confirmations and the time since it was last learned, so nothing is written as it decays
and nothing is ever deleted by it.

Idea and figures from memvault's seeds (../shared/seeds, the consolidation article):
learned once 0.6, twice 0.8, three times 0.9; facts unconfirmed for six months need review.
Modelled as a start per kind that each confirmation halves the distance to 1, then an
exponential decay with a half-life per kind (docs/how-memory-works.md#strength).
"""

from __future__ import annotations

from .records import Memory

DAY_MS = 86_400_000
# Strength when first learned, by kind.
START = {"fact": 0.6, "preference": 0.7, "decision": 0.7, "procedure": 0.6, "failure": 0.6, "episode": 0.5}
# Days for strength to halve without a confirmation: episodes fade fastest, choices slowest.
HALF_LIFE_DAYS = {"episode": 30.0, "failure": 90.0, "fact": 180.0, "procedure": 180.0,
                  "preference": 365.0, "decision": 365.0}
# Under this a memory of a kind that states how things are is flagged ``needs review``:
# a fact learned once reaches it after one half-life (six months).
REVIEW_BELOW = 0.3
REVIEWED_KINDS = frozenset({"fact", "preference", "decision", "procedure"})


def learned(kind: str, confirmations: int) -> float:
    """Strength right after the last confirmation: ``START[kind]``, each confirmation
    halving the distance to 1 (0.6, 0.8, 0.9, 0.95 ... for a fact)."""
    return 1.0 - (1.0 - START.get(kind, START["fact"])) * 0.5 ** max(0, confirmations)


def last_learned(memory: Memory) -> int:
    """When ``memory`` was last learned or confirmed (ms): the later of when it was observed
    and its last confirmation (an import of an old memory does not make it new)."""
    return max(memory.observed_at, memory.last_confirmed_at or 0)


def strength(memory: Memory, now: int) -> float:
    """``memory``'s strength at ``now`` (ms), in [0, 1], rounded to 3 places."""
    days = max(0.0, (now - last_learned(memory)) / DAY_MS)
    half_life = HALF_LIFE_DAYS.get(memory.kind, HALF_LIFE_DAYS["fact"])
    return round(learned(memory.kind, memory.confirmations) * 0.5 ** (days / half_life), 3)


def needs_review(memory: Memory, now: int) -> bool:
    """Whether a current memory of a reviewed kind has decayed under ``REVIEW_BELOW``."""
    return memory.kind in REVIEWED_KINDS and strength(memory, now) < REVIEW_BELOW
