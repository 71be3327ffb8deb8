"""The server's lifespan state: the store, opened lazily, its worker, and calls run off the event loop.

Nothing heavy happens at import or at start-up: the server answers ``initialize``
and ``tools/list`` at once, while the store's worker (``maintenance.Worker``) opens the
database, loads the model and then keeps pending vectors filled. Tool calls that
arrive earlier wait for the store on a thread of anyio's.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import anyio.to_thread

from memvault.storage.errors import MemvaultError, StoreError
from memvault.storage.maintenance import Worker

from .config import Config

if TYPE_CHECKING:
    from memvault.storage.store import Store
    from memvault.tools.handlers import Caller

    from .auth import Identity

log = logging.getLogger(__name__)
T = TypeVar("T")
WARM_UP_DELAY_S = 0.5
ROUND = "the server's maintenance round"  # the worker's job (and log) name
FILL_BATCH = 16  # memories embedded per batch: shutdown waits for at most one batch


class Runtime:
    """Holds one :class:`Store` for the process and its worker, and runs calls on anyio's threads.

    The worker's round (:meth:`_round`) opens the store, then erases and scrubs what
    is due and fills pending vectors (memories stored while no model was usable, here
    or by another process on the same file) in small batches: at start, every
    ``config.fill_interval_s`` seconds, and soon after a call whose result was degraded.
    :meth:`close` waits for calls in flight, lets the worker finish the job it runs (a
    fill stops between two batches), then closes the store, so no model or SQLite work
    runs while the process shuts down.
    """

    def __init__(self, config: Config, authenticated: bool = False) -> None:
        self.config = config
        self.authenticated = authenticated
        self.vector_reason: str | None = "not checked yet"
        self.open_error: str | None = None  # why the database could not be opened, last time it was tried
        self._store: Store | None = None
        self.worker = Worker()
        self._closing = False
        self._calls = 0
        self._idle = threading.Condition()  # close() waits for calls in flight: a store closed under one fails it

    def store(self) -> Store:
        """The store, opened on first use, on the worker (so by one thread: blocking, call it
        off the event loop).

        Raises:
            StoreError: the database cannot be opened or is from a newer memvault,
                or the server is shutting down.
        """
        if self._closing:
            raise StoreError("the server is shutting down")
        return self._store or self.worker.run(self._open)

    def _open(self) -> Store:
        if self._store is None:
            from memvault.storage.embeddings import Embedder
            from memvault.storage.store import Store

            try:
                self._store = Store(
                    self.config.db, Embedder(self.config.model_dir), allow_secrets=self.config.allow_secrets,
                    busy_timeout_ms=self.config.busy_timeout_ms, worker=self.worker,
                )
            except MemvaultError as exc:
                self.open_error = str(exc)
                raise
            self.open_error = None
            self._store.upkeep.start_warm_up()
            log.info("memvault database %s opened (model: %s)", self.config.db_label, self.config.model_dir or "packaged")
        return self._store

    def identity(self) -> Identity:
        """Who makes the current request: with authentication on, the identity of the
        request's verified token (``get_access_token()``, a per-request context
        variable); otherwise the tenant and scope of this process (stdio, ``--auth none``).

        Raises:
            NotAuthenticated: authentication is on and the request carries no verified token.
        """
        from mcp.server.auth.middleware.auth_context import get_access_token

        from .auth import Identity, NotAuthenticated, identity_of

        if not self.authenticated:
            return Identity(tenant=self.config.tenant, scope=self.config.scope)
        token = get_access_token()
        if token is None:
            raise NotAuthenticated("this request carries no verified token; nothing was read or written")
        return identity_of(token)

    def caller(self) -> Caller:
        """The tenant and default scope of the current request (see :meth:`identity`)."""
        from memvault.tools.handlers import Caller

        identity = self.identity()
        return Caller(tenant=identity.tenant, scope=identity.scope)

    async def call(self, fn: Callable[..., T], writes: bool = False, **kwargs: Any) -> T:
        """Run ``fn(store, caller, **kwargs)`` on a worker thread and return its result,
        ``caller`` being the current request's.

        A result with a ``degraded`` reason asks the worker for a round (:meth:`_round`) soon.

        Raises:
            ReadOnly: ``writes`` and the caller is read-only (``fn`` is not run).
            NotAuthenticated: see :meth:`identity`.
        """
        from .auth import ReadOnly

        if writes and self.identity().read_only:  # over HTTP such a call got 403 first (auth.missing_scope)
            raise ReadOnly("this caller lacks the memvault:write scope (a read-only API key or token): it may recall "
                           "and read resources, not remember, supersede or forget; nothing was written")
        caller = self.caller()

        def work() -> T:
            with self._idle:
                self._calls += 1
            try:
                return fn(self.store(), caller, **kwargs)
            finally:
                with self._idle:
                    self._calls -= 1
                    self._idle.notify_all()

        result = await anyio.to_thread.run_sync(work)
        if getattr(result, "degraded", None):
            self.worker.submit(ROUND, self._round)
        return result

    def start_warm_up(self) -> None:
        """Start the worker's rounds: the first, ``WARM_UP_DELAY_S`` from now (so that the
        imports do not compete with the client's ``initialize`` for the CPU), opens the store
        and warms it up (the model, the time parser, the vector index)."""
        self.worker.every(self.config.fill_interval_s, ROUND, self._round, first_in=WARM_UP_DELAY_S)

    def _round(self) -> None:
        """On the worker: finish due scrubs and erasures, then fill pending vectors (if
        they can be made; a change of why not is logged)."""
        if self._closing:
            return
        last_reason, store = self.vector_reason, self.store()  # (a failure is logged by the worker)
        store.upkeep.run_due(retry=True)
        reason = self.vector_reason = store.vector_status()
        if reason is not None and reason != last_reason:
            log.warning("memvault runs degraded: %s", reason)
        elif reason is None and last_reason not in (None, "not checked yet"):
            log.info("vectors can be made again")
        if reason is None:
            store.upkeep.start_filling(FILL_BATCH)

    def health(self) -> dict[str, str]:
        """Readiness without secrets or blocking: ``database`` "ready", "opening" or
        "error: <why it cannot be opened>" (messages never hold a password), ``model``
        "ready", "loading" or "degraded: keyword search only"."""
        opened = self._store is not None
        if not opened and self.open_error is not None:
            return {"database": f"error: {self.open_error}", "model": "not loaded"}
        if not opened or self.vector_reason == "not checked yet":
            model = "loading"
        else:
            model = "ready" if self.vector_reason is None else "degraded: keyword search only"
        return {"database": "ready" if opened else "opening", "model": model}

    def close(self, timeout_s: float = 60.0) -> None:
        """Wait for calls in flight (at most ``timeout_s`` seconds), close the worker (after
        the jobs queued on it, such as a scrub), then the store."""
        self._closing = True
        with self._idle:
            self._idle.wait_for(lambda: self._calls == 0, timeout_s)
        self.worker.close()
        if self._store is not None:
            self._store.close()
            self._store = None
