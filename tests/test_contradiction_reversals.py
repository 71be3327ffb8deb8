"""A change of state written as its reversal ("off" → "enabled", "frozen" → "freeze lifted", "on leave" →
"back from leave", "X leads" → "X handed ... over", "started ... again") contradicts the older memory:
``remember`` names it, recall marks the older outdated, and review lists the pair. The same state in
other words ("disabled" / "off"), "on" or "off" as no state ("on Friday", "a day off") and a handing
over of another thing do not (new-user trial 56 #5)."""

from __future__ import annotations

import pytest

from memvault.storage.consolidate import consolidate
from memvault.storage.contradiction import disagreement
from memvault.storage.store import Store

REVERSALS = [  # (older, newer, a question about the older's subject)
    ("Deployments are frozen", "Deployment freeze lifted", "Are deployments frozen?"),
    ("Ana is vegetarian", "Ana started eating fish again", "Is Ana vegetarian?"),
    ("Priya leads the platform team", "Priya handed the platform team over to Jonas", "Who leads the platform team?"),
    ("Marta is on parental leave", "Marta is back from parental leave", "Is Marta on leave?"),
    ("Feature flag new-checkout is off", "Feature flag new-checkout is enabled for everyone",
     "Is the new-checkout flag on?"),
    ("The dark-mode flag is on for everyone", "The dark-mode flag is off for everyone", "Is dark mode on?"),
    ("The nightly export job is paused", "The nightly export job resumed", "Is the nightly export job running?"),
    ("Oskar is on sick leave", "Oskar is back from sick leave", "Is Oskar on leave?"),
]


@pytest.mark.parametrize(("old", "new", "_"), REVERSALS)
def test_a_reversal_of_state_is_a_disagreement(old, new, _):
    assert disagreement(old, new) is not None


@pytest.mark.parametrize(("old", "new"), [
    ("Feature flag beta-search is disabled", "Feature flag beta-search is off"),
    ("The code freeze is lifted", "The code freeze is lifted as of Monday"),
    ("We take Friday off", "We work on Friday"),
    ("Jonas leads the data team", "Jonas handed the quarterly report over to Priya"),
    ("Ana started a new job", "Ana works at Acme"),
    ("The meeting is on Friday", "The meeting is on Friday in room B"),
    ("Audrey misses nature", "Audrey: Hey Andrew, I was thinking about what you said about missing nature the other"
     " day. I started hiking on weekends again with my dogs and it feels great to be outdoors"),
])
def test_the_same_state_in_other_words_or_no_state_is_no_disagreement(old, new):
    assert disagreement(old, new) is None


def test_a_reason_quotes_the_states_as_written():
    assert disagreement("Feature flag new-checkout is off", "Feature flag new-checkout is enabled") \
        == "opposite state: off → enabled"


@pytest.mark.parametrize(("old", "new", "question"), REVERSALS[:5])
def test_remember_recall_and_review_see_a_reversal(real_store: Store, old, new, question):
    older = real_store.remember(tenant="t", scope="p", content=old, observed_at="2026-11-01T09:00:00Z").id
    newer = real_store.remember(tenant="t", scope="p", content=new, observed_at="2026-12-01T09:00:00Z")
    assert older in dict(newer.contradicts)
    hits = real_store.recall(tenant="t", query=question, scopes=["p"]).hits
    assert {h.memory.id: h.outdated_by for h in hits}.get(older) == newer.id
    consolidate(real_store)
    assert [(o, n) for o, n, _ in real_store.review("t", ["p"]).contradictions] == [(older, newer.id)]
