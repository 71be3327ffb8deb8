"""Recall reads the contradicting pairs kept for review (as boot and memory://review do): a hit whose kept
newer memory is not among the candidates (it shares no word with the question) is still marked
``outdated_by`` it, is not given as sure, and has that memory in the result (verify61 N1)."""

from __future__ import annotations

import pytest

from memvault.storage.consolidate import consolidate
from memvault.storage.ranking import SURE_CONFIDENCE
from memvault.storage.store import Store

pytestmark = pytest.mark.contract
MAY, OCTOBER = "2025-05-01T10:00:00Z", "2025-10-01T10:00:00Z"

KEPT = [  # (older, newer, a question sharing no word with the newer)
    ("Our CI runs on Jenkins", "We migrated from Jenkins to TeamCity", "where does our CI run?"),
    ("Our CI runs on Jenkins", "Jenkins was swapped out for Drone", "where does our CI run?"),
    ("Our CI runs on Jenkins", "Jenkins was replaced by Buildkite", "which CI do we use now?"),
    ("We use Poetry for packaging", "Poetry is deprecated in favour of uv", "which packaging tool do we use?"),
    ("Our docs are hosted on Confluence", "We moved from Confluence to Notion", "where are our docs hosted?"),
]
NEVER_KEPT = [  # same subject, no contradiction: recall stays as it was
    ("Our CI runs on Jenkins", "The CI runners have 4 cores each", "where does our CI run?"),
    ("We use Poetry for packaging", "Our packages are published to PyPI", "which packaging tool do we use?"),
]


@pytest.fixture
def real_store(db: str, real_embedder, clock):  # type: ignore[no-untyped-def]
    s = Store(db, real_embedder, clock=clock)
    yield s
    s.close()


def pair(store: Store, older: str, newer: str) -> tuple[str, str]:
    return tuple(store.remember(tenant="a", scope="proj", kind="fact", content=c, observed_at=at).id  # type: ignore[return-value]
                 for c, at in ((older, MAY), (newer, OCTOBER)))


def recalled(store: Store, question: str) -> list[tuple[str, float, str | None]]:
    return [(h.memory.id, h.confidence, h.outdated_by)
            for h in store.recall(tenant="a", query=question, scopes=["proj"]).hits]


@pytest.mark.parametrize(("older", "newer", "question"), KEPT)
def test_a_hit_whose_kept_newer_memory_is_no_candidate_is_marked_and_not_sure(real_store, older, newer, question):
    old, new = pair(real_store, older, newer)
    consolidate(real_store)
    assert [(o, n) for o, n, _ in real_store.review("a", ["proj"]).contradictions] == [(old, new)]
    hits = {memory_id: (sure, by) for memory_id, sure, by in recalled(real_store, question)}
    assert hits[old][1] == new
    assert hits[old][0] < SURE_CONFIDENCE
    assert new in hits and hits[new][1] is None  # returned above it (tests/test_recall_newer_in_result.py)


@pytest.mark.parametrize(("older", "newer", "question"), NEVER_KEPT)
def test_a_pair_never_kept_leaves_recall_unchanged(real_store, older, newer, question):
    pair(real_store, older, newer)
    before = recalled(real_store, question)
    consolidate(real_store)
    assert real_store.review("a", ["proj"]).contradictions == []
    assert recalled(real_store, question) == before
    assert all(by is None for _, _, by in before)


@pytest.mark.parametrize(("older", "newer", "question", "replaced"), [
    ("The staging cluster has 4 nodes running in Frankfurt.", "The staging cluster now has 6 nodes.",
     "Is the staging cluster in Frankfurt?", "Does the staging cluster have 4 nodes?"),
    ("The billing service listens on port 8001 and runs on host bill-1.",
     "The billing service now listens on port 8002.", "Does the billing service run on bill-1?",
     "Does the billing service listen on port 8001?"),
    ("The API gateway runs Kong 3.4 in eu-west-1.", "The API gateway now runs Kong 3.6.",
     "Does the API gateway run in eu-west-1?", "Does the API gateway run Kong 3.4?"),
])
def test_a_kept_pair_leaves_the_older_first_for_a_value_only_it_holds_and_marks_it_for_the_replaced_one(
        real_store, older, newer, question, replaced):
    """A kept pair is read by the same tests as a pair of hits: a question naming a value beside the one replaced
    asks of what only the older speaks of (``contradiction.only_older``)."""
    old, new = pair(real_store, older, newer)
    consolidate(real_store)
    assert [(o, n) for o, n, _ in real_store.review("a", ["proj"]).contradictions] == [(old, new)]
    first, *_ = recalled(real_store, question)
    assert first[0] == old and first[2] is None
    hits = {memory_id: by for memory_id, _, by in recalled(real_store, replaced)}
    assert next(iter(hits)) == new and hits[old] == new
