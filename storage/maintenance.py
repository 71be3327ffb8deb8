"""Keeping a store healthy, above any backend: statistics, filling and rebuilding
vectors, consistency checks (``memvault doctor``). Export and import: ``transfer``.

The memories are the truth; keyword entries and vectors are derived from them.
Everything here works in short transactions, so it can run while servers use the
same database.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from .errors import ModelUnavailable
from .store import Store

Progress = Callable[[int, int], None]
REINDEX_UNDER_WAY = "reindex_model_id"  # setting: present while a reindex has vectors left to make


def stats(store: Store) -> dict[str, object]:
    """Counts over the whole database: memories by state and kind, tenants, pending vectors.

    ``current``, ``superseded`` and ``by_kind`` (current memories) leave out expired memories, counted apart in
    ``expired`` until they are erased (``Store.run_due_maintenance``);
    ``scrub_pending`` says forgotten bytes may still be in the files;
    ``by_scope``: ``{tenant: {scope: current memories}}``.
    """
    return store.backend.stats(store.clock())


def fill_pending(
    store: Store, progress: Progress | None = None, batch: int = 64, stop: threading.Event | None = None
) -> int:
    """Embed every memory whose vector is pending; returns how many got one.

    Embeds a batch outside any transaction, then writes it in one short
    transaction, re-checking each row (another process may have filled or
    forgotten it meanwhile). ``progress(done, total)`` runs after each batch.
    When ``stop`` is set, returns before the next batch (what was written stays).

    Raises:
        ModelUnavailable: the model cannot be used (the reason says why).
    """
    reason = store.vector_status()
    if reason is not None:
        raise ModelUnavailable(reason)
    assert store.embedder is not None
    # The whole count is only for the progress bar (the server's filler runs without one).
    total = int(store.backend.stats(store.clock())["vectors_pending"]) if progress else 0  # type: ignore[call-overload]
    done, last_seq = 0, 0
    while stop is None or not stop.is_set():
        with store.backend.read(None) as tx:
            rows = tx.pending(last_seq, batch)
        if not rows:
            return done
        last_seq = rows[-1][0]
        parts = [store.embedder.windows(content) for _, _, content in rows]
        made = store.embedder.embed_as([text for windows in parts for text in windows])
        with store.backend.write(None) as tx:
            start = 0
            for (seq, _, content), windows in zip(rows, parts, strict=True):
                vectors = store.writable_vectors(tx, made._replace(vectors=made.vectors[start : start + len(windows)]))
                if vectors is None:
                    raise ModelUnavailable("the database's model changed while filling vectors: run memvault reindex")
                start += len(windows)
                done += tx.set_vectors(seq, content, vectors)
        if progress is not None:
            progress(done, total)
    return done


def reindex(store: Store, progress: Progress | None = None) -> int:
    """Rebuild the keyword index and every vector with the store's current model (for the
    packaged model: its integer variant, also when the store's vectors came from the
    de-quantised one, see ``embeddings.Embedder.follow``).

    One transaction rebuilds the keyword index; the next drops every vector,
    records the current model, marks every memory pending and notes that a
    reindex is under way; then vectors are filled in batches (:func:`fill_pending`),
    each batch its own transaction. Interrupted (Ctrl-C, a crash), it leaves whole
    batches only, and the next call with the same model resumes with the memories
    still pending instead of starting over. Returns how many vectors were made.

    Raises:
        ModelUnavailable: the model cannot be loaded (the keyword index is rebuilt all the same).
    """
    store.backend.rebuild_keyword_index()
    if store.embedder is None:
        raise ModelUnavailable("no embedding model configured")
    store.embedder.follow(None)  # a store made by the de-quantised packaged model moves to the integer one
    store.embedder.load()
    assert store.embedder.model_id is not None and store.embedder.dim
    if store.backend.settings().get(REINDEX_UNDER_WAY) != store.embedder.model_id:
        store.backend.reset_vectors(store.embedder.model_id, store.embedder.dim)
        store.backend.put_setting(REINDEX_UNDER_WAY, store.embedder.model_id)
    made = fill_pending(store, progress)
    store.backend.put_setting(REINDEX_UNDER_WAY, None)
    return made


def check(store: Store) -> list[str]:
    """Every inconsistency found, as sentences; an empty list means healthy.

    The backend's own checks (its indexes against the memories, tombstones
    without content, supersession links complete both ways and without cycles,
    pending vectors), then: no scrub of forgotten bytes pending, no reindex left
    half done, and the recorded model is the one this process would use.
    """
    scrub_pending = store.scrub_pending()  # waits for a scrub running in the background first
    problems = store.backend.check()
    settings = store.backend.settings()
    if REINDEX_UNDER_WAY in settings:
        problems.append("a reindex was interrupted: run `memvault reindex` again to finish it")
    if scrub_pending:
        problems.append(
            "a scrub of forgotten content is pending (another connection held the database): "
            "forgotten text may remain in the file bytes until the next write or start-up"
        )
    reason = store.vector_status()
    if reason is not None:
        problems.append(reason)
    return problems
