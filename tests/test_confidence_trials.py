"""Confidence faults found by new-user trials, against stores with the real model on both backends:
a weekday alone makes no hit sure; "yesterday" in a memory's text is the day before it was observed;
memories answering a question by its time alone are about as sure as each other; "anything" names no
subject, so "recently" stays a time; an acronym meets its words; "¿" opening a Spanish question hides
no name."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memvault.storage.query import asked_act
from memvault.storage.ranking import SURE_CONFIDENCE, UNDATED_CONFIDENCE
from memvault.storage.store import Store
from memvault.storage.timewords import TimeParser

NOW = datetime(2026, 11, 27, 15, 0, tzinfo=UTC)  # a Friday
NOW_MS = int(NOW.timestamp() * 1000)
FILLER = [
    "The design review covered the onboarding flow and the colour of the primary buttons.",
    "The conference travel budget was approved with a cap on hotel nights per person.",
    "Quarterly planning produced eleven goals, three of them about developer experience.",
    "The mobile team prefers feature flags over long-lived branches for risky changes.",
]


@pytest.fixture
def store(made_db, real_embedder):
    s = Store(made_db, real_embedder, clock=lambda: NOW_MS)
    for text in FILLER:
        remember(s, text, at=NOW - timedelta(days=200))
    yield s
    s.close()


def remember(store: Store, content: str, kind: str = "fact", at: datetime | str = NOW) -> str:
    when = at if isinstance(at, str) else at.isoformat()
    return store.remember(tenant="t", scope="p", content=content, kind=kind, observed_at=when).id


def recall(store: Store, query: str):  # type: ignore[no-untyped-def]
    return store.recall(tenant="t", query=query, scopes=["p"])


def confidence_of(out, memory_id: str) -> float:  # type: ignore[no-untyped-def]
    return next((h.confidence for h in out.hits if h.memory.id == memory_id), 0.0)


@pytest.mark.contract
@pytest.mark.parametrize("question", ["what did we decide on Wednesday?", "what did we decide on Friday?",
                                      "what did we decide last Wednesday?", "what happened on Monday?"])
def test_a_weekday_in_a_memory_alone_makes_it_no_answer_for_that_day(store, question):
    """Trial: "what did we decide on Friday?" asked on a Friday got "freeze merges on Fridays" (of
    September) at 0.80; "on Wednesday", a rule for Wednesdays at 0.71."""
    rules = [remember(store, text, kind="decision", at="2026-09-10T10:00:00Z") for text in (
        "Freeze merges on Fridays", "Standup moves to Wednesday mornings", "Deploys pause on Mondays")]
    out = recall(store, question)
    assert all(confidence_of(out, rule) <= UNDATED_CONFIDENCE for rule in rules)


@pytest.mark.contract
@pytest.mark.parametrize(("content", "observed", "question"), [
    ("The nightly build failed yesterday because the cache disk filled up", "2026-11-26T09:00:00Z",
     "what failed on Wednesday?"),
    ("Last night the backup job broke on a full disk", "2026-11-26T08:00:00Z", "what broke on Wednesday?"),
    ("Two days ago the search index broke after the upgrade", "2026-11-20T10:00:00Z",
     "what broke on 18 November?"),
])
def test_a_relative_day_in_a_memory_is_read_from_when_it_was_observed(store, content, observed, question):
    """Trial: the failure of Wednesday, said "yesterday" in a memory of Thursday, got 0.10 while
    unrelated hits got 0.17 and 0.19."""
    wanted = remember(store, content, kind="episode", at=observed)
    others = [remember(store, text, kind="failure", at=at) for text, at in (
        ("Login page failed to load for some users in Safari", "2026-11-10T09:00:00Z"),
        ("Deploy failed due to a missing secret", "2026-10-02T09:00:00Z"))]
    out = recall(store, question)
    assert out.hits[0].memory.id == wanted and out.hits[0].confidence >= SURE_CONFIDENCE
    assert all(confidence_of(out, other) < out.hits[0].confidence for other in others)


def test_the_day_a_relative_word_names_is_that_of_its_memory():
    wednesday = TimeParser().find("what failed on Wednesday?", NOW_MS)
    assert wednesday is not None
    thursday = int(datetime(2026, 11, 26, 9, tzinfo=UTC).timestamp() * 1000)
    assert wednesday.said_relative("it failed yesterday", thursday)
    assert wednesday.said_relative("it failed the day before yesterday", thursday + 86_400_000)
    assert wednesday.said_relative("3 days ago it failed", thursday + 2 * 86_400_000)
    assert not wednesday.said_relative("it failed today", thursday)
    assert not wednesday.said_relative("it failed yesterday", thursday + 86_400_000)
    assert not wednesday.written_in("Standup moves to Wednesday mornings")


@pytest.mark.contract
@pytest.mark.parametrize("question", ["what changed during November?", "what happened in November?",
                                      "what was updated in November?"])
def test_memories_answering_by_the_time_alone_are_about_as_sure_and_in_order(store, question):
    """Trial: two memories saying November got 0.95 and 0.00."""
    said = [remember(store, text, kind="episode", at=at) for text, at in (
        ("In November we migrated the CI runners to ARM machines", "2026-08-02T09:00:00Z"),
        ("We raised the API rate limit to 500 requests per minute during November", "2026-08-05T09:00:00Z"))]
    out = recall(store, question)
    sure = [confidence_of(out, seq) for seq in said]
    assert max(sure) - min(sure) <= 0.15
    assert {h.memory.id for h in out.hits[:2]} == set(said)
    assert [h.confidence for h in out.hits] == sorted((h.confidence for h in out.hits), reverse=True)


@pytest.mark.parametrize(("question", "verbs"), [
    ("what changed during November?", ()), ("what was updated?", ()), ("what did we discuss?", ()),
    ("what did legal approve?", ("approve",)), ("who deployed the billing service?", ("deployed",)),
])
def test_a_generic_verb_in_any_form_names_no_act(question, verbs):
    act = asked_act(question)
    assert act is not None and act.verbs == verbs


@pytest.mark.contract
@pytest.mark.parametrize(("question", "days"), [("did anything break recently?", 30),
                                                ("any failures in the past few days?", 7),
                                                ("did something fail lately?", 30)])
def test_recently_with_no_subject_is_a_time(store, question, days):
    """Trial: "did anything break recently?" set no time, and an old failure stood beside the new."""
    new = remember(store, "The search index broke after the upgrade and returned empty results", kind="failure",
                   at=NOW - timedelta(days=1))
    old = remember(store, "The payroll export broke because of a timezone bug", kind="failure",
                   at=NOW - timedelta(days=120))
    out = recall(store, question)
    assert out.time is not None and out.time.start == NOW_MS - days * 86_400_000
    assert out.hits[0].memory.id == new and out.hits[0].confidence >= SURE_CONFIDENCE
    assert confidence_of(out, old) < SURE_CONFIDENCE


@pytest.mark.contract
@pytest.mark.parametrize(("content", "question"), [
    ("The disaster recovery drill restored the database in 42 minutes", "what happened in the DR drill?"),
    ("The DR drill restored the database in 42 minutes", "what happened in the disaster recovery drill?"),
    ("Our SLO for checkout latency is 300 ms at p99", "what is the service level objective for checkout?"),
    ("The service level objective for checkout latency is 300 ms at p99", "what is the checkout SLO?"),
])
def test_an_acronym_meets_its_words(store, content, question):
    """Trial: "what happened in the DR drill?" abstained over "disaster recovery drill"."""
    wanted = remember(store, content, kind="episode", at=NOW - timedelta(days=20))
    out = recall(store, question)
    assert not out.abstained and out.hits[0].memory.id == wanted and out.hits[0].confidence >= SURE_CONFIDENCE


@pytest.mark.contract
@pytest.mark.parametrize("question", ["¿Qué decidimos sobre Jenkins?", "¡Dime qué decidimos sobre Jenkins!",
                                      "¿Por qué quitamos Jenkins?"])
def test_a_name_shared_across_languages_answers(store, question):
    """Trial: "¿Qué decidimos sobre Jenkins?" abstained over an English memory holding Jenkins ("Qué",
    after "¿", was read as an unknown name)."""
    wanted = remember(store, "We decided to replace Jenkins with GitHub Actions for all builds", kind="decision",
                      at=NOW - timedelta(days=30))
    out = recall(store, question)
    assert not out.abstained and out.hits[0].memory.id == wanted


@pytest.mark.contract
@pytest.mark.parametrize("question", ["What happened since Monday?", "Anything new this week?",
                                      "What happened after the summer?", "what happened in the last two weeks?",
                                      "what went on since November 20?"])
def test_an_event_whose_text_dates_it_before_the_time_asked_is_no_answer_for_it(store, question):
    """Trial 55 #5: "In March the load balancer certificate expired", noted today, was a sure answer
    (0.89) to "what happened since Monday?", as was "Back in 2024 we moved the wiki"."""
    dated = [remember(store, text, kind=kind) for text, kind in (
        ("In March the load balancer certificate expired and caused an outage", "episode"),
        ("Back in 2024 we moved the wiki to Confluence", "episode"),
        ("Last summer the office moved to the fourth floor", "episode"),
        ("On 2025-10-03 the payroll export failed on a bad date format", "failure"))]
    fresh = [remember(store, text, kind="episode") for text in (
        "Yesterday the nightly backup job failed on db-prod-01",
        "On 26 November we rotated the staging TLS certificates",
        "Scheduled the datacenter move for March 2027")]
    out = recall(store, question)
    assert all(confidence_of(out, seq) < SURE_CONFIDENCE for seq in dated), out.hits
    assert all(confidence_of(out, seq) >= SURE_CONFIDENCE for seq in fresh), out.hits


def test_a_text_dates_its_event_before_a_time_by_every_time_it_names():
    since_monday = TimeParser().find("what happened since Monday?", NOW_MS)
    assert since_monday is not None
    for text in ("In March the certificate expired", "Back in 2024 we moved the wiki", "In Q2 2025 we hired Ana",
                 "Last summer the office moved", "On 3 October the export failed"):
        assert since_monday.dated_before(text, NOW_MS), text
    for text in ("The backup failed", "Yesterday the backup failed", "In March and again today it failed",
                 "The move is planned for March 2027", "Since March we run Postgres 16", "Until 2025 we ran MySQL",
                 "On Tuesday the export failed", "Next March we move"):
        assert not since_monday.dated_before(text, NOW_MS), text


@pytest.mark.contract
@pytest.mark.parametrize(("text", "question"), [
    ("In Q3 we migrated the search cluster to OpenSearch 2.11", "What did we do in Q3?"),
    ("Yesterday evening Olga fixed the flaky login test", "What happened yesterday evening?"),
    ("The week of November 16 we ran the accessibility audit", "What did we do the week of November 16?"),
    ("In the first week of November we ran the disaster recovery drill",
     "what happened in the first week of November?"),
    ("In early October we rotated the signing keys", "what happened in early October?"),
])
def test_a_memory_writing_the_time_asked_is_a_sure_answer_to_a_question_by_that_time_alone(store, text, question):
    """Trial 55 #6: "In Q3 we migrated ..." got 0.42 for "what did we do in Q3?", "The week of November 16
    ..." 0.15; the time a memory writes is the whole of what such a question asks."""
    wanted = remember(store, text, kind="episode")
    others = [remember(store, other, kind="episode") for other in (
        "Last Friday the CDN purge job deleted the wrong cache keys", "In March the load balancer certificate expired")
              if other != text]
    out = recall(store, question)
    assert out.hits[0].memory.id == wanted and out.hits[0].confidence >= SURE_CONFIDENCE, out.hits[:2]
    assert all(confidence_of(out, other) < SURE_CONFIDENCE for other in others)


@pytest.mark.contract
def test_a_memory_writing_the_time_is_no_sure_answer_for_another_subject(store):
    """What a question with a subject of its own asks is unchanged: the time alone makes no hit sure."""
    said = remember(store, "In Q3 we migrated the search cluster to OpenSearch 2.11", kind="episode")
    out = recall(store, "what did Olga fix in Q3?")
    assert confidence_of(out, said) < SURE_CONFIDENCE


@pytest.mark.parametrize("text", ["On February 30 the export failed", "On 31 April we moved", "In 2023-02-29 it broke",
                                  "On 0 March it broke"])
def test_a_day_no_calendar_holds_dates_nothing(text):
    since_monday = TimeParser().find("what happened since Monday?", NOW_MS)
    assert since_monday is not None and not since_monday.dated_before(text, NOW_MS)
