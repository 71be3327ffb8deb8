""""gave up", "given up" (with or without "on") and "cease", "quits" before a verb's "-ing" end a practice as "stopped"
does ("We gave up running nightly builds" after "We run nightly builds"), and "gave up (using, on)" a name as "stopped
using" does; giving up another practice, or waiting, contradicts nothing, and the passive "were stopped" stays an event
(issue 27 §2). Word tests at the packaged model's cosine, then remember and recall on each backend."""

from __future__ import annotations

import pytest
from stores import assert_outdates, flagged

from memvault.storage.store import Store

pytestmark = pytest.mark.contract

GIVEN_UP = [  # (older, newer): the newer ends the older's practice or name
    ("We run nightly builds", "We gave up running nightly builds"),
    ("We run nightly builds", "We have given up running nightly builds"),
    ("We run nightly builds", "We gave up on running nightly builds"),
    ("I jog every morning", "I gave up jogging"),
    ("I drink coffee every morning", "I gave up drinking coffee"),
    ("The team does code reviews on Thursdays", "The team gave up doing code reviews on Thursdays"),
    ("We deploy on Fridays", "We cease deploying on Fridays"),
    ("We use Jenkins for CI", "We gave up using Jenkins"),
    ("We use Jenkins for CI", "We have given up on Jenkins"),
    ("Our CI runs on Jenkins", "We gave up on Jenkins"),
]
APART = [  # (older, newer): another practice or name given up, a wait given up, an event
    ("I jog every morning", "I gave up smoking"),
    ("We run nightly builds", "We gave up running weekly reports"),
    ("We run nightly builds", "I gave up waiting for the nightly build"),
    ("I jog every morning", "I gave up on the idea"),
    ("We use Jenkins for CI", "I gave up on CircleCI"),
    ("We back up laptops on Mondays", "Monday laptop backups were stopped"),
]


@pytest.mark.parametrize(("old", "new"), GIVEN_UP)
def test_giving_up_the_older_practice_or_name_contradicts_it(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None


@pytest.mark.parametrize(("old", "new"), APART)
def test_giving_up_something_else_contradicts_nothing(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is None


def test_remember_names_the_older_and_recall_marks_it(real_store: Store):
    assert_outdates(real_store, "We run nightly builds",
                    "We gave up running nightly builds", "Do we run nightly builds?", newer_first=False)
