"""A change dated by a time phrase opening or closing it ("Since October the team lead is Tomás",
"Tomás is the team lead since October") contradicts the older memory it changes: the phrase is set
aside when the two are compared (``dating.split``), and ``remember`` and recall read the pair as
they read "The team lead is now Tomás" (new-user trial 60 #1: contradicts=[] and the older first)."""

from __future__ import annotations

import pytest
from stores import cosine

from memvault.storage.contradiction import contradicts
from memvault.storage.dating import split
from memvault.storage.ranking import SAME_SUBJECT
from memvault.storage.store import Store

SUBJECTS = [  # (older, newer's subject and value, newer's value first, question)
    ("The team lead is Maria", "the team lead is Tomás", "Tomás is the team lead", "who is the team lead?"),
    ("Our PM is Sarah", "our PM is Dave", "Dave is our PM", "who is our PM?"),
    ("The release manager is Ken", "the release manager is Aiko", "Aiko is the release manager",
     "who is the release manager?"),
    ("The on-call owner for payments is Priya", "the on-call owner for payments is Jonas",
     "Jonas is the on-call owner for payments", "who is the on-call owner for payments?"),
    ("Our CI runs on Jenkins", "our CI runs on GitHub Actions", "Our CI runs on GitHub Actions",
     "where does our CI run?"),
    ("The on-call rotation is weekly", "the on-call rotation is biweekly", "The on-call rotation is biweekly",
     "how often does the on-call rotation change?"),
    ("The standup is at 9:15", "the standup is at 10:30", "The standup is at 10:30", "when is the standup?"),
]
OPENING = ["Since October", "Since October,", "From 1 November", "Starting next sprint", "Beginning next week",
           "As of Q3", "Effective 2027,", "After Monday", "Since 3 March", "From next week", "Starting in 2027",
           "Since last Tuesday", "From the 3rd of March"]
CLOSING = ["since October", "from next week", "starting next sprint", "as of Q3", "effective 1 November"]
DATED = [(old, f"{when} {new}") for old, new, _, _ in SUBJECTS for when in OPENING] + [
    (old, f"{first} {when}") for old, _, first, _ in SUBJECTS for when in CLOSING]


@pytest.mark.parametrize(("old", "new"), DATED)
def test_a_change_opened_or_closed_by_a_time_phrase_contradicts_the_older(real_embedder, old, new):
    assert contradicts(old, new, cosine(real_embedder, old, new), SAME_SUBJECT) is not None


@pytest.mark.parametrize(("old", "new"), [
    ("The team lead is Maria", "Since October the team lead is still Maria"),
    ("The team lead is Maria", "Since October the team lead is Maria"),
    ("Our PM is Sarah", "Starting next sprint our PM is Sarah too"),
    ("The office is in Lisbon", "Since 2019 we have used Postgres"),
    ("The team lead is Maria", "Since 2019 we have used Postgres"),
    ("The standup is at 9:15", "Since 2019 we have used Postgres"),
    ("The team lead is Maria", "From next week the design lead is Tomás"),
])
def test_a_dated_statement_of_the_same_value_or_another_subject_contradicts_nothing(real_embedder, old, new):
    assert contradicts(old, new, cosine(real_embedder, old, new), SAME_SUBJECT) is None


THIRDS = [  # (older's subject and value, newer's): each dated differently
    ("the team lead is Tomás", "the team lead is Ana"), ("our PM is Dave", "our PM is Lena"),
    ("the release manager is Aiko", "the release manager is Bruno"),
    ("our CI runs on GitHub Actions", "our CI runs on Buildkite"),
    ("the standup is at 10:30", "the standup is at 11:00"),
    ("the on-call rotation is biweekly", "the on-call rotation is monthly"),
]
LATER = ["Since December", "Since 1 December,", "From next quarter", "As of Q4", "Starting in 2028"]


@pytest.mark.parametrize(("old", "new"), [(f"{OPENING[0]} {mid}", f"{when} {last}") for mid, last in THIRDS
                                          for when in LATER] + [(f"{mid} since October", f"{last} since December")
                                                                for mid, last in THIRDS])
def test_a_value_dated_from_another_time_contradicts_the_older_dated_value(real_embedder, old, new):
    """"Since October the team lead is Tomás" / "Since December the team lead is Ana" (trial verify62 N3)."""
    assert contradicts(old, new, cosine(real_embedder, old, new), SAME_SUBJECT) is not None


@pytest.mark.parametrize(("old", "new"), [
    ("Since October the team lead is Tomás", "Since December the tech lead is Ana"),
    ("Since October the team lead is Tomás", "Since December the team lead is still Tomás"),
    ("Since October the team lead is Tomás", "Since December the design lead is Ana"),
    ("Since October the standup is at 10:30", "Since December the retro is at 11:00"),
])
def test_two_dated_statements_of_one_value_or_two_subjects_contradict_nothing(real_embedder, old, new):
    assert contradicts(old, new, cosine(real_embedder, old, new), SAME_SUBJECT) is None


