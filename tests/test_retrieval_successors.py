"""Asking by what a superseded memory said finds the memory that replaced it, real model,
on each backend: an old identifier, host, person or version; chains of supersedes; a
successor forgotten or outside the recall's filters; recalls no superseded memory matches."""

from __future__ import annotations

import pytest

from memvault.storage import successors
from memvault.storage.store import Store
from memvault.tools import handlers, text

SCOPES = ["proj", "global"]
pytestmark = pytest.mark.contract

STORE = [
    "Production database is db-prod-01 on port 5432, managed by the platform team.",
    "The CI runners are ci-build-02 and ci-build-05 in the Frankfurt region.",
    "Marta prefers oat milk in her coffee.",
    "Deploys happen on Tuesdays after the standup.",
    "Our accountant at the tax office is Henrik Dahl; he answers within a day.",
    "The mobile app depends on the analytics SDK v4.1.0.",
    "The design review covered the onboarding flow and the colour of the primary buttons.",
]


def remember(store: Store, content: str, scope: str = "proj", **kw) -> str:
    return store.remember(tenant="t", scope=scope, content=content, **kw).id


def supersede(store: Store, memory_id: str, content: str, **kw) -> str:
    return store.supersede(tenant="t", id=memory_id, content=content, **kw).id


def with_store(store: Store) -> None:
    for content in STORE:
        remember(store, content)


@pytest.mark.parametrize(("old", "new", "queries"), [
    ("Staging database is db-stg-03 on port 5433.", "Staging database moved to db-stg-07.",
     ["db-stg-03", "where is db-stg-03?"]),
    ("Nightly backups are written by the host zephyr-bk1.", "Nightly backups are written by orion-bk4 since the "
     "migration.", ["zephyr-bk1", "which host is zephyr-bk1?"]),
    ("Our contact at Vellum Logistics is Priya Raman.", "Our contact at Vellum Logistics is now Tomasz Nowak.",
     ["Priya Raman", "how do I reach Priya Raman?"]),
    ("The web client pins the payments library to v2.3.1.", "The web client pins the payments library to v2.5.0.",
     ["v2.3.1", "why v2.3.1?"]),
])
def test_asking_by_what_a_superseded_memory_said_finds_its_successor(real_store, old, new, queries):
    with_store(real_store)
    first = remember(real_store, old)
    successor = supersede(real_store, first, new)
    for query in queries:
        outcome = real_store.recall(tenant="t", query=query, scopes=SCOPES)
        assert not outcome.abstained, query
        top = outcome.hits[0]
        assert top.memory.id == successor, query
        assert top.signals.through == first, query
        assert first not in [h.memory.id for h in outcome.hits]  # history stays out of default recall
        assert 0.3 <= top.confidence <= 1.0, query
        assert all(h.confidence < top.confidence for h in outcome.hits[1:]), query


def test_with_the_history_the_successor_comes_first_and_its_superseded_version_after_it(real_store):
    with_store(real_store)
    first = remember(real_store, "Staging database is db-stg-03 on port 5433.")
    successor = supersede(real_store, first, "Staging database moved to db-stg-07.")
    hits = real_store.recall(tenant="t", query="where is db-stg-03?", scopes=SCOPES, include_history=True).hits
    assert [h.memory.id for h in hits[:2]] == [successor, first]
    assert hits[0].signals.through == first and hits[1].signals.through is None
    assert hits[1].memory.superseded_by == successor
    assert hits[1].confidence < hits[0].confidence


@pytest.mark.parametrize("versions", [2, 3])
def test_a_chain_of_supersedes_credits_its_newest_version(real_store, versions):
    with_store(real_store)
    chain = [remember(real_store, "The VPN gateway is vpn-gw-alpha in Dublin.")]
    texts = ["The VPN gateway moved to vpn-gw-bravo.", "The VPN gateway is now vpn-gw-charlie, in Paris."]
    for later in texts[:versions - 1]:
        chain.append(supersede(real_store, chain[-1], later))
    for query, matched in [("vpn-gw-alpha", chain[0]), ("Dublin", chain[0]), ("vpn-gw-bravo", chain[1])][:versions]:
        hits = real_store.recall(tenant="t", query=query, scopes=SCOPES).hits
        assert hits[0].memory.id == chain[-1], query
        assert hits[0].signals.through == (None if matched == chain[-1] else matched), query
        assert not set(chain[:-1]) & {h.memory.id for h in hits}, query


def test_a_forgotten_successor_gives_nothing_through_its_predecessor(real_store):
    with_store(real_store)
    first = remember(real_store, "Staging database is db-stg-03 on port 5433.")
    successor = supersede(real_store, first, "Staging database moved to db-stg-07.")
    real_store.forget(tenant="t", id=successor)
    outcome = real_store.recall(tenant="t", query="db-stg-03", scopes=SCOPES)
    assert not {first, successor} & {h.memory.id for h in outcome.hits}
    assert all(h.signals.through is None for h in outcome.hits)


def test_a_successor_the_filters_exclude_is_not_reached_through_its_predecessor(real_store):
    with_store(real_store)
    first = remember(real_store, "Staging database is db-stg-03 on port 5433.", kind="fact")
    successor = supersede(real_store, first, "We decided to move staging to db-stg-07.", kind="decision")
    for kw in ({"scopes": ["global"]}, {"scopes": SCOPES, "kinds": ["fact"]}):
        hits = real_store.recall(tenant="t", query="db-stg-03", **kw).hits
        assert not {first, successor} & {h.memory.id for h in hits}, kw
        assert all(h.signals.through is None for h in hits), kw
    hits = real_store.recall(tenant="t", query="db-stg-03", scopes=SCOPES, kinds=["decision", "fact"]).hits
    assert hits[0].memory.id == successor and hits[0].signals.through == first


@pytest.mark.parametrize("query", ["oat milk", "who is our accountant?", "which SDK does the mobile app use?",
                                   "production database port"])
def test_a_recall_no_superseded_memory_matches_is_unchanged(real_store, monkeypatch, query):
    with_store(real_store)
    supersede(real_store, remember(real_store, "The VPN gateway is vpn-gw-alpha in Dublin."),
              "The VPN gateway moved to vpn-gw-bravo.")
    with_credit = real_store.recall(tenant="t", query=query, scopes=SCOPES).hits
    monkeypatch.setattr(successors, "heads", lambda *args: {})
    without = real_store.recall(tenant="t", query=query, scopes=SCOPES).hits
    assert with_credit and [(h.memory.id, round(h.score, 6), h.confidence) for h in with_credit] == [
        (h.memory.id, round(h.score, 6), h.confidence) for h in without
    ]
    assert all(h.signals.through is None for h in with_credit)


def test_the_tool_result_names_the_superseded_memory_a_hit_was_found_through(real_store):
    with_store(real_store)
    caller = handlers.Caller(tenant="t", scope="proj")
    first = remember(real_store, "Staging database is db-stg-03 on port 5433.")
    successor = supersede(real_store, first, "Staging database moved to db-stg-07.")
    result = handlers.recall(real_store, caller, query="where is db-stg-03?")
    out = result.model_dump()
    assert out["memories"][0]["id"] == successor
    assert out["memories"][0]["signals"]["through"] == first
    assert all(m["signals"]["through"] is None for m in out["memories"][1:])
    lines = text.recall_text(result).splitlines()
    assert lines[1].startswith("1. [") and lines[1].endswith(f"— found through its earlier version {first}")
    assert not any("found through" in line for line in lines[2:])
