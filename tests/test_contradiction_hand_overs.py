"""A role handed over ("Ownership of the API gateway went to Nils") changes the holder of the older's subject, an
acronym's ("API", "ETL", "SDK") as a word's, in English, German, French and Spanish (``contradiction_words.MOVES``);
a role over another thing, or a person going somewhere, changes nothing (issue 27 §2)."""

from __future__ import annotations

import pytest
from stores import assert_outdates, flagged

from memvault.storage.store import Store

HANDED = [  # (older, newer)
    ("The API gateway is owned by Priya", "Ownership of the API gateway went to Nils"),
    ("The ETL job is owned by Priya", "Ownership of the ETL job went to Nils"),
    ("The CI pipeline is owned by Priya", "Ownership of the CI pipeline went to Nils"),
    ("The SDK is maintained by Omar", "Maintainership of the SDK passed to Lena"),
    ("Helix is maintained by Omar", "Maintainership of Helix passed to Lena"),
    ("The billing service is owned by Priya", "Ownership of the billing service went to Nils"),
    ("The incident commander is Lena", "Lena handed incident command to Raj"),
    ("Die Rufbereitschaft für das Zahlungssystem hat Priya",
     "Die Rufbereitschaft für das Zahlungssystem ging an Nils"),
    ("Die Zuständigkeit für das API-Gateway liegt bei Priya",
     "Die Zuständigkeit für das API-Gateway wurde an Nils übertragen"),
    ("Die Datenbank läuft auf db-03", "Die Datenbank wurde auf db-07 übertragen"),
    ("La responsabilité de la passerelle API est à Priya",
     "La responsabilité de la passerelle API est passée à Nils"),
    ("La base de données est sur db-03", "La base de données a été transférée vers db-07"),
    ("La responsabilidad del API gateway es de Priya", "La responsabilidad del API gateway pasó a Nils"),
    ("La guardia del sistema de pagos la tiene Priya", "La guardia del sistema de pagos fue entregada a Nils"),
    ("La base de datos está en db-03", "La base de datos fue transferida a db-07"),
]
APART = [  # (older, newer): a role over another thing, a person going somewhere
    ("The API gateway is owned by Priya", "Ownership of the API docs went to Nils"),
    ("The API gateway is owned by Priya", "The API docs are now owned by Nils"),
    ("The SDK is maintained by Omar", "Maintainership of the CLI passed to Lena"),
    ("The API gateway talks to Postgres", "The admin UI now talks to Postgres through the API gateway"),
    ("Priya leitet das Plattform-Team", "Priya ging nach Berlin"),
    ("Priya dirige l'équipe plateforme", "Priya est passée à Lyon"),
    ("Priya dirige el equipo de plataforma", "Priya pasó a Madrid"),
]


@pytest.mark.parametrize(("old", "new"), HANDED)
def test_a_role_handed_over_contradicts_the_older_holder(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None


@pytest.mark.parametrize(("old", "new"), APART)
def test_a_role_over_another_thing_or_a_person_going_somewhere_contradicts_nothing(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is None


@pytest.mark.parametrize(("old", "new", "question"), [
    ("The API gateway is owned by Priya", "Ownership of the API gateway went to Nils", "Who owns the API gateway?"),
    ("La responsabilidad del API gateway es de Priya", "La responsabilidad del API gateway pasó a Nils",
     "¿Quién es responsable del API gateway?"),
])
def test_recall_puts_the_new_holder_first_and_marks_the_older(real_store: Store, old, new, question):
    assert_outdates(real_store, old, new, question)
