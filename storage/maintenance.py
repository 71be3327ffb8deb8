"""Keeping a store healthy, above any backend: the one background worker and the work a
store owes its database (scrubs, expiry erasure, the vector index's upkeep, filling pending
vectors, warming up), statistics, rebuilding vectors, consistency checks (``memvault
doctor``). Export and import: ``transfer``.
More: docs/storage-tuning.md#maintenance."""

from __future__ import annotations

import contextlib
import logging
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, TypeVar

from . import history, secret_warm
from .backend import SCRUB_DUE
from .errors import Busy, MemvaultError, ModelUnavailable
from .records import DueWork
from .timefmt import format_ms

if TYPE_CHECKING:
    from .backend import Reader
    from .records import Memory
    from .postgres import PostgresBackend
    from .sqlite.backend import SqliteBackend
    from .store import Store

log = logging.getLogger(__name__)
T = TypeVar("T")
Progress = Callable[[int, int], None]
REINDEX_UNDER_WAY = "reindex_model_id"  # setting: present while a reindex has vectors left to make
WORKER_THREAD = "memvault-worker"
# An expired memory is hidden at once and its content erased (like forget) by the worker
# after the first write or start-up at least this long after it expired, so expiries share a scrub.
EXPIRY_GRACE_MS = 3_600_000
QUIET_S = 0.2  # a background turn waits this long after a call (an agent's next call often follows at once)
HELD_MAX_S = 2.0  # ... and never longer than this: under calls without end, a step every HELD_MAX_S
# A server's damage check (Upkeep.check_damage) again at least this many seconds after the last one ended,
# and idle this many times as long as it took (the worker spends at most 1/20 of its time on it):
# docs/storage-tuning.md#the-damage-check.
DAMAGE_CHECK_S = 60.0
DAMAGE_CHECK_IDLE = 19
SCRUB_RETRY_S = 60.0  # after a failed scrub, writes other than forget wait this long to retry


