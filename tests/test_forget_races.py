"""forget decides on what it has locked: a forget of a whole history racing a supersede of
its newest version, and two forgets of one memory, end as one of their serial orders (two
stores on one database, as two servers would be; SQLite serialises its writers, PostgreSQL
relies on the write transaction locking each row before reading it)."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from fakes import FakeEmbedder

from memvault.storage.errors import Conflict
from memvault.storage.store import Store

pytestmark = pytest.mark.contract
ROUNDS = 60


def together(*calls: Callable[[], object]) -> list[object]:
    """Run ``calls`` on threads started at the same moment; each one's result or exception."""
    start = threading.Barrier(len(calls))
    out: list[object] = [None] * len(calls)

    def run(i: int) -> None:
        start.wait()
        try:
            out[i] = calls[i]()
        except Exception as exc:  # the outcome under test: kept, asserted on by the test
            out[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


@pytest.fixture
def two_stores(db: str):
    first, second = Store(db, FakeEmbedder()), Store(db, FakeEmbedder())  # type: ignore[arg-type]
    yield first, second
    first.close()
    second.close()


def test_forgetting_a_history_while_its_newest_version_is_superseded_ends_in_a_serial_order(two_stores):
    one, two = two_stores
    for n in range(ROUNDS):
        first = one.remember(tenant="t", scope="s", content=f"round {n}: the build runs on runner-a")
        second = one.supersede(tenant="t", id=first.id, content=f"round {n}: the build runs on runner-b")
        forgot, superseded = together(
            lambda: one.forget(tenant="t", id=first.id, include_history=True),
            lambda: two.supersede(tenant="t", id=second.id, content=f"round {n}: the build runs on runner-c"),
        )
        assert not isinstance(forgot, Exception), forgot
        chain = one.history(tenant="t", id=first.id)
        if isinstance(superseded, Exception):
            # Forget first: the supersede found the newest version forgotten.
            assert isinstance(superseded, Conflict), superseded
            assert [m.id for m in chain] == [first.id, second.id]
            assert sorted(forgot.forgotten_ids) == sorted([first.id, second.id])  # type: ignore[union-attr]
        else:
            # Supersede first: the forget saw, and forgot, the version it added.
            assert [m.id for m in chain] == [first.id, second.id, superseded.id]  # type: ignore[union-attr]
            assert sorted(forgot.forgotten_ids) == sorted(m.id for m in chain)  # type: ignore[union-attr]
        assert all(m.forgotten_at is not None and m.content is None for m in chain), n
        assert not one.recall(tenant="t", query=f"round {n} build runner", scopes=["s"]).hits


def test_of_two_forgets_of_one_memory_exactly_one_says_it_forgot(two_stores):
    one, two = two_stores
    for n in range(ROUNDS):
        memory = one.remember(tenant="t", scope="s", content=f"round {n}: the on-call phone is with Dana")
        results = together(lambda: one.forget(tenant="t", id=memory.id), lambda: two.forget(tenant="t", id=memory.id))
        assert not any(isinstance(r, Exception) for r in results), results
        assert sorted(r.already_forgotten for r in results) == [False, True], n  # type: ignore[union-attr]
        assert sorted(len(r.forgotten_ids) for r in results) == [0, 1], n  # type: ignore[union-attr]


def test_forget_says_scrubbed_only_where_the_text_left_every_file_of_the_database(store, backend):
    memory = store.remember(tenant="t", scope="s", content="The alarm code is kept by Dana")
    assert store.forget(tenant="t", id=memory.id).scrubbed is False  # the scrub runs in the background
    assert store.upkeep.scrub()
    again = store.forget(tenant="t", id=memory.id)
    # PostgreSQL keeps the text in pg_wal (and vectors in the HNSW index) until it recycles them.
    assert again.already_forgotten and again.scrubbed is (backend == "sqlite")
