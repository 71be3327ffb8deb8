"""SQLite's remember searches similar memories in a read snapshot before its write and,
inside the write, checks only what changed since; its commits leave WAL checkpoints
to a thread of their own."""

from __future__ import annotations

import threading
import time

from fakes import FakeEmbedder

from memvault.storage.sqlite import checkpoint
from memvault.storage.store import Store

OLD = "the staging database runs on port 5433 behind the bastion host"
CLOSE = "the staging database runs on port 5433 behind the bastion host now"
HANG_GUARD_S = 30


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


def test_the_writer_leaves_checkpoints_to_a_thread_of_its_own(db_path, monkeypatch):
    monkeypatch.setattr(checkpoint, "CHECKPOINT_PAGES", 1)
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    try:
        backend = store.backend
        # The hook replaces SQLite's automatic checkpoint in the commit (which reports 0 then).
        assert backend._conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0  # type: ignore[attr-defined]
        threads: list[str] = []
        connect = backend._checkpointer._connect  # type: ignore[attr-defined]
        backend._checkpointer._connect = lambda: (threads.append(threading.current_thread().name), connect())[1]  # type: ignore[attr-defined]
        store.remember(tenant="a", scope="s", content=OLD)
        guard = time.monotonic() + HANG_GUARD_S
        while backend._checkpointer.done == 0 and time.monotonic() < guard:  # type: ignore[attr-defined]
            time.sleep(0.01)
        assert backend._checkpointer.done >= 1 and threads == ["memvault-checkpoint"]  # type: ignore[attr-defined]
    finally:
        store.close()
