"""A pair ``remember`` (or ``supersede``) finds disagreeing is kept in the same transaction as the new memory
(``consolidate.keep``): the very next review, boot or recall reads it, however long the store's worker is busy
(a damage check of a large file, a consolidation turn). Kept on the worker, a review waited at most 2 s and
then read the pair as not there (speed64: ``test_contradiction_moves`` failed once at load 25)."""

from __future__ import annotations

import threading

import pytest

from memvault.storage.store import Store

pytestmark = pytest.mark.contract
CHANGES = [  # (older, newer): each a change of one fact
    ("The standup is at 9:15 every morning.", "The standup now happens at 10:30."),
    ("Our CI runs on Jenkins.", "We retired Jenkins for GitHub Actions."),
    ("The on-call tool is PagerDuty.", "We dropped PagerDuty for Opsgenie."),
]


@pytest.fixture
def busy_store(db: str, real_embedder, clock):  # type: ignore[no-untyped-def]
    """A server's store (pairs kept at once) whose worker is held on a job until the test ends."""
    s = Store(db, real_embedder, clock=clock)
    s.upkeep.schedule_consolidation(0, 1_000_000)
    release = threading.Event()
    s.worker.submit("held", release.wait)
    yield s
    release.set()
    s.close()


@pytest.mark.parametrize(("older", "newer"), CHANGES)
def test_a_pair_remember_found_is_read_at_once_while_the_worker_is_busy(busy_store, older, newer):
    first = busy_store.remember(tenant="t", scope="p", kind="fact", content=older).id
    second = busy_store.remember(tenant="t", scope="p", kind="fact", content=newer)
    assert [i for i, _ in second.contradicts] == [first]
    pairs = busy_store.review("t", ["p"]).contradictions
    assert [(o, n) for o, n, _ in pairs] == [(first, second.id)]
    assert busy_store.outdating("t", ["p"], [busy_store.get(tenant="t", id=first)]) == {first: second.id}


def test_a_pair_supersede_found_is_read_at_once_while_the_worker_is_busy(busy_store):
    older, newer = CHANGES[0]
    first = busy_store.remember(tenant="t", scope="p", kind="fact", content=older).id
    draft = busy_store.remember(tenant="t", scope="p", kind="fact", content="The retro is on Fridays.").id
    replaced = busy_store.supersede(tenant="t", id=draft, content=newer)
    assert [i for i, _ in replaced.contradicts] == [first]
    assert busy_store.outdating("t", ["p"], [busy_store.get(tenant="t", id=first)]) == {first: replaced.id}


def test_a_store_without_consolidation_keeps_no_pair(db, real_embedder, clock):
    """A store nothing consolidates (the CLI's) names the contradiction and keeps no pair, as before."""
    s = Store(db, real_embedder, clock=clock)
    older, newer = CHANGES[1]
    first = s.remember(tenant="t", scope="p", kind="fact", content=older).id
    second = s.remember(tenant="t", scope="p", kind="fact", content=newer)
    kept = s.review("t", ["p"]).contradictions
    s.close()
    assert [i for i, _ in second.contradicts] == [first]
    assert kept == []
