"""A change from one value to another of a thing it names apart from them ("We migrated the website from OVH to
Scaleway") acts only on a memory holding the value it left in a slot ("The website is hosted on OVH", "We host on
OVH", "Our code is hosted on GitHub" beside "... the repo from GitHub to GitLab") or as its subject beside the thing
("OVH hosts the website"), or naming the thing beside a value of their kind other than a name; one shared name as the
older's subject ("OVH support answers within 24 hours") or the thing's noun alone ("Le site web utilise React") is no
slot of it (``contradiction_things.moves_another``). A change naming no thing apart from its values ("Upgraded
Traefik v2 to v3") moves its subject and still acts on any memory of it.
French "d'OVH vers Scaleway" is read as "de OVH vers ...", whose "d'Alice" stays a word ("Bob a repris l'équipe
paiements d'Alice"). Word tests at the packaged model's cosine, then remember and recall on each backend."""

from __future__ import annotations

import pytest
from stores import assert_apart, assert_outdates, flagged

from memvault.storage.contradiction_reading import _read
from memvault.storage.store import Store

pytestmark = pytest.mark.contract

MIGRATED = "We migrated the website from OVH to Scaleway."
MIGRE = "Nous avons migré le site web d'OVH vers Scaleway."
MIGRIERT = "Wir haben die Website von OVH zu Scaleway migriert."

APART = [  # (older, newer): one shared name or the thing's noun, no slot of the change
    ("OVH support answers within 24 hours.", MIGRATED),
    ("OVH bills us on the first of the month.", MIGRATED),
    ("Our OVH account is managed by Lena.", MIGRATED),
    ("The website shows prices in euros.", MIGRATED),
    ("The website uses React.", MIGRATED),
    ("Le site web affiche les prix en euros.", MIGRE),
    ("Le site web utilise React.", MIGRE),
    ("Le support d'OVH répond en 24 heures.", MIGRE),
    ("OVH nous facture le premier du mois.", MIGRE),
    ("Der OVH-Support antwortet innerhalb von 24 Stunden.", MIGRIERT),
    ("Die Website zeigt Preise in Euro.", MIGRIERT),
    ("Die Website nutzt React.", MIGRIERT),
    ("Jira sends a digest every morning.", "We moved our tickets from Jira to Linear."),
    ("GitHub sends us an invoice every month.", "We moved the repository from GitHub to GitLab."),
    ("Le wiki utilise Markdown.", "Nous avons migré le wiki de Confluence vers Notion."),
    ("El sitio web usa React.", "Migramos el sitio web de OVH a Scaleway."),
    ("REST endpoints are documented in Swagger.", "We switched the API from REST to GraphQL."),
]
CHANGED = [  # (older, newer): the value left held in the thing's slot, or a change of its subject
    ("The website is hosted on OVH.", MIGRATED),
    ("We host on OVH.", MIGRATED),
    ("OVH hosts the website.", MIGRATED),
    ("Notre site web est hébergé chez OVH.", MIGRE),
    ("Le site web est chez OVH.", MIGRE),
    ("Die Website wird bei OVH gehostet.", MIGRIERT),
    ("Our tickets are tracked in Jira.", "We moved our tickets from Jira to Linear."),
    ("We use REST for the API.", "We switched the API from REST to GraphQL."),
    ("El sitio web está alojado en OVH.", "Migramos el sitio web de OVH a Scaleway."),
    ("The standup is at 9:30.", "We moved the standup from 9:15 to 10:00."),
    ("Traefik v2 is the ingress.", "Upgraded Traefik v2 to v3."),
    ("We use Jenkins for CI.", "Switched from Jenkins to GitHub Actions."),
    ("Alice dirige l'équipe paiements.", "Bob a repris l'équipe paiements d'Alice."),
    ("Le bureau est à Lyon", "Nous avons déménagé le bureau de Lyon à Bordeaux"),
    ("Die Datenbank läuft auf MySQL", "Wir haben die Datenbank von MySQL auf Postgres migriert"),
]


@pytest.mark.parametrize(("text", "left", "went"), [
    (MIGRE, {"ovh"}, {"scaleway"}),
    ("Nous avons déménagé le site d'OVH à Scaleway.", {"ovh"}, {"scaleway"}),
    ("Bob a repris l'équipe paiements d'Alice.", set(), set()),
    ("Le support d'OVH répond en 24 heures.", set(), set()),
])
def test_french_de_joined_to_a_name_reads_as_whence_only_before_where_a_change_goes(text, left, went):
    read = _read(text)
    assert (set(read.left), set(read.targets)) == (left, went)


@pytest.mark.parametrize(("old", "new"), APART)
def test_a_change_sharing_one_name_or_the_thing_alone_contradicts_nothing(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is None


@pytest.mark.parametrize(("old", "new"), CHANGED)
def test_a_change_of_the_slot_or_of_the_subject_still_contradicts(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None


@pytest.mark.parametrize(("old", "new", "question"), [
    ("OVH support answers within 24 hours.", MIGRATED, "How fast does OVH support answer?"),
    ("Le support d'OVH répond en 24 heures.", MIGRE, "En combien de temps le support d'OVH répond-il ?"),
    ("Le site web utilise React.", MIGRE, "Quel framework utilise le site web ?"),
])
def test_remember_and_recall_leave_the_older_alone(real_store: Store, old, new, question):
    assert_apart(real_store, old, new, question)


@pytest.mark.parametrize(("old", "new", "question"), [
    ("The website is hosted on OVH.", MIGRATED, "Where is the website hosted?"),
    ("Notre site web est hébergé chez OVH.", MIGRE, "Où est hébergé le site web ?"),
    ("Traefik v2 is the ingress.", "Upgraded Traefik v2 to v3.", "Which Traefik version is the ingress?"),
])
def test_remember_and_recall_mark_the_older_of_the_slot_changed(real_store: Store, old, new, question):
    assert_outdates(real_store, old, new, question)
