"""A change said with "upgraded" or "downgraded" outdates the value it leaves ("We run PostgreSQL 14" / "We upgraded
PostgreSQL 14 to PostgreSQL 16"), and a change of where an older change went is the chain's next step ("We moved
from Ansible to Salt" / "We dropped Salt for Pulumi"): ``remember`` reports the pair at the packaged model's cosine
and recall marks the older. An upgrade of something else, or a change of something the older only names in passing,
stays quiet (trial verify64 N4)."""

from __future__ import annotations

import pytest

from memvault.storage.contradiction import contradicts, judge
from memvault.storage.embeddings import Embedder
from memvault.storage.ranking import SAME_SUBJECT
from memvault.storage.store import Store

UPGRADES = [  # (older, an upgrade or downgrade of what it holds)
    ("We run PostgreSQL 14", "We upgraded PostgreSQL 14 to PostgreSQL 16"),
    ("We use Python 3.11", "We upgraded to Python 3.12"),
    ("Python version is 3.10", "We upgraded Python from 3.10 to 3.12"),
    ("The cluster runs Kubernetes 1.27", "We upgraded Kubernetes 1.27 to 1.29"),
    ("The API servers run Node 18", "We upgraded the API servers to Node 20"),
    ("Our Redis is version 6", "We downgraded Redis to 5"),
    ("The docs site is built with Hugo 0.110", "We upgraded Hugo from 0.110 to 0.120"),
]

STEPS = [  # (an older change, a change of where it went)
    ("We moved from Ansible to Salt", "We dropped Salt for Pulumi"),
    ("We moved from Ansible to Chef", "We dropped Chef for Pulumi"),
    ("We migrated the main database from MySQL to PostgreSQL 14", "We upgraded PostgreSQL 14 to PostgreSQL 16"),
    ("We switched from Jenkins to CircleCI", "We ditched CircleCI for Buildkite"),
    ("We moved error tracking from Sentry to Rollbar", "We moved error tracking from Rollbar to Bugsnag"),
    ("We switched hosting from Heroku to Render", "We left Render for Fly.io"),
    ("The team moved chat from Slack to Teams", "We moved chat from Teams to Zulip"),
    ("We moved from Ansible to Salt", "We moved back from Salt to Ansible"),
]

QUIET = [  # near pairs that are no change of the older
    ("The staging cluster has 4 nodes.", "The staging cluster was upgraded to Kubernetes 1.29."),
    ("We run Node 18", "We upgraded the laptops to macOS 14"),
    ("We use Django 4.2", "We upgraded the office Wi-Fi to 802.11ax"),
    ("We switched from Yarn to Pnpm", "We upgraded Pnpm from 8 to 9"),
    ("We moved from Ansible to Salt", "We moved the Salt states from GitLab to GitHub"),
    ("We switched from Jenkins to CircleCI", "We moved the docs from CircleCI to Netlify"),
    ("We moved from Ansible to Salt", "We moved from Ansible to Salt in 2024"),
    ("We switched from npm to pnpm", "We also use pnpm for the docs"),
]


def _cosine(embedder: Embedder, older: str, newer: str) -> float:
    vectors = embedder.embed([older, newer])
    return float(vectors[0] @ vectors[1])


@pytest.mark.parametrize(("older", "newer"), UPGRADES + STEPS)
def test_an_upgrade_or_a_next_step_contradicts_the_older_at_its_cosine(real_embedder, older, newer):
    assert contradicts(older, newer, _cosine(real_embedder, older, newer), SAME_SUBJECT) is not None


@pytest.mark.parametrize(("older", "newer"), STEPS)
def test_a_next_step_is_as_strong_as_a_change_verb_said_of_the_older(older, newer):
    judged = judge(older, newer)
    assert judged is not None and judged[1] == 2, judged


@pytest.mark.parametrize(("older", "newer"), QUIET)
def test_an_upgrade_of_something_else_or_a_change_beside_the_older_stays_quiet(real_embedder, older, newer):
    assert contradicts(older, newer, _cosine(real_embedder, older, newer), SAME_SUBJECT) is None


def test_remember_reports_each_step_of_a_chain_and_recall_answers_the_last(real_store: Store):
    """Trial verify64 N4: the third step ("We dropped Salt for Pulumi") was no pair; Salt stayed the answer."""
    ids = []
    for day, content in enumerate(["Configuration management is done with Ansible", "We moved from Ansible to Salt",
                                   "We dropped Salt for Pulumi"], start=1):
        made = real_store.remember(tenant="t", scope="p", content=content, observed_at=f"2026-10-0{day}T09:00:00Z")
        assert ids[-1:] == [o for o in dict(made.contradicts) if o in ids[-1:]]
        ids.append(made.id)
    hits = {h.memory.id: h for h in real_store.recall(tenant="t", query="what do we use for configuration management?",
                                                        scopes=["p"]).hits}
    assert hits[ids[1]].outdated_by == ids[2]
    assert hits[ids[2]].outdated_by is None
