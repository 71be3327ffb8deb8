"""Owners' slots and verbs that add, in the contradiction test (re-check of the names fix): an owner's
slot changes only when the newer memory names another owner of the very same thing, in a plain present
statement. A sub-object ("the billing service tests"), a narrowed one ("... for Europe", "the new
billing service"), shared ownership ("... too"), the past, a negation, a condition or a question leaves
the older memory current; so does a second object of a verb that adds ("speaks French" / "speaks
German", "met Bob" / "met Carol"). Word tests both ways, then through the store and the tool with the
real model, on each backend."""

from __future__ import annotations

import pytest
from memvault.storage.contradiction import disagreement
from memvault.storage.store import Store
from memvault.tools import handlers

OWNS = "Alice Martin owns the billing service."
LEADS = "Alice Martin leads the payments team."

NOT_THE_SAME_SLOT = [
    *[(OWNS, f"Bob Chen owns the billing service {tail}.") for tail in (
        "tests", "docs", "migration", "roadmap", "backups", "database", "on-call rotation", "dashboards",
        "for Europe", "in staging", "in the EU region", "too", "as well")],
    (OWNS, "Bob Chen owns the billing service, too."),
    (OWNS, "Bob Chen also owns the billing service."),
    (OWNS, "Bob Chen owns the billing service's alerts."),
    (OWNS, "Bob Chen owns the billing service's database."),
    (OWNS, "Bob Chen owns the new billing service."),
    (OWNS, "Bob Chen owns the legacy billing service."),
    (OWNS, "Bob Chen owned the billing service in 2019."),
    (OWNS, "Bob Chen doesn't own the billing service."),
    (OWNS, "Bob Chen does not own the billing service."),
    (OWNS, "Bob Chen never owned the billing service."),
    (OWNS, "If Bob Chen owns the billing service, ask him."),
    (OWNS, "When Bob Chen owns the billing service, deploys slow down."),
    (OWNS, "Does Bob Chen own the billing service?"),
    (OWNS, "Maybe Bob Chen owns the billing service?"),
    (OWNS, "Alice Martin and Bob Chen own the billing service."),
    (OWNS, "Now Bob Chen is on the billing team."),
    ("Alice owns the billing service.", "The billing service tests are owned by Bob."),
    ("Alice owns the billing service.", "The billing service was owned by Bob."),
    (LEADS, "Bob Chen leads the payments team's hiring."),
    (LEADS, "Bob Chen leads the payments team's offsite."),
    (LEADS, "Bob Chen leads the payments team's standup on Mondays."),
    ("Alice Martin manages the payments team.", "Bob Chen manages the payments team budget."),
    ("Alice Martin is the owner of the billing service.", "Bob Chen is the owner of the billing service's database."),
    ("Jonas Berg is the release manager.", "Priya Nair was the release manager."),
    ("Marta maintains the deploy scripts.", "Oskar maintains the deploy scripts' tests."),
    ("- Alice Martin owns the billing service.",
     "- Alice Martin owns the billing service.\n- Bob Chen owns the payments service."),
]

ADDED_NOT_REPLACED = [
    ("Alice Martin speaks French.", "Alice Martin speaks German."),
    ("Alice Martin speaks French.", "Alice Martin also speaks German."),
    ("Alice Martin knows Rust.", "Alice Martin knows Go."),
    ("Alice Martin visited Paris.", "Alice Martin visited Rome."),
    ("Alice Martin met Bob Chen on Monday.", "Alice Martin met Carol King on Tuesday."),
    ("Alice Martin emailed Bob Chen.", "Alice Martin emailed Carol King."),
    ("Alice Martin reviewed the PR from Bob Chen.", "Alice Martin reviewed the PR from Carol King."),
    ("Alice Martin thanked Bob Chen.", "Alice Martin thanked Carol King."),
    ("Priya likes Python.", "Priya likes Rust."),
    ("Karim interviewed Lena Berg.", "Karim interviewed Oskar Lind."),
]

STILL_A_CHANGE = [
    (OWNS, "Bob Chen owns the billing service."),
    (OWNS, "Bob Chen now owns the billing service."),
    (OWNS, "Bob Chen owns the billing service since March."),
    (OWNS, "Bob Chen owns the billing service as of today."),
    (OWNS, "From Monday, Bob Chen owns the billing service."),
    ("Alice owns the billing service.", "The billing service is owned by Bob."),
    ("Alice owns the billing service.", "The billing service is now owned by Bob."),
    (LEADS, "Bob Chen leads the payments team."),
    ("Alice Martin manages the payments team.", "Bob Chen manages the payments team."),
    ("Alice Martin is the owner of the billing service.", "Bob Chen is the owner of the billing service."),
    ("Alice Martin owns the billing service for Europe.", "Bob Chen owns the billing service for Europe."),
    ("Alice Martin owns the billing service tests.", "Bob Chen owns the billing service tests."),
    ("Marta maintains the deploy scripts.", "Oskar maintains the deploy scripts."),
    ("- Alice Martin owns the billing service.", "- Bob Chen owns the billing service."),
]


