"""ISO-8601 timestamps in and out.

memvault keeps times as integer milliseconds since the Unix epoch (UTC) in the
database, and shows them as ISO-8601 strings with a ``Z`` suffix.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

from .errors import InvalidInput

# Accepted instants: 1900-01-01T00:00:00Z up to 9999-12-30T00:00:00Z (formatting
# with any offset stays inside datetime's range).
MIN_MS = -2_208_988_800_000
MAX_MS = 253_402_041_600_000
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
ONE_MS = timedelta(milliseconds=1)


def parse_iso(field: str, value: str) -> int:
    """Parse an ISO-8601 date or date-time into ms since the epoch (UTC).

    A value without an offset is taken as UTC; digits below the millisecond are
    dropped (rounding toward the past). The arithmetic is on integers
    (``timedelta // 1 ms``): going through float seconds turned ``.735`` into
    ``.734`` for some instants. Accepts what
    :meth:`datetime.fromisoformat` accepts on Python 3.11 (``2024-05-01``,
    ``2024-05-01T13:56:00``, ``2024-05-01T13:56:00+02:00``, ``...Z``).

    Raises:
        InvalidInput: naming ``field`` when the text is not a valid date-time.
    """
    text = value.strip()
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise InvalidInput(
            field, f"{value[:60]!r} is not an ISO-8601 date-time (e.g. 2024-05-01T13:56:00Z)"
        ) from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    try:
        ms = (parsed - EPOCH) // ONE_MS
    except (OverflowError, ValueError):
        ms = None
    if ms is None or not MIN_MS <= ms <= MAX_MS:
        raise InvalidInput(field, f"{value[:60]!r} is outside the supported range 1900-01-01 to 9999-12-29") from None
    return ms


def format_ms(ms: int | None) -> str | None:
    """Format ms since the epoch as ``YYYY-MM-DDTHH:MM:SS.mmmZ`` (None stays None)."""
    if ms is None:
        return None
    dt = EPOCH + timedelta(milliseconds=ms)
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def now_ms() -> int:
    """The server clock, in ms since the epoch."""
    return time.time_ns() // 1_000_000
