"""A server's log keeps at most so many lines a minute of each message (server/log_limit.py)."""

from __future__ import annotations

import logging

from memvault.server.log_limit import LinesPerMessage


def _record(msg: str, *args: object) -> logging.LogRecord:
    return logging.LogRecord("memvault.server.http", logging.WARNING, __file__, 1, msg, args, None)


def test_each_message_has_its_own_lines_a_minute_whatever_its_values_and_the_next_minute_counts_the_rest():
    now = [0.0]
    limit = LinesPerMessage(per_minute=5, clock=lambda: now[0])
    host = [limit.filter(_record("refused the %s header %s", "host", f"'h{i}'")) for i in range(12)]
    assert host == [True] * 5 + [False] * 7
    assert limit.filter(_record("refused a request without a bearer token"))  # another message: its own count
    now[0] = 59.0
    assert not limit.filter(_record("refused the %s header %s", "host", "'x'"))
    now[0] = 61.0
    later = _record("refused the %s header %s", "host", "'y'")
    assert limit.filter(later)
    assert later.getMessage() == ("refused the host header 'y' (8 more lines like this were left out in the "
                                  "minute before)")
    assert [limit.filter(_record("refused the %s header %s", "host", "'z'")) for _ in range(5)] == [True] * 4 + [False]
