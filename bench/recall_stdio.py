"""Recall over MCP stdio, an older checkout's server against this one's, interleaved call by call
(issue 28: "stdio recall p50 <= 20 ms at 10k").

Usage: python bench/recall_stdio.py STORE --base DIR [--queries 100] [--passes 2] [--locomo DIR]

STORE is a store built by ``bench/scale.py`` (tenant "bench", scope "s"); each side serves a fresh copy
of it (``memvault serve``, opening may migrate it), ``--base`` imported by path as in
``same_recalls.side_command``. Both servers run at once, called with the MCP SDK's client; each of
``--queries`` LoCoMo questions (seed 11, as ``bench/wire.py``) is recalled (limit 5) by one side then
the other, which goes first alternating, ``--passes`` times (the first pass also warms up). Printed as
JSON: p50/p95 ms per side of the last pass, and the ratios this / base. On a loaded machine compare the
ratios of one run, never one run's times with another's.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from locomo_data import load  # noqa: E402
from same_recalls import side_command  # noqa: E402
from wire import LOCOMO, server_env, summary  # noqa: E402


async def timed_sides(stores: dict[str, tuple[list[str], Path]], questions: list[str],
                      passes: int) -> dict[str, list[float]]:
    """Each side's recall times (ms) of the last pass."""
    out: dict[str, list[float]] = {name: [] for name in stores}
    with open(os.devnull, "w") as errlog:
        async with Client(stdio_client(StdioServerParameters(
                command=stores["base"][0][0], args=stores["base"][0][1:], env=server_env(stores["base"][1])),
                errlog=errlog)) as base, Client(stdio_client(StdioServerParameters(
                command=stores["this"][0][0], args=stores["this"][0][1:], env=server_env(stores["this"][1])),
                errlog=errlog)) as this:
            clients = {"base": base, "this": this}
            for n in range(passes):
                for i, q in enumerate(questions):
                    for name in (("base", "this") if i % 2 == 0 else ("this", "base")):
                        start = time.perf_counter()
                        result = await clients[name].call_tool("recall", {"query": q, "limit": 5})
                        if result.is_error:
                            raise RuntimeError(f"{name}: {result}")
                        if n == passes - 1:
                            out[name].append((time.perf_counter() - start) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("store", type=Path)
    parser.add_argument("--base", type=Path, required=True, help="a checkout of the older code")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--locomo", type=Path, default=LOCOMO)
    args = parser.parse_args()
    _, queries = load(args.locomo)
    questions = random.Random(11).sample([q.question for q in queries], args.queries)
    with tempfile.TemporaryDirectory() as work:
        stores = {}
        for name, code in (("base", args.base), ("this", None)):
            copy = Path(work) / f"{name}.db"
            shutil.copy(args.store, copy)
            path = side_command(code, Path(work) / name, "")[3]  # (makes the package of ``code``)
            stores[name] = ([sys.executable, "-c", "import runpy, sys; sys.path[:0] = sys.argv[1:2];"
                             " sys.argv[:] = ['memvault', 'serve']; runpy.run_module('memvault.server',"
                             " run_name='__main__', alter_sys=True)", path], copy)
        times = anyio.run(timed_sides, stores, questions, args.passes)
    sides = {name: summary(ms) for name, ms in times.items()}
    print(json.dumps({**sides, "this/base": {k: round(sides["this"][k] / sides["base"][k], 3) for k in ("p50", "p95")},
                      "load average": round(os.getloadavg()[0], 1)}, indent=1))


if __name__ == "__main__":
    main()
