"""Load on the HTTP team server: concurrent clients of several tenants, mixed calls.

    python bench/http_load.py [--clients 50] [--tenants 10] [--calls 200]
                              [--backend sqlite|postgresql|both] [--pg-url URL] [--db FILE]

Starts ``memvault serve --transport http`` (API keys, no rate limit) on a free loopback
port over a new database of each backend asked for (SQLite: a new file or ``--db``;
PostgreSQL: a new database on ``--pg-url``'s server, else on a temporary one from the
test extras, ``bench/pgtemp.py``), gives each client its own key (client i belongs
to tenant i mod --tenants) and one MCP session over the SDK's streamable HTTP client.
Each client makes --calls calls: 70 % recall, 25 % remember, 5 % forget (of a memory it
stored). Reports throughput, p50/p95/p99 latency per tool, errors, and whether every
acknowledged write that was not forgotten is in the database afterwards (read back
through the store, per tenant). The server's log goes to ``server.log`` in a temporary
folder, named when anything failed.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

import anyio
import httpx2
from mcp import Client
from pgtemp import databases
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from memvault.storage import keys
from memvault.storage.errors import NotFound
from memvault.storage.store import Store

TOPICS = ["deploy", "database", "on-call", "release", "billing", "auth", "cache", "queue", "backups", "alerts"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def _client(url: str, key: str, tenant: str, n: int, calls: int, seed: int,
                  latencies: dict[str, list[float]], errors: list[str], kept: dict[str, str]) -> None:
    rng = random.Random(seed)
    mine: list[str] = []
    async with create_mcp_http_client(headers={"Authorization": f"Bearer {key}"}) as http:
        async with Client(streamable_http_client(url, http_client=http)) as c:
            for i in range(calls):
                roll = rng.random()
                tool = "forget" if roll < 0.05 and mine else "remember" if roll < 0.30 else "recall"
                topic = rng.choice(TOPICS)
                if tool == "remember":
                    step = rng.randrange(1000)
                    args = {"content": f"Client {n} of {tenant}, note {i}: the {topic} runbook says step {step}."}
                elif tool == "forget":
                    args = {"id": mine.pop(rng.randrange(len(mine)))}
                else:
                    args = {"query": f"what does the {topic} runbook say"}
                started = time.perf_counter()
                try:
                    result = await c.call_tool(tool, args)
                except Exception as exc:  # counted and reported: a load test must not stop at the first
                    errors.append(f"{tool}: {type(exc).__name__}: {exc}")
                    continue
                latencies[tool].append(time.perf_counter() - started)
                if result.is_error:
                    errors.append(f"{tool}: {result.content[0].text if result.content else result}")
                elif tool == "remember":
                    mine.append(result.structured_content["id"])
                    kept[result.structured_content["id"]] = tenant
                elif tool == "forget":
                    kept.pop(args["id"], None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--tenants", type=int, default=10)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="sqlite")
    parser.add_argument("--pg-url", help="PostgreSQL server to create the database on (default: a temporary one)")
    parser.add_argument("--db", type=Path, help="SQLite database file (default: a new one in a temporary folder)")
    args = parser.parse_args()
    backends = ("sqlite", "postgresql") if args.backend == "both" else (args.backend,)
    failed = 0
    with contextlib.ExitStack() as stack:
        new_pg = stack.enter_context(databases(args.pg_url)) if "postgresql" in backends else None
        for backend in backends:
            folder = Path(tempfile.mkdtemp(prefix="memvault-http-load-"))
            sqlite = args.db or folder / "memvault.db"
            db = sqlite if backend == "sqlite" else new_pg("bench_http_load")  # type: ignore[misc]
            print(f"{backend}:")
            failed |= load(db, folder / "server.log", args.clients, args.tenants, args.calls)
    return failed


def load(db: Path | str, log: Path, clients: int, tenants: int, calls: int) -> int:
    """One load run against a server on ``db``; prints the figures; 1 on any error or lost write."""
    store = Store(db)
    principals = []
    for i in range(clients):
        tenant = f"tenant-{i % tenants}"
        principals.append((tenant, keys.create(store, tenant, name=f"load client {i}")[1]))
    store.close()

    port = _free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    with log.open("w") as log_file:
        server = subprocess.Popen(
            [sys.executable, "-m", "memvault.server", "serve", "--transport", "http", "--port", str(port), "--db",
             str(db), "--rate-limit", "0"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log_file,
        )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx2.get(f"http://127.0.0.1:{port}/healthz", timeout=2).json().get("model") == "ready":
                    break
            except (httpx2.TransportError, ValueError):
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                print(f"the server did not become ready (log: {log})", file=sys.stderr)
                return 1
            time.sleep(0.2)
        latencies: dict[str, list[float]] = defaultdict(list)
        errors: list[str] = []
        kept: dict[str, str] = {}

        async def run() -> None:
            async with anyio.create_task_group() as tg:
                for n, (tenant, key) in enumerate(principals):
                    tg.start_soon(_client, url, key, tenant, n, calls, n, latencies, errors, kept)

        started = time.perf_counter()
        anyio.run(run)
        elapsed = time.perf_counter() - started
    finally:
        server.terminate()
        server.wait(30)

    store = Store(db)
    missing = 0
    try:
        for memory_id, tenant in kept.items():
            try:
                store.get(tenant=tenant, id=memory_id)
            except NotFound:
                missing += 1
    finally:
        store.close()
    total = sum(len(v) for v in latencies.values())
    print(f"{clients} clients, {tenants} tenants, {calls} calls each: {total} calls answered "
          f"in {elapsed:.1f} s = {total / elapsed:.1f} calls/s")
    for tool in ("recall", "remember", "forget"):
        ms = [v * 1000 for v in latencies[tool]]
        if ms:
            print(f"  {tool:8s} n={len(ms):5d}  p50 {statistics.median(ms):7.1f} ms"
                  f"  p95 {_percentile(ms, 0.95):7.1f} ms  p99 {_percentile(ms, 0.99):7.1f} ms")
    print(f"errors: {len(errors)}" + (f" (first: {errors[0]}; server log: {log})" if errors else ""))
    for kind, count in Counter(e.split(":")[0] + ": " + e.split(": ")[1][:80] for e in errors).most_common(5):
        print(f"  {count} x {kind}")
    print(f"acknowledged writes kept: {len(kept)}, missing afterwards: {missing}")
    return 0 if not errors and not missing else 1


if __name__ == "__main__":
    raise SystemExit(main())
