"""The server's lifespan state: the store, opened lazily, and calls run off the event loop.

Nothing heavy happens at import or at start-up: the server answers ``initialize``
and ``tools/list`` at once, while a background thread opens the database and
loads the model. Tool calls that arrive earlier wait for that on a worker thread.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import anyio.to_thread

from .config import Config

if TYPE_CHECKING:
    from memvault.storage.store import Store
    from memvault.tools.handlers import Caller

log = logging.getLogger(__name__)
T = TypeVar("T")
WARM_UP_DELAY_S = 0.5


class Runtime:
    """Holds one :class:`Store` for the process and runs work on worker threads.

    The store's own lock gives its connection to one thread at a time; the
    embedding model runs outside that lock, so calls overlap where they can.
    """

    def __init__(self, config: Config) -> None:
        self.config = config
        self._store: Store | None = None
        self._lock = threading.Lock()
        self._closed = threading.Event()

    def store(self) -> Store:
        """The store, opened on first use (blocking: call from a worker thread).

        Raises:
            StoreError: the database cannot be opened or is from a newer memvault.
        """
        with self._lock:
            if self._store is None:
                from memvault.storage.embeddings import Embedder
                from memvault.storage.store import Store

                self._store = Store(
                    self.config.db, Embedder(self.config.model_dir), allow_secrets=self.config.allow_secrets,
                    busy_timeout_ms=self.config.busy_timeout_ms,
                )
                log.info("memvault database %s opened (model: %s)", self.config.db, self.config.model_dir or "packaged")
            return self._store

    def caller(self) -> Caller:
        """The tenant and default scope of this process."""
        from memvault.tools.handlers import Caller

        return Caller(tenant=self.config.tenant, scope=self.config.scope)

    async def call(self, fn: Callable[..., T], **kwargs: Any) -> T:
        """Run ``fn(store, caller, **kwargs)`` on a worker thread and return its result."""

        def work() -> T:
            return fn(self.store(), self.caller(), **kwargs)

        return await anyio.to_thread.run_sync(work)

    def start_warm_up(self) -> None:
        """Open the store, load the model and fill pending vectors in the background.

        Waits ``WARM_UP_DELAY_S`` first so that the imports do not compete with
        the client's ``initialize`` for the CPU.
        """
        threading.Thread(target=self._warm_up, name="memvault-warm-up", daemon=True).start()

    def _warm_up(self) -> None:
        if self._closed.wait(WARM_UP_DELAY_S):
            return
        try:
            store = self.store()
            reason = store.vector_status()
            if reason is not None:
                log.warning("memvault runs degraded: %s", reason)
                return
            from memvault.storage.maintenance import fill_pending

            filled = fill_pending(store)
            if filled:
                log.info("filled %d pending vectors", filled)
        except Exception:  # a warm-up failure must not kill the server; calls will report it
            log.exception("memvault warm-up failed")

    def close(self) -> None:
        """Stop the warm-up if it has not started and close the store."""
        self._closed.set()
        with self._lock:
            if self._store is not None:
                self._store.close()
                self._store = None

