"""Keyword search of turns: what a hit is, how a turn is keyed in SQLite's per-tenant turn index, and
the excerpt of a hit's text a recall shows. Turns have no vectors: keyword only. More:
docs/tools.md#searching-turns."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .limits import TURN_EXCERPT_CHARS
from .records import Turn

# A turn's row in SQLite's turn index: its session's seq shifted by TURN_KEY_SHIFT bits, or its
# seq (a session's turns are numbered 1..n; n stays far below 2**32), so one session is one rowid range.
TURN_KEY_SHIFT = 32
TURN_KEY_MASK = (1 << TURN_KEY_SHIFT) - 1
_LEAD = 200  # characters an excerpt keeps before the first word matched


@dataclass(frozen=True)
class TurnHit:
    """A turn found by keywords: the turn, its session's scope, and ``score``, the backend's keyword
    score (higher is better; SQLite: -BM25 over the tenant's turns, PostgreSQL: ``ts_rank``)."""

    turn: Turn
    scope: str
    score: float


def turn_key(session_seq: int, seq: int) -> int:
    """The turn index rowid of turn ``seq`` of the session numbered ``session_seq``."""
    return (session_seq << TURN_KEY_SHIFT) | seq


def session_keys(session_seq: int) -> tuple[int, int]:
    """The first and last turn index rowid a session numbered ``session_seq`` may hold."""
    return session_seq << TURN_KEY_SHIFT, (session_seq << TURN_KEY_SHIFT) | TURN_KEY_MASK


def excerpt(text: str, words: list[str], size: int = TURN_EXCERPT_CHARS) -> tuple[str, bool]:
    """At most ``size`` characters of ``text``: from a little before the first of ``words`` found
    (case-insensitive) when the text is longer, with "…" where it was cut; and whether it was cut."""
    if len(text) <= size:
        return text, False
    lowered = text.casefold()
    found = [i for i in (lowered.find(w.casefold()) for w in words if w) if i >= 0]
    start = max(0, min(found) - _LEAD) if found else 0
    start = min(start, len(text) - size)
    if start:
        space = re.search(r"\s", text[start:start + 40])
        start = start + space.end() if space else start
    end = start + size
    return ("…" if start else "") + text[start:end] + ("…" if end < len(text) else ""), True
