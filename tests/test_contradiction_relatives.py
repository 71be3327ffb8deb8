"""A relative named through a person ("Marta's brother", "Jonas' Bruder", "le frère de Claire") is another person:
what a memory says of the relative changes nothing the other says of the person, in either order
(``contradiction_things.another_person``). Where both name the relative, or the relative is named beside the person
in the older, the words are compared as before. Word tests at the packaged model's cosine, then remember and recall on
each backend."""

from __future__ import annotations

import pytest
from stores import assert_apart, assert_outdates, flagged

from memvault.storage.store import Store

pytestmark = pytest.mark.contract

APART = [  # (older, newer): the person, then a relative of theirs (or the other way round)
    ("Marta lives in Lisbon.", "Marta's brother now lives in Berlin."),
    ("Marta's sister lives in Porto.", "Marta now lives in Berlin."),
    ("Tom works at Acme.", "Tom's wife now works at Globex."),
    ("Priya drives a Toyota.", "Priya's husband now drives a Tesla."),
    ("Sam's dog is 3 years old.", "Sam is 34 years old now."),
    ("Leo is allergic to nuts.", "Leo's son is now allergic to eggs."),
    ("Jonas wohnt in Hamburg.", "Jonas' Bruder wohnt jetzt in München."),
    ("Lena arbeitet bei Siemens.", "Die Schwester von Lena arbeitet jetzt bei Bosch."),
    ("Claire habite à Nantes.", "Le frère de Claire habite maintenant à Rennes."),
    ("Julien travaille chez Orange.", "La femme de Julien travaille maintenant chez Free."),
    ("Ana vive en Madrid.", "El hermano de Ana ahora vive en Sevilla."),
    ("Marco abita a Roma.", "La sorella di Marco ora abita a Milano."),
]
CHANGED = [  # (older, newer): one person throughout, or the relative named in both
    ("Marta lives in Lisbon.", "Marta now lives in Berlin."),
    ("Anna's daughter is 7.", "Anna's daughter is 8 now."),
    ("Marta's brother lives in Lisbon.", "Marta's brother now lives in Berlin."),
    ("Jonas' Bruder wohnt in Hamburg.", "Jonas' Bruder wohnt jetzt in München."),
    ("Le frère de Claire habite à Nantes.", "Le frère de Claire habite maintenant à Rennes."),
    ("Alice's manager is Bob.", "Alice's manager is now Carol."),
]


@pytest.mark.parametrize(("old", "new"), APART)
def test_a_relative_of_a_person_is_another_person(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is None


@pytest.mark.parametrize(("old", "new"), CHANGED)
def test_one_person_or_one_relative_still_contradicts(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None


@pytest.mark.parametrize(("old", "new", "question"), [
    ("Marta lives in Lisbon.", "Marta's brother now lives in Berlin.", "Where does Marta live?"),
    ("Claire habite à Nantes.", "Le frère de Claire habite maintenant à Rennes.", "Où habite Claire ?"),
])
def test_remember_and_recall_leave_the_person_alone(real_store: Store, old, new, question):
    assert_apart(real_store, old, new, question)


def test_remember_and_recall_mark_the_older_of_one_relative(real_store: Store):
    assert_outdates(real_store, "Marta's brother lives in Lisbon.", "Marta's brother now lives in Berlin.",
                    "Where does Marta's brother live?")
