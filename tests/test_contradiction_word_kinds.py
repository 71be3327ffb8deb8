"""Kinds of words the contradiction test reads (issue 27): "now" beside a verb that adds ("now likes techno") adds
to what the older holds and changes nothing; an outcome ("failed" / "succeeded") is a state; a hyphenated group
compound ("Marketing-Team") is its group; a name with particles ("Anne de Vries") is one name, shown whole; and an
event saying a change to a value ("Upgraded ... from 1.27 to 1.28") is outdated in recall as a fact would be. Word
tests first, then through the store with the real model, on each backend."""

from __future__ import annotations

import pytest
from memvault.storage.contradiction import disagreement, values
from memvault.storage.siblings import sibling
from memvault.storage.store import Store


@pytest.mark.parametrize(("older", "newer"), [
    ("Maya likes jazz.", "Maya now likes techno."),
    ("Tom likes coffee.", "Tom now likes tea."),
    ("Caroline loves painting.", "Caroline now loves pottery."),
    ("Jon enjoys running.", "These days Jon enjoys swimming."),
    ("Anna mag Jazz.", "Anna mag jetzt Techno."),
    ("Léa aime le jazz.", "Léa aime maintenant la techno."),
])
def test_now_beside_a_verb_that_adds_changes_nothing(older: str, newer: str) -> None:
    assert disagreement(older, newer) is None


@pytest.mark.parametrize(("older", "newer"), [
    ("Maya likes jazz.", "Maya now prefers techno."),  # a preference names one of alternatives
    ("Maya likes jazz.", "Maya no longer likes jazz."),  # an end said
    ("Ana is vegetarian.", "Ana now eats fish."),  # no verb that adds in the older
    ("Ana eats no meat.", "Ana now eats fish."),  # the older denies what it eats
    ("We use Slack for chat.", "We now use Teams for chat."),
])
def test_now_still_changes_a_slot_that_holds_one(older: str, newer: str) -> None:
    assert disagreement(older, newer) is not None


@pytest.mark.parametrize(("older", "newer", "reason"), [
    ("The backup job failed last night.", "The backup job succeeded.", "opposite state: failed → succeeded"),
    ("The restore test failed.", "The restore test passed.", "opposite state: failed → passed"),
    ("The migration was unsuccessful.", "The migration was successful.",
     "opposite state: unsuccessful → successful"),
    ("The deploy of v2.3 failed on Monday.", "The deploy of v2.3 succeeded on Tuesday.",
     "opposite state: failed → succeeded"),
    ("The nightly export succeeded.", "The nightly export failed with a timeout.",
     "opposite state: succeeded → failed"),
])
def test_an_outcome_replaced_is_an_opposite_state(older: str, newer: str, reason: str) -> None:
    assert disagreement(older, newer) == reason


@pytest.mark.parametrize(("older", "newer"), [
    ("The CI checks passed.", "The CI checks succeeded."),  # one outcome said two ways
    ("The login flow test failed.", "The checkout flow test succeeded."),  # two tests
    ("The backup job failed last night.", "The backup job failed again, disk full."),
])
def test_one_outcome_or_two_subjects_contradict_nothing(older: str, newer: str) -> None:
    assert disagreement(older, newer) is None


@pytest.mark.parametrize(("older", "newer", "reason"), [
    ("Das Marketing-Team sitzt in Berlin.", "Das Team sitzt jetzt in Hamburg.", "different name: berlin → hamburg"),
    ("The Marketing-Team sits in Berlin.", "The team now sits in Hamburg.", "different name: berlin → hamburg"),
    ("The platform-team meets at 9:00.", "The team now meets at 10:00.", "different time: 09:00 → 10:00"),
    ("Das Marketing-Team trifft sich montags um 9:00.", "Das Team trifft sich jetzt um 10:00.",
     "different time: 09:00 → 10:00"),
])
def test_a_hyphenated_group_compound_is_its_group(older: str, newer: str, reason: str) -> None:
    assert disagreement(older, newer) == reason


@pytest.mark.parametrize(("older", "newer"), [
    ("Das Marketing-Team sitzt in Berlin.", "Das Vertriebs-Team sitzt in Hamburg."),
    ("The Marketing-Team sits in Berlin.", "The Sales-Team sits in Hamburg."),
    ("The platform-team meets at 9:00.", "The data-team now meets at 10:00."),
    ("Das Marketing-Team trifft sich montags.", "Das Vertriebs-Team trifft sich jetzt dienstags."),
])
def test_two_hyphenated_groups_are_two_subjects(older: str, newer: str) -> None:
    assert disagreement(older, newer) is None


