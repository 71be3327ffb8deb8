"""Memories of equal keyword score share their keyword rank: a backend's order among them (FTS5
gave the older first, PostgreSQL the newer) decided "who is August?" apart on the two backends
(issue 25, closing pass). Run on both backends."""

from __future__ import annotations

import pytest

from memvault.storage.ranking import keyword_ranks

pytestmark = pytest.mark.contract

PAIRS = [  # (the name, a memory of a person so named, one of the month: another subject)
    ("August", "Dr. August Klein runs the security audit", "In August the office moved to Berlin"),
    ("May", "May Chen owns the billing service", "In May the office switched to a four-day week"),
    ("April", "April Jones reviews every schema migration", "In April the team offsite was held in Lisbon"),
    ("June", "June Park is the on-call lead for storage", "In June the coffee machine was replaced"),
]


@pytest.mark.parametrize(("name", "person", "month"), PAIRS, ids=[p[0] for p in PAIRS])
def test_a_name_that_is_also_a_month_is_answered_whatever_order_the_memories_were_stored_in(
    real_store, backend, name, person, month,
):
    """The answer does not depend on which of two equally scored memories came first: the one
    thing the two backends ordered apart. The issue's case (August) answers with the person."""
    others = ["The build server is in Frankfurt", "Maria leads the data team", "Backups run nightly at 2 am"]
    for tenant, contents in (("first", [person, month]), ("second", [month, person])):
        for content in contents + others:
            real_store.remember(tenant=tenant, scope="p", content=content)
    for question in (f"who is {name}?", f"what does {name} do?"):
        found = {tenant: [(h.memory.content, round(h.confidence, 2))
                          for h in real_store.recall(tenant=tenant, scopes=["p"], query=question, limit=3).hits]
                 for tenant in ("first", "second")}
        assert found["first"] and found["first"] == found["second"], (backend, question, found)
        if name == "August":
            assert found["first"][0][0] == person, (backend, question, found)


def test_equal_scores_share_the_best_rank_among_them():
    assert keyword_ranks([(7, -2.0, -2.0), (3, -1.5, -1.5), (9, -1.5, -1.5), (4, -1.0, -1.0)]) == {
        7: 1, 3: 2, 9: 2, 4: 4}
    assert keyword_ranks([(1, -0.32, -0.32), (2, -0.32 * (1 + 1e-12), -0.3)]) == {1: 1, 2: 1}
    assert keyword_ranks([]) == {}
