"""German "kein(e, en ...) ... mehr" ends what it names as "nicht mehr" does ("Wir machen montags kein Planning mehr"
after "Wir machen montags Planning"), French "ne ... plus" ends a practice with its verb elided ("Nous n'envoyons
plus le rapport") as with "ne" written out, and Spanish "dejar de", French "arrêter de", "cesser de" before an
infinitive end it as "stopped deploying" does ("Dejamos de desplegar los viernes"); an end of another thing and "ne ...
que" (only) contradict nothing (issue 27 §2). Word tests at the packaged model's cosine, then remember and recall on each backend."""

from __future__ import annotations

import pytest
from stores import assert_outdates, flagged

from memvault.storage.store import Store

pytestmark = pytest.mark.contract

ENDED = [  # (older, newer): the newer says the older's practice or thing has ended
    ("Wir machen montags Planning", "Wir machen montags kein Planning mehr"),
    ("Wir machen montags Planning", "Wir machen montags kein Planning mehr, nur noch dienstags"),
    ("Wir schreiben jeden Freitag einen Bericht", "Wir schreiben keinen Bericht mehr"),
    ("Wir haben eine Retro jede Woche", "Wir haben keine Retro mehr"),
    ("Wir schicken jeden Montag einen Newsletter", "Wir schicken keinen wöchentlichen Newsletter mehr"),
    ("Wir nutzen Jenkins für CI", "Wir nutzen kein Jenkins mehr"),
    ("Nous envoyons le rapport chaque lundi", "Nous n'envoyons plus le rapport"),
    ("Nous organisons une démo chaque vendredi", "Nous n'organisons plus de démo"),
    ("Elle écrit un rapport chaque semaine", "Elle n'écrit plus de rapport"),
    ("Nous utilisons Jenkins", "Nous n’utilisons plus Jenkins"),
    ("Nous utilisons Jenkins", "Jenkins n'est plus utilisé"),
    ("Desplegamos los viernes", "Ya no desplegamos los viernes"),
    ("Enviamos el informe cada lunes", "Ya no enviamos el informe"),
    # "dejar de", "arrêter de", "cesser de" before an infinitive: "stopped deploying"
    ("Desplegamos los viernes", "Dejamos de desplegar los viernes"),
    ("Desplegamos los viernes", "Hemos dejado de desplegar los viernes"),
    ("Enviamos el informe cada lunes", "Dejamos de enviar el informe"),
    ("Hacemos retros cada sprint", "Dejamos de hacer retros"),
    ("Escribimos notas de versión", "Dejamos de escribir notas de versión"),
    ("Nous déployons le vendredi", "Nous avons arrêté de déployer le vendredi"),
    ("Nous envoyons le rapport chaque lundi", "Nous avons cessé d'envoyer le rapport"),
    ("Nous mangeons ensemble le vendredi", "Nous avons arrêté de manger ensemble le vendredi"),
]
APART = [  # (older, newer): another thing ended, or no end at all
    ("Wir machen montags Planning", "Wir haben keine Zeit mehr für Retros"),
    ("Wir nutzen Jenkins für CI", "Wir nutzen kein GitLab mehr"),
    ("Wir schreiben jeden Freitag einen Bericht", "Wir machen keine Retro mehr"),
    ("Nous envoyons le rapport chaque lundi", "Nous n'envoyons plus la facture"),
    ("Nous envoyons le rapport chaque lundi", "Nous n'envoyons le rapport que le lundi"),
    ("Nous faisons la démo chaque vendredi", "Nous ne faisons la démo que le vendredi"),
    ("Desplegamos los viernes", "Dejamos de desplegar los lunes"),
    ("Enviamos el informe cada lunes", "Dejamos de enviar la factura"),
    ("Nous déployons le vendredi", "Nous avons arrêté de tester le vendredi"),
    ("Dejamos las llaves en la oficina", "Dejamos de usar la oficina"),
]


@pytest.mark.parametrize(("old", "new"), ENDED)
def test_kein_mehr_and_an_elided_ne_plus_end_what_the_older_states(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None


@pytest.mark.parametrize(("old", "new"), APART)
def test_an_end_of_another_thing_or_ne_que_contradicts_nothing(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is None


@pytest.mark.parametrize(("old", "new", "question"), [
    ("Wir machen montags Planning", "Wir machen montags kein Planning mehr", "Machen wir montags Planning?"),
    ("Nous envoyons le rapport chaque lundi", "Nous n'envoyons plus le rapport", "Envoyons-nous le rapport ?"),
])
def test_remember_names_the_older_and_recall_marks_it(real_store: Store, old, new, question):
    assert_outdates(real_store, old, new, question, newer_first=False)
