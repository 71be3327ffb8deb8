"""A memory's relative time words, read from when it was noted (``TimeRange.said_relative``): days and
weeks ahead as well as back ("tomorrow", "in two weeks", "next week", "this weekend"), as "yesterday"
and "next Tuesday" were (tester's report: "Tomorrow we migrate the billing database", noted Wednesday
2 December, answered "what did we migrate on Thursday?" at 0.45)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memvault.storage.store import Store
from memvault.storage.timefmt import parse_iso
from memvault.storage.timewords import TimeParser

NOW = datetime(2026, 12, 5, 15, 0, tzinfo=UTC)  # a Saturday
NOW_MS = int(NOW.timestamp() * 1000)
FILLER = [
    "The design review covered the onboarding flow and the colour of the primary buttons.",
    "The conference travel budget was approved with a cap on hotel nights per person.",
    "Grafana replaced Kibana for the team dashboards.",
]
# (text, noted at, questions naming the day or range it names, questions naming another time)
CASES = [
    ("Tomorrow we migrate the billing database", "2026-12-02T10:00:00Z",  # Wednesday: Thursday 3 December
     ["what did we migrate on Thursday?", "what did we migrate on 3 December?",
      "what did we migrate on Thursday 3 December?", "what did we migrate since Thursday?"],
     ["what did we migrate on Tuesday?", "what did we migrate on 30 November?"]),
    ("The day after tomorrow we rotate the TLS certificates", "2026-12-01T10:00:00Z",
     ["what did we rotate on Thursday?", "which certificates did we rotate on 3 December?",
      "what did we rotate since Thursday?"],
     ["what did we rotate on Monday?", "which certificates did we rotate on 2 December?"]),
    ("The day before yesterday we replaced the office router", "2026-12-05T09:00:00Z",
     ["what did we replace on Thursday?", "what did we replace on 3 December?",
      "what did we replace between Wednesday and Thursday?"],
     ["what did we replace on Tuesday?", "what did we replace on 1 December?"]),
    ("In 2 days we archive the audit logs", "2026-12-01T10:00:00Z",
     ["what did we archive on Thursday?", "which logs did we archive on 3 December?",
      "what did we archive since Thursday?"],
     ["what did we archive on Monday?", "which logs did we archive on 30 November?"]),
    ("In two weeks we launch the partner portal", "2026-11-16T10:00:00Z",  # the week of 30 November
     ["what did we launch on Thursday?", "what did we launch on 3 December?", "what did we launch this week?"],
     ["what did we launch on 20 November?", "what did we launch in October?"]),
    ("Two weeks ago we retired the staging cluster", "2026-12-05T09:00:00Z",  # the week of 16 November
     ["what did we retire on Thursday the 19th?", "what did we retire on 19 November?",
      "what did we retire the week before last?"],
     ["what did we retire on Thursday?", "what did we retire on 26 November?"]),
    ("Next week we move the support team to the new office", "2026-11-25T10:00:00Z",  # the week of 30 November
     ["where did the support team move on Thursday?", "where did the support team move on 3 December?",
      "where did the support team move this week?"],
     ["where did the support team move on 20 November?"]),
    ("Next month we hire two support engineers", "2026-11-10T10:00:00Z",  # December
     ["who did we hire in December?", "who did we hire this month?"],
     ["who did we hire in October?"]),
    ("This weekend we repaint the kitchen", "2026-11-25T10:00:00Z",  # Saturday 28 and Sunday 29 November
     ["what did we repaint on Sunday?", "what did we repaint on 29 November?", "what did we repaint last weekend?"],
     ["what did we repaint on 22 November?", "what did we repaint on Wednesday?"]),
    ("Next weekend we clean out the garage", "2026-11-22T10:00:00Z",  # noted Sunday: Saturday 28, Sunday 29
     ["what did we clean out on Sunday?", "what did we clean out on 29 November?",
      "what did we clean out last weekend?"],
     ["what did we clean out on 21 November?", "what did we clean out on Wednesday?"]),
    ("We finished the payroll export in two days", "2026-11-24T10:00:00Z",  # how long it took: no day ahead
     ["what did we finish on 24 November?"], ["what did we finish on Thursday the 26th?"]),
]


@pytest.fixture(scope="module")
def shared_clock():
    return lambda: NOW_MS


def fill(store: Store) -> dict[str, str]:
    for text in FILLER:
        store.remember(tenant="t", scope="p", content=text, observed_at="2026-10-01T10:00:00Z", kind="episode")
    return {text: store.remember(tenant="t", scope="p", content=text, observed_at=noted, kind="episode").id
            for text, noted, *_ in CASES}


@pytest.mark.contract
@pytest.mark.parametrize(("text", "question"), [(c[0], q) for c in CASES for q in c[2]])
def test_a_memorys_time_ahead_or_back_answers_the_time_it_names_surely(shared_store, text, question):
    store, ids = shared_store(fill)
    hits = store.recall(tenant="t", query=question, scopes=["p"]).hits
    assert hits[0].memory.id == ids[text] and hits[0].confidence >= 0.7


@pytest.mark.contract
@pytest.mark.parametrize(("text", "question"), [(c[0], q) for c in CASES for q in c[3]])
def test_a_memorys_time_ahead_or_back_is_unsure_of_another_time(shared_store, text, question):
    store, ids = shared_store(fill)
    hits = store.recall(tenant="t", query=question, scopes=["p"]).hits
    assert all(h.confidence < 0.5 for h in hits if h.memory.id == ids[text])


def said(text: str, noted: str, question: str) -> bool:
    asked = TimeParser().find(question, NOW_MS)
    assert asked is not None and asked.observable, question
    return asked.said_relative(text, parse_iso("observed_at", noted))


@pytest.mark.parametrize(("text", "noted", "day", "other"), [
    ("tomorrow we migrate", "2026-12-02T23:30:00Z", "3 December", "2 December"),
    ("Tomorrow morning we migrate", "2026-12-03T02:00:00+05:00", "3 December", "4 December"),  # by UTC days
    ("the day after tomorrow we migrate", "2026-12-01T10:00:00Z", "3 December", "2 December"),
    ("the day before yesterday we migrated", "2026-12-05T10:00:00Z", "3 December", "4 December"),
    ("tonight we migrate", "2026-12-03T10:00:00Z", "3 December", "4 December"),
    ("this morning we migrated", "2026-12-03T10:00:00Z", "3 December", "2 December"),
    ("this evening we migrate", "2026-12-03T10:00:00Z", "3 December", "4 December"),
    ("in 3 days we migrate", "2026-11-30T10:00:00Z", "3 December", "2 December"),
    ("in a day we migrate", "2026-12-02T10:00:00Z", "3 December", "4 December"),
    ("in a week we migrate", "2026-11-26T10:00:00Z", "3 December", "27 November"),
    ("in 2 weeks we migrate", "2026-11-18T10:00:00Z", "3 December", "29 November"),
    ("a week ago we migrated", "2026-12-10T10:00:00Z", "3 December", "29 November"),
    ("3 weeks ago we migrated", "2026-12-23T10:00:00Z", "3 December", "30 November 2025"),
    ("next week we migrate", "2026-11-26T10:00:00Z", "3 December", "29 November"),
    ("this week we migrate", "2026-12-01T10:00:00Z", "3 December", "29 November"),
    ("last week we migrated", "2026-12-08T10:00:00Z", "3 December", "29 November"),
    ("next month we migrate", "2026-11-30T10:00:00Z", "3 December", "30 November"),
    ("last month we migrated", "2027-01-04T10:00:00Z", "3 December", "3 November"),
    ("this weekend we migrate", "2026-12-03T10:00:00Z", "5 December", "4 December"),
    # "next weekend" the first after that day, as "next Saturday" is: the coming one on a weekday
    *(("next weekend we migrate", f"2026-11-{noted}T10:00:00Z", "28 November", "5 December")
      for noted in range(21, 28)),  # noted Saturday 21 to Friday 27: Saturday 28
    ("next weekend we migrate", "2026-11-28T10:00:00Z", "5 December", "28 November"),  # on Saturday: the following
    ("Next weekend we migrate", "2026-11-29T10:00:00Z", "5 December", "29 November"),
    ("we migrate next weekend", "2026-11-27T23:30:00Z", "29 November", "6 December"),
    ("next Saturday we migrate", "2026-11-25T10:00:00Z", "28 November", "5 December"),
    ("this weekend we migrate", "2026-11-29T10:00:00Z", "29 November", "5 December"),
    ("last weekend we migrated", "2026-12-02T10:00:00Z", "29 November", "5 December"),
    # "in two days" in a sentence not in the past tense: a time ahead
    ("The certificate expires in two days", "2026-12-01T10:00:00Z", "3 December", "1 December"),
    ("We will migrate in 2 days.", "2026-12-01T10:00:00Z", "3 December", "1 December"),
    ("The migration finished yesterday. In 2 days we archive the logs", "2026-12-01T10:00:00Z", "3 December",
     "1 December"),
    ("in 3 weeks we ship the portal", "2026-11-12T10:00:00Z", "3 December", "12 November"),
    ("We decided to migrate in two days", "2026-12-01T10:00:00Z", "3 December", "1 December"),
    ("We agreed to ship the portal in 3 weeks", "2026-11-12T10:00:00Z", "3 December", "12 November"),
    ("The vendor said the fix lands in 2 days", "2026-12-01T10:00:00Z", "3 December", "1 December"),
    ("The migration we planned is due in 2 days", "2026-12-01T10:00:00Z", "3 December", "1 December"),
    # unchanged
    ("yesterday we migrated", "2026-12-04T10:00:00Z", "3 December", "2 December"),
    ("next Tuesday we migrate", "2026-11-26T10:00:00Z", "1 December", "2 December"),
    ("last Friday we migrated", "2026-12-01T10:00:00Z", "27 November", "28 November"),
    ("3 days ago we migrated", "2026-12-06T10:00:00Z", "3 December", "2 December"),
])
def test_a_memorys_relative_words_name_the_time_counted_from_when_it_was_noted(text, noted, day, other):
    assert said(text, noted, f"what did we migrate on {day}?")
    assert not said(text, noted, f"what did we migrate on {other}?")


@pytest.mark.parametrize("text", [
    "the migration finished in two days", "we shipped it in 2 days", "We migrated the cluster in 2 days.",
    "The rollout was done in a day", "In two days we migrated all tenants", "it happened in 2 days, without a hitch",
    "within 2 days we migrate", "the migration takes 2 days", "we migrate on Monday", "tomorrowland tickets",
    "in 100000 weeks we migrate", "100000 weeks ago we migrated",
])
def test_words_naming_no_day_near_it_name_none(text):
    assert not said(text, "2026-12-02T10:00:00Z", "what did we migrate on 3 December?")
    assert not said(text, "2026-12-01T10:00:00Z", "what did we migrate on 3 December?")


@pytest.mark.parametrize(("text", "noted"), [("we shipped it in 3 weeks", "2026-11-12T10:00:00Z"),
                                             ("the port finished in two weeks", "2026-11-19T10:00:00Z")])
def test_weeks_it_took_name_no_week(text, noted):
    assert not said(text, noted, "what did we migrate on 3 December?")


@pytest.mark.parametrize(("text", "noted"), [
    ("I bought it a year ago in Paris", "2023-01-27T09:00:00Z"),  # LoCoMo: no answer to "during summer 2022"
    ("we started two months ago", "2026-10-20T09:00:00Z"),
])
def test_months_or_years_ago_in_a_memory_name_no_calendar_month_or_year(text, noted):
    assert not said(text, noted, "what did we do in 2022?" if "2023" in noted else "what did we do in August?")
