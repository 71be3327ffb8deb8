"""One authenticated caller's tool calls run at most ``CALLS_AT_ONCE`` at a time; the rest wait
their turn without a thread, and another caller's call runs meanwhile (an adversarial pass: one
key's burst of batches slowed another tenant's recall 100-fold for minutes)."""

from __future__ import annotations

import threading

import anyio
import pytest
from mcp.server.auth.middleware.auth_context import auth_context_var
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser

from memvault.server import runtime as runtime_module
from memvault.server.auth import Identity, access_token
from memvault.server.config import Config
from memvault.server.runtime import Runtime


@pytest.mark.asyncio
async def test_one_callers_calls_wait_their_turn_while_another_callers_call_runs(db_path, one_model):
    runtime = Runtime(Config(db=str(db_path)), authenticated=True)
    release, running, most = threading.Event(), [0], [0]
    lock = threading.Lock()

    def blocking(store, caller):  # type: ignore[no-untyped-def]
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        release.wait(30)
        with lock:
            running[0] -= 1
        return caller.tenant

    def quick(store, caller):  # type: ignore[no-untyped-def]
        return caller.tenant

    def as_caller(key: str, tenant: str):  # type: ignore[no-untyped-def]
        return AuthenticatedUser(access_token(f"mvk_{key}", key, Identity(tenant=tenant, scope="default")))

    done: list[str] = []
    try:
        async with anyio.create_task_group() as tg:
            async def call(user, fn) -> None:  # type: ignore[no-untyped-def]
                auth_context_var.set(user)
                done.append(await runtime.call(fn))

            for _ in range(6):
                tg.start_soon(call, as_caller("a", "acme"), blocking)
            with anyio.fail_after(20):
                while running[0] < runtime_module.CALLS_AT_ONCE:
                    await anyio.sleep(0.02)
                await call(as_caller("b", "bravo"), quick)  # runs while acme's calls hold their turns
            assert done == ["bravo"] and running[0] == runtime_module.CALLS_AT_ONCE
            release.set()
    finally:
        release.set()
        runtime.close()
    assert most[0] == runtime_module.CALLS_AT_ONCE and done.count("acme") == 6
    assert not runtime._turns  # noqa: SLF001 (no slot kept once a caller is done)
