"""The word test of contradictions (storage/contradiction.py): what disagrees and what does not,
values in normal form, and a pass over long input that no pattern can make slow."""

from __future__ import annotations

import pytest
from memvault.storage.contradiction import (CHANGED_SUBJECT, REFILLED_SUBJECT, STRONG_SUBJECT, contradicts,
                                             disagreement, names_subject, stem, values)
from memvault.storage.contradiction_reading import _read


@pytest.mark.parametrize(("older", "newer", "kind"), [
    ("The team standup is at 9:15 every morning.", "Standup now happens at 10:30.", "different time"),
    ("Nightly backups start at 2am.", "Nightly backups start at 03:30.", "different time"),
    ("The staging cluster has 4 worker nodes.", "The staging cluster has 6 worker nodes.", "different number"),
    ("The staging database is db-stg-03.", "The staging database is db-stg-07.", "different ident"),
    ("Production runs PostgreSQL 15.4.", "Production runs PostgreSQL 16.2.", "different number"),
    ("Alice's editor is Helix.", "Alice's editor is Zed.", "different name"),
    ("The office Wi-Fi is called Lindgarden.", "The office Wi-Fi is called Lindgarden-Mesh.", "different name"),
    ("Logs go to /var/log/api.log.", "Logs go to /srv/logs/api.log.", "different path"),
    ("Deploys happen on Tuesdays.", "Deploys happen on Thursdays.", "different day"),
    ("Ticket HPC-4471 is open.", "Ticket HPC-4471 is closed.", "opposite state"),
    ("Dana drinks coffee in the afternoon.", "Dana does not drink coffee in the afternoon.", "negation"),
    ("Maya takes the bus to work.", "Maya no longer takes the bus to work.", "negation"),
    ("The standup is held in the morning.", "The standup has moved to the afternoon.", "change words"),
    ("The nightly cron job runs at midnight.", "The nightly cron job runs at 2am.", "different time"),  # trial 27 #2
    ("Lunch is at noon.", "Lunch is at 1pm.", "different time"),
    ("Plan A is the default.", "Plan B is the default.", "different name"),
])
def test_a_changed_value_state_negation_or_change_is_a_disagreement(older, newer, kind):
    reason = disagreement(older, newer)
    assert reason is not None and reason.startswith(kind)


@pytest.mark.parametrize(("older", "newer"), [
    ("The team standup is at 9:15 every morning.", "Every morning at 9:15 the team has its standup."),
    ("The standup is at 9:15.", "The standup is at 9.15 am."),
    ("Cron runs the report at 18:30.", "Cron runs the report at 6:30 pm."),
    ("The import handles 1,000 rows per batch.", "The import handles 1000 rows per batch."),
    ("The mobile release is v3.9.0.", "The mobile release is 3.9.0."),
    ("Each GPU node has 80GB of memory.", "Each GPU node has 80 GB of memory."),
    ("The staging cluster has 4 worker nodes.", "The staging cluster has 4 worker nodes, each with 32 GB of RAM."),
    ("The API listens on port 8080.", "The API runs 4 worker processes."),
    ("We use Postgres for the ledger.", "We use PostgreSQL for the ledger."),
    ("Dana does not drink coffee in the afternoon.", "Dana never has coffee in the afternoon."),
    ("The service is stateless.", "The service does not keep any state."),
    ("The pipeline runs the unit tests.", "The pipeline now also runs the unit tests and a linter."),
    ("Building C has 4 floors.", "Building D has 5 floors."),  # a label's letter names another subject
    ("The cron job runs at midnight.", "The cron job runs at 00:00."),
    ("Deploys go through ArgoCD", "Deploys go through ArgoCD…"),  # trial 54 #6: a restatement, no new name
    ("Deploys go through ArgoCD", "Deploys go through ArgoCD™"),
    ("Deploys go through ArgoCD", "Deploys go through ArgoCD®"),
])
def test_a_paraphrase_an_added_detail_or_another_slot_is_no_disagreement(older, newer):
    assert disagreement(older, newer) is None


