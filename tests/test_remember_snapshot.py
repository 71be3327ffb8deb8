"""remember searches similar memories inside its write, once its vectors are made: what
another call commits while the memory is embedded is seen; its commits leave WAL
checkpoints to the store's worker."""

from __future__ import annotations

import threading


from fakes import FakeEmbedder

from memvault.storage.maintenance import WORKER_THREAD
from memvault.storage.sqlite import backend as sqlite_backend
from memvault.storage.store import Store

OLD = "the staging database runs on port 5433 behind the bastion host"
CLOSE = "the staging database runs on port 5433 behind the bastion host now"


class CommittingEmbedder(FakeEmbedder):
    """Runs ``during`` (once) while it embeds a memory: after remember's repeat check, before its write."""

    def __init__(self) -> None:
        self.during = None
        self.done: list[object] = []

    def embed_as(self, texts: list[str]):  # type: ignore[no-untyped-def]
        action, self.during = self.during, None
        if action is not None:
            self.done.append(action())
        return super().embed_as(texts)


def test_a_similar_memory_stored_while_embedding_is_still_named(db_path):
    embedder = CommittingEmbedder()
    store = Store(db_path, embedder)  # type: ignore[arg-type]
    try:
        store.remember(tenant="a", scope="s", content="an unrelated note about lunch")
        embedder.during = lambda: store.remember(tenant="a", scope="s", content=OLD).id
        outcome = store.remember(tenant="a", scope="s", content=CLOSE)
        assert embedder.done and outcome.created and outcome.similar == (embedder.done[0],)
        embedder.during = lambda: store.remember(tenant="a", scope="s", content=OLD + " again").id
        asked = store.remember(tenant="a", scope="s", content=CLOSE + " today", check_similar=True)
        assert not asked.created and embedder.done[1] in asked.similar  # check_similar sees it too
    finally:
        store.close()


def test_a_similar_memory_forgotten_while_embedding_is_not_named(db_path):
    embedder = CommittingEmbedder()
    store = Store(db_path, embedder)  # type: ignore[arg-type]
    try:
        old = store.remember(tenant="a", scope="s", content=OLD).id
        other_tenant = store.remember(tenant="b", scope="s", content=OLD).id
        embedder.during = lambda: store.forget(tenant="a", id=old)
        outcome = store.remember(tenant="a", scope="s", content=CLOSE)
        assert embedder.done and outcome.created and outcome.similar == ()
        assert other_tenant not in outcome.similar
        assert store.remember(tenant="b", scope="s", content=CLOSE).similar == (other_tenant,)  # its owner's is named
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
