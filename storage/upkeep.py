"""The work a ``Store`` owes its database, above any backend: erasing memories expired
past a grace period, scrubbing forgotten bytes from the files (inline or on a
background thread, retried after a failure), and the vector index's upkeep on that
same thread. Writes, start-up and a server's periodic round run what is due.
Statistics, reindexing and ``memvault doctor``'s checks are in ``maintenance``.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

from .backend import Backend, Reader
from .errors import Busy, StorageUnavailable
from .records import DueWork
from .timefmt import format_ms

log = logging.getLogger(__name__)
# An expired memory is hidden at once and its content erased (like forget) by the first
# write or start-up at least this long after it expired, so expiries share a scrub.
EXPIRY_GRACE_MS = 3_600_000
SCRUB_RETRY_S = 60.0  # after a failed scrub, writes other than forget wait this long to retry


class Upkeep:
    """Due maintenance (a part of ``Store``, whose constructor makes ``_background``,
    the one thread that scrubs and keeps the vector index, and the state below)."""

    backend: Backend
    clock: Callable[[], int]
    _background: ThreadPoolExecutor
    _scrubbing: Future[bool] | None
    _scrub_retry_at: float
    _indexing: Future[None] | None
    _closing: bool

    def scrub(self) -> bool:
        """Finish a due scrub in this thread (after any running in the background); True
        when no scrub is pending any more (False: the database was busy, still due)."""
        if self._scrubbing is not None:
            self._scrubbing.result()
        return self._finish_scrub(retry_now=True)

    def scrub_pending(self) -> bool:
        """Whether forgotten bytes may still be in the database's files, once a scrub
        running on the background thread (e.g. the one opening the store started) has ended."""
        if self._scrubbing is not None:
            self._scrubbing.result()
        return self.backend.scrub_due()

    def _scrub(self, retry_now: bool, due: bool | None = None) -> bool:
        """Scrub now (``backend.inline_scrub``) or start it on the background thread; True
        when no scrub is pending any more. ``due``: whether one is due, when the caller
        has just read it (None: read it here)."""
        if due is False:
            return True
        if self.backend.inline_scrub:
            return self._finish_scrub(retry_now)
        if self._scrubbing is not None and not self._scrubbing.done():
            return False
        if due is None and not self.backend.scrub_due():
            return True
        self._scrubbing = self._background.submit(self._finish_scrub, retry_now)
        return False

    def _finish_scrub(self, retry_now: bool) -> bool:
        """Scrub if one is due; True when none is due any more.

        Never raises for a busy database or a full disk: the duty stays recorded
        and the result is False. Without ``retry_now`` a scrub that failed less
        than ``SCRUB_RETRY_S`` ago is not tried again (each try may wait out the
        busy timeout).
        """
        if not retry_now and time.monotonic() < self._scrub_retry_at:
            return not self.backend.scrub_due()
        if self.backend.scrub():
            return True
        self._scrub_retry_at = time.monotonic() + SCRUB_RETRY_S
        return False

    def run_due_maintenance(self, retry: bool = False) -> DueWork:
        """Do the work the store owes: erase expired memories and finish a pending scrub.

        ``retry``: try a scrub that failed less than ``SCRUB_RETRY_S`` ago again
        (a server's periodic round; after each write it waits that long), and start
        the vector index's upkeep on the background thread (as opening the store does).

        A memory expired for more than ``EXPIRY_GRACE_MS`` becomes a tombstone
        (reason "expired at ..."), exactly as if forgotten; then a scrub that is
        due (after a forget or such an erase, possibly by another process or
        before a crash) is run. Called when the store opens; each write does the
        same with what its own transaction read (see :meth:`_due`); servers call it
        now and then. Never raises for a busy database: what could not be done stays due.
        """
        try:
            with self.backend.read(None) as tx:
                due = self._due(tx)
        except Busy as exc:
            log.warning("erasing expired memories postponed: %s", exc)
            due = None
        return self._run_due(due, retry)

    def _due(self, tx: Reader) -> tuple[bool, bool]:
        """Read in ``tx``: whether memories expired past the grace period wait to be
        erased, and whether a scrub is due. A write reads them in its own transaction,
        so on PostgreSQL it sees its tenant's expired memories only (the others wait for
        a write of theirs, a server's periodic round or the next start-up)."""
        return bool(tx.expired(self.clock() - EXPIRY_GRACE_MS)), tx.scrub_due()

    def _run_due(self, due: tuple[bool, bool] | None, retry: bool = False) -> DueWork:
        """Erase expired memories and scrub as ``due`` (see :meth:`_due`; None: unknown,
        the database was busy, so no scrub is claimed) says; see :meth:`run_due_maintenance`."""
        now = self.clock()
        purged: list[str] = []
        pending = None if due is None else due[1]
        if due is not None and due[0]:
            try:
                with self.backend.write(None) as tx:
                    for memory_id, expired in tx.expired(now - EXPIRY_GRACE_MS):
                        tx.erase(memory_id, now, f"expired at {format_ms(expired)}")
                        purged.append(memory_id)
                pending = pending or bool(purged)  # each erase records a due scrub
            except Busy as exc:
                log.warning("erasing expired memories postponed: %s", exc)
        scrubbed = self._scrub(retry_now=retry or bool(purged), due=pending)
        if retry:  # a server's periodic round: not after each write, where it would cost a read each
            self._index_in_background()
        return DueWork(purged_ids=purged, scrubbed=bool(pending) and scrubbed, scrub_pending=not scrubbed)

    def index_vectors(self) -> None:
        """Bring the vector index up to date in this thread: every step the background
        thread would take (``Backend.index_vectors``), until none is due. Raises Busy
        or StorageUnavailable."""
        while self.backend.index_vectors():
            pass

    def _index_in_background(self) -> None:
        """Start the vector index's upkeep on the background thread unless it runs: one
        step at a time, each queued behind any scrub, until none is due."""
        if not self._closing and (self._indexing is None or self._indexing.done()):
            self._indexing = self._background.submit(self._index_step)

    def _index_step(self) -> None:
        try:
            more = self.backend.index_vectors()
        except (Busy, StorageUnavailable) as exc:
            log.warning("vector index upkeep postponed: %s", exc)
            return
        if more and not self._closing:
            with contextlib.suppress(RuntimeError):  # close() began meanwhile: no new work
                self._indexing = self._background.submit(self._index_step)