class Worker:
    """One thread and its queue running every background job of a store, one at a time,
    in the order asked (aiosqlite's model: one thread drains a queue of calls). A named job
    asked for while it waits is not queued twice; a long job runs in turns (:meth:`in_turns`),
    so a scrub waits for one step of it at most, and yields to the calls a server serves
    (:meth:`serving`): its turns wait while one is served and ``QUIET_S`` after, at most
    ``HELD_MAX_S``. The thread starts with the first job; :meth:`close` runs the jobs queued and
    stops it."""

    def __init__(self) -> None:
        self._jobs: OrderedDict[object, tuple[Callable[[], Any], Future[Any]]] = OrderedDict()
        self._changed = threading.Condition()  # guards the queue; the thread sleeps on it
        self._thread: threading.Thread | None = None
        self._every: tuple[float, str, Callable[[], object]] | None = None
        self._next_round = 0.0
        self._turns: set[object] = set()  # the names of the jobs queued by in_turns
        self._serving = 0  # calls served now (:meth:`serving`)
        self._served_at = -QUIET_S  # time.monotonic() when the last one ended
        self._held_since: float | None = None  # since when a turn waits for the calls
        self.closing = False

    @contextlib.contextmanager
    def serving(self) -> Iterator[None]:
        """Around a call a server serves: the background turns wait for it (a step takes the GIL from
        calls: docs/storage-tuning.md#yielding-to-calls)."""
        with self._changed:
            self._serving += 1
        try:
            yield
        finally:
            with self._changed:
                self._serving -= 1
                self._served_at = time.monotonic()
                self._changed.notify()

    def _turns_held_until(self, now: float) -> float:
        """When the queued turns may run (``now`` or before: at once). Under the queue's lock."""
        if self.closing or not self._serving and now - self._served_at >= QUIET_S:
            return now
        if self._held_since is None:
            self._held_since = now
        deadline = self._held_since + HELD_MAX_S
        return deadline if self._serving else min(deadline, self._served_at + QUIET_S)

    def submit(self, name: str | None, job: Callable[[], T]) -> Future[T]:
        """Queue ``job``; while a job of that ``name`` waits, its future instead (None: always
        queued). Once :meth:`close` began, nothing is queued: the future is cancelled."""
        with self._changed:
            if name in self._jobs:
                return self._jobs[name][1]
            future: Future[T] = Future()
            if self.closing:
                future.cancel()
                return future
            self._jobs[object() if name is None else name] = (job, future)
            self._start()
            self._changed.notify()
        return future

    def run(self, job: Callable[[], T]) -> T:
        """``job``'s result, run on the worker after the jobs queued before it (in this thread
        when called from the worker or once it stopped). Raises what ``job`` raises."""
        if self.closing or threading.current_thread() is self._thread:
            return job()
        return self.submit(None, job).result()

    def every(self, seconds: float, name: str, job: Callable[[], object], first_in: float) -> None:
        """Also queue ``job`` as ``name`` every ``seconds``, the first time ``first_in`` seconds from now."""
        with self._changed:
            self._every, self._next_round = (seconds, name, job), time.monotonic() + first_in
            self._start()
            self._changed.notify()

    def in_turns(self, name: str, job: Callable[[Callable[[], bool]], object]) -> None:
        """Queue ``job(stop)``, which calls ``stop()`` before each of its steps and returns
        when it is true: after its first step of a turn once another job waits or a call is
        served (``job`` is queued again behind it and must go on where it stopped), and when the
        worker closes."""
        def turn() -> None:
            calls, yielded = 0, False

            def stop() -> bool:
                nonlocal calls, yielded
                calls += 1
                # (a call ended within QUIET_S: the next one often follows at once, as the turns wait for)
                yielded = calls > 1 and bool(self._jobs or self._serving or time.monotonic() - self._served_at < QUIET_S)
                return yielded or self.closing

            job(stop)
            if yielded:
                self._queue_turn(name, turn)

        self._queue_turn(name, turn)

    def _queue_turn(self, name: str, turn: Callable[[], None]) -> None:
        with self._changed:  # (re-entrant: submit takes it again)
            self._turns.add(name)
            self.submit(name, turn)

    def close(self) -> None:
        """Run the jobs already queued (turns stop at once, nothing new is queued), then stop the thread."""
        with self._changed:
            self.closing = True
            self._changed.notify()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()

    def _start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=WORKER_THREAD, daemon=True)
            self._thread.start()

    def _next(self) -> tuple[object, tuple[Callable[[], Any], Future[Any]]] | None:
        with self._changed:
            while True:
                if self._every is not None and not self.closing and time.monotonic() >= self._next_round:
                    seconds, name, job = self._every
                    self._next_round = time.monotonic() + seconds
                    self._jobs.setdefault(name, (job, Future()))
                now = time.monotonic()
                self._turns.intersection_update(self._jobs)  # (a turn queued while closing never was)
                if not self._turns:
                    self._held_since = None
                held_until = self._turns_held_until(now) if self._turns else now
                for name in self._jobs:  # the first queued, but a turn only once the calls let it
                    if name not in self._turns or held_until <= now:
                        if name in self._turns:
                            self._turns.discard(name)
                            self._held_since = None
                        return name, self._jobs.pop(name)
                if self.closing and not self._jobs:
                    return None
                wake = [t for t in (held_until if self._jobs else None,
                                    None if self._every is None else self._next_round) if t is not None]
                self._changed.wait(min(wake) - now if wake else None)

    def _run(self) -> None:
        while (queued := self._next()) is not None:
            name, (job, future) = queued
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(job())
            except Exception as exc:  # a caller of run() gets it; a background job's is logged, the next round retries
                if isinstance(name, str) and isinstance(exc, MemvaultError):  # Busy, ModelUnavailable...
                    log.warning("%s postponed: %s", name, exc)
                elif isinstance(name, str):
                    log.exception("%s failed", name)
                future.set_exception(exc)


