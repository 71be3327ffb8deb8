"""A newer memory that answers about as well as an older one on the same subject takes the older's place
(``ranking.prefer_newer``): the pair stays where the older ranked, not below a memory scored between
them. Lowering the older instead put "Payroll is handled by Gusto" (0.137) above "IT support is outsourced
to Acme" (0.154) and its restatement "... since March" (0.134) for "who handles IT?"."""

from __future__ import annotations

import pytest

from memvault.storage import ranking
from memvault.storage.candidates import Candidates
from memvault.storage.records import Memory

OLDER, BETWEEN, NEWER = 1, 2, 3


def memory(seq: int, kind: str = "fact") -> Memory:
    return Memory(id=f"m{seq}", tenant="t", scope="s", kind=kind, content=f"memory {seq}", tags=(),
                  importance=5, source=None, observed_at=seq * 1000, recorded_at=seq * 1000, expires_at=None,
                  supersedes=None, superseded_by=None, supersede_reason=None, forgotten_at=None,
                  forget_reason=None, confirmations=0, last_confirmed_at=None, vector_pending=False,
                  tokens=None)


def ranked(scores: dict[int, float], cosine: float, coverage: dict[int, float], kind: str = "fact") -> list[int]:
    rows = {OLDER: memory(OLDER, kind), BETWEEN: memory(BETWEEN), NEWER: memory(NEWER)}
    c = Candidates(keyword=[], vector=[], rows=rows, similarity={}, coverage=coverage, when=None, degraded=None,
                   unknown_names=[])
    order = sorted(scores, key=scores.__getitem__, reverse=True)
    ranking.prefer_newer(order, c, scores, lambda a, b: cosine if {a, b} == {OLDER, NEWER} else 0.1)
    return sorted(scores, key=scores.__getitem__, reverse=True)


@pytest.mark.parametrize("scores", [
    {OLDER: 0.1536, BETWEEN: 0.1371, NEWER: 0.1344},  # "who handles IT?" on an AVX2 machine
    {OLDER: 0.9, BETWEEN: 0.8, NEWER: 0.75},
    {OLDER: 0.5, BETWEEN: 0.49, NEWER: 0.41},
])
def test_a_newer_memory_answering_as_well_takes_the_older_ones_place(scores):
    assert ranked(scores, 0.8, {OLDER: 0.3, BETWEEN: 0.0, NEWER: 0.3}) == [NEWER, OLDER, BETWEEN]


@pytest.mark.parametrize("cosine, coverage, kind", [
    (0.5, {OLDER: 0.3, BETWEEN: 0.0, NEWER: 0.3}, "fact"),  # another subject
    (0.8, {OLDER: 0.6, BETWEEN: 0.0, NEWER: 0.1}, "fact"),  # the newer answers less of the question
    (0.8, {OLDER: 0.3, BETWEEN: 0.0, NEWER: 0.3}, "episode"),  # an event is no state a newer one replaces
])
def test_an_older_memory_keeps_its_place_when_the_newer_is_not_its_successor(cosine, coverage, kind):
    scores = {OLDER: 0.9, BETWEEN: 0.8, NEWER: 0.5}
    assert ranked(scores, cosine, coverage, kind) == [OLDER, BETWEEN, NEWER]
