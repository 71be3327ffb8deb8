"""The background worker yields to the calls a server serves (issue 28: a consolidation of 100,000
memories, run by the first server after an import, took the GIL from every recall: 47-65 ms instead
of 24). Behaviour, not timing: which step runs while a call is served."""

from __future__ import annotations

import threading
import time

import pytest

from memvault.storage import maintenance
from memvault.storage.maintenance import Worker

WAIT_S = 10.0  # for what must happen: generous, a loaded machine is slow


def _stepping(steps: list[tuple[float, float]], started: threading.Event, step_s: float = 0.02):
    """A job for ``in_turns`` that never ends on its own: each step sleeps ``step_s``, recorded."""
    def job(stop) -> None:  # type: ignore[no-untyped-def]
        while not stop():
            begun = time.monotonic()
            started.set()
            time.sleep(step_s)
            steps.append((begun, time.monotonic()))
    return job


@pytest.fixture
def job():
    """A worker, the steps its job took and the event of its first step; closed after the test."""
    worker = Worker()
    yield worker, [], threading.Event()
    worker.close()


def _until(done) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + WAIT_S
    while not done() and time.monotonic() < deadline:
        time.sleep(0.02)
    return bool(done())


def test_a_background_turn_waits_while_a_call_is_served_and_runs_once_it_ends(job) -> None:
    worker, steps, started = job
    with worker.serving():
        worker.in_turns("long job", _stepping(steps, started))
        assert worker.run(lambda: 42) == 42  # a job a call waits for still runs
        assert not started.wait(0.5)  # (HELD_MAX_S is 2 s)
        ended = time.monotonic()
    assert _until(lambda: bool(steps))
    assert min(begun for begun, _ in steps) >= ended


def test_a_running_job_stops_after_its_step_when_a_call_begins(job, monkeypatch) -> None:
    monkeypatch.setattr(maintenance, "HELD_MAX_S", 60.0)
    worker, steps, started = job
    worker.in_turns("long job", _stepping(steps, started))
    assert started.wait(WAIT_S)
    with worker.serving():
        began = time.monotonic()
        time.sleep(0.5)
        during = [s for s in steps if s[0] > began]
    assert during == []  # the step under way when the call began may end; none begins
    count = len(steps)
    assert _until(lambda: len(steps) > count)  # and it goes on once the call ended


def test_under_calls_without_end_a_turn_still_takes_a_step_now_and_then(job, monkeypatch) -> None:
    monkeypatch.setattr(maintenance, "HELD_MAX_S", 0.3)
    worker, steps, started = job
    with worker.serving():
        worker.in_turns("long job", _stepping(steps, started))
        assert started.wait(WAIT_S)  # after HELD_MAX_S, one step
        time.sleep(1.0)
        assert 1 <= len(steps) <= 1.0 / 0.3 + 2  # a step each HELD_MAX_S, not a run


def test_close_ends_a_held_turn_at_once(job) -> None:
    worker, steps, started = job
    with worker.serving():
        worker.in_turns("long job", _stepping(steps, started))
        closing = threading.Thread(target=worker.close)
        closing.start()
        closing.join(WAIT_S)
        assert not closing.is_alive() and steps == []


@pytest.mark.asyncio
async def test_a_servers_calls_hold_its_background_turns(db_path, one_model) -> None:
    """Over the MCP surface: while tool calls follow one another, a background job takes a step
    only each ``HELD_MAX_S`` (not one each few milliseconds), and goes on once they stop. A gap
    between two calls longer than ``QUIET_S`` (a loaded machine makes some) lets turns run by design:
    steps begun in one are not counted."""
    from mcp import Client

    from memvault.server.app import build_server
    from memvault.server.config import Config
    from memvault.server.runtime import Runtime

    config = Config(db=db_path)
    runtime = Runtime(config)
    steps: list[tuple[float, float]] = []
    started = threading.Event()
    async with Client(build_server(config, runtime=runtime)) as client:
        await client.call_tool("remember", {"content": "The deploy runs from the ops laptop."})
        runtime.worker.in_turns("test job", _stepping(steps, started, step_s=0.002))
        calls = []
        for _ in range(30):
            asked = time.monotonic()
            r = await client.call_tool("recall", {"query": "where does the deploy run from?"})
            calls.append((asked, time.monotonic()))
            assert not r.is_error
        first, last = calls[0][0], calls[-1][1]
        # The server served each call within its (asked, answered): after a gap longer than QUIET_S, a
        # step may begin QUIET_S after one call and until the next was answered (the server may not have
        # begun it before).
        quiet = [(answered + maintenance.QUIET_S, next_answered)
                 for (_, answered), (asked, next_answered) in zip(calls, calls[1:])
                 if asked - answered > maintenance.QUIET_S]
        during = [begun for begun, _ in steps
                  if first <= begun <= last and not any(lo <= begun <= hi for lo, hi in quiet)]
        assert len(during) <= 2 + (last - first) / maintenance.HELD_MAX_S, (len(during), last - first)
        assert _until(lambda: any(begun > last for begun, _ in steps))
