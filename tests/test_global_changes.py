"""A scope's change of a ``global`` memory (trial verify63 N4): remember and consolidation keep the pair for
review across the scope and ``global``, so recall in that scope finds it as it finds a pair of one scope,
wherever the change ranks among the question's candidates (the global memory marked ``possibly_outdated_by``
the scope's, that one above it), while another scope reads the global memory first and unmarked. A scope's
memory that only adds to the global one, or a global memory contradicting a scope's, keeps no pair."""

from __future__ import annotations

import pytest

from memvault.storage.consolidate import consolidate
from memvault.storage.store import Store
from memvault.tools import handlers

pytestmark = pytest.mark.contract
MAY, OCTOBER = "2025-05-01T10:00:00Z", "2025-10-01T10:00:00Z"
CHANGES = [  # (global, the scope's change of it, question)
    ("Our log shipper is Fluentd", "We phased out Fluentd in favour of Vector", "how are logs shipped?"),
    ("Our log shipper is Fluentd", "We phased out Fluentd in favour of Vector", "what ships our logs?"),
    ("Our CI runs on Jenkins", "We retired Jenkins", "where does our CI run?"),
    ("The company VPN uses OpenVPN", "The company VPN moved to WireGuard", "which VPN do we use?"),
    ("The on-call tool is PagerDuty", "We dropped PagerDuty for Opsgenie", "what is the on-call tool?"),
    ("Code reviews need two approvals", "Code reviews need one approval", "how many approvals do code reviews need?"),
]
ADDS = [  # (global, the scope's memory adding to it, question): no pair, the global unmarked
    ("Our log shipper is Fluentd", "Fluentd also ships the audit logs of this project", "how are logs shipped?"),
    ("Our CI runs on Jenkins", "Jenkins builds this project on the ARM agents", "where does our CI run?"),
    ("The company VPN uses OpenVPN", "The VPN profile for this project is named proj-vpn", "which VPN do we use?"),
]
UNRELATED = ["The mobile app is called Pathfinder", "The CI runners have 4 cores each", "Standup is at 09:30 every "
             "weekday", "We use PostgreSQL 16 in production", "Release notes are written by the release manager",
             "The wiki lives in Confluence", "We use Sentry for error tracking", "The API runs in us-east-1",
             "The on-call rotation changes every Monday", "The log retention period is 30 days",
             "Backups run nightly at 02:00 UTC", "Maria prefers short PR descriptions"]


def fill(store: Store, shared: str, own: str, way: str, own_scope: str = "proj") -> tuple[str, str, object]:
    g = store.remember(tenant="a", scope="global", kind="fact", content=shared, observed_at=MAY).id
    for content in UNRELATED:
        store.remember(tenant="a", scope="proj", kind="fact", content=content, observed_at=MAY)
    stored = store.remember(tenant="a", scope=own_scope, kind="fact", content=own, observed_at=OCTOBER)
    if way == "consolidated":
        consolidate(store)
    return g, stored.id, stored


def recall(store: Store, scope: str, question: str) -> list[handlers.MemoryOut]:
    return handlers.recall(store, handlers.Caller(tenant="a", scope=scope), query=question).memories


@pytest.mark.parametrize(("shared", "own", "question"), CHANGES)
def test_a_scopes_change_of_a_global_memory_is_a_pair_in_that_scope_only(keeping_store, way, shared, own, question):
    g, o, stored = fill(keeping_store, shared, own, way)
    if way == "noted":
        assert [i for i, _ in stored.contradicts] == [g]
    assert [(a, b) for a, b, _ in keeping_store.review("a", ["proj", "global"]).contradictions] == [(g, o)]
    assert keeping_store.review("a", ["other", "global"]).contradictions == []
    hits = recall(keeping_store, "proj", question)
    ids = [m.id for m in hits]
    assert g in ids and o in ids and ids.index(o) < ids.index(g), [(m.content, m.confidence) for m in hits]
    assert {m.id: m.possibly_outdated_by for m in hits}[g] == o
    elsewhere = recall(keeping_store, "other", question)
    assert [m.id for m in elsewhere][:1] == [g] and elsewhere[0].possibly_outdated_by is None


@pytest.mark.parametrize(("shared", "own", "question"), ADDS)
def test_a_scopes_memory_adding_to_a_global_one_leaves_it_unmarked(keeping_store, way, shared, own, question):
    g, o, stored = fill(keeping_store, shared, own, way)
    assert stored.contradicts == ()
    assert keeping_store.review("a", ["proj", "global"]).contradictions == []
    hits = recall(keeping_store, "proj", question)
    assert g in [m.id for m in hits] and all(m.possibly_outdated_by is None for m in hits)


@pytest.mark.parametrize(("shared", "own", "question"), CHANGES[2:4])
def test_a_global_change_of_a_scopes_memory_keeps_no_pair(keeping_store, way, shared, own, question):
    """The scope's memory is the older here: a project's exception to a global rule stays current."""
    p = keeping_store.remember(tenant="a", scope="proj", kind="fact", content=shared, observed_at=MAY).id
    g = keeping_store.remember(tenant="a", scope="global", kind="fact", content=own, observed_at=OCTOBER)
    if way == "consolidated":
        consolidate(keeping_store)
    assert g.contradicts == ()
    assert keeping_store.review("a", ["proj", "global"]).contradictions == []
    assert {m.id: m.possibly_outdated_by for m in recall(keeping_store, "proj", question)}.get(p) is None
