"""Time named in a question ("what broke in March?", "last week", "in 2024", "two days ago").

Recognising the expression is left to ``dateparser`` (its ``search_dates`` finds
date expressions in free text, relative to a base time); memvault turns the
match into a range of ``observed_at`` from the granularity dateparser reports
(day, week, month or year). Recall uses the range as a soft preference, never as a
filter the caller did not ask for, and the expression's words stop counting as
keywords. Expressions relative to an event ("before the migration") are not
understood.
"""

from __future__ import annotations

import calendar
import re
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

# A cheap gate: only questions with one of these words go to dateparser (which takes
# 1-20 ms a call), and only matches that contain one count. This also keeps out
# dateparser's false finds ("we" read as a week, "now", "on").
_MONTHS = (
    "january|february|march|april|june|july|august|september|october|november|december"
    "|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_TIME_WORD = re.compile(
    rf"\b(?:{_MONTHS}|(?-i:May)(?! I\b)|may(?=\s+\d)|yesterday|today|tonight|ago|last|past"
    r"|previous|this (?:week|month|year)|(?:19|20)\d\d|\d{4}-\d\d(?:-\d\d)?"
    r"|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b",
    re.IGNORECASE,
)
_UNITS = {"day": 1, "week": 7}


@dataclass(frozen=True)
class TimeRange:
    """``observed_at`` from ``start`` (inclusive) to ``end`` (exclusive), ms since the
    epoch, named in the question by ``text``."""

    start: int
    end: int
    text: str


def _ms(moment: datetime) -> int:
    return (moment.replace(tzinfo=UTC) - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(milliseconds=1)


def period_range(moment: datetime, period: str) -> tuple[int, int]:
    """The ms range of the ``period`` ("day", "week", "month", "year") that starts at or holds ``moment``."""
    if period == "year":
        return _ms(datetime(moment.year, 1, 1)), _ms(datetime(moment.year + 1, 1, 1))
    if period == "month":
        first = datetime(moment.year, moment.month, 1)
        days = calendar.monthrange(moment.year, moment.month)[1]
        return _ms(first), _ms(first + timedelta(days=days))
    day = datetime(moment.year, moment.month, moment.day)
    return _ms(day), _ms(day + timedelta(days=_UNITS.get(period, 1)))


class TimeParser:
    """Finds the time a question names; loads dateparser on first use (about 0.4 s,
    plus its first search), so call :meth:`warm_up` off the request path."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._parser: object | None = None

    def warm_up(self) -> None:
        """Load dateparser and its English data now."""
        self.find("what happened in March 2024", 0)

    def find(self, query: str, now_ms: int) -> TimeRange | None:
        """The first time expression of ``query`` as a range, or None.

        Relative expressions ("last week", "two days ago") count back from
        ``now_ms``; a month or weekday without a year is the latest one before it.
        """
        if not _TIME_WORD.search(query):
            return None
        with self._lock:
            from dateparser.date import DateDataParser
            from dateparser.search import search_dates

            base = datetime.fromtimestamp(now_ms / 1000, tz=UTC).replace(tzinfo=None)
            settings = {"RELATIVE_BASE": base, "PREFER_DATES_FROM": "past", "RETURN_TIME_AS_PERIOD": True}
            found = search_dates(query, languages=["en"], settings=settings) or []
            for text, _ in found:
                if not _TIME_WORD.search(text):
                    continue
                data = DateDataParser(languages=["en"], settings=settings).get_date_data(text)
                if data.date_obj is None:
                    continue
                start, end = period_range(data.date_obj, data.period or "day")
                return TimeRange(start, end, text)
        return None
