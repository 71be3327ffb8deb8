"""What the agent waits for: each call timed over MCP stdio beside the same call in process.

Usage: python bench/wire.py SIZES [--work DIR] [--queries 100] [--locomo DIR] [--json OUT]
                                  [--backend sqlite|postgresql] [--pg-url postgresql://...] [--existing DB]

SIZES: comma-separated memory counts, e.g. ``10000,100000``. The stores are the ones
``bench/scale.py`` builds in the same ``--work`` folder (built here the same way when
missing: ``transfer.import_lines``, the code of ``memvault import``, then the vector
index brought up to date), tenant "bench", scope "s". With ``--backend postgresql`` the same
JSON lines are imported into a new PostgreSQL database (on ``--pg-url``'s server, else on a
temporary ``pgserver``: ``bench/pgtemp.py``), dropped at the end. ``--existing`` measures a
store kept from before (a path or URL holding the one size given) as it is.

For each size, three columns per call, each p50/p95 ms:
- ``store``: the ``Store`` method alone, in this process (``recall``; ``boot_section``
  for every section; ``remember``; ``list_memories``; ``forget``), and for ``recall`` and
  ``remember`` its ``store cpu``: the CPU time of the process (``time.process_time``, every
  thread, the embedding's too) during the same calls, steadier than wall time on a busy machine;
- ``handler``: the tool's handler in this process (``tools.handlers`` and
  ``tools.boot.boot_context``): the store plus what the tool layer adds (hints, counts,
  shaping), without the wire;
- ``stdio``: ``memvault serve`` in a subprocess, called with the MCP SDK's client: the
  ``recall``/``remember``/``forget`` tools, a listing (``recall`` with an empty query and
  ``kinds``) and a read of ``memory://boot``. Two passes,
  labelled: ``first``, right after the server answers ``initialize`` (its warm-up still
  running), and ``second``;
- ``raw``: the same calls (second pass) to a new ``memvault serve`` with no client library:
  one JSON-RPC request line written, one response line read, nothing validated; and
  ``server/discover``, the round trip of a request the server answers at once. ``stdio``
  minus ``raw`` is what the Python client adds (its own work, e.g. validating
  ``structuredContent`` against the output schema); ``raw`` is what the server costs on the wire.

The ratios ``stdio / store`` and ``raw / store`` per call are what issue 28 asks to keep small.
Timings drift with the machine's load: compare the columns of one run, not runs on different days.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

import contextlib

from locomo_data import load
from pgtemp import databases
from scale import LOCOMO, SCOPE, TENANT, PerturbedEmbedder, build, suffixed

from memvault.storage import transfer
from memvault.storage.embeddings import INTEGER, VARIANT_NAMES, Embedder
from memvault.storage.store import Store
from memvault.tools import boot, handlers

BOOT_TOKENS = 1500
WRITES = 30  # remember calls per pass (then forgotten again)
# What the SDK's client sends with every request (its protocol, 2026-07-28, has no initialize).
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "bench-raw", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {}}


def summary(ms: list[float]) -> dict[str, float]:
    ordered = sorted(ms)
    return {"p50": round(statistics.median(ordered), 1), "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 1)}


def clock(fn, *args, **kwargs) -> tuple[float, object]:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return (time.perf_counter() - start) * 1000, out


def cpu_clock(cpu: list[float], fn, *args, **kwargs) -> tuple[float, object]:  # type: ignore[no-untyped-def]
    """``clock``, also appending to ``cpu`` the CPU ms of the process (every thread) during the call."""
    start = time.process_time()
    out = clock(fn, *args, **kwargs)
    cpu.append((time.process_time() - start) * 1000)
    return out


def in_process(path: Path | str, questions: list[str]) -> dict[str, dict[str, dict[str, float]]]:
    """The store and handler columns, on a warmed-up store."""
    store = Store(path, Embedder())
    store.warm_up()
    caller = handlers.Caller(TENANT, SCOPE)
    scopes = caller.scopes(None)
    calls: dict[str, dict[str, list[float]]] = {c: {"store": [], "handler": []} for c in
                                               ("recall", "boot", "remember", "listing", "forget")}
    for c in ("recall", "remember"):
        calls[c]["store cpu"] = []
    try:
        for n, q in enumerate(questions):  # in turn first: the second of the same question finds its pages cached
            timed = {"store": lambda: cpu_clock(calls["recall"]["store cpu"], store.recall, tenant=TENANT,
                                                scopes=scopes, query=q, limit=5)[0],
                     "handler": lambda: clock(handlers.recall, store, caller, query=q, limit=5)[0]}
            for col in (("store", "handler") if n % 2 == 0 else ("handler", "store")):
                calls["recall"][col].append(timed[col]())
        for _ in range(5):
            start = time.perf_counter()
            for section in boot.SECTIONS:
                store.boot_section(tenant=TENANT, scopes=scopes, kinds=list(section.kinds),
                                   newest_first=section.newest_first, max_rows=BOOT_TOKENS // boot.MIN_LINE_TOKENS + 1)
            calls["boot"]["store"].append((time.perf_counter() - start) * 1000)
            calls["boot"]["handler"].append(clock(boot.boot_context, store, caller, BOOT_TOKENS)[0])
            calls["listing"]["store"].append(clock(store.list_memories, tenant=TENANT, scopes=scopes,
                                                   kinds=["fact"], limit=10)[0])
            calls["listing"]["handler"].append(clock(handlers.recall, store, caller, query="", kinds=["fact"],
                                                     limit=10)[0])
        ids = []
        for i in range(WRITES):
            ms, out = cpu_clock(calls["remember"]["store cpu"], store.remember, tenant=TENANT, scope=SCOPE,
                                content=f"bench note {i} {random.random()}")
            calls["remember"]["store"].append(ms)
            ids.append(out.id)  # type: ignore[attr-defined]
            ms, out = clock(handlers.remember, store, caller, content=f"bench handler note {i} {random.random()}")
            calls["remember"]["handler"].append(ms)
            ids.append(out.id)  # type: ignore[attr-defined]
        for n, memory_id in enumerate(ids):
            if n % 2:
                calls["forget"]["handler"].append(clock(handlers.forget, store, caller, id=memory_id)[0])
            else:
                calls["forget"]["store"].append(clock(store.forget, tenant=TENANT, id=memory_id)[0])
    finally:
        store.close()
    return {call: {col: summary(ms) for col, ms in cols.items()} for call, cols in calls.items()}


def server_env(path: Path | str) -> dict[str, str]:
    return {**os.environ, "MEMVAULT_DB": str(path), "MEMVAULT_TENANT": TENANT, "MEMVAULT_SCOPE": SCOPE,
            "MEMVAULT_BOOT_TOKENS": str(BOOT_TOKENS)}


class RawClient:
    """``memvault serve`` over stdio without a client library, speaking the protocol the SDK's client
    negotiates: each request one line written (with the client's ``_meta``), its response the line
    read with the same id; nothing validated."""

    def __init__(self, path: Path | str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "memvault.server", "serve"], env=server_env(path),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 0
        self.request("server/discover")

    def send(self, message: dict) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict | None = None) -> dict:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": {**(params or {}), "_meta": META}})
        assert self.proc.stdout is not None
        while True:
            reply = json.loads(self.proc.stdout.readline() or b"null")
            if reply is None or "error" in reply or reply.get("result", {}).get("isError"):
                raise RuntimeError(f"{method}: {reply}")
            if reply.get("id") == self.next_id:
                return reply["result"]

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(30)


def over_raw(path: Path | str, questions: list[str]) -> dict[str, dict[str, dict[str, float]]]:
    """The raw column: the calls of ``over_stdio``'s second pass, on a new server, after a first pass."""
    out: dict[str, list[float]] = {}
    client = RawClient(path)

    def timed(name: str, method: str, params: dict | None = None) -> dict:
        ms, result = clock(client.request, method, params)
        out.setdefault(name, []).append(ms)
        return result  # type: ignore[return-value]

    try:
        for _ in range(2):
            out.clear()
            for q in questions:
                timed("recall", "tools/call", {"name": "recall", "arguments": {"query": q, "limit": 5}})
            for _ in range(5):
                timed("boot", "resources/read", {"uri": "memory://boot"})
                timed("listing", "tools/call", {"name": "recall", "arguments": {"query": "", "kinds": ["fact"],
                                                                               "limit": 10}})
                timed("discover", "server/discover")  # the round trip of a request the server answers at once
            ids = [timed("remember", "tools/call", {"name": "remember", "arguments": {"content": f"raw note {i}"}})
                   ["structuredContent"]["id"] for i in range(WRITES)]
            for memory_id in ids:
                timed("forget", "tools/call", {"name": "forget", "arguments": {"id": memory_id}})
    finally:
        client.close()
    return {call: {"raw": summary(ms)} for call, ms in out.items()}


async def over_stdio(path: Path | str, questions: list[str]) -> dict[str, dict[str, dict[str, float]]]:
    """The stdio columns: two passes over one server."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "memvault.server", "serve"],
                                   env=server_env(path))
    out: dict[str, dict[str, list[float]]] = {}

    async def timed(name: str, coro) -> object:  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        result = await coro
        out.setdefault(name, {}).setdefault(PASS, []).append((time.perf_counter() - start) * 1000)
        if getattr(result, "is_error", False):
            raise RuntimeError(f"{name}: {result}")
        return result

    with open(os.devnull, "w") as errlog:
        async with Client(stdio_client(params, errlog=errlog)) as client:
            for PASS in ("first", "second"):  # noqa: N806 (read by timed)
                for q in questions:
                    await timed("recall", client.call_tool("recall", {"query": q, "limit": 5}))
                for _ in range(5):
                    await timed("boot", client.read_resource("memory://boot"))
                    await timed("listing", client.call_tool("recall", {"query": "", "kinds": ["fact"], "limit": 10}))
                ids = []
                for i in range(WRITES):
                    r = await timed("remember", client.call_tool("remember", {"content": f"wire note {PASS} {i}"}))
                    ids.append(r.structured_content["id"])  # type: ignore[attr-defined]
                for memory_id in ids:
                    await timed("forget", client.call_tool("forget", {"id": memory_id}))
    return {call: {f"stdio {p}": summary(ms) for p, ms in passes.items()} for call, passes in out.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sizes")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "memvault-scale")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--locomo", type=Path, default=LOCOMO)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--pg-url", help="a PostgreSQL server to make the databases on (default: a temporary one)")
    parser.add_argument("--existing", help="measure this store as it is (a path or a postgresql:// URL holding the "
                        "one size given, built or imported before, e.g. by an earlier run); nothing is built")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as stack:
        new_pg = stack.enter_context(databases(args.pg_url)) \
            if args.backend == "postgresql" and not args.existing else None
        run(args, new_pg)


def imported_pg(url: str, jsonl: Path, embedder: PerturbedEmbedder) -> None:
    """The store of ``jsonl`` (as ``build`` wrote it) imported into the empty database ``url``."""
    store = Store(url, embedder)  # type: ignore[arg-type]
    try:
        with jsonl.open() as fh:
            report = transfer.import_lines(store, fh, tenant=TENANT, scope=SCOPE)
        assert not report.failed, report
    finally:
        store.close()


def prepared(args: argparse.Namespace, size: int, turns: list[str], new_pg) -> Path | str:  # type: ignore[no-untyped-def]
    """The store of ``size`` memories: built in ``--work`` when missing, and with ``--backend
    postgresql`` imported into a new database (its URL)."""
    path = args.work / f"scale-{size}-{INTEGER}.db"
    perturbed = None
    if not path.exists() or new_pg is not None:
        real = Embedder()
        real.follow(f"{VARIANT_NAMES[INTEGER]}@")
        real.load()
        perturbed = PerturbedEmbedder(real, real.embed(turns))
    if not path.exists():
        built = build(path, suffixed(turns, size), perturbed)  # type: ignore[arg-type]
        path.with_suffix(".build.json").write_text(json.dumps(built))
    if new_pg is None:
        return path
    url = new_pg(f"bench_wire_{size}")
    imported_pg(url, path.with_suffix(".jsonl"), perturbed)  # type: ignore[arg-type]
    return url


def run(args: argparse.Namespace, new_pg) -> None:  # type: ignore[no-untyped-def]
    """Every size's table, printed and (``--json``) written."""
    by_conversation, queries = load(args.locomo)
    turns = [t.text for ts in by_conversation.values() for t in ts]
    questions = random.Random(11).sample([q.question for q in queries], args.queries)
    results = {}
    for size in (int(s) for s in args.sizes.split(",")):
        db = args.existing or prepared(args, size, turns, new_pg)
        figures = anyio.run(over_stdio, db, questions)  # first: the server meets the store as left by import
        for more in (over_raw(db, questions), in_process(db, questions)):
            for call, cols in more.items():
                figures.setdefault(call, {}).update(cols)
        for cols in figures.values():
            if "store" in cols:  # discover has no store figure
                for col in ("stdio second", "raw"):
                    cols[f"{col}/store"] = round(cols[col]["p50"] / max(cols["store"]["p50"], 0.1), 1)
        results[size] = figures
        print(f"## {size:,} memories, {args.backend} (load average {os.getloadavg()[0]:.1f})")
        columns = ("store", "store cpu", "handler", "stdio first", "stdio second", "raw")
        print("| call | " + " | ".join(f"{c} p50/p95" for c in columns) + " | stdio/store | raw/store |")
        print("|---" * (len(columns) + 3) + "|")
        for call, c in figures.items():
            cells = [f"{c[k]['p50']} / {c[k]['p95']}" if k in c else "" for k in columns]
            ratios = [str(c.get(f"{k}/store", "")) for k in ("stdio second", "raw")]
            print(f"| {call} | " + " | ".join(cells + ratios) + " |")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
