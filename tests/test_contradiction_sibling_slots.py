"""One word of a closed set for another (an environment, a platform, a tier: "staging" / "production") beside another
difference names a sibling, not a change of one subject, whatever change words the newer says ("Deploys to staging
happen on Monday" / "Deploys to production now happen on Thursday"); alone, it is the value changed ("The flag is
now enabled in production"). ``siblings.alternatives``, ``contradiction.judge``; issue 27 §3. Word tests at the
packaged model's cosine, then remember and recall on each backend."""

from __future__ import annotations

import pytest
from stores import assert_apart, assert_outdates, flagged

from memvault.storage.store import Store

pytestmark = pytest.mark.contract

SIBLINGS = [  # (one, another): two subjects, read either way
    ("Deploys to staging happen on Monday.", "Deploys to production now happen on Thursday."),
    ("The staging database runs PostgreSQL 15.", "The production database now runs PostgreSQL 16."),
    ("The web app is released on Mondays.", "The mobile app is now released on Fridays."),
    ("Free plan customers get 5 projects.", "Pro plan customers now get 50 projects."),
    ("Le déploiement en staging a lieu le lundi.", "Le déploiement en production a désormais lieu le jeudi."),
    ("Deployments auf Staging finden montags statt.", "Deployments auf Produktion finden jetzt donnerstags statt."),
    ("Los despliegues en staging son los lunes.", "Los despliegues en producción son ahora los jueves."),
]
CHANGED = [  # (older, newer): the environment is the value changed, or the same environment's value
    ("The feature flag is enabled in staging.", "The feature flag is now enabled in production."),
    ("Deploys to production happen on Tuesday.", "Deploys to production now happen on Thursday."),
    ("Le déploiement en production a lieu le mardi.", "Le déploiement en production a désormais lieu le jeudi."),
]


@pytest.mark.parametrize(("one", "another"), SIBLINGS)
def test_a_sibling_of_a_closed_set_beside_another_difference_contradicts_nothing(real_embedder, one, another):
    assert flagged(real_embedder, one, another) is None
    assert flagged(real_embedder, another, one) is None


@pytest.mark.parametrize(("old", "new"), CHANGED)
def test_the_same_subject_or_the_environment_itself_changed_still_contradicts(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None


def test_recall_leaves_the_staging_memory_unmarked_and_marks_the_older_production_one(real_store: Store):
    tuesday = real_store.remember(tenant="t", scope="p", content="Deploys to production happen on Tuesday.",
                                  observed_at="2026-02-01T10:00:00Z").id
    thursday = real_store.remember(tenant="t", scope="p", content="Deploys to production now happen on Thursday.",
                                   observed_at="2026-08-01T10:00:00Z")
    monday = real_store.remember(tenant="t", scope="p", content="Deploys to staging happen on Monday.",
                                 observed_at="2026-09-01T10:00:00Z")
    assert [i for i, _ in thursday.contradicts] == [tuesday] and monday.contradicts == ()
    hits = {h.memory.id: h.outdated_by for h in real_store.recall(tenant="t", query="When do deploys happen?",
                                                                   scopes=["p"], limit=5).hits}
    assert hits[monday.id] is None and hits[thursday.id] is None and hits[tuesday] == thursday.id
    staging = real_store.recall(tenant="t", query="When do deploys to staging happen?", scopes=["p"]).hits
    assert staging[0].memory.id == monday.id and staging[0].outdated_by is None


@pytest.mark.parametrize(("old", "new", "question"), [
    ("Deploys to staging happen on Monday.", "Deploys to production now happen on Thursday.",
     "When do deploys to staging happen?"),
    ("Le déploiement en staging a lieu le lundi.", "Le déploiement en production a désormais lieu le jeudi.",
     "Quand a lieu le déploiement en staging ?"),
])
def test_remember_and_recall_leave_the_sibling_alone(real_store: Store, old, new, question):
    assert_apart(real_store, old, new, question)


def test_the_environment_changed_is_still_marked(real_store: Store):
    assert_outdates(real_store, "The feature flag is enabled in staging.",
                    "The feature flag is now enabled in production.", "Where is the feature flag enabled?")
