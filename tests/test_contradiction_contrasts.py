"""A contrast ("Use pnpm, not npm", "pytest rather than unittest", "Helm instead of kubectl") states its
first part and rejects the second: a later denial of the first part, or another first part beside
the same rejected one, contradicts it; the same choice said another way does not (new-user trial 60
#4: "Use pnpm, not npm" hid "We do NOT use pnpm" and "Use yarn, not npm")."""

from __future__ import annotations

import pytest
from stores import flagged

from memvault.storage.contradiction import disagreement
from memvault.storage.store import Store

CHOICES = [  # (chosen, rejected, another choice, where, verb)
    ("pnpm", "npm", "yarn", "in the monorepo", "Use"),
    ("pytest", "unittest", "nose", "for the backend tests", "Use"),
    ("Helm", "kubectl", "Kustomize", "for staging deploys", "Use"),
    ("black", "autopep8", "ruff", "to format Python", "Use"),
    ("Terraform", "Pulumi", "OpenTofu", "for infrastructure", "Use"),
]
FORMS = ["{verb} {x}, not {y}, {where}", "{verb} {x} rather than {y} {where}", "{verb} {x} instead of {y} {where}",
         "{verb} {x}, never {y}, {where}"]


def said(form: str, x: str, y: str, where: str, verb: str) -> str:
    return form.format(x=x, y=y, where=where, verb=verb)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize(("x", "y", "other", "where", "verb"), CHOICES)
def test_denying_the_chosen_part_contradicts_a_contrast(real_embedder, form, x, y, other, where, verb):
    old = said(form, x, y, where, verb)
    assert flagged(real_embedder, old, f"We do NOT use {x} {where}") is not None
    assert flagged(real_embedder, old, f"Never use {x} {where}") is not None


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize(("x", "y", "other", "where", "verb"), CHOICES)
def test_another_choice_beside_the_same_rejected_one_contradicts_a_contrast(
        real_embedder, form, x, y, other, where, verb):
    assert flagged(real_embedder, said(form, x, y, where, verb), said(form, other, y, where, verb)) is not None
    # the words, as they read a plain swap ("We use Terraform" / "Use OpenTofu": cosine 0.39, under the gates)
    assert disagreement(f"We use {x} {where}", said(form, other, y, where, verb)) is not None
    assert disagreement(f"We use {x} {where}", f"Use {other} {where}") is not None


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize(("x", "y", "other", "where", "verb"), CHOICES)
def test_stating_the_rejected_part_still_contradicts_a_contrast(real_embedder, form, x, y, other, where, verb):
    assert flagged(real_embedder, said(form, x, y, where, verb), f"{verb} {y} {where}") is not None


@pytest.mark.parametrize(("x", "y", "other", "where", "verb"), CHOICES)
def test_the_same_choice_in_other_words_contradicts_nothing(real_embedder, x, y, other, where, verb):
    old = said(FORMS[0], x, y, where, verb)
    for new in [said(form, x, y, where, verb) for form in FORMS[1:]] + [f"We use {x} {where}"]:
        assert flagged(real_embedder, old, new) is None, new


@pytest.mark.contract
@pytest.mark.parametrize(("old", "new"), [
    ("Use pnpm, not npm, in the monorepo", "Use yarn, not npm, in the monorepo"),
    ("Use pnpm, not npm, in the monorepo", "We do NOT use pnpm in the monorepo"),
    ("Use pytest rather than unittest for the backend tests", "Use nose rather than unittest for the backend tests"),
])
def test_remember_and_recall_read_the_change_of_a_contrast(real_store: Store, old, new):
    older = real_store.remember(tenant="t", scope="p", content=old, observed_at="2026-03-01T10:00:00Z").id
    newer = real_store.remember(tenant="t", scope="p", content=new, observed_at="2026-10-01T10:00:00Z")
    assert [i for i, _ in newer.contradicts] == [older]
    question = "which package manager in the monorepo?" if "monorepo" in old else "which test runner for the backend?"
    hits = real_store.recall(tenant="t", query=question, scopes=["p"]).hits
    assert [h.memory.id for h in hits][:2] == [newer.id, older]
    assert [h.outdated_by for h in hits][:2] == [None, newer.id]
