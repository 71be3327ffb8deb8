"""Several clients at once: four ``memvault serve`` processes on one file plus a CLI
reindex, and many requests in flight on one server."""

from __future__ import annotations

import subprocess
import sys

import anyio
import pytest
from conftest import HEAVY, SERVE, figure, server_env
from fakes import FakeEmbedder
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from memvault.storage import maintenance
from memvault.storage.store import Store
import sqlite_raw

pytestmark = pytest.mark.slow
CLIENTS = 4
WRITES = 400 if HEAVY else 120
READS = 100 if HEAVY else 30


@pytest.mark.asyncio
async def test_four_servers_and_a_reindex_share_one_database(db_path, tmp_path):
    acknowledged: list[str] = []
    errors: list[str] = []

    async def client(n: int) -> None:
        params = StdioServerParameters(command=SERVE[0], args=SERVE[1:], env=server_env(db_path))
        with open(tmp_path / f"server{n}.log", "w") as log:
            async with Client(stdio_client(params, errlog=log)) as c:
                for i in range(WRITES):
                    r = await c.call_tool("remember", {"content": f"client {n} note {i}: build {i * 7 + n} passed"})
                    if r.is_error:
                        errors.append(r.content[0].text)
                    else:
                        acknowledged.append(r.structured_content["id"])
                    if i % (WRITES // READS) == 0:
                        r = await c.call_tool("recall", {"query": f"client {n} note {i}"})
                        if r.is_error:
                            errors.append(r.content[0].text)

    async def reindex() -> None:
        while not db_path.exists():  # the servers create it (slowly on a loaded machine)
            await anyio.sleep(0.2)
        await anyio.sleep(1)
        done = await anyio.run_process(
            [sys.executable, "-m", "memvault.server", "reindex"], env=server_env(db_path), check=False
        )
        if done.returncode != 0:
            errors.append("reindex: " + done.stderr.decode()[-500:])

    async with anyio.create_task_group() as tg:
        for n in range(CLIENTS):
            tg.start_soon(client, n)
        tg.start_soon(reindex)
    logs = "".join((tmp_path / f"server{n}.log").read_text() for n in range(CLIENTS))
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    with sqlite_raw.snapshot(store) as conn:
        present = {r[0] for r in conn.execute("SELECT id FROM memories")}
    store.close()
    found = len(set(acknowledged) & present)
    figure(f"concurrent clients: {CLIENTS} servers + reindex, {len(acknowledged)} writes acknowledged, "
           f"{found} found, {len(errors)} errors surfaced")
    assert errors == []
    assert "database is locked" not in logs
    assert found == len(acknowledged) == CLIENTS * WRITES
    real = subprocess.run([sys.executable, "-m", "memvault.server", "doctor"], env=server_env(db_path), capture_output=True, text=True)
    assert real.returncode == 0, real.stderr


@pytest.mark.asyncio
async def test_many_requests_in_flight_on_one_server(db_path, one_model):
    from memvault.server.app import build_server
    from memvault.server.config import Config

    async with Client(build_server(Config(db=db_path))) as c:
        results: dict[str, object] = {}

        async def work(i: int) -> None:
            r = await c.call_tool("remember", {"content": f"parallel fact {i}: port {8000 + i}"})
            results[f"w{i}"] = r
            r = await c.call_tool("recall", {"query": f"parallel fact {i} port {8000 + i}", "limit": 3})
            results[f"r{i}"] = r

        async with anyio.create_task_group() as tg:
            for i in range(40):
                tg.start_soon(work, i)
    assert all(not r.is_error for r in results.values())  # type: ignore[attr-defined]
    for i in range(40):
        top = results[f"r{i}"].structured_content["memories"]  # type: ignore[attr-defined]
        assert top and top[0]["content"] == f"parallel fact {i}: port {8000 + i}"


@pytest.mark.contract
def test_eight_writers_in_two_processes_lose_nothing_and_a_raced_supersede_has_one_successor(store, db, tmp_path):
    """Two processes, 4 writer threads each, through ``Store``; both supersede the same memory at once."""
    import json
    import os

    from conftest import REPO

    old = store.remember(tenant="a", scope="s", content="The build runs on Jenkins")
    go = tmp_path / "go"
    env = {**os.environ, "PYTHONPATH": str(REPO / "tests")}
    procs = [
        subprocess.Popen([sys.executable, str(REPO / "tests" / "store_writer.py"), db, name, old.id, str(go)],
                         env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for name in ("p1", "p2")
    ]
    go.touch()
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err[-2000:]
        results.append(json.loads(out.strip().splitlines()[-1]))
    written = [tuple(pair) for r in results for pair in r["ids"]]
    assert len(written) == len(set(written)) == 2 * 4 * 25
    assert all(store.get(tenant=t, id=i).content for t, i in written)  # every acknowledged write is there
    current = maintenance.stats(store)["by_scope"]
    per_tenant = {t: sum(1 for w, _ in written if w == t) for t in "ab"}
    assert current == {"a": {"s": per_tenant["a"] + 1}, "b": {"s": per_tenant["b"]}}  # a: + the one successor
    winners = [r["superseded"] for r in results if r["superseded"]]
    losers = [r["conflict"] for r in results if r["conflict"]]
    assert len(winners) == 1 and len(losers) == 1 and winners[0] in losers[0]  # the loser is told the successor
    chain = store.history(tenant="a", id=old.id)
    assert [m.id for m in chain] == [old.id, winners[0]]
