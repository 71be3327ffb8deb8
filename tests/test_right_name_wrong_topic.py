"""A question naming someone the store knows and asking about something no memory mentions ("what
does Marcus prefer for indentation?" over "Marcus prefers squash merges ...") is never answered
surely by that person's memory, however closely it matches the rest (new-user trial, issue 25 §2);
the same question about what the memory says is. Real model."""

from __future__ import annotations

import pytest
from stores import store_of

from memvault.storage.query import asks_how
from memvault.storage.ranking import SURE_CONFIDENCE
from memvault.storage.store import Store

MEMORIES = [
    "Marcus prefers squash merges for feature branches.",
    "Priya prefers tabs over spaces in Go code reviews.",
    "Léa owns the billing exports and the VAT report.",
    "Kenji leads the payments team and reviews its incident reports.",
    "The search service timeout is 30 seconds.",
    "Our CI runs on GitHub Actions with a self-hosted runner.",
    "The design review covered the onboarding flow.",
    "Quarterly planning produced eleven goals.",
    "Backups run nightly at 02:00 UTC to the acme-backups-eu bucket.",
    "PostgreSQL 16 is the main database.",
]


store = store_of(MEMORIES)


@pytest.mark.contract
@pytest.mark.parametrize(("question", "about"), [
    ("What does Marcus prefer for indentation?", "Marcus"),
    ("What does Marcus prefer for code formatting?", "Marcus"),
    ("Which editor does Priya prefer?", "Priya"),
    ("What does Léa own in the HR system?", "Léa"),
    ("Which keyboard layout does Kenji use?", "Kenji"),
    ("What is Priya's favourite lunch spot?", "Priya"),
    ("Does Marcus like Kubernetes?", "Marcus"),
    ("What does Léa think about the Jira migration?", "Léa"),
])
def test_a_named_persons_memory_about_another_topic_is_unsure(store: Store, question, about):
    hits = store.recall(tenant="t", query=question, scopes=["p"]).hits
    assert all(h.confidence < SURE_CONFIDENCE for h in hits if about in (h.memory.content or "")), hits[:2]


@pytest.mark.contract
@pytest.mark.parametrize(("question", "right"), [
    ("What does Marcus prefer for merges?", MEMORIES[0]),
    ("What does Marcus usually prefer for feature branches?", MEMORIES[0]),
    ("Which merges does Marcus really like?", MEMORIES[0]),
    ("What does Priya prefer in Go code reviews?", MEMORIES[1]),
    ("How many reports does Léa own?", MEMORIES[2]),
    ("What does Léa own?", MEMORIES[2]),
    ("Which team does Kenji lead now?", MEMORIES[3]),
])
def test_the_named_persons_memory_about_the_topic_asked_is_first_and_sure(store: Store, question, right):
    hits = store.recall(tenant="t", query=question, scopes=["p"]).hits
    assert hits[0].memory.content == right and hits[0].confidence >= SURE_CONFIDENCE, hits[:2]


@pytest.mark.parametrize("word", ["many", "usually", "exactly", "still", "like", "think", "wants", "according", "within"])
def test_words_asking_how_or_naming_no_act_are_no_topic(word):
    assert asks_how(word)


@pytest.mark.parametrize("word", ["indentation", "editor", "system", "merges", "layout"])
def test_words_naming_a_thing_are_a_topic(word):
    assert not asks_how(word)


def test_a_speaker_named_as_the_source_is_no_topic(store: Store):
    """"According to Marcus" names who says it, not what is asked about."""
    hits = store.recall(tenant="t", query="According to Marcus, what should feature branches use for merges?",
                        scopes=["p"]).hits
    assert hits[0].memory.content == MEMORIES[0] and hits[0].confidence >= SURE_CONFIDENCE, hits[:2]


@pytest.mark.parametrize(("memory", "question"), [
    ("We bought 2025 licences of the IDE for the whole company.", "how many IDE licences did we buy?"),
    ("Gold tier support answers within 4 hours.", "how fast does Gold support answer?"),
    ("Служба поиска использует Elasticsearch 8.11", "какую версию Elasticsearch использует поиск?"),
])
def test_a_verb_of_a_how_question_its_measure_or_another_script_is_no_unheard_topic(store: Store, memory, question):
    """Trial 54 #5: "buy" (stored "bought"), "fast" and Russian inflections were topics no memory holds, 0.45."""
    store.remember(tenant="t", scope="p", content=memory)
    hits = store.recall(tenant="t", query=question, scopes=["p"]).hits
    assert hits[0].memory.content == memory and hits[0].confidence >= SURE_CONFIDENCE, hits[:2]
