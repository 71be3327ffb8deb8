"""No call waits on another's write or on maintenance (issue 9): reads run beside an
open write transaction, ``forget`` returns before its scrub, and other calls answer
while the scrub runs. Events order the threads; the 30 s waits only stop a test
that would otherwise hang."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import pytest
from conftest import file_bytes

from memvault.storage import maintenance
from memvault.storage.sqlite import backend as sqlite_backend
from memvault.storage.store import Store

T = TypeVar("T")
GUARD_S = 30  # only ever reached when a call waits for what it must not wait for
MARKER = "wombatmarker4471"


def in_thread(call: Callable[[], T]) -> T:
    """``call()`` run on a new thread; fails the test if it does not return (it waits on a lock)."""
    done = threading.Event()
    out: list[T] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            out.append(call())
        except BaseException as exc:  # handed to the test's thread
            errors.append(exc)
        done.set()

    threading.Thread(target=run, daemon=True).start()
    assert done.wait(GUARD_S), "the call waited for another thread's transaction"
    if errors:
        raise errors[0]
    return out[0]


def recall_ids(store: Store, query: str) -> list[str]:
    return [h.memory.id for h in store.recall(tenant="a", query=query, scopes=["s"]).hits]


@pytest.mark.contract
def test_a_recall_answers_while_another_thread_holds_a_write_transaction_open(store):
    kept = store.remember(tenant="a", scope="s", content="The standup moves to 9:30 on Mondays")
    writing, release = threading.Event(), threading.Event()

    def hold_a_write() -> None:
        with store.backend.write("a") as tx:
            tx.confirm(kept.id, store.clock())
            writing.set()
            release.wait(GUARD_S)

    holder = threading.Thread(target=hold_a_write)
    holder.start()
    try:
        assert writing.wait(GUARD_S)
        assert in_thread(lambda: recall_ids(store, "standup on Mondays")) == [kept.id]
        assert in_thread(lambda: store.get(tenant="a", id=kept.id)).confirmations == 0  # not committed yet
    finally:
        release.set()
        holder.join()
    assert store.get(tenant="a", id=kept.id).confirmations == 1


@pytest.mark.contract
def test_a_reading_thread_sees_every_commit_made_before_its_read_began(store):
    reader = ThreadPoolExecutor(max_workers=1)  # one thread, so one reader connection, reused
    try:
        first = store.remember(tenant="a", scope="s", content="Invoices go out on the 3rd")
        assert reader.submit(recall_ids, store, "invoices").result() == [first.id]
        second = store.remember(tenant="a", scope="s", content="Invoices above 10k need two signatures")
        assert sorted(reader.submit(recall_ids, store, "invoices").result()) == sorted([first.id, second.id])
        store.forget(tenant="a", id=first.id)
        assert reader.submit(recall_ids, store, "invoices").result() == [second.id]
        assert reader.submit(lambda: store.get(tenant="a", id=first.id).content).result() is None
    finally:
        reader.shutdown()


@pytest.mark.sqlite_only
def test_a_reading_thread_finds_the_vectors_made_by_a_reindex(store):
    reader = ThreadPoolExecutor(max_workers=1)
    try:
        out = store.remember(tenant="a", scope="s", content="The backup disk sits in the hall cupboard")
        assert reader.submit(recall_ids, store, "where is the backup disk").result() == [out.id]
        assert maintenance.reindex(store) == 1  # drops and recreates the vec0 table meanwhile
        found = reader.submit(lambda: store.recall(tenant="a", query="backup disk", scopes=["s"])).result()
        assert [h.memory.id for h in found.hits] == [out.id] and found.degraded is None
        assert reader.submit(maintenance.check, store).result() == []
    finally:
        reader.shutdown()


@pytest.mark.sqlite_only
def test_forget_returns_before_its_scrub_and_other_calls_answer_while_it_runs(store, db_path, monkeypatch):
    secret = store.remember(tenant="a", scope="s", content=f"The safe opens with {MARKER}")
    kept = store.remember(tenant="a", scope="s", content="The plants need water on Fridays")
    scrubbing, finish = threading.Event(), threading.Event()
    real_scrub = sqlite_backend.scrub

    def held_scrub(conn, *args):  # a scrub that takes as long as the test wants
        scrubbing.set()
        assert finish.wait(GUARD_S)
        return real_scrub(conn, *args)

    monkeypatch.setattr(sqlite_backend, "scrub", held_scrub)
    result = in_thread(lambda: store.forget(tenant="a", id=secret.id))
    assert result.forgotten_ids == [secret.id] and result.scrubbed is False
    assert scrubbing.wait(GUARD_S)  # the scrub is running on the background thread
    assert in_thread(lambda: recall_ids(store, "plants water")) == [kept.id]
    assert in_thread(lambda: store.remember(tenant="a", scope="s", content="Fridays: also feed the fish")).created
    assert maintenance.stats(store)["scrub_pending"] is True
    finish.set()
    assert store.upkeep.scrub() and MARKER.encode() not in file_bytes(db_path)
    assert maintenance.stats(store)["scrub_pending"] is False and maintenance.check(store) == []
