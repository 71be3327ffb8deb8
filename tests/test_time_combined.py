"""A month, quarter or weekday with a relative year or week is the one time both name ("in March
last year" is March 2025), never the year or week alone (new-user trial 50: "what did we decide in
March last year?" read only "last year" and abstained though a decision of 2025-03-10 was stored)."""

from __future__ import annotations

import pytest

from memvault.storage.timefmt import format_ms, parse_iso
from memvault.storage.timewords import Said, TimeParser

NOW = parse_iso("now", "2026-12-04T15:00:00Z")  # a Friday


@pytest.mark.parametrize(("question", "start", "end", "words"), [
    ("what did we decide in March last year?", "2025-03-01", "2025-04-01", "March last year"),
    ("what did we decide in March of last year?", "2025-03-01", "2025-04-01", "March of last year"),
    ("what did we decide in march, last year?", "2025-03-01", "2025-04-01", "march, last year"),
    ("what changed in Sept previous year", "2025-09-01", "2025-10-01", "Sept previous year"),
    ("what did we decide in March this year?", "2026-03-01", "2026-04-01", "March this year"),
    ("what did we decide last year in March?", "2025-03-01", "2025-04-01", "last year in March"),
    ("what did we ship this March?", "2026-03-01", "2026-04-01", "this March"),
    ("what broke in Q1 last year?", "2025-01-01", "2025-04-01", "Q1 last year"),
    ("what broke in Q4 of this year?", "2026-10-01", "2026-12-05", "Q4 of this year"),
    ("what did we decide on Tuesday last week?", "2026-11-24", "2026-11-25", "Tuesday last week"),
    ("what did we decide on Friday of last week?", "2026-11-27", "2026-11-28", "Friday of last week"),
    ("what did we decide last week on Monday?", "2026-11-23", "2026-11-24", "last week on Monday"),
    ("what did we decide on Wednesday this week?", "2026-12-02", "2026-12-03", "Wednesday this week"),
])
def test_a_month_quarter_or_weekday_with_a_relative_year_or_week_is_both(question, start, end, words):
    found = TimeParser().find(question, NOW)
    assert found is not None
    assert (format_ms(found.start)[:10], format_ms(found.end)[:10], found.text) == (start, end, words)
    assert words not in found.remove_from(question)


@pytest.mark.parametrize(("question", "said"), [
    ("what is planned in March next year?", Said(frozenset({3}), 2027)),
    ("what is due in Q2 of next year?", Said(frozenset({4, 5, 6}), 2027)),
    ("what is planned for Tuesday next week?", Said(frozenset({12}), 2026, 8)),
])
def test_a_combination_ahead_is_only_what_a_memory_says(question, said):
    found = TimeParser().find(question, NOW)
    assert found is not None and not found.observable and found.said == said


def test_last_march_in_march_is_the_year_before():
    in_march = parse_iso("now", "2026-03-20T12:00:00Z")
    found = TimeParser().find("what did we decide last March?", in_march)
    assert found is not None and format_ms(found.start)[:10] == "2025-03-01"

