"""The memory service: what memvault means, above any database.

``Store`` holds the memory rules — validation and secret scanning, duplicates and
confirmations, idempotency keys, supersede and forget rules, expiry and scrubbing —
and hands reads to ``history`` (ids and supersession chains) and ``retrieval``
(recall: fusion and abstention in ``ranking``). It talks to a database only through
the narrow interface of ``backend``, one transaction per operation. ``open_backend``
picks SQLite for a file path and PostgreSQL for a ``postgresql://`` URL.

``Store`` is safe to call from several threads. Embedding never runs inside a write
that excludes other writers (SQLite's); where writers run at once (PostgreSQL), a
``remember``'s write transaction does its checks while the memory is embedded.

This module opens the store and assembles ``Store`` from its parts, one concern each:
``writes`` (the model's state, new rows and their vectors), ``remembering``
(``remember``), ``changes`` (``supersede``, ``forget``), ``upkeep`` (expiry, scrubs,
the vector index's upkeep) and ``reads`` (get, history, recall, listings, boot).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .backend import Backend
from .changes import Changes
from .embeddings import Embedder
from .errors import StoreError
from .limits import BUSY_TIMEOUT_MS
from .location import POSTGRES_INSTALL, is_url, postgres_extra_missing
from .reads import Reads
from .remembering import EMBEDDING_THREADS, Remembering
from .retrieval import Retriever
from .timefmt import now_ms


def open_backend(db: Path | str, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> Backend:
    """The backend for ``db``: PostgreSQL for a ``postgresql://`` (or ``postgres://``) URL,
    else the SQLite file at that path. PostgreSQL needs ``pip install "memvault[postgres]"``.

    Raises:
        StoreError: the database cannot be opened or is not memvault's (the message says why).
    """
    if is_url(db):
        missing = postgres_extra_missing()
        if missing:
            raise StoreError(f"PostgreSQL needs memvault's postgres extra ({', '.join(missing)} not installed): "
                             f"{POSTGRES_INSTALL}")
        from .postgres import PostgresBackend  # psycopg is imported only for PostgreSQL

        return PostgresBackend(str(db), busy_timeout_ms=busy_timeout_ms)
    from .sqlite import SqliteBackend

    return SqliteBackend(db, busy_timeout_ms=busy_timeout_ms)


class Store(Remembering, Changes, Reads):
    """The memory service: memories of many tenants in one database.

    Args:
        db: an SQLite file path (created with its folder, user-only permissions) or a
            ``postgresql://`` URL (see :func:`open_backend`).
        embedder: makes vectors; None runs keyword-only, every result saying so.
        clock: returns "now" in ms since the epoch; injectable for expiry tests.
        allow_secrets: store content that contains credentials (off: refused, see ``secrets``).
        busy_timeout_ms: how long a write waits for another connection's write lock.

    Every method takes the ``tenant`` explicitly: it is the hard isolation
    boundary, and no method reads or writes another tenant's rows. Times in and
    out of the public methods are ISO-8601 strings on input and ms on records.

    Raises (all methods): :class:`InvalidInput`, :class:`NotFound`,
    :class:`Conflict` as documented per method; :class:`StoreError` on open;
    :class:`Busy` / :class:`StorageUnavailable` when the database cannot take a write.
    """

    def __init__(
        self,
        db: Path | str,
        embedder: Embedder | None = None,
        *,
        clock: Callable[[], int] = now_ms,
        allow_secrets: bool = False,
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
    ) -> None:
        self.allow_secrets = allow_secrets
        self.embedder = embedder
        self.clock = clock
        self.backend = open_backend(db, busy_timeout_ms)
        with self.backend.read(None) as tx:
            recorded = tx.model()
            due = self._due(tx)
        if embedder is not None and recorded is not None:
            embedder.follow(recorded[0])
        self._retriever = Retriever(self.backend, embedder, self.model_problem, self.recorded_model_problem)
        self._background = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memvault-scrub")
        # A new memory is embedded here while its secrets and duplicates are checked.
        self._embedding = ThreadPoolExecutor(max_workers=EMBEDDING_THREADS, thread_name_prefix="memvault-embed-write")
        self._scrubbing = None
        self._scrub_retry_at = 0.0
        self._indexing = None
        self._closing = False
        self._run_due(due)
        self._index_in_background()

    def warm_up(self, stop: Callable[[], bool] = lambda: False) -> None:
        """Load what the first recall would otherwise wait for: the model (if it can
        load), the time-expression parser and the backend's vector index
        (``Backend.warm_up``, which gives up once ``stop()`` is true: a server stopping)."""
        self.vector_status()
        self._retriever.time.warm_up()
        self.backend.warm_up(stop)

    def close(self) -> None:
        """Finish a background scrub, then release the backend (the store cannot be used afterwards)."""
        self._closing = True  # the vector index's upkeep stops after its current step
        self._retriever.close()
        self._background.shutdown(wait=True)
        self._embedding.shutdown(wait=True)
        self.backend.close()
