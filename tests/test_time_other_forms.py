"""Time written in other forms (new-user trial 60): dates in digits in any order with dashes, slashes or
dots, ISO weeks, "the 1st", "a fortnight ago", "the end of the month", and the time words of other
languages; a date read as no time, or unread words, never make recall answer nothing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from stores import recall_of

from memvault.storage.timeforeign import in_english
from memvault.storage.timewords import TimeParser, without_dates

NOW = datetime(2026, 12, 5, 15, 0, tzinfo=UTC)  # a Saturday
NOW_MS = int(NOW.timestamp() * 1000)
DROP, RUFF, FREEZE = ("We decided to drop Python 3.9 support", "We decided to adopt Ruff instead of flake8",
                      "We decided to freeze deploys over the holidays")
MEMORIES = [
    (DROP, "decision", "2026-12-01T10:00:00Z"),  # last Tuesday
    (RUFF, "decision", "2026-11-24T10:00:00Z"),  # the Tuesday before
    (FREEZE, "decision", "2026-11-13T10:00:00Z"),
    ("Migrated the search cluster to OpenSearch 2.11", "episode", "2026-10-15T10:00:00Z"),
    ("The release 4.2 shipped", "episode", "2026-03-03T09:00:00Z"),
    ("Build 2026.11.13 failed on the ARM runners", "failure", "2026-06-01T09:00:00Z"),
]


def day(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=UTC).date().isoformat()


@pytest.mark.parametrize(("question", "since", "until"), [
    ("what did we decide on 13-11-2026?", "2026-11-13", "2026-11-14"),
    ("what did we decide on 2026/11/13?", "2026-11-13", "2026-11-14"),
    ("what did we decide on 13.11.2026?", "2026-11-13", "2026-11-14"),
    ("what did we decide on 2026.11.13?", "2026-11-13", "2026-11-14"),
    ("what did we decide on 1.12.2026?", "2026-12-01", "2026-12-02"),
    ("what did we decide on 01.12.2026?", "2026-12-01", "2026-12-02"),  # dots: day first
    ("what did we decide on 11-13-2026?", "2026-11-13", "2026-11-14"),
    ("what did we decide in week 48?", "2026-11-23", "2026-11-30"),
    ("what did we decide in W48?", "2026-11-23", "2026-11-30"),
    ("what did we decide in KW 48?", "2026-11-23", "2026-11-30"),
    ("what did we decide in week 50?", "2025-12-08", "2025-12-15"),  # ahead this year: last year's
    ("what did we decide in week 48 of 2025?", "2025-11-24", "2025-12-01"),
    ("what did we decide on the 1st?", "2026-12-01", "2026-12-02"),
    ("what did we decide on the 31st?", "2026-10-31", "2026-11-01"),  # the latest month with one
    ("what did we decide a fortnight ago?", "2026-11-16", "2026-11-23"),
    ("what did we decide two weeks ago?", "2026-11-16", "2026-11-23"),
    ("what did we decide at the beginning of the month?", "2026-12-01", "2026-12-05"),
    ("what did we decide at the start of the month?", "2026-12-01", "2026-12-05"),
    ("what did we decide at the end of the month?", "2026-11-21", "2026-12-01"),  # this month's is ahead
    # must stay as they were
    ("what did we decide on 2026-12-01?", "2026-12-01", "2026-12-02"),
    ("what happened on 15/10?", "2026-10-15", "2026-10-16"),
    ("what did we decide on 11/13?", "2026-11-13", "2026-11-14"),
    ("what did we decide on 27/11/2026?", "2026-11-27", "2026-11-28"),
    ("what did we decide on Friday the 13th?", "2026-11-13", "2026-11-14"),
    ("what did we decide on the 1st of December?", "2026-12-01", "2026-12-02"),
    ("what did we decide in the 2nd quarter?", "2026-04-01", "2026-07-01"),
])
def test_a_date_form_is_the_time_it_names(question, since, until):
    found = TimeParser().find(in_english(question), NOW_MS)
    assert found is not None and (day(found.start), day(found.until)) == (since, until)


@pytest.mark.parametrize("question", [
    "what did we decide on 12/01/2026?", "what changed in version 13.11.2026?", "what failed in build 2026.11.13?",
    "what did we do in week 3 of the sprint?", "who won the 2nd round?",
])
def test_a_date_read_two_ways_a_version_or_a_week_of_something_else_is_no_time(question):
    assert TimeParser().find(question, NOW_MS) is None


@pytest.mark.parametrize(("question", "english"), [
    ("was haben wir am letzten Dienstag entschieden?", "was haben wir am last Tuesday entschieden?"),
    ("qu'avons-nous décidé mardi dernier ?", "qu'avons-nous décidé last Tuesday ?"),
    ("¿qué decidimos el martes pasado?", "¿qué decidimos el last Tuesday?"),
    ("o que decidimos na terça-feira passada?", "o que decidimos na last Tuesday?"),
    ("cosa abbiamo deciso martedì scorso?", "cosa abbiamo deciso last Tuesday?"),
    ("wat hebben we afgelopen dinsdag besloten?", "wat hebben we last Tuesday besloten?"),
    ("was ist letzte Woche passiert?", "was ist last Week passiert?"),
    ("Was haben wir am 1. Dezember entschieden?", "Was haben wir am 1 December entschieden?"),
    ("Qu'avons-nous décidé le 1er décembre ?", "Qu'avons-nous décidé le 1 December ?"),
    ("¿Qué decidimos el 1 de diciembre de 2026?", "¿Qué decidimos el 1 December 2026?"),
    ("what did we decide on 1 Dezember?", "what did we decide on 1 December?"),
    ("12月1日に何を決めましたか?", " December 1 に何を決めましたか?"),
    # must stay unchanged: no time, English, or a name
    ("Domingo said the deploy was fine", "Domingo said the deploy was fine"),
    ("Mai approved the budget", "Mai approved the budget"),
    ("what did we decide last Tuesday?", "what did we decide last Tuesday?"),
    ("we moved 3 ago", "we moved 3 ago"),
])
def test_time_words_of_other_languages_are_written_in_english(question, english):
    assert in_english(question) == english


@pytest.mark.parametrize(("question", "left"), [
    ("what did we decide on 12/01/2026?", "what did we decide on  ?"),
    ("what failed in build 2026.11.13?", "what failed in build 2026.11.13?"),
    ("what changed in version 13.11.2026?", "what changed in version 13.11.2026?"),
    ("what is 3/4 of the budget?", "what is 3/4 of the budget?"),
])
def test_a_date_read_as_no_time_is_no_word_of_the_question_unless_a_version(question, left):
    assert without_dates(question) == left


@pytest.fixture(scope="module")
def shared_clock():
    return lambda: NOW_MS


@pytest.mark.contract
@pytest.mark.parametrize(("question", "answer"), [
    ("what did we decide on 13-11-2026?", FREEZE),
    ("what did we decide on 2026/11/13?", FREEZE),
    ("what did we decide on 13.11.2026?", FREEZE),
    ("what did we decide on 01.12.2026?", DROP),
    ("what did we decide on 1.12.2026?", DROP),
    ("what did we decide in week 48?", RUFF),
    ("what did we decide in KW 48?", RUFF),
    ("what did we decide on the 1st?", DROP),
    ("what did we decide at the beginning of the month?", DROP),
    ("what did we decide at the end of the month?", RUFF),
    ("what did we decide on 1 Dezember?", DROP),
    ("what did we decide on 2026年12月1日?", DROP),
    ("what failed in build 2026.11.13?", "Build 2026.11.13 failed on the ARM runners"),
])
def test_a_date_form_finds_the_memory_of_that_time_first(shared_store, question, answer):
    outcome = recall_of(shared_store, MEMORIES, question)
    assert not outcome.abstained and outcome.hits[0].memory.content == answer


@pytest.mark.contract
@pytest.mark.parametrize(("question", "answer"), [
    ("was haben wir am letzten Dienstag entschieden?", DROP),
    ("qu'avons-nous décidé mardi dernier ?", DROP),
    ("¿qué decidimos el martes pasado?", DROP),
    ("Was haben wir am 1. Dezember entschieden?", DROP),
    ("Qu'avons-nous décidé le 1er décembre ?", DROP),
    ("¿Qué decidimos el 1 de diciembre?", DROP),
    ("12月1日に何を決めましたか?", DROP),
    ("what did we decide on 12/01/2026?", DROP),  # read as no time: answered by its words
])
def test_a_question_in_another_language_or_with_an_unread_date_still_answers(shared_store, question, answer):
    outcome = recall_of(shared_store, MEMORIES, question)
    assert not outcome.abstained and answer in [hit.memory.content for hit in outcome.hits]


@pytest.mark.contract
def test_a_date_read_two_ways_names_no_time_and_answers_every_decision(shared_store):
    outcome = recall_of(shared_store, MEMORIES, "what did we decide on 12/01/2026?")
    assert outcome.time is None and {hit.memory.content for hit in outcome.hits} == {DROP, RUFF, FREEZE}
