"""The server's lifespan state: the store (opened lazily by its worker), and calls run off the event loop.

The server answers ``initialize`` and ``tools/list`` at once; the worker opens the database and loads
the model meanwhile, and earlier tool calls wait for it on an anyio thread.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import anyio
import anyio.to_thread

from memvault.storage import location
from memvault.storage.errors import MemvaultError, StoreError
from memvault.storage.maintenance import Worker

from .config import Config

if TYPE_CHECKING:
    from memvault.storage.store import Store

    from .auth import Identity

log = logging.getLogger(__name__)
T = TypeVar("T")
WARM_UP_DELAY_S = 0.5
ROUND = "the server's maintenance round"  # the worker's job (and log) name
FILL_BATCH = 16  # memories embedded per batch: shutdown waits for at most one batch
# Tool calls one authenticated caller runs at once, and one tenant whichever of its callers send them
# (docs/architecture.md, "Calls per caller").
CALLS_AT_ONCE = 2


class Runtime:
    """One :class:`Store` for the process and its :class:`Worker`; runs calls on anyio's threads.

    The worker's round (:meth:`_round`) runs at start, every ``config.fill_interval_s`` and soon
    after a degraded result. :meth:`close` waits for calls in flight and the worker, then closes the store.
    """

    def __init__(self, config: Config, authenticated: bool = False) -> None:
        self.config = config
        self.authenticated = authenticated
        self.vector_reason: str | None = "not checked yet"
        self._said: str | None = None  # the first degraded answer or vector problem logged (once: see call)
        self.open_error: str | None = None  # why the database could not be opened, last time it was tried
        self._store: Store | None = None
        self.worker = Worker()
        self._closing = False
        self._calls = 0
        # CALLS_AT_ONCE slots of an authenticated ("caller", caller_of) and of its ("tenant", name)
        self._turns: dict[tuple[str, str], anyio.Semaphore] = {}
        self._idle = threading.Condition()  # close() waits for calls in flight: closing under one fails it

    def store(self) -> Store:
        """The store, opened on first use on the worker (blocking).

        Raises:
            StoreError: the database cannot be opened, or the server is shutting down.
        """
        if self._closing:
            raise StoreError("the server is shutting down")
        return self._store or self.worker.run(self._open)

    def _open(self) -> Store:
        if self._store is None:
            from memvault.storage.embeddings import Embedder
            from memvault.storage.store import Store

            created = not location.is_url(self.config.db) and not Path(self.config.db).exists()
            try:
                self._store = Store(
                    self.config.db, Embedder(self.config.model_dir), allow_secrets=self.config.allow_secrets,
                    busy_timeout_ms=self.config.busy_timeout_ms, worker=self.worker,
                )
            except MemvaultError as exc:  # every call and /healthz says it too: logged when it changes
                if str(exc) != self.open_error:
                    log.error("memvault database %s cannot be opened: %s", self.config.db_label, exc)
                self.open_error = str(exc)
                raise
            self.open_error = None
            self._store.upkeep.start_warm_up()  # the model and the time parser first: the first call needs them
            self._store.upkeep.check_damage()  # then pages no call reads may be damaged (found: writes refused)
            if not self._store.backend.read_only:  # every round's writes would be refused (and logged)
                self._store.upkeep.schedule_consolidation(self.config.consolidate_hours,
                                                          self.config.consolidate_after_writes)
            log.info("memvault database %s %s (model: %s)", self.config.db_label,
                     "created" if created else "opened", self.config.model_dir or "packaged")
            if self._store.backend.read_only:
                log.warning("memvault database %s is read-only here (%s): recall and reads are served, every "
                            "write is refused", self.config.db_label, self._store.backend.read_only)
        return self._store

    def identity(self) -> Identity:
        """Who makes the current request: its verified token's identity when authenticated, else
        this process's tenant and scope.

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

    async def call(self, fn: Callable[..., T], writes: bool = False, **kwargs: Any) -> T:
        """``fn(store, caller, **kwargs)`` on a thread, ``caller`` the current request's; a degraded
        result asks the worker for a round soon.

        Raises:
            ReadOnly: ``writes`` and the caller is read-only (``fn`` is not run).
            NotAuthenticated: see :meth:`identity`.
        """
        from .auth import ReadOnly, read_only_refusal

        identity = self.identity()
        if writes and identity.read_only:  # over HTTP an OAuth token's got 403 first (auth.missing_scope)
            raise ReadOnly(read_only_refusal(identity.key_id))
        from memvault.tools.caller import Caller

        caller = Caller(tenant=identity.tenant, scope=identity.scope)

        def work() -> T:
            with self._idle:
                self._calls += 1
            try:
                with self.worker.serving():  # the background turns wait
                    store = self.store()
                    if not self.authenticated:  # a key's and a token's tenant were checked as named
                        from memvault.storage.tenants import refuse_lookalike

                        refuse_lookalike(store, caller.tenant, "this server")
                    return fn(store, caller, **kwargs)
            finally:
                with self._idle:
                    self._calls -= 1
                    self._idle.notify_all()

        result = await self.in_turn(work)
        degraded = getattr(result, "degraded", None)
        if degraded:
            if self._said is None:  # logged here, once: the round may wait behind the model's preparation
                self._said = degraded
                log.warning("memvault runs degraded: %s", degraded)
            self.worker.submit(ROUND, self._round)
        return result

    async def in_turn(self, work: Callable[[], T]) -> T:
        """``work()`` on a thread once one of the caller's :data:`CALLS_AT_ONCE` slots is free, then one
        of its tenant's (a tenant with many keys or users takes no more threads and embedding workers
        from other tenants than one caller; a caller waits for its tenant's slot behind at most
        ``CALLS_AT_ONCE`` calls of each other caller of its tenant). Every call at once without
        authentication: one client per process."""
        from mcp.server.auth.middleware.auth_context import get_access_token

        from .auth import caller_of, identity_of

        token = get_access_token() if self.authenticated else None
        if token is None:
            return await anyio.to_thread.run_sync(work)
        async with self._turn(("caller", caller_of(token))), self._turn(("tenant", identity_of(token).tenant)):
            return await anyio.to_thread.run_sync(work)

    @contextlib.asynccontextmanager
    async def _turn(self, who: tuple[str, str]) -> AsyncIterator[None]:
        """One of ``who``'s :data:`CALLS_AT_ONCE` slots, waited for in order; none kept once ``who`` is idle."""
        turn = self._turns.setdefault(who, anyio.Semaphore(CALLS_AT_ONCE))
        try:
            async with turn:
                yield
        finally:
            if turn.value == CALLS_AT_ONCE and not turn.statistics().tasks_waiting:
                self._turns.pop(who, None)

    @contextlib.asynccontextmanager
    async def running(self, _: object = None) -> AsyncIterator[Runtime]:
        """The MCP server's lifespan (``MCPServer(lifespan=...)``, given the server): the worker's rounds,
        the first ``WARM_UP_DELAY_S`` from now (after ``initialize``); then :meth:`close`."""
        self.worker.every(self.config.fill_interval_s, ROUND, self._round, first_in=WARM_UP_DELAY_S)
        try:
            yield self
        finally:
            self.close()

    def _round(self) -> None:
        """On the worker: due scrubs and erasures, then pending vectors (a change of why not is logged)."""
        if self._closing:
            return
        last_reason, store = self.vector_reason, self.store()  # (a failure is logged by the worker)
        writable = not (store.backend.read_only or store.backend.damaged)
        if writable:  # a read-only or damaged file: no scrub or vector can be written
            store.upkeep.run_due(retry=True)
        reason = self.vector_reason = store.vector_status()
        if reason is not None and reason not in (last_reason, self._said):
            log.warning("memvault runs degraded: %s", reason)
        elif reason is None and last_reason is not None and (last_reason != "not checked yet" or self._said):
            log.info("vectors can be made again")
        self._said = self._said or reason
        if reason is None and writable:
            store.upkeep.start_filling(FILL_BATCH)

    def health(self, public: bool = False) -> dict[str, str]:
        """Readiness without blocking: ``database`` "ready", "read-only" or "damaged" (reads served where
        they can be; ``writes`` then says why they are refused: for a ``public`` answer, a damaged file's
        kind only, never its tables and pages), "not ready" with ``reason`` "damaged" (a call's read met
        the damage: ``Backend.unreadable``), "opening" or "error: <why>", ``model`` "ready", "loading" or
        "degraded: keyword search only"."""
        store = self._store
        if store is None and self.open_error is not None:
            return {"database": f"error: {self.open_error}", "model": "not loaded"}
        if store is None or self.vector_reason == "not checked yet":
            model = "loading"
        else:
            model = "ready" if self.vector_reason is None else "degraded: keyword search only"
        if store is not None and store.backend.unreadable:
            return {"database": "not ready", "reason": "damaged", "model": model}
        if store is not None and store.backend.damaged:
            why = "the database file is damaged (the server's log and `memvault doctor` say where)" if public \
                else store.backend.damaged
            return {"database": "damaged", "writes": f"refused: {why}", "model": model}
        if store is not None and store.backend.read_only:
            return {"database": "read-only", "writes": f"refused: {store.backend.read_only}", "model": model}
        return {"database": "ready" if store is not None else "opening", "model": model}

    def close(self, timeout_s: float = 60.0) -> None:
        """Wait for calls in flight (at most ``timeout_s``), close the worker, then the store."""
        self._closing = True
        with self._idle:
            self._idle.wait_for(lambda: self._calls == 0, timeout_s)
        self.worker.close()
        if self._store is not None:
            self._store.close()
            self._store = None
