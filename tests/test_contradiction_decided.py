"""A change decided is a change said: "We decided to switch the API from REST to GraphQL" contradicts "We
decided to use REST for the API" as "We switched the API from REST to GraphQL" does (the bare verb after
"decided", "agreed", "chose", "opted" or "voted" and "to" read as its past: ``contradiction_words.DECIDED``);
"plan to", "want to" say no change yet, and a decided change of another subject changes nothing."""

from __future__ import annotations

import pytest
from stores import pair_recalled

from memvault.storage.contradiction import STRONG_SUBJECT, contradicts, disagreement, judge
from memvault.storage.ranking import SAME_SUBJECT
from memvault.storage.store import Store

DECIDED = [  # (older, newer)
    ("We decided to use REST for the API", "We decided to switch the API from REST to GraphQL"),
    ("We use REST for the API", "We decided to switch the API from REST to GraphQL"),
    ("The database is MySQL", "We agreed to migrate the database to Postgres"),
    ("The office is in Lisbon", "We chose to relocate the office to Porto"),
    ("Builds run on CircleCI", "The team opted to move builds to Buildkite"),
    ("The main branch is called master", "We voted to rename the main branch to trunk"),
]

PLANNED = [  # (older, newer): a change planned or wished
    ("We decided to use REST for the API", "We plan to switch the API from REST to GraphQL"),
    ("We use REST for the API", "We want to switch the API from REST to GraphQL"),
]

ELSEWHERE = [  # (older, newer): a change decided of another subject
    ("The office is in Lisbon", "We decided to move the server racks to Frankfurt"),
    ("Payments go through Stripe", "We decided to switch the CI to GitHub Actions"),
    ("The standup is at 9:15", "We agreed to move the retro to Tuesday"),
]


@pytest.mark.parametrize(("old", "new"), DECIDED)
def test_a_change_decided_contradicts_what_it_changes(old, new):
    judged = judge(old, new)
    assert judged is not None and judged[1] >= 1, judged


@pytest.mark.parametrize(("old", "new"), PLANNED)
def test_a_change_planned_contradicts_nothing(old, new):
    assert disagreement(old, new) is None


@pytest.mark.parametrize(("old", "new"), ELSEWHERE)
def test_a_change_decided_of_another_subject_contradicts_nothing_under_the_strong_gate(old, new):
    assert contradicts(old, new, STRONG_SUBJECT - 0.01, SAME_SUBJECT) is None


@pytest.mark.contract
@pytest.mark.parametrize(("old", "new"), DECIDED[:2])
def test_remember_returns_a_decided_change_and_recall_marks_the_older(real_store: Store, old, new):
    older, newer, hits = pair_recalled(real_store, old, new, "which API style do we use?")
    assert [i for i, _ in newer.contradicts] == [older]
    assert next(iter(hits)) == newer.id and hits[older] == newer.id
