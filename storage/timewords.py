"""Time named in a question ("what broke in March?", "last week", "in 2024", "two days ago",
"since Monday", "recently").
More: docs/storage-tuning.md#timewords."""

from __future__ import annotations

import calendar
import re
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from . import limits

_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december"
    "|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_NUMBER = r"(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_YEAR_DIGITS = r"(?:19|20)\d\d"
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
# Time expressions by kind (the group's name), never inside a larger token (INC-2024-014) nor
# before a possessive; a month, year or weekday alone only where ``_temporal`` says so.
_SPAN = re.compile(
    rf"(?<![\w.-])(?:(?P<date>(?:{_MONTHS})\.?\s+{_DAY}(?:,?\s*{_YEAR_DIGITS})?|(?:{_MONTHS})\.?,?\s+{_YEAR_DIGITS}"
    rf"|{_DAY}\s+(?:of\s+)?(?:{_MONTHS})\.?(?:,?\s*{_YEAR_DIGITS})?|\d{{4}}-\d\d(?:-\d\d)?)"
    rf"|(?P<relative>(?:last|past|previous|this)\s+(?:week|month|year|{_WEEKDAYS})"
    rf"|{_NUMBER}\s+(?:days?|weeks?|months?|years?)\s+ago|yesterday|today|tonight)"
    rf"|(?P<month>(?:{_MONTHS})\.?)|(?P<year>{_YEAR_DIGITS})|(?P<weekday>{_WEEKDAYS}))"
    r"(?![\w-]|\.\w|['’]s\b)",
    re.IGNORECASE,
)
# The word before a month name that makes it a month ("in May"; "from May" may be a person).
_MONTH_LEAD = frozenset(
    "in during since until till through throughout before after of early mid late last this past previous the".split()
)
# The word before a bare year that makes it a year ("in 2024", "Christmas 2024", "Q3 2024").
_YEAR_LEAD = _MONTH_LEAD - {"the", "this", "last", "past", "previous"} | frozenset(
    "from year spring summer autumn fall winter christmas easter thanksgiving halloween hanukkah diwali ramadan"
    " eid new friday monday q1 q2 q3 q4 h1 h2".split()
)
# A bare weekday is a past day only in a past-tense question ("what did we ship on Monday?",
# not "can I ship on Monday?", issue 25).
_PAST_TENSE = re.compile(r"\b(?:did|was|were|had|happened|went|broke|made|got|\w+[^\We]ed)\b", re.IGNORECASE)
_NOT_PAST = re.compile(
    r"\b(?:can|could|should|shall|will|would|might|must|is|are|am|does|usually|always|never|every|each|next)\b",
    re.IGNORECASE,
)
_WORD_BEFORE = re.compile(r"(\w+)[\s,]*$")
# Vague recent times, which dateparser does not read, in days back from now.
_RECENT = re.compile(
    r"(?<![\w.-])(?:recently|lately|of late|these days"
    r"|in recent (?P<recent>days|weeks|months)|(?:the )?(?:last|past) (?:few|couple of) (?P<few>days|weeks|months))"
    r"(?![\w-])",
    re.IGNORECASE,
)
RECENT_DAYS = {"days": 7, "weeks": 30, "months": 90}
RECENT_DEFAULT_DAYS = 30
_YEAR = re.compile(_YEAR_DIGITS)
# dateparser reads "last week" but not "past week" or "previous week": the same time to memvault.
_PAST = re.compile(r"^(?:past|previous)\b", re.IGNORECASE)
_THIS_WEEKDAY = re.compile(rf"^this\s+({_WEEKDAYS})$", re.IGNORECASE)
_DAY_MS = 86_400_000


@dataclass(frozen=True)
class TimeRange:
    """``observed_at`` in [``start``, ``end``) ms, named by ``text``; ``vague`` for "recently"."""

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
    """The ms range of the ``period`` ("day", "week", "month", "year") that holds ``moment``;
    a week runs from Monday (ISO 8601)."""
    if period == "year":
        return _ms(datetime(moment.year, 1, 1)), _ms(datetime(moment.year + 1, 1, 1))
    if period == "month":
        first = datetime(moment.year, moment.month, 1)
        days = calendar.monthrange(moment.year, moment.month)[1]
        return _ms(first), _ms(first + timedelta(days=days))
    day = datetime(moment.year, moment.month, moment.day)
    if period == "week":
        monday = day - timedelta(days=day.weekday())
        return _ms(monday), _ms(monday + timedelta(days=7))
    return _ms(day), _ms(day + timedelta(days=1))


def _temporal(kind: str, before: str, query: str) -> bool:
    """Whether a span of ``kind`` (a ``_SPAN`` group) preceded by the word ``before`` is a
    time in ``query``."""
    if kind == "month":
        return before in _MONTH_LEAD
    if kind == "year":
        return before in _YEAR_LEAD
    if kind == "weekday":
        if before in ("since", "last", "this", "past", "previous"):
            return True
        if before in ("a", "an", "every", "each", "next"):
            return False
        return bool(_PAST_TENSE.search(query)) and not _NOT_PAST.search(query)
    return True


class TimeParser:
    """Finds the time a question names; loads dateparser on first use (about 0.4 s,
    plus its first search), so call :meth:`warm_up` off the request path."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # dateparser's caches are not known to be thread-safe

    def warm_up(self) -> None:
        """Load dateparser and its English data now."""
        self.find("what happened in March 2024", 0)

    def find(self, query: str, now_ms: int) -> TimeRange | None:
        """The most specific time expression of ``query`` as a range, or None.
        More: docs/retrieval-tuning.md#timewords-find."""
        spans: list[tuple[str, bool]] = []  # (text, since)
        for m in _SPAN.finditer(query):
            found = _WORD_BEFORE.search(query, 0, m.start())
            before = found.group(1).lower() if found else ""
            if _temporal(m.lastgroup or "", before, query):
                spans.append((m.group(0), before == "since"))
        # The most specific first: a span with a year, then the longest ("Black Friday 2024" is 2024).
        spans.sort(key=lambda s: (_YEAR.search(s[0]) is not None, len(s[0])), reverse=True)
        if not spans:
            return recent(query, now_ms)
        from dateparser.date import DateDataParser

        base = datetime.fromtimestamp(now_ms / 1000, tz=UTC).replace(tzinfo=None)
        latest = now_ms + limits.FUTURE_TOLERANCE_MS
        settings = {"RELATIVE_BASE": base, "PREFER_DATES_FROM": "past", "RETURN_TIME_AS_PERIOD": True}
        with self._lock:
            parser = DateDataParser(languages=["en"], settings=settings)
            for text, since in spans:
                this_day = _THIS_WEEKDAY.match(text)
                if this_day:  # that day of this week (dateparser reads "this Monday" as the next one)
                    monday = base - timedelta(days=base.weekday())
                    moment: datetime | None = monday + timedelta(days=_WEEKDAYS.split("|").index(this_day[1].lower()))
                    period = "day"
                else:
                    data = parser.get_date_data(_PAST.sub("last", text))
                    moment, period = data.date_obj, data.period or "day"
                if moment is None:
                    continue
                start, end = period_range(moment, period)
                if start >= latest:
                    continue  # nothing is observed then
                return TimeRange(start, latest if since else min(end, latest), f"since {text}" if since else text)
        return recent(query, now_ms)


def recent(query: str, now_ms: int) -> TimeRange | None:
    """The vague recent time ``query`` names ("recently", "the past few days") up to a day
    after ``now_ms`` (``limits.FUTURE_TOLERANCE_MS``), or None."""
    found = _RECENT.search(query)
    if found is None:
        return None
    days = RECENT_DAYS.get((found.group("recent") or found.group("few") or "").lower(), RECENT_DEFAULT_DAYS)
    return TimeRange(now_ms - days * _DAY_MS, now_ms + limits.FUTURE_TOLERANCE_MS, found.group(0), vague=True)
