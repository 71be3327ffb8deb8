"""A change "from A to B" or "A replaced by B" said in German, French or Spanish ("von ... zu/auf/nach", "de ... à/a",
"remplacé ... par", "durch ... ersetzt", "sustituido por", "umgestiegen", "passés de", "migriert") outdates the older
memory holding A as "We moved CI from Jenkins to GitHub Actions" does in English; a move of another thing, or a person
going somewhere, outdates nothing (new-user trial 79 S7: ``contradiction_words.MOVES``, ``REPLACING``)."""

from __future__ import annotations

import pytest
from stores import assert_apart, pair_recalled

from memvault.storage.store import Store

CHANGED = [  # (older, newer)
    ("Wir nutzen Jenkins für CI", "Wir sind von Jenkins zu GitHub Actions umgestiegen"),
    ("Wir nutzen Jenkins für CI", "Wir haben CI von Jenkins auf GitHub Actions umgestellt"),
    ("Nous utilisons Jenkins pour la CI", "Nous sommes passés de Jenkins à GitHub Actions pour la CI"),
    ("Nous utilisons Jenkins pour la CI", "Nous avons remplacé Jenkins par GitHub Actions"),
    ("Le bureau est à Lyon", "Le bureau a déménagé de Lyon à Bordeaux"),
    ("Unsere CI läuft auf Jenkins", "Wir sind von Jenkins zu GitHub Actions gewechselt"),
    ("Unsere CI läuft auf Jenkins", "Jenkins wurde durch GitHub Actions ersetzt"),
    ("Wir nutzen Jenkins für CI", "Wir haben Jenkins durch GitHub Actions ersetzt"),
    ("Wir nutzen Jenkins für CI", "Die CI wurde von Jenkins nach GitHub Actions migriert"),
    ("Das Büro ist in München", "Das Büro ist von München nach Berlin umgezogen"),
    ("Die Datenbank läuft auf MySQL", "Wir haben die Datenbank von MySQL auf Postgres migriert"),
    ("Nous utilisons Jenkins pour la CI", "Nous avons migré la CI de Jenkins vers GitHub Actions"),
    ("La base de données est MySQL", "Nous avons migré la base de données de MySQL à Postgres"),
    ("Le bureau est à Lyon", "Nous avons déménagé le bureau de Lyon à Bordeaux"),
    ("Usamos Jenkins para CI", "Pasamos de Jenkins a GitHub Actions para CI"),
    ("Usamos Jenkins para CI", "Jenkins fue sustituido por GitHub Actions"),
    ("Usamos Jenkins para CI", "Migramos la CI de Jenkins a GitHub Actions"),
    ("Usamos Jenkins para CI", "Reemplazamos Jenkins por GitHub Actions"),
    ("La oficina está en Madrid", "La oficina se trasladó de Madrid a Sevilla"),
]
APART = [  # (older, newer): another thing moved, a person going somewhere
    ("Nous utilisons Jenkins pour la CI", "Nous avons migré le wiki de Confluence vers Notion"),
    ("Usamos Jenkins para CI", "Migramos el wiki de Confluence a Notion"),
    ("Wir nutzen Jenkins für CI", "Wir sind von Berlin nach Hamburg umgezogen"),
    ("Das Büro ist in München", "Das Lager ist von Köln nach Bonn umgezogen"),
    ("La oficina está en Madrid", "El almacén se trasladó de Toledo a Sevilla"),
    ("Le bureau est à Lyon", "Marie est passée de Lyon à Bordeaux"),
    ("Priya dirige l'équipe plateforme", "Priya est passée à Lyon"),
    ("Marie aime le café", "Marie est passée du café au thé"),
    ("Anne de Vries leitet das Marketing", "Anne de Vries leitet auch den Vertrieb"),
]


@pytest.mark.parametrize(("old", "new"), CHANGED)
def test_a_change_from_one_value_to_another_contradicts_the_older_in_every_language(real_store: Store, old, new):
    older, newer, _ = pair_recalled(real_store, old, new, old)
    assert [i for i, _ in newer.contradicts] == [older]


@pytest.mark.parametrize(("old", "new"), APART)
def test_a_move_of_another_thing_contradicts_nothing(real_store: Store, old, new):
    assert_apart(real_store, old, new, old)


@pytest.mark.parametrize(("old", "new", "question"), [
    ("Le bureau est à Lyon", "Le bureau a déménagé de Lyon à Bordeaux", "Où est le bureau ?"),
    ("Wir nutzen Jenkins für CI", "Wir sind von Jenkins zu GitHub Actions umgestiegen", "Welches CI nutzen wir?"),
    ("Usamos Jenkins para CI", "Migramos la CI de Jenkins a GitHub Actions", "¿Qué usamos para CI?"),
])
def test_recall_puts_the_change_first_and_marks_the_older(real_store: Store, old, new, question):
    older, newer, hits = pair_recalled(real_store, old, new, question)
    assert next(iter(hits)) == newer.id and hits[older] == newer.id
