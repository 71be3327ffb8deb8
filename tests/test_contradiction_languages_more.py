"""A hand-over said in the passive with a verb of giving ("The API gateway was handed to Nils", "La passerelle API
a été confiée à Nils"), into someone's hands ("pasó a manos de Nils"), with a holder's phrase ("Nils is now
responsible for", "est désormais responsable de", "se hizo cargo del"), or to a name the older says as someone else's
("Nils' colleague Anna owns ..."), and a "no longer" said after the verb in German and French ("Wir nutzen Jenkins
nicht mehr", "Nous n'utilisons plus Jenkins") contradict the older holder or use (``contradiction_words.MOVES``,
``HOLDING``, ``contradiction_ending``); two owners of two things, an end of another name or of a person's duty do
not (issue 27 §2, new-user trial72 T4, T5). Remember and recall on each backend."""

from __future__ import annotations

import pytest
from stores import assert_outdates

from memvault.storage.store import Store

pytestmark = pytest.mark.contract

FLAGGED = [  # (older, newer)
    ("Anna owns the API gateway", "The API gateway was handed to Nils"),
    ("Omar owns the billing service", "The billing service was handed to Lena"),
    ("Nils' colleague Anna owns the API gateway", "Ownership of the API gateway went to Nils"),
    ("James' manager Tom leads the platform team", "Leadership of the platform team went to James"),
    ("Anna owns the API gateway", "Nils is now responsible for the API gateway"),
    ("Anna owns the API gateway", "Nils took charge of the API gateway"),
    ("Anna owns the API gateway", "El API gateway pasó a manos de Nils"),
    ("Anna owns the API gateway", "Nils se hizo cargo del API gateway"),
    ("Anna est responsable de la passerelle API", "La passerelle API a été confiée à Nils"),
    ("Anna gère la passerelle API", "La passerelle API a été confiée à Nils"),
    ("Anna est responsable de la passerelle API", "Nils est désormais responsable de la passerelle API"),
    ("Anna est responsable de la passerelle API", "Nils a pris en charge la passerelle API"),
    ("Anna es responsable del API gateway", "El API gateway pasó a manos de Nils"),
    ("Anna es responsable del API gateway", "Nils se hizo cargo del API gateway"),
    ("Anna es responsable del API gateway", "Nils es ahora responsable del API gateway"),
    ("Anna es responsable del API gateway", "El API gateway fue entregado a Nils"),
    ("Anna ist verantwortlich für das API-Gateway", "Das API-Gateway wurde an Nils übergeben"),
    ("Wir nutzen Jenkins für CI", "Wir nutzen Jenkins nicht mehr"),
    ("Wir nutzen Jenkins für CI", "Jenkins wird nicht mehr für CI genutzt"),
    ("Wir nutzen Jenkins für CI", "Wir verwenden Jenkins nicht mehr"),
    ("Unsere Builds laufen auf Jenkins", "Jenkins wird nicht mehr genutzt"),
    ("Nous utilisons Jenkins pour la CI", "Nous n'utilisons plus Jenkins pour la CI"),
    ("Nous utilisons Jenkins pour la CI", "Jenkins n'est plus utilisé pour la CI"),
    ("Nous déployons avec Argo CD", "Nous n'utilisons plus Argo CD"),
    ("Usamos Jenkins para CI", "Ya no usamos Jenkins para CI"),
    ("We use Jenkins for CI", "We no longer use Jenkins"),
]
QUIET = [  # (older, newer): another thing held, another name ended, a person's duty, what the older says already
    ("Anna owns the API gateway", "Nils owns the billing service"),
    ("Anna est responsable de la passerelle API", "Nils est responsable de la facturation"),
    ("Anna es responsable del API gateway", "Nils se hizo cargo de la documentación"),
    ("Anna owns the API gateway", "The API docs were handed to Nils"),
    ("Anna owns the API gateway", "Nils is no longer on call"),
    ("Anna ist verantwortlich für das API-Gateway", "Nils ist nicht mehr in Rufbereitschaft"),
    ("Nils owns the API gateway", "Ownership of the API gateway went to Nils"),
    ("Anna est responsable de la passerelle API", "Anna est désormais responsable de la passerelle API"),
    ("Wir nutzen Jenkins für CI", "Wir nutzen Jenkins und GitHub Actions"),
    ("Wir nutzen Jenkins für CI", "Wir nutzen GitLab nicht mehr"),
    ("Wir nutzen Jenkins für Paketierung", "Jenkins wird nicht mehr für Skripte genutzt"),
    ("Nous utilisons Jenkins pour le packaging", "Nous n'utilisons plus Jenkins pour les scripts"),
    ("Nous utilisons Jenkins pour la CI", "Nous utilisons aussi GitHub Actions"),
    ("Nous utilisons Jenkins pour la CI", "Nous n'avons plus de budget pour la CI"),
]


def remembered(store: Store, old: str, new: str):  # type: ignore[no-untyped-def]
    """``old`` then ``new`` remembered in tenant ``t``, scope ``p``: (the older's id, the newer's remember result)."""
    older = store.remember(tenant="t", scope="p", content=old, observed_at="2026-03-01T10:00:00Z").id
    return older, store.remember(tenant="t", scope="p", content=new, observed_at="2026-10-01T10:00:00Z")


@pytest.mark.parametrize(("old", "new"), FLAGGED)
def test_a_hand_over_or_an_end_in_another_language_contradicts_the_older(real_store: Store, old, new):
    older, newer = remembered(real_store, old, new)
    assert newer.created and [i for i, _ in newer.contradicts] == [older]


@pytest.mark.parametrize(("old", "new"), QUIET)
def test_another_thing_held_or_another_name_ended_contradicts_nothing(real_store: Store, old, new):
    _, newer = remembered(real_store, old, new)
    assert newer.created and newer.contradicts == ()


@pytest.mark.parametrize(("old", "new", "question"), [
    ("Anna owns the API gateway", "The API gateway was handed to Nils", "Who owns the API gateway?"),
    ("Nous utilisons Jenkins pour la CI", "Nous n'utilisons plus Jenkins pour la CI", "Jenkins pour la CI ?"),
])
def test_recall_puts_the_newer_first_and_marks_the_older(real_store: Store, old, new, question):
    assert_outdates(real_store, old, new, question)
