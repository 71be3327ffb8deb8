"""A change that says where something went but not what it left ("Ownership of the API gateway went to Nils") is the
newer in meaning only over a memory holding a value it says it left: a statement stored after it ("The API gateway
is maintained by the security team for audits") is the newer of the two, not the state the change replaced
(``contradiction.newer_in_meaning``; issue 27 §4). Word tests, then remember and recall on each backend."""

from __future__ import annotations

import pytest

from memvault.storage.contradiction import newer_in_meaning
from memvault.storage.store import Store

pytestmark = pytest.mark.contract

LATER = [  # (a change naming no value it left, a later statement the change, read as newer, would contradict)
    ("Ownership of the API gateway went to Nils.", "The API gateway is maintained by the security team for audits."),
    ("Billing service ownership passed to Carol.", "The billing service is owned by the payments team."),
    ("The on-call rotation was handed to Priya.", "The on-call rotation is run by the infrastructure team."),
    ("La responsabilité de la passerelle API est passée à Nils.",
     "La passerelle API est maintenue par l'équipe sécurité pour les audits."),
    ("Die Zuständigkeit für das API-Gateway ging an Nils.", "Das API-Gateway wird vom Sicherheitsteam für Audits gepflegt."),
    ("El API gateway pasó a manos de Nils.", "El API gateway lo mantiene el equipo de seguridad."),
]
LEFT = [  # (a change naming what it left, a later statement of that value): the change stays the newer in meaning
    ("We moved CI from Jenkins to GitHub Actions.", "Our CI runs on Jenkins."),
    ("Ownership of the API gateway went from Anna to Nils.", "Anna owns the API gateway."),
    ("Nous sommes passés de Jenkins à GitHub Actions pour la CI.", "Nous utilisons Jenkins pour la CI."),
]


@pytest.mark.parametrize(("change", "later"), LATER)
def test_a_statement_stored_after_a_change_naming_no_value_it_left_is_the_newer(change, later):
    assert newer_in_meaning(later, change, True)
    assert not newer_in_meaning(change, later, False)


@pytest.mark.parametrize(("change", "later"), LEFT)
def test_a_statement_of_the_value_a_change_left_is_still_the_older_in_meaning(change, later):
    assert not newer_in_meaning(later, change, True)
    assert newer_in_meaning(change, later, False)


def test_recall_leaves_the_later_statement_unmarked_and_the_earlier_holder_marked(real_store: Store):
    said = [("The API gateway is maintained by the platform team.", "2026-02-01T09:00:00Z"),
            ("Ownership of the API gateway went to Nils.", "2026-08-01T09:00:00Z"),
            ("The API gateway is maintained by the security team for audits.", "2026-09-01T09:00:00Z")]
    platform, nils, security = (real_store.remember(tenant="t", scope="p", content=text, observed_at=at)
                                for text, at in said)
    assert [i for i, _ in nils.contradicts] == [platform.id] and security.contradicts == ()
    hits = {h.memory.id: h.outdated_by for h in real_store.recall(tenant="t", query="Who maintains the API gateway?",
                                                                   scopes=["p"], limit=5).hits}
    assert hits[security.id] is None and hits[nils.id] is None and hits[platform.id] == nils.id
