"""Contradictions through the store and the wire, real model, on each backend: ``remember``
returns the current memories a new one contradicts, a paraphrase is not flagged, and recall
puts the newer of two disagreeing memories stored without ``supersede`` first, marking the
older ``possibly_outdated_by`` it."""

from __future__ import annotations

import pytest
from mcp import Client
from memvault.server.app import build_server
from memvault.server.config import Config
from memvault.storage.store import Store
from memvault.tools import handlers, text

pytestmark = pytest.mark.contract

AROUND = [
    "The design review covered the onboarding flow and the colour of the primary buttons.",
    "Marta suggested moving the retrospective to Thursday afternoons for the whole quarter.",
    "The staging database is refreshed from a production snapshot every Sunday.",
]


def remember(store: Store, content: str, observed_at: str):  # type: ignore[no-untyped-def]
    return store.remember(tenant="t", scope="proj", content=content, observed_at=observed_at)


def test_remember_returns_the_memory_a_new_one_contradicts_and_not_a_paraphrase(real_store):
    old = remember(real_store, "The team standup is at 9:15 every morning.", "2025-01-06T09:00:00Z").id
    for content in AROUND:
        remember(real_store, content, "2025-01-07T09:00:00Z")
    paraphrase = remember(real_store, "Every morning at 9:15 the team has its standup.", "2025-01-08T09:00:00Z")
    assert paraphrase.created and paraphrase.contradicts == ()
    changed = remember(real_store, "Standup now happens at 10:30.", "2025-03-03T09:00:00Z")
    assert changed.created
    assert dict(changed.contradicts)[old] == "different time: 09:15 → 10:30"
    assert [h.memory.id for h in real_store.recall(tenant="t", query="10:30", scopes=["proj"]).hits][:1] == \
        [changed.id]  # stored: a contradiction is reported, never refused


@pytest.mark.parametrize(("old", "new", "query"), [
    ("The staging database host is db-stg-03.", "The staging database host is db-stg-07.",
     "Which host runs the staging database?"),
    ("Our error tracking runs on Sentry.", "Our error tracking runs on Rollbar now.", "What do we use for error tracking?"),
    ("The team standup is at 9:15 every morning.", "Standup now happens at 10:30.", "When is the standup?"),
])
def test_the_newer_of_two_disagreeing_memories_comes_first_and_marks_the_older(real_store, old, new, query):
    older = remember(real_store, old, "2025-01-06T09:00:00Z").id
    for content in AROUND:
        remember(real_store, content, "2025-01-07T09:00:00Z")
    newer = remember(real_store, new, "2025-03-03T09:00:00Z").id
    hits = real_store.recall(tenant="t", query=query, scopes=["proj"]).hits
    ids = [h.memory.id for h in hits]
    assert ids.index(newer) < ids.index(older)
    assert {h.memory.id: h.outdated_by for h in hits}[older] == newer
    assert {h.memory.id: h.outdated_by for h in hits}[newer] is None
    shown = text.render(handlers.recall(real_store, handlers.Caller(tenant="t", scope="proj"), query=query))
    assert f"possibly outdated by the newer {newer}" in shown


@pytest.mark.parametrize(("old", "new", "query"), [
    ("Priya prefers tabs over spaces in Go code reviews.", "Priya prefers spaces over tabs in Go code reviews.",
     "Does Priya want tabs or spaces?"),
    ("We use pnpm instead of npm for the web app.", "We now use npm instead of pnpm for the web app.",
     "Which package manager does the web app use?"),
    ("Deploy staging before production on release day.", "Deploy production before staging on release day.",
     "What is deployed first on release day?"),
])
def test_a_choice_or_order_reversed_contradicts_the_older_and_marks_it(real_store, old, new, query):
    """New-user trial 53 #4: "prefers spaces over tabs" after "prefers tabs over spaces" was no
    contradiction; recall and boot showed both, alike and unmarked."""
    older = remember(real_store, old, "2025-01-06T09:00:00Z").id
    for content in AROUND:
        remember(real_store, content, "2025-01-07T09:00:00Z")
    newer = remember(real_store, new, "2025-03-03T09:00:00Z")
    assert dict(newer.contradicts).get(older, "").startswith("reversed: "), newer.contradicts
    hits = real_store.recall(tenant="t", query=query, scopes=["proj"]).hits
    assert {h.memory.id: h.outdated_by for h in hits}.get(older) == newer.id


def test_a_question_naming_the_older_value_still_finds_the_older_memory_first(real_store):
    older = remember(real_store, "Parallel memory number 17 is about the printer.", "2025-01-06T09:00:00Z").id
    remember(real_store, "Parallel memory number 18 is about the printer.", "2025-03-03T09:00:00Z")
    hits = real_store.recall(tenant="t", query="parallel memory number 17", scopes=["proj"]).hits
    assert hits[0].memory.id == older and hits[0].outdated_by is None


