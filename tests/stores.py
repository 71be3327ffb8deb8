"""Stores the recall tests build from a few texts."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

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
