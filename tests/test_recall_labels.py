"""A one-letter or Roman-numeral label after a capitalised head ("Plan A", "Option I", "Model S") is part of the
name, even where it is also a function word ("a", "i", "s"): recall answers the labelled memory first and reads its
sibling ("Plan B") as a near miss, as it did for letters that are no function words ("Service B"). The pronoun
after an ordinary word ("Glad I could help") and the article stay function words (trial verify64 N7)."""

from __future__ import annotations

import pytest

from memvault.storage.candidates import names
from memvault.storage.ranking import SIBLING_CONFIDENCE
from memvault.storage.siblings import read_words
from memvault.storage.store import Store
from memvault.storage.subjects import near_miss

MEMORIES = ["Service A listens on port 8080", "Service B listens on port 9090", "Plan A costs 10 dollars a month",
            "Plan B costs 25 dollars a month", "Option I is the cheapest rollout", "Option II is the fastest rollout",
            "Tier A support answers within an hour", "Tier B support answers within a day", "Phase I ends in March",
            "Phase II ends in June", "Model S has 8 GB of memory", "Model X has 16 GB of memory",
            "Room A seats 12 people", "Room B seats 4 people", "Section A covers onboarding",
            "Section B covers payroll", "Type A tickets are answered within an hour",
            "Type B tickets are answered within a week", "Building C has the server room",
            "Building D has the cafeteria"]
ASKED = [  # (question, the memory answering it)
    ("how much does Plan A cost?", "Plan A costs 10 dollars a month"),
    ("which port does Service A listen on?", "Service A listens on port 8080"),
    ("what is Option I?", "Option I is the cheapest rollout"),
    ("how fast does Tier A support answer?", "Tier A support answers within an hour"),
    ("when does Phase I end?", "Phase I ends in March"),
    ("how much memory does Model S have?", "Model S has 8 GB of memory"),
    ("how many people does Room A seat?", "Room A seats 12 people"),
    ("what does Section A cover?", "Section A covers onboarding"),
    ("how fast are Type A tickets answered?", "Type A tickets are answered within an hour"),
    # letters that are no function words: unchanged
    ("how much does Plan B cost?", "Plan B costs 25 dollars a month"),
    ("which port does Service B listen on?", "Service B listens on port 9090"),
    ("what is in Building D?", "Building D has the cafeteria"),
]


def fill(store: Store) -> None:
    for content in MEMORIES:
        store.remember(tenant="t", scope="p", content=content, observed_at="2026-10-01T09:00:00Z")


@pytest.mark.parametrize(("question", "answer"), ASKED)
def test_a_labelled_name_answers_first_and_its_sibling_is_unsure(shared_store, question, answer):
    store, _ = shared_store(fill)
    hits = store.recall(tenant="t", query=question, scopes=["p"]).hits
    assert hits[0].memory.content == answer
    assert all(h.confidence <= SIBLING_CONFIDENCE for h in hits[1:])


@pytest.mark.parametrize(("question", "name"), [
    ("how much does Plan A cost?", "Plan A"), ("when does Phase I end?", "Phase I"), ("is Model S fast?", "Model S"),
    ("what is Option I?", "Option I"), ("who sits in Room A?", "Room A"),
])
def test_a_label_that_is_a_function_word_is_named_with_its_head(question, name):
    assert name in names(question)


@pytest.mark.parametrize("text", [
    "Glad I could help", "Thanks Nate I will", "Yesterday I met Bob", "Honestly I prefer tea", "A plan costs a lot",
])
def test_the_pronoun_and_the_article_stay_function_words(text):
    assert all(" " not in name for name in names(text))
    assert all(kinds != ("name",) for word, kinds, _ in read_words(text) if word in ("i", "a"))


@pytest.mark.parametrize(("question", "content"), [
    ("how much does Plan A cost?", "Plan B costs 25 dollars a month"),
    ("how fast does Tier A support answer?", "Tier B support answers within a day"),
    ("when does Phase I end?", "Phase II ends in June"),
    ("how much memory does Model S have?", "Model X has 16 GB of memory"),
    ("what does Section A cover?", "Section B covers payroll"),
])
def test_the_sibling_of_a_labelled_name_is_a_near_miss_though_it_says_a(question, content):
    assert near_miss(question, content) is not None
