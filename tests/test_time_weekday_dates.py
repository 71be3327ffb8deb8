"""A weekday with a day of the month or beside a date (trial 59 #4): "Friday the 20th" was read as last
Friday, the 20th dropped; "Friday 27 November" left "Friday" a word of the question no memory held (the right
memory at 0.22); a memory's "next Tuesday" was not read from when it was noted, as its "last Friday" is."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memvault.storage.store import Store
from memvault.storage.timewords import TimeParser

NOW = int(datetime(2026, 12, 5, 12, tzinfo=UTC).timestamp() * 1000)  # a Saturday


def day(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=UTC).strftime("%Y-%m-%d")


@pytest.mark.parametrize(("question", "words", "date"), [
    ("what did I fix on Friday the 20th?", "Friday the 20th", "2026-11-20"),
    ("what did I fix on Fri 20th?", "Fri 20th", "2026-11-20"),
    ("what did I fix on Friday 20th?", "Friday 20th", "2026-11-20"),
    ("what did I fix on Friday, the 20th?", "Friday, the 20th", "2026-11-20"),
    ("what did I fix on the 20th (a Friday)?", "the 20th (a Friday)", "2026-11-20"),
    ("what did I fix on the 20th, a Friday?", "the 20th, a Friday", "2026-11-20"),
    ("what did we ship on Tuesday the 13th?", "Tuesday the 13th", "2026-10-13"),
    ("what happened on Friday 27 November?", "Friday 27 November", "2026-11-27"),
    ("what happened on 27 November, a Friday?", "27 November, a Friday", "2026-11-27"),
    ("what happened on Fri, Nov 27?", "Fri, Nov 27", "2026-11-27"),
    ("what happened on Friday, November 27?", "Friday, November 27", "2026-11-27"),
    ("what happened on Friday the 27th of November?", "Friday the 27th of November", "2026-11-27"),
    ("what happened on Fri 27 Nov?", "Fri 27 Nov", "2026-11-27"),
    ("what happened on Friday 27/11?", "Friday 27/11", "2026-11-27"),
    ("what happened on Friday, 2026-11-27?", "Friday, 2026-11-27", "2026-11-27"),
    ("what happened on Friday November 27 2026?", "Friday November 27 2026", "2026-11-27"),
])
def test_a_weekday_with_its_day_is_that_day_and_no_word_of_the_question(question, words, date):
    found = TimeParser().find(question, NOW)
    assert found is not None and day(found.start) == date and found.end - found.start == 86_400_000
    assert (found.phrase or found.text) == words and found.note is None
    assert not {"friday", "fri", "tuesday"} & set(found.remove_from(question).lower().replace(",", " ").split())


@pytest.mark.parametrize(("question", "date", "note"), [
    ("what happened on Friday 26 November?", "2026-11-26", "26 November 2026 is a Thursday, not a Friday: read as the date"),
    ("what happened on Mon, Nov 27?", "2026-11-27", "27 November 2026 is a Friday, not a Monday: read as the date"),
])
def test_a_weekday_disagreeing_with_the_date_yields_to_it_and_says_so(question, date, note):
    found = TimeParser().find(question, NOW)
    assert found is not None and day(found.start) == date and found.note == note


@pytest.mark.parametrize(("question", "text", "date"), [  # must stay
    ("what happened on Friday?", "Friday", "2026-12-04"),
    ("what did we do on Friday 20 minutes before the demo?", "Friday", "2026-12-04"),
    ("what happened on 27 November?", "27 November", "2026-11-27"),
    ("what did I do last Friday?", "last Friday", "2026-12-04"),
])
def test_a_weekday_or_date_alone_reads_as_before(question, text, date):
    found = TimeParser().find(question, NOW)
    assert found is not None and found.text == text and found.phrase is None and day(found.start) == date


@pytest.mark.parametrize("question", ["can I deploy on a Friday?", "what is on the 20th floor?",
                                      "what did we plan for the 20th anniversary?"])
def test_no_time_where_no_day_is_named(question):
    assert TimeParser().find(question, NOW) is None


MEMORIES = [
    ("I renewed my passport at the post office", "2026-12-04T10:00:00Z"),
    ("We shipped release 4.2 to production", "2026-11-27T15:00:00Z"),
    ("Last Friday I fixed the garage door", "2026-11-23T09:00:00Z"),  # Friday 20 November
    ("Next Tuesday we interview the new designer", "2026-11-26T09:00:00Z"),  # Tuesday 1 December
    ("Yesterday the VPN was down all afternoon", "2026-12-02T09:00:00Z"),  # Tuesday 1 December
]


@pytest.fixture(scope="module")
def trial_store(tmp_path_factory, real_embedder):
    s = Store(str(tmp_path_factory.mktemp("weekdays") / "m.db"), real_embedder, clock=lambda: NOW)
    for content, observed in MEMORIES:
        s.remember(tenant="t", scope="p", content=content, observed_at=observed, kind="episode")
    yield s
    s.close()


@pytest.mark.parametrize(("question", "answer"), [
    ("what did I fix on Friday the 20th?", "garage door"),
    ("what did I fix on Fri 20th?", "garage door"),
    ("what did I fix on the 20th (a Friday)?", "garage door"),
    ("what happened on Friday 27 November?", "release 4.2"),
    ("what happened on 27 November, a Friday?", "release 4.2"),
    ("what happened on Fri, Nov 27?", "release 4.2"),
    ("who did we interview on Tuesday?", "designer"),
    ("who did we interview on Tuesday 1 December?", "designer"),
    ("what was down on Tuesday?", "VPN"),  # must stay
    ("what happened on 27 November?", "release 4.2"),  # must stay
])
def test_recall_answers_a_weekday_with_its_day_surely(trial_store, question, answer):
    hits = trial_store.recall(tenant="t", query=question, scopes=["p"]).hits
    assert answer in hits[0].memory.content and hits[0].confidence >= 0.7


@pytest.mark.parametrize(("text", "observed", "date"), [
    ("Next Tuesday we interview the new designer", "2026-11-26", "2026-12-01"),
    ("next Friday we ship", "2026-11-23", "2026-11-27"),
    ("next Monday the audit starts", "2026-11-23", "2026-11-30"),  # noted on a Monday: a week on
    ("This Friday we ship", "2026-11-25", "2026-11-27"),
    ("this Wednesday is the demo", "2026-11-25", "2026-11-25"),
    ("Last Friday I fixed the garage door", "2026-11-23", "2026-11-20"),  # must stay
])
def test_a_memorys_weekday_ahead_is_read_from_when_it_was_noted(text, observed, date):
    noted = int(datetime.fromisoformat(observed + "T09:00:00+00:00").timestamp() * 1000)
    asked = TimeParser().find(f"what happened on {datetime.fromisoformat(date):%d %B %Y}?", NOW)
    assert asked is not None and asked.said_relative(text, noted)
    other = TimeParser().find(f"what happened on {datetime.fromisoformat(date).replace(day=2):%d %B %Y}?", NOW)
    assert other is not None and not other.said_relative(text, noted)


# A day of the month as an ordinal word is read where "20th" is (verify 59 N3: "Friday the twentieth" was
# last Friday, the day dropped).
@pytest.mark.parametrize(("question", "words", "date"), [
    ("what did I fix on Friday the twentieth?", "Friday the twentieth", "2026-11-20"),
    ("what did I fix on Fri the twentieth?", "Fri the twentieth", "2026-11-20"),
    ("what did I fix on Friday, the twentieth?", "Friday, the twentieth", "2026-11-20"),
    ("what did I fix on Friday the twentieth at 3pm?", "Friday the twentieth", "2026-11-20"),
    ("what did I fix on the twentieth (a Friday)?", "the twentieth (a Friday)", "2026-11-20"),
    ("what did I fix on the twentieth, a Friday?", "the twentieth, a Friday", "2026-11-20"),
    ("what did we ship on Tuesday the thirteenth?", "Tuesday the thirteenth", "2026-10-13"),
    ("what did we ship on Tuesday the first?", "Tuesday the first", "2026-12-01"),
    ("what did we ship on Friday the thirty-first?", "Friday the thirty-first", "2026-07-31"),
    ("what happened on Friday the twenty-seventh of November?", "Friday the twenty-seventh of November",
     "2026-11-27"),
    ("what happened on the twenty-seventh of November?", "twenty-seventh of November", "2026-11-27"),
    ("what happened on the twenty seventh of November 2026?", "twenty seventh of November 2026", "2026-11-27"),
    ("what happened on November twenty-seventh?", "November twenty-seventh", "2026-11-27"),
    ("what happened on November the second?", "November the second", "2026-11-02"),
    ("what happened on May the fourth?", "May the fourth", "2026-05-04"),
])
def test_a_day_in_ordinal_words_is_read_as_in_digits(question, words, date):
    found = TimeParser().find(question, NOW)
    assert found is not None and day(found.start) == date and found.end - found.start == 86_400_000
    assert found.phrase == words
    left = set(found.remove_from(question).lower().replace(",", " ").split())
    assert not {"friday", "fri", "tuesday", "twentieth", "first", "november"} & left


@pytest.mark.parametrize(("question", "text"), [  # must stay: no day of the month
    ("what did we do on Monday the first thing?", "Monday"),
    ("what did we do in the first quarter?", "first quarter"),
    ("what may first happen in May?", "May"),
])
def test_an_ordinal_word_naming_no_day_stays_a_word(question, text):
    found = TimeParser().find(question, NOW)
    assert found is not None and found.text == text and found.phrase is None


@pytest.mark.parametrize("question", ["what did I fix on Friday the twentieth?",
                                      "what did I fix on the twentieth (a Friday)?"])
def test_recall_answers_a_weekday_with_its_day_in_words_surely(trial_store, question):
    hits = trial_store.recall(tenant="t", query=question, scopes=["p"]).hits
    assert "garage door" in hits[0].memory.content and hits[0].confidence >= 0.7
