"""Contradiction detection (``storage/contradiction.py``) measured on pairs written for the purpose.

Usage: python bench/contradiction_pairs.py [--show]

Each pair is (older memory, newer memory, whether the newer contradicts the older, category).
Two halves, A and B, were both written before the word test was tuned; the test was tuned on
half A only and both are reported. Sets C and D were written apart (bench/contradiction_pairs_c.py,
bench/contradiction_pairs_d.py: how each was used is said there); set E (bench/contradiction_pairs_e.py)
holds names opening a sentence and change words beside another subject; set F (bench/contradiction_pairs_f.py)
outcomes, "now" beside a verb that adds, group compounds and names with particles. Each half has contradicting pairs (a changed number, time,
day or date, host, name, version or path in the same slot; a negation; change words; a changed
state) and as many non-contradicting near pairs (paraphrases, an added detail, the same value
written differently, values in different slots, a negation said another way).

Two figures per half: the word test alone (``disagreement``), and end to end as ``remember``
uses it: the pair is flagged when the packaged model's cosine between the two memories is at
least ``ranking.SAME_SUBJECT`` and the word test finds a disagreement. ``--show`` lists the
pairs each figure gets wrong.
"""

from __future__ import annotations

import argparse
import sys

from contradiction_pairs_c import PAIRS_C
from contradiction_pairs_d import PAIRS_D
from contradiction_pairs_e import PAIRS_E
from contradiction_pairs_f import PAIRS_F
from memvault.storage.contradiction import CHANGED_SUBJECT, STRONG_SUBJECT, contradicts, disagreement
from memvault.storage.embeddings import Embedder
from memvault.storage.ranking import SAME_SUBJECT

YES, NO = True, False