def test_two_different_time_phrases_are_still_compared_as_written(real_embedder):
    old, new = "Since 2019 we have used Postgres", "Since 2021 we have used Postgres"
    assert contradicts(old, new, cosine(real_embedder, old, new), SAME_SUBJECT) is not None


@pytest.mark.parametrize(("text", "expected"), [
    ("Since October, the team lead is Tomás", ("Since October,", "the team lead is Tomás")),
    ("From 1 November the release manager is Aiko", ("From 1 November", "the release manager is Aiko")),
    ("Dave is our PM starting next sprint.", ("starting next sprint.", "Dave is our PM")),
    ("From Monday to Friday the office opens at 9", ("", "From Monday to Friday the office opens at 9")),
    ("After 2 weeks we archive logs", ("", "After 2 weeks we archive logs")),
    ("Since then the lead is Bo", ("", "Since then the lead is Bo")),
    ("Tickets come from the support queue", ("", "Tickets come from the support queue")),
    ("Send reports after Monday standup", ("", "Send reports after Monday standup")),
    ("From Monday or Tuesday the office opens at 9", ("", "From Monday or Tuesday the office opens at 9")),
    ("The lead is Bo, since the beginning of next month", ("", "The lead is Bo, since the beginning of next month")),
])
def test_only_a_time_phrase_opening_or_closing_a_text_is_split_off(text, expected):
    assert split(text) == expected


@pytest.mark.parametrize("when", [
    "Since the first week of November", "As of the week of Nov 16", "Since two days ago", "Starting Black Friday",
    "Since week 48", "Since March 3, 2027", "Since Monday morning", "From the third quarter", "Effective immediately,",
    "Starting the following week", "Since mid-March", "From the end of Q3", "Since Monday 3 March", "As of FY27",
])
def test_a_time_phrase_is_read_as_timewords_reads_a_time(when):
    """One grammar (``timewords.time_end``): what a question or a memory names dates a statement, whole."""
    closing = when.lower().rstrip(",")
    assert split(f"{when} the team lead is Tomás") == (when, "the team lead is Tomás")
    assert split(f"The team lead is Tomás {closing}") == (closing, "The team lead is Tomás")


FILLER = [
    "The design review covered the onboarding flow and the colour of the primary buttons.",
    "The staging database is refreshed from a production snapshot every Sunday.",
]


@pytest.mark.contract
@pytest.mark.parametrize(("old", "new", "question"), [
    (old, f"{when} {new}", question) for (old, new, _, question), when in zip(SUBJECTS[:4], OPENING[:4])
] + [(SUBJECTS[0][0], f"{SUBJECTS[0][2]} since October", SUBJECTS[0][3])])
def test_remember_and_recall_read_a_dated_change_as_the_newer(real_store: Store, old, new, question):
    older = real_store.remember(tenant="t", scope="p", content=old, observed_at="2026-03-01T10:00:00Z").id
    for content in FILLER:
        real_store.remember(tenant="t", scope="p", content=content, observed_at="2026-04-01T10:00:00Z")
    newer = real_store.remember(tenant="t", scope="p", content=new, observed_at="2026-10-02T10:00:00Z")
    assert [i for i, _ in newer.contradicts] == [older] and newer.newer == ()
    hits = real_store.recall(tenant="t", query=question, scopes=["p"]).hits
    assert [h.memory.id for h in hits][:2] == [newer.id, older]
    assert [h.outdated_by for h in hits][:2] == [None, newer.id]


@pytest.mark.contract
def test_a_dated_statement_beside_an_unrelated_memory_is_stored_without_contradiction(real_store: Store):
    for content in ["The team lead is Maria", "The office is in Lisbon", *FILLER]:
        real_store.remember(tenant="t", scope="p", content=content, observed_at="2026-03-01T10:00:00Z")
    dated = real_store.remember(tenant="t", scope="p", content="Since 2019 we have used Postgres",
                                observed_at="2026-10-02T10:00:00Z")
    assert dated.contradicts == ()
    hits = real_store.recall(tenant="t", query="who is the team lead?", scopes=["p"]).hits
    assert all(h.outdated_by is None for h in hits)


@pytest.mark.contract
def test_a_third_dated_value_contradicts_the_current_one_and_recall_marks_it(real_store: Store):
    """Maria, then "Since October ... Tomás", then "Since December ... Ana": Ana contradicts Tomás and Maria, and
    recall marks both below her (trial verify62 N3: only Maria was named, Tomás stayed current)."""
    ids = []
    for text, day in [("The team lead is Maria", "2026-04-01"), ("Since October the team lead is Tomás", "2026-10-10"),
                      ("Since December the team lead is Ana", "2026-12-01")]:
        result = real_store.remember(tenant="t", scope="p", content=text, observed_at=f"{day}T10:00:00Z")
        ids.append(result.id)
    assert sorted(i for i, _ in result.contradicts) == sorted(ids[:2])
    hits = real_store.recall(tenant="t", query="who is the team lead?", scopes=["p"]).hits
    assert hits[0].memory.id == ids[2]
    marks = {h.memory.id: h.outdated_by for h in hits}
    assert marks[ids[1]] == ids[2] and marks[ids[0]] is not None