@pytest.mark.parametrize(("older", "newer"), [
    ("Priya prefers tabs over spaces.", "Priya prefers spaces over tabs."),
    ("We use pnpm instead of npm.", "We now use npm instead of pnpm."),
    ("Run the linter rather than the formatter on save.", "Run the formatter rather than the linter on save."),
    ("Deploy staging before production.", "Deploy production before staging."),
    ("We moved from MySQL to Postgres last year.", "We moved from Postgres to MySQL last year."),
    ("Kafka is favoured over RabbitMQ for events.", "RabbitMQ is favoured over Kafka for events."),
])
def test_two_things_exchanged_across_a_word_of_choice_or_order_are_reversed(older, newer):
    reason = disagreement(older, newer)
    assert reason is not None and reason.startswith("reversed: "), reason


@pytest.mark.parametrize(("older", "newer"), [
    ("Priya prefers tabs over spaces.", "Marcus prefers spaces over tabs."),  # another person: not one value
    ("Alice meets Bob on Mondays.", "Bob meets Alice on Mondays."),  # no word of order between them
    ("Alice and Bob own billing.", "Bob and Alice own billing."),
    ("Priya prefers tabs over spaces.", "Priya prefers tabs over spaces in Go."),
])
def test_the_same_words_in_another_order_without_a_choice_between_them_are_not_reversed(older, newer):
    reason = disagreement(older, newer)
    assert reason is None or not reason.startswith("reversed: "), reason


def test_the_reason_names_the_values_in_normal_form():
    assert disagreement("Standup is at 9.15 am.", "Standup is at 10:30.") == "different time: 09:15 → 10:30"
    assert values("The import handles 1,000 rows at 2pm on db-7.") == {"1000", "14:00", "db-7"}


@pytest.mark.parametrize(("text", "time"), [
    ("The door opens at 25:00", None), ("The door opens at 9:75", None), ("Standup at 0:60", None),
    ("The door opens at 13pm", None), ("The door opens 9:00-25:00", None),  # past a clock's range: no time
    ("The door opens at 23:59", "23:59"), ("The door opens at 12pm", "12:00"), ("Standup at 0:59", "00:59"),
    ("The door opens 9:00-17:00", "09:00-17:00"),
])
def test_a_clock_reading_past_its_range_is_no_time(text, time):
    assert set(_read(text).values.get("time", {})) == ({time} if time else set())


def test_stems_join_the_forms_of_a_word():
    assert {stem(w) for w in ("deploy", "deploys", "deploying", "deployed")} == {"deploy"}
    assert stem("retries") == stem("retry")


