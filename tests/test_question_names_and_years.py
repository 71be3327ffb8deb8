"""What a question means (issue 25 §2), through recall against a store with the real model: a month or
season that is also a first name, asked of as a person ("What does August do?"), is not answered by a memory
naming that month ("The company offsite is in August"), which still answers the month asked ("what happened
in August?"); a past year asked alone ("what happened in 1999?") is answered by a memory telling of an event
in it ("In 1999 the company was founded"), not by a plan for it nor by one of another year."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memvault.storage.ranking import SURE_CONFIDENCE

NOW = datetime(2026, 11, 27, 15, 0, tzinfo=UTC)
OLD = "2026-03-02T10:00:00Z"
PEOPLE = (
    "August is the new intern on the data team.",
    "June leads the platform team.",
    "July maintains the billing service.",
    "April joined the security team last month.",
    "Summer runs the weekly design review.",
    "Jan owns the on-call rota.",
    "March approves all expense reports.",
)
MONTHS = (
    "The company offsite is in August in Lisbon.",
    "The summer release ships in June.",
    "The yearly audit starts in July.",
    "Rent for the office goes up in April.",
    "The office closes over the summer.",
    "Invoices for the cloud bill were sent in Jan.",
    "The engineering conference is in March.",
)
YEARS = (
    ("In 1999 the company was founded in Oslo.", "fact", OLD),
    ("We opened the Berlin office in 2012.", "fact", OLD),
    ("The first paying customer signed in 2014.", "fact", OLD),
    ("During 2017 we rewrote the billing system in Go.", "fact", OLD),
    ("In 2019 the team migrated from SVN to Git.", "fact", OLD),
    ("The Frankfurt data center was shut down in 2021.", "fact", OLD),
    ("Our roadmap for 2023 is to expand into Asia.", "decision", "2022-06-01T10:00:00Z"),
    ("We hired our first designer, Lena.", "episode", "2023-05-10T10:00:00Z"),
    ("The support budget stays frozen until 2008.", "fact", OLD),
)


@pytest.fixture(scope="module")
def shared_clock():
    """The clock of the stores ``shared_store`` fills (conftest)."""
    return lambda: int(NOW.timestamp() * 1000)


def remember_names(store) -> None:  # type: ignore[no-untyped-def]
    for content in PEOPLE + MONTHS:
        store.remember(tenant="t", scope="proj", content=content, kind="fact", observed_at=OLD, check_similar=False)


def remember_years(store) -> None:  # type: ignore[no-untyped-def]
    for content, kind, at in YEARS:
        store.remember(tenant="t", scope="proj", content=content, kind=kind, observed_at=at, check_similar=False)


def recall(shared_store, fill, question: str):  # type: ignore[no-untyped-def]
    store, _ = shared_store(fill)
    return store.recall(tenant="t", query=question, scopes=["proj"], limit=5)


@pytest.mark.parametrize(("question", "person"), [
    ("What does August do?", 0),
    ("Who is August?", 0),
    ("Which team is August on?", 0),
    ("Is August an intern?", 0),
    ("What does June do?", 1),
    ("Who is June?", 1),
    ("Which team does June lead?", 1),
    ("What does July maintain?", 2),
    ("Who is July?", 2),
    ("Does July work on billing?", 2),
    ("What does April do?", 3),
    ("Which team did April join?", 3),
    ("Who is April?", 3),
    ("What does Summer run?", 4),
    ("Who is Summer?", 4),
    ("What does Jan own?", 5),
    ("Who is Jan?", 5),
    ("What does March approve?", 6),
    ("Who is March?", 6),
    ("Did August finish the report?", 0),
    ("When does June start?", 1),
    ("Is April still on the security team?", 3),
])
def test_a_month_named_as_a_person_is_answered_by_the_person_not_the_month(shared_store, question, person):
    outcome = recall(shared_store, remember_names, question)
    assert outcome.hits and outcome.hits[0].memory.content == PEOPLE[person]
    month = [hit for hit in outcome.hits if hit.memory.content == MONTHS[person]]
    assert all(hit.confidence < SURE_CONFIDENCE for hit in month), [(h.memory.content, h.confidence) for h in month]


@pytest.mark.parametrize(("question", "month"), [
    ("what happens in August?", 0),
    ("where is the offsite in August?", 0),
    ("what ships in June?", 1),
    ("which audit starts in July?", 2),
    ("what goes up in April?", 3),
    ("what closes over the summer?", 4),
    ("what was sent in Jan?", 5),
    ("which conference is in March?", 6),
])
def test_a_month_asked_as_a_time_is_still_answered_by_the_month(shared_store, question, month):
    outcome = recall(shared_store, remember_names, question)
    assert outcome.hits and outcome.hits[0].memory.content == MONTHS[month]
    assert outcome.hits[0].confidence >= SURE_CONFIDENCE


@pytest.mark.parametrize(("question", "wanted"), [
    (f"{ask} {year}?", wanted)
    for year, wanted in (("1999", 0), ("2012", 1), ("2014", 2), ("2017", 3), ("2019", 4), ("2021", 5))
    for ask in ("what happened in", "what did we do in", "what went on during")
] + [("what happened in 2023?", 7), ("what did we do in 2023?", 7)])
def test_a_past_year_asked_alone_is_answered_by_a_memory_telling_of_an_event_then(shared_store, question, wanted):
    outcome = recall(shared_store, remember_years, question)
    assert outcome.hits and outcome.hits[0].memory.content == YEARS[wanted][0]
    assert outcome.hits[0].confidence >= SURE_CONFIDENCE


@pytest.mark.parametrize("question", [
    "what happened in 2005?",
    "what happened in 2010?",
    "what did we do in 2002?",
    "what happened in 1995?",
    "what went on during 2016?",
    "what happened in 2000?",
    "what did we do in 2008?",  # only a bound: "frozen until 2008"
    "what did we decide in 2023?",  # only a plan for it, made in 2022
])
def test_a_past_year_no_memory_tells_of_leaves_recall_unsure(shared_store, question):
    outcome = recall(shared_store, remember_years, question)
    assert all(hit.confidence < SURE_CONFIDENCE for hit in outcome.hits), [
        (hit.memory.content, hit.confidence) for hit in outcome.hits]