@pytest.mark.parametrize(("question", "content", "found"), [
    ("When does the marketing-team meet?", "The sales team meets on Tuesdays.", True),
    ("When does the marketing-team meet?", "The sales-team meets on Tuesdays.", True),
    ("When does the marketing team meet?", "The sales-team meets on Tuesdays.", True),
    ("Where does the Berlin-office sit?", "The Madrid office is on floor 3.", True),
    ("When does the marketing team meet?", "The marketing-team meets on Tuesdays.", False),
    ("When does the marketing-team meet?", "The marketing team meets on Tuesdays.", False),
])
def test_a_hyphenated_group_is_a_sibling_of_another_group(question: str, content: str, found: bool) -> None:
    assert (sibling(question, content) is not None) is found


@pytest.mark.parametrize(("older", "newer", "reason"), [
    ("Anne de Vries owns the billing service.", "Bob Chen owns the billing service.",
     "different name: anne de vries → bob chen"),
    ("Jan van der Berg leads the data team.", "Karim Haddad leads the data team.",
     "different name: jan van der berg → karim haddad"),
    ("The release manager is Anne de Vries.", "The release manager is now Jonas Berg.",
     "different name: anne de vries → jonas berg"),
    ("Anne de Vries leads the platform team.", "Anne Jansen now leads the platform team.",
     "different name: anne de vries → anne jansen"),
])
def test_a_name_with_particles_is_one_name_in_the_reason(older: str, newer: str, reason: str) -> None:
    assert disagreement(older, newer) == reason


@pytest.mark.parametrize(("older", "newer"), [
    ("The release manager is Anne de Vries.", "The release manager is Anne."),
    ("The contact at the agency is Ludwig van Beethoven.", "The contact at the agency is Ludwig Beethoven."),
    ("Maria da Silva runs payroll.", "Maria da Silva runs payroll and the expense reports."),
])
def test_a_name_with_particles_written_shorter_is_the_same_name(older: str, newer: str) -> None:
    assert disagreement(older, newer) is None


@pytest.mark.parametrize(("text", "name"), [
    ("Anne de Vries owns the billing service.", "anne de vries"),
    ("The data team is led by Jan van der Berg.", "jan van der berg"),
    ("We met Maria da Silva at the meetup in Utrecht last week and talked about her Rust workshop.",
     "maria da silva"),
])
def test_a_name_with_particles_is_read_as_one_value(text: str, name: str) -> None:
    found = values(text)
    assert name in found and not {"anne", "vries", "van", "der", "da", "silva"} & found, found


CHANGE_EVENTS = [
    ("Moved the team standup from 9:15 to 9:45.",
     "The team standup is at 10:30 since the spring reorganisation.", "When is the team standup?"),
    ("Upgraded the staging database from PostgreSQL 14 to 15.",
     "The staging database runs PostgreSQL 16 after the November maintenance window.",
     "Which PostgreSQL version does the staging database run?"),
    ("Changed the API rate limit from 100 to 200 requests per minute.",
     "The API rate limit is 500 requests per minute after the capacity review.", "What is the API rate limit?"),
]


@pytest.mark.contract
@pytest.mark.parametrize(("old", "new", "question"), CHANGE_EVENTS)
def test_an_event_saying_a_change_is_outdated_by_a_later_one(db: str, real_embedder, old: str, new: str,
                                                            question: str) -> None:
    store = Store(db, real_embedder)
    try:
        older = store.remember(tenant="t", scope="p", kind="episode", content=old,
                               observed_at="2026-03-01T10:00:00Z").id
        newer = store.remember(tenant="t", scope="p", kind="episode", content=new,
                               observed_at="2026-10-01T10:00:00Z").id
        hits = store.recall(tenant="t", query=question, scopes=["p"]).hits
        ranked = [h.memory.id for h in hits]
        assert ranked.index(newer) < ranked.index(older), ranked
        assert {h.memory.id: h.outdated_by for h in hits}[older] == newer
        assert store.get(tenant="t", id=older).superseded_by is None  # marked in the result, kept current
    finally:
        store.close()


@pytest.mark.contract
def test_a_question_naming_the_value_an_event_changed_to_keeps_that_event_first(db: str, real_embedder) -> None:
    store = Store(db, real_embedder)
    try:
        older = store.remember(tenant="t", scope="p", kind="episode", content=CHANGE_EVENTS[1][0],
                               observed_at="2026-03-01T10:00:00Z").id
        store.remember(tenant="t", scope="p", kind="episode", content=CHANGE_EVENTS[1][1],
                       observed_at="2026-10-01T10:00:00Z")
        hits = store.recall(tenant="t", query="When did we upgrade staging to PostgreSQL 15?", scopes=["p"]).hits
        assert hits[0].memory.id == older and hits[0].outdated_by is None
    finally:
        store.close()
