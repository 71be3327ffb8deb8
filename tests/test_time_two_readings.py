"""A date in digits read two ways ("12/01/2026": 12 January or 1 December 2026) names both days: the
memories of either are of that time, none between them (new-user trial 60, verify: read as no time and
left out of the question's words, "what did we decide on 12/01/2026?" answered every decision at 0.96)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from stores import recall_of

from memvault.storage.ranking import SURE_CONFIDENCE
from memvault.storage.timewords import TimeParser

NOW = datetime(2026, 12, 5, 15, 0, tzinfo=UTC)  # a Saturday
NOW_MS = int(NOW.timestamp() * 1000)
DECISIONS = {  # the day each was decided on
    "2026-01-12": "We decided to rename the billing service to ledger",  # a Monday
    "2026-01-13": "We decided to move the wiki to Confluence",
    "2026-02-10": "We decided to pin the Node version to 20",  # between 12/01 and 1/12, 4/03 and 3/04
    "2026-03-04": "We decided to adopt trunk-based development",
    "2026-04-03": "We decided to retire the staging cluster",
    "2026-05-06": "We decided to switch the CDN to Fastly",
    "2026-06-05": "We decided to enable Dependabot on every repository",
    "2026-11-13": "We decided to freeze deploys over the holidays",
    "2026-12-01": "We decided to drop Python 3.9 support",  # a Tuesday
}


def day(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=UTC).date().isoformat()


def days_of(question: str) -> set[str]:
    """The days (ISO dates) the time a question names holds, of those above."""
    found = TimeParser().find(question, NOW_MS)
    assert found is not None
    return {on for on in DECISIONS if found.holds(int(datetime.fromisoformat(on).replace(tzinfo=UTC).timestamp()
                                                      * 1000) + 36_000_000)}


@pytest.mark.parametrize(("question", "days"), [
    ("what did we decide on 12/01/2026?", {"2026-01-12", "2026-12-01"}),
    ("what did we decide on 12/1/2026?", {"2026-01-12", "2026-12-01"}),
    ("what did we decide on 1/12/2026?", {"2026-01-12", "2026-12-01"}),
    ("what did we decide on 01/12/2026?", {"2026-01-12", "2026-12-01"}),
    ("what did we decide on 12-01-2026?", {"2026-01-12", "2026-12-01"}),
    ("what did we decide on 03/04/2026?", {"2026-03-04", "2026-04-03"}),
    ("what did we decide on 4/3/2026?", {"2026-03-04", "2026-04-03"}),
    ("what did we decide on 06/05/2026?", {"2026-05-06", "2026-06-05"}),
    ("what did we decide on 12/01?", {"2026-01-12", "2026-12-01"}),  # no year: this year's both
    ("what did we decide before 03/04?", {"2026-01-12", "2026-01-13", "2026-02-10", "2026-03-04"}),  # either
    ("what did we decide after 03/04/2026?", {"2026-04-03", "2026-05-06", "2026-06-05", "2026-11-13", "2026-12-01"}),
    ("what did we decide on Tuesday 12/01/2026?", {"2026-12-01"}),  # 12 January 2026 was a Monday
    ("what did we decide on Monday, 12/01/2026?", {"2026-01-12"}),
    # one reading: a number over 12, the same day both ways, dots (day first), the year first
    ("what did we decide on 13/01/2026?", {"2026-01-13"}),
    ("what did we decide on 1/13/2026?", {"2026-01-13"}),
    ("what did we decide on 2026-01-12?", {"2026-01-12"}),
    ("what did we decide on 2026/01/12?", {"2026-01-12"}),
    ("what did we decide on 05.06.2026?", {"2026-06-05"}),
    ("what did we decide on 01.12.2026?", {"2026-12-01"}),
    ("what did we decide on 12 January 2026?", {"2026-01-12"}),
    ("what did we decide on 1 December?", {"2026-12-01"}),
])
def test_a_date_read_two_ways_holds_both_days_and_none_between(question, days):
    assert days_of(question) == days


@pytest.mark.parametrize(("question", "days"), [
    ("what did we decide between 12/01/2026 and 12/02/2026?", {"2026-01-12", "2026-01-13", "2026-02-10",
                                                                 "2026-12-01"}),
    ("what did we decide between 01/12/2026 and 04/12/2026?", {"2026-12-01", "2026-01-12", "2026-01-13",
                                                                 "2026-02-10", "2026-03-04", "2026-04-03"}),
    ("what did we decide from 12-01-2026 to 12-02-2026?", {"2026-01-12", "2026-01-13", "2026-02-10", "2026-12-01"}),
    ("what did we decide between 12/01 and 12/02?", {"2026-01-12", "2026-01-13", "2026-02-10", "2026-12-01"}),
    ("what did we decide between 13/01/2026 and 12/02/2026?", {"2026-01-13", "2026-02-10"}),  # day first only
    ("what did we decide between 1/12/2026 and 1/13/2026?", {"2026-01-12", "2026-01-13"}),  # month first only
    ("what did we decide between 01/02/2026 and 01/03/2026?", {"2026-02-10"}),  # or 2 to 3 January: none
    # must stay: one reading each
    ("what did we decide between 2026-01-12 and 2026-02-10?", {"2026-01-12", "2026-01-13", "2026-02-10"}),
    ("what did we decide from 12 January 2026 to 13 January 2026?", {"2026-01-12", "2026-01-13"}),
    ("what did we decide between 05.06.2026 and 13.11.2026?", {"2026-06-05", "2026-11-13"}),
])
def test_a_range_of_dates_read_two_ways_reads_both_ends_alike(question, days):
    """Both ends day first, or both month first: never 12 January to 2 December (all the year)."""
    assert days_of(question) == days


def test_a_range_read_two_ways_says_so():
    found = TimeParser().find("what did we decide between 12/01/2026 and 12/02/2026?", NOW_MS)
    assert found is not None and found.note == (
        "between 12/01/2026 and 12/02/2026 may be 12 January 2026 to 12 February 2026 or 1 December 2026 to "
        "2 December 2026: read as both")


@pytest.mark.parametrize(("question", "note"), [
    ("what did we decide on 12/01/2026?", "12/01/2026 may be 12 January 2026 or 1 December 2026: read as both"),
    ("what did we decide on 06/12?", "06/12 may be 6 December 2025 or 12 June 2026: read as both"),  # past tense
    ("what did we decide on 13/01/2026?", None),
    # verify 61 N10: "read as both" where one day is still ahead (nothing observed then)
    ("what did we decide on 12/11/2026?",
     "12/11/2026 may be 12 November 2026 or 11 December 2026: read as 12 November 2026, the other is ahead"),
])
def test_a_date_read_two_ways_says_so(question, note):
    found = TimeParser().find(question, NOW_MS)
    assert found is not None and found.note == note


@pytest.mark.parametrize("question", [
    "which service listens on port 2049?", "what changed in version 1.12.2026?", "what failed in build 12.01.2026?",
    "what is 3/4 of the budget?", "is support 24/7?", "what did we decide on 30/02/2026?",
    "what did we decide on 13/13/2026?", "how do we run a 16/9 screen?",
])
def test_numbers_that_are_no_date_stay_no_time(question):
    assert TimeParser().find(question, NOW_MS) is None


@pytest.fixture(scope="module")
def shared_clock():
    return lambda: NOW_MS


MEMORIES = (*((content, "decision", f"{on}T10:00:00Z") for on, content in DECISIONS.items()),
            ("The NFS server listens on port 2049", "fact", "2026-02-10T10:00:00Z"))


def recall(shared_store, question: str):  # type: ignore[no-untyped-def]
    return recall_of(shared_store, MEMORIES, question, limit=10)


@pytest.mark.contract
@pytest.mark.parametrize(("question", "days"), [
    ("what did we decide on 12/01/2026?", {"2026-01-12", "2026-12-01"}),
    ("what did we decide on 1/12/2026?", {"2026-01-12", "2026-12-01"}),
    ("what did we decide on 03/04/2026?", {"2026-03-04", "2026-04-03"}),
    ("what did we decide on 06/05/2026?", {"2026-05-06", "2026-06-05"}),
    ("what did we decide on 12/01?", {"2026-01-12", "2026-12-01"}),
    ("what did we decide on Tuesday 12/01/2026?", {"2026-12-01"}),
    ("what did we decide between 01/12/2026 and 04/12/2026?", {"2026-12-01", "2026-01-12", "2026-01-13",
                                                                 "2026-02-10", "2026-03-04", "2026-04-03"}),
    ("what did we decide between 13/01/2026 and 12/02/2026?", {"2026-01-13", "2026-02-10"}),
    # must stay: one reading
    ("what did we decide on 13/01/2026?", {"2026-01-13"}),
    ("what did we decide on 1/13/2026?", {"2026-01-13"}),
    ("what did we decide on 2026-01-12?", {"2026-01-12"}),
    ("what did we decide on 05.06.2026?", {"2026-06-05"}),
])
def test_the_decisions_of_either_day_come_first_and_sure_and_no_other_is_sure(shared_store, question, days):
    outcome = recall(shared_store, question)
    wanted = {DECISIONS[on] for on in days}
    hits = outcome.hits
    assert not outcome.abstained and {hit.memory.content for hit in hits[:len(wanted)]} == wanted
    assert all(hit.confidence >= SURE_CONFIDENCE for hit in hits[:len(wanted)])
    assert all(hit.confidence < SURE_CONFIDENCE for hit in hits[len(wanted):])


@pytest.mark.contract
@pytest.mark.parametrize("question", ["what did we decide on 30/02/2026?", "what did we decide on 13/13/2026?"])
def test_a_date_that_is_no_day_makes_no_decision_sure(shared_store, question):
    assert all(hit.confidence < SURE_CONFIDENCE for hit in recall(shared_store, question).hits)


@pytest.mark.contract
def test_a_number_that_is_no_date_still_finds_what_holds_it(shared_store):
    hits = recall(shared_store, "which server listens on port 2049?").hits
    assert hits and hits[0].memory.content == "The NFS server listens on port 2049"