class Upkeep:
    """The work ``store`` owes its database, done on its worker (``store.worker``): erasing
    expired memories, scrubs after a forget or an erase, the vector index's upkeep, filling
    pending vectors and warming up. The methods that return a result wait for it."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.worker = store.worker
        self._scrub_retry_at = 0.0  # time.monotonic(): a failed scrub is retried after writes from then
        self._consolidation = (0, 0)  # (hours, writes): see schedule_consolidation
        self._writes = 0  # writes (remember, supersede) since the last consolidation began
        self._next_check = 0.0  # time.monotonic() from which check_damage(again=True) runs one

    def due(self, tx: Reader) -> bool:
        """Read in a write's ``tx``: whether expired memories wait to be erased, a scrub is
        due, or (counting this write) a consolidation (then :meth:`start` after the commit). On
        PostgreSQL a write sees its tenant's expired memories only (the others wait for a write of
        theirs, a server's periodic round or the next start-up)."""
        self._writes += 1
        return bool(tx.memories(None, expired_before=self.store.clock() - EXPIRY_GRACE_MS, limit=1)) \
            or SCRUB_DUE in tx.settings() or 0 < self._consolidation[1] <= self._writes

    def schedule_consolidation(self, hours: int, writes: int) -> None:
        """Consolidate (``consolidate.consolidate``, in turns on the worker) when the due work is
        looked at (:meth:`run_due`, a server's round) and the last whole run ended ``hours`` ago
        or more, or after ``writes`` writes of this store (0: never so). Off until called."""
        self._consolidation = (hours, writes)

    def _consolidation_due(self, settings: dict[str, str], now: int) -> bool:
        from .consolidate import LAST_RUN

        hours, writes = self._consolidation
        by_time = hours > 0 and now - int(settings.get(LAST_RUN, 0)) >= hours * 3_600_000
        return by_time or 0 < writes <= self._writes

    @property
    def keeps_pairs(self) -> bool:
        """Whether consolidation is scheduled (a server's store): then ``remember`` and ``supersede``
        keep the disagreeing pairs they find for review in their own transaction (``consolidate.keep``)."""
        return self._consolidation != (0, 0)

    def check_damage(self, again: bool = False) -> Future[None]:
        """Have the worker run SQLite's ``quick_check`` of the file (``SqliteBackend.check_damage``: damage
        found refuses every write from then on); its future (for PostgreSQL, or with ``again`` when no check
        is due, nothing to do: one done). ``again`` (the team server's readiness probe): only
        ``DAMAGE_CHECK_S`` or more after the last check ended, and ``DAMAGE_CHECK_IDLE`` times as long as
        it took, since it reads the whole file; never once damage is known. A check the store's closing
        stops is left unfinished."""
        backend = own(self.store) if self.store.backend.kind == "sqlite" else None
        if backend is None or again and (time.monotonic() < self._next_check or backend.damaged):
            done: Future[None] = Future()
            done.set_result(None)
            return done
        self._next_check = math.inf  # (one queued or running at a time)

        def check() -> None:
            began = time.monotonic()
            try:
                backend.check_damage(lambda: self.worker.closing)
            finally:
                took = time.monotonic() - began
                self._next_check = began + took + max(DAMAGE_CHECK_S, DAMAGE_CHECK_IDLE * took)

        return self.worker.submit("damage check", check)

    def start_consolidation(self) -> None:
        """Have the worker consolidate every tenant, a step at a time (``consolidate.consolidate``), logging
        each digest written and the contradicting pairs each turn found (ids and counts, never text)."""
        from .consolidate import Compacted, consolidate

        self._writes = 0
        compacted: set[str] = set()
        checked: set[str] = set()

        def written(done: Compacted) -> None:
            log.info("consolidation: %d episodes of tenant %s, scope %s, week %s compacted into digest %s",
                     len(done.sources), done.tenant, done.scope, done.week, done.digest_id)

        def turn(stop: Callable[[], bool]) -> None:
            report = consolidate(self.store, stop=stop, progress=written, compacted=compacted, checked=checked)
            if report.contradictions:
                log.info("consolidation: %d new contradicting pairs kept for review", report.contradictions)

        self.worker.in_turns("consolidation", turn)

    def start(self) -> None:
        """Have the worker erase what had expired by now and scrub (:meth:`run_due`, without ``retry``)."""
        now = self.store.clock()
        self.worker.submit("erasing expired memories", lambda: self._run_due(retry=False, now=now))

    def start_scrub(self) -> bool:
        """Have the worker scrub if one is due (never in this thread: a scrub makes other
        callers wait); True when none is due."""
        if not self._scrub_due():
            return True
        self.worker.submit("scrub of forgotten content", lambda: self._scrub(retry_now=True))
        return False

    def scrub(self) -> bool:
        """Scrub on the worker if one is due, after the jobs queued before, even where the backend
        never does it on its own (PostgreSQL's table rewrite: ``memvault doctor``); True when no
        scrub is pending any more (False: the database was busy, still due)."""
        return self.worker.run(lambda: own(self.store).scrub())

    def scrub_pending(self) -> bool:
        """Whether forgotten bytes may still be in the database's files, once the jobs queued
        on the worker (e.g. the scrub opening the store started) have run."""
        return self.worker.run(self._scrub_due)

    def _scrub_due(self) -> bool:
        with self.store.backend.read(None) as tx:
            return SCRUB_DUE in tx.settings()

    def _scrub(self, retry_now: bool) -> bool:
        """Scrub if one is due; True when none is due any more. Never raises for a busy
        database or a full disk (False, the duty stays recorded). Without ``retry_now`` a
        scrub that failed less than ``SCRUB_RETRY_S`` ago is not tried again (each try may
        make writers wait)."""
        if not retry_now and time.monotonic() < self._scrub_retry_at:
            return not self._scrub_due()
        if self.store.backend.maintain(lambda: True):
            return True
        self._scrub_retry_at = time.monotonic() + SCRUB_RETRY_S
        return False

    def run_due(self, retry: bool = False) -> DueWork:
        """On the worker: erase memories expired for more than ``EXPIRY_GRACE_MS`` into tombstones
        (reason "expired at ..."), as if forgotten, then finish a due scrub (after a forget or
        such an erase, possibly by another process or before a crash). ``retry`` (a server's
        round): retry a scrub that failed less than ``SCRUB_RETRY_S`` ago, start the vector
        index's upkeep. A busy write is logged, never raised: what could not be done stays due."""
        return self.worker.run(lambda: self._run_due(retry))

    def _run_due(self, retry: bool, now: int | None = None) -> DueWork:
        store, purged = self.store, []
        now = store.clock() if now is None else now
        with store.backend.read(None) as tx:
            expired = bool(tx.memories(None, expired_before=now - EXPIRY_GRACE_MS, limit=1))
            settings = tx.settings()
            pending = SCRUB_DUE in settings
        if self._consolidation_due(settings, now):
            self.start_consolidation()
        if expired:
            try:
                with store.backend.write(None) as tx:
                    for memory in tx.memories(None, expired_before=now - EXPIRY_GRACE_MS).values():
                        reason = f"expired at {format_ms(memory.expires_at or 0)}"
                        purged += history.erase(tx, [memory], now, reason)[0]
            except Busy as exc:
                log.warning("erasing expired memories postponed: %s", exc)
            pending = pending or bool(purged)  # each erase records a due scrub
        scrubbed = not pending or self._scrub(retry_now=retry or bool(purged))
        if retry:
            self.start_indexing()
        return DueWork(purged_ids=purged, scrub_pending=not scrubbed)

    def index_vectors(self) -> None:
        """Bring the vector index up to date on the worker (``Backend.maintain`` until no
        step is due) and wait. Raises Busy or StorageUnavailable."""
        self.worker.run(lambda: self.maintain(lambda: False))

    def start_indexing(self) -> None:
        """Have the worker bring the vector index up to date, a step at a time. numpy (which the index's
        upkeep uses) is imported first on this thread: imported by two threads at once (the caller loading
        the model meanwhile) it can fail half-initialised (python/cpython#91238, numpy/numpy#21223)."""
        import numpy  # noqa: F401
        self.worker.in_turns("vector index upkeep", self.maintain)

    def maintain(self, stop: Callable[[], bool]) -> None:
        """``Backend.maintain`` (a due scrub, the vector index's upkeep), unless a
        scrub failed less than ``SCRUB_RETRY_S`` ago and is still due (then the next round)."""
        if time.monotonic() < self._scrub_retry_at and self._scrub_due():
            return
        if not self.store.backend.maintain(stop):
            self._scrub_retry_at = time.monotonic() + SCRUB_RETRY_S

    def start_warm_up(self) -> None:
        """Have the worker warm the store up (``Store.warm_up``), a batch at a time, and beside it the
        credential check unless secrets are allowed (``secret_warm.steps``), a program at a time."""
        # (a turn queued when the worker closes must not load the model)
        self.worker.in_turns("warming up", lambda stop: self.worker.closing or self.store.warm_up(stop))
        if not self.store.allow_secrets:
            steps = secret_warm.steps()

            def warm_credentials(stop: Callable[[], bool]) -> None:  # a turn goes on where the last one stopped
                while not stop() and next(steps, None) is not None:
                    pass

            self.worker.in_turns("warming up the credential check", warm_credentials)

    def start_filling(self, batch: int) -> None:
        """Have the worker embed the memories whose vectors are pending, ``batch`` at a time; when
        consolidation is scheduled (:attr:`keeps_pairs`), compare each with its
        neighbours once it has its vector (``consolidate.compare_filled``)."""
        from .consolidate import compare_filled

        compared = None if not self.keeps_pairs else (lambda filled: compare_filled(self.store, filled))
        self.worker.in_turns("filling pending vectors",
                             lambda stop: fill_pending(self.store, batch=batch, stop=stop, filled=compared))