PAIRS_A = [
    # -- contradicting ---------------------------------------------------------------
    ("The staging cluster has 4 worker nodes.", "The staging cluster has 6 worker nodes.", YES, "number"),
    ("API rate limit is 100 requests per minute per key.", "API rate limit is 300 requests per minute per key.",
     YES, "number"),
    ("Log retention in Loki is 14 days.", "Log retention in Loki is set to 30 days.", YES, "number"),
    ("Maya's monthly gym membership costs 39 euros.", "Maya's gym membership costs 45 euros a month.", YES, "number"),
    ("The training run uses a batch size of 512.", "The training run uses a batch size of 1024 after the memory fix.",
     YES, "number"),
    ("The on-call rotation has 5 engineers.", "The on-call rotation has 7 engineers since the new hires joined.",
     YES, "number"),
    ("The team standup is at 9:15 every morning.", "The team standup is at 10:30 every morning.", YES, "time"),
    ("Nightly backups start at 02:00 UTC.", "Nightly backups start at 03:30 UTC.", YES, "time"),
    ("Maya's dentist appointment is at 14:00 on Thursday.", "Maya's dentist appointment is at 16:30 on Thursday.",
     YES, "time"),
    ("The weekly planning meeting is on Mondays at 11am.", "The weekly planning meeting is on Mondays at 2pm.",
     YES, "time"),
    ("Deploy freeze starts at 16:00 on Fridays.", "Deploy freeze starts at 12:00 on Fridays.", YES, "time"),
    ("Cron job for invoices runs at 6:45.", "Cron job for invoices runs at 7:15.", YES, "time"),
    ("Deploys happen on Tuesdays.", "Deploys happen on Thursdays.", YES, "date"),
    ("The quarterly review is on 14 March.", "The quarterly review is on 21 March.", YES, "date"),
    ("The NeurIPS deadline is 2024-05-15.", "The NeurIPS deadline is 2024-05-22.", YES, "date"),
    ("The staging database is db-stg-03.", "The staging database is db-stg-07.", YES, "host"),
    ("Metrics are scraped by prom-01.internal.", "Metrics are scraped by prom-02.internal.", YES, "host"),
    ("The Slurm controller runs on hpc-head-1.", "The Slurm controller runs on hpc-head-2.", YES, "host"),
    ("Redis for sessions lives on cache-eu-1.quorvel.net.", "Redis for sessions lives on cache-eu-4.quorvel.net.",
     YES, "host"),
    ("The VPN endpoint is vpn1.parcelwyn.io.", "The VPN endpoint is vpn3.parcelwyn.io.", YES, "host"),
    ("Alice's editor is Helix.", "Alice's editor is Zed.", YES, "name"),
    ("The office Wi-Fi network is called Lindgarden.", "The office Wi-Fi network is called Lindgarden-Mesh.",
     YES, "name"),
    ("Our error tracking runs on Sentry.", "Our error tracking runs on Rollbar.", YES, "name"),
    ("The payments team lead is Jonas Berg.", "The payments team lead is Priya Nair.", YES, "name"),
    ("Maya's family doctor is Dr. Holm.", "Maya's family doctor is Dr. Ekström.", YES, "name"),
    ("Production runs PostgreSQL 15.4.", "Production runs PostgreSQL 16.2.", YES, "version"),
    ("The API service is pinned to Python 3.11.", "The API service is pinned to Python 3.12.", YES, "version"),
    ("The mobile app's current release is v3.9.0.", "The mobile app's current release is v3.10.1.", YES, "version"),
    ("The cluster runs Kubernetes 1.27.", "The cluster runs Kubernetes 1.29.", YES, "version"),
    ("Application logs are written to /var/log/quorvel/api.log.",
     "Application logs are written to /srv/logs/api/current.log.", YES, "path"),
    ("Secrets for the API live at kv/quorvel/prod/api.", "Secrets for the API live at kv/platform/prod/api-gateway.",
     YES, "path"),
    ("The dataset shards are in /mnt/data/tern/v1.", "The dataset shards are in /scratch/tern/shards.", YES, "path"),
    ("Dana drinks coffee in the afternoon.", "Dana does not drink coffee in the afternoon.", YES, "negation"),
    ("The staging environment requires the VPN.", "The staging environment does not require the VPN.",
     YES, "negation"),
    ("We deploy on Fridays.", "We never deploy on Fridays.", YES, "negation"),
    ("The nightly job sends a summary email.", "The nightly job doesn't send a summary email.", YES, "negation"),
    ("The public API supports pagination with cursors.", "The public API does not support cursor pagination.",
     YES, "negation"),
    ("Maya eats fish.", "Maya doesn't eat fish.", YES, "negation"),
    ("The standup is held in the morning.", "The standup has moved to the afternoon.", YES, "change words"),
    ("We use Jenkins for CI.", "We switched CI from Jenkins to GitHub Actions.", YES, "change words"),
    ("The team chats on Slack.", "The team no longer uses Slack; chat happens in Teams.", YES, "change words"),
    ("Invoices are emailed to the finance inbox.", "Invoices now go to the accounts payable portal instead.",
     YES, "change words"),
    ("Dana reviews pull requests herself.", "Pull request reviews moved to the platform team.", YES, "change words"),
    ("Ticket HPC-4471 is open.", "Ticket HPC-4471 is closed.", YES, "state"),
    ("Two-factor login is optional for contractors.", "Two-factor login is required for contractors.", YES, "state"),
    # -- not contradicting -----------------------------------------------------------
    ("The team standup is at 9:15 every morning.", "Every morning at 9:15 the team has its standup.",
     NO, "paraphrase"),
    ("Production runs PostgreSQL 15.4.", "Our production database is PostgreSQL version 15.4.", NO, "paraphrase"),
    ("The staging database is db-stg-03.", "db-stg-03 hosts the staging database.", NO, "paraphrase"),
    ("Alice's editor is Helix.", "Alice writes code in the Helix editor.", NO, "paraphrase"),
    ("Deploys happen on Tuesdays.", "We ship deploys every Tuesday.", NO, "paraphrase"),
    ("Log retention in Loki is 14 days.", "Loki keeps logs for 14 days.", NO, "paraphrase"),
    ("Dana does not drink coffee in the afternoon.", "Dana never has coffee in the afternoon.", NO, "paraphrase"),
    ("The dataset shards are in /mnt/data/tern/v1.", "Tern's dataset shards are stored under /mnt/data/tern/v1.",
     NO, "paraphrase"),
    ("We use Sentry for error tracking.", "Error tracking is handled by Sentry.", NO, "paraphrase"),
    ("Nightly backups start at 02:00 UTC.", "The nightly backup kicks off at 02:00 UTC.", NO, "paraphrase"),
    ("Maya is allergic to penicillin.", "Maya has a penicillin allergy.", NO, "paraphrase"),
    ("The on-call engineer acknowledges pages within 15 minutes.",
     "Pages must be acknowledged by the on-call engineer within 15 minutes.", NO, "paraphrase"),
    ("The staging cluster has 4 worker nodes.", "The staging cluster has 4 worker nodes, each with 32 GB of RAM.",
     NO, "added detail"),
    ("Nightly backups start at 02:00 UTC.",
     "Nightly backups start at 02:00 UTC and are copied to the eu-west-2 bucket.", NO, "added detail"),
    ("The Slurm controller runs on hpc-head-1.",
     "The Slurm controller runs on hpc-head-1; its config is in /etc/slurm/slurm.conf.", NO, "added detail"),
    ("Alice's editor is Helix.", "Alice's editor is Helix with a custom keymap she shares in the dotfiles repo.",
     NO, "added detail"),
    ("The API rate limit is 100 requests per minute per key.",
     "The API rate limit is 100 requests per minute per key, with bursts up to 20.", NO, "added detail"),
    ("Maya's dentist is Dr. Holm.", "Maya's dentist is Dr. Holm at the Vasastan clinic.", NO, "added detail"),
    ("We deploy with Argo CD.", "We deploy with Argo CD, which syncs from the main branch every 3 minutes.",
     NO, "added detail"),
    ("The training run uses a batch size of 512.",
     "The training run uses a batch size of 512 and a learning rate of 3e-4.", NO, "added detail"),
    ("The weekly planning meeting is on Mondays.", "The weekly planning meeting is on Mondays at 11am in room Orion.",
     NO, "added detail"),
    ("Production runs PostgreSQL 15.4.", "Production runs PostgreSQL 15.4 behind PgBouncer in transaction mode.",
     NO, "added detail"),
    ("Maya's car is serviced every spring.", "Maya's car is serviced every spring at the Volvo garage in Solna.",
     NO, "added detail"),
    ("Secrets live in Vault.", "Secrets live in Vault under kv/quorvel/<env>/<service>.", NO, "added detail"),
    ("The standup is at 9:15.", "The standup is at 9.15 am.", NO, "same value"),
    ("Backups run at 2am.", "Backups run at 02:00.", NO, "same value"),
    ("The mobile release is v3.9.0.", "The mobile release is 3.9.0.", NO, "same value"),
    ("The import handles 1,000 rows per batch.", "The import handles 1000 rows per batch.", NO, "same value"),
    ("Each GPU node has 80GB of memory.", "Each GPU node has 80 GB of memory.", NO, "same value"),
    ("The retro is at 16:00 on Fridays.", "The retro is at 4pm on Fridays.", NO, "same value"),
    ("The meeting starts at 10am.", "The meeting starts at 10:00 a.m.", NO, "same value"),
    ("Cron runs the report at 18:30.", "Cron runs the report at 6:30 pm.", NO, "same value"),
    ("The API listens on port 8080.", "The API runs 4 worker processes.", NO, "other slot"),
    ("Nightly backups start at 02:00 UTC.", "Backups are kept for 30 days.", NO, "other slot"),
    ("The staging cluster has 4 worker nodes.", "The staging cluster runs Kubernetes 1.27.", NO, "other slot"),
    ("Maya's dentist appointment is on Thursday.", "Maya's dentist charges 80 euros for a check-up.",
     NO, "other slot"),
    ("Production runs PostgreSQL 15.4.", "The production database is 420 GB.", NO, "other slot"),
    ("The training run uses a batch size of 512.", "The training run takes about 36 hours on 8 GPUs.",
     NO, "other slot"),
    ("Deploy freeze starts at 16:00 on Fridays.", "Hotfixes during the freeze need approval from 2 reviewers.",
     NO, "other slot"),
    ("The standup is at 9:15.", "The standup lasts 15 minutes.", NO, "other slot"),
    ("Dana's team has 6 engineers.", "Dana's team owns 12 services.", NO, "other slot"),
    ("The office Wi-Fi is called Lindgarden.", "The office guest Wi-Fi password rotates every 30 days.",
     NO, "other slot"),
    ("Ticket HPC-4471 tracks the GPU driver crash.", "Ticket HPC-4502 tracks the scheduler timeout.",
     NO, "other slot"),
    ("Avoid deploying on Fridays.", "Do not deploy on Fridays.", NO, "negation paraphrase"),
    ("The service is stateless.", "The service does not keep any state.", NO, "negation paraphrase"),
    ("Guests cannot use the internal network.", "The internal network is not open to guests.",
     NO, "negation paraphrase"),
]

