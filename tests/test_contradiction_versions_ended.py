"""An end of a name's version ends that version, not the name, and only within its clause: "We dropped Node 16;
supports Node 18 and 20" contradicts "CI runs on Node 16", not "CI runs on Node 18"; "We dropped Jenkins; CI runs on
GitHub Actions" ends Jenkins, not CI (issue 27 §2)."""

from __future__ import annotations

import pytest
from stores import assert_outdates, flagged

from memvault.storage.contradiction import disagreement
from memvault.storage.store import Store

ENDED = [  # (older, newer)
    ("CI runs on Node 16", "We dropped Node 16; supports Node 18 and 20"),
    ("CI runs on Node 16", "We dropped Node 16; CI supports Node 18 and 20"),
    ("CI runs on Node 16", "We dropped Node 16 and now support Node 18 and 20"),
    ("CI runs on Node 16", "Node 16 was dropped; CI supports Node 18 and 20"),
    ("The service runs on Python 3.9", "We dropped Python 3.9; supports Python 3.11 and 3.12"),
    ("The service runs on Python 3.9", "Python 3.9 was retired; we support Python 3.11 and 3.12"),
    ("CI runs on Jenkins", "We dropped Jenkins; CI runs on GitHub Actions"),
    ("CI runs on Node 16", "We dropped Node 16"),
]
KEPT = [  # (older, newer): another version ended, or versions added
    ("CI runs on Node 18", "We dropped Node 16"),
    ("CI runs on Node 18", "Node 16 was dropped"),
    ("We test on Python 3.11 and 3.12", "We dropped Python 3.9"),
    ("The app supports iOS 16", "We dropped iOS 15 support"),
    ("CI runs on Node 16", "Supports Node 18 and 20"),
]


@pytest.mark.parametrize(("old", "new"), ENDED)
def test_an_end_of_the_version_the_older_holds_contradicts_it(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None


@pytest.mark.parametrize(("old", "new"), KEPT)
def test_an_end_of_another_version_contradicts_nothing(old, new):
    assert disagreement(old, new) is None


def test_recall_puts_the_end_first_and_marks_the_version_it_ended(real_store: Store):
    assert_outdates(real_store, "CI runs on Node 16",
                    "We dropped Node 16; supports Node 18 and 20", "Which Node version does CI run on?")