def stats(store: Store) -> dict[str, object]:
    """Counts over the whole database: memories by state and kind, tenants, pending vectors.

    ``current``, ``superseded`` and ``by_kind`` (current memories) leave out expired memories, counted apart in
    ``expired`` until they are erased (``Upkeep.run_due``);
    ``scrub_pending`` says forgotten bytes may still be in the files;
    ``by_scope``: ``{tenant: {scope: current memories}}``.
    """
    return own(store).stats(store.clock())


def own(store: Store) -> SqliteBackend | PostgresBackend:
    """The store's backend with its own methods outside the contract (``stats``, ``tenants``, ``check``,
    ``rebuild_keyword_index``, ``reset_vectors``, ``put_setting``, ``warm_up``: the same on both)."""
    return store.backend  # type: ignore[return-value]


def fill_pending(
    store: Store, progress: Progress | None = None, batch: int = 64, stop: Callable[[], bool] | None = None,
    filled: Callable[[list[Memory]], None] | None = None,
) -> int:
    """Embed every memory whose vector is pending; returns how many got one (``filled`` is given
    them after each batch's write). More: docs/storage-tuning.md#maintenance-fill-pending.

    Raises:
        ModelUnavailable: the model cannot be used (the reason says why).
    """
    reason = store.vector_status()
    if reason is not None:
        raise ModelUnavailable(reason)
    assert store.embedder is not None
    # The whole count is only for the progress bar (the server's filler runs without one).
    total = int(own(store).stats(store.clock())["vectors_pending"]) if progress else 0  # type: ignore[call-overload]
    done, last_seq = 0, 0
    while stop is None or not stop():
        with store.backend.read(None) as tx:
            read = tx.memories(None, pending=True, after_seq=last_seq, limit=batch)
        if not read:
            return done
        last_seq = max(read)
        parts = [store.embedder.windows(m.content or "") for m in read.values()]
        made = store.embedder.embed_as([text for windows in parts for text in windows])
        written = []
        with store.backend.write(None) as tx:
            start = 0
            for (seq, memory), windows in zip(read.items(), parts, strict=True):
                vectors = store.writable_vectors(tx, made._replace(vectors=made.vectors[start : start + len(windows)]))
                if vectors is None:
                    raise ModelUnavailable("the database's model changed while filling vectors: run memvault reindex")
                start += len(windows)
                if tx.set_vectors(seq, memory.content or "", list(vectors.vectors), vectors.model_id):
                    written.append(memory)
        done += len(written)
        if filled is not None and written:
            filled(written)
        if progress is not None:
            progress(done, total)
    return done


