"""The team server's readiness probe blames the database only for the database's own slowness (issue 25 §1.1).

A tenant's long scan held the GIL for a second at a time; the probe's read, timed by the wall clock, took
over ``PROBE_TIMEOUT_S`` waiting for it, and ``/healthz`` and every tenant's call said 503. The GIL is
held here by a C call that does not release it (libc's ``usleep`` through ``ctypes.PyDLL``), for a fixed
multiple of the probe's timeout: no timing of this machine decides the outcome.
"""

from __future__ import annotations

import ctypes
import threading
import time
from contextlib import nullcontext
from pathlib import Path
from types import SimpleNamespace

import anyio
import pytest

from memvault.server import http
from memvault.storage.errors import Damaged, MemvaultError

TIMEOUT_S = 0.2  # the probe's timeout here; the GIL and the database hold 5 times it
HELD_S = 5 * TIMEOUT_S


def _hold_the_gil(seconds: float) -> threading.Thread:
    """A thread holding the GIL for ``seconds`` (it starts at once: the caller sleeps to let it)."""
    libc = ctypes.PyDLL(None)  # PyDLL: the GIL is not released during the call
    holder = threading.Thread(target=libc.usleep, args=(int(seconds * 1e6),))
    holder.start()
    return holder


def _watch(tmp_path: Path, read_header) -> http.DatabaseWatch:
    db = tmp_path / "m.db"
    db.write_bytes(b"")
    tx = SimpleNamespace(settings=dict, api_keys=lambda key_hash=None: {})  # the reads every request makes
    store = SimpleNamespace(backend=SimpleNamespace(read_header=read_header, read=lambda tenant: nullcontext(tx)),
                            upkeep=SimpleNamespace(check_damage=lambda again: None))  # (the worker's, not timed here)
    runtime = SimpleNamespace(config=SimpleNamespace(db=str(db), db_label=str(db)), store=lambda: store)
    return http.DatabaseWatch(runtime)  # type: ignore[arg-type]


def _problem(watch: http.DatabaseWatch) -> tuple[str, str] | None:
    return anyio.run(watch.problem)


def _busy_process() -> None:
    """The read begins, then this process's own work holds the GIL: the read answers once it runs."""
    holder = _hold_the_gil(HELD_S)
    time.sleep(0.001)  # (the holder takes the GIL here)
    holder.join()


def _hung_database() -> None:
    time.sleep(HELD_S)  # blocked outside Python: the GIL free, the loop's ticks on time


def _failed_read() -> None:
    raise MemvaultError("the database file is damaged")


def _damaged_read() -> None:
    raise Damaged("the database file is damaged (database disk image is malformed)")


@pytest.fixture(autouse=True)
def _short_timeout(monkeypatch) -> None:
    monkeypatch.setattr(http, "PROBE_TIMEOUT_S", TIMEOUT_S)


@pytest.mark.parametrize("holds", ["during the read", "before the read"])
def test_a_process_holding_its_own_gil_is_not_called_unready(tmp_path: Path, holds: str) -> None:
    if holds == "during the read":
        watch = _watch(tmp_path, _busy_process)
        assert _problem(watch) is None
        return

    async def asked_while_held() -> tuple[str, str] | None:
        watch = _watch(tmp_path, lambda: None)
        holder = _hold_the_gil(HELD_S)  # the probe's thread starts only once it is let go
        try:
            return await watch.problem()
        finally:
            holder.join()

    assert anyio.run(asked_while_held) is None


@pytest.mark.parametrize(("read", "kind"), [(_hung_database, "timeout"), (_failed_read, "unavailable"),
                                            (_damaged_read, "damaged"), (lambda: None, None)])
def test_a_database_that_hangs_or_fails_is_still_called_unready(tmp_path: Path, read, kind: str | None) -> None:
    problem = _problem(_watch(tmp_path, read))
    assert (problem and problem[0]) == kind
