"""An ISO 8601 week asked of ("what happened in week 32?") is named by a memory that says that week ("the
sprint review for week 32", "W40", "KW 45") or a day of it ("on 5 August"), whenever it was stored, as a
month asked of is named by a memory saying that month (new-user trial 70: "week 32" answered at 0.15)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from stores import recall_of

from memvault.storage.ranking import SURE_CONFIDENCE

NOW = datetime(2026, 12, 5, 15, 0, tzinfo=UTC)
STORED = "2026-12-01T10:00:00Z"  # week 49: every memory is stored after the weeks it tells of
REVIEW = "The sprint review for week 32 covered the billing migration and the onboarding emails."
LOGIN = "In W40 we rolled out the new login page to every customer."
RETRO = "The KW 45 retrospective picked pair programming for risky reviews."
PAUSE = "On 12 August we paused hiring for the platform team."
SHIPPED = "On 5 August we shipped the invoice export."
MEMORIES = [(text, "episode", STORED) for text in (REVIEW, LOGIN, RETRO, PAUSE, SHIPPED)]


@pytest.fixture(scope="module")
def shared_clock():
    return lambda: int(NOW.timestamp() * 1000)


@pytest.mark.contract
@pytest.mark.parametrize(("question", "answers"), [
    ("what happened in week 32?", {REVIEW, SHIPPED}),
    ("what did we do in W32?", {REVIEW, SHIPPED}),
    ("what happened in week 33?", {PAUSE}),
    ("what did we roll out in week 40?", {LOGIN}),
    ("what happened in W40?", {LOGIN}),
    ("what did the retrospective in week 45 pick?", {RETRO}),
    ("what happened in KW 45?", {RETRO}),
    ("what happened in week 32 of 2026?", {REVIEW, SHIPPED}),
])
def test_a_memory_saying_the_week_or_a_day_of_it_answers_surely(shared_store, question, answers):
    outcome = recall_of(shared_store, MEMORIES, question)
    assert outcome.hits and outcome.hits[0].memory.content in answers, [
        (h.memory.content, h.confidence) for h in outcome.hits]
    assert outcome.hits[0].confidence >= SURE_CONFIDENCE, [(h.memory.content, h.confidence) for h in outcome.hits]


@pytest.mark.contract
@pytest.mark.parametrize("question", [
    "what happened in week 41?",
    "what happened in W34?",
    "what did we ship in week 31?",
])
def test_a_week_no_memory_says_nor_was_stored_in_has_no_sure_answer(shared_store, question):
    outcome = recall_of(shared_store, MEMORIES, question)
    assert all(h.confidence < SURE_CONFIDENCE for h in outcome.hits), [
        (h.memory.content, h.confidence) for h in outcome.hits]
