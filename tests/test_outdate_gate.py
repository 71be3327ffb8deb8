"""ranking.outdate reads the words only of pairs whose cosine may contradict: under
``contradiction.least_cosine`` no pair is outdated, so its words are not compared; at it and
over it the result is what ``contradicts`` says of the pair."""

from __future__ import annotations

import pytest

from memvault.storage import ranking
from memvault.storage.candidates import Candidates
from memvault.storage.contradiction import STRONG_SUBJECT, contradicts, least_cosine
from memvault.storage.records import Memory

TEXTS = {1: "The release manager is Jonas Berg.", 2: "The release manager is Priya Nair.",
         3: "The release manager is Tomas Ek."}  # 1 oldest, 3 newest


def memory(seq: int) -> Memory:
    return Memory(id=f"m{seq}", tenant="t", scope="s", kind="fact", content=TEXTS[seq], tags=(),
                  importance=5, source=None, observed_at=seq * 1000, recorded_at=seq * 1000, expires_at=None,
                  supersedes=None, superseded_by=None, supersede_reason=None, forgotten_at=None,
                  forget_reason=None, confirmations=0, last_confirmed_at=None, vector_pending=False,
                  tokens=None)


Pairs = dict[tuple[int, int], float]


def outdated(cosines: Pairs, monkeypatch) -> tuple[dict[int, str], list[tuple[str, str]]]:
    """outdate over memories 1-3 with these cosines, and the pairs whose words it compared."""
    rows = {seq: memory(seq) for seq in TEXTS}
    c = Candidates(keyword=[], vector=[], rows=rows, similarity={}, coverage={s: 0.5 for s in rows},
                   when=None, degraded=None, unknown_names=[])
    read: list[tuple[str, str]] = []
    compare = ranking.disagreement

    def spy(older: str, newer: str) -> str | None:
        read.append((older, newer))
        return compare(older, newer)

    monkeypatch.setattr(ranking, "disagreement", spy)
    scores = {1: 3.0, 2: 2.0, 3: 1.0}
    found = ranking.outdate([1, 2, 3], c, scores,
                            lambda a, seqs: {s: cosines[a, s] for s in seqs if (a, s) in cosines})
    return found, read


def test_the_gate_is_the_lowest_cosine_contradicts_accepts():
    pair = (TEXTS[1], TEXTS[2])  # strong evidence: a name swapped in the same slot
    assert least_cosine(ranking.SAME_SUBJECT) == min(ranking.SAME_SUBJECT, STRONG_SUBJECT)
    assert contradicts(*pair, least_cosine(ranking.SAME_SUBJECT), ranking.SAME_SUBJECT) is not None
    assert contradicts(*pair, least_cosine(ranking.SAME_SUBJECT) - 0.001, ranking.SAME_SUBJECT) is None


@pytest.mark.parametrize("newest, next_newest, outdated_by", [
    (0.9, 0.9, "m3"),  # both over the gate: the newest contradicting one
    (least_cosine(ranking.SAME_SUBJECT) - 0.001, 0.9, "m2"),  # the newest under it is passed over
    (least_cosine(ranking.SAME_SUBJECT), 0.2, "m3"),  # at the gate: read, and outdates (strong evidence)
    (0.3, 0.2, None),  # both under: nothing outdated
])
def test_only_pairs_at_or_over_the_gate_are_read_and_outdate(newest, next_newest, outdated_by, monkeypatch):
    found, read = outdated({(1, 3): newest, (1, 2): next_newest, (2, 3): 0.1}, monkeypatch)
    assert found.get(1) == outdated_by
    gate = least_cosine(ranking.SAME_SUBJECT)
    expected = [(TEXTS[1], TEXTS[s]) for s, cosine in ((3, newest), (2, next_newest)) if cosine >= gate]
    assert read == expected  # memory 2 against 3: cosine 0.1, never read
