"""How a question asks, apart from what it asks about (trial verify66 N4, N5): "may I", "should we",
"is it ok to" ask whether an act may be done and are no words of its subject; "which service" asks for
a thing a memory names in its place ("NFS listens ..."), no sibling of it; a number naming a port, a
room or a version is no time. Against a store with the real model."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memvault.storage.query import asked_type, asking_leave_aside
from memvault.storage.ranking import SURE_CONFIDENCE
from memvault.storage.subjects import near_miss

NOW = datetime(2026, 11, 27, 15, 0, tzinfo=UTC)
OLD = "2026-03-02T10:00:00Z"
MEMORIES = (
    ("Never deploy on Fridays", "decision", OLD),
    ("No database migrations on Wednesdays: the reporting batch runs all day.", "decision", OLD),
    ("Nobody merges to main on Mondays while the release train is cut.", "decision", OLD),
    ("May prefers sparkling water", "preference", OLD),
    ("Shipped the mobile app redesign to all customers", "episode", "2026-05-12T10:00:00Z"),
    ("The fine to pay for late library returns is 2 EUR a day.", "fact", OLD),
    ("The login outage was caused by a bad certificate.", "failure", OLD),
    ("The design review covered the onboarding flow and the colour of the primary buttons.", "fact", OLD),
    ("The conference travel budget was approved with a cap on hotel nights per person.", "fact", OLD),
    ("Quarterly planning produced eleven goals, three of them about developer experience.", "fact", OLD),
    ("NFS listens on port 2049", "fact", OLD),
    ("Envoy terminates TLS at the edge.", "fact", OLD),
    ("Pluto hosts Grafana and Prometheus.", "fact", OLD),
    ("Janitor cleans up old snapshots every night.", "fact", OLD),
    ("Redis stores sessions for the web app.", "fact", OLD),
    ("RabbitMQ feeds invoices to billing.", "fact", OLD),
    ("Avahi answers on port 5353 for mDNS.", "fact", OLD),
    ("The lease on the Lisbon office runs until 2049.", "fact", OLD),
)


@pytest.fixture(scope="module")
def shared_clock():
    """The clock of the stores ``shared_store`` fills (conftest)."""
    return lambda: int(NOW.timestamp() * 1000)


def remember_all(store) -> None:  # type: ignore[no-untyped-def]
    for content, kind, at in MEMORIES:
        store.remember(tenant="t", scope="proj", content=content, kind=kind, observed_at=at, check_similar=False)


def recall(shared_store, question: str):  # type: ignore[no-untyped-def]
    store, _ = shared_store(remember_all)
    return store.recall(tenant="t", query=question, scopes=["proj"], limit=3)


def first(outcome) -> tuple[str, float]:  # type: ignore[no-untyped-def]
    assert outcome.hits, "no hit"
    return outcome.hits[0].memory.content, outcome.hits[0].confidence


@pytest.mark.parametrize(("question", "wanted"), [
    ("can I deploy on a Friday?", "Never deploy"),  # as before
    ("may I deploy on a Friday?", "Never deploy"),
    ("May we deploy on a Friday?", "Never deploy"),
    ("might I deploy on Friday?", "Never deploy"),
    ("should I deploy on a Friday?", "Never deploy"),
    ("shall we deploy on a Friday?", "Never deploy"),
    ("is it ok to deploy on a Friday?", "Never deploy"),
    ("is it okay to deploy on Friday?", "Never deploy"),
    ("is it safe to deploy on a Friday?", "Never deploy"),
    ("would it be fine for us to deploy on a Friday?", "Never deploy"),
    ("am I allowed to deploy on a Friday?", "Never deploy"),
    ("are we permitted to deploy on Fridays?", "Never deploy"),
    ("may I run a database migration on a Wednesday?", "No database migrations"),
    ("is it ok to merge to main on Monday?", "Nobody merges"),
    ("when may we merge to main on a Monday?", "Nobody merges"),
])
def test_a_question_asking_whether_it_may_is_as_sure_as_one_asking_whether_it_can(shared_store, question, wanted):
    """verify66 N4: "may I", "is it ok to" were subject words no memory holds: 0.45 against 0.91 for "can I"."""
    content, confidence = first(recall(shared_store, question))
    assert content.startswith(wanted)
    assert confidence >= SURE_CONFIDENCE


@pytest.mark.parametrize(("question", "wanted"), [
    ("What does May prefer to drink?", "May prefers"),  # May the person
    ("what is the fine to pay for late library returns?", "The fine to pay"),  # a noun before "to"
])
def test_may_the_person_and_a_noun_before_to_stay_words_of_the_question(shared_store, question, wanted):
    content, confidence = first(recall(shared_store, question))
    assert content.startswith(wanted)
    assert confidence >= SURE_CONFIDENCE


def test_may_the_month_stays_a_time(shared_store):
    outcome = recall(shared_store, "what did we ship in May?")
    assert outcome.time is not None and "May" in outcome.time.text
    assert first(outcome)[0].startswith("Shipped the mobile app")


@pytest.mark.parametrize(("question", "kept"), [
    ("may I deploy?", "I deploy?"),
    ("when may we merge?", "when we merge?"),
    ("is it ok to deploy?", "is it to deploy?"),
    ("are we allowed to merge?", "are we to merge?"),
    ("is it safe for us to deploy?", "is it for us to deploy?"),
    ("what did we ship in May?", "what did we ship in May?"),
    ("since May we have shipped twice?", "since May we have shipped twice?"),
    ("What does May prefer to drink?", "What does May prefer to drink?"),
    ("is a database upgrade allowed on a Tuesday?", "is a database upgrade allowed on a Tuesday?"),
    ("what is the fine to pay?", "what is the fine to pay?"),
    ("I may be late, is that ok?", "I may be late, is that ok?"),
])
def test_words_asking_leave_are_set_aside_only_where_they_ask_it(question, kept):
    assert " ".join(asking_leave_aside(question).split()) == kept


ANSWERS = [
    ("which service listens on port 2049?", "NFS listens on port 2049"),
    ("which proxy terminates TLS at the edge?", "Envoy terminates TLS at the edge."),
    ("which server hosts Grafana?", "Pluto hosts Grafana and Prometheus."),
    ("what job cleans up old snapshots?", "Janitor cleans up old snapshots every night."),
    ("which database stores sessions?", "Redis stores sessions for the web app."),
    ("what queue feeds invoices to billing?", "RabbitMQ feeds invoices to billing."),
    ("which daemon answers on port 5353?", "Avahi answers on port 5353 for mDNS."),
]


@pytest.mark.parametrize(("question", "typed"), [
    ("which service listens on port 2049?", "service"),
    ("What queue feeds invoices to billing?", "queue"),
    ("on which host runs the search-api?", "host"),
    ("whose script rotates the logs?", "script"),
    ("Which editor does Priya prefer?", None),  # an object asked of: the memory must name an editor
    ("what is the staging host?", None),
    ("what caused the billing outage?", None),
    ("when was the search outage?", None),
])
def test_the_kind_a_question_asks_for_is_the_subject_after_an_opening_which(question, typed):
    assert asked_type(question) == typed


@pytest.mark.parametrize(("question", "content"), ANSWERS)
def test_the_thing_a_which_question_asks_for_is_answered_by_a_name_in_its_place(question, content):
    """verify66 N5: "which service listens" / "NFS listens" was read as a sibling ("the search outage" /
    "the checkout outage") and capped at 0.45."""
    assert near_miss(question, content) is None


@pytest.mark.parametrize(("question", "content"), ANSWERS)
def test_a_which_question_is_sure_of_the_memory_naming_its_answer(shared_store, question, content):
    hit, confidence = first(recall(shared_store, question))
    assert hit == content
    assert confidence >= SURE_CONFIDENCE


@pytest.mark.parametrize(("question", "content"), [
    ("what caused the billing outage?", "The login outage was caused by a bad certificate."),
    ("when was the search outage?", "The checkout outage was on Monday."),
    ("what did the search team ship?", "The checkout team shipped the new cart."),
    ("what does the Business plan cost?", "The Pro plan costs 20 EUR a month."),
])
def test_a_sibling_after_the_or_a_team_stays_a_near_miss(question, content):
    assert near_miss(question, content) is not None


def test_a_sibling_stays_unsure_in_recall(shared_store):
    content, confidence = first(recall(shared_store, "what caused the billing outage?"))
    assert content.startswith("The login outage")
    assert confidence < SURE_CONFIDENCE


@pytest.mark.parametrize("question", [
    "which service listens on port 2049?",
    "which service listens on port 2026?",
    "what is in room 2025?",
    "who fixed issue 2023?",
    "what changed in version 2026?",
    "what is on page 2024 of the manual?",
    "who sits at desk 2019?",
    "what is on line 2024 of main.py?",
])
def test_a_number_naming_a_port_room_or_version_is_no_time(shared_store, question):
    assert recall(shared_store, question).time is None


@pytest.mark.parametrize(("question", "text"), [
    ("what happened in 2021?", "2021"),
    ("what did we ship since 2020?", "since 2020"),
])
def test_a_year_stays_a_time(shared_store, question, text):
    outcome = recall(shared_store, question)
    assert outcome.time is not None and outcome.time.text == text
