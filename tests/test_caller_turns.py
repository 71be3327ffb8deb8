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


def _quick(store, caller):  # type: ignore[no-untyped-def]
    return caller.tenant


def _as_key(key: str, tenant: str) -> AuthenticatedUser:
    return AuthenticatedUser(access_token(f"mvk_{key}", key, Identity(tenant=tenant, scope="default")))


def _as_user(sub: str, tenant: str) -> AuthenticatedUser:
    return AuthenticatedUser(access_token("a.jwt", "client-1", Identity(tenant=tenant, scope="default"), subject=sub))


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

    done: list[str] = []
    try:
        async with anyio.create_task_group() as tg:
            async def call(user, fn) -> None:  # type: ignore[no-untyped-def]
                auth_context_var.set(user)
                done.append(await runtime.call(fn))

            for _ in range(6):
                tg.start_soon(call, _as_key("a", "acme"), blocking)
            with anyio.fail_after(20):
                while running[0] < runtime_module.CALLS_AT_ONCE:
                    await anyio.sleep(0.02)
                await call(_as_key("b", "bravo"), _quick)  # runs while acme's calls hold their turns
            assert done == ["bravo"] and running[0] == runtime_module.CALLS_AT_ONCE
            release.set()
    finally:
        release.set()
        runtime.close()
    assert most[0] == runtime_module.CALLS_AT_ONCE and done.count("acme") == 6
    assert not runtime._turns  # noqa: SLF001 (no slot kept once a caller is done)


@pytest.mark.asyncio
async def test_a_tenants_keys_and_users_together_run_no_more_calls_than_one_and_each_gets_its_turn(db_path, one_model):
    """adversarial pass 47: a tenant with two keys ran four calls at once and filled the embedding
    workers, delaying other tenants' writes 6-11 times; now its callers share the tenant's turns, and
    one caller's backlog waits behind the others' calls (each caller queues at most its own turns).
    The calls end one at a time, each once the call before it has started: the order is the turns'."""
    runtime = Runtime(Config(db=str(db_path)), authenticated=True)
    started: list[tuple[str, threading.Event]] = []
    lock = threading.Lock()

    def blocking(label: str):  # type: ignore[no-untyped-def]
        def fn(store, caller):  # type: ignore[no-untyped-def]
            ended = threading.Event()
            with lock:
                started.append((label, ended))
            ended.wait(30)
            return label
        return fn

    def running() -> int:
        return sum(not ended.is_set() for _, ended in started)

    done: list[str] = []
    try:
        async with anyio.create_task_group() as tg:
            async def call(user, fn) -> None:  # type: ignore[no-untyped-def]
                auth_context_var.set(user)
                done.append(await runtime.call(fn))

            for _ in range(5):  # key a's burst first
                tg.start_soon(call, _as_key("a", "acme"), blocking("a"))
            with anyio.fail_after(20):
                while running() < runtime_module.CALLS_AT_ONCE:
                    await anyio.sleep(0.02)
                for caller in (_as_key("b", "acme"), _as_user("c", "acme"), _as_user("d", "acme")):
                    tg.start_soon(call, caller, blocking(caller.access_token.subject or "b"))
                tenant = runtime._turns[("tenant", "acme")]  # noqa: SLF001
                while tenant.statistics().tasks_waiting < 3:  # b, c and d wait for acme's turns
                    await anyio.sleep(0.02)
                assert running() == runtime_module.CALLS_AT_ONCE
                await call(_as_key("e", "bravo"), _quick)  # another tenant's call runs meanwhile
                assert done == ["bravo"]
                for ended in range(8):  # end the oldest running call once the next has started
                    while len(started) < min(ended + runtime_module.CALLS_AT_ONCE, 8):
                        await anyio.sleep(0.02)
                    assert running() <= runtime_module.CALLS_AT_ONCE
                    started[ended][1].set()
    finally:
        for _, ended in started:
            ended.set()
        runtime.close()
    assert sorted(done) == ["a"] * 5 + ["b", "bravo", "c", "d"]
    # b, c and d before a's backlog: a's three other calls waited for its own turns, not in the tenant's queue
    assert [label for label, _ in started] == ["a", "a", "b", "c", "d", "a", "a", "a"]
    assert not runtime._turns  # noqa: SLF001
