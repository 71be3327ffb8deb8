"""LoCoMo through the real server: every turn stored with the ``remember`` tool and every
question asked with ``recall``, over MCP stdio, exactly as an agent would.

Usage: python bench/locomo_mcp.py ../shared/eval/locomo [--db PATH] [--json OUT]

Each conversation is its own scope (memories and queries never cross). Prints
R@5, R@10, hit@10, MRR, nDCG@10 (main scoring of the data's README) and the
share of in-conversation queries where recall abstained.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import anyio
from locomo_data import load, score
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client


async def run(folder: Path, db: Path) -> dict:
    turns, queries = load(folder)
    env = {**os.environ, "MEMVAULT_DB": str(db)}
    params = StdioServerParameters(command=sys.executable, args=["-m", "memvault.server", "serve"], env=env)
    ids: dict[str, str] = {}  # memvault id -> LoCoMo id
    results: dict[str, list[str]] = {}
    abstained = 0
    with open(os.devnull, "w") as errlog:
        async with Client(stdio_client(params, errlog=errlog)) as client:
            start = time.perf_counter()
            for conversation, conv_turns in turns.items():
                for turn in conv_turns:
                    r = await client.call_tool("remember", {
                        "content": turn.content, "scope": conversation, "source": turn.speaker,
                        "observed_at": turn.observed_at, "kind": "episode", "idempotency_key": turn.id,
                    })
                    if r.is_error:
                        raise SystemExit(f"remember failed for {turn.id}: {r.content[0].text}")
                    ids[r.structured_content["id"]] = turn.id
            ingest_s = time.perf_counter() - start
            start = time.perf_counter()
            for q in queries:
                r = await client.call_tool("recall", {"query": q.question, "scope": q.conversation, "limit": 50})
                if r.is_error:
                    raise SystemExit(f"recall failed for {q.id}: {r.content[0].text}")
                results[q.id] = [ids[m["id"]] for m in r.structured_content["memories"]]
                abstained += bool(q.main and r.structured_content["abstained"])
            recall_s = time.perf_counter() - start
    main = [q for q in queries if q.main]
    return {
        "memories": len(ids),
        "queries": len(queries),
        "main": score(results, main),
        "paper": score(results, [q for q in queries if q.relevant]),
        "abstained_main_share": abstained / len(main),
        "ingest_seconds": round(ingest_s, 1),
        "recall_seconds": round(recall_s, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--db", type=Path, help="database file to create (default: a temporary one)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "locomo.db"
        report = anyio.run(run, args.folder, db)
    m = report["main"]
    print(f"memories {report['memories']}, queries {report['queries']} (main scoring: {m['n']})")
    print(f"R@5 {m['R@5']:.3f}  R@10 {m['R@10']:.3f}  R@1 {m['R@1']:.3f}  MRR {m['MRR']:.3f}  "
          f"nDCG@10 {m['nDCG@10']:.3f}")
    print(f"abstained on {report['abstained_main_share']:.1%} of answerable queries")
    print(f"ingest {report['ingest_seconds']} s, recall {report['recall_seconds']} s")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
