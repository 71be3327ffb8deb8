"""Time named in a question, and the text the keyword index sees."""

from __future__ import annotations

import pytest

from memvault.storage.textindex import index_text
from memvault.storage.timefmt import format_ms, parse_iso
from memvault.storage.timewords import TimeParser

NOW = parse_iso("now", "2025-02-19T12:00:00Z")


@pytest.mark.parametrize(
    ("question", "start", "end", "words"),
    [
        ("What broke in March?", "2024-03-01", "2024-04-01", "March"),
        ("Which run diverged in March 2024 and why?", "2024-03-01", "2024-04-01", "March 2024"),
        ("what happened last week", "2025-02-12", "2025-02-19", "last week"),
        ("anything from 2023?", "2023-01-01", "2024-01-01", "2023"),
        ("what did we decide two days ago", "2025-02-17", "2025-02-18", "two days ago"),
        ("notes from yesterday", "2025-02-18", "2025-02-19", "yesterday"),
        ("meeting on 5th of May 2023", "2023-05-05", "2023-05-06", "5th of May 2023"),
        ("How did Black Friday 2024 go?", "2024-01-01", "2025-01-01", "2024"),  # the year, not a Friday
        ("deploy of 2024-03-12", "2024-03-12", "2024-03-13", "2024-03-12"),
        ("what did we ship in Sept 2024", "2024-09-01", "2024-10-01", "Sept 2024"),
        # The pattern finds "past"/"previous"; dateparser reads only "last" (second new-user trial).
        ("what happened in the past week", "2025-02-12", "2025-02-19", "past week"),
        ("incidents of the previous month", "2025-01-01", "2025-02-01", "previous month"),
        ("what did we decide the past year", "2024-01-01", "2025-01-01", "past year"),
        # Vague recent times: the days up to now, and a day on (clock skew; new-user trial).
        ("what did we change recently?", "2025-01-20", "2025-02-20", "recently"),
        ("Lately, what broke?", "2025-01-20", "2025-02-20", "Lately"),
        ("which CI do we use these days", "2025-01-20", "2025-02-20", "these days"),
        ("failures in recent weeks", "2025-01-20", "2025-02-20", "in recent weeks"),
        ("what happened in recent days", "2025-02-12", "2025-02-20", "in recent days"),
        ("decisions of the past few months", "2024-11-21", "2025-02-20", "the past few months"),
        ("what went wrong over the last couple of weeks", "2025-01-20", "2025-02-20", "the last couple of weeks"),
        ("what happened last week, recently", "2025-02-12", "2025-02-19", "last week"),  # the exact time wins
    ],
)
def test_a_time_expression_becomes_the_range_it_names(question, start, end, words):
    found = TimeParser().find(question, NOW)
    assert found is not None
    assert (format_ms(found.start)[:10], format_ms(found.end)[:10], found.text) == (start, end, words)


@pytest.mark.parametrize(
    "question",
    ["When is the oncall handoff?", "May I store this?", "before the migration", "we moved the DB", "what now",
     "the recently_added table", "is the cache lately-loaded", "the last few"],
)
def test_questions_without_a_time_expression_name_none(question):
    assert TimeParser().find(question, NOW) is None


def test_the_index_sees_cjk_runs_as_bigrams_and_folds_undecomposable_latin_letters():
    assert index_text("审计日志 ok") == " 审计 计日 日志  ok"
    assert index_text("Søren Łukasz Straße") == "Soren Lukasz Strasse"
    assert index_text(None) is None
    assert index_text("plain text stays as it is") == "plain text stays as it is"


@pytest.mark.parametrize("question", ["what happened in INC-2024-014?", "is v2024.1 deployed", "ticket OPS-2023"])
def test_a_year_inside_an_identifier_is_not_a_time(question):
    assert TimeParser().find(question, NOW) is None


def test_the_expression_is_removed_where_it_stands_alone_only():
    found = TimeParser().find("what happened in 2024 with INC-2024-014?", NOW)
    assert found is not None and found.text == "2024"
    assert found.remove_from("what happened in 2024 with INC-2024-014?") == "what happened in   with INC-2024-014?"
