"""An adjective of a recurring period, or its noun in another language ("mois", not the pronoun "moi"), is read as its
English noun ("the quarterly archiving" as "archiving every quarter"), so an end of a practice said with one contradicts
the older doing it every such period ("We stopped the quarterly archiving of old tickets" after "We archive old tickets
every quarter"), and an end beside another period than the older's does not ("We discontinued the monthly report"
after "We send a weekly report") (issue 27 §2). Word tests at the packaged model's cosine, then remember and recall on
each backend."""

from __future__ import annotations

import pytest
from stores import assert_outdates, flagged

from memvault.storage.store import Store

pytestmark = pytest.mark.contract

ENDED = [  # (older, newer): the newer ends the older's practice
    ("We archive old tickets quarterly", "We dropped the quarterly archiving of old tickets"),
    ("We archive old tickets every quarter", "We stopped the quarterly archiving of old tickets"),
    ("We send a weekly report", "We discontinued the weekly report"),
    ("We send a report every Monday", "We discontinued the weekly report"),
    ("We run a security scan every night", "We dropped the nightly security scan"),
    ("We run a backup every night", "We dropped the nightly backup"),
    ("We email the customers a newsletter every month", "We discontinued the monthly customer newsletter"),
    ("We publish a newsletter monthly", "We scrapped the monthly newsletter"),
    ("We clean the caches weekly", "We scrapped the weekly cache cleaning"),
]
APART = [  # (older, newer): another period, another practice
    ("We send a weekly report", "We discontinued the monthly report"),
    ("We send the report every week", "We discontinued the monthly report"),
    ("We send a weekly report", "We stopped sending the monthly report"),
    ("We run a backup every night", "We dropped the weekly backup"),
    ("We send a weekly report", "We discontinued the biweekly report"),
    ("We archive old tickets quarterly", "We dropped the quarterly review of old tickets"),
    ("We run a security scan every night", "We dropped the nightly backup"),
    ("We send a weekly report", "We dropped the weekly meeting"),
]


@pytest.mark.parametrize(("old", "new"), ENDED)
def test_an_end_said_with_the_period_adjective_contradicts_the_practice(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None


@pytest.mark.parametrize(("old", "new"), APART)
def test_an_end_in_another_period_or_of_another_practice_contradicts_nothing(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is None


def test_remember_names_the_older_and_recall_marks_it(real_store: Store):
    assert_outdates(real_store, "We archive old tickets every quarter",
                    "We stopped the quarterly archiving of old tickets", "Do we archive old tickets?", newer_first=False)


@pytest.mark.parametrize(("old", "new", "paired"), [
    # "mois" (month) dates the end as "last month" does; the pronoun "moi", of the same stem, is no time: the end
    # names someone the older does not
    ("Nous envoyons le rapport chaque lundi", "Nous n'envoyons plus le rapport depuis le mois dernier", True),
    ("Nous envoyons le rapport chaque lundi", "Nous n'envoyons plus le rapport depuis 2 mois", True),
    ("Nous envoyons le rapport chaque lundi", "Nous n'envoyons plus le rapport à moi", False),
    ("Wir schicken jeden Montag einen Bericht", "Wir schicken seit letzter Woche keinen Bericht mehr", True),
])
def test_a_period_noun_in_another_language_dates_an_end_and_moi_is_no_time(real_embedder, old, new, paired):
    assert (flagged(real_embedder, old, new) is not None) is paired
