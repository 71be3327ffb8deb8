"""A name that is also a function word ("Will", "Don", "Can") is a name where it is written as one,
and a lowercase word that a memory holds only as a name ("we mark", "be sunny") is not that name
(trial 51 #1, trial 52 #1). Real model."""

from __future__ import annotations

import pytest
from stores import store_of

from memvault.storage.candidates import names
from memvault.storage.ranking import SURE_CONFIDENCE
from memvault.storage.store import Store

PEOPLE = ["Augustin owns the search service", "Will prefers Vim over Emacs", "Don approves the hiring plan",
          "Can reviews the Terraform changes", "Ray approves the cloud budget", "Kasia prefers VS Code"]


store = store_of(PEOPLE)


@pytest.mark.parametrize(("question", "name"), [
    ("what does Will own?", "Will"), ("what does Don approve?", "Don"), ("who told Can about it?", "Can"),
    ("is the report for Will or for Kasia?", "Will"),
])
def test_a_capitalised_function_word_in_a_name_position_is_a_name(question, name):
    assert name in names(question)


@pytest.mark.parametrize("question", ["Will it rain tomorrow?", "Can we ship on Friday?", "What Does The Plan Say?",
                                      "what do I own?", "Did we ship it? Will we?"])
def test_a_sentence_opening_or_title_case_function_word_is_no_name(question):
    assert not [n for n in names(question) if n.lower() in {"will", "can", "does", "the", "i", "did", "do"}]


@pytest.mark.parametrize(("question", "wrong"), [
    ("what does Will own?", "Augustin owns the search service"),
    ("what does Will approve?", "Don approves the hiring plan"),
    ("what does Can approve?", "Ray approves the cloud budget"),
])
def test_another_persons_memory_is_not_sure_for_a_name_that_is_a_function_word(store: Store, question, wrong):
    hits = store.recall(tenant="t", query=question, scopes=["p"]).hits
    assert all(h.confidence < SURE_CONFIDENCE for h in hits if h.memory.content == wrong), hits[:2]


@pytest.mark.parametrize(("question", "right"), [
    ("what does Don approve?", "Don approves the hiring plan"),
    ("what does Can review?", "Can reviews the Terraform changes"),
    ("what does Ray approve?", "Ray approves the cloud budget"),
])
def test_the_named_persons_memory_comes_first(store: Store, question, right):
    hits = store.recall(tenant="t", query=question, scopes=["p"]).hits
    assert hits[0].memory.content == right


@pytest.mark.parametrize(("question", "content"), [
    ("What did we mark as done?", "Mark prefers incident reports written as bullet lists"),
    ("Will it be sunny tomorrow?", "Sunny is the product owner of the loyalty programme"),
    ("what did you grant last week?", "Grant owns the billing dashboards"),
])
def test_a_lowercase_verb_or_adjective_is_not_the_name_a_memory_holds(db, real_embedder, question, content):
    s = Store(db, real_embedder)
    kept = s.remember(tenant="t", scope="p", content=content).id
    hits = s.recall(tenant="t", query=question, scopes=["p"]).hits
    s.close()
    assert all(h.confidence < SURE_CONFIDENCE for h in hits if h.memory.id == kept), hits[:1]
