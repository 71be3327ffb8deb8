"""Change over time: how often recall puts an outdated memory above the current one (stale-first)
when facts change without ``supersede``, the way agents store them.

Usage: python bench/eval_change.py ../shared/eval/agentic [--json OUT] [--show]

(a) The agentic set's supersession questions (``superseded_ids`` set): each store loaded alone with
    ``remember`` only, the clock at the end of its timeline (as bench/eval_retrieval.py does).
(b) A generated timeline: 26 facts (times, hosts, versions, names, numbers, days, paths, prices)
    each changing two or three times (61 changes), phrased in eight ways (plain restatement, "now",
    "Update:", "changed to", "As of this week", "switched", "X, not Y any more", "from now on"),
    among a memory beside each fact on another detail of its subject and unrelated filler, stored
    with ``remember`` only, ``observed_at`` in order, the clock following the timeline. After each
    change the fact's question is asked (recall through ``handlers.recall``, limit 10).

Stale-first: an older version ranks above the current one (or the current one is missing and an
older one is there). Also reported: the current version first (hit@1), and how often the older
version was marked ``possibly_outdated_by`` when both were returned.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from eval_retrieval import _stale_first, ingest
from locomo_data import load
from memvault.storage.embeddings import Embedder
from memvault.storage.store import Store
from memvault.storage.timefmt import parse_iso
from memvault.tools import handlers

# (subject, verb, values oldest first, question, a memory on another detail of the subject)
FACTS = [
    ("the team standup", "is at", ["9:15", "10:30", "9:45", "10:00"], "When is the team standup?",
     "The team standup lasts 15 minutes and Marta runs it."),
    ("the staging database host", "is", ["db-stg-03", "db-stg-07", "db-stg-11", "db-stg-12"],
     "Which host runs the staging database?", "The staging database is refreshed from a production snapshot "
     "every Sunday."),
    ("the production PostgreSQL version", "is", ["15.4", "16.2", "16.4", "17.0"],
     "Which PostgreSQL version runs in production?", "Production PostgreSQL backups are verified by a restore "
     "test each month."),
    ("the on-call escalation manager", "is", ["Rafael", "Ingrid", "Tomasz", "Amara"],
     "Who is the on-call escalation manager?", "The on-call escalation manager is paged only after 30 minutes "
     "without acknowledgement."),
    ("the API rate limit", "is", ["100 requests per minute", "300 requests per minute", "500 requests per minute",
                                  "250 requests per minute"],
     "What is the API rate limit?", "API keys are issued per customer and rotated yearly."),
    ("the office Wi-Fi network", "is called", ["Lindgarden", "Lindgarden-Mesh", "Fjordnet"],
     "What is the office Wi-Fi network called?", "The office guest Wi-Fi password rotates every 30 days."),
    ("our deploy day", "is", ["Tuesday", "Thursday", "Wednesday"], "Which day do we deploy?",
     "Deploys need a green CI run and one approving review."),
    ("Maya's dentist", "is", ["Dr. Holm", "Dr. Ekström"], "Who is Maya's dentist?",
     "Maya's dentist appointments are every six months."),
    ("the nightly backup", "starts at", ["02:00 UTC", "03:30 UTC", "01:15 UTC", "02:30 UTC"],
     "When does the nightly backup start?", "Backups are kept for 35 days in the eu-west-2 bucket."),
    ("the training batch size", "is", ["512", "1024", "2048", "768"], "What batch size does the training run use?",
     "The training run logs metrics to MLflow every 100 steps."),
    ("the API's application log", "is written to", ["/var/log/quorvel/api.log", "/srv/logs/api/current.log"],
     "Where is the API's application log written?", "Logs are shipped to Loki by the Promtail agent."),
    ("the mobile app release", "is", ["v3.9.0", "v3.10.1", "v3.11.0", "v4.0.0"], "Which mobile app release is "
     "current?", "Mobile releases go through TestFlight for two days first."),
    ("our error tracking", "runs on", ["Sentry", "Rollbar", "Honeybadger", "Bugsnag"],
     "What do we use for error tracking?", "Error alerts go to the incidents channel in Slack."),
    ("the Slurm controller", "runs on", ["hpc-head-1", "hpc-head-2"], "Which node runs the Slurm controller?",
     "Slurm jobs are limited to 48 hours of wall time."),
    ("Maya's gym membership", "costs", ["39 euros a month", "45 euros a month", "49 euros a month"],
     "How much is Maya's gym membership?", "Maya goes to the gym on Tuesday and Friday mornings."),
    ("the kids' swimming lesson", "is on", ["Saturday at 10:00", "Sunday at 11:30", "Saturday at 9:00"],
     "When is the kids' swimming lesson?", "The kids need swimming caps and goggles for the lesson."),
    ("the Kafka orders topic", "has", ["12 partitions", "24 partitions", "48 partitions", "64 partitions"],
     "How many partitions does the Kafka orders topic have?", "The Kafka orders topic keeps messages for 7 days."),
    ("log retention in Loki", "is", ["14 days", "30 days", "21 days", "7 days"], "How long does Loki keep logs?",
     "Loki queries time out after 60 seconds."),
    ("the payments team lead", "is", ["Jonas Berg", "Priya Nair"], "Who leads the payments team?",
     "The payments team owns the checkout and refunds services."),
    ("the tokenizer", "is version", ["2.1", "3.0", "3.1"], "Which tokenizer version do we use?",
     "The tokenizer has a vocabulary of 64k entries."),
    ("the VPN endpoint", "is", ["vpn1.parcelwyn.io", "vpn3.parcelwyn.io", "vpn-eu.parcelwyn.io"],
     "What is the VPN endpoint?", "The VPN requires a hardware key for production access."),
    ("the billing client's request timeout", "is", ["5 seconds", "15 seconds", "10 seconds", "20 seconds"],
     "What is the billing client's request timeout?", "The billing client retries failed calls 3 times."),
    ("school pickup", "is at", ["15:30", "16:15", "15:45", "16:00"], "What time is school pickup?",
     "School pickup is at the side gate by the gym."),
    ("our feature flag service", "is", ["LaunchDarkly", "Unleash", "Flagsmith", "ConfigCat"],
     "Which service manages our feature flags?", "Feature flags are cleaned up at the end of every quarter."),
    ("the Node version of our services", "is", ["Node 18", "Node 20", "Node 22"],
     "Which Node version do our services run?", "Node services use pnpm as the package manager."),
    ("the maintenance window", "is", ["Sunday 01:00-03:00 UTC", "Sunday 04:00-06:00 UTC",
                                      "Saturday 22:00-23:30 UTC"],
     "When is the maintenance window?", "The maintenance window is announced on the status page a week ahead."),
]

# How a change is written ({s} subject, {v} verb, {new}/{old} values), in turn.
CHANGES = [
    "{S} {v} {new} now.",
    "Update: {s} {v} {new}.",
    "{S} changed to {new}.",
    "{S} {v} {new}.",
    "As of this week {s} {v} {new}.",
    "We switched {s} to {new}.",
    "{S} {v} {new}, not {old} any more.",
    "Heads-up: from now on {s} {v} {new}.",
]

FILLER = [
    "The design review covered the onboarding flow and the colour of the primary buttons.",
    "Marta suggested moving the retrospective to Thursday afternoons for the whole quarter.",
    "The conference travel budget was approved with a cap on hotel nights per person.",
    "Our coffee machine on the third floor is descaled every second Monday by facilities.",
    "Quarterly planning produced eleven goals, three of them about developer experience.",
    "The mobile team prefers feature flags over long-lived branches for risky changes.",
    "Dana prefers written design docs over meetings for decisions that touch several teams.",
    "The summer party is planned at the lake house, with a barbecue and a boat trip.",
]

START = datetime(2024, 1, 1, 9, tzinfo=UTC)


def timeline() -> list[tuple[datetime, str, int | None, int]]:
    """Every memory of (b) in time order: (observed, content, fact index or None, version)."""
    events: list[tuple[datetime, str, int | None, int]] = []
    change = 0
    for i, (subject, verb, values, _, beside) in enumerate(FACTS):
        first = START + timedelta(days=i * 3)
        events.append((first, f"{subject[0].upper()}{subject[1:]} {verb} {values[0]}.", i, 0))
        events.append((first + timedelta(days=10, hours=i), beside, None, 0))
        for n, value in enumerate(values[1:], start=1):
            template = CHANGES[change % len(CHANGES)]
            change += 1
            text = template.format(s=subject, S=subject[0].upper() + subject[1:], v=verb, new=value,
                                   old=values[n - 1])
            events.append((first + timedelta(days=40 * n + 7 * (i % 5)), text, i, n))
    for n, text in enumerate(FILLER):
        events.append((START + timedelta(days=25 * n + 2), text, None, 0))
    return sorted(events, key=lambda e: e[0])


def agentic(folder: Path, embedder: Embedder, db: Path) -> dict:
    """(a): stale-first on the folder's supersession questions."""
    turns, queries = load(folder)
    end = max(parse_iso("observed_at", t.observed_at) for ts in turns.values() for t in ts) + 86_400_000
    store = Store(db, embedder, clock=lambda: end)
    try:
        ids = ingest(store, folder.name, turns)
        asked = [q for q in queries if q.superseded and q.relevant]
        stale, first = 0, 0
        for q in asked:
            found = handlers.recall(store, handlers.Caller(tenant=folder.name, scope=q.conversation),
                                    query=q.question, limit=50)
            ranked = [ids[m.id] for m in found.memories]
            stale += _stale_first(ranked, q)
            first += bool(ranked) and ranked[0] in q.relevant
    finally:
        store.close()
    return {"questions": len(asked), "stale_first": stale, "current_first": first}


