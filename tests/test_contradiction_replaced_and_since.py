"""A name ended for another in a frame the older shares ("We ditched Jenkins for CircleCI" after "We use Jenkins for
CI": the end's own words are no rewording), and an end after an event opening the statement ("Since the migration we
no longer deploy on Fridays": read without it, as a time opening it is) contradict the older; an end of another name,
or an event beside no end, do not (issue 27 §2). Word tests at the packaged model's cosine, then remember and recall on
each backend."""

from __future__ import annotations

import pytest
from stores import assert_outdates, flagged, pair_recalled

from memvault.storage.dating import split
from memvault.storage.store import Store

pytestmark = pytest.mark.contract

REPLACED = [  # (older, newer): the newer ends the older's name, or its practice after an event
    ("We use Jenkins for CI", "We ditched Jenkins for CircleCI"),
    ("We use Jenkins for CI", "We dropped Jenkins for Buildkite"),
    ("We use Poetry for packaging", "We ditched Poetry for uv"),
    ("We use Datadog for monitoring", "We abandoned Datadog for Grafana"),
    ("We use Jenkins for CI", "We moved from Jenkins to GitHub Actions"),
    ("We use Jenkins for CI", "We replaced Jenkins with CircleCI"),
    ("We deploy on Fridays", "Since the migration we no longer deploy on Fridays"),
    ("We deploy on Fridays", "After the outage we no longer deploy on Fridays"),
    ("We deploy on Fridays", "Following the incident we stopped deploying on Fridays"),
    ("We deploy on Fridays", "Since the reorg we don't deploy on Fridays anymore"),
    ("Nous déployons le vendredi", "Depuis la migration nous ne déployons plus le vendredi"),
]
APART = [  # (older, newer): another name ended, an event beside no end
    ("We use Jenkins for CI", "We ditched CircleCI for Buildkite"),
    ("We use Jenkins for CI", "We ditched Travis for CircleCI"),
    ("We use Jenkins for CI", "We use CircleCI for mobile builds"),
    ("We deploy on Fridays", "Since the migration we deploy on Mondays too"),
    ("We deploy on Fridays", "After the outage we deployed a fix"),
]


@pytest.mark.parametrize(("old", "new"), REPLACED)
def test_an_end_for_another_name_or_after_an_event_contradicts_the_older(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None


@pytest.mark.parametrize(("old", "new"), APART)
def test_another_names_end_or_an_event_alone_contradicts_nothing(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is None


@pytest.mark.parametrize(("text", "event", "rest"), [
    ("Since the migration we no longer deploy on Fridays", "Since the migration", "we no longer deploy on Fridays"),
    ("After the big outage we added alerts", "After the big outage", "we added alerts"),
    ("Depuis la migration nous déployons le lundi", "Depuis la migration", "nous déployons le lundi"),
    ("Since we moved we walk more", "", "Since we moved we walk more"),  # no determiner: a clause, no event
    ("After lunch we review PRs", "", "After lunch we review PRs"),
])
def test_an_event_opening_a_statement_before_its_pronoun_is_split_off(text, event, rest):
    assert split(text) == (event, rest)


@pytest.mark.parametrize(("old", "new", "question"), [
    # the slot the ended name held ("for CI") is no value only the older holds for a question naming it
    ("We use Jenkins for CI", "We ditched Jenkins for CircleCI", "What do we use for CI?"),
    ("We use Jenkins for CI", "We retired Jenkins", "What do we use for CI?"),
    ("We use Jenkins for CI", "We moved from Jenkins to GitHub Actions", "What do we use for CI?"),
    ("We deploy on Fridays", "Since the migration we no longer deploy on Fridays", "Do we deploy on Fridays?"),
])
def test_remember_names_the_older_and_recall_marks_it(real_store: Store, old, new, question):
    assert_outdates(real_store, old, new, question, newer_first=False)


def test_recall_keeps_the_part_of_the_older_the_end_leaves(real_store: Store):
    older, newer, hits = pair_recalled(real_store, "Staging runs Postgres 15 and production runs MySQL",
                                       "We retired MySQL", "Which Postgres version does staging run?")
    assert hits.get(older, "absent") is None
