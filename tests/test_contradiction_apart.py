"""Two memories about different things that share a word or a value are no change of one another (trial verify64
N5): a name written side by side with another is one name ("GitHub Actions" is not GitHub's), one number beside two
subjects is two values ("API level 34", "Gradle 34"), and a value in a clause about another subject belongs to that
subject ("Production runs Postgres 16 and staging runs Redis 7"). The same texts with the older's own name, value or
subject changed still contradict it."""

from __future__ import annotations

import pytest

from memvault.storage.contradiction import contradicts, disagreement
from memvault.storage.embeddings import Embedder
from memvault.storage.ranking import SAME_SUBJECT
from memvault.storage.store import Store

WHOLE_NAMES = [  # (older naming a product of two names, a change of something else leaving one of them)
    ("Our CI runs on GitHub Actions", "We migrated the repo from GitHub to GitLab"),
    ("Our CI runs on GitHub Actions", "We migrated this repo off GitHub to GitLab"),
    ("Our CI runs on GitHub Actions", "We moved the code from GitHub to GitLab"),
    ("Dashboards live in Grafana Cloud", "We moved the wiki from Grafana to Notion"),
    ("Our VMs run on Google Cloud", "We moved email from Google to Fastmail"),
    ("The docs are hosted on GitHub Pages", "We migrated the repo from GitHub to Bitbucket"),
    ("Logs go to AWS CloudWatch", "We moved DNS from AWS to Cloudflare"),
]

SHARED_NUMBERS = [  # (older, a change to another thing at the older's number)
    ("The Android app targets API level 34", "We switched the Android build to Gradle 34"),
    ("The Android app targets Android API level 34", "We moved the Android build to Gradle 34"),
    ("The app needs iOS version 17", "We moved the iOS build to Xcode 17"),
    ("The web app targets ECMAScript level 2022", "We moved the web build to Vite 2022"),
    ("The service listens on port 8080", "We moved the service to Jetty 8080"),
]

OTHER_CLAUSES = [  # (older, a newer whose differing value is in a clause about another subject)
    ("Staging runs Postgres 15", "Production runs Postgres 16 and staging runs Redis 7"),
    ("The iOS app supports iOS 16", "The Android app supports Android 14 and iOS support is unchanged"),
    ("Alice's team meets on Monday", "Bob's team meets on Friday and Alice's team has a new room"),
    ("The EU cluster runs Kafka 3.5", "The US cluster runs Kafka 3.7 and the EU cluster runs Redis 7"),
    ("The web team deploys on Tuesday", "The data team deploys on Friday and the web team deploys with Argo"),
]

STILL_CHANGES = [  # the same words, the older's own name, value or subject changed
    ("Our CI runs on GitHub Actions", "We moved CI from GitHub Actions to Buildkite"),
    ("Our CI runs on GitHub Actions", "We moved CI off GitHub Actions to Buildkite"),
    ("Our CI runs on GitHub Actions", "We retired GitHub Actions"),
    ("Our CI runs on Jenkins", "Our CI runs on GitHub Actions"),
    ("Our code is hosted on GitHub", "We migrated the repo from GitHub to GitLab"),
    ("The release manager is Jonas Berg", "We moved the release manager role from Jonas to Priya"),
    ("The release manager is Jonas Berg", "The release manager is now Priya Nair"),
    ("The build uses Gradle 33", "We switched the Android build to Gradle 34"),
    ("The Android app targets API level 33", "We moved the Android app to API level 34"),
    ("We use Python 3.12", "We switched to PyPy 3.12"),
    ("Staging runs Postgres 15", "Staging runs Postgres 16 and production runs Redis 7"),
    ("The staging cluster has 4 nodes", "The staging cluster has 6 nodes and the production cluster has 8 nodes"),
]


def _cosine(embedder: Embedder, older: str, newer: str) -> float:
    vectors = embedder.embed([older, newer])
    return float(vectors[0] @ vectors[1])


@pytest.mark.parametrize(("older", "newer"), WHOLE_NAMES + SHARED_NUMBERS + OTHER_CLAUSES)
def test_different_things_sharing_a_name_part_a_number_or_a_sentence_contradict_nothing(older, newer):
    assert disagreement(older, newer) is None


@pytest.mark.parametrize(("older", "newer"), STILL_CHANGES)
def test_the_older_own_name_value_or_subject_changed_still_contradicts(older, newer):
    assert disagreement(older, newer) is not None


@pytest.mark.parametrize(("older", "newer"), WHOLE_NAMES[:2])
def test_a_repo_moving_off_github_keeps_the_ci_memory_current(real_store: Store, older, newer):
    """Trial verify64 N5: the repo's move was the answer to "where does our CI run?" and marked the CI memory."""
    ci = real_store.remember(tenant="t", scope="p", content=older, observed_at="2026-10-01T09:00:00Z").id
    made = real_store.remember(tenant="t", scope="p", content=newer, observed_at="2026-11-01T09:00:00Z")
    assert made.contradicts == ()
    hits = real_store.recall(tenant="t", query="where does our CI run?", scopes=["p"]).hits
    assert [h.memory.id for h in hits][0] == ci
    assert all(h.outdated_by is None for h in hits)


def test_the_cosines_of_these_pairs_reach_the_gates_the_word_test_now_closes(real_embedder):
    """The pairs are near enough in meaning that only the words keep them apart (else the test above is empty)."""
    pairs = WHOLE_NAMES + SHARED_NUMBERS + OTHER_CLAUSES
    near = [pair for pair in pairs if _cosine(real_embedder, *pair) >= 0.3]
    assert len(near) >= len(pairs) // 2
    assert all(contradicts(*pair, _cosine(real_embedder, *pair), SAME_SUBJECT) is None for pair in pairs)
