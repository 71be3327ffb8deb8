"""Contradiction: whether two memories about the same subject say different things.

The caller decides that they share a subject (vector similarity, ``ranking.SAME_SUBJECT``);
this module only compares their words: a different value in the same text (number, time,
version), a negation one has and the other lacks, or change words in the newer one.
Deterministic, no model (docs/how-memory-works.md#contradictions)."""

from __future__ import annotations

import re

_VALUE = re.compile(r"\b\d[\w.:/-]*", re.UNICODE)
_NEGATION = re.compile(r"\b(?:not|never|no longer|no|none|n't|cannot)\b|n't\b", re.IGNORECASE)
_CHANGE = re.compile(r"\b(?:now|moved|no longer|switched|changed|instead|from now on|anymore)\b", re.IGNORECASE)


def _values(text: str) -> set[str]:
    return {v.rstrip(".,;:").lower() for v in _VALUE.findall(text)}


def disagreement(older: str, newer: str) -> str | None:
    """Why ``newer`` contradicts ``older`` (a short phrase naming the kind: ``"different
    value: 9:15 → 10:30"``, ``"negation"``, ``"change words"``), or None when nothing in
    their words disagrees."""
    old_values, new_values = _values(older), _values(newer)
    if old_values and new_values and old_values != new_values:
        gone, came = sorted(old_values - new_values), sorted(new_values - old_values)
        if gone and came:
            return f"different value: {', '.join(gone)} → {', '.join(came)}"
    if bool(_NEGATION.search(older)) != bool(_NEGATION.search(newer)):
        return "negation"
    if _CHANGE.search(newer) and not _CHANGE.search(older):
        return "change words"
    return None
