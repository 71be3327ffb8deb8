"""``ranking.read_once``: the cosines ranking asks of one recall's hits (same subject, outdated,
restated) are read in one statement for every pair among the top hits, and answer each question
exactly as asking the backend memory by memory would."""

from __future__ import annotations

import itertools

import pytest

from memvault.storage import ranking

TOP = [5, 3, 8, 1, 9]
NO_VECTOR = 8  # a memory without a vector: no cosine to or from it


def cosine(a: int, b: int) -> float:
    return round(1.0 - abs(a - b) / 20 - (a * b % 7) / 100, 6)


def backend() -> tuple[list[list[int]], object]:
    reads: list[list[int]] = []

    def cosines(seqs: list[int]) -> dict[tuple[int, int], float]:
        reads.append(list(seqs))
        return {(a, b): cosine(a, b) for a, b in itertools.product(seqs, seqs) if NO_VECTOR not in (a, b)}

    return reads, cosines


def expected(a: int, seqs: list[int]) -> dict[int, float]:
    return {} if a == NO_VECTOR else {b: cosine(a, b) for b in seqs if b != NO_VECTOR}


@pytest.mark.parametrize("asked, statements", [
    ([(5, [3, 8, 1, 9]), (3, [5, 1]), (1, [9]), (9, [5, 3, 8, 1])], 1),  # among the top: one read
    ([(8, [5, 3]), (5, [8])], 1),  # one without a vector: no cosine, still no second read
    ([(5, [3]), (5, [3]), (3, [5])], 1),  # asked again: nothing read again
    ([(5, [3]), (42, [5])], 2),  # a memory beyond the top (a superseded version): one more read
    ([(42, [5, 7]), (5, [42]), (7, [5]), (5, [7])], 1),  # the first read holds the top and what it asks
    ([(5, [])], 0),  # nothing asked: nothing read
])
def test_the_pairs_among_the_top_hits_are_read_once_and_answer_as_one_by_one(asked, statements):
    reads, cosines = backend()
    similarities = ranking.read_once(cosines, TOP)  # type: ignore[arg-type]
    for a, seqs in asked:
        assert similarities(a, seqs) == expected(a, seqs)
    assert len(reads) == statements


def test_a_later_read_answers_the_pairs_the_first_did_not_hold():
    reads, cosines = backend()
    similarities = ranking.read_once(cosines, [1, 2])  # type: ignore[arg-type]
    assert similarities(1, [2]) == expected(1, [2])
    assert similarities(40, [41]) == expected(40, [41])  # read with the top hits' pairs unknown to it
    assert similarities(41, [1]) == expected(41, [1]) and similarities(2, [40]) == expected(2, [40])
    assert len(reads) == 4  # each pair not yet read: read then