@pytest.mark.parametrize(("older", "newer"), NOT_THE_SAME_SLOT)
def test_another_owner_of_a_part_a_narrower_thing_or_in_no_plain_statement_is_no_change(
        older: str, newer: str) -> None:
    assert disagreement(older, newer) is None


@pytest.mark.parametrize(("older", "newer"), [
    ("The public API is versioned in the URL path.", "José Álvarez owns the web client and the public OpenAPI spec."),
    ("Mum collects Moomin mugs.", "Priya likes Rust, and Mum turns 70 in July."),
])
def test_names_set_aside_leave_no_one_for_one_swap_behind(older: str, newer: str) -> None:
    assert disagreement(older, newer) is None


@pytest.mark.parametrize(("older", "newer"), ADDED_NOT_REPLACED)
def test_a_second_object_of_a_verb_that_adds_is_no_change(older: str, newer: str) -> None:
    assert disagreement(older, newer) is None


@pytest.mark.parametrize(("older", "newer"), STILL_A_CHANGE)
def test_another_owner_of_the_same_whole_thing_is_still_a_change(older: str, newer: str) -> None:
    reason = disagreement(older, newer)
    assert reason is not None and reason.startswith(("different name", "change words")), reason


@pytest.mark.parametrize(("older", "newer"), [
    ("Alice Martin speaks French.", "Alice Martin no longer speaks French."),
    ("Alice drinks coffee.", "Alice does not drink coffee."),
    ("The service is called Helix.", "The service is called Zed."),
])
def test_a_denial_or_a_rename_of_the_same_subject_is_still_a_change(older: str, newer: str) -> None:
    assert disagreement(older, newer) is not None


# -- through the store and the tool, real model, each backend ----------------------------------------

from test_contradiction_names import AROUND, remember  # noqa: E402  (the same store and memories around)


def _store_pair(store: Store, old: str, new: str):  # type: ignore[no-untyped-def]
    older = remember(store, old, "2025-01-06T09:00:00Z").id
    for content in AROUND:
        remember(store, content, "2025-01-07T09:00:00Z")
    result = handlers.remember(store, handlers.Caller(tenant="t", scope="proj"), content=new, kind="fact",
                               observed_at="2025-03-03T09:00:00Z")
    return older, result


@pytest.mark.contract
@pytest.mark.parametrize(("old", "new", "query"), [
    (OWNS, "Bob Chen owns the billing service tests.", "Who owns the billing service?"),
    (OWNS, "Bob Chen owns the billing service for Europe.", "Who owns the billing service?"),
    (OWNS, "Bob Chen owns the new billing service.", "Who owns the billing service?"),
    (OWNS, "Bob Chen owns the billing service as well.", "Who owns the billing service?"),
    (OWNS, "Bob Chen owned the billing service in 2019.", "Who owns the billing service?"),
    (OWNS, "Bob Chen doesn't own the billing service.", "Who owns the billing service?"),
    (OWNS, "If Bob Chen owns the billing service, ask him.", "Who owns the billing service?"),
    (OWNS, "Does Bob Chen own the billing service?", "Who owns the billing service?"),
    (LEADS, "Bob Chen leads the payments team's hiring.", "Who leads the payments team?"),
    ("Alice Martin speaks French.", "Alice Martin speaks German.", "Which languages does Alice Martin speak?"),
    ("Alice Martin met Bob Chen on Monday.", "Alice Martin met Carol King on Tuesday.", "Who did Alice Martin meet?"),
])
def test_another_thing_held_or_added_leaves_the_older_memory_current(real_store, old: str, new: str,
                                                                     query: str) -> None:
    older, result = _store_pair(real_store, old, new)
    assert result.contradicts == []
    hits = {h.memory.id: h.outdated_by for h in real_store.recall(tenant="t", query=query, scopes=["proj"]).hits}
    assert older in hits and hits[older] is None and hits.get(result.id, "absent") is None


@pytest.mark.contract
@pytest.mark.parametrize(("old", "new", "query"), [
    (OWNS, "Bob Chen owns the billing service.", "Who owns the billing service?"),
    ("Alice owns the billing service.", "The billing service is now owned by Bob.", "Who owns the billing service?"),
    (LEADS, "Bob Chen leads the payments team.", "Who leads the payments team?"),
])
def test_another_owner_of_the_same_thing_still_marks_the_older_outdated(real_store, old: str, new: str,
                                                                        query: str) -> None:
    older, result = _store_pair(real_store, old, new)
    assert [(c.id, c.newer) for c in result.contradicts] == [(older, False)]
    hits = real_store.recall(tenant="t", query=query, scopes=["proj"]).hits
    assert [h.memory.id for h in hits][:2] == [result.id, older]
    assert hits[1].outdated_by == result.id and hits[0].outdated_by is None
