"""Contradictions between subjects and within a slot, through the store with the real model, on each
backend: the same slot of two subjects is no contradiction at write, in recall or in review; a word
swapped in the same slot is one; strong evidence is caught under the 0.6 cosine gate; recall never
outdates a memory whose subject word the question names."""

from __future__ import annotations

import pytest
from memvault.storage.consolidate import consolidate
from memvault.storage.contradiction import disagreement
from memvault.storage.store import Store

pytestmark = pytest.mark.contract


def remember(store: Store, content: str, observed_at: str):  # type: ignore[no-untyped-def]
    return store.remember(tenant="t", scope="proj", content=content, kind="fact", observed_at=observed_at)


def outdated(store: Store, query: str) -> dict[str, str | None]:
    return {h.memory.id: h.outdated_by for h in store.recall(tenant="t", query=query, scopes=["proj"]).hits}


def test_the_same_slot_of_two_subjects_is_no_contradiction_anywhere(real_store):
    staging = remember(real_store, "The staging cluster has 4 nodes.", "2025-01-06T09:00:00Z").id
    production = remember(real_store, "The production cluster has 12 nodes.", "2025-03-03T09:00:00Z")
    assert production.contradicts == ()
    hits = real_store.recall(tenant="t", query="How many nodes does the staging cluster have?", scopes=["proj"]).hits
    assert hits[0].memory.id == staging and hits[0].outdated_by is None
    consolidate(real_store)
    assert real_store.review("t", ["proj"]).contradictions == []


def test_a_word_swapped_in_the_same_slot_contradicts_and_the_newer_comes_first(real_store):
    tabs = remember(real_store, "We indent YAML files with tabs.", "2025-01-06T09:00:00Z").id
    spaces = remember(real_store, "We indent YAML files with spaces.", "2025-03-03T09:00:00Z")
    assert dict(spaces.contradicts) == {tabs: "different word: tabs → spaces"}
    hits = real_store.recall(tenant="t", query="How do we indent YAML files?", scopes=["proj"]).hits
    assert [h.memory.id for h in hits][:2] == [spaces.id, tabs] and hits[1].outdated_by == spaces.id


def test_strong_evidence_under_the_cosine_gate_is_caught_at_write_and_in_review(real_store):
    """The two are at cosine 0.52 (under ranking.SAME_SUBJECT): only the name differs."""
    jonas = remember(real_store, "The release manager is Jonas Berg.", "2025-01-06T09:00:00Z").id
    priya = remember(real_store, "The release manager is Priya Nair.", "2025-03-03T09:00:00Z")
    assert list(dict(priya.contradicts)) == [jonas]
    consolidate(real_store)
    assert [(o, n) for o, n, _ in real_store.review("t", ["proj"]).contradictions] == [(jonas, priya.id)]


def test_recall_never_outdates_a_memory_whose_subject_word_the_question_names(real_store):
    staging = remember(real_store, "We run 4 nodes for staging.", "2025-01-06T09:00:00Z").id
    production = remember(real_store, "We now run 6 nodes for production.", "2025-03-03T09:00:00Z").id
    assert outdated(real_store, "How many nodes do we run for staging?").get(staging, "absent") is None
    assert production in outdated(real_store, "How many nodes do we run for production?")


@pytest.mark.parametrize("template", [
    "To debug {s} locally run `docker compose up {s}` and tail the logs with `make logs SVC={s}`.",
    "Restart {s} with `kubectl rollout restart deploy/{s}`, then check `make status APP={s}`.",
    "The {s} runbook: page the owner, then run `./scripts/drain.sh SERVICE={s}`.",
])
def test_a_runbook_written_for_each_service_names_its_subject_not_a_changed_value(template):
    """The trial of stop 46: per-service notes differing only in the service's name (said as a word
    and assigned, ``SVC=auth-svc``) filled the review with 29 false contradictions."""
    older, newer = template.format(s="auth-svc"), template.format(s="billing-api")
    assert disagreement(older, newer) is None


@pytest.mark.parametrize(("older", "newer"), [
    ("Run make logs SVC=auth-svc to see the logs", "Run make logs SVC=billing-api to see the logs"),
    ("Deploy auth-svc with REGION=eu-west-1", "Deploy auth-svc with REGION=us-east-1"),
])
def test_an_assigned_value_the_text_does_not_repeat_still_changes(older, newer):
    assert disagreement(older, newer) is not None


@pytest.mark.parametrize(("older", "newer"), [
    ("The img-resizer service exposes metrics on port 9104 under /metrics.",
     "Decision: img-resizer must keep p95 latency under 180 ms."),
    ("The scheduler serves metrics on port 9108 under /metrics.", "The scheduler must keep p95 under 260 ms."),
    ("Uploads to img-resizer stay under 25 MB.", "img-resizer must keep p95 latency under 180 ms."),
    ("The ledger queue holds under 500 messages at peak.", "The ledger backups run under 40 minutes."),
    ("Search answers within 200 ms on the staging cluster.", "Search keeps 3 replicas within each region."),
])
def test_numbers_beside_one_preposition_only_are_in_different_slots(older, newer):
    """The trial: "port 9104 under /metrics" and "latency under 180 ms" read as one number changed."""
    assert disagreement(older, newer) is None


