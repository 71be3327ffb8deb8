"""SQLite's remember searches similar memories in a read snapshot before its write and,
inside the write, checks only what changed since; its commits leave WAL checkpoints
to the store's worker."""

from __future__ import annotations

import threading

from fakes import FakeEmbedder

from memvault.storage.maintenance import WORKER_THREAD
from memvault.storage.sqlite import backend as sqlite_backend
from memvault.storage.store import Store

OLD = "the staging database runs on port 5433 behind the bastion host"
CLOSE = "the staging database runs on port 5433 behind the bastion host now"


def between_search_and_write(store: Store, action):  # type: ignore[no-untyped-def]
    """Run ``action()`` once, after the next remember's snapshot search, before its write."""
    original = store._similar_seen
    done: list[object] = []
    begun: list[bool] = []

    def patched(*args):  # type: ignore[no-untyped-def]
        seen = original(*args)
        if not begun:  # not again for the remember that ``action`` may run
            begun.append(True)
            done.append(action())
        return seen

    store._similar_seen = patched  # type: ignore[method-assign]
    return done


def test_a_similar_memory_stored_after_the_snapshot_is_still_named(db_path):
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    try:
        store.remember(tenant="a", scope="s", content="an unrelated note about lunch")
        done = between_search_and_write(store, lambda: store.remember(tenant="a", scope="s", content=OLD).id)
        outcome = store.remember(tenant="a", scope="s", content=CLOSE)
        assert done and outcome.created and outcome.similar == (done[0],)
        done = between_search_and_write(store, lambda: store.remember(tenant="a", scope="s", content=OLD + " again"))
        asked = store.remember(tenant="a", scope="s", content=CLOSE + " today", check_similar=True)
        assert not asked.created and done[0].id in asked.similar  # check_similar sees it too
    finally:
        store.close()


def test_a_similar_memory_forgotten_after_the_snapshot_is_not_named(db_path):
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    try:
        old = store.remember(tenant="a", scope="s", content=OLD).id
        other_tenant = store.remember(tenant="b", scope="s", content=OLD).id
        done = between_search_and_write(store, lambda: store.forget(tenant="a", id=old))
        outcome = store.remember(tenant="a", scope="s", content=CLOSE)
        assert done and outcome.created and outcome.similar == ()
        assert other_tenant not in outcome.similar
    finally:
        store.close()


def test_the_writer_leaves_checkpoints_to_the_worker(db_path, monkeypatch):
    monkeypatch.setattr(sqlite_backend, "CHECKPOINT_PAGES", 1)
    threads: list[str] = []
    real = sqlite_backend.SqliteBackend.checkpoint
    monkeypatch.setattr(sqlite_backend.SqliteBackend, "checkpoint",
                        lambda self: (threads.append(threading.current_thread().name), real(self))[1])
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    try:
        # The hook replaces SQLite's automatic checkpoint in the commit (which reports 0 then).
        assert store.backend._conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0  # type: ignore[attr-defined]
        store.remember(tenant="a", scope="s", content=OLD)
        store.upkeep.scrub_pending()  # (after the jobs queued before it)
        assert threads and set(threads) == {WORKER_THREAD}
    finally:
        store.close()
