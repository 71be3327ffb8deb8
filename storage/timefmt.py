"""ISO-8601 timestamps in and out; stored as integer ms since the epoch (UTC)."""

from __future__ import annotations

import calendar
import re
import time
from datetime import UTC, datetime, timedelta

from .errors import InvalidInput, shown

# The English names of the months (January first) and of the weekdays (Monday first, as ISO 8601
# counts them), lowercase: the one table of them the readers of time words share.
MONTH_NAMES = tuple("january february march april may june july august september october november december".split())
WEEKDAY_NAMES = tuple("monday tuesday wednesday thursday friday saturday sunday".split())
MONTH_SHORT = (*(name[:3] for name in MONTH_NAMES if name != "may"), "sept")  # "may" is a name in full
MONTHS = "|".join([*MONTH_NAMES, *MONTH_SHORT])  # a month's name or short form, as a regex alternation
YEAR = r"(?:19|20)\d\d"  # a year in digits, as the readers of time words take one: 1900-2099

# 1900-01-01T00:00:00Z to 9999-12-30T00:00:00Z: any offset stays inside datetime's range.
MIN_MS = -2_208_988_800_000
MAX_MS = 253_402_041_600_000
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
ONE_MS = timedelta(milliseconds=1)
EXAMPLE = "2024-05-01T13:56:00Z"
SUPPORTED = "the supported range 1900-01-01 to 9999-12-29"  # MIN_MS up to the last whole day before MAX_MS
# The shape fromisoformat accepts, with any digits in each field (to name the field out of range).
_SHAPE = re.compile(
    r"(?P<year>\d{4})-(?P<month>\d{2})-(?P<day>\d{2})"
    r"(?:[T ](?P<hour>\d{2})(?::(?P<minute>\d{2})(?::(?P<second>\d{2})(?:[.,]\d+)?)?)?"
    r"(?P<offset>Z|[+-]\d{2}(?::?\d{2})?)?)?",
    re.ASCII,  # the digits fromisoformat reads: "٢٠٢٤-٠١-٠١" is no date-time
)


def parse_iso(field: str, value: str) -> int:
    """What :meth:`datetime.fromisoformat` reads, as ms since the epoch (no offset: UTC;
    below the ms dropped, on integers: float seconds turned ``.735`` into ``.734``).
    Raises InvalidInput naming ``field``."""
    if not isinstance(value, str):
        raise not_a_date_time(field, value)
    text = value.strip()
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise InvalidInput(field, _impossible(text) or not_a_date_time(field, text).reason) from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    try:
        ms = (parsed - EPOCH) // ONE_MS
    except (OverflowError, ValueError):
        ms = None
    if ms is None or not MIN_MS <= ms <= MAX_MS:
        raise InvalidInput(field, f"{shown(text)} is outside {SUPPORTED}") from None
    return ms


def not_a_date_time(field: str, value: object) -> InvalidInput:
    """The one wording of a value that is no ISO-8601 date-time, on every path."""
    return InvalidInput(field, f"{shown(value)} is not an ISO-8601 date-time (e.g. {EXAMPLE})")


def _impossible(text: str) -> str | None:
    """Why ``text``, shaped like a date-time, names none (``2026-02-30``, hour 25); None
    when the shape itself is wrong."""
    found = _SHAPE.fullmatch(text)
    if found is None:
        return None
    year, month, day = int(found["year"]), int(found["month"]), int(found["day"])
    if not 1 <= month <= 12:
        return f"{shown(text)} is not a date: month {month} is not from 1 to 12"
    if year < (EPOCH + MIN_MS * ONE_MS).year:
        return f"{shown(text)} is outside {SUPPORTED}"
    days = calendar.monthrange(year, month)[1]
    if not 1 <= day <= days:
        return f"{shown(text)} is not a date: {calendar.month_name[month]} {year} has {days} days"
    for name, high in (("hour", 23), ("minute", 59), ("second", 59)):
        if found[name] is not None and int(found[name]) > high:
            return f"{shown(text)} is not a time: {name} {int(found[name])} is not from 0 to {high}"
    if found["offset"] not in (None, "Z") and int(found["offset"][1:3]) > 23:
        return f"{shown(text)} is not a time: the offset {found['offset']} is not less than 24 hours"
    return None


def format_ms(ms: int | None) -> str | None:
    """Format ms since the epoch as ``YYYY-MM-DDTHH:MM:SS.mmmZ`` (None stays None)."""
    if ms is None:
        return None
    dt = EPOCH + timedelta(milliseconds=ms)
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def now_ms() -> int:
    """The server clock, in ms since the epoch."""
    return time.time_ns() // 1_000_000
