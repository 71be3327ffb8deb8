"""Stores the recall tests build from a few texts."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from memvault.storage.contradiction import contradicts
from memvault.storage.ranking import SAME_SUBJECT
from memvault.storage.store import Store


def store_of(texts: list[str]) -> Callable[..., Iterator[Store]]:
    """A ``store`` fixture: the test's backend (``db``) with the real model, holding ``texts`` in
    tenant ``t``, scope ``p``."""

    @pytest.fixture
    def store(db: str, real_embedder) -> Iterator[Store]:  # type: ignore[no-untyped-def]
        s = Store(db, real_embedder)
        for text in texts:
            s.remember(tenant="t", scope="p", content=text)
        yield s
        s.close()

    return store


def remember_all(store: Store, memories: tuple[tuple[str, str, str], ...]) -> None:
    """Store each (content, kind, observed_at) of ``memories`` in tenant ``t``, scope ``proj``."""
    for content, kind, at in memories:
        store.remember(tenant="t", scope="proj", content=content, kind=kind, observed_at=at)


def recall_of(shared_store, memories, question: str, limit: int = 3):  # type: ignore[no-untyped-def]
    """``question`` recalled (tenant ``t``, scope ``proj``) from conftest's ``shared_store`` holding ``memories``
    (:func:`remember_all`)."""
    store, _ = shared_store(remember_all, tuple(memories))
    return store.recall(tenant="t", query=question, scopes=["proj"], limit=limit)


def pair_recalled(store: Store, old: str, new: str, question: str, older_at: str = "2026-03-01T10:00:00Z"):
    """``old`` (observed ``older_at``) then ``new`` (2026-10-01) remembered in tenant ``t``, scope ``p``, and
    ``question`` recalled: (the older's id, the newer's remember result, {hit id: its ``outdated_by``})."""
    older = store.remember(tenant="t", scope="p", content=old, observed_at=older_at).id
    newer = store.remember(tenant="t", scope="p", content=new, observed_at="2026-10-01T10:00:00Z")
    hits = {h.memory.id: h.outdated_by for h in store.recall(tenant="t", query=question, scopes=["p"]).hits}
    return older, newer, hits


def assert_outdates(store: Store, old: str, new: str, question: str, newer_first: bool = True) -> None:
    """:func:`pair_recalled`, then: ``remember`` of ``new`` names the older as contradicted, and recall marks
    the older outdated by the newer and leaves the newer unmarked (with ``newer_first``, the newer first)."""
    older, newer, hits = pair_recalled(store, old, new, question)
    assert [i for i, _ in newer.contradicts] == [older]
    assert hits[older] == newer.id and hits.get(newer.id) is None
    assert not newer_first or next(iter(hits)) == newer.id


def assert_apart(store: Store, old: str, new: str, question: str, older_at: str = "2026-03-01T10:00:00Z") -> None:
    """:func:`pair_recalled`, then: ``remember`` of ``new`` reports no contradiction and recall finds the older
    and marks neither."""
    older, newer, hits = pair_recalled(store, old, new, question, older_at)
    assert newer.contradicts == ()
    assert older in hits and hits[older] is None and hits.get(newer.id) is None


def cosine(embedder, a: str, b: str) -> float:  # type: ignore[no-untyped-def]
    """The cosine of two texts' vectors by ``embedder``."""
    vectors = embedder.embed([a, b])
    return float(vectors[0] @ vectors[1])


def flagged(embedder, old: str, new: str) -> str | None:  # type: ignore[no-untyped-def]
    """``contradicts`` of two memories at ``embedder``'s cosine (the packaged model's), as ``remember`` judges them."""
    return contradicts(old, new, cosine(embedder, old, new), SAME_SUBJECT)