@pytest.mark.parametrize(("older", "newer"), [
    ("img-resizer must keep p95 latency under 180 ms.", "img-resizer must keep p95 latency under 250 ms."),
    ("Alert when CPU is above 90 percent", "Alert when CPU is above 95 percent"),
])
def test_a_number_of_the_same_slot_beside_a_preposition_still_changes(older, newer):
    assert disagreement(older, newer) is not None


@pytest.mark.parametrize(("older", "newer"), [
    ("The img-resizer service is owned by Tom and its repository is git.example.com/platform/img-resizer.",
     "The img-resizer service exposes metrics on port 9104 under /metrics."),
    ("The crm-sync job is owned by Fatima and its dashboard is grafana.example.com/d/crm.",
     "The crm-sync job stores exports in s3://exports/crm."),
    ("The auth-svc is owned by Lena and its changelog is at /docs/auth/CHANGELOG.md.",
     "The auth-svc serves login at /oauth/login."),
    ("The ledger service keeps its config in /etc/ledger/app.yaml.",
     "The ledger service writes backups nightly to /var/backups/ledger."),
])
@pytest.mark.parametrize("order", [1, -1])
def test_a_lone_value_beside_words_the_other_text_never_says_is_another_slot(older, newer, order):
    """The trial of stop 46's last false pair: a repository's path and a metrics path of one service
    read as one path changed, each text's only path swapped for the other's."""
    assert disagreement(*(older, newer)[::order]) is None


@pytest.mark.parametrize(("older", "newer"), [
    ("Standup is at 9:15.", "Standup now happens at 10:30."),
    ("The config lives in /etc/app/config.yaml.", "The config now lives in /opt/app/config.yaml."),
    ("The repository is git.example.com/platform/ledger.",
     "The repository moved to gitlab.example.com/platform/ledger."),
    ("Backups go to /var/backups.", "Backups now go to /mnt/backups."),
    ("The release train leaves on Tuesday.", "The release train now leaves on Thursday."),
])
def test_a_lone_value_refilling_a_slot_both_texts_name_still_changes(older, newer):
    assert disagreement(older, newer) is not None


@pytest.mark.parametrize(("older", "newer"), [
    ("The SLO for the public API is 99.9% availability measured monthly.",
     "The API rate limit is now 250 requests per second per customer after the gateway upgrade."),
    ("The retention policy for the billing database is 30 days.",
     "The billing team standup is now at 10:00 on Tuesdays."),
    ("The on-call rotation for the search cluster is weekly.", "The search index refresh interval is now 5 seconds."),
    # trial 48: half of a two-word subject ("the analytics role"), the other word elsewhere ("ledger replica")
    ("The analytics replica is db-analytics-01.internal.",
     "The analytics role now has statement_timeout set to 60 seconds on the ledger replica."),
])
def test_change_words_on_a_subject_sharing_one_word_change_nothing_of_the_older(older, newer):
    """The trials of stops 47 and 48: "The API rate limit is now 250" outdated "The SLO for the public API";
    "The analytics role now has ..." outdated "The analytics replica is ..."."""
    assert disagreement(older, newer) is None


@pytest.mark.parametrize(("older", "newer"), [
    ("Decided to migrate the staging database to stg-db-07 because stg-db-03 ran out of disk IOPS.",
     "The staging database is now stg-db-07.lan after the migration off stg-db-03."),
    ("We will move CI builds to Buildkite next sprint.", "CI builds now run on Buildkite."),
    ("Plan: switch the alerts from PagerDuty to Opsgenie in Q3.", "Alerts now go to Opsgenie."),
])
def test_change_words_reporting_the_value_the_older_planned_contradict_nothing(older, newer):
    assert disagreement(older, newer) is None


@pytest.mark.parametrize(("older", "newer"), [
    ("The primary database host is db1.", "The primary database host is db1.internal.example.com."),
    ("Connect to the cache at redis-7 on port 6379.", "Connect to the cache at redis-7.prod.example.net on port 6379."),
])
def test_a_host_named_with_its_domain_is_the_same_host(older, newer):
    assert disagreement(older, newer) is None


