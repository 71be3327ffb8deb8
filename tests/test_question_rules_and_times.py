"""What a question means (issue 25 §2), through recall against a store with the real model: a permission
asked in any phrasing ("is it okay if I", "can I go ahead and"), a rule asked of in words its memory states
negatively ("must I avoid ...": "Never ..."), a which-question relating its answer by a verb of its own
("which service uses port 2049?": "NFS listens on port 2049"), a time ahead written in any form a past one is
("what is due in 2028?"), and a quarter, which names no month within it ("Q3" for "in August")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memvault.storage.ranking import SURE_CONFIDENCE

NOW = datetime(2026, 11, 27, 15, 0, tzinfo=UTC)
OLD = "2026-03-02T10:00:00Z"
MEMORIES = (
    ("Never deploy on Fridays after 2pm", "decision", OLD),
    ("Don't run database migrations during business hours.", "decision", OLD),
    ("No force-pushes to the main branch.", "decision", OLD),
    ("Nobody changes the production firewall without a second reviewer.", "decision", OLD),
    ("NFS listens on port 2049", "fact", OLD),
    ("Pluto hosts Grafana and Prometheus.", "fact", OLD),
    ("Redis stores sessions for the web app.", "fact", OLD),
    ("Envoy terminates TLS at the edge.", "fact", OLD),
    ("Postgres 16 backs the billing API.", "fact", OLD),
    ("The TLS certificate for api.example.com expires on 2028-03-14.", "fact", OLD),
    ("The office lease renewal is due in June 2029.", "fact", OLD),
    ("The Oracle support contract ends in 2030.", "fact", OLD),
    ("Q3 review: we migrated the billing service to Postgres.", "episode", "2026-10-02T10:00:00Z"),
    ("Lunch with the design team about the onboarding flow.", "episode", "2026-06-10T12:00:00Z"),
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


def assert_sure(shared_store, question: str, wanted: str) -> None:  # type: ignore[no-untyped-def]
    outcome = recall(shared_store, question)
    assert outcome.hits, "no hit"
    assert outcome.hits[0].memory.content.startswith(wanted)
    assert outcome.hits[0].confidence >= SURE_CONFIDENCE


def assert_unsure(shared_store, question: str) -> None:  # type: ignore[no-untyped-def]
    outcome = recall(shared_store, question)
    assert all(hit.confidence < SURE_CONFIDENCE for hit in outcome.hits), [
        (hit.memory.content, hit.confidence) for hit in outcome.hits]


@pytest.mark.parametrize(("question", "wanted"), [
    ("is it okay if I deploy on Friday afternoon?", "Never deploy"),
    ("is it ok if we deploy on a Friday?", "Never deploy"),
    ("is it alright if I deploy on Friday?", "Never deploy"),
    ("would it be fine if we deployed on a Friday?", "Never deploy"),
    ("would it be fine to deploy on Friday evening?", "Never deploy"),
    ("is it cool if I deploy on a Friday?", "Never deploy"),
    ("is it wise to deploy on a Friday afternoon?", "Never deploy"),
    ("is it advisable to deploy on Fridays?", "Never deploy"),
    ("am I allowed to deploy on a Friday?", "Never deploy"),
    ("can I go ahead and deploy on Friday?", "Never deploy"),
    ("can we go ahead with a deploy on Friday afternoon?", "Never deploy"),
    ("is it okay if I run database migrations during business hours?", "Don't run database migrations"),
    ("can I go ahead and run database migrations during business hours?", "Don't run database migrations"),
    ("would it be acceptable to run database migrations during business hours?", "Don't run database migrations"),
    ("is it appropriate to run database migrations in business hours?", "Don't run database migrations"),
    ("is it okay if I force-push to the main branch?", "No force-pushes"),
    ("am I permitted to force-push to the main branch?", "No force-pushes"),
    ("can I go ahead and force-push to main branch?", "No force-pushes"),
    ("is it fine with you if I force-push to the main branch?", "No force-pushes"),
    ("is it okay if I change the production firewall without a second reviewer?", "Nobody changes"),
    ("am I allowed to change the production firewall without a second reviewer?", "Nobody changes"),
    ("can I go ahead and change the production firewall?", "Nobody changes"),
])
def test_a_permission_asked_in_any_phrasing_is_sure_of_the_rule(shared_store, question, wanted):
    """Issue 25 §2: "is it okay if I ..." and "on Friday afternoon" left "okay" and "afternoon" words no memory
    holds, capping the rule at 0.45."""
    assert_sure(shared_store, question, wanted)


@pytest.mark.parametrize(("question", "wanted"), [
    ("must I avoid deploying on a Friday?", "Never deploy"),
    ("should we avoid deploying on Fridays?", "Never deploy"),
    ("do we avoid deploys on Friday afternoons?", "Never deploy"),
    ("should I refrain from deploying on a Friday?", "Never deploy"),
    ("are deploys on Fridays forbidden?", "Never deploy"),
    ("are Friday deploys banned?", "Never deploy"),
    ("is deploying on a Friday prohibited?", "Never deploy"),
    ("are deploys disallowed on Fridays?", "Never deploy"),
    ("must we avoid database migrations during business hours?", "Don't run database migrations"),
    ("should I refrain from running database migrations during business hours?", "Don't run database migrations"),
    ("are database migrations during business hours forbidden?", "Don't run database migrations"),
    ("are database migrations banned in business hours?", "Don't run database migrations"),
    ("should we avoid force-pushes to the main branch?", "No force-pushes"),
    ("are force-pushes to the main branch forbidden?", "No force-pushes"),
    ("are force-pushes to main prohibited?", "No force-pushes"),
    ("is force-pushing to the main branch banned?", "No force-pushes"),
    ("must I avoid changing the production firewall without a second reviewer?", "Nobody changes"),
    ("is changing the production firewall without a second reviewer forbidden?", "Nobody changes"),
    ("should we refrain from changing the production firewall alone?", "Nobody changes"),
    ("do we avoid firewall changes in production without a second reviewer?", "Nobody changes"),
])
def test_a_rule_asked_of_by_avoiding_is_sure_of_the_rule_stated_negatively(shared_store, question, wanted):
    """Issue 25 §2: "avoid" is in no memory; the rule says "never", "don't", "no" or "nobody"."""
    assert_sure(shared_store, question, wanted)


@pytest.mark.parametrize(("question", "wanted"), [
    ("which service uses port 2049?", "NFS listens"),
    ("which service runs on port 2049?", "NFS listens"),
    ("what daemon serves port 2049?", "NFS listens"),
    ("which service handles port 2049?", "NFS listens"),
    ("which server runs Grafana?", "Pluto hosts"),
    ("which machine serves Grafana and Prometheus?", "Pluto hosts"),
    ("what host runs Prometheus?", "Pluto hosts"),
    ("which server holds Grafana?", "Pluto hosts"),
    ("which database holds sessions for the web app?", "Redis stores"),
    ("which store handles sessions for the web app?", "Redis stores"),
    ("what cache keeps sessions for the web app?", "Redis stores"),
    ("which proxy serves TLS at the edge?", "Envoy terminates"),
    ("what machine runs Grafana and Prometheus?", "Pluto hosts"),
    ("which proxy handles TLS at the edge?", "Envoy terminates"),
    ("what proxy runs TLS at the edge?", "Envoy terminates"),
    ("which proxy owns TLS at the edge?", "Envoy terminates"),
    ("which database powers the billing API?", "Postgres 16 backs"),
    ("what database runs the billing API?", "Postgres 16 backs"),
    ("which database supports the billing API?", "Postgres 16 backs"),
    ("which database serves the billing API?", "Postgres 16 backs"),
    ("which database backs the billing API?", "Postgres 16 backs"),
])
def test_a_which_question_relating_by_its_own_verb_is_sure_of_the_memory_naming_the_answer(
        shared_store, question, wanted):
    """Issue 25 §2: "uses" of "which service uses port 2049?" is in no memory: "NFS listens on port 2049"."""
    assert_sure(shared_store, question, wanted)


@pytest.mark.parametrize(("question", "wanted"), [
    ("what is due in 2028?", "The TLS certificate"),
    ("what expires in 2028?", "The TLS certificate"),
    ("what expires in March 2028?", "The TLS certificate"),
    ("what expires on 2028-03-14?", "The TLS certificate"),
    ("what expires on 14 March 2028?", "The TLS certificate"),
    ("what expires on March 14, 2028?", "The TLS certificate"),
    ("what expires in Q1 2028?", "The TLS certificate"),
    ("what expires in the first quarter of 2028?", "The TLS certificate"),
    ("what expires in the spring of 2028?", "The TLS certificate"),
    ("which certificate expires in 2028?", "The TLS certificate"),
    ("what is due by 2028?", "The TLS certificate"),
    ("what is due in 2029?", "The office lease"),
    ("what is due in June 2029?", "The office lease"),
    ("what is due in Q2 2029?", "The office lease"),
    ("what is due in summer 2029?", "The office lease"),
    ("what is planned for 2029?", "The office lease"),
    ("what renewal is due in 2029?", "The office lease"),
    ("what ends in 2030?", "The Oracle support contract"),
    ("which contract ends in 2030?", "The Oracle support contract"),
    ("what is ending in 2030?", "The Oracle support contract"),
    ("what contract runs out by 2030?", "The Oracle support contract"),
])
def test_a_time_ahead_in_any_form_finds_the_memory_saying_it(shared_store, question, wanted):
    """Issue 25 §2: a year ahead named no time ("what is due in 2028?"), where a past one does."""
    assert_sure(shared_store, question, wanted)


@pytest.mark.parametrize("question", [
    "what did we do in August?",
    "what happened in August?",
    "what did we do in July?",
    "what happened in September?",
    "what did we do in September 2026?",
    "what did we work on in August 2026?",
    "what happened during July?",
    "what did we do over the summer?",
])
def test_a_quarter_a_memory_names_is_no_month_within_it(shared_store, question):
    """Issue 25 §2: "Q3 review", noted in October, answered "what did we do in August?" at 0.51. A quarter a
    text names says nothing of one of its months (docs/how-recall-works.md#4-time-in-the-question)."""
    outcome = recall(shared_store, question)
    assert all(not (hit.memory.content.startswith("Q3 review") and hit.confidence >= SURE_CONFIDENCE)
               for hit in outcome.hits)


@pytest.mark.parametrize(("question", "wanted"), [
    ("what did we do in Q3?", "Q3 review"),
    ("what happened in the third quarter?", "Q3 review"),
    ("what did we do in June?", "Lunch with the design team"),
    ("what happened in Q2?", "Lunch with the design team"),
])
def test_a_quarter_or_month_asked_still_finds_what_names_or_was_in_it(shared_store, question, wanted):
    outcome = recall(shared_store, question)
    assert any(hit.memory.content.startswith(wanted) for hit in outcome.hits)


@pytest.mark.parametrize("question", [
    "is it okay if I expense a new laptop?",
    "can I go ahead and book a flight to Berlin?",
    "am I allowed to bring my dog to the office?",
    "would it be fine to skip the retro this week?",
    "must I avoid eating shellfish?",
    "should we avoid Kubernetes for the data pipeline?",
    "are personal laptops banned in the lab?",
    "is it okay if I deploy the mobile app on Sunday morning?",
    "which service uses port 8443?",
    "which server runs Jenkins?",
    "what database powers the analytics dashboard?",
    "what is due in 2031?",
    "what expires in 2032?",
    "what happens in 2035?",
    "what is planned for 2031?",
])
def test_a_question_no_memory_answers_stays_unsure(shared_store, question):
    assert_unsure(shared_store, question)
