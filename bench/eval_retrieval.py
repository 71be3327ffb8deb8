"""Retrieval evaluation harness: memvault's recall beside keyword-only, vector-only and
plain RRF baselines, on any folder in LoCoMo's layout (``../shared/eval/locomo``,
``../shared/eval/agentic``), through the same code path the tools use.

Usage: python bench/eval_retrieval.py FOLDER [FOLDER ...] [--holdout CONV,...] [--json OUT]
       [--backend sqlite|postgresql|both] [--pg-url postgresql://...]

``--backend both`` runs every folder on SQLite and on PostgreSQL in the same run (the
PostgreSQL server named by ``--pg-url``, else a temporary one from ``pgserver``).

Each conversation (or agent store) is stored alone in its own scope by
``memvault.tools.handlers.remember`` (kind, tags and importance passed through when the
folder has them), with the store's clock set to the folder's end of timeline (its
latest ``observed_at`` plus a day: "now" for questions such as "what is current").
Every question is asked with ``handlers.recall`` (limit 50). Baselines come from the
same candidate queries (``Store.ranked_lists``).

Scoring, as each folder's README defines it: a folder whose memories carry ``kind``
(the agentic set) scores R@k as hit@k, LoCoMo as recall@k. Reported per set and per
category: R@1, R@5, R@10, MRR, nDCG@10; false abstention (answerable questions that got
nothing); abstention on in-store no-answer questions (``expected_abstain`` without
relevant ids); abstention when every question is asked of the next conversation, where
nothing is relevant; recall latency p50/p95. ``--holdout`` names conversations scored
separately as well, so tuning on the rest can be checked on them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from locomo_data import Query, Turn, load, score
from pgtemp import databases

from memvault.storage.embeddings import INTEGER, VARIANT_NAMES, Embedder
from memvault.storage.store import Store
from memvault.storage.timefmt import parse_iso
from memvault.tools import handlers

METRICS = ("R@1", "R@5", "R@10", "MRR", "nDCG@10")
RETRIEVERS = ("memvault", "keyword-only", "vector-only", "rrf-k60")


def ingest(store: Store, tenant: str, turns: dict[str, list[Turn]]) -> dict[str, str]:
    """Store every memory (idempotent: a reused database is not filled twice); memvault id -> folder id."""
    ids: dict[str, str] = {}
    for conversation, conv_turns in turns.items():
        caller = handlers.Caller(tenant=tenant, scope=conversation)
        for turn in conv_turns:
            out = handlers.remember(
                store, caller, content=turn.content, source=None if turn.kind else turn.speaker,
                observed_at=turn.observed_at, kind=turn.kind or "episode", tags=list(turn.tags) or None,
                importance=turn.importance, idempotency_key=turn.id,
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


def evaluate(store: Store, tenant: str, ids: dict[str, str], queries: list[Query], hits: bool,
             holdout: set[str]) -> dict:
    """Run every query through recall and the baselines; return the report of one folder."""
    runs: dict[str, dict[str, list[str]]] = {name: {} for name in RETRIEVERS}
    abstained: dict[str, bool] = {}
    latencies: list[float] = []
    conversations = sorted({q.conversation for q in queries})
    for q in queries:
        caller = handlers.Caller(tenant=tenant, scope=q.conversation)
        start = time.perf_counter()
        found = handlers.recall(store, caller, query=q.question, limit=50)
        latencies.append((time.perf_counter() - start) * 1000)
        runs["memvault"][q.id] = [ids[m.id] for m in found.memories]
        abstained[q.id] = found.abstained
        keyword, vector = store.ranked_lists(tenant=tenant, query=q.question, scopes=[q.conversation], k=50)
        runs["keyword-only"][q.id] = [ids[i] for i in keyword]
        runs["vector-only"][q.id] = [ids[i] for i in vector]
        runs["rrf-k60"][q.id] = [ids[i] for i in plain_rrf(keyword, vector)]
    cross = 0
    if len(conversations) > 1:
        for q in queries:
            other = conversations[(conversations.index(q.conversation) + 1) % len(conversations)]
            found = handlers.recall(store, handlers.Caller(tenant=tenant, scope=other), query=q.question, limit=10)
            cross += found.abstained

    def part(selected: list[Query]) -> dict:
        main = [q for q in selected if q.main]
        no_answer = [q for q in selected if q.no_answer]
        out: dict = {"retrievers": {}}
        for name, results in runs.items():
            out["retrievers"][name] = {
                "all": score(results, main, hits),
                "by_category": {c: score(results, [q for q in main if q.category == c], hits)
                                for c in sorted({q.category for q in main})},
            }
        out["false_abstention"] = sum(abstained[q.id] for q in main) / max(1, len(main))
        out["no_answer_abstained"] = {
            c: (sum(abstained[q.id] for q in no_answer if q.category == c),
                sum(1 for q in no_answer if q.category == c))
            for c in sorted({q.category for q in no_answer})
        }
        stale = [q for q in main if q.superseded]
        out["stale_first"] = (sum(_stale_first(runs["memvault"][q.id], q) for q in stale), len(stale))
        return out

    report = {"queries": len(queries), "scoring": "hit@k" if hits else "recall@k", "all": part(queries)}
    if holdout:
        report["tuned"] = part([q for q in queries if q.conversation not in holdout])
        report["holdout"] = part([q for q in queries if q.conversation in holdout])
    report["cross_conversation_abstained"] = cross / len(queries) if len(conversations) > 1 else None
    latencies.sort()
    report["recall_ms"] = {
        "p50": round(statistics.median(latencies), 2),
        "p95": round(latencies[int(0.95 * (len(latencies) - 1))], 2),
    }
    return report


def _stale_first(ranked: list[str], q: Query) -> bool:
    """An outdated memory ranks above every relevant one (the agentic set's stale-first)."""
    for memory_id in ranked:
        if memory_id in q.relevant:
            return False
        if memory_id in q.superseded:
            return True
    return False


def print_part(name: str, part: dict) -> None:
    out = sys.stdout.write
    n = part["retrievers"]["memvault"]["all"]["n"]
    out(f"\n  {name} ({n} answerable questions)\n")
    out(f"  {'retriever':<14}" + "".join(f"{m:>9}" for m in METRICS) + "\n")
    for retriever, r in part["retrievers"].items():
        out(f"  {retriever:<14}" + "".join(f"{r['all'].get(m, 0):>9.3f}" for m in METRICS) + "\n")
    out("  by category, memvault (R@1 / R@5 / MRR) [keyword-only / vector-only R@1]\n")
    r = part["retrievers"]
    for c, v in r["memvault"]["by_category"].items():
        kw, vec = r["keyword-only"]["by_category"][c], r["vector-only"]["by_category"][c]
        out(f"    {c:<12} n={v['n']:<4} {v['R@1']:.3f} / {v['R@5']:.3f} / {v['MRR']:.3f}"
            f"   [{kw['R@1']:.3f} / {vec['R@1']:.3f}]\n")
    no_answer = ", ".join(f"{c} {a}/{t}" for c, (a, t) in part["no_answer_abstained"].items())
    stale, of = part["stale_first"]
    out(f"  false abstention {part['false_abstention']:.1%}; no-answer questions abstained: {no_answer or '-'};"
        f" stale first {stale}/{of}\n")


def print_report(folder: str, report: dict) -> None:
    """The comparison tables of one folder on stdout."""
    sys.stdout.write(f"\n== {folder}: {report['queries']} questions, R@k as {report['scoring']}\n")
    for key in ("all", "tuned", "holdout"):
        if key in report:
            print_part(key, report[key])
    cross = report["cross_conversation_abstained"]
    if cross is not None:
        sys.stdout.write(f"  cross-conversation questions abstained: {cross:.1%}\n")
    sys.stdout.write(f"  recall latency: p50 {report['recall_ms']['p50']} ms, p95 {report['recall_ms']['p95']} ms\n")


def run_folder(folder: Path, db: Path | str, embedder: Embedder, holdout: set[str]) -> dict:
    """Ingest ``folder`` into ``db`` and evaluate it."""
    turns, queries = load(folder)
    end = max(parse_iso("observed_at", t.observed_at) for ts in turns.values() for t in ts) + 86_400_000
    store = Store(db, embedder, clock=lambda: end)
    try:
        start = time.perf_counter()
        ids = ingest(store, folder.name, turns)
        ingest_s = time.perf_counter() - start
        hits = any(t.kind for ts in turns.values() for t in ts)
        report = evaluate(store, folder.name, ids, queries, hits, holdout)
    finally:
        store.close()
    report["ingest_seconds"] = round(ingest_s, 1)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", type=Path, nargs="+", help="folders with memories.jsonl and queries.jsonl")
    parser.add_argument("--db", type=Path, help="folder for the databases (reused if they exist; default: temporary)")
    parser.add_argument("--holdout", default="", help="comma-separated conversation ids also scored apart")
    parser.add_argument("--json", type=Path, help="write the full report here")
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="sqlite")
    parser.add_argument("--pg-url", help="PostgreSQL server to create the databases on (default: a temporary one)")
    parser.add_argument("--variant", choices=sorted(VARIANT_NAMES), default=INTEGER,
                        help="variant of the packaged model (default: integer, what new stores use)")
    args = parser.parse_args()
    holdout = {c for c in args.holdout.split(",") if c}
    embedder = Embedder()
    embedder.follow(f"{VARIANT_NAMES[args.variant]}@")
    reports: dict[str, dict] = {}
    backends = ("sqlite", "postgresql") if args.backend == "both" else (args.backend,)
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        base = args.db or Path(tmp)
        base.mkdir(parents=True, exist_ok=True)
        new_pg = stack.enter_context(databases(args.pg_url)) if "postgresql" in backends else None
        for backend in backends:
            for folder in args.folders:
                db = base / f"{folder.name}.db" if backend == "sqlite" else new_pg(f"bench_{folder.name}")  # type: ignore[misc]
                name = folder.name if len(backends) == 1 else f"{folder.name} on {backend}"
                reports[name] = run_folder(folder, db, embedder, holdout)
                print_report(name, reports[name])
    if args.json:
        args.json.write_text(json.dumps(reports, indent=2))


if __name__ == "__main__":
    main()
