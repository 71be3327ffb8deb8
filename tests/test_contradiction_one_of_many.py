"""A verb whose object is one of many ("likes", "plays", "speaks", "mag", "aime", "gusta" ...) holds for both objects:
two such memories both stand, neither outdates the other; an attribute with one value at a time (where one lives,
the tool for CI, a port, a preference between alternatives) still changes (new-user trial 79 S8:
``contradiction_reading.ADDING``)."""

from __future__ import annotations

import pytest
from stores import assert_apart, pair_recalled

from memvault.storage.store import Store

BOTH_HOLD = [  # (older, newer)
    ("Alice likes tea", "Alice likes biscuits"),
    ("The team likes pizza", "The team likes sushi"),
    ("Kim plays guitar", "Kim plays piano"),
    ("Marie aime le café", "Marie aime les croissants"),
    ("Anna mag Tee", "Anna mag Kekse"),
    ("A Ana gosta de chá", "A Ana gosta de biscoitos"),
    ("Ben loves jazz", "Ben loves opera"),
    ("Mia eats fish", "Mia eats chicken"),
    ("Leo watches football", "Leo watches tennis"),
    ("Nina reads novels", "Nina reads poetry"),
    ("Alice likes green tea", "Alice likes black tea"),
    ("Tom spielt Schach", "Tom spielt Tennis"),
    ("Lukas isst gern Pizza", "Lukas isst gern Sushi"),
    ("Paul joue du piano", "Paul joue de la guitare"),
    ("Pierre parle anglais", "Pierre parle espagnol"),
    ("A Carlos le gusta el fútbol", "A Carlos le gusta el tenis"),
    ("Lucía juega al tenis", "Lucía juega al pádel"),
]
ONE_AT_A_TIME = [  # (older, newer): still a change
    ("Alice lives in Lyon", "Alice lives in Bordeaux"),
    ("We use Jenkins for CI", "We use CircleCI for CI"),
    ("The API is hosted on Heroku", "The API is hosted on Fly"),
    ("The port is 8080", "The port is 9090"),
    ("Priya drinks tea in the morning", "Priya drinks coffee in the morning"),
    ("Alice likes tea", "Alice hates tea"),
    ("Alice likes tea", "Alice no longer likes tea"),
    ("Paul prefers vim", "Paul prefers emacs"),
    # a preference between two named things is read as a choice of one: docs/how-memory-works.md#contradictions
    ("Ana prefiere el té", "Ana prefiere las galletas"),
    ("The worker reads jobs from Redis", "The worker reads jobs from RabbitMQ"),
    ("Kim plays guitar on Fridays", "Kim plays guitar on Mondays"),
    ("Marie habite à Lyon", "Marie habite à Bordeaux"),
    ("Anna wohnt in Berlin", "Anna wohnt in Hamburg"),
]


@pytest.mark.parametrize(("old", "new"), BOTH_HOLD)
def test_a_second_object_of_a_verb_of_many_outdates_nothing(real_store: Store, old, new):
    assert_apart(real_store, old, new, old)


@pytest.mark.parametrize(("old", "new"), ONE_AT_A_TIME)
def test_another_value_of_an_attribute_of_one_value_is_a_change(real_store: Store, old, new):
    older, newer, _ = pair_recalled(real_store, old, new, old)
    assert [i for i, _ in newer.contradicts] == [older]


@pytest.mark.parametrize(("old", "new", "question"), [
    ("Alice likes tea", "Alice likes biscuits", "what does Alice like?"),
    ("Marie aime le café", "Marie aime les croissants", "Qu'est-ce que Marie aime ?"),
])
def test_recall_marks_neither_object_of_a_verb_of_many_outdated(real_store: Store, old, new, question):
    older, newer, hits = pair_recalled(real_store, old, new, question)
    assert set(hits) == {older, newer.id} and set(hits.values()) == {None}


@pytest.mark.parametrize(("old", "new", "question"), [
    ("Alice lives in Lyon", "Alice lives in Bordeaux", "where does Alice live?"),
    ("The API is hosted on Heroku", "The API is hosted on Fly", "where is the API hosted?"),
])
def test_recall_marks_the_older_value_of_an_attribute_of_one_value(real_store: Store, old, new, question):
    older, newer, hits = pair_recalled(real_store, old, new, question)
    assert next(iter(hits)) == newer.id and hits[older] == newer.id
