"""A newer memory changing a value outdates the older for a question asking for a value of that kind
(trial 59 #1): "The deploy freeze starts on 20 December" then "... on 21 December" came back both sure and
unmarked for "when does the deploy freeze start?", the day of the month read as a number, which "when"
does not ask for (``contradiction.about_another_value``)."""

from __future__ import annotations

import pytest

from memvault.storage.contradiction import about_another_value, disagreement
from memvault.storage.ranking import SURE_CONFIDENCE
from memvault.storage.store import Store

FREEZE = "The deploy freeze starts on {}"
DATES = [  # (older's date, newer's date): every way a date can differ
    ("20 December", "21 December"), ("December 20", "December 21"), ("Dec 20", "Dec 21"), ("Dec. 20", "Dec. 21"),
    ("the 20th", "the 21st"), ("20th December", "21st December"), ("the 20th of December", "the 21st of December"),
    ("2026-12-20", "2026-12-21"), ("20/12", "21/12"), ("20/12/2026", "21/12/2026"),
    ("Sunday 20 December", "Monday 21 December"), ("Sunday", "Monday"), ("20 December", "20 January"),
    ("20 December 2026", "20 December 2027"), ("Dec 20, 2026", "Dec 20, 2027"), ("December 2026", "December 2027"),
]
WHEN = ["when does the deploy freeze start?", "what date does the deploy freeze start?",
        "what is the deploy freeze start date?", "which day does the deploy freeze start?",
        "how long until the deploy freeze starts?", "when does the deploy freeze start now?"]


@pytest.mark.parametrize(("was", "now"), DATES)
@pytest.mark.parametrize("question", WHEN)
def test_a_changed_date_is_what_a_question_asking_when_asks_for(was, now, question):
    reason = disagreement(FREEZE.format(was), FREEZE.format(now))
    assert reason is not None and reason.split(":")[0] in ("different date", "different day", "different month")
    assert not about_another_value(question, reason)


@pytest.mark.parametrize(("older", "newer", "question"), [
    ("The payments API version is 2.3", "The payments API version is 2.4", "which version is the payments API?"),
    ("The payments API runs kong-3.6", "The payments API runs kong-3.7", "which version does the payments API run?"),
    ("Redis listens on port 6379", "Redis listens on port 6380", "which port does Redis listen on?"),
    ("The Pro plan costs $20 a month", "The Pro plan costs $25 a month", "how much does the Pro plan cost?"),
    ("The Pro plan costs 20€ a month", "The Pro plan costs 25€ a month", "what is the price of the Pro plan?"),
    ("The Pro plan costs 20 euros a month", "The Pro plan costs 25 euros a month", "what does the Pro plan cost?"),
    ("We run 4 replicas of the database", "We run 6 replicas of the database", "how many replicas do we run?"),
    ("A full build takes 12 minutes", "A full build takes 20 minutes", "how long does a full build take?"),
    ("The API timeout is 30 seconds", "The API timeout is 45 seconds", "how long is the API timeout?"),
    ("The standup is at 9:30 in room Oak", "The standup is at 10:00 in room Oak", "what time is the standup?"),
])
def test_a_changed_value_is_what_a_question_asking_for_its_kind_asks_for(older, newer, question):
    reason = disagreement(older, newer)
    assert reason is not None and not about_another_value(question, reason)


@pytest.mark.parametrize(("older", "newer", "question"), [  # must stay: another kind than asked
    ("The deploy freeze starts on 20 December", "The deploy freeze starts on 21 December", "which port?"),
    ("The deploy freeze starts on 20 December", "The deploy freeze starts on 21 December",
     "how much does the deploy freeze cost?"),
    ("Redis listens on port 6379", "Redis listens on port 6380", "when does Redis listen?"),
    ("The payments API version is 2.3", "The payments API version is 2.4", "who owns the payments API?"),
])
def test_a_changed_value_of_another_kind_than_asked_outdates_nothing(older, newer, question):
    reason = disagreement(older, newer)
    assert reason is not None and about_another_value(question, reason)


@pytest.mark.parametrize(("text", "value"), [  # must stay: numbers that are no date
    ("We run 4 replicas, 20 in December", "4"), ("The office is on the 4th floor", "4"),
    ("A 3/4 share of the budget", "3/4"), ("In 2000 requests the cache warms up", "2000"),
])
def test_a_number_beside_no_date_stays_a_number(text, value):
    from memvault.storage.contradiction import _read

    assert value not in _read(text).values.get("date", {})


@pytest.mark.parametrize(("was", "now"), [("20 December", "21 December"), ("the 20th", "the 21st"),
                                          ("2026-12-20", "2026-12-21"), ("Dec 20", "Dec 21"),
                                          ("December 2026", "December 2027")])
