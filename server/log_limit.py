"""A server's log, bounded: at most so many lines a minute of each message, whatever its
values, so that no client can grow the log without limit by repeating a refused
request."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

LINES_PER_MINUTE = 600  # of one message (its format string), per logger: 10 a second, ~150 KB a minute at most


class LinesPerMessage(logging.Filter):
    """A handler's filter: a record passes while its message (logger name and format string,
    not the values put in it) has had fewer than ``per_minute`` lines in the current minute;
    the first line of a later minute says how many were left out. ``clock`` gives seconds."""

    def __init__(self, per_minute: int = LINES_PER_MINUTE, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.per_minute, self.clock = per_minute, clock
        self._minutes: dict[tuple[str, str], tuple[float, int, int]] = {}  # start, lines let through, left out

    def filter(self, record: logging.LogRecord) -> bool:
        key, now = (record.name, str(record.msg)), self.clock()
        start, passed, dropped = self._minutes.get(key, (now, 0, 0))
        if now - start >= 60:
            if dropped and isinstance(record.args, tuple):
                record.msg = f"{record.msg} (%d more lines like this were left out in the minute before)"
                record.args = (*record.args, dropped)
            start, passed, dropped = now, 0, 0
        if len(self._minutes) > 1_000:  # messages are format strings: a few dozen; never grows with clients
            self._minutes.clear()
        if passed >= self.per_minute:
            self._minutes[key] = (start, passed, dropped + 1)
            return False
        self._minutes[key] = (start, passed + 1, dropped)
        return True
