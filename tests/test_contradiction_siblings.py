"""Trial 55 #1, #2: a question word only the older memory holds keeps it first only when the newer one is
about a sibling of it ("staging" beside "production"), not when it is any word the newer lacks ("kept"
beside "retention"); two memories whose subjects differ by a lower-case region ("the eu cluster" / "the
us cluster") or by a number labelling them ("Module 3 uses ..." / "Module 5 uses ...") are no contradiction."""

from __future__ import annotations

import pytest

from memvault.storage.contradiction import disagreement
from memvault.storage.siblings import sibling
from memvault.storage.store import Store

pytestmark = pytest.mark.contract


def remember(store: Store, content: str, observed_at: str):  # type: ignore[no-untyped-def]
    return store.remember(tenant="t", scope="proj", content=content, kind="fact", observed_at=observed_at)


@pytest.mark.parametrize(("older", "newer", "question"), [
    ("Backups are kept for 30 days.", "Backup retention is now 90 days.", "How long are backups kept?"),
    ("We use Sentry for error tracking.", "We no longer use Sentry; errors go to Rollbar.",
     "What do we use for error tracking?"),
    ("Logs are stored for 14 days.", "Log retention is now 30 days.", "How long are logs stored?"),
    ("Invoices are sent on the 1st by Stripe.", "We no longer use Stripe; invoices go out through Paddle.",
     "How are invoices sent?"),
])
def test_a_question_word_only_the_older_holds_that_names_no_sibling_does_not_keep_it_first(
        real_store, older, newer, question):
    old = remember(real_store, older, "2025-01-06T09:00:00Z").id
    new = remember(real_store, newer, "2025-03-03T09:00:00Z")
    assert old in dict(new.contradicts)
    hits = real_store.recall(tenant="t", query=question, scopes=["proj"]).hits
    assert [h.memory.id for h in hits][:2] == [new.id, old] and hits[1].outdated_by == new.id


@pytest.mark.parametrize(("older", "newer", "question"), [
    ("We run 4 nodes for staging.", "We now run 6 nodes for production.", "How many nodes do we run for staging?"),
    ("The search team deploys on Tuesdays.", "The billing team now deploys on Thursdays.",
     "When does the search team deploy?"),
])
def test_a_question_naming_a_sibling_of_what_the_newer_is_about_still_keeps_the_older(real_store, older, newer,
                                                                                         question):
    old = remember(real_store, older, "2025-01-06T09:00:00Z").id
    remember(real_store, newer, "2025-03-03T09:00:00Z")
    hits = real_store.recall(tenant="t", query=question, scopes=["proj"]).hits
    assert hits[0].memory.id == old and hits[0].outdated_by is None


@pytest.mark.parametrize(("older", "newer"), [
    ("The eu cluster has 12 nodes", "The us cluster has 20 nodes"),
    ("Our us office opens at 9:00", "Our uk office opens at 10:00"),
    ("The us region keeps 3 replicas.", "The eu region keeps 5 replicas."),
    ("The apac team ships on Friday", "The us team ships on Monday"),
])
@pytest.mark.parametrize("order", [1, -1])
def test_a_lower_case_region_naming_the_subject_is_no_contradiction(older, newer, order):
    assert disagreement(*(older, newer)[::order]) is None


def test_a_lower_case_us_before_a_group_is_a_region_sibling_and_the_pronoun_is_not():
    assert sibling("How many nodes does the eu cluster have?", "The us cluster has 20 nodes") == ("eu", "us")
    assert sibling("How many nodes does the us cluster have?", "The eu cluster has 12 nodes") == ("us", "eu")
    assert sibling("Who sent us the eu report?", "Alice sent the report to us.") is None
    assert disagreement("The eu cluster has 12 nodes", "The eu cluster now has 20 nodes") is not None


@pytest.mark.parametrize(("older", "newer"), [
    ("Module 3 uses f-strings", "Module 5 uses f-strings"),
    ("note number 1 about the build", "note number 2 about the build"),
    ("Minor style note 0: prefer f-strings in module 0", "Minor style note 1: prefer f-strings in module 1"),
    ("Minor style note 3: prefer f-strings in module 3", "Minor style note 11: prefer f-strings in module 11"),
    ("Chapter 3 covers caching", "Chapter 4 covers caching"),
    ("Step 2: run the migrations", "Step 3: run the migrations"),
    ("Ticket 4411 blocks the release", "Ticket 4412 blocks the release"),
])
def test_a_number_labelling_the_subject_is_two_subjects_not_a_change(older, newer):
    assert disagreement(older, newer) is None


@pytest.mark.parametrize(("older", "newer"), [
    ("Postgres 15 is used in production", "Postgres 16 is used in production"),
    ("Python 3 is required", "Python 4 is required"),
    ("We are on step 4 of the migration", "We are on step 5 of the migration"),
    ("Keep 3 replicas.", "Keep 5 replicas."),
    ("Use 4 workers in production", "Use 8 workers in production"),
    ("The build uses node 18", "The build uses node 20"),
    ("Backups are kept for 30 days", "Backup retention is now 90 days"),
    ("Node 3 runs 4 pods", "Node 3 runs 6 pods"),
])
def test_a_number_measuring_or_versioning_its_subject_still_changes(older, newer):
    assert disagreement(older, newer) is not None


def test_fifteen_numbered_notes_give_no_review_items(real_store):
    from memvault.storage.consolidate import consolidate
    for n in range(15):
        remember(real_store, f"Minor style note {n}: prefer f-strings in module {n}", f"2025-01-{n + 1:02d}T09:00:00Z")
    consolidate(real_store)
    assert real_store.review("t", ["proj"]).contradictions == []


@pytest.mark.parametrize(("change", "stale", "question"), [
    ("We switched from Jenkins to GitHub Actions for CI.", "Our CI runs on Jenkins.", "What CI do we use?"),
    ("We no longer use Sentry; errors go to Rollbar.", "We use Sentry for error tracking.",
     "What do we use for error tracking?"),
    ("We moved the office from Lisbon to Porto.", "The office is in Lisbon.", "Where is the office?"),
])
def test_a_stale_statement_stored_after_the_change_is_the_older_everywhere(real_store, change, stale, question):
    """Trial 55 #9: the old state restated after the change was stored was not flagged and came first."""
    from memvault.storage.consolidate import consolidate
    told = remember(real_store, change, "2025-01-06T09:00:00Z").id
    late = remember(real_store, stale, "2025-03-03T09:00:00Z")
    assert told in dict(late.contradicts) and told in late.newer
    hits = real_store.recall(tenant="t", query=question, scopes=["proj"]).hits
    assert [h.memory.id for h in hits][:2] == [told, late.id] and hits[1].outdated_by == told
    consolidate(real_store)
    assert [(o, n) for o, n, _ in real_store.review("t", ["proj"]).contradictions] == [(late.id, told)]


def test_a_plain_statement_after_a_change_naming_a_value_it_did_not_leave_is_the_newer(real_store):
    change = remember(real_store, "We relocated the office to Porto.", "2025-01-06T09:00:00Z").id
    later = remember(real_store, "The office is in Madrid.", "2025-03-03T09:00:00Z")
    assert change in dict(later.contradicts) and change not in later.newer
