"""Retrieval evaluation harness: memvault's recall against keyword-only and vector-only
baselines on a LoCoMo-style folder, through the same code path the tools use.

Usage: python bench/eval_retrieval.py ../shared/eval/locomo [--db PATH] [--json OUT]

Each conversation is stored in its own scope by ``memvault.tools.handlers.remember``
and every question is asked with ``handlers.recall`` (limit 50). Baselines come
from the same candidate queries (``Store.ranked_lists``). Reports recall@5/10,
hit@10, MRR, nDCG@10 overall and per category (main and paper scoring, as the
data's README defines them), abstention rates, and recall latency p50/p95.

Abstention check: every conversation's questions are also asked against the next
conversation's scope, where nothing is relevant; those should abstain, while
answerable in-conversation questions should not.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from locomo_data import Query, load, score

from memvault.storage.embeddings import Embedder
from memvault.storage.store import Store
from memvault.tools import handlers

TENANT = "locomo"
METRICS = ("R@5", "R@10", "hit@10", "MRR", "nDCG@10")


def ingest(store: Store, folder: Path) -> dict[str, str]:
    """Store every turn (skipped when the database already holds them); memvault id -> LoCoMo id."""
    turns, _ = load(folder)
    ids: dict[str, str] = {}
    for conversation, conv_turns in turns.items():
        caller = handlers.Caller(tenant=TENANT, scope=conversation)
        for turn in conv_turns:
            out = handlers.remember(
                store, caller, content=turn.content, source=turn.speaker, observed_at=turn.observed_at,
                kind="episode", idempotency_key=turn.id,
            )
            ids[out.id] = turn.id
    return ids


def plain_rrf(keyword: list[str], vector: list[str], k: int = 60) -> list[str]:
    """Textbook reciprocal rank fusion, equal weights (Cormack et al. 2009): the naive baseline."""
    scores: dict[str, float] = {}
    for ranked in (keyword, vector):
        for rank, memory_id in enumerate(ranked, start=1):
            scores[memory_id] = scores.get(memory_id, 0.0) + 1.0 / (k + rank)
    return sorted(scores, key=scores.__getitem__, reverse=True)[:50]


# Published figures on LoCoMo for comparison (not measured by this script).
REFERENCES = {
    "paper": {"DRAGON (LoCoMo paper, ACL 2024, Table 3)": {"R@5": 0.567, "R@10": 0.662}},
    "main": {"mcp-memory-service-lite 12.4.0 hybrid, dev split": {"R@5": 0.431, "R@10": 0.484}},
}


def evaluate(store: Store, ids: dict[str, str], queries: list[Query]) -> dict:
    """Run every query through recall and the two baselines; return the report."""
    runs: dict[str, dict[str, list[str]]] = {"memvault": {}, "keyword-only": {}, "vector-only": {}, "rrf-k60": {}}
    latencies: list[float] = []
    abstained_main = 0
    conversations = sorted({q.conversation for q in queries})
    for q in queries:
        caller = handlers.Caller(tenant=TENANT, scope=q.conversation)
        start = time.perf_counter()
        found = handlers.recall(store, caller, query=q.question, limit=50)
        latencies.append((time.perf_counter() - start) * 1000)
        runs["memvault"][q.id] = [ids[m.id] for m in found.memories]
        abstained_main += bool(q.main and found.abstained)
        keyword, vector = store.ranked_lists(tenant=TENANT, query=q.question, scopes=[q.conversation], k=50)
        runs["keyword-only"][q.id] = [ids[i] for i in keyword]
        runs["vector-only"][q.id] = [ids[i] for i in vector]
        runs["rrf-k60"][q.id] = [ids[i] for i in plain_rrf(keyword, vector)]
    cross_abstained = 0
    for q in queries:
        other = conversations[(conversations.index(q.conversation) + 1) % len(conversations)]
        found = handlers.recall(store, handlers.Caller(tenant=TENANT, scope=other), query=q.question, limit=10)
        cross_abstained += found.abstained
    main = [q for q in queries if q.main]
    paper = [q for q in queries if q.relevant]
    report: dict = {"queries": len(queries), "main_queries": len(main), "retrievers": {}}
    for name, results in runs.items():
        categories = sorted({q.category for q in main})
        report["retrievers"][name] = {
            "main": score(results, main),
            "paper": score(results, paper),
            "by_category": {c: score(results, [q for q in main if q.category == c]) for c in categories},
        }
    n_main = len(main)
    report["abstention"] = {
        "cross_conversation_abstained": cross_abstained / len(queries),
        "answerable_abstained": abstained_main / n_main,
    }
    latencies.sort()
    report["recall_ms"] = {
        "p50": round(statistics.median(latencies), 2),
        "p95": round(latencies[int(0.95 * (len(latencies) - 1))], 2),
    }
    return report


def print_report(report: dict) -> None:
    """The comparison table on stdout."""
    out = sys.stdout.write
    for scoring in ("main", "paper"):
        out(f"\n{scoring} scoring ({report['retrievers']['memvault'][scoring]['n']} queries)\n")
        out(f"{'retriever':<14}" + "".join(f"{m:>9}" for m in METRICS) + "\n")
        for name, r in report["retrievers"].items():
            out(f"{name:<14}" + "".join(f"{r[scoring][m]:>9.3f}" for m in METRICS) + "\n")
        for name, figures in REFERENCES[scoring].items():
            cells = "".join(f"{figures[m]:>9.3f}" if m in figures else f"{'':>9}" for m in METRICS)
            out(f"{'published':<14}{cells}  {name}\n")
    out("\nmain scoring by category (R@5 / R@10 / MRR)\n")
    for name, r in report["retrievers"].items():
        cells = "  ".join(
            f"{c} {v['R@5']:.3f}/{v['R@10']:.3f}/{v['MRR']:.3f}" for c, v in r["by_category"].items()
        )
        out(f"{name:<14}{cells}\n")
    a = report["abstention"]
    out(
        f"\nabstention: cross-conversation {a['cross_conversation_abstained']:.1%} abstained (want >= 80%), "
        f"answerable {a['answerable_abstained']:.1%} abstained (want <= 5%)\n"
    )
    out(f"recall latency: p50 {report['recall_ms']['p50']} ms, p95 {report['recall_ms']['p95']} ms\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="folder with memories.jsonl and queries.jsonl")
    parser.add_argument("--db", type=Path, help="database to use (reused if it exists; default: temporary)")
    parser.add_argument("--json", type=Path, help="write the full report here")
    args = parser.parse_args()
    _, queries = load(args.folder)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(args.db or Path(tmp) / "eval.db", Embedder())
        start = time.perf_counter()
        ids = ingest(store, args.folder)
        ingest_s = time.perf_counter() - start
        report = evaluate(store, ids, queries)
        report["ingest_seconds"] = round(ingest_s, 1)
        store.close()
    print_report(report)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
