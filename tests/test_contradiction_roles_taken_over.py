"""A role handed from one person to another ("took over X from Y", "replaced Y as", "übernahm ... von", "a remplacé ...
à la tête de", "sustituyó a ... como") outdates the older holder where the thing is named a little differently (a head
noun added or dropped: "payments" / "the payments team"), and whom it was taken from is no part of what is held; a
role over another thing outdates nothing (new-user trial 79 S6: ``contradiction_reading._taken_from``,
``contradiction_compare._headless``, ``contradiction_words.TAKING``)."""

from __future__ import annotations

import pytest
from stores import assert_apart, pair_recalled

from memvault.storage.consolidate import consolidate
from memvault.storage.store import Store

TAKEN_OVER = [  # (older, newer)
    ("Alice leads the payments team", "Bob took over payments from Alice"),
    ("Alice leads the payments team", "Bob took over as lead of the payments team from Alice"),
    ("Alice leads payments", "Bob took over the payments team from Alice"),
    ("Rosa manages the billing service", "Karim took over billing from Rosa"),
    ("Jonas owns the search service", "Priya took over search from Jonas"),
    ("Marta leads the mobile app", "Oskar took over mobile from Marta"),
    ("Ana runs the data team", "Ben took over data from Ana"),
    ("Alice leads the payments team", "Bob replaced Alice as head of payments"),
    ("Frau Müller leitet das Marketing", "Herr Schmidt hat das Marketing von Frau Müller übernommen"),
    ("Anna leitet das Payments-Team", "Bob übernahm das Payments-Team von Anna"),
    ("Alice dirige l'équipe paiements", "Bob a remplacé Alice à la tête de l'équipe paiements"),
    ("Alice dirige l'équipe paiements", "Bob a repris l'équipe paiements d'Alice"),
    ("Alice dirige el equipo de pagos", "Bob sustituyó a Alice como líder del equipo de pagos"),
    ("Alice dirige el equipo de pagos", "Bob reemplazó a Alice al frente de pagos"),
    ("Alice dirige el equipo de pagos", "Bob asumió la dirección del equipo de pagos"),
]
APART = [  # (older, newer): another thing taken over, or the same holder adding one
    ("Alice leads the payments team", "Bob took over the billing team from Carol"),
    ("Alice leads the payments team", "Bob took over the payments docs from Alice"),
    ("Alice leads the payments team", "Alice took over the billing team too"),
    ("Anna leitet das Payments-Team", "Bob übernahm das Billing-Team von Carla"),
    ("Alice dirige l'équipe paiements", "Bob a repris l'équipe facturation de Carla"),
    ("Alice dirige el equipo de pagos", "Bob asumió la dirección del equipo de facturación"),
    ("Jonas owns the search service", "Priya owns the search service tests"),
    ("Rosa manages the billing service", "Karim took over the billing team from Rosa"),
    ("Rosa manages the billing service", "Now Karim is on the billing team"),
    ("The deploy succeeded", "The rollback succeeded"),
]


@pytest.mark.parametrize(("old", "new"), TAKEN_OVER)
def test_a_role_taken_over_contradicts_the_older_holder(real_store: Store, old, new):
    older, newer, _ = pair_recalled(real_store, old, new, old)
    assert [i for i, _ in newer.contradicts] == [older]


@pytest.mark.parametrize(("old", "new"), APART)
def test_another_thing_taken_over_contradicts_nothing(real_store: Store, old, new):
    assert_apart(real_store, old, new, old)


@pytest.mark.parametrize(("old", "new", "question"), [
    ("Alice leads the payments team", "Bob took over payments from Alice", "who leads the payments team?"),
    ("Alice leads the payments team", "Bob took over as lead of the payments team from Alice",
     "who leads the payments team?"),
    ("Frau Müller leitet das Marketing", "Herr Schmidt hat das Marketing von Frau Müller übernommen",
     "Wer leitet das Marketing?"),
])
def test_recall_puts_the_new_holder_first_and_review_keeps_the_pair(real_store: Store, old, new, question):
    older, newer, hits = pair_recalled(real_store, old, new, question)
    assert next(iter(hits)) == newer.id and hits[older] == newer.id
    assert consolidate(real_store).contradictions == 1
    assert [(o, n) for o, n, _ in real_store.review("t", ["p"]).contradictions] == [(older, newer.id)]
