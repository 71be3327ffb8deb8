"""A qualified kind of a class of things ("hotfix deploys", "emergency deploys", "nightly builds", "les déploiements
correctifs") holding a value of its own is a sibling of the unqualified class ("deploys"), not a change of it,
whichever of the two is newer: the qualifier is no subject with "deploys" read as its verb
(``contradiction_things.qualified``). The class changed as such, or the kind changed as such, still contradicts, and
so does one thing named more fully ("The daily standup" / "Standup") and a change of the class as a whole beside a
kind holding no value ("Metrics dashboards are built by each team" / "Dashboards are now owned by the observability
team"). German compounds ("Hotfix-Deployments") are one word and stay apart too. Word tests at the packaged model's
cosine, then remember and recall on each backend."""

from __future__ import annotations

import pytest
from stores import assert_apart, assert_outdates, flagged

from memvault.storage.contradiction import disagreement
from memvault.storage.store import Store

pytestmark = pytest.mark.contract

THURSDAY = "Deploys to production now happen on Thursday."

APART = [  # (older, newer)
    ("Hotfix deploys to production happen on Friday.", THURSDAY),
    (THURSDAY, "Hotfix deploys to production happen on Friday."),
    ("Emergency deploys to production happen on Friday.", THURSDAY),
    ("Hotfix deploys happen on Friday.", "Deploys now happen on Thursday."),
    ("Deploys happen on Monday.", "Hotfix deploys now happen on Friday."),
    ("The hotfix deploys are on Friday.", "Deploys are now on Thursday."),
    ("Nightly builds run at 02:00.", "Builds now run at 03:00."),
    ("Release builds run at 02:00.", "Builds moved to 03:00."),
    ("Weekly backups start at 01:00.", "Backups now start at 03:00."),
    ("Les déploiements correctifs en production ont lieu le vendredi.",
     "Les déploiements en production ont maintenant lieu le jeudi."),
    ("Les déploiements d'urgence ont lieu le vendredi.", "Les déploiements ont maintenant lieu le jeudi."),
    ("Les builds nocturnes tournent à 02:00.", "Les builds tournent maintenant à 03:00."),
    ("Hotfix-Deployments in Produktion finden freitags statt.",
     "Deployments in Produktion finden jetzt donnerstags statt."),
    ("Notfall-Deployments finden freitags statt.", "Deployments finden jetzt donnerstags statt."),
]
CHANGED = [  # (older, newer)
    ("Deploys happen on Monday.", "Deploys now happen on Thursday."),
    ("Deploys to production happen on Monday.", THURSDAY),
    ("Builds run at 02:00.", "Builds now run at 03:00."),
    ("Nightly builds run at 02:00.", "Nightly builds now run at 03:00."),
    ("Hotfix deploys happen on Friday.", "Hotfix deploys now happen on Thursday."),
    ("Les déploiements ont lieu le lundi.", "Les déploiements ont maintenant lieu le jeudi."),
    ("Deployments finden montags statt.", "Deployments finden jetzt donnerstags statt."),
    ("The daily standup is at 9:15.", "The standup is now at 10:30."),
    ("The daily standup is at 9:15.", "Standup moved to 10:30."),
    ("The team standup is at 9:15 every morning.", "The standup moved to 10:00."),
]


@pytest.mark.parametrize(("old", "new"), APART)
def test_a_kind_of_a_class_beside_the_class_contradicts_nothing(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is None


@pytest.mark.parametrize(("old", "new"), CHANGED)
def test_the_class_or_the_kind_changed_as_such_contradicts(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None


def test_a_change_of_the_class_as_a_whole_is_read_as_one_of_the_kind_holding_no_value():
    # the packaged model puts this pair below the gate; the word test alone is what this is about
    assert disagreement("Metrics dashboards are built by each team.",
                        "Dashboards are now owned by the observability team.") == "change words: now"


@pytest.mark.parametrize(("old", "new", "question"), [
    ("Hotfix deploys to production happen on Friday.", THURSDAY, "When do hotfix deploys to production happen?"),
    ("Les déploiements correctifs en production ont lieu le vendredi.",
     "Les déploiements en production ont maintenant lieu le jeudi.", "Quand ont lieu les déploiements correctifs ?"),
])
def test_remember_and_recall_leave_the_kind_alone(real_store: Store, old, new, question):
    assert_apart(real_store, old, new, question)


@pytest.mark.parametrize(("old", "new", "question"), [
    ("Deploys to production happen on Monday.", THURSDAY, "When do deploys to production happen?"),
])
def test_remember_and_recall_mark_the_class_changed(real_store: Store, old, new, question):
    assert_outdates(real_store, old, new, question)
