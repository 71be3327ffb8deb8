"""Times of a question by their span: a month and day without a year, quarters without a year or by
their ordinal, parts of a day, weekends and hours back (new-user trials 51 and 52)."""

from __future__ import annotations

import pytest

from memvault.storage.timefmt import format_ms, parse_iso
from memvault.storage.timewords import TimeParser

FRIDAY = parse_iso("now", "2026-12-04T18:30:00Z")  # a Friday
SUNDAY = parse_iso("now", "2026-12-06T10:00:00Z")


def span(question: str, now: int = FRIDAY) -> tuple[str, str, str] | None:
    found = TimeParser().find(question, now)
    return None if found is None else (found.text, format_ms(found.start)[:16], format_ms(found.until)[:16])


@pytest.mark.parametrize(("question", "said"), [
    ("what is due on December 20?", (2026, 12, 20)),
    ("can I deploy on December 20?", (2026, 12, 20)),
    ("what happens on 20 December?", (2026, 12, 20)),
    ("anything planned for Dec 31st?", (2026, 12, 31)),
])
def test_a_month_and_day_ahead_this_year_is_this_years(question, said):
    """Trial 52: "December 20" asked on 2026-12-04 was 2025-12-20. It is ahead: a memory saying it covers it."""
    found = TimeParser().find(question, FRIDAY)
    assert found is not None and not found.observable and found.said is not None
    assert (found.said.year, *found.said.months, found.said.day) == said


@pytest.mark.parametrize(("question", "day"), [
    ("what happened on November 20?", "2026-11-20"),
    ("what did we ship on 3 January?", "2026-01-03"),
    ("what happened on December 2nd?", "2026-12-02"),
])
def test_a_month_and_day_past_this_year_is_that_day(question, day):
    assert span(question)[1:] == (f"{day}T00:00", format_ms(parse_iso("d", f"{day}T00:00:00Z") + 86_400_000)[:16])


@pytest.mark.parametrize(("question", "start", "end"), [
    ("what did we do in Q3?", "2026-07-01", "2026-10-01"),
    ("what happened in the third quarter?", "2026-07-01", "2026-10-01"),
    ("what was the partner rate limit in Q1?", "2026-01-01", "2026-04-01"),
    ("what did we ship in the 2nd quarter?", "2026-04-01", "2026-07-01"),
    ("what happened in the first quarter of 2025?", "2025-01-01", "2025-04-01"),
    ("what happened in Q2 2026?", "2026-04-01", "2026-07-01"),
])
def test_a_quarter_without_a_year_asked_of_the_past_is_this_years(question, start, end):
    """Trials 51 and 52: "in Q3", "the third quarter" were no time."""
    found = span(question)
    assert found is not None and found[1:] == (f"{start}T00:00", f"{end}T00:00")


@pytest.mark.parametrize(("question", "now", "start", "end"), [
    ("what did we decide last quarter?", FRIDAY, "2026-07-01T00:00", "2026-10-01T00:00"),
    ("what did we decide at the end of last quarter?", FRIDAY, "2026-08-31T00:00", "2026-10-01T00:00"),
    ("what changed in the last quarter?", FRIDAY, "2026-07-01T00:00", "2026-10-01T00:00"),
    ("what happened in the previous quarter?", FRIDAY, "2026-07-01T00:00", "2026-10-01T00:00"),
    ("what is the revenue target for last quarter?", FRIDAY, "2026-07-01T00:00", "2026-10-01T00:00"),
    ("what did we ship this quarter?", FRIDAY, "2026-10-01T00:00", "2026-12-04T18:30"),
    ("what did we decide last quarter?", parse_iso("now", "2026-02-10T09:00:00Z"), "2025-10-01T00:00",
     "2026-01-01T00:00"),
    ("what did we ship in the 2nd quarter?", FRIDAY, "2026-04-01T00:00", "2026-07-01T00:00"),
])
def test_a_quarter_back_from_now_is_read_as_last_month_is(question, now, start, end):
    """Trial 56 #4: "last quarter" was no time, and recall abstained."""
    found = span(question, now)
    assert found is not None and found[1:] == (start, end)


def test_next_quarter_is_a_time_ahead_a_memory_may_say():
    found = TimeParser().find("what ships next quarter?", FRIDAY)
    assert found is not None and not found.observable and found.said is not None
    assert (found.said.year, sorted(found.said.months)) == (2027, [1, 2, 3])


def test_the_current_quarter_runs_to_now():
    assert span("what happened in Q4?")[1:] == ("2026-10-01T00:00", "2026-12-04T18:30")


@pytest.mark.parametrize("question", ["what ships in Q1?", "what is planned for Q3?"])
def test_a_quarter_without_a_year_asked_of_what_is_to_come_is_only_said(question):
    found = TimeParser().find(question, FRIDAY)
    assert found is not None and not found.observable and found.said is not None


@pytest.mark.parametrize(("question", "start", "end"), [
    ("what happened yesterday evening?", "2026-12-03T17:00", "2026-12-04T00:00"),
    ("what happened yesterday morning?", "2026-12-03T05:00", "2026-12-03T12:00"),
    ("what did I do this morning?", "2026-12-04T05:00", "2026-12-04T12:00"),
    ("what broke this afternoon?", "2026-12-04T12:00", "2026-12-04T17:00"),
    ("what happened last night?", "2026-12-03T18:00", "2026-12-04T06:00"),
    ("what happened last Wednesday evening?", "2026-12-02T17:00", "2026-12-03T00:00"),
    ("what did we deploy on Monday morning?", "2026-11-30T05:00", "2026-11-30T12:00"),
    ("what happened since yesterday evening?", "2026-12-03T17:00", "2026-12-04T18:30"),
])
def test_a_part_of_a_day_is_those_hours_of_it(question, start, end):
    """Trial 51: "yesterday evening" was all of yesterday and "last night" ran to now; "this morning" was none."""
    assert span(question)[1:] == (start, end)


@pytest.mark.parametrize(("question", "now", "start", "end"), [
    ("what happened over the weekend?", FRIDAY, "2026-11-28T00:00", "2026-11-30T00:00"),
    ("what did we do last weekend?", FRIDAY, "2026-11-28T00:00", "2026-11-30T00:00"),
    ("what happened over the weekend?", SUNDAY, "2026-12-05T00:00", "2026-12-06T10:00"),
    ("what did we do last weekend?", SUNDAY, "2026-11-28T00:00", "2026-11-30T00:00"),
])
def test_a_weekend_is_saturday_and_sunday(question, now, start, end):
    assert span(question, now)[1:] == (start, end)


@pytest.mark.parametrize(("question", "start"), [
    ("what happened in the past 48 hours?", "2026-12-02T18:30"),
    ("what broke in the last 3 hours?", "2026-12-04T15:30"),
    ("what changed in the past hour?", "2026-12-04T17:30"),
])
def test_hours_back_are_that_span_up_to_now(question, start):
    assert span(question)[1:] == (start, "2026-12-04T18:30")


@pytest.mark.parametrize("question", ["can I run migrations on weekends?", "is it ok to deploy on a weekend?",
                                      "can we deploy Wednesday evening?", "do we have standup every Monday morning?",
                                      "which port does Redis use?"])
def test_no_time_is_read_where_none_is_asked(question):
    assert span(question) is None


@pytest.mark.parametrize(("question", "day"), [
    ("what did we decide on December 20?", "2025-12-20"),
    ("what happened on 31 December?", "2025-12-31"),
])
def test_a_month_and_day_asked_in_the_past_tense_is_the_latest_before_today(question, day):
    assert span(question)[1] == f"{day}T00:00"
