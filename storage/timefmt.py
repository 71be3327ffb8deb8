"""ISO-8601 timestamps in and out.

memvault keeps times as integer milliseconds since the Unix epoch (UTC) in the
database, and shows them as ISO-8601 strings with a ``Z`` suffix.
"""

from __future__ import annotations

import calendar
import re
import time
from datetime import UTC, datetime, timedelta

from .errors import InvalidInput, shown

# Accepted instants: 1900-01-01T00:00:00Z up to 9999-12-30T00:00:00Z (formatting
# with any offset stays inside datetime's range).
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
    r"(?P<offset>Z|[+-]\d{2}(?::?\d{2})?)?)?"
)


def parse_iso(field: str, value: str) -> int:
    """Parse an ISO-8601 date or date-time into ms since the epoch (UTC).

    A value without an offset is taken as UTC; digits below the millisecond are
    dropped (rounding toward the past). The arithmetic is on integers
    (``timedelta // 1 ms``): going through float seconds turned ``.735`` into
    ``.734`` for some instants. Accepts what
    :meth:`datetime.fromisoformat` accepts on Python 3.11 (``2024-05-01``,
    ``2024-05-01T13:56:00``, ``2024-05-01T13:56:00+02:00``, ``...Z``).

    Raises:
        InvalidInput: naming ``field`` when ``value`` is not a valid date-time (or not a
            string: :func:`not_a_date_time`).
    """
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
    """The one wording of a value that is no ISO-8601 date-time, whatever its type (the
    tools, storage, import and command line alike): ``since: 'yesterday' is not an ISO-8601
    date-time (e.g. 2024-05-01T13:56:00Z)``, ``since: 20260101 is not ...``."""
    return InvalidInput(field, f"{shown(value)} is not an ISO-8601 date-time (e.g. {EXAMPLE})")


def _impossible(text: str) -> str | None:
    """What does not exist in ``text`` when it is shaped like an ISO-8601 date-time but
    names a day, hour, minute, second or offset that does not exist (``2026-02-30``,
    month 13, hour 25), after ``text`` quoted as every message quotes the value it
    refuses; None when the shape itself is wrong."""
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
    if found["offset"] is not None and int(found["offset"][1:3]) > 23:
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
