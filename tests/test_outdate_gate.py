"""The cosine gate of a contradiction: ``contradiction.contradicts`` finds none under
``least_cosine`` (without reading the words), and ``ranking.outdate`` outdates an older memory
by the newest later one at or over it, passing over those under it."""

from __future__ import annotations

import pytest

from memvault.storage import ranking
from memvault.storage.candidates import Candidates
from memvault.storage.contradiction import CHANGED_SUBJECT, REFILLED_SUBJECT, STRONG_SUBJECT, contradicts, least_cosine
from memvault.storage.records import Memory

TEXTS = {1: "The staging cluster has 4 worker nodes.", 2: "The staging cluster has 6 worker nodes.",
         3: "The staging cluster has 8 worker nodes."}  # 1 oldest, 3 newest (a name's slot refilled is stronger)
GATE = least_cosine(ranking.SAME_SUBJECT)
Pairs = dict[tuple[int, int], float]


def memory(seq: int) -> Memory:
    return Memory(id=f"m{seq}", tenant="t", scope="s", kind="fact", content=TEXTS[seq], tags=(),
                  importance=5, source=None, observed_at=seq * 1000, recorded_at=seq * 1000, expires_at=None,
                  supersedes=None, superseded_by=None, supersede_reason=None, forgotten_at=None,
                  forget_reason=None, confirmations=0, last_confirmed_at=None, vector_pending=False,
                  tokens=None)


def test_the_gate_is_the_lowest_cosine_contradicts_accepts():
    pair = ("We install with pip.", "We install with uv.")  # one name's slot of two tiny texts refilled
    assert GATE == min(ranking.SAME_SUBJECT, STRONG_SUBJECT, CHANGED_SUBJECT, REFILLED_SUBJECT)
    assert contradicts(*pair, GATE, ranking.SAME_SUBJECT) is not None
    assert contradicts(*pair, GATE - 0.001, ranking.SAME_SUBJECT) is None
    changed = ("The office is in Lisbon.", "We relocated the office to Porto.")  # a change verb on its subject
    assert contradicts(*changed, CHANGED_SUBJECT, ranking.SAME_SUBJECT) is not None
    assert contradicts(*changed, CHANGED_SUBJECT - 0.001, ranking.SAME_SUBJECT) is None


def test_strong_evidence_without_change_words_needs_the_strong_gate():
    pair = (TEXTS[1], TEXTS[2])  # strong evidence: a number swapped in the same slot
    assert contradicts(*pair, STRONG_SUBJECT, ranking.SAME_SUBJECT) is not None
    assert contradicts(*pair, STRONG_SUBJECT - 0.001, ranking.SAME_SUBJECT) is None


@pytest.mark.parametrize("newest, next_newest, outdated_by", [
    (0.9, 0.9, "m3"),  # both over the gate: the newest contradicting one
    (STRONG_SUBJECT - 0.001, 0.9, "m2"),  # the newest under it is passed over
    (STRONG_SUBJECT, 0.2, "m3"),  # at the gate: outdates (strong evidence)
    (0.3, 0.2, None),  # both under: nothing outdated
])
def test_the_newest_later_memory_at_or_over_the_gate_outdates(newest, next_newest, outdated_by):
    rows = {seq: memory(seq) for seq in TEXTS}
    c = Candidates(keyword=[], vector=[], rows=rows, similarity={}, coverage={s: 0.5 for s in rows},
                   when=None, degraded=None, unknown_names=[])
    cosines: Pairs = {(1, 3): newest, (1, 2): next_newest, (2, 3): 0.1}
    found = ranking.outdate([1, 2, 3], c, {1: 3.0, 2: 2.0, 3: 1.0},
                            lambda a, seqs: {s: cosines[a, s] for s in seqs if (a, s) in cosines})
    assert found.get(1) == outdated_by
