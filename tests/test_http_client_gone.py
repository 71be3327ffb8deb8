"""A client that closes its connection before its answer stops the work not begun for it (trial74 M1: a batch of
50 recalls abandoned after 1 s kept the server busy for minutes, and a stop waited for it)."""

from __future__ import annotations

from typing import Any

import anyio
import anyio.to_thread

from memvault.server.http import _unless_gone


def _answered(gone: str) -> tuple[int, list[dict[str, Any]]]:
    """(steps run of an answer of 50 steps, its sending and 10 more, events sent) when the client goes away
    ``early`` (0.2 s in), ``never``, or ``after`` the answer was sent (as uvicorn's receive then says)."""
    done: list[int] = []
    sent: list[dict[str, Any]] = []
    answered = anyio.Event()

    async def receive() -> dict[str, Any]:
        if gone == "early":
            await anyio.sleep(0.2)
        else:
            await answered.wait()
            if gone == "never":
                await anyio.sleep(3600)
        return {"type": "http.disconnect"}

    async def send(event: dict[str, Any]) -> None:
        sent.append(event)

    async def answer(send) -> None:  # type: ignore[no-untyped-def]
        for step in range(50):
            await anyio.to_thread.run_sync(lambda: None)  # a call's work, as the tools run it
            await anyio.sleep(0.02)
            done.append(step)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"[]"})
        answered.set()
        for step in range(50, 60):  # what follows the answer (the SDK's transport ending its streams)
            await anyio.sleep(0.02)
            done.append(step)

    anyio.run(_unless_gone, receive, send, answer)
    return len(done), sent


def test_the_steps_not_begun_when_the_client_goes_are_never_run() -> None:
    steps, sent = _answered("early")
    assert steps < 50 and sent == []


def test_a_client_that_stays_gets_the_whole_answer() -> None:
    steps, sent = _answered("never")
    assert steps == 60 and [e["type"] for e in sent] == ["http.response.start", "http.response.body"]


def test_a_disconnect_said_after_the_answer_was_sent_cancels_nothing() -> None:
    steps, sent = _answered("after")
    assert steps == 60 and len(sent) == 2