PAIRS_B = [
    # -- contradicting ---------------------------------------------------------------
    ("The Kafka topic orders has 12 partitions.", "The Kafka topic orders has 24 partitions.", YES, "number"),
    ("Request timeout for the billing client is 5 seconds.", "Request timeout for the billing client is 15 seconds.",
     YES, "number"),
    ("Maya's rent is 9,800 kronor a month.", "Maya's rent is 10,400 kronor a month.", YES, "number"),
    ("We keep 3 replicas of the search index.", "We keep 5 replicas of the search index now.", YES, "number"),
    ("The eval suite has 1,200 test prompts.", "The eval suite has 1,850 test prompts.", YES, "number"),
    ("The SLO for checkout availability is 99.9%.", "The SLO for checkout availability is 99.95%.", YES, "number"),
    ("The school pickup is at 15:30.", "The school pickup is at 16:15.", YES, "time"),
    ("Maintenance window is Sunday 01:00-03:00 UTC.", "Maintenance window is Sunday 04:00-06:00 UTC.", YES, "time"),
    ("Dana's 1:1 with her manager is at 10am on Wednesdays.", "Dana's 1:1 with her manager is at 3pm on Wednesdays.",
     YES, "time"),
    ("The pager hand-off happens at 09:00.", "The pager hand-off happens at 12:00.", YES, "time"),
    ("Maya's flight to Lisbon departs at 7:05.", "Maya's flight to Lisbon departs at 9:40.", YES, "time"),
    ("Trash collection is on Wednesdays.", "Trash collection is on Mondays.", YES, "date"),
    ("The ICML camera-ready is due on 2024-06-01.", "The ICML camera-ready is due on 2024-06-07.", YES, "date"),
    ("Sprint demos are on Thursday afternoons.", "Sprint demos are on Friday afternoons.", YES, "date"),
    ("The primary database host is pg-main-01.", "The primary database host is pg-main-03.", YES, "host"),
    ("Grafana is served from grafana.parcelwyn.io.", "Grafana is served from dash.parcelwyn.io.", YES, "host"),
    ("Training jobs are submitted from login-node-2.", "Training jobs are submitted from login-node-5.", YES, "host"),
    ("The mail relay is smtp1.quorvel.net.", "The mail relay is smtp-eu.quorvel.net.", YES, "host"),
    ("The artifact cache sits on 10.0.4.17.", "The artifact cache sits on 10.0.9.23.", YES, "host"),
    ("The on-call escalation manager is Rafael.", "The on-call escalation manager is Ingrid.", YES, "name"),
    ("Our feature flags are managed in LaunchDarkly.", "Our feature flags are managed in Unleash.", YES, "name"),
    ("Maya's Wi-Fi network at home is named Fjordnet.", "Maya's Wi-Fi network at home is named Fjordnet-5G.",
     YES, "name"),
    ("The ML team's tracking server is MLflow.", "The ML team's tracking server is Weights & Biases.", YES, "name"),
    ("The kids' swimming coach is Henrik.", "The kids' swimming coach is Sofia.", YES, "name"),
    ("The tokenizer is version 2.1.", "The tokenizer is version 3.0.", YES, "version"),
    ("Node services run on Node 18.", "Node services run on Node 20.", YES, "version"),
    ("The Helm chart for the gateway is at 4.2.1.", "The Helm chart for the gateway is at 4.3.0.", YES, "version"),
    ("vLLM is pinned to 0.4.2 on the inference hosts.", "vLLM is pinned to 0.5.3 on the inference hosts.",
     YES, "version"),
    ("The runbook for failover is docs/runbooks/failover.md.",
     "The runbook for failover is ops/playbooks/db-failover.md.", YES, "path"),
    ("Checkpoints are saved to /checkpoints/tern-7b.", "Checkpoints are saved to /lustre/ckpt/tern-7b.",
     YES, "path"),
    ("The nginx config lives in /etc/nginx/sites-enabled/api.", "The nginx config lives in /opt/gateway/nginx/api.conf.",
     YES, "path"),
    ("The kids are allowed screen time on school nights.", "The kids are not allowed screen time on school nights.",
     YES, "negation"),
    ("The checkout service retries failed payments.", "The checkout service does not retry failed payments.",
     YES, "negation"),
    ("Ines uses mixed precision for fine-tuning.", "Ines doesn't use mixed precision for fine-tuning.",
     YES, "negation"),
    ("The gateway logs request bodies.", "The gateway never logs request bodies.", YES, "negation"),
    ("Maya takes the bus to work.", "Maya no longer takes the bus to work.", YES, "negation"),
    ("Code review happens in Gerrit.", "Code review moved to GitLab merge requests.", YES, "change words"),
    ("The team lunch is on the second floor.", "The team lunch has moved to the canteen across the street.",
     YES, "change words"),
    ("We track bugs in Jira.", "We switched bug tracking to Linear.", YES, "change words"),
    ("Maya's pharmacy is the one on Odengatan.", "Maya now uses the online pharmacy instead.", YES, "change words"),
    ("Metrics dashboards are built by each team.", "Dashboards are now owned by the observability team.",
     YES, "change words"),
    ("The legacy billing endpoint is enabled.", "The legacy billing endpoint is disabled.", YES, "state"),
    ("Incident OPS-1988 is unresolved.", "Incident OPS-1988 is resolved.", YES, "state"),
    # -- not contradicting -----------------------------------------------------------
    ("The Kafka topic orders has 12 partitions.", "There are 12 partitions on the orders topic in Kafka.",
     NO, "paraphrase"),
    ("The school pickup is at 15:30.", "Pickup from school happens at 15:30.", NO, "paraphrase"),
    ("The primary database host is pg-main-01.", "pg-main-01 is the primary database host.", NO, "paraphrase"),
    ("Our feature flags are managed in LaunchDarkly.", "LaunchDarkly is where we manage feature flags.",
     NO, "paraphrase"),
    ("Trash collection is on Wednesdays.", "The garbage truck comes every Wednesday.", NO, "paraphrase"),
    ("The tokenizer is version 2.1.", "We are on tokenizer v2.1.", NO, "paraphrase"),
    ("Checkpoints are saved to /checkpoints/tern-7b.", "Tern-7b checkpoints get written to /checkpoints/tern-7b.",
     NO, "paraphrase"),
    ("The gateway never logs request bodies.", "Request bodies are never written to the gateway logs.",
     NO, "paraphrase"),
    ("The on-call escalation manager is Rafael.", "Escalations during on-call go to Rafael.", NO, "paraphrase"),
    ("Maya takes the bus to work.", "Maya commutes to work by bus.", NO, "paraphrase"),
    ("The SLO for checkout availability is 99.9%.", "Checkout must be available 99.9% of the time.",
     NO, "paraphrase"),
    ("Code review happens in Gerrit.", "We review code in Gerrit.", NO, "paraphrase"),
    ("The Kafka topic orders has 12 partitions.", "The Kafka topic orders has 12 partitions and a replication "
     "factor of 3.", NO, "added detail"),
    ("The school pickup is at 15:30.", "The school pickup is at 15:30 at the side gate by the gym.",
     NO, "added detail"),
    ("The primary database host is pg-main-01.",
     "The primary database host is pg-main-01, with pg-replica-02 as its standby.", NO, "added detail"),
    ("Maya's flight to Lisbon departs at 7:05.", "Maya's flight to Lisbon departs at 7:05 from Arlanda terminal 5.",
     NO, "added detail"),
    ("Ines uses mixed precision for fine-tuning.",
     "Ines uses mixed precision for fine-tuning, bf16 on the A100 nodes.", NO, "added detail"),
    ("The mail relay is smtp1.quorvel.net.", "The mail relay is smtp1.quorvel.net on port 587 with STARTTLS.",
     NO, "added detail"),
    ("Trash collection is on Wednesdays.", "Trash collection is on Wednesdays; recycling is picked up every other "
     "week.", NO, "added detail"),
    ("Node services run on Node 18.", "Node services run on Node 18 with pnpm as the package manager.",
     NO, "added detail"),
    ("The runbook for failover is docs/runbooks/failover.md.",
     "The runbook for failover is docs/runbooks/failover.md; it was last tested in January.", NO, "added detail"),
    ("Our feature flags are managed in LaunchDarkly.",
     "Our feature flags are managed in LaunchDarkly, one project per product.", NO, "added detail"),
    ("The kids' swimming coach is Henrik.", "The kids' swimming coach is Henrik, at the Eriksdal pool on Saturdays.",
     NO, "added detail"),
    ("The eval suite has 1,200 test prompts.", "The eval suite has 1,200 test prompts across 9 languages.",
     NO, "added detail"),
    ("The pager hand-off happens at 09:00.", "The pager hand-off happens at 9am.", NO, "same value"),
    ("Maya's rent is 9,800 kronor a month.", "Maya's rent is 9800 kronor a month.", NO, "same value"),
    ("vLLM is pinned to 0.4.2.", "vLLM is pinned to v0.4.2.", NO, "same value"),
    ("Dana's 1:1 is at 3pm.", "Dana's 1:1 is at 15:00.", NO, "same value"),
    ("The job has a 16GB memory limit.", "The job has a 16 GB memory limit.", NO, "same value"),
    ("School pickup is at 15:30.", "School pickup is at 3.30 pm.", NO, "same value"),
    ("Sprint demos start at 14:00.", "Sprint demos start at 2 pm.", NO, "same value"),
    ("The batch window closes at 23:00.", "The batch window closes at 11pm.", NO, "same value"),
    ("The Kafka topic orders has 12 partitions.", "The Kafka topic orders keeps messages for 7 days.",
     NO, "other slot"),
    ("Request timeout for the billing client is 5 seconds.", "The billing client retries 3 times.",
     NO, "other slot"),
    ("The school pickup is at 15:30.", "The school is closed on 24 December.", NO, "other slot"),
    ("The primary database host is pg-main-01.", "The primary database has 64 GB of RAM.", NO, "other slot"),
    ("The eval suite has 1,200 test prompts.", "The eval suite takes 40 minutes on 4 GPUs.", NO, "other slot"),
    ("Maya's rent is 9,800 kronor a month.", "Maya's lease runs until 2026-08-31.", NO, "other slot"),
    ("We keep 3 replicas of the search index.", "The search index is rebuilt every 6 hours.", NO, "other slot"),
    ("Node services run on Node 18.", "Node services listen on port 3000.", NO, "other slot"),
    ("Training jobs are submitted from login-node-2.", "Training jobs are limited to 48 hours of wall time.",
     NO, "other slot"),
    ("Incident OPS-1988 was caused by a full disk.", "Incident OPS-2011 was caused by an expired certificate.",
     NO, "other slot"),
    ("The kids are not allowed screen time on school nights.",
     "Screen time is off limits for the kids on school nights.", NO, "negation paraphrase"),
    ("The checkout service does not retry failed payments.",
     "Failed payments are never retried by the checkout service.", NO, "negation paraphrase"),
    ("Guests have no access to the NAS.", "The NAS is closed to guests.", NO, "negation paraphrase"),
]

