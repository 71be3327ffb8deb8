"""remember's checks that need no vector run while the memory is embedded: a repeat is
answered without waiting for the embedding, and racing remembers of one content or one
idempotency key still store one memory (on PostgreSQL the write transaction is open
during the embedding; on SQLite a read looks for the repeat, the write checks again)."""

from __future__ import annotations

import threading

import pytest
from fakes import FakeEmbedder

from memvault.storage import maintenance
from memvault.storage.embeddings import Embedded
from memvault.storage.errors import Conflict, InvalidInput
from memvault.storage.store import EMBEDDING_THREADS
from memvault.storage.store import Store

pytestmark = pytest.mark.contract

HANG_GUARD_S = 30  # a gated embedding gives up after this; a test that waited for it fails


class GatedEmbedder(FakeEmbedder):
    """A fake embedder whose embeddings wait for ``gate`` while ``gated``; ``waited_out``
    counts those that gave up waiting (the caller was waiting for them)."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.gated = False
        self.waited_out = 0
        self.begun: list[str] = []  # the first text of each embedding begun

    def embed_as(self, texts: list[str]) -> Embedded:
        self.begun.append(texts[0])
        if self.gated and not self.gate.wait(HANG_GUARD_S):
            self.waited_out += 1
        return super().embed_as(texts)


@pytest.fixture
def gated(db: str):
    embedder = GatedEmbedder()
    store = Store(db, embedder)  # type: ignore[arg-type]
    yield store, embedder
    embedder.gate.set()
    store.close()


def current_memories(store: Store, tenant: str = "a") -> int:
    return sum(maintenance.stats(store)["by_scope"].get(tenant, {}).values())  # type: ignore[union-attr]


@pytest.mark.parametrize("key", [None, "retry-7"])
def test_a_repeat_is_answered_while_its_embedding_still_runs(gated, key):
    store, embedder = gated
    first = store.remember(tenant="a", scope="s", content="The deploy window is Tuesday 14:00", idempotency_key=key)
    embedder.gated = True
    again = store.remember(tenant="a", scope="s", content="The deploy  window is Tuesday 14:00", idempotency_key=key)
    assert not embedder.gate.is_set() and embedder.waited_out == 0  # answered before the embedding ended
    assert again.id == first.id and not again.created
    assert (again.duplicate_of == first.id) is (key is None)  # a key replays; content alone is confirmed
    assert store.get(tenant="a", id=first.id).confirmations == (1 if key is None else 0)
    assert current_memories(store) == 1


def test_a_key_used_for_other_content_is_refused_while_the_embedding_still_runs(gated):
    store, embedder = gated
    store.remember(tenant="a", scope="s", content="The staging database is db-2", idempotency_key="k1")
    embedder.gated = True
    with pytest.raises(Conflict, match="k1"):
        store.remember(tenant="a", scope="s", content="The staging database is db-3", idempotency_key="k1")
    assert embedder.waited_out == 0
    assert current_memories(store) == 1


@pytest.mark.parametrize("case", ["repeat", "secret"])
def test_a_repeated_or_refused_memory_drops_its_embedding_while_it_waits_for_a_thread(gated, case):
    store, embedder = gated
    store.remember(tenant="a", scope="s", content="The VPN needs the hardware token")
    embedder.gated = True
    busy = [threading.Thread(target=store.remember, kwargs={"tenant": "a", "scope": "s", "content": f"Fact {i}"})
            for i in range(EMBEDDING_THREADS)]  # every embedding thread waits on the gate
    for t in busy:
        t.start()
    while len(embedder.begun) < 1 + EMBEDDING_THREADS:
        threading.Event().wait(0.01)
    if case == "repeat":
        store.remember(tenant="a", scope="s", content="The VPN needs the hardware token")
    else:
        with pytest.raises(InvalidInput):
            store.remember(tenant="a", scope="s", content="The VPN key is AKIAQYLPMN5HFIQR7BZX")
    embedder.gate.set()
    for t in busy:
        t.join()
    assert current_memories(store) == 1 + EMBEDDING_THREADS
    store.close()  # every embedding begun has ended
    assert len(embedder.begun) == 1 + EMBEDDING_THREADS  # none for the repeated or refused memory


def test_a_new_memory_is_stored_with_its_vector_once_the_embedding_ends(gated):
    store, embedder = gated
    embedder.gated = True
    done: list[object] = []
    writer = threading.Thread(target=lambda: done.append(
        store.remember(tenant="a", scope="s", content="Backups run nightly at 02:00")))
    writer.start()
    writer.join(0.2)
    assert not done  # a new memory waits for its vector
    embedder.gate.set()
    writer.join()
    [outcome] = done
    assert outcome.created and outcome.degraded is None  # type: ignore[attr-defined]
    assert maintenance.stats(store)["vectors_pending"] == 0
    hits = store.recall(tenant="a", query="when do backups run", scopes=["s"]).hits
    assert [h.memory.id for h in hits] == [outcome.id]  # type: ignore[attr-defined]


def race(store: Store, calls: list[dict[str, str | None]]) -> list[object]:
    """Run one remember per entry of ``calls`` in its own thread, all released at once;
    each result is the outcome or the exception raised."""
    barrier = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def remember(i: int) -> None:
        barrier.wait()
        try:
            results[i] = store.remember(tenant="a", scope="s", **calls[i])  # type: ignore[arg-type]
        except Conflict as exc:
            results[i] = exc

    threads = [threading.Thread(target=remember, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_remembers_of_one_content_racing_store_one_memory_and_count_the_others(gated):
    store, embedder = gated
    embedder.gated = True
    threading.Timer(0.05, embedder.gate.set).start()  # every writer in flight before any embedding ends
    outcomes = race(store, [{"content": "The on-call phone is in the top drawer"}] * 6)
    created = [o for o in outcomes if o.created]  # type: ignore[attr-defined]
    assert len(created) == 1
    assert {o.id for o in outcomes} == {created[0].id}  # type: ignore[attr-defined]
    assert all(o.duplicate_of == created[0].id for o in outcomes if o is not created[0])  # type: ignore[attr-defined]
    assert store.get(tenant="a", id=created[0].id).confirmations == 5
    assert current_memories(store) == 1


def test_remembers_with_one_idempotency_key_racing_store_one_memory(gated):
    store, embedder = gated
    embedder.gated = True
    threading.Timer(0.05, embedder.gate.set).start()
    contents = ["Release 4.2 ships on Friday", "Release 4.2 ships on Monday"] * 3
    outcomes = race(store, [{"content": c, "idempotency_key": "release-note"} for c in contents])
    stored = [o for o in outcomes if not isinstance(o, Conflict)]
    created = [o for o in stored if o.created]  # type: ignore[attr-defined]
    assert len(created) == 1 and {o.id for o in stored} == {created[0].id}  # type: ignore[attr-defined]
    winner = store.get(tenant="a", id=created[0].id).content
    for content, outcome in zip(contents, outcomes, strict=True):  # the other content is refused, naming the key
        assert isinstance(outcome, Conflict) is (content != winner)
        assert not isinstance(outcome, Conflict) or "release-note" in str(outcome)
    assert current_memories(store) == 1
