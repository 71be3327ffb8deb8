"""A recall's two sides read two transactions on SQLite (the vector side on the thread that
embeds the question): a commit between them never shows a memory that was not a candidate in
the recall's own snapshot, and every filter holds for candidates read in the other one."""

from __future__ import annotations

import searching

import itertools

import numpy as np
import pytest

from fakes import FakeEmbedder
from memvault.storage.candidates import admits
from memvault.storage.query import Filters
from memvault.storage.store import Store


class CommittingEmbedder(FakeEmbedder):
    """Runs ``during`` (once) while it embeds a question, i.e. after the recall's own snapshot
    was taken and before its vector side reads."""

    def __init__(self) -> None:
        self.during = None

    def embed(self, texts: list[str]) -> np.ndarray:
        action, self.during = self.during, None
        if action is not None:
            action()
        return super().embed(texts)


@pytest.fixture
def pair(db_path, clock):
    embedder = CommittingEmbedder()
    mine = Store(db_path, embedder, clock=clock)  # type: ignore[arg-type]
    other = Store(db_path, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]  # as another process
    yield mine, other, embedder
    mine.close()
    other.close()


def ids(outcome) -> list[str]:  # type: ignore[no-untyped-def]
    return [h.memory.id for h in outcome.hits]


def test_a_memory_remembered_between_the_two_reads_is_not_shown(pair):
    mine, other, embedder = pair
    kept = mine.remember(tenant="t", scope="s", content="the harbour crane lifts containers").id
    new: list[str] = []
    embedder.during = lambda: new.append(other.remember(tenant="t", scope="s", content="harbour crane schedule").id)
    found = mine.recall(tenant="t", query="harbour crane schedule", scopes=["s"], limit=5)
    assert new and ids(found) == [kept]
    assert new[0] in ids(mine.recall(tenant="t", query="harbour crane schedule", scopes=["s"], limit=5))


@pytest.mark.parametrize("change", ["forget", "supersede"])
def test_a_memory_changed_between_the_two_reads_is_answered_as_of_the_recalls_snapshot(pair, change):
    mine, other, embedder = pair
    old = mine.remember(tenant="t", scope="s", content="the build server runs on port 8080").id

    def commit() -> None:
        if change == "forget":
            other.forget(tenant="t", id=old)
        else:
            other.supersede(tenant="t", id=old, content="the build server runs on port 9090")

    embedder.during = commit
    found = mine.recall(tenant="t", query="build server port", scopes=["s"], limit=5)
    assert ids(found) == [old]  # current in the recall's snapshot, which knows no successor
    after = mine.recall(tenant="t", query="build server port", scopes=["s"], limit=5)
    assert old not in ids(after) and len(ids(after)) == (change == "supersede")


def test_admits_agrees_with_the_filters_of_the_candidate_queries(store, clock):
    made = []
    for i, (scope, kind, tags) in enumerate(itertools.product(["a", "b"], ["fact", "episode"], [[], ["x"], ["x", "y"]])):
        made.append(store.remember(tenant="t", scope=scope, kind=kind, tags=tags, content=f"note {i} about lakes",
                                   observed_at=f"2025-0{1 + i % 9}-01T00:00:00Z").id)
    store.remember(tenant="u", scope="a", content="another tenant's note about lakes")
    store.supersede(tenant="t", id=made[0], content="note 0 about lakes, corrected")
    store.forget(tenant="t", id=made[1])
    store.remember(tenant="t", scope="a", content="expiring note about lakes", expires_at="2026-01-01T00:30:00Z")
    clock.advance(3600)
    cases = [
        Filters(tenant="t", scopes=["a"], now=clock()),
        Filters(tenant="t", scopes=["a", "b"], now=clock(), include_history=True),
        Filters(tenant="t", scopes=["b"], now=clock(), kinds=["episode"], tags=["x"]),
        Filters(tenant="t", scopes=["a", "b"], now=clock(), tags=["x", "y"]),
        Filters(tenant="t", scopes=["a", "b"], now=clock(), since=1740787200000, until=1746057600000),
        Filters(tenant="u", scopes=["a"], now=clock()),
    ]
    with store.backend.read(None) as tx:
        everything = {**tx.memories("t", seqs=list(range(1, 100))), **tx.memories("u", seqs=list(range(1, 100)))}
        for filters in cases:
            passing = {m.id for m in searching.listed(tx, filters, "observed", None)}
            assert passing and {m.id for m in everything.values() if admits(filters, m)} == passing