def generated(embedder: Embedder, db: Path, show: bool = False) -> dict:
    """(b): stale-first after each change of the generated timeline (``show``: print each such
    question with what came above the current version)."""
    now = [0]
    store = Store(db, embedder, clock=lambda: now[0])
    caller = handlers.Caller(tenant="change", scope="agent")
    versions: dict[int, list[str]] = {}
    stale, first, marked, both, asked = 0, 0, 0, 0, 0
    try:
        for observed, content, fact, version in timeline():
            now[0] = int(observed.timestamp() * 1000) + 60_000
            out = handlers.remember(store, caller, content=content, observed_at=observed.isoformat())
            if fact is None:
                continue
            versions.setdefault(fact, []).append(out.id)
            if version == 0:
                continue
            asked += 1
            found = handlers.recall(store, caller, query=FACTS[fact][3], limit=10).memories
            ranked = [m.id for m in found]
            current, older = out.id, set(versions[fact][:-1])
            position = ranked.index(current) if current in ranked else len(ranked)
            stale += any(memory_id in older for memory_id in ranked[:position])
            first += position == 0
            if show and any(memory_id in older for memory_id in ranked[:position]):
                sys.stdout.write(f"stale first: {FACTS[fact][3]} (current: {content!r})\n" + "".join(
                    f"  {m.content!r} (outdated by {m.possibly_outdated_by})\n" for m in found[:position]))
            for m in found:
                if m.id in older and current in ranked:
                    both += 1
                    marked += m.possibly_outdated_by is not None
    finally:
        store.close()
    return {"questions": asked, "stale_first": stale, "current_first": first, "older_returned": both,
            "older_marked": marked}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("agentic", type=Path, help="the agentic evaluation folder")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--show", action="store_true", help="print (b)'s stale-first questions")
    args = parser.parse_args()
    embedder = Embedder()
    with tempfile.TemporaryDirectory() as tmp:
        report = {"agentic": agentic(args.agentic, embedder, Path(tmp) / "a.db"),
                  "generated": generated(embedder, Path(tmp) / "b.db", args.show)}
    for name, r in report.items():
        sys.stdout.write(f"{name}: {r['questions']} questions, stale first {r['stale_first']} "
                         f"({r['stale_first'] / r['questions']:.1%}), current first {r['current_first']} "
                         f"({r['current_first'] / r['questions']:.1%})\n")
    g = report["generated"]
    sys.stdout.write(f"generated: older versions returned with the current one {g['older_returned']}, marked "
                     f"possibly outdated {g['older_marked']}\n")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
