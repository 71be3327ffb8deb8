"""A bound in time holds in its clause: "until the migration" in "We use X until the migration, but we don't deploy on
Fridays" leaves the end after "but" an end, while one bounding its own clause, even after a comma, keeps it a pause
(issue 27 §2). Word tests at the packaged model's cosine."""

from __future__ import annotations

import pytest
from stores import flagged

pytestmark = pytest.mark.contract

ENDED = [  # (older, newer): a bound in another clause than the end
    ("We deploy on Fridays", "We use Jenkins until the migration, but we don't deploy on Fridays"),
    ("We deploy on Fridays", "We keep Jenkins until the migration but we stopped deploying on Fridays"),
    ("We deploy on Fridays", "The freeze lasts until January, and we no longer deploy on Fridays"),
    ("We use Jenkins for CI", "The freeze lasts until January, but we retired Jenkins"),
]
PAUSED = [  # (older, newer): the bound in the end's clause
    ("We deploy on Fridays", "We don't deploy on Fridays until the migration is done"),
    ("We deploy on Fridays", "We stopped deploying on Fridays, at least until the freeze ends"),
    ("We deploy on Fridays", "We don't deploy on Fridays and Mondays until the freeze ends"),
    ("We deploy on Fridays", "We don't deploy on Fridays this week, but the freeze ends Monday"),
    ("We deploy on Fridays", "We stopped deploying on Fridays for the holidays"),
]


@pytest.mark.parametrize(("old", "new"), ENDED)
def test_a_bound_in_another_clause_leaves_the_end_an_end(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None


@pytest.mark.parametrize(("old", "new"), PAUSED)
def test_a_bound_in_the_ends_clause_makes_it_a_pause(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is None
