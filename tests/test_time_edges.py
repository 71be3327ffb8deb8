"""Times at the edges of what Python's datetime holds, and digits of other scripts, are read or
refused in memvault's words, never a traceback (adversarial pass 48: "on 9999-12-31" in a question
raised OverflowError on every path that reads a question's time; ``since`` in Arabic-Indic digits
raised ValueError from the check meant to explain it)."""

from __future__ import annotations

import pytest

from memvault.storage.errors import InvalidInput
from memvault.storage.timefmt import parse_iso
from memvault.storage.timewords import TimeParser, period_range

NOW = 1_764_000_000_000  # 2025-11-24


@pytest.mark.parametrize("value", ["٢٠٢٤-٠١-٠١T00:00:00Z", "２０２４-０１-０１", "२०२४-०१-०१T00:00:00+01:00",
                                   "2024-01-01T00:00:00Z\u0663", "٢٠٢٤-١٣-٠١"])
def test_digits_of_other_scripts_are_no_date_time(value: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_iso("since", value)
    assert refused.value.field == "since" and "is not an ISO-8601 date-time" in refused.value.reason


@pytest.mark.parametrize("question", [
    "what happened on 9999-12-31?", "what is due until 9999-12-31?", "what happened the week of 9999-12-31?",
    "what happened between 9999-12-01 and 9999-12-31?", "what happened in December 9999?",
    "what happened in Q4 9999?", "what happened in 9999?", "what happened on 0001-01-01?",
    "what happened since 0001-01-01?", "what happened before 0001-01-02?", "what happened on Dec 31, 9999?",
])
def test_a_time_at_the_calendars_edges_is_read_without_overflow(question: str) -> None:
    found = TimeParser().find(question, NOW)
    assert found is None or found.start <= found.end


AFTER_9999 = 253_402_300_800_000  # 10000-01-01, in ms since the epoch


@pytest.mark.parametrize(("period", "days", "end"), [
    ("day", 1, AFTER_9999), ("week", 7, AFTER_9999 + 2 * 86_400_000),  # 9999-12-31 is a Friday
    ("month", 31, AFTER_9999), ("quarter", 92, AFTER_9999), ("year", 365, AFTER_9999)])
def test_the_last_periods_of_the_calendar_end_after_it(period: str, days: int, end: int) -> None:
    from datetime import datetime

    assert period_range(datetime(9999, 12, 31), period) == (end - days * 86_400_000, end)


def test_a_recall_at_the_calendars_edge_answers(one_store) -> None:
    one_store.remember(tenant="t", scope="s", content="We deployed the billing service on Friday.")
    for question in ("what happened on 9999-12-31?", "what happened between 9999-12-01 and 9999-12-31?"):
        assert one_store.recall(tenant="t", scopes=["s"], query=question) is not None
