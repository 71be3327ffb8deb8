"""Two memories denying the same thing agree (trial 52 #3): "we use pnpm, never npm" and "we use
pnpm instead of npm" is one fact said twice, not a contradiction, and recall does not call the first
outdated. A negation's reason quotes the word as written."""

from __future__ import annotations

import pytest

from memvault.storage.contradiction import disagreement
from memvault.storage.store import Store

AGREEING = [
    ("In the webshop repo we use pnpm, never npm or yarn", "We use pnpm instead of npm in the webshop repository"),
    ("Priya prefers tea, not coffee", "Priya drinks tea rather than coffee"),
    ("We deploy with Helm, not kubectl apply", "Deploys go through Helm rather than kubectl apply"),
    ("Lena writes tests in pytest, never unittest", "Lena uses pytest instead of unittest"),
    ("Store sessions in Redis rather than Postgres", "Sessions live in Redis, not in Postgres"),
    ("Tomasz prefers tabs over spaces in Go", "Tomasz likes using tabs rather than spaces for Go code"),
    ("Tomasz prefers tabs over spaces in Go code", "Tomasz likes using tabs, not spaces, when writing Go"),
    ("Noor favours Postgres over MySQL", "Noor picks Postgres instead of MySQL"),
]
DENYING = [
    ("We use pnpm instead of npm", "We use npm for the webshop", "instead of npm"),
    ("Priya prefers tea, not coffee", "Priya drinks coffee every morning", "not coffee"),
    ("Lena uses pytest rather than unittest", "Lena writes her tests with unittest", "rather than unittest"),
    ("Tomasz prefers tabs over spaces in Go", "Tomasz writes Go with spaces", "over spaces"),
    ("Priya drinks coffee", "Priya does not drink coffee anymore", None),
]


@pytest.mark.parametrize(("older", "newer"), AGREEING)
def test_two_texts_denying_the_same_thing_agree(older, newer):
    assert disagreement(older, newer) is None
    assert disagreement(newer, older) is None


@pytest.mark.parametrize(("older", "newer", "reason"), DENYING)
def test_stating_what_the_other_denies_is_a_negation_quoted_as_written(older, newer, reason):
    found = disagreement(older, newer)
    assert found is not None and found.startswith("negation: ")
    if reason is not None:
        assert found == "negation: " + reason


def test_a_restatement_is_no_contradiction_and_the_first_is_not_outdated(db, real_embedder):
    s = Store(db, real_embedder)
    first = s.remember(tenant="t", scope="p", content=AGREEING[0][0])
    second = s.remember(tenant="t", scope="p", content=AGREEING[0][1])
    hits = s.recall(tenant="t", query="which package manager do we use in the webshop?", scopes=["p"]).hits
    s.close()
    assert not second.contradicts
    assert all(h.outdated_by is None for h in hits if h.memory.id == first.id)
