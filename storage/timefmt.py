"""ISO-8601 timestamps in and out.

memvault keeps times as integer milliseconds since the Unix epoch (UTC) in the
database, and shows them as ISO-8601 strings with a ``Z`` suffix.
"""

from __future__ import annotations

from datetime import UTC, datetime

from .errors import InvalidInput

# Accepted instants: 1900-01-01T00:00:00Z up to 9999-12-30T00:00:00Z (formatting
# with any offset stays inside datetime's range).
MIN_MS = -2_208_988_800_000
MAX_MS = 253_402_041_600_000


def parse_iso(field: str, value: str) -> int:
    """Parse an ISO-8601 date or date-time into ms since the epoch (UTC).

    A value without an offset is taken as UTC. Accepts what
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
        ms = int(parsed.timestamp() * 1000)
    except (OverflowError, OSError, ValueError):
        ms = None
    if ms is None or not MIN_MS <= ms <= MAX_MS:
        raise InvalidInput(field, f"{value[:60]!r} is outside the supported range 1900-01-01 to 9999-12-29") from None
    return ms


def format_ms(ms: int | None) -> str | None:
    """Format ms since the epoch as ``YYYY-MM-DDTHH:MM:SS.mmmZ`` (None stays None)."""
    if ms is None:
        return None
    dt = datetime.fromtimestamp(ms / 1000, tz=UTC)
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def now_ms() -> int:
    """The server clock, in ms since the epoch."""
    return int(datetime.now(tz=UTC).timestamp() * 1000)