@pytest.mark.parametrize("unit", ["9", "A", "1.", "1,", "9:", "Ab1-", "/a", "a.b", "AB1"])
def test_long_repeated_input_is_read_in_linear_time(unit):
    """No pattern backtracks: a repeated digit, capital or punctuation run costs no more than linear growth
    from 8 to 64 KiB (CPU time of both sizes in the same run: ``test_secret_scan._grows_linearly``)."""
    from test_secret_scan import _grows_linearly

    def read(text: str) -> None:
        disagreement(text, text[:-1] + "0 now moved")
    assert _grows_linearly(lambda size: (unit * (size // len(unit) + 1))[:size], read) is None


@pytest.mark.parametrize(("older", "newer"), [
    ("The staging cluster has 4 nodes.", "The production cluster has 12 nodes."),
    ("My daughter is 7.", "My son is 10."),
    ("The staging database listens on port 5432.", "The production database listens on port 6432."),
    ("The API listens on 8080 in staging.", "The API listens on 9090 in production."),
    ("We use Python 3.11.", "Drop Python 3.9 from the test matrix."),
    ("Marta's train leaves at 7:40.", "Oskar's train leaves at 8:10."),
    ("The Oslo office opens at 8:00.", "The Bergen office opens at 9:00."),
    ("Ticket OPS-12 is open.", "Ticket OPS-40 is closed."),
    ("The staging cluster has 4 nodes.", "The production cluster now has 12 nodes."),
    ("The staging cluster has 4 nodes.", "The production cluster has 4 nodes."),
    ("Linters run on the frontend repo.", "Linters run on the backend repo."),
    ("We deploy the api with helm.", "We deploy the worker with helm."),
    ("Jonas does not eat meat.", "Jonas is a vegetarian and avoids meat."),
])
def test_the_same_slot_of_another_subject_is_no_disagreement(older, newer):
    assert disagreement(older, newer) is None


@pytest.mark.parametrize(("older", "newer", "kind"), [
    ("We indent YAML with tabs.", "We indent YAML with spaces.", "different word: tabs → spaces"),
    ("The docs site is built with sphinx.", "The docs site is built with mkdocs.", "different word"),
    ("Invoices are sent weekly.", "Invoices are sent monthly.", "different word: weekly → monthly"),
    ("The queue keeps three retries.", "The queue keeps five retries.", "different number: 3 → 5"),
    ("The on-call shift is twelve hours.", "The on-call shift is 10 hours.", "different number: 12 → 10"),
])
def test_a_word_or_number_word_swapped_in_the_same_slot_is_a_disagreement(older, newer, kind):
    reason = disagreement(older, newer)
    assert reason is not None and reason.startswith(kind)


def test_strong_evidence_passes_a_lower_cosine_gate_and_weak_evidence_does_not():
    lone = ("The staging cluster has 4 worker nodes.", "The staging cluster has 6 worker nodes.")
    loose = ("The release checklist has 14 steps.", "The release calendar lists 9 dates.")
    assert contradicts(*lone, STRONG_SUBJECT, 0.6) is not None
    assert contradicts(*lone, STRONG_SUBJECT - 0.01, 0.6) is None
    refilled = ("Our new release manager is Jonas Berg.", "Our new release manager is Priya Nair.")  # a name's slot
    assert contradicts(*refilled, CHANGED_SUBJECT, 0.6) is not None
    assert contradicts(*refilled, CHANGED_SUBJECT - 0.01, 0.6) is None
    tiny = ("The release manager is Jonas Berg.", "The release manager is Priya Nair.")  # at most ``TINY`` words
    assert contradicts(*tiny, REFILLED_SUBJECT, 0.6) is not None
    assert contradicts(*tiny, REFILLED_SUBJECT - 0.01, 0.6) is None
    weak = ("We keep 3 replicas.", "We keep 5 replicas, 2 standbys and 4 caches.")
    assert disagreement(*weak) is not None and contradicts(*weak, 0.55, 0.6) is None
    assert contradicts(*loose, 0.9, 0.6) is None


def test_a_question_naming_the_older_ones_subject_word_says_so():
    older, newer = "We deploy the api with helm.", "We deploy the api with kustomize now."
    assert not names_subject("How do we deploy the api?", older, newer)
    assert names_subject("How is the staging cluster sized?", "The staging cluster has 4 nodes.",
                         "The prod cluster now has 6 nodes.")


@pytest.mark.parametrize(("older", "newer", "apart"), [
    ("Service 28 listens on port 9028", "Service 29 listens on port 9029", True),
    ("Room 4 has 12 chairs", "Room 5 has 20 chairs", True),
    ("Build agent 7 runs on host ci-07", "Build agent 8 runs on host ci-08", True),
    ("Room 3 has 12 chairs", "Room 7 has 12 chairs", True),  # the same value: still two rooms
    ("Server 1 is in rack 3", "Server 3 is in rack 4", True),  # values shared across the slots
    ("The meeting room 2 seats 8 people", "The meeting room 5 seats 6 people", True),
    ("Team 1 meets at 11:30", "Team 3 meets at 11:30", True),
    ("The quarterly review is on 14 March.", "The quarterly review is on 21 March.", False),  # no label
    ("Host web-01 runs nginx 1.25", "Host web-02 runs nginx 1.24", True),  # an identifier as the label
    ("On floor 1 there are 30 desks", "On floor 3 there are 30 desks", True),
    ("The staging database runs on host db-stg-03.", "The staging database runs on host db-stg-07.", False),
    ("Node 3 runs 4 pods", "Node 3 runs 6 pods", False),  # the same numbered subject
    ("Postgres 15 is used in production", "Postgres 16 is used in production", False),  # one value changed
])
def test_numbered_subjects_are_told_apart_from_a_change_of_one(older: str, newer: str, apart: bool):
    assert (disagreement(older, newer) is None) is apart