@pytest.mark.parametrize(("older", "newer"), [
    ("The API uses REST.", "The API now uses gRPC."),
    ("Zoë's swimming lessons are on Wednesdays at 17:30.",
     "From this autumn Zoë's swimming group meets on Saturdays at 09:00 instead of Wednesday evenings."),
    ("The primary database host is db1.", "The primary database host is now db2.internal."),
    ("The gateway runs Kong 3.6.", "The gateway now runs Kong 3.6.1."),
    ("The rate limit is 100 requests per second.", "The API rate limit is now 250 requests per second."),
    ("We moved CI builds to Jenkins.", "CI builds now run on Buildkite."),
    ("The analytics replica is db-analytics-01.internal.", "The analytics replica is now db-analytics-02.internal."),
    ("Zoë's swimming lessons are at 17:30.", "From this autumn Zoë's swimming lessons are now at 18:00."),
])
def test_a_value_replaced_on_the_same_subject_still_changes(older, newer):
    assert disagreement(older, newer) is not None


@pytest.mark.parametrize(("old", "new"), [
    ("Support for APAC closes at 5pm", "Support for EMEA closes at 6pm"),
    ("Support for EU customers ends at 18:00", "Support for US customers ends at 20:00"),
    ("Billing for LATAM runs on the 5th", "Billing for EMEA runs on the 1st"),
])
def test_a_region_right_after_the_first_word_names_a_subject(old, new):
    assert disagreement(old, new) is None


@pytest.mark.parametrize(("old", "new"), [
    ("Support for APAC closes at 5pm", "Support for APAC now closes at 6pm"),
    ("Our servers are in the EU", "Our servers are in the US"),
])
def test_a_region_as_a_value_or_one_region_changed_is_still_a_change(old, new):
    assert disagreement(old, new) is not None


@pytest.mark.parametrize(("older", "newer"), [
    ("ok a6", "ok b1"),  # trial verify63 N8
    ("ok a1", "ok b2"),
    ("okay 1", "okay 2"),
    ("thanks a1", "thanks b2"),
    ("yes 3", "yes 4"),
    ("hey x1", "hey y2"),
    ("the password is kept in the safe", "the password policy is now strict"),  # trial verify63 N8
    ("The server is in rack 4", "The server room is now locked"),
    ("The API is slow", "The API gateway is now faster"),
    ("The invoice is paid", "The invoice template has now changed"),
])
def test_texts_sharing_only_an_interjection_or_a_word_naming_another_thing_contradict_nothing(older, newer):
    """A value swapped beside nothing but "ok", or change words on "the password policy" beside "the password":
    no subject both hold (trial verify63 N8)."""
    assert disagreement(older, newer) is None
    assert disagreement(newer, older) is None


@pytest.mark.parametrize(("older", "newer"), [
    ("We switched to Poetry", "We switched to uv"),
    ("Port 8080", "Port 9090"),
    ("Room a6", "Room b1"),
    ("Backups are kept for 30 days", "Backup retention is now 90 days"),
    ("the password is kept in the safe", "the password is now managed by Okta"),
    ("The build is green", "The build is now red"),
    ("Meet at 10:30", "Meet at 11:00"),
    ("Ana is the CTO.", "Bruno took over as CTO from Ana."),
    ("The office is in Lisbon", "The office is now in Porto"),
])
def test_a_value_or_change_on_a_subject_both_hold_still_contradicts(older, newer):
    assert disagreement(older, newer) is not None


@pytest.mark.parametrize(("older", "newer"), [
    ("The kiln room number 0 seats 3 people", "The quartz room number 3 seats 6 people"),
    ("The cedar room number 3 seats 9 people", "The coral room number 7 seats 3 people"),
    ("The maple room number 4 seats 5 people", "The onyx room number 5 seats 2 people"),
    ("The billing queue keeps 5 workers for 30 days", "The search queue keeps 30 workers for 7 days"),
    ("The blue line runs every 10 minutes from platform 4", "The red line runs every 4 minutes from platform 2"),
    ("The staging database keeps 7 days of backups in bucket 2",
     "The production database keeps 2 days of backups in bucket 9"),
])
@pytest.mark.parametrize("order", [1, -1])
def test_two_subjects_are_told_apart_when_one_value_of_the_newer_stands_elsewhere_in_the_older(older, newer, order):
    """Trial verify64 N5: the value both hold in other slots hid the subject word each replaces."""
    assert disagreement(*(older, newer)[::order]) is None


@pytest.mark.parametrize(("older", "newer"), [
    ("The kiln room number 0 seats 3 people", "The kiln room number 0 seats 6 people"),
    ("The kiln room seats 3 people", "The kiln room seats 6 people"),
    ("The staging cluster has 4 nodes and 2 GPUs", "The staging cluster has 2 nodes and 8 GPUs"),
    ("The north gate opens at 8:00 and closes at 18:00", "The north gate opens at 18:00 and closes at 22:00"),
])
def test_a_value_of_one_subject_replaced_beside_a_value_held_elsewhere_still_changes(older, newer):
    assert disagreement(older, newer) is not None and disagreement(newer, older) is not None
