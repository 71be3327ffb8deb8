"""A change said of an attribute named through its owner's possessive ("Marta's location is now Berlin") or as the
head of a compound ("The office location is now Bordeaux", "The wiki host is now wiki-new-07") goes to the same slot
as "the location of Marta", and contradicts the older's value there (issue 27 §2). Another owner's attribute, or
another attribute of the same owner, contradicts nothing. Word tests at the packaged model's cosine, then remember
and recall on each backend."""

from __future__ import annotations

import pytest
from stores import assert_apart, assert_outdates, flagged

from memvault.storage.store import Store

pytestmark = pytest.mark.contract

CHANGED = [  # (older, newer): the newer names the older's slot through its owner
    ("Marta lives in Lisbon.", "Marta's location is now Berlin."),
    ("Our office is located in Lyon.", "The office's location is now Bordeaux."),
    ("Our office is located in Lyon.", "The office location is now Bordeaux."),
    ("The wiki runs on wiki-old-01.", "The wiki's host is now wiki-new-07."),
    ("The wiki runs on wiki-old-01.", "The wiki host is now wiki-new-07."),
    ("The Pro plan costs 20 euros a month.", "The Pro plan's price is now 25 euros a month."),
    ("Anna owns the billing service.", "The billing service's owner is now Nils."),
    ("Anna owns the billing service.", "The billing service owner is now Nils."),
    ("The API listens on port 8080.", "The API's port is now 9090."),
    ("The API listens on port 8080.", "The API port is now 9090."),
    ("We run Postgres 15.", "Postgres's version is now 16."),
    ("Jonas works from Madrid.", "Jonas's location is now Valencia."),
    ("Our shop sits in Porto.", "Our shop's address is now Braga."),
    ("The standup happens at 9:15.", "The standup's time is now 10:30."),
    ("The standup happens at 9:15.", "The standup time is now 10:30."),
    ("Le bureau est à Lyon.", "L'emplacement du bureau est maintenant Bordeaux."),  # French says it with "of"
]
APART = [  # (older, newer): another owner, or another attribute of the owner
    ("Jonas lives in Lisbon.", "Marta's location is now Berlin."),
    ("Our office is located in Lyon.", "The office's printer is now on floor 3."),
    ("Our office is located in Lyon.", "The warehouse's location is now Bordeaux."),
    ("The wiki runs on wiki-old-01.", "The blog's host is now blog-new-02."),
    ("The API listens on port 8080.", "The database's port is now 5433."),
    ("The EU region has 3 availability zones.", "The US region has 6 availability zones."),  # a sibling
    ("The server is in rack 4.", "The server room is now locked."),  # no value in the slot
]


@pytest.mark.parametrize(("old", "new"), CHANGED)
def test_a_change_of_an_owned_attribute_contradicts_the_older(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None


@pytest.mark.parametrize(("old", "new"), APART)
def test_another_owners_attribute_or_another_attribute_contradicts_nothing(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is None


@pytest.mark.parametrize(("old", "new", "question"), [
    ("Marta lives in Lisbon.", "Marta's location is now Berlin.", "Where does Marta live?"),
    ("The wiki runs on wiki-old-01.", "The wiki host is now wiki-new-07.", "Which host runs the wiki?"),
])
def test_recall_puts_the_owned_attribute_change_first_and_marks_the_older(real_store: Store, old, new, question):
    assert_outdates(real_store, old, new, question)


@pytest.mark.parametrize(("old", "new", "question"), [
    ("Jonas lives in Lisbon.", "Marta's location is now Berlin.", "Where does Jonas live?"),
    ("Our office is located in Lyon.", "The office's printer is now on floor 3.", "Where is our office?"),
])
def test_recall_marks_neither_of_another_owner_or_attribute(real_store: Store, old, new, question):
    assert_apart(real_store, old, new, question)
