"""An end of a practice ("We stopped deploying on Fridays", "quit", "ceased", "dropped Friday deploys", "Friday deploys
were discontinued") is read as "no longer" before the practice is ("We no longer deploy on Fridays", "We don't deploy
on Fridays anymore"), and contradicts the older memory doing it; an end of another practice, of the same one on
another day or for another thing ("stopped sending the monthly report" / "We send a weekly newsletter"), a pause, an
event and a stop along the way do not (issue 27 §2). Word tests at the packaged model's cosine, then remember and
recall on each backend."""

from __future__ import annotations

import pytest
from stores import assert_outdates, flagged

from memvault.storage.store import Store

pytestmark = pytest.mark.contract

PRACTICES = [  # (older, a practice's end): the newer contradicts the older
    ("We deploy on Fridays", "We stopped deploying on Fridays"),
    ("We deploy on Fridays", "We quit deploying on Fridays"),
    ("We deploy on Fridays", "We ceased deploying on Fridays"),
    ("We deploy on Fridays", "We have stopped deploying on Fridays"),
    ("We deploy on Fridays", "We dropped Friday deploys"),
    ("We deploy on Fridays", "Friday deploys were discontinued"),
    ("We deploy on Fridays", "We no longer deploy on Fridays"),
    ("We deploy on Fridays", "We don't deploy on Fridays anymore"),
    ("We ship a release every Monday", "We quit shipping releases on Mondays"),
    ("We review every pull request", "We stopped reviewing every pull request"),
    ("The team runs a retro every sprint", "We ceased running retros every sprint"),
    ("We write release notes for each version", "We stopped writing release notes"),
    ("We pair program on Tuesdays", "We dropped pair programming on Tuesdays"),
    ("We hold a demo every Friday", "Friday demos were discontinued"),
    ("We hold a demo every Friday", "The Friday demo was scrapped"),
    ("We send a weekly newsletter", "We discontinued the weekly newsletter"),
    ("We send a weekly newsletter", "The weekly newsletter was dropped"),
    ("We run load tests before each release", "We no longer run load tests before each release"),
    ("We run load tests before each release", "We don't run load tests before releases anymore"),
    ("I jog every morning", "I stopped jogging"),
    ("I drink coffee every morning", "I quit drinking coffee"),
    ("Maria takes the bus to work", "Maria stopped taking the bus to work"),
    ("We squash commits before merging", "We stopped squashing commits"),
    ("The team does code reviews on Thursdays", "The team stopped doing code reviews on Thursdays"),
    # "nicht mehr", "ne ... plus", "ya no"
    ("Wir deployen freitags", "Wir deployen freitags nicht mehr"),
    ("Wir schicken jeden Montag einen Newsletter", "Wir schicken den Newsletter nicht mehr"),
    ("Nous déployons le vendredi", "Nous ne déployons plus le vendredi"),
    ("Desplegamos los viernes", "Ya no desplegamos los viernes"),
]
APART = [  # (older, newer): another practice, another day, a pause, an event, a stop on the way, an addition
    ("We deploy on Fridays", "We deploy on Fridays again"),
    ("We deploy on Fridays", "We also deploy on Mondays"),
    ("We deploy on Fridays", "We stopped deploying on Mondays"),
    ("We deploy on Fridays", "We stopped deploying for the holidays"),
    ("We deploy on Fridays", "We stopped deploying until the freeze ends"),
    ("We deploy on Fridays", "The Friday deploy was stopped by an outage"),
    ("We deploy on Fridays", "We stopped writing release notes"),
    ("We deploy on Fridays", "We dropped the Friday retro"),
    ("We send a weekly newsletter", "We stopped sending the monthly report"),
    ("We send a weekly newsletter", "We no longer send the monthly report"),
    ("We send a weekly newsletter", "We don't send the monthly report anymore"),
    ("Maria takes the bus to work", "Maria stopped taking the train"),
    ("Maria takes the bus to work", "Maria no longer takes the train"),
    ("I jog every morning", "I stopped by the gym after work"),
    ("I drink coffee every morning", "I stopped for coffee on the way"),
    ("We review every pull request", "The review of the pull request stopped at the tests"),
    ("The build works on Linux", "The build stopped on Linux at step 3"),
    ("The standup is at 9:15", "The standup ended early today"),
    ("We use Jenkins for CI", "We stopped deploying on Fridays"),
    ("The app supports iOS 16", "We dropped iOS 15 support; the app supports iOS 16 and 17"),
]


@pytest.mark.parametrize(("old", "new"), PRACTICES)
def test_an_end_of_the_practice_the_older_states_contradicts_it(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None


@pytest.mark.parametrize(("old", "new"), APART)
def test_an_end_of_another_practice_a_pause_or_an_event_contradicts_nothing(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is None


@pytest.mark.parametrize(("old", "new", "question"), [
    ("We deploy on Fridays", "We stopped deploying on Fridays", "Do we deploy on Fridays?"),
    ("We send a weekly newsletter", "The weekly newsletter was dropped", "Do we send a newsletter?"),
])
def test_recall_puts_the_end_first_and_marks_the_practice(real_store: Store, old, new, question):
    assert_outdates(real_store, old, new, question)
