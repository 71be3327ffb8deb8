"""A question's rules read a bounded number of its names and time spans, whatever its length (adversarial
pass 78 M1: a recall of 660 identifiers, each a name searched on its own and many read as times, cost 1-3 s,
30 times a normal recall's, and held its tenant's turn): the first NAMES_MAX names and the first SPANS_MAX time
spans are read; a question naming a few still reads every one. The cost itself is measured in
bench/long_queries.py."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memvault.storage import timewords
from memvault.storage.candidates import NAMES_MAX, names
from memvault.storage.timewords import SPANS_MAX, TimeParser

NOW_MS = int(datetime(2026, 12, 9, 15, 0, tzinfo=UTC).timestamp() * 1000)
LONG = [
    " ".join("abcdefghijklmnopqrstuvwxyz"[i % 26] + str(i % 7) for i in range(660)),  # the pass's query
    " ".join(f"OPS-{i}" for i in range(400)),
    " ".join(f"week {i % 52 + 1}" for i in range(300)),
    " ".join(f"Q{i % 4 + 1} {2000 + i}" for i in range(300)),
    "zzqx " * 399,
]


@pytest.mark.parametrize("question", LONG)
def test_a_long_question_reads_at_most_the_first_names(question):
    found = names(question)
    assert len(found) <= NAMES_MAX
    assert found == names(" ".join(question.split()[:200]))[:len(found)]  # the first ones, in order


class _Counted:
    """A compiled pattern whose ``finditer`` counts the matches taken from it."""

    def __init__(self, pattern) -> None:  # type: ignore[no-untyped-def]
        self.pattern, self.taken = pattern, 0

    def finditer(self, text: str):  # type: ignore[no-untyped-def]
        for found in self.pattern.finditer(text):
            self.taken += 1
            yield found

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        return getattr(self.pattern, name)


@pytest.mark.parametrize("question", LONG)
def test_a_long_question_reads_at_most_the_first_time_spans(question, monkeypatch):
    spans = _Counted(timewords._SPAN)
    monkeypatch.setattr(timewords, "_SPAN", spans)
    TimeParser().words_of_times(question, NOW_MS)
    assert spans.taken <= SPANS_MAX * timewords.LISTED_MAX, spans.taken


@pytest.mark.parametrize(("question", "expected"), [
    ("what did Alice, Bob and OPS-4521 decide about db-stg-03?", ["Alice", "Bob", "OPS-4521", "db-stg-03"]),
    ("who owns " + ", ".join(f"Svc{i}" for i in range(NAMES_MAX)) + "?", [f"Svc{i}" for i in range(NAMES_MAX)]),
])
def test_a_question_naming_a_few_reads_every_one(question, expected):
    assert names(question) == expected


def test_a_list_of_times_is_still_read_whole():
    days = "Monday, Tuesday, Wednesday, Thursday, Friday, Saturday and Sunday"
    words = TimeParser().words_of_times(f"what did we ship last week on {days}?", NOW_MS)
    assert {"monday", "sunday", "week"} <= words, words
