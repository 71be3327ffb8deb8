"""A question in another language is searched as written when no time is read from it: its time words are
written in English only for reading a time (``timeforeign.in_english``), so "Nous déployons le vendredi" finds
itself, not "We deploy on Friday" (trial75 T8: it abstained, the English memory first)."""

from __future__ import annotations

import pytest
from stores import recall_of

MEMORIES = (
    ("We deploy on Friday", "fact", "2026-11-02T10:00:00Z"),
    ("Nous déployons le vendredi", "fact", "2026-11-02T10:00:00Z"),
    ("Wir deployen am Freitag", "fact", "2026-11-02T10:00:00Z"),
    ("Los lunes hacemos la planificación", "fact", "2026-11-02T10:00:00Z"),
    ("On fait la rétro le jeudi", "fact", "2026-11-02T10:00:00Z"),
    ("Die Retro ist jeden Donnerstag", "fact", "2026-11-02T10:00:00Z"),
    ("Le samedi, les sauvegardes complètes tournent", "fact", "2026-11-02T10:00:00Z"),
    ("Mercredi nous faisons les revues de code", "fact", "2026-11-02T10:00:00Z"),
)


@pytest.mark.parametrize("text", [m[0] for m in MEMORIES])
def test_a_memory_s_own_text_finds_it_first_and_sure(shared_store, text):
    result = recall_of(shared_store, MEMORIES, text)
    assert not result.abstained and result.time is None
    assert result.hits[0].memory.content == text and result.hits[0].confidence >= 0.9


@pytest.mark.parametrize(("question", "answer"), [
    ("Que faisons-nous le vendredi ?", "Nous déployons le vendredi"),
    ("Quand fait-on la rétro ?", "On fait la rétro le jeudi"),
    ("Qu'est-ce qu'on fait le mercredi ?", "Mercredi nous faisons les revues de code"),
    ("when do we deploy?", "We deploy on Friday"),
])
def test_a_question_naming_a_weekday_it_asks_about_finds_the_memory_in_its_language(shared_store, question, answer):
    result = recall_of(shared_store, MEMORIES, question)
    assert not result.abstained and result.time is None
    assert result.hits[0].memory.content == answer
