"""A change from one value to another ("We migrated the website from OVH to Scaleway") acts on an older memory only
where the older holds a value of that kind in a slot, not as what it speaks of, and, when the change names the thing
it moves ("the website"), a word of it too: one shared name (the value left: "OVH support answers within 24 hours")
or the thing's noun alone ("The website shows prices in euros") is no evidence of the same slot
(``contradiction_compare._moves_what_held``; issue 27 §2). Word tests at the packaged model's cosine, then remember
and recall on each backend."""

from __future__ import annotations

import pytest
from stores import assert_apart, assert_outdates, flagged

from memvault.storage.store import Store

pytestmark = pytest.mark.contract

APART = [  # (older, newer): the older shares the value left or the thing's noun, not the slot
    ("OVH support answers within 24 hours.", "We migrated the website from OVH to Scaleway."),
    ("We have a contract with OVH for domain names.", "We migrated the website from OVH to Scaleway."),
    ("The website shows prices in euros.", "We migrated the website from OVH to Scaleway."),
    ("The website shows prices in euros.", "Migrated the website from OVH to Scaleway."),
    ("Le support OVH répond en 24 heures.", "Nous avons migré le site web d'OVH vers Scaleway."),
    ("Nous avons un contrat avec OVH pour les noms de domaine.", "Nous avons migré le site web d'OVH vers Scaleway."),
    ("Le site web affiche les prix en euros.", "Nous avons migré le site web d'OVH vers Scaleway."),
    ("Der OVH-Support antwortet innerhalb von 24 Stunden.", "Wir haben die Website von OVH zu Scaleway migriert."),
    ("Wir haben einen Vertrag mit OVH für Domainnamen.", "Wir haben die Website von OVH zu Scaleway migriert."),
    ("Die Website zeigt Preise in Euro.", "Wir haben die Website von OVH zu Scaleway migriert."),
    ("El soporte de OVH responde en 24 horas.", "Migramos el sitio web de OVH a Scaleway."),
    ("Jira sends a digest every morning.", "We moved our tickets from Jira to Linear."),
]
CHANGED = [  # (older, newer): the same changes, of a value the older holds in the slot of the thing moved
    ("The website is hosted at OVH.", "We migrated the website from OVH to Scaleway."),
    ("The website is hosted at OVH.", "Migrated the website from OVH to Scaleway."),
    ("Notre site web est hébergé chez OVH.", "Nous avons migré le site web d'OVH vers Scaleway."),
    ("Die Website wird bei OVH gehostet.", "Wir haben die Website von OVH zu Scaleway migriert."),
    ("El sitio web está alojado en OVH.", "Migramos el sitio web de OVH a Scaleway."),
    ("Our tickets are tracked in Jira.", "We moved our tickets from Jira to Linear."),
]


@pytest.mark.parametrize(("old", "new"), APART)
def test_a_change_sharing_one_name_or_noun_with_the_older_contradicts_nothing(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is None


@pytest.mark.parametrize(("old", "new"), CHANGED)
def test_the_same_change_of_the_older_slot_contradicts_it(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None


@pytest.mark.parametrize(("old", "new", "question"), [
    ("OVH support answers within 24 hours.", "We migrated the website from OVH to Scaleway.",
     "How fast does OVH support answer?"),
    ("Nous avons un contrat avec OVH pour les noms de domaine.", "Nous avons migré le site web d'OVH vers Scaleway.",
     "Chez qui sont nos noms de domaine ?"),
    ("Die Website zeigt Preise in Euro.", "Wir haben die Website von OVH zu Scaleway migriert.",
     "In welcher Währung zeigt die Website Preise?"),
])
def test_remember_and_recall_leave_the_older_alone(real_store: Store, old, new, question):
    assert_apart(real_store, old, new, question)


@pytest.mark.parametrize(("old", "new", "question"), [
    ("The website is hosted at OVH.", "We migrated the website from OVH to Scaleway.", "Where is the website hosted?"),
    ("Notre site web est hébergé chez OVH.", "Nous avons migré le site web d'OVH vers Scaleway.",
     "Où est hébergé le site web ?"),
])
def test_remember_and_recall_mark_the_older_of_the_slot_changed(real_store: Store, old, new, question):
    assert_outdates(real_store, old, new, question)
