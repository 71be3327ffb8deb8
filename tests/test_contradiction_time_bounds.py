"""A negation or an end bounded in time ("this week", "next sprint", "in December", "over the summer", "during the
code freeze", "until the migration is done", "because of the offsite") is a pause, not an end: it contradicts no
older memory stating the practice; one with no bound ("no longer", "anymore", "stopped", "since March": a start)
still does (issue 27 §2)."""

from __future__ import annotations

import pytest
from stores import flagged

pytestmark = pytest.mark.contract

BOUNDED = [  # (older, newer): the newer holds for a while only
    ("We deploy on Fridays", "We don't deploy on Fridays this week"),
    ("We deploy on Fridays", "This month we don't deploy on Fridays"),
    ("We deploy on Fridays", "Over the summer we don't deploy on Fridays"),
    ("We deploy on Fridays", "Until the migration is done we don't deploy on Fridays"),
    ("We deploy on Fridays", "We don't deploy on Fridays during the code freeze"),
    ("We deploy on Fridays", "We won't deploy on Friday because of the offsite"),
    ("We deploy on Fridays", "We stopped deploying on Fridays in December"),
    ("We deploy on Fridays", "Next week we won't deploy on Friday"),
    ("We deploy on Fridays", "We are not deploying on Fridays this sprint"),
    ("We deploy on Fridays", "During the holidays we don't deploy on Fridays"),
    ("We deploy on Fridays", "We stopped deploying on Fridays during the migration"),
    ("We deploy on Fridays", "We never deploy on Fridays in August"),
    ("We deploy on Fridays", "We don't deploy on Fridays due to the outage"),
    ("We deploy on Fridays", "Till the audit is over we don't deploy on Fridays"),
    ("We run load tests before each release", "We don't run load tests this quarter"),
    ("We run load tests before each release", "We stopped running load tests for the summer"),
    ("I drink coffee every morning", "I don't drink coffee this month"),
    ("I jog every morning", "I stopped jogging over the winter"),
    ("We hold a demo every Friday", "We won't hold a demo on Friday because of the conference"),
    ("We send a weekly newsletter", "We don't send the weekly newsletter during the holidays"),
    ("We use Jenkins for CI", "We don't use Jenkins during the migration"),
    ("We use Jenkins for CI", "We dropped Jenkins for the code freeze"),
]
ENDED = [  # (older, newer): no bound, or a start ("since March"), so the newer ends the older
    ("We deploy on Fridays", "We no longer deploy on Fridays"),
    ("We deploy on Fridays", "We don't deploy on Fridays anymore"),
    ("We deploy on Fridays", "Since March we don't deploy on Fridays"),
    ("We deploy on Fridays", "We stopped deploying on Fridays"),
    ("We deploy on Fridays", "We stopped deploying on Fridays last month"),
    ("We deploy on Fridays", "We don't deploy on Fridays"),
    ("We deploy on Fridays", "We never deploy on Fridays"),
    ("We deploy on Fridays", "Since January we no longer deploy on Fridays"),
    ("We deploy on Fridays", "We don't deploy in the morning on Fridays anymore"),
    ("I drink coffee every morning", "I quit drinking coffee"),
    ("I jog every morning", "I stopped jogging"),
    ("We run load tests before each release", "We no longer run load tests before each release"),
    ("We use Jenkins for CI", "We retired Jenkins"),
    ("We use Jenkins for CI", "We no longer use Jenkins"),
    ("We use Jenkins for CI", "We stopped using Jenkins"),
]


@pytest.mark.parametrize(("old", "new"), BOUNDED)
def test_a_negation_or_end_bounded_in_time_contradicts_nothing(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is None


@pytest.mark.parametrize(("old", "new"), ENDED)
def test_a_negation_or_end_with_no_bound_still_contradicts_the_older(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None
