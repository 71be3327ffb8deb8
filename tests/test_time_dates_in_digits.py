"""Dates written in digits in a question (new-user trial 50: "on 27/11/2026" and "on
2026-11-27T09:00+01:00" were read as no time). An ISO 8601 date-time names the UTC day holding
its moment; a day/month/year written with slashes or dots names its day when only one order is a
date or both orders are the same day, and no time when the orders name two days ("12/02/2026":
docs/how-recall-works.md#dates-in-digits)."""

from __future__ import annotations

import pytest

from memvault.storage.timefmt import format_ms, parse_iso
from memvault.storage.timewords import TimeParser

NOW = parse_iso("now", "2026-12-04T15:00:00Z")


@pytest.mark.parametrize(("question", "day", "words"), [
    ("what did we decide on 27/11/2026?", "2026-11-27", "27/11/2026"),
    ("what did we decide on 11/27/2026?", "2026-11-27", "11/27/2026"),
    ("what did we decide on 27.11.2026?", "2026-11-27", "27.11.2026"),
    ("what happened on 03.04.2026", "2026-04-03", "03.04.2026"),  # dots: day first, as in Europe
    ("what happened on 5/5/2026", "2026-05-05", "5/5/2026"),
    ("what did we decide on 2026-11-27T09:00+01:00?", "2026-11-27", "2026-11-27T09:00+01:00"),
    ("what did we decide on 2026-11-27T09:00:00Z?", "2026-11-27", "2026-11-27T09:00:00Z"),
    ("what happened at 2026-11-27T23:30:00-05:00?", "2026-11-28", "2026-11-27T23:30:00-05:00"),
    ("what happened on 2026-11-27 09:00?", "2026-11-27", "2026-11-27 09:00"),
    ("what happened on 2026-11-27T00:30:00.123+02:00", "2026-11-26", "2026-11-27T00:30:00.123+02:00"),
])
def test_a_date_in_digits_is_the_day_it_names(question, day, words):
    found = TimeParser().find(question, NOW)
    assert found is not None, question
    assert (format_ms(found.start)[:10], found.end - found.start, found.text) == (day, 86_400_000, words)
    assert words not in found.remove_from(question)


@pytest.mark.parametrize(("question", "days"), [
    ("what happened on 12/02/2026?", ("2026-02-12", "2026-12-02")),
    ("what happened on 12-02-2026", ("2026-02-12", "2026-12-02")),
    ("what did we ship on 1/2/2026?", ("2026-01-02", "2026-02-01")),
    ("what happened on 12/02?", ("2026-02-12", "2026-12-02")),
])
def test_a_date_whose_day_and_month_may_be_either_is_both_days(question, days):
    """Read as no time, such a date left recall answering every memory surely (test_time_two_readings.py)."""
    found = TimeParser().find(question, NOW)
    assert found is not None and tuple(format_ms(start)[:10] for start, _ in found.days) == days


@pytest.mark.parametrize("question", ["what happened on 31/02/2026?", "what happened on 13/13/2026?",
                                      "what happened on 2026-11-27T25:00?", "is 1/2/3 a fraction", "page 12/2026"])
def test_digits_naming_no_date_are_no_time(question):
    assert TimeParser().find(question, NOW) is None


def test_two_dates_in_digits_joined_are_the_range():
    found = TimeParser().find("what happened between 20/11/2026 and 27/11/2026?", NOW)
    assert found is not None
    assert (format_ms(found.start)[:10], format_ms(found.end)[:10]) == ("2026-11-20", "2026-11-28")


@pytest.mark.parametrize(("question", "day", "words"), [
    ("what happened on 11/27?", "2026-11-27", "11/27"),
    ("what did we decide on 27/11?", "2026-11-27", "27/11"),
    ("what broke since 11/30?", "2026-11-30", "since 11/30"),
    ("what did we ship on 12/31?", "2025-12-31", "12/31"),  # asked in the past tense: the latest before today
    ("what did we decide on 2/29?", "2024-02-29", "2/29"),  # the last year that had one
])
def test_a_day_and_month_in_digits_without_a_year_is_that_day_as_27_november_is(question, day, words):
    """Issue 25 §2: "on 11/27" was no time while "on 27 November" was that day."""
    found = TimeParser().find(question, NOW)
    assert found is not None, question
    assert (format_ms(found.start)[:10], found.text) == (day, words)
    assert words.removeprefix("since ") not in found.remove_from(question)


@pytest.mark.parametrize("question", [
    "what is our 24/7 on-call policy?", "we are on 24/7 support", "is a 16/9 screen fine?",
    "what is 3/4 of the budget?", "does the 11/27 ratio hold?", "what did we ship on 13/13?",
])
def test_a_day_and_month_in_digits_that_stand_for_no_day_are_no_time(question):
    assert TimeParser().find(question, NOW) is None
