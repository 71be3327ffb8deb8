"""Time named in a question ("what broke in March?", "last week", "in 2024", "two days ago",
"recently").

A pattern finds where a time expression may stand; parsing it is left to
``dateparser`` (relative to a base time), and memvault turns the date into a range of
``observed_at`` from the granularity dateparser reports (day, week, month or year). Recall uses the range as a soft preference, never as a
filter the caller did not ask for, and the expression's words stop counting as
keywords. A vague recent time ("recently", "lately", "these days", "in recent weeks") is
the last 30 days up to now (7 for "in recent days", 90 for "in recent months": see
``_RECENT``), read only when the question names nothing else ("what did we change
recently?", not "what did Melanie paint recently?"). Expressions relative to an event ("before the migration") are not
understood.
"""

from __future__ import annotations

import calendar
import re
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from . import limits

# Where a time expression may stand: month names (with a day or a year), years, ISO
# dates, "last week", "three days ago", "yesterday", weekdays. The span found is then
# parsed by dateparser, which gives the date and its granularity. Searching the whole
# question with dateparser's own ``search_dates`` took 2-30 ms a call and read "we" as
# a week; parsing a found span takes about 1 ms. A span never starts or ends inside a
# larger token: "2024" in INC-2024-014 or v2024.1 is part of an identifier.
_MONTHS = (
    "january|february|march|april|june|july|august|september|october|november|december"
    "|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_NUMBER = r"(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_SPAN = re.compile(
    rf"(?<![\w.-])(?:(?:{_MONTHS}|(?-i:May)(?! I\b)|may(?=\s+\d))\.?(?:\s+\d{{1,2}}(?:st|nd|rd|th)?)?(?:,?\s+(?:19|20)\d\d)?"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTHS}|may)(?:,?\s+(?:19|20)\d\d)?"
    r"|\d{4}-\d\d(?:-\d\d)?|(?:19|20)\d\d"
    rf"|(?:last|past|previous|this)\s+(?:week|month|year|{_WEEKDAYS})"
    rf"|{_NUMBER}\s+(?:days?|weeks?|months?|years?)\s+ago"
    rf"|yesterday|today|tonight|(?:last\s+|on\s+)?(?:{_WEEKDAYS}))(?![\w-]|\.\w)",
    re.IGNORECASE,
)
# Vague recent times, counted back from now (dateparser reads none of them): "recently",
# "lately", "of late", "these days", "in recent weeks" and "the last few weeks" name the last
# 30 days (about a month: an agent store used weekly has a few sessions in it, while "last
# month" is the calendar month before this one); "in recent days" and "the past few days" the
# last 7; "in recent months" and "the last couple of months" the last 90.
_RECENT = re.compile(
    r"(?<![\w.-])(?:recently|lately|of late|these days"
    r"|in recent (?P<recent>days|weeks|months)|(?:the )?(?:last|past) (?:few|couple of) (?P<few>days|weeks|months))"
    r"(?![\w-])",
    re.IGNORECASE,
)
RECENT_DAYS = {"days": 7, "weeks": 30, "months": 90}
RECENT_DEFAULT_DAYS = 30
_YEAR = re.compile(r"(?:19|20)\d\d")
# dateparser reads "last week" but not "past week" or "previous week": the same time to memvault.
_PAST = re.compile(r"^(?:past|previous)\b", re.IGNORECASE)
_UNITS = {"day": 1, "week": 7}
_DAY_MS = 86_400_000


@dataclass(frozen=True)
class TimeRange:
    """``observed_at`` from ``start`` (inclusive) to ``end`` (exclusive), ms since the
    epoch, named in the question by ``text``; ``vague`` for a recent time ("recently"),
    which recall reads only in a question without a subject of its own (see
    ``retrieval.Retriever.ranking``)."""

    start: int
    end: int
    text: str
    vague: bool = False

    def holds(self, ms: int) -> bool:
        """Whether the moment ``ms`` (since the epoch) lies in this range."""
        return self.start <= ms < self.end

    def remove_from(self, query: str) -> str:
        """``query`` without this expression (only where it stands alone, as it was found)."""
        return re.sub(rf"(?<![\w.-]){re.escape(self.text)}(?![\w-]|\.\w)", " ", query, count=1)


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

    def warm_up(self) -> None:
        """Load dateparser and its English data now."""
        self.find("what happened in March 2024", 0)

    def find(self, query: str, now_ms: int) -> TimeRange | None:
        """The most specific time expression of ``query`` as a range, or None.

        Relative expressions ("last week", "two days ago") count back from
        ``now_ms``; a month or weekday without a year is the latest one before it.
        """
        # The most specific first: a span with a year, then the longest ("Black Friday 2024" is 2024).
        spans = sorted((m.group(0) for m in _SPAN.finditer(query)),
                       key=lambda t: (_YEAR.search(t) is not None, len(t)), reverse=True)
        if not spans:
            return recent(query, now_ms)
        from dateparser.date import DateDataParser

        base = datetime.fromtimestamp(now_ms / 1000, tz=UTC).replace(tzinfo=None)
        settings = {"RELATIVE_BASE": base, "PREFER_DATES_FROM": "past", "RETURN_TIME_AS_PERIOD": True}
        with self._lock:  # dateparser keeps caches that are not known to be thread-safe
            parser = DateDataParser(languages=["en"], settings=settings)
            for text in spans:
                data = parser.get_date_data(_PAST.sub("last", text))
                if data.date_obj is not None:
                    start, end = period_range(data.date_obj, data.period or "day")
                    return TimeRange(start, end, text)
        return recent(query, now_ms)


def recent(query: str, now_ms: int) -> TimeRange | None:
    """The vague recent time ``query`` names ("recently", "lately", "in recent weeks", "the
    past few days"; see ``_RECENT``) as the days up to ``now_ms`` it means, or None. The
    range ends a day after ``now_ms``: a memory may be observed up to a day ahead of the
    server's clock (``limits.FUTURE_TOLERANCE_MS``)."""
    found = _RECENT.search(query)
    if found is None:
        return None
    days = RECENT_DAYS.get((found.group("recent") or found.group("few") or "").lower(), RECENT_DEFAULT_DAYS)
    return TimeRange(now_ms - days * _DAY_MS, now_ms + limits.FUTURE_TOLERANCE_MS, found.group(0), vague=True)
