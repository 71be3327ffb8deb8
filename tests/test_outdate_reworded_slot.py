"""A question worded with the older memory's words for a slot the newer rewords ("are backups kept for 30 days?"
beside "Backups are kept for 30 days." and "Backup retention is now 90 days.") asks of the value the change
replaced: the newer comes first and the older is marked outdated by it, as for the newer's own wording. The value
asked is the changed one, no sibling of the newer's (``ranking._sibling_asked``, ``contradiction.replaced``)."""

from __future__ import annotations

import pytest
from stores import assert_outdates

from memvault.storage.store import Store

pytestmark = pytest.mark.contract

REWORDED = [  # (older, newer rewording the slot, a question in the older's words, one in the newer's)
    ("Backups are kept for 30 days.", "Backup retention is now 90 days.", "Are backups kept for 30 days?",
     "Is backup retention 30 days?"),
    ("Logs are stored for 14 days.", "Log retention is now 30 days.", "Are logs stored for 14 days?",
     "Is log retention 14 days?"),
    ("The Pro plan costs 20 dollars a month.", "The Pro plan price is now 25 dollars a month.",
     "Does the Pro plan cost 20 dollars a month?", "Is the Pro plan price 20 dollars a month?"),
    ("The standup takes 15 minutes.", "The standup duration is now 20 minutes.", "Does the standup take 15 minutes?",
     "Is the standup duration 15 minutes?"),
    ("Les sauvegardes sont conservées 30 jours.", "La durée de conservation des sauvegardes est désormais de 90 jours.",
     "Les sauvegardes sont-elles conservées 30 jours ?", "La durée de conservation des sauvegardes est-elle de 30 jours ?"),
    ("Backups werden 30 Tage aufbewahrt.", "Die Aufbewahrungsdauer für Backups beträgt jetzt 90 Tage.",
     "Werden Backups 30 Tage aufbewahrt?", "Beträgt die Aufbewahrungsdauer für Backups 30 Tage?"),
]


@pytest.mark.parametrize(("old", "new", "question", "_"), REWORDED)
def test_a_question_in_the_older_words_for_a_reworded_slot_finds_the_newer_first(real_store: Store, old, new,
                                                                                 question, _):
    assert_outdates(real_store, old, new, question)


@pytest.mark.parametrize(("old", "new", "_", "question"), REWORDED)
def test_a_question_in_the_newer_words_finds_the_newer_first(real_store: Store, old, new, _, question):
    assert_outdates(real_store, old, new, question)
