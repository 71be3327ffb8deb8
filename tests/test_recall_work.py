"""Work a recall's ranking skips without changing its answer (issue 28): the near-miss test behind the
first hit's lead (``ranking._top_two`` with ``skip``) asks only of the hits before the two answers found."""

from __future__ import annotations

import random

import pytest

from memvault.storage.ranking import _top_two


def cases() -> list[tuple[list[int], dict[int, float], set[int]]]:
    rng = random.Random(28)
    out = [([], {}, set()), ([1], {1: 0.5}, {1}), ([1, 2], {1: 0.5, 2: 0.5}, set()),
           ([1, 2, 3], {1: 0.1, 2: 0.9, 3: 0.9}, {2})]
    for _ in range(200):
        seqs = rng.sample(range(100), rng.randint(0, 12))
        earned = {s: rng.choice([0.0, 0.25, 0.5, rng.random()]) for s in seqs}  # ties are common
        out.append((seqs, earned, {s for s in seqs if rng.random() < 0.4}))
    return out


@pytest.mark.parametrize(("seqs", "earned", "skipped"), cases())
def test_skipping_while_reading_gives_the_top_two_of_the_rest(seqs, earned, skipped):
    asked: list[int] = []

    def skip(seq: int) -> bool:
        asked.append(seq)
        return seq in skipped

    assert _top_two(seqs, earned, skip) == _top_two([s for s in seqs if s not in skipped], earned)
    kept = [s for s in asked if s not in skipped]
    assert len(kept) <= 2 and (len(kept) == 2 or len(asked) == len(seqs))  # asked no further than the second kept