def reindex(store: Store, progress: Progress | None = None) -> int:
    """Rebuild the keyword index and every vector with the store's current model (for the
    packaged model: its integer variant, also when the store's vectors came from the
    de-quantised one, see ``embeddings.Embedder.follow``).
    More: docs/storage-tuning.md#maintenance-reindex.

    Raises:
        ModelUnavailable: the model cannot be loaded (the keyword index is rebuilt all the same).
    """
    own(store).rebuild_keyword_index()
    if store.embedder is None:
        raise ModelUnavailable("no embedding model configured")
    store.embedder.follow(None)  # a store made by the de-quantised packaged model moves to the integer one
    store.embedder.load()
    assert store.embedder.model_id is not None and store.embedder.dim
    with store.backend.read(None) as tx:
        under_way = tx.settings().get(REINDEX_UNDER_WAY)
    backend = own(store)
    if under_way != store.embedder.model_id:
        backend.reset_vectors(store.embedder.model_id, store.embedder.dim)
        backend.put_setting(REINDEX_UNDER_WAY, store.embedder.model_id)
    made = fill_pending(store, progress)
    backend.put_setting(REINDEX_UNDER_WAY, None)
    return made


def check(store: Store) -> list[str]:
    """Every inconsistency found, as sentences; an empty list means healthy.

    The backend's own checks (its indexes against the memories, tombstones
    without content, supersession links complete both ways and without cycles,
    pending vectors), then: no scrub of forgotten bytes pending, no reindex left
    half done, and the recorded model is the one this process would use.
    """
    scrub_pending = store.upkeep.scrub_pending()  # after a scrub queued on the worker
    problems = own(store).check()
    with store.backend.read(None) as tx:
        settings = tx.settings()
    if REINDEX_UNDER_WAY in settings:
        problems.append("a reindex was interrupted: run `memvault reindex` again to finish it")
    if scrub_pending:
        problems.append(
            "a scrub of forgotten content is pending (another connection held the database): forgotten text "
            "may remain in the file bytes until the next write or start-up" if store.backend.kind == "sqlite"
            else "a scrub of forgotten content is pending (the tables' owner runs it: `memvault doctor` with "
            "the owner's URL): forgotten text may remain in the table files until then"
        )
    reason = store.vector_status()
    if reason is not None:
        problems.append(reason)
    return problems
