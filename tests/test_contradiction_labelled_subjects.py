"""Two subjects told apart by a name labelling a common noun ("Team Alpha" / "Team Beta", "Project Apollo" / "Project
Zeus", "Das Team Alpha", "L'équipe Alpha", "El equipo Alpha") are two subjects: a value one states contradicts
nothing the other does; the same labelled subject stating another value still does (issue 27 §2)."""

from __future__ import annotations

import pytest
from stores import flagged

pytestmark = pytest.mark.contract

APART = [  # (older, newer): two subjects
    ("Team Alpha deploys on Mondays", "Team Beta deploys on Thursdays"),
    ("Das Team Alpha deployt montags", "Das Team Beta deployt donnerstags"),
    ("L'équipe Alpha déploie le lundi", "L'équipe Beta déploie le jeudi"),
    ("El equipo Alpha despliega los lunes", "El equipo Beta despliega los jueves"),
    ("Project Apollo deploys on Mondays", "Project Zeus deploys on Thursdays"),
    ("Squad Red deploys on Mondays", "Squad Blue deploys on Thursdays"),
    ("Team Falcon ships on Tuesdays", "Team Eagle ships on Fridays"),
    ("Team Alpha releases on Mondays", "Team Gamma releases on Wednesdays"),
    ("Project Atlas deploys every Monday", "Project Hermes deploys every Friday"),
    ("Das Projekt Apollo deployt montags", "Das Projekt Zeus deployt freitags"),
    ("Le projet Apollo déploie le lundi", "Le projet Zeus déploie le vendredi"),
    ("El proyecto Apollo despliega los lunes", "El proyecto Zeus despliega los viernes"),
    ("The Alpha team deploys on Mondays", "The Beta team deploys on Thursdays"),
    ("Team Orion meets at 10:00", "Team Vega meets at 11:00"),
    ("Project Apollo deploys on Mondays", "Project Zeus deploys on Mondays"),
]
SAME = [  # (older, newer): one subject, another value
    ("Team Alpha deploys on Mondays", "Team Alpha deploys on Thursdays"),
    ("Das Team Alpha deployt montags", "Das Team Alpha deployt donnerstags"),
    ("Project Apollo ships on Mondays", "Project Apollo ships on Fridays"),
    ("Team Alpha deploys on Mondays", "Team Alpha no longer deploys on Mondays"),
    ("Squad Red deploys on Mondays", "Squad Red deploys on Fridays"),
    ("Team Falcon ships on Tuesdays", "Team Falcon ships on Fridays"),
    ("L'équipe Alpha déploie le lundi", "L'équipe Alpha déploie le jeudi"),
    ("El equipo Alpha despliega los lunes", "El equipo Alpha despliega los jueves"),
    ("Project Atlas deploys every Monday", "Project Atlas deploys every Friday"),
    ("Team Alpha releases on Mondays", "Team Alpha stopped releasing on Mondays"),
]


@pytest.mark.parametrize(("old", "new"), APART)
def test_a_value_of_another_labelled_subject_contradicts_nothing(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is None


@pytest.mark.parametrize(("old", "new"), SAME)
def test_another_value_of_the_same_labelled_subject_still_contradicts_it(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None
