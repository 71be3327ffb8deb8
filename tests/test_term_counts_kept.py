"""A writer's keyword statistics (each index term's document count, the memories' index terms, the
keyword search they bound) stay those of the store after its own writes, which the SQLite writer
applies to what it keeps rather than reading them again: remember, an episode continuing another,
supersede, forget (of an episode's context too), a write rolled back, and a rebuild of the index."""

from __future__ import annotations

import pytest
import searching

from memvault.storage import maintenance
from memvault.storage.backend import NewRow
from memvault.storage.query import Filters, query_chunks
from memvault.storage.sqlite import tx as sqlite_tx
from memvault.storage.store import Store

pytestmark = pytest.mark.contract
WORDS = ["deploy", "staging", "friday", "weather", "harbour"]
QUESTION = "deploy staging friday weather"


@pytest.fixture
def filled(store: Store, monkeypatch) -> tuple[Store, list[str]]:
    monkeypatch.setattr(sqlite_tx, "KEYWORD_RANKED", 4)  # the bound taken, as at 100,000 memories
    monkeypatch.setattr(sqlite_tx, "KEYWORD_NEWEST", 3)
    texts = [f"the weather over the harbour on day {i}" for i in range(6)]
    texts += ["We deploy staging on Friday", "Staging deploys wait for the weather report"]
    ids = [store.remember(tenant="t", scope="s", content=text).id for text in texts]
    ids += [store.remember(tenant="t", scope="s", kind="episode", content="We talked about the friday deploy",
                           observed_at="2026-01-01T10:00:00Z").id]
    return store, ids


def statistics(store: Store, tx, ids: list[str]) -> tuple:  # type: ignore[no-untyped-def]
    seqs = sorted(tx.memories("t", ids=ids))
    filters = Filters(tenant="t", scopes=["s"], now=store.clock())
    return (searching.term_counts(tx, WORDS), searching.document_terms(tx, seqs),
            searching.keyword(tx, filters, query_chunks(QUESTION), 5))


def every_id(store: Store) -> list[str]:
    return [m.id for m in store.list_memories(tenant="t", scopes=["s"], limit=50, include_history=True)]


def kept_and_read(store: Store) -> tuple[tuple, tuple]:
    """The writer's statistics (kept across its writes) and a reader's (read after the writer's commit)."""
    ids = every_id(store)
    with store.backend.write("t") as tx:
        kept = statistics(store, tx, ids)
    with store.backend.read("t") as tx:
        read = statistics(store, tx, ids)
    return kept, read


def deploys(store: Store) -> int:
    with store.backend.read("t") as tx:
        documents, counts = searching.term_counts(tx, ["deploy"])
    return sum(counts.values())


def remember(store: Store, ids: list[str]) -> None:
    store.remember(tenant="t", scope="s", content="We deploy production on Friday too")


def continue_episode(store: Store, ids: list[str]) -> None:
    store.remember(tenant="t", scope="s", kind="episode", content="and the staging deploy went fine",
                   observed_at="2026-01-01T10:05:00Z")


def supersede(store: Store, ids: list[str]) -> None:
    store.supersede(tenant="t", id=ids[6], content="We deploy staging on Monday")


def forget(store: Store, ids: list[str]) -> None:
    store.forget(tenant="t", id=ids[6])


def forget_a_context(store: Store, ids: list[str]) -> None:
    continue_episode(store, ids)
    kept_and_read(store)  # the writer holds the follower's terms, its context's among them
    store.forget(tenant="t", id=ids[8])


def roll_back(store: Store, ids: list[str]) -> None:
    with pytest.raises(RuntimeError), store.backend.write("t") as tx:
        tx.insert(NewRow(id="0" * 26, tenant="t", scope="s", kind="fact", content="deploy deploy staging",
                         content_hash="h", tags=(), importance=5, source=None, observed_at=store.clock(),
                         recorded_at=store.clock(), tokens=3))
        statistics(store, tx, ids)  # read while the row is there
        raise RuntimeError("rolled back")


# (write, how many more memories hold "deploy" after it: a superseded one keeps its words for history)
WRITES = [(remember, 1), (continue_episode, 1), (supersede, 1), (forget, -1), (forget_a_context, 0), (roll_back, 0)]


@pytest.mark.parametrize("write,more", WRITES, ids=[w.__name__ for w, _ in WRITES])
def test_a_writers_keyword_statistics_stay_the_stores_after_its_own_writes(filled, write, more):
    store, ids = filled
    kept, read = kept_and_read(store)  # the writer holds them now
    assert kept == read
    before = deploys(store)
    write(store, ids)
    kept, read = kept_and_read(store)
    assert kept == read
    assert deploys(store) == before + more
    assert read[2], "the keyword search finds the owner's memories"


def test_a_rebuilt_keyword_index_is_read_again(filled, backend):
    if backend != "sqlite":
        pytest.skip("PostgreSQL keeps no index to rebuild")
    store, ids = filled
    kept_and_read(store)
    remember(store, ids)
    maintenance.own(store).rebuild_keyword_index()
    kept, read = kept_and_read(store)
    assert kept == read and deploys(store) == 4
