"""A new session's wait for its boot context: a fresh ``memvault serve`` over stdio (the MCP SDK's client), the time
to ``initialize`` from the spawn, then the first read of ``memory://boot``, as a client starting a session does;
this install's server against another's (``--against``: the ``memvault`` of another checkout's venv), alternated,
on a copy of the same store each (one per install, read by each of its servers).

    python bench/first_boot.py --db /tmp/scale-10000.db --against /path/to/old/.venv/bin/memvault --runs 8

Prints each server's medians (ms) and new / old.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client


async def session(memvault: str, db: Path) -> tuple[float, float]:
    """(seconds from the spawn to ``initialize`` answered, seconds of the first boot read) of one new server."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMVAULT_")}
    server = StdioServerParameters(command=memvault, args=["--db", str(db), "serve"], env=env)
    started = time.perf_counter()
    with open(os.devnull, "w") as log:
        async with stdio_client(server, errlog=log) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            ready = time.perf_counter()
            await client.read_resource("memory://boot")
            return ready - started, time.perf_counter() - ready


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, required=True, help="an SQLite store (copied for each server)")
    parser.add_argument("--against", required=True, help="the other install's memvault executable")
    parser.add_argument("--runs", type=int, default=8)
    args = parser.parse_args()
    this = str(Path(sys.executable).with_name("memvault"))
    spent: dict[str, list[tuple[float, float]]] = {"new": [], "old": []}
    with tempfile.TemporaryDirectory() as scratch:
        copies = {label: Path(scratch) / f"{label}.db" for label in spent}
        for copy in copies.values():
            for suffix in ("", "-wal", "-shm"):
                if Path(f"{args.db}{suffix}").exists():
                    shutil.copy(f"{args.db}{suffix}", f"{copy}{suffix}")
        for _ in range(args.runs):
            for label, memvault in (("new", this), ("old", args.against)):
                spent[label].append(asyncio.run(session(memvault, copies[label])))
    medians = {label: [statistics.median(r[i] for r in rows) * 1000 for i in (0, 1)] for label, rows in spent.items()}
    for label, (ready, boot) in medians.items():
        print(f"{label}: initialize {ready:.0f} ms, first boot read {boot:.0f} ms "
              f"(each: {' '.join(f'{r[1] * 1000:.0f}' for r in spent[label])})")
    print(f"new / old: initialize {medians['new'][0] / medians['old'][0]:.2f}, "
          f"first boot read {medians['new'][1] / medians['old'][1]:.2f}")


if __name__ == "__main__":
    main()