@pytest.mark.asyncio
async def test_the_remember_tool_returns_contradicts_and_recall_possibly_outdated_by_on_the_wire(db, one_model):
    async with Client(build_server(Config(db=db, tenant="default", scope="proj"))) as c:
        first = await c.call_tool("remember", {"content": "Production runs PostgreSQL 15.4.",
                                               "observed_at": "2025-01-06T09:00:00Z"})
        old = first.structured_content["id"]
        assert first.structured_content["contradicts"] == []
        second = await c.call_tool("remember", {"content": "Production runs PostgreSQL 16.2 since the upgrade.",
                                                "observed_at": "2025-04-01T09:00:00Z"})
        assert not second.is_error
        assert second.structured_content["contradicts"] == [
        {"id": old, "reason": "different number: 15.4 → 16.2", "newer": False,
         "other_scope": None}]
        assert f"Contradicts current memory {old}" in second.content[0].text
        found = await c.call_tool("recall", {"query": "Which PostgreSQL version runs in production?"})
        memories = found.structured_content["memories"]
        assert [m["id"] for m in memories][:2] == [second.structured_content["id"], old]
        assert memories[1]["possibly_outdated_by"] == second.structured_content["id"]
        assert memories[0]["possibly_outdated_by"] is None


def test_an_episode_is_never_named_as_contradicting_a_fact_at_write_as_consolidation_never_compares_them(
        real_store):
    episode = real_store.remember(tenant="t", scope="proj", kind="episode", observed_at="2025-01-06T09:00:00Z",
                                  content="Yesterday we deployed version 2.3 of the API to production.")
    assert episode.created
    fact = real_store.remember(tenant="t", scope="proj", kind="fact", observed_at="2025-01-07T09:00:00Z",
                               content="The API in production runs version 2.1.")
    assert fact.created and fact.contradicts == ()
    newer = real_store.remember(tenant="t", scope="proj", kind="fact", observed_at="2025-02-07T09:00:00Z",
                                content="The API in production now runs version 2.4.")
    assert [i for i, _ in newer.contradicts] == [fact.id]  # the owner's facts are still compared


def test_a_memory_written_late_about_an_earlier_time_is_told_it_may_be_the_outdated_one(real_store):
    later = remember(real_store, "Production deploys happen on Fridays.", "2025-11-01T09:00:00Z").id
    late = remember(real_store, "Production deploys happen on Tuesdays.", "2025-09-01T09:00:00Z")
    assert dict(late.contradicts)[later] and late.newer == (later,)
    result = handlers.remember(real_store, handlers.Caller(tenant="t", scope="proj"),
                               content="Production deploys happen on Mondays.")  # observed now: the newest
    assert {c.id: c.newer for c in result.contradicts} == {later: False, late.id: False}
    told = text.render(handlers.RememberResult.model_validate(
        {"id": late.id, "created": True, "contradicts": [{"id": later, "reason": "x", "newer": True}]}))
    assert f"the newer of the two: if that one still holds, supersede {late.id} with `by` {later}" in told


def test_the_newer_of_a_contradicting_pair_keeps_its_confidence(real_store):
    """The older memory it outdates is no rival answer: it would take the newer one's lead away."""
    for content in AROUND:
        remember(real_store, content, "2025-01-07T09:00:00Z")
    remember(real_store, "Production deploys happen on Thursdays.", "2025-10-01T09:00:00Z")
    newer = remember(real_store, "Production deploys happen on Fridays now.", "2025-11-01T09:00:00Z").id
    hits = real_store.recall(tenant="t", query="which day do production deploys happen?", scopes=["proj"]).hits
    assert hits[0].memory.id == newer and hits[1].outdated_by == newer
    assert hits[0].confidence >= 0.5 > hits[1].confidence


def test_a_change_of_another_value_does_not_outdate_the_answer_to_what_is_asked(real_store):
    """Trial 50: "The payments-api port is 9443" outdated the host's memory for "which host runs
    payments-api?", ranked first, and left the right host unsure at 0.27."""
    for content in AROUND:
        remember(real_store, content, "2025-01-05T09:00:00Z")
    old_host = remember(real_store, "The payments-api service runs on host pay-prod-01.internal, port 8443",
                        "2025-01-06T09:00:00Z").id
    new_host = remember(real_store, "The payments-api service now runs on host pay-prod-07.internal, port 8443",
                        "2025-02-03T09:00:00Z").id
    port = remember(real_store, "The payments-api port is 9443", "2025-03-03T09:00:00Z").id
    hits = real_store.recall(tenant="t", query="which host runs payments-api?", scopes=["proj"]).hits
    assert hits[0].memory.id == new_host and hits[0].outdated_by is None and hits[0].confidence >= 0.5
    assert {h.memory.id: h.outdated_by for h in hits}[old_host] == new_host
    asked = real_store.recall(tenant="t", query="what port does payments-api use?", scopes=["proj"]).hits
    assert asked[0].memory.id == port and {h.memory.id: h.outdated_by for h in asked}[new_host] == port


@pytest.mark.parametrize(("question", "reason", "expected"), [
    ("which host runs payments-api?", "different number: 8443 → 9443", True),
    ("which host runs payments-api?", "different ident: pay-prod-01.internal → pay-prod-07.internal", False),
    ("when is the standup?", "different time: 09:15 → 10:30", False),
    ("who owns billing?", "different time: 09:15 → 10:30", True),
    ("what do we use for error tracking?", "different name: sentry → rollbar", False),  # asks no kind
    ("which host runs payments-api?", "negation: not run", False),
])
def test_a_reason_about_a_value_the_question_does_not_ask_for(question, reason, expected):
    from memvault.storage.contradiction import about_another_value

    assert about_another_value(question, reason) is expected
