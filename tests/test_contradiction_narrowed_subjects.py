"""A subject narrowed after its noun ("Le serveur de sauvegarde", "El servidor de copias", "The server of the backup
team") is another subject than the bare noun: their values are in two slots ("Le serveur de sauvegarde est à Dublin" /
"Le serveur est à Francfort"); the same subject changed still contradicts (issue 27 §2). Word tests at the packaged
model's cosine."""

from __future__ import annotations

import pytest
from stores import flagged

pytestmark = pytest.mark.contract

APART = [  # (older, newer), both ways: two subjects
    ("Le serveur de sauvegarde est à Dublin", "Le serveur est à Francfort"),
    ("Le serveur est à Francfort", "Le serveur de sauvegarde est à Dublin"),
    ("El servidor de copias está en Dublín", "El servidor está en Fráncfort"),
    ("The server of the backup team is in Dublin", "The server is in Frankfurt"),
    ("The backup server is in Dublin", "The server is in Frankfurt"),
    ("La réunion de lundi est à 10h", "La réunion est à 11h"),
]
CHANGED = [  # (older, newer): one subject, its value changed
    ("The server is in Frankfurt", "The server is in Dublin"),
    ("Le serveur est à Francfort", "Le serveur est désormais à Dublin"),
    ("Le serveur de sauvegarde est à Dublin", "Le serveur de sauvegarde est à Francfort"),
    ("El servidor está en Dublín", "El servidor está ahora en Fráncfort"),
    ("La réunion est à 10h", "La réunion est à 11h"),
]


@pytest.mark.parametrize(("old", "new"), APART)
def test_a_subject_narrowed_after_its_noun_is_another_subject(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is None


@pytest.mark.parametrize(("old", "new"), CHANGED)
def test_the_same_subject_changed_still_contradicts(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None