@pytest.mark.parametrize("question", WHEN[:3] + WHEN[5:])
def test_recall_marks_the_older_date_outdated_and_unsure(db, real_embedder, was, now, question):
    s = Store(db, real_embedder)
    older = s.remember(tenant="t", scope="p", content=FREEZE.format(was), observed_at="2026-11-20T10:00:00Z").id
    newer = s.remember(tenant="t", scope="p", content=FREEZE.format(now), observed_at="2026-11-25T10:00:00Z").id
    hits = s.recall(tenant="t", query=question, scopes=["p"]).hits
    s.close()
    assert hits[0].memory.id == newer and hits[0].outdated_by is None
    old = next(h for h in hits if h.memory.id == older)
    assert old.outdated_by == newer and old.confidence < SURE_CONFIDENCE


@pytest.mark.parametrize(("question", "reason", "expected"), [
    ("what is the hiring plan for next month?", "different number: 3 → 5", False),  # "month" is context here
    ("what is the long-term plan for the API?", "different name: helix → zed", False),
    ("what is the budget this year?", "different number: 20000 → 25000", False),
    ("which year does the migration finish?", "different name: helix → zed", True),
    ("how long until the freeze?", "different name: helix → zed", True),
])
def test_words_asking_for_a_kind_only_together_are_read_together(question, reason, expected):
    assert about_another_value(question, reason) is expected


# Every date form the contradiction test reads as differing is a date to a question asking when (verify 59 #1:
# "Dec 20" → "Jan 4" was another name, "in 2027" → "in 2028" and "20.12.2026" another number, "18/12" another
# identifier, so "when ..." came back both sure and unmarked).
DATE_FORMS = [
    ("Dec 20", "Jan 4"), ("on Dec 20", "on Jan 4"), ("Dec. 20", "Jan. 4"), ("20 Dec", "4 Jan"), ("in Dec", "in Jan"),
    ("Sept 3", "Oct 4"), ("Dec 20, 2026", "Jan 4, 2027"), ("Dec 2026", "Jan 2027"),
    ("in 2027", "in 2028"), ("by 2027", "by 2028"), ("since 2027", "since 2028"), ("until 2027", "until 2028"),
    ("from 2027", "from 2028"), ("in 2027.", "in 2028."),
    ("18/12", "23/12"), ("12/20", "12/21"), ("on 18/12", "on 23/12"), ("on 12-20", "on 12-21"),
    ("20/12/2026", "21/12/2026"), ("2026/12/20", "2026/12/21"), ("20.12.2026", "21.12.2026"),
    ("on 20.12.2026", "on 21.12.2026"), ("2026-12-20", "2026-12-21"),
]
ASKING_WHEN = ["when does the deploy freeze start?", "what date does the deploy freeze start?",
               "which day does the deploy freeze start?", "which year does the deploy freeze start?"]


@pytest.mark.parametrize(("was", "now"), DATE_FORMS)
@pytest.mark.parametrize("question", ASKING_WHEN)
def test_every_date_form_changed_is_a_date_to_a_question_asking_when(was, now, question):
    reason = disagreement(FREEZE.format(was), FREEZE.format(now))
    assert reason is not None and reason.split(":")[0] in ("different date", "different month")
    assert not about_another_value(question, reason)


@pytest.mark.parametrize(("text", "kind", "value"), [  # must stay: no date
    ("Jan owns the payments API", "name", "jan"), ("Python runs on 22.04", "number", "22.04"),
    ("We run 4 replicas in 2027 regions", "number", "2027"), ("A 3/4 share of the budget", "ident", "3/4"),
    ("The build scales to 12-20 workers", "ident", "12-20"), ("The API version is 20.12.1", "number", "20.12.1"),
])
def test_a_value_beside_no_date_keeps_its_kind(text, kind, value):
    from memvault.storage.contradiction import _read

    assert value in _read(text).values.get(kind, {})


@pytest.mark.parametrize(("older", "newer", "question"), [
    ("The code freeze begins Dec 20", "The code freeze begins Jan 4", "when does the code freeze begin?"),
    ("The contract renewal is due in 2027", "The contract renewal is due in 2028", "when is the contract renewal due?"),
    ("Maria's last day is 18/12", "Maria's last day is 23/12", "when is Maria's last day?"),
    ("The deploy freeze starts on 20.12.2026", "The deploy freeze starts on 21.12.2026",
     "when does the deploy freeze start?"),
])
def test_recall_marks_the_older_of_each_date_form_outdated(db, real_embedder, older, newer, question):
    s = Store(db, real_embedder)
    old = s.remember(tenant="t", scope="p", content=older, observed_at="2026-11-20T10:00:00Z").id
    new = s.remember(tenant="t", scope="p", content=newer, observed_at="2026-11-25T10:00:00Z").id
    hits = s.recall(tenant="t", query=question, scopes=["p"]).hits
    s.close()
    assert hits[0].memory.id == new and hits[0].outdated_by is None
    was = next(h for h in hits if h.memory.id == old)
    assert was.outdated_by == new and was.confidence < SURE_CONFIDENCE
