"""Which procedures the boot context with a task (``memory://boot{?task}``) should lead with: recall's
confidence estimates whether one hit answers a question (first rank and lead weigh most:
docs/retrieval-tuning.md#confidence), so a procedure for the task that ranks behind a fact about the
same thing can score under ``SURE_CONFIDENCE`` (0.5). This measures, on two sets, the procedures the
task's top ``TASK_HITS_MAX`` hits hold, by rule: the 0.5 cut alone, and with it the best-ranked
procedure hit kept from a lower floor when among the first few hits (tools/boot.py's rule: marked).

Usage: python bench/boot_task.py /work/shared/eval/agentic

Sets: the agentic set's questions (read as tasks) whose relevant memory is a procedure, with its
no-answer questions (``abstain``, ``near-miss``) as tasks for which no procedure should lead; and
``TASKS`` below, written for this bench as an agent would name a session's work (one procedure each),
with ``NO_PROCEDURE`` tasks that none of the stores' procedures is for. Each store alone, its clock at
the end of its timeline, as bench/eval_retrieval.py stores it. Results: docs/benchmarks.md#boot-with-a-task.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from eval_retrieval import ingest
from locomo_data import load

from memvault.storage.embeddings import Embedder
from memvault.storage.ranking import SURE_CONFIDENCE
from memvault.storage.store import Store
from memvault.storage.timefmt import parse_iso
from memvault.tools.boot import TASK_HITS_MAX, TASK_PROCEDURE_FLOOR, TASK_PROCEDURE_RANK

# (store, task, the procedure it needs): written for this bench, worded as a session's work, not a question.
TASKS = [
    ("store-web", "ship the new scheduler-core release to production", "store-web:7"),
    ("store-web", "add a required column to the big shifts table", "store-web:24"),
    ("store-web", "get an urgent fix for a production bug out today", "store-web:25"),
    ("store-web", "change the response of the /shifts endpoint", "store-web:35"),
    ("store-web", "undo yesterday's bad api-gateway release", "store-web:52"),
    ("store-web", "process a customer's GDPR deletion request", "store-web:42"),
    ("store-web", "replay the invoice webhooks that failed last night", "store-web:46"),
    ("store-ml", "resume the tern-1b run that was preempted", "store-ml:14"),
    ("store-ml", "start pretraining across 8 nodes", "store-ml:5"),
    ("store-ml", "score the new checkpoint on the code benchmarks", "store-ml:22"),
    ("store-ml", "store the final checkpoint of the finished run for good", "store-ml:53"),
    ("store-home", "make pancakes for Sunday breakfast", "store-home:18"),
    ("store-home", "get the car ready for winter", "store-home:20"),
    ("store-home", "get more of Zoë's asthma medicine", "store-home:63"),
    ("store-ops", "log in to tracking-api-03 to look at it", "store-ops:6"),
    ("store-ops", "the 5xx error rate alert is firing", "store-ops:10"),
    ("store-ops", "pg-orders-primary is running out of connections", "store-ops:25"),
    ("store-ops", "defragment etcd on the production cluster", "store-ops:32"),
    ("store-ops", "a kafka broker's disk is filling up", "store-ops:36"),
    ("store-ops", "the api certificate expires in three weeks", "store-ops:52"),
]
NO_PROCEDURE = [
    ("store-web", "write the quarterly hiring summary for the team"),
    ("store-web", "refactor the logging setup in notify-worker"),
    ("store-ml", "read the new mixture-of-experts paper"),
    ("store-ml", "draft the related work section of the paper"),
    ("store-home", "plan Maya's birthday dinner"),
    ("store-home", "book a dentist appointment for Zoë"),
    ("store-ops", "update the on-call rotation for January"),
    ("store-ops", "review the vendor contract renewal with the CDN provider"),
]
FLOORS = (0.5, 0.4, 0.3, 0.2, 0.1, TASK_PROCEDURE_FLOOR, 0.0)
TOPS = (TASK_HITS_MAX, 3, TASK_PROCEDURE_RANK, 1)


def procedure_hits(store: Store, tenant: str, scope: str, task: str, ids: dict[str, str]) -> list[tuple]:
    """(rank among all hits, folder id, confidence) of each procedure among the task's hits."""
    outcome = store.recall(tenant=tenant, query=task, scopes=[scope], limit=TASK_HITS_MAX)
    return [(rank, ids[h.memory.id], h.confidence) for rank, h in enumerate(outcome.hits, 1)
            if h.memory.kind == "procedure"]


def kept(hits: list[tuple], floor: float, top: int) -> set[str]:
    """The procedures boot would lead with: those at ``SURE_CONFIDENCE``, and the best-ranked one from
    ``floor`` when it is among the first ``top`` hits."""
    sure = {i for _, i, c in hits if c >= SURE_CONFIDENCE}
    return sure | ({hits[0][1]} if hits and hits[0][2] >= floor and hits[0][0] <= top else set())


def report(name: str, wanted: list[tuple[list[tuple], str]], unwanted: list[list[tuple]]) -> None:
    out, chosen = sys.stdout.write, "  <- tools/boot.py's rule"
    found = [next((c for _, i, c in hits if i == want), None) for hits, want in wanted]
    ranks = [next((r for r, i, _ in hits if i == want), None) for hits, want in wanted]
    out(f"\n{name}: {len(wanted)} tasks needing a procedure, {len(unwanted)} needing none\n")
    out(f"  needed procedure among the top {TASK_HITS_MAX} hits: {sum(f is not None for f in found)}; "
        f"first hit: {sum(r == 1 for r in ranks)}; its confidence (rank): "
        f"{', '.join('-' if f is None else f'{f:.2f} ({r})' for f, r in zip(found, ranks))}\n")
    for top in TOPS:
        for floor in FLOORS:
            hit = sum(want in kept(hits, floor, top) for hits, want in wanted)
            wrong = sum(len(kept(hits, floor, top) - {want}) for hits, want in wanted)
            none = sum(bool(kept(hits, floor, top)) for hits in unwanted)
            out(f"  best procedure in the first {top:>2} hits from {floor:.2f}: "
                f"needed one led {hit}/{len(wanted)}, "
                f"another led too {wrong}, a procedure led a task needing none {none}/{len(unwanted)}"
                f"{chosen if (top, floor) == (TASK_PROCEDURE_RANK, TASK_PROCEDURE_FLOOR) else ''}\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="the agentic set's folder")
    args = parser.parse_args()
    turns, queries = load(args.folder)
    kinds = {t.id: t.kind for ts in turns.values() for t in ts}
    end = max(parse_iso("observed_at", t.observed_at) for ts in turns.values() for t in ts) + 86_400_000
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "boot_task.db", Embedder(), clock=lambda: end)
        try:
            ids = ingest(store, "t", turns)
            wanted = [(procedure_hits(store, "t", q.conversation, q.question, ids), want)
                      for q in queries for want in sorted(q.relevant)[:1]
                      if any(kinds[r] == "procedure" for r in q.relevant) and kinds[want] == "procedure"]
            unwanted = [procedure_hits(store, "t", q.conversation, q.question, ids)
                        for q in queries if q.expected_abstain]
            report(f"{args.folder.name} questions", wanted, unwanted)
            report("tasks written for this bench",
                   [(procedure_hits(store, "t", s, task, ids), want) for s, task, want in TASKS],
                   [procedure_hits(store, "t", s, task, ids) for s, task in NO_PROCEDURE])
        finally:
            store.close()


if __name__ == "__main__":
    main()
