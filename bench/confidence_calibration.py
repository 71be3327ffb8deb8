"""How well recall's confidence matches how often a hit is right, on folders in LoCoMo's layout
(``../shared/eval/agentic``, ``../shared/eval/locomo``), and what a change of the confidence
rules touched.

Usage: python bench/confidence_calibration.py FOLDER [FOLDER ...] [--db DIR] [--json OUT]
       [--against OLD.json]

Each folder is stored and asked as ``eval_retrieval.py`` does (its ``ingest``, the clock a day
after its last memory, ``Store.recall`` with limit 50). A hit is relevant when the folder lists
it for its question; the hits of the agentic set's no-answer questions are all wrong (as in the
fit of ``ranking.CONFIDENCE_WEIGHTS``). Reported per set, for first hits and for the top five:
the share relevant per confidence bucket, log loss, R@1 / R@5 / MRR.

``--json`` writes every question's ranked ids and top-five confidences; ``--against`` reads such
a file from another version of the code (run on the same machine) and reports the questions
whose order changed (a confidence-only rule must change none) and the top-five hits whose
confidence changed (all, those lowered, those raised): how many, the share relevant, their mean
confidence before and after and the log loss of both on them.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
from pathlib import Path

from eval_retrieval import ingest
from locomo_data import Query, Turn, load, score

from memvault.storage.embeddings import INTEGER, VARIANT_NAMES, Embedder
from memvault.storage.store import Store
from memvault.storage.timefmt import parse_iso

BUCKETS = (0.2, 0.4, 0.6, 0.8)  # upper bounds; the last bucket is >= 0.8
TOP = 5
EPSILON = 1e-3  # confidences are rounded to 3 decimals: 0.0 and 1.0 are clipped for log loss


def bucket(p: float) -> int:
    """Index of the confidence bucket of ``p`` (<0.2, 0.2-0.4, 0.4-0.6, 0.6-0.8, >=0.8)."""
    return next((i for i, top in enumerate(BUCKETS) if p < top), len(BUCKETS))


def log_loss(pairs: list[tuple[float, bool]]) -> float:
    """Mean negative log likelihood of ``(confidence, relevant)`` pairs (nan when empty)."""
    if not pairs:
        return math.nan
    total = 0.0
    for p, right in pairs:
        p = min(1.0 - EPSILON, max(EPSILON, p))
        total -= math.log(p if right else 1.0 - p)
    return total / len(pairs)


def ask(tenant: str, turns: dict[str, list[Turn]], queries: list[Query], db: Path,
        embedder: Embedder) -> dict[str, dict]:
    """Every answerable and no-answer question: {query id: {"ids": ranked folder ids,
    "confidence": of the top five, "relevant": folder ids}}."""
    end = max(parse_iso("observed_at", t.observed_at) for ts in turns.values() for t in ts) + 86_400_000
    store = Store(db, embedder, clock=lambda: end)
    out: dict[str, dict] = {}
    try:
        ids = ingest(store, tenant, turns)
        for q in queries:
            if not (q.main or q.no_answer):
                continue
            hits = store.recall(tenant=tenant, query=q.question, scopes=[q.conversation], limit=50).hits
            out[q.id] = {"ids": [ids[h.memory.id] for h in hits],
                         "confidence": [h.confidence for h in hits[:TOP]],
                         "relevant": sorted(q.relevant) if q.main else []}
    finally:
        store.close()
    return out


def pairs(answers: dict[str, dict], top: int) -> list[tuple[float, bool]]:
    """``(confidence, relevant)`` of the first ``top`` hits of every question."""
    return [(p, memory_id in a["relevant"]) for a in answers.values()
            for memory_id, p in zip(a["ids"][:top], a["confidence"][:top], strict=False)]


def report(name: str, answers: dict[str, dict], queries: list[Query], hits: bool) -> dict:
    """The calibration of one folder, printed and returned."""
    out = sys.stdout.write
    main = [q for q in queries if q.main and q.id in answers]
    ranked = score({q.id: answers[q.id]["ids"] for q in main}, main, hits)
    out(f"\n== {name}: {len(answers)} questions ({len(main)} answerable); R@1 {ranked['R@1']:.3f}, "
        f"R@5 {ranked['R@5']:.3f}, MRR {ranked['MRR']:.3f}\n")
    labels = ["<0.2", "0.2-0.4", "0.4-0.6", "0.6-0.8", ">=0.8"]
    summary: dict = {"R@1": ranked["R@1"], "R@5": ranked["R@5"], "MRR": ranked["MRR"]}
    for what, top in (("first hits", 1), (f"top-{TOP} hits", TOP)):
        found = pairs(answers, top)
        counts = [[0, 0] for _ in labels]
        for p, right in found:
            counts[bucket(p)][0] += 1
            counts[bucket(p)][1] += right
        cells = "  ".join(f"{label} {r / n:.0%} of {n}" if n else f"{label} -" for label, (n, r) in zip(
            labels, counts, strict=True))
        loss = log_loss(found)
        out(f"  {what:<12} log loss {loss:.4f}  relevant: {cells}\n")
        summary[what] = {"log_loss": loss, "buckets": counts}
    return summary


def compare(answers: dict[str, dict], old: dict[str, dict]) -> dict:
    """Order changes and the top-five hits whose confidence differs from ``old``'s, printed and returned."""
    out = sys.stdout.write
    moved = [qid for qid in answers if qid in old and answers[qid]["ids"] != old[qid]["ids"]]
    touched: list[tuple[float, float, bool, int]] = []
    for qid, a in answers.items():
        if qid not in old or qid in moved:
            continue
        for rank, (memory_id, new, was) in enumerate(zip(a["ids"], a["confidence"], old[qid]["confidence"],
                                                         strict=False)):
            if new != was:
                touched.append((was, new, memory_id in a["relevant"], rank))
    out(f"  against the older run: {len(moved)} questions ordered otherwise; {len(touched)} top-{TOP} hits "
        f"changed confidence ({sum(t[3] == 0 for t in touched)} first hits)\n")
    for what, group in (("all", touched), ("lowered", [t for t in touched if t[1] < t[0]]),
                        ("raised", [t for t in touched if t[1] > t[0]])):
        if not group:
            continue
        share = sum(t[2] for t in group) / len(group)
        before = sum(t[0] for t in group) / len(group)
        after = sum(t[1] for t in group) / len(group)
        out(f"    {what} ({len(group)}): relevant {share:.0%}; mean confidence {before:.3f} -> {after:.3f}; "
            f"log loss on them {log_loss([(t[0], t[2]) for t in group]):.4f} -> "
            f"{log_loss([(t[1], t[2]) for t in group]):.4f}\n")
    for was, new, right, rank in touched[:40]:
        out(f"      rank {rank + 1}: {was:.3f} -> {new:.3f} {'relevant' if right else 'wrong'}\n")
    return {"moved": moved, "touched": touched}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", type=Path, nargs="+", help="folders with memories.jsonl and queries.jsonl")
    parser.add_argument("--db", type=Path, help="folder for the databases (reused if they exist; default: temporary)")
    parser.add_argument("--json", type=Path, help="write every question's ranked ids and confidences here")
    parser.add_argument("--against", type=Path, help="such a file from another version of the code")
    args = parser.parse_args()
    old = json.loads(args.against.read_text()) if args.against else {}
    written: dict[str, dict] = {}
    embedder = Embedder()
    embedder.follow(f"{VARIANT_NAMES[INTEGER]}@")  # the variant new stores use, as eval_retrieval.py
    with tempfile.TemporaryDirectory() as tmp:
        base = args.db or Path(tmp)
        base.mkdir(parents=True, exist_ok=True)
        for folder in args.folders:
            turns, queries = load(folder)
            answers = ask(folder.name, turns, queries, base / f"{folder.name}.db", embedder)
            written[folder.name] = answers
            report(folder.name, answers, queries, any(t.kind for ts in turns.values() for t in ts))
            if folder.name in old:
                compare(answers, old[folder.name])
    if args.json:
        args.json.write_text(json.dumps(written))


if __name__ == "__main__":
    main()