HALVES = {"A (tuned on)": PAIRS_A, "B (not tuned on)": PAIRS_B,
          "C (written apart; the subject rules read its misses)": PAIRS_C, "D (run once, untuned)": PAIRS_D,
          "E (names first, change words on another subject; read while adjusting)": PAIRS_E,
          "F (outcomes, now beside a verb that adds, group compounds, name particles; run once)": PAIRS_F}


def precision_recall(flagged: list[bool], truth: list[bool]) -> tuple[float, float]:
    """Precision and recall of ``flagged`` against ``truth`` (1.0 when nothing was flagged / expected)."""
    hits = sum(f and t for f, t in zip(flagged, truth))
    return hits / max(1, sum(flagged)) if any(flagged) else 1.0, hits / sum(truth) if any(truth) else 1.0


def cosines(embedder: Embedder, pairs: list[tuple[str, str, bool, str]]) -> list[float]:
    """Cosine between each pair's two memories (the packaged model, unit-norm vectors)."""
    vectors = embedder.embed([text for older, newer, _, _ in pairs for text in (older, newer)])
    return [float(vectors[2 * i] @ vectors[2 * i + 1]) for i in range(len(pairs))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", action="store_true", help="list the pairs each figure gets wrong")
    args = parser.parse_args()
    embedder = Embedder()
    out = sys.stdout.write
    for name, pairs in HALVES.items():
        truth = [expected for _, _, expected, _ in pairs]
        reasons = [disagreement(older, newer) for older, newer, _, _ in pairs]
        cosine = cosines(embedder, pairs)
        similar = [c >= SAME_SUBJECT for c in cosine]
        words = [r is not None for r in reasons]
        both = [contradicts(older, newer, c, SAME_SUBJECT) is not None
                for (older, newer, _, _), c in zip(pairs, cosine)]
        out(f"half {name}: {sum(truth)} contradicting, {len(truth) - sum(truth)} not\n")
        for label, flagged in (("word test alone", words), (f"end to end (cosine >= {SAME_SUBJECT}, strong {STRONG_SUBJECT}, changed {CHANGED_SUBJECT})", both)):
            precision, recall = precision_recall(flagged, truth)
            out(f"  {label:<30} precision {precision:.3f}  recall {recall:.3f}\n")
            if args.show:
                for (older, newer, expected, category), got, reason, c in zip(pairs, flagged, reasons, cosine):
                    if got != expected:
                        out(f"    {'missed' if expected else 'false alarm'} [{category}] {older!r} -> {newer!r}"
                            f" ({reason}; cosine {c:.2f})\n")
        out(f"  below the cosine gate: {sum(t and not s for t, s in zip(truth, similar))} contradicting, "
            f"{sum(not t and not s for t, s in zip(truth, similar))} not\n")


if __name__ == "__main__":
    main()
