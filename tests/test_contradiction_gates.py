"""The cosine gates of a contradiction are asked before any words are read (issue 28): ``may_contradict``
says the same of two texts whichever is the older, so a pair under every gate is never ordered by its
words (``newer_in_meaning``), and what ``remember`` reports is what it reported when it read them."""

from __future__ import annotations

import itertools

import pytest
from memvault.storage import contradiction
from memvault.storage.ranking import SAME_SUBJECT

TEXTS = [
    "Standup is at 9:15.",  # tiny
    "Standup now happens at 10:30.",
    "The platform group offsite is in Porto.",  # brief
    "We switched payment processing from Stripe to Adyen last month.",
    "Our platform group reviews incidents every Tuesday morning with coffee and pastries.",
    "Planning for the quarterly platform offsite: we booked dinner at a seafood place near the river, a boat trip "
    "on the second afternoon for everyone who signs up early, and an agenda covering hiring, budgets, vendor "
    "contracts, the on-call rota and the roadmap for next year; bring laptops, chargers and warm jackets.",  # long
]
COSINES = [0.1, 0.19, 0.2, 0.25, 0.29, 0.3, 0.35, 0.44, 0.45, 0.5, 0.59, 0.6, 0.8]
# far enough from the platform offsite's words to fall under every gate (FakeEmbedder cosine 0.34), not brief
FAR = TEXTS[-1]


@pytest.mark.parametrize(("one", "other"), list(itertools.permutations(TEXTS, 2)))
def test_the_cosine_gates_say_the_same_whichever_text_is_the_older(one, other):
    for cosine in COSINES:
        gated = contradiction.may_contradict(one, other, cosine, SAME_SUBJECT)
        assert gated == contradiction.may_contradict(other, one, cosine, SAME_SUBJECT)
        if not gated:
            assert contradiction.contradicts(one, other, cosine, SAME_SUBJECT) is None
            assert contradiction.contradicts(other, one, cosine, SAME_SUBJECT) is None


def test_remember_reads_no_words_of_a_neighbour_under_every_gate_and_reports_the_same(store, monkeypatch):
    far = store.remember(tenant="t", scope="p", content=FAR, observed_at="2025-12-01T09:00:00Z")
    same = store.remember(tenant="t", scope="p", content="The platform group offsite is in Lisbon.",
                          observed_at="2025-12-02T09:00:00Z")
    read: list[str] = []
    reading = contradiction._read

    def spied(text, *args):  # type: ignore[no-untyped-def]
        read.append(text)
        return reading(text, *args)

    monkeypatch.setattr(contradiction, "_read", spied)
    new = store.remember(tenant="t", scope="p", content="The platform group offsite is in Porto.",
                         observed_at="2025-12-03T09:00:00Z")
    assert new.created
    assert FAR not in read  # a neighbour (cosine 0.34) under every gate: its words are not read
    assert far.id not in dict(new.contradicts)
    assert dict(new.contradicts) == {same.id: "different name: lisbon → porto"}
