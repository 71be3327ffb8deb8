"""A question's qualifier of a noun that a memory qualifies otherwise (issue 25 §2), through recall against a
store with the real model: "who reviews frontend pull requests?" is not surely answered by "Mark reviews all
infrastructure pull requests" (a team, an environment, a platform, a region, a department in place of the one
asked), while the same qualifier still is."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memvault.storage.ranking import SURE_CONFIDENCE

NOW = datetime(2026, 11, 27, 15, 0, tzinfo=UTC)
OLD = "2026-03-02T10:00:00Z"
MEMORIES = (
    "Mark reviews all infrastructure pull requests.",
    "Dana deploys the iOS app every Tuesday.",
    "Sam owns the payments team backlog.",
    "Lee approves all marketing expenses.",
    "Ops rotates the production certificates monthly.",
    "Nina triages all backend bug reports.",
    "Omar signs off every security design review.",
    "Kim maintains the Android release checklist.",
    "Jo schedules all staging database migrations.",
    "Raj answers all enterprise support tickets.",
    "Ana monitors the checkout error budget.",
)


@pytest.fixture(scope="module")
def shared_clock():
    """The clock of the stores ``shared_store`` fills (conftest)."""
    return lambda: int(NOW.timestamp() * 1000)


def remember_all(store) -> None:  # type: ignore[no-untyped-def]
    for content in MEMORIES:
        store.remember(tenant="t", scope="proj", content=content, kind="fact", observed_at=OLD, check_similar=False)


def recall(shared_store, question: str):  # type: ignore[no-untyped-def]
    store, _ = shared_store(remember_all)
    return store.recall(tenant="t", query=question, scopes=["proj"], limit=3)


@pytest.mark.parametrize("question", [
    "who reviews frontend pull requests?",
    "who reviews mobile pull requests?",
    "who reviews docs pull requests?",
    "who deploys the Android app?",
    "who deploys the web app?",
    "who owns the search team backlog?",
    "who owns the growth team backlog?",
    "who approves engineering expenses?",
    "who approves travel expenses?",
    "who rotates the staging certificates?",
    "who rotates the development certificates?",
    "who triages frontend bug reports?",
    "who triages mobile bug reports?",
    "who signs off every privacy design review?",
    "who signs off every database design review?",
    "who maintains the iOS release checklist?",
    "who maintains the desktop release checklist?",
    "who schedules production database migrations?",
    "who schedules test database migrations?",
    "who answers free support tickets?",
    "who answers premium support tickets?",
    "who monitors the search error budget?",
    "who monitors the billing error budget?",
])
def test_another_qualifier_of_the_same_noun_leaves_recall_unsure(shared_store, question):
    outcome = recall(shared_store, question)
    assert all(hit.confidence < SURE_CONFIDENCE for hit in outcome.hits), [
        (hit.memory.content, hit.confidence) for hit in outcome.hits]


@pytest.mark.parametrize(("question", "wanted"), [
    ("who reviews infrastructure pull requests?", 0),
    ("who deploys the iOS app?", 1),
    ("who owns the payments team backlog?", 2),
    ("who approves marketing expenses?", 3),
    ("who rotates the production certificates?", 4),
    ("who triages backend bug reports?", 5),
    ("who signs off security design reviews?", 6),
    ("who maintains the Android release checklist?", 7),
    ("who schedules staging database migrations?", 8),
    ("who answers enterprise support tickets?", 9),
    ("who monitors the checkout error budget?", 10),
    ("who reviews all infrastructure pull requests?", 0),
    ("who reviews pull requests for infrastructure?", 0),
    ("who reviews pull requests?", 0),
    ("who approves expenses for marketing?", 3),
])
def test_the_same_qualifier_is_still_answered_surely(shared_store, question, wanted):
    outcome = recall(shared_store, question)
    assert outcome.hits and outcome.hits[0].memory.content == MEMORIES[wanted]
    assert outcome.hits[0].confidence >= SURE_CONFIDENCE


SUBJECTS = (
    "Priya prefers tabs over spaces in Go code reviews.",
    "The backend team prefers squash merges over rebases.",
    "The staging database listens on port 5433, not the default 5432.",
    "Omar drinks oat milk flat whites every morning.",
    "The mobile team ships release candidates on Thursdays.",
)


def remember_subjects(store) -> None:  # type: ignore[no-untyped-def]
    for content in SUBJECTS:
        store.remember(tenant="t", scope="proj", content=content, kind="fact", observed_at=OLD, check_similar=False)


@pytest.mark.parametrize(("question", "wanted"), [
    ("Does Priya want tabs or spaces?", 0),
    ("Does Priya like tabs or spaces?", 0),
    ("Does the backend team want squash merges?", 1),
    ("which port does the staging DB listen on?", 2),
    ("Does Omar drink oat milk flat whites?", 3),
    ("When does the mobile team cut release candidates?", 4),
])
def test_a_subject_both_hold_opens_no_qualifier_before_the_verb(shared_store, question, wanted):
    """A word both texts hold before two different words ("Priya want tabs" / "Priya prefers tabs", "staging
    DB listen" / "staging database listens") is a subject and its verb, not a noun phrase qualified otherwise:
    the memory still answers surely (the ask69 rule read them as qualifiers; CI of a87cdc1)."""
    store, _ = shared_store(remember_subjects)
    outcome = store.recall(tenant="t", query=question, scopes=["proj"], limit=3)
    assert outcome.hits and outcome.hits[0].memory.content == SUBJECTS[wanted]
    assert outcome.hits[0].confidence >= SURE_CONFIDENCE, [(h.memory.content, h.confidence) for h in outcome.hits]
