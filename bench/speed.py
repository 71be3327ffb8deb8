"""Speed figures: start-up to ``initialize``, ``remember`` and ``recall`` latency.

Usage: python bench/speed.py [--memories 5000] [--starts 10] [--backend sqlite|postgresql|both] [--pg-url URL]
                              [--corpus real|synthetic] [--eval ../shared/eval]
                              [--variant integer|dequantised|both]

1. Process start to the ``initialize`` response, for ``memvault serve`` and for a
   bare MCP SDK server that only imports ``mcp.server.mcpserver`` (measured
   alternately in the same run; medians reported).
2. ``remember`` of N memories, then 300 ``recall`` calls at N memories, through the
   Store with the real model (query embedding included), p50/p95 in ms, on each
   backend asked for (PostgreSQL: the server of ``--pg-url``, else a temporary one),
   for each variant of the packaged model asked for (``storage/int8model.py``), with
   the time to embed one question alone beside it.

Corpus ``real`` (default): the memories are the turns of ``eval/locomo`` and the agent
memories of ``eval/agentic``, again with the speaker's name in front when N is larger
than both; the questions are both sets' questions. Corpus ``synthetic``: 200-character
memories and 15-60-character questions drawn from a 100-word vocabulary, a worst case
for the keyword side (most memories share most words of any question).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from locomo_data import load
from pgtemp import databases

BARE_SERVER = """
from mcp.server.mcpserver import MCPServer
MCPServer("bare").run("stdio")
"""
INITIALIZE = json.dumps({
    "jsonrpc": "2.0", "id": 1, "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}},
}) + "\n"

WORDS = (
    "deploy cluster staging database backup token rotate weekly api gateway latency budget review customer "
    "invoice refund policy python rust service queue worker retry timeout cache redis postgres index migration "
    "schema release branch merge conflict test flaky login session cookie browser mobile android ios design "
    "meeting standup sprint roadmap hiring onboarding laptop vpn office coffee lunch travel visa conference talk "
    "paper benchmark model embedding vector search keyword ranking fusion memory agent tool prompt context"
).split()


def time_to_initialize(cmd: list[str], env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, env=env)
    assert proc.stdin and proc.stdout
    proc.stdin.write(INITIALIZE)
    proc.stdin.flush()
    line = proc.stdout.readline()
    elapsed = time.perf_counter() - start
    assert '"result"' in line, line
    proc.kill()
    proc.wait()
    return elapsed


def sentence(rng: random.Random, chars: int) -> str:
    words: list[str] = []
    while len(" ".join(words)) < chars:
        words.append(rng.choice(WORDS))
    return " ".join(words)[:chars]


def corpus(kind: str, folder: Path, memories: int) -> tuple[list[str], list[str]]:
    """``memories`` texts to remember and 300 questions (see the module docstring)."""
    rng = random.Random(7)
    if kind == "synthetic":
        texts = [f"{i} " + sentence(rng, 196) for i in range(memories)]
        return texts, [sentence(rng, rng.randint(15, 60)) for _ in range(300)]
    turns, questions = [], []
    for name in ("locomo", "agentic"):
        if not (folder / name / "memories.jsonl").exists():
            raise SystemExit(f"speed.py: {folder / name} has no memories.jsonl; give --eval or --corpus synthetic")
        by_conversation, queries = load(folder / name)
        turns += [t for ts in by_conversation.values() for t in ts]
        questions += [q.question for q in queries]
    texts = [t.content for t in turns] + [f"{t.speaker}: {t.content}" for t in turns]
    if memories > len(texts):
        raise SystemExit(f"speed.py: the real corpus has {len(texts)} memories; ask for at most that many")
    return texts[:memories], rng.sample(questions, 300)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[int(p * (len(ordered) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=5000)
    parser.add_argument("--starts", type=int, default=10)
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="sqlite")
    parser.add_argument("--pg-url", help="PostgreSQL server to create the database on (default: a temporary one)")
    parser.add_argument("--corpus", choices=("real", "synthetic"), default="real")
    parser.add_argument("--eval", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "eval",
                        help="folder holding locomo/ and agentic/ (corpus real)")
    parser.add_argument("--variant", choices=("integer", "dequantised", "both"), default="integer",
                        help="variant of the packaged model (default: integer, what new stores use)")
    args = parser.parse_args()
    texts, questions = corpus(args.corpus, args.eval, args.memories)
    import os

    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "MEMVAULT_DB": str(Path(tmp) / "start.db")}
        bare, mem = [], []
        for _ in range(args.starts):
            bare.append(time_to_initialize([sys.executable, "-c", BARE_SERVER]))
            mem.append(time_to_initialize([sys.executable, "-m", "memvault.server", "serve"], env))
        b, m = statistics.median(bare), statistics.median(mem)
        print(f"start-up to initialize: bare SDK server {b:.3f} s, memvault {m:.3f} s, difference {m - b:+.3f} s "
              f"(median of {args.starts})")

        from memvault.storage.embeddings import VARIANT_NAMES, Embedder

        backends = ("sqlite", "postgresql") if args.backend == "both" else (args.backend,)
        variants = ("integer", "dequantised") if args.variant == "both" else (args.variant,)
        with contextlib.ExitStack() as stack:
            new_pg = stack.enter_context(databases(args.pg_url)) if "postgresql" in backends else None
            for variant in variants:
                embedder = Embedder()
                embedder.follow(f"{VARIANT_NAMES[variant]}@")
                embedder.embed(questions[:20])  # loaded and warm
                alone = []
                for query in questions:
                    start = time.perf_counter()
                    embedder.embed([query])
                    alone.append((time.perf_counter() - start) * 1000)
                print(f"model {embedder.model_id}: one question embedded alone: p50 {statistics.median(alone):.1f} ms")
                for backend in backends:
                    db = (Path(tmp) / f"speed-{variant}.db" if backend == "sqlite"
                          else new_pg(f"bench_speed_{variant}"))  # type: ignore[misc]
                    latencies(f"{backend}, {variant}", db, embedder, texts, questions)


def latencies(backend: str, db: Path | str, embedder: object, texts: list[str], questions: list[str]) -> None:
    """Print remember latency over ``texts`` and recall latency of ``questions`` on ``db``."""
    from memvault.storage.store import Store

    store = Store(db, embedder)  # type: ignore[arg-type]
    remember_ms = []
    for text in texts:
        start = time.perf_counter()
        store.remember(tenant="bench", scope="s", content=text)
        remember_ms.append((time.perf_counter() - start) * 1000)
    recall_ms = []
    for query in questions:
        start = time.perf_counter()
        store.recall(tenant="bench", query=query, scopes=["s", "global"], limit=5)
        recall_ms.append((time.perf_counter() - start) * 1000)
    store.close()
    print(f"{backend}: remember: p50 {statistics.median(remember_ms):.1f} ms, "
          f"p95 {percentile(remember_ms, 0.95):.1f} ms over {len(remember_ms)}")
    print(f"{backend}: recall at {len(texts)} memories: p50 {statistics.median(recall_ms):.1f} ms, "
          f"p95 {percentile(recall_ms, 0.95):.1f} ms over {len(recall_ms)}")

if __name__ == "__main__":
    main()
