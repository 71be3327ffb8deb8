"""What a question means, against a store with the real model (issue 25, part 2): a weekday, a
month's name or a number is a time only in a temporal context; a time's words still count as
keywords; a time alone never makes a hit sure; emoji and vowel-marked scripts match."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memvault.storage.store import Store

SCOPES = ["proj"]
NOW = datetime(2026, 11, 27, 15, 0, tzinfo=UTC)  # a Friday
FILLER = [
    "The design review covered the onboarding flow and the colour of the primary buttons.",
    "The conference travel budget was approved with a cap on hotel nights per person.",
    "Quarterly planning produced eleven goals, three of them about developer experience.",
    "The mobile team prefers feature flags over long-lived branches for risky changes.",
]


def clock() -> int:
    return int(NOW.timestamp() * 1000)


@pytest.fixture
def store(made_db, real_embedder):
    s = Store(made_db, real_embedder, clock=clock)
    yield s
    s.close()


@pytest.fixture(scope="module")
def shared_clock():
    """The clock of the stores ``shared_store`` fills (conftest)."""
    return clock


def remember(store: Store, content: str, kind: str = "fact", days_ago: float | None = None,
             at: str | None = None) -> str:
    when = at or (NOW - timedelta(days=days_ago or 200)).isoformat()
    return store.remember(tenant="t", scope="proj", content=content, kind=kind, observed_at=when).id


def recall(store: Store, query: str):  # type: ignore[no-untyped-def]
    return store.recall(tenant="t", query=query, scopes=SCOPES).hits


def with_filler(store: Store) -> None:
    for text in FILLER:
        remember(store, text)


@pytest.mark.parametrize(("rule", "question", "day"), [
    ("Never deploy on Fridays: the on-call rota is thin over the weekend.", "can I ship a release on a Friday?", 0),
    ("Never deploy on Fridays: the on-call rota is thin over the weekend.", "can I deploy on Friday?", 0),
    ("No schema migrations on Mondays: the billing batch runs all day.", "can we run a schema migration on Monday?", 4),
    ("Database upgrades are not allowed on Tuesdays because of the payroll export.",
     "is a database upgrade allowed on a Tuesday?", 3),
    ("Nobody merges to main on Sundays, the CI fleet is patched then.", "should I merge to main on Sunday", 5),
])
def test_a_weekday_in_a_question_about_any_such_day_is_not_a_date(store, rule, question, day):
    """Issue 25: "can I ship a release on a Friday?" put a decision made last Friday first at 0.68."""
    with_filler(store)
    wanted = remember(store, rule, kind="decision")
    that_day = remember(store, "Chose Grafana over Kibana for the team dashboards", kind="decision",
                        days_ago=day + 7 if day == 0 else day)
    hits = recall(store, question)
    assert hits[0].memory.id == wanted
    assert all(h.confidence < hits[0].confidence for h in hits if h.memory.id == that_day)


@pytest.mark.parametrize(("fact", "question", "month"), [
    ("May prefers oat milk in her flat white.", "What does May prefer to drink?", "05"),
    ("Jan approves every change to the firewall rules.", "What does Jan approve?", "01"),
    ("April thinks the office move should wait until the lease ends.", "What does April think about the office move?",
     "04"),
    ("June owns the quarterly access review.", "What does June own?", "06"),
    ("August is the release manager for the mobile apps.", "Which apps is August the release manager for?", "08"),
])
def test_a_name_that_is_also_a_month_is_read_as_a_name(store, fact, question, month):
    """Issue 25: "What does May prefer to drink?" put an episode of May first."""
    with_filler(store)
    wanted = remember(store, fact, kind="preference" if "prefer" in fact else "fact")
    for day in (3, 12):
        remember(store, f"Reviewed the access logs and rotated the deploy keys (day {day})", kind="episode",
                 at=f"2026-{month}-{day:02d}T10:00:00Z")
    hits = recall(store, question)
    assert hits[0].memory.id == wanted and hits[0].confidence >= 0.5


@pytest.mark.parametrize(("number", "year"), [("2049", None), ("2020", "2020"), ("1999", "1999"), ("2024", "2024")])
def test_a_number_that_is_no_year_is_a_keyword(store, number, year):
    """Issue 25: "which service listens on port 2049?" ranked the NFS memory second."""
    with_filler(store)
    wanted = remember(store, f"The NFS server on files-01 listens on port {number}.")
    remember(store, "The metrics exporter service listens on port 9100.")
    remember(store, "The auth service listens on port 8443 behind the load balancer.")
    if year is not None:
        remember(store, "The legacy service was moved behind the new load balancer", kind="episode",
                 at=f"{year}-06-01T10:00:00Z")
    hits = recall(store, f"which service listens on port {number}?")
    assert hits[0].memory.id == wanted and hits[0].confidence >= 0.5


@pytest.mark.parametrize(("content", "question"), [
    ("The TLS certificate of api.example.org expires on 2027-03-14.", "which certificate expires on 2027-03-14?"),
    ("Release train 2023-10-01 carries the new PDF parser.", "what does release train 2023-10-01 carry?"),
    ("The vendor contract renews on 2025-09-30 unless cancelled.", "what happens on 2025-09-30?"),
    ("Snapshot 2024-02-29 is the last one before the schema change.", "2024-02-29"),
])
def test_a_date_written_in_a_memory_keeps_its_keyword_weight(store, content, question):
    """Issue 25: the memory holding 2027-03-14 ranked 5th; a date-shaped identifier's 0.95
    match dropped to 0.44: the date's words no longer counted as keywords."""
    with_filler(store)
    for other in ("The TLS certificate of www.example.org expires on 2026-12-01.",
                  "Release train 2023-09-15 carries the new image resizer.",
                  "The vendor contract for the CDN renews on 2026-01-31."):
        remember(store, other)
    wanted = remember(store, content)
    hits = recall(store, question)
    assert hits[0].memory.id == wanted and hits[0].confidence >= 0.6


CHANGES = [
    "Changed the log retention of the API gateway to 14 days",
    "Changed the default instance type of the CI runners",
    "Changed the alert threshold of the disk usage check",
    "Changed the TTL of the DNS records of the status page",
    "Changed the timeout of the payment webhook to 10 seconds",
    "Changed the owner of the nightly backup job",
]


def _changes(store: Store, days: dict[str, float]) -> dict[str, str]:
    """The first ``len(days)`` of :data:`CHANGES`, each an episode ``days[name]`` days ago: {name: id}."""
    return {name: remember(store, text, kind="episode", days_ago=ago)
            for (name, ago), text in zip(days.items(), CHANGES[:len(days)], strict=True)}


def changes_this_week(store: Store) -> dict[str, str]:
    return _changes(store, {"mon": 4, "wed": 2, "thu": 1, "last-fri": 7, "last-tue": 10})


@pytest.mark.parametrize(("question", "wanted"), [
    ("what did we change this week?", {"mon", "wed", "thu"}),
    ("what did we change since Monday?", {"mon", "wed", "thu"}),
    ("what did we change since Wednesday?", {"wed", "thu"}),
])
def test_this_week_and_since_run_from_their_start_to_now(shared_store, question, wanted):
    """Issue 25: "this week" on a Friday was Friday to next Friday; "since Monday" was Monday alone."""
    store, ids = shared_store(changes_this_week)
    hits = recall(store, question)
    assert {h.memory.id for h in hits[:len(wanted)]} == {ids[name] for name in wanted}


def changes_back_to_200_days(store: Store) -> dict[str, str]:
    return _changes(store, {"night": 0.5, "2d": 2, "10d": 10, "20d": 20, "60d": 60, "200d": 200})


@pytest.mark.contract  # the time range is a candidate filter in each backend's own query
@pytest.mark.parametrize(("question", "wanted"), [
    ("what did we change in the last two weeks?", {"night", "2d", "10d"}),
    ("what did we change over the past 14 days?", {"night", "2d", "10d"}),
    ("what did we change in the past 3 days?", {"night", "2d"}),
    ("what did we change over the past week?", {"night", "2d"}),
    ("what did we change in the past month?", {"night", "2d", "10d", "20d"}),
    ("what did we change over the last three months", {"night", "2d", "10d", "20d", "60d"}),
    ("what did we change the day before yesterday?", {"2d"}),
    ("what did we change last night?", {"night"}),
])
def test_a_window_back_from_now_finds_what_was_observed_in_it(shared_store, question, wanted):
    """Issue 25: "the last two weeks", "past 3 days" were no time, "the day before yesterday" was
    yesterday, "last night" no time."""
    store, ids = shared_store(changes_back_to_200_days)
    hits = recall(store, question)
    assert {h.memory.id for h in hits[:len(wanted)]} == {ids[name] for name in wanted}


def test_a_time_match_alone_does_not_make_a_hit_sure(store):
    """Issue 25: "what did Aiko decide today?" returned today's decision not mentioning Aiko at 0.84."""
    with_filler(store)
    today = remember(store, "Decided to move the nightly batch jobs to Kubernetes CronJobs", kind="decision",
                     days_ago=0.1)
    yesterday = remember(store, "We chose Loki over Elasticsearch for the application logs", kind="decision",
                         days_ago=1)
    aiko = remember(store, "Aiko decided the search service keeps Elasticsearch until the summer", kind="decision",
                    days_ago=30)
    for question, then in (("what did Aiko decide today?", today), ("What did Aiko decide yesterday?", yesterday),
                           ("what did Aiko decide this week", today)):
        hits = {h.memory.id: h for h in recall(store, question)}
        assert hits[then].confidence < 0.5 and aiko in hits, question
    # A question asking only for the time is answered by it.
    assert recall(store, "what did we decide today?")[0].memory.id == today
    assert recall(store, "what did we decide today?")[0].confidence >= 0.5


THEN = {"today": 0.1, "yesterday": 1, "last week": 5}  # days ago of an unnamed decision of each time
NAMED_DECISIONS = [
    ("Mark approved moving the billing database to PostgreSQL 18", "What did Mark decide yesterday?", "yesterday"),
    ("Priya signed off on keeping the monolith for the admin tool", "what did Priya agree to last week?",
     "last week"),
    ("Tomas went with Grafana Cloud for the dashboards", "which decision did Tomas make today?", "today"),
    ("Lena settled on Rust for the ingest service", "What did Lena choose yesterday?", "yesterday"),
    ("Jonas rejected the proposal to self-host the CI runners", "what did Jonas decide this week?", "today"),
]


def unnamed_decisions(store: Store) -> dict[str, str]:
    """A decision naming nobody on each time of ``THEN``: {time: id}."""
    return {then: remember(store, text, kind="decision", days_ago=ago) for (then, ago), text in zip(THEN.items(), (
        "Decided to move the nightly batch jobs to Kubernetes CronJobs",
        "We chose Loki over Elasticsearch for the application logs",
        "We picked Terraform Cloud for the infrastructure runs"), strict=True)}


@pytest.mark.contract  # which memory holds a name is read from each backend's own index
@pytest.mark.parametrize(("named", "question", "then"), NAMED_DECISIONS)
def test_a_decision_of_the_time_asked_not_naming_whom_is_not_sure(store, named, question, then):
    """Issue 25: "What did Mark decide yesterday?" gave yesterday's decision naming nobody at 0.72
    (a time match alone), whatever the verb of Mark's own decision ("approved")."""
    with_filler(store)
    unnamed = unnamed_decisions(store)
    mark = remember(store, named, kind="decision", days_ago=30)
    hits = recall(store, question)
    assert {mark, unnamed[then]} <= {h.memory.id for h in hits}
    assert all(h.confidence < 0.5 for h in hits if h.memory.id in unnamed.values()), [
        (h.memory.content, h.confidence) for h in hits]


@pytest.mark.parametrize(("named", "question", "then"), NAMED_DECISIONS)
def test_a_named_decision_of_the_time_asked_is_first_and_sure(store, named, question, then):
    with_filler(store)
    unnamed_decisions(store)
    mark = remember(store, named, kind="decision", days_ago=THEN[then] + 0.05)
    hits = recall(store, question)
    assert hits[0].memory.id == mark and hits[0].confidence >= 0.5


# Decisions of other teams, each on a time a question below names (NOW is Friday 27 November 2026).
TEAM_DECISIONS = {
    "tuesday": ("Marketing decided to pause the newsletter", "2026-11-24T10:00:00Z"),
    "yesterday": ("Tom decided to drop the legacy export endpoint", "2026-11-26T10:00:00Z"),
    "1 december": ("Marketing decided to move the launch to spring", "2025-12-01T10:00:00Z"),
    "october": ("The design guild settled on a single icon set", "2026-10-14T10:00:00Z"),
}


def team_decisions(store: Store) -> dict[str, str]:
    """:data:`TEAM_DECISIONS` stored: {time: id}."""
    return {then: remember(store, text, kind="decision", at=at) for then, (text, at) in TEAM_DECISIONS.items()}


def filler_and_team_decisions(store: Store) -> dict[str, str]:
    with_filler(store)
    return team_decisions(store)


def team_decisions_and_others(store: Store) -> dict[str, str]:
    """The filler, :func:`team_decisions` (its result) and two memories of other times."""
    with_filler(store)
    ids = team_decisions(store)
    remember(store, "We chose Loki over Elasticsearch for the application logs", kind="decision", days_ago=40)
    remember(store, "Priya leads the platform team since the spring reorganisation", days_ago=90)
    return ids


@pytest.mark.contract  # which memory holds a subject's words is read from each backend's own index
@pytest.mark.parametrize(("question", "then"), [
    ("what did the finance team decide on Tuesday?", "tuesday"),
    ("what did finance decide on Tuesday?", "tuesday"),
    ("What did the landlord decide on Tuesday?", "tuesday"),
    ("what did legal decide yesterday?", "yesterday"),
    ("what did our landlord decide yesterday?", "yesterday"),
    ("What did the mobile app team decide yesterday?", "yesterday"),
    ("what did product decide on 1 December?", "1 december"),
    ("what did the CFO decide on 1 December?", "1 december"),
    ("what did procurement decide in October?", "october"),
    ("what did the security reviewers choose in October?", "october"),
    ("what did Priya decide on Tuesday?", "tuesday"),  # a name only a fact holds
    ("What did Priya's platform team agree on yesterday?", "yesterday"),
])
def test_a_decision_of_the_time_asked_about_another_subject_is_not_sure(shared_store, question, then):
    """Issue 25: "what did the finance team decide on Tuesday?" gave Marketing's decision of that
    Tuesday at 0.91 (0.32 without "on Tuesday"): a subject in common nouns that no hit holds."""
    store, ids = shared_store(team_decisions_and_others)
    hits = recall(store, question)
    assert all(h.confidence < 0.5 for h in hits if h.memory.id in ids.values()), [
        (h.memory.content, h.confidence) for h in hits]
    assert not hits or ids[then] in {h.memory.id for h in hits}  # still found, only not sure


def group_decisions(store: Store) -> tuple[str, str]:
    with_filler(store)
    data = remember(store, "The data team settled on Parquet for exports", kind="decision", at="2026-11-24T10:00:00Z")
    also = remember(store, "The platform group and the sales department agreed on weekly syncs", kind="decision",
                    at="2026-11-24T11:00:00Z")
    return data, also


@pytest.mark.contract
@pytest.mark.parametrize("question", [
    "what did the support team decide on Tuesday?", "what did the finance team decide on Tuesday?",
    "what did the security group decide on Tuesday?", "what did the HR department decide on Tuesday?",
    "what did the ops folks decide on Tuesday?", "What did the legal people decide on Tuesday?",
])
def test_a_word_for_a_group_is_no_subject_a_decision_holds(shared_store, question):
    """The adversarial pass of stop 44: "the support team" was held by the data team's decision, which
    says "team" too (0.82); a word for a group names a subject only with another word."""
    store, (data, also) = shared_store(group_decisions)
    hits = recall(store, question)
    assert all(h.confidence < 0.5 for h in hits if h.memory.id in (data, also)), [
        (h.memory.content, h.confidence) for h in hits]
    owned = recall(store, "what did the data team decide on Tuesday?")
    assert owned[0].memory.id == data and owned[0].confidence >= 0.5  # its own subject still held


@pytest.mark.parametrize(("question", "then"), [
    ("what did Marketing decide on Tuesday?", "tuesday"),
    ("what did marketing decide on Tuesday?", "tuesday"),
    ("What did the marketing team decide on Tuesday?", "tuesday"),
    ("what did Tom decide yesterday?", "yesterday"),
    ("which endpoint did we decide to drop yesterday?", "yesterday"),
    ("what did Marketing decide on 1 December?", "1 december"),
    ("what did the design guild decide in October?", "october"),
    ("what did we decide on Tuesday?", "tuesday"),
    ("what did we decide in October?", "october"),
])
def test_a_decision_holding_the_subject_and_the_time_stays_first_and_sure(shared_store, question, then):
    store, ids = shared_store(filler_and_team_decisions)
    hits = recall(store, question)
    assert hits[0].memory.id == ids[then] and hits[0].confidence >= 0.5, [
        (h.memory.content, h.confidence) for h in hits]


def numbers_and_a_year(store: Store) -> tuple[str, str, str]:
    with_filler(store)
    return (remember(store, "Ticket 2019 tracks the flaky login test", days_ago=80),
            remember(store, "The staging proxy listens on port 2019", days_ago=60),
            remember(store, "We moved the office to Lisbon in 2019", days_ago=50))


@pytest.mark.contract
@pytest.mark.parametrize("question", ["what happened in 2019?", "What did we do in 2019?", "anything from 2019?"])
def test_a_number_in_a_memory_is_not_the_year_a_question_names(shared_store, question):
    """Issue 25: "what happened in 2019?" gave "Ticket 2019 tracks the flaky login test" (stored
    in 2026) at 0.50: the identifier read as the year."""
    store, (ticket, port, then) = shared_store(numbers_and_a_year)
    hits = recall(store, question)
    assert hits and hits[0].memory.id == then, [(h.memory.content, h.confidence) for h in hits]
    assert all(h.confidence < 0.5 for h in hits if h.memory.id in (ticket, port)), [
        (h.memory.content, h.confidence) for h in hits]


def unnamed_and_mark(store: Store) -> dict[str, str]:
    """The filler, :func:`unnamed_decisions` (its result) and Mark's decision of a month ago."""
    with_filler(store)
    unnamed = unnamed_decisions(store)
    remember(store, "Mark approved moving the billing database to PostgreSQL 18", kind="decision", days_ago=30)
    return unnamed


@pytest.mark.parametrize(("question", "then"), [
    ("what did we decide yesterday?", "yesterday"), ("what was decided last week?", "last week"),
    ("which decisions did we make today?", "today"),
])
def test_a_question_naming_nobody_is_answered_surely_by_its_time(shared_store, question, then):
    store, unnamed = shared_store(unnamed_and_mark)
    hits = recall(store, question)
    assert hits[0].memory.id == unnamed[then] and hits[0].confidence >= 0.5


@pytest.mark.parametrize(("question", "at"), [
    ("What did Mel and her kids paint in July?", "2026-07-15T18:00:00Z"),
    ("what did Mel's kids paint yesterday?", "2026-11-26T18:00:00Z"),
])
def test_a_turn_not_naming_whom_a_question_without_a_kind_asks_about_stays_sure(store, question, at):
    """In a conversation the answering turn often does not name its speaker; only a question
    naming a kind ("decide") makes a memory naming the person a rival (LoCoMo: "What did Mel and
    her kids paint ... in July 2023?" fell from 0.22 to 0.05 without that condition)."""
    with_filler(store)
    wanted = remember(store, "We love painting together: our latest one is a sunset over the lake with the kids",
                      kind="episode", at=at)
    remember(store, "Wow Mel, that is amazing, the colours are so bold!", kind="episode", at=at[:-6] + "05:00Z")
    remember(store, "Mel said the kids' school starts again in September", kind="episode", at="2026-05-02T10:00:00Z")
    hits = recall(store, question)
    assert hits[0].memory.id == wanted and hits[0].confidence >= 0.5


def test_memories_that_answer_equally_are_equally_sure(store):
    """Issue 25: of all the decisions of last week only the first was confident (0.65-0.82), the
    rest 0.01-0.13."""
    with_filler(store)
    week = [remember(store, text, kind="decision", days_ago=ago) for text, ago in (
        ("Chose Stripe over Adyen for card payments", 6), ("Picked PostgreSQL 18 for the billing database", 8),
        ("Moved the design reviews to Thursdays", 9), ("Dropped the Python 3.9 support from the SDK", 10))]
    for text, ago in (("Replaced Jenkins with GitHub Actions", 40), ("Adopted Renovate for dependency updates", 90)):
        remember(store, text, kind="decision", days_ago=ago)
    hits = recall(store, "what decisions did we make last week?")
    assert {h.memory.id for h in hits[:4]} == set(week)
    sure = [h.confidence for h in hits[:4]]
    assert min(sure) >= 0.5 and max(sure) - min(sure) < 0.2, sure


# One memory of each meaning a question's verb may ask for (``query.MEANINGS``), all of one time,
# and one of none: {meaning: (text, kind)}.
OF_A_DAY = {
    "failure": ("The CI runners ran out of disk space", "failure"),
    "failure episode": ("The checkout page returned errors for ten minutes after the cache flush", "episode"),
    "decision": ("Tom decided to drop support for Python 3.9", "decision"),
    "release": ("Deployed the billing service v3", "episode"),
    "meeting": ("Met the Acme procurement lead to go over the contract", "episode"),
    "none": ("Sales closed the Acme deal", "episode"),
}
# Times a question names (NOW is Friday 27 November 2026) and when such a memory was observed.
TIMES = {
    "yesterday": "2026-11-26T10:00:00Z", "on Tuesday": "2026-11-24T10:00:00Z", "2 days ago": "2026-11-25T10:00:00Z",
    "on November 24th": "2026-11-24T10:00:00Z", "in October": "2026-10-14T10:00:00Z",
}
# Questions whose verb asks for a meaning, naming no subject: {question ({} the time): meanings that fit}.
VERBS = {
    "what failed {}?": {"failure", "failure episode"},
    "what went wrong {}?": {"failure", "failure episode"},
    "what broke {}?": {"failure", "failure episode"},
    "what crashed {}?": {"failure", "failure episode"},
    "which errors did we get {}?": {"failure", "failure episode"},
    "what did we decide {}?": {"decision"},
    "what did we approve {}?": {"decision"},
    "what was chosen {}?": {"decision"},
    "what did we agree to {}?": {"decision"},
    "what did we deploy {}?": {"release"},
    "what did we ship {}?": {"release"},
    "what was released {}?": {"release"},
    "who did we meet {}?": {"meeting"},
    "which meetings did we have {}?": {"meeting"},
}


def of_a_day(store: Store, at: str) -> dict[str, str]:
    """:data:`OF_A_DAY` stored, each observed an hour apart from ``at`` (no episode the context of
    another): {meaning: id}."""
    start = datetime.fromisoformat(at)
    return {meaning: remember(store, text, kind=kind, at=(start + timedelta(hours=i)).isoformat())
            for i, (meaning, (text, kind)) in enumerate(OF_A_DAY.items())}


def filler_and_day(store: Store, at: str) -> dict[str, str]:
    """The filler and :func:`of_a_day` (its result)."""
    with_filler(store)
    return of_a_day(store, at)


@pytest.mark.contract  # which memory holds a meaning's words is read from each backend's own index
@pytest.mark.parametrize("then", list(TIMES))
@pytest.mark.parametrize("question", list(VERBS))
def test_a_hit_of_the_time_asked_that_is_not_what_the_verb_asks_for_is_not_sure(shared_store, question, then):
    """Issue 25 §2.6 (adversarial pass): "what failed yesterday?" gave yesterday's decision "Tom
    decided to drop support for Python 3.9" at 0.86 and a deployment at 0.82: a time alone."""
    store, ids = shared_store(filler_and_day, TIMES[then])
    hits = recall(store, question.format(then))
    fitting = {ids[meaning] for meaning in VERBS[question]}
    assert all(h.confidence < 0.5 for h in hits if h.memory.id in set(ids.values()) - fitting), [
        (h.memory.content, h.confidence) for h in hits]
    assert hits and hits[0].memory.id in fitting and hits[0].confidence >= 0.5, [
        (h.memory.content, h.confidence) for h in hits]


@pytest.mark.contract
@pytest.mark.parametrize("then", ["yesterday", "on Tuesday", "2 days ago", "on November 24th"])
@pytest.mark.parametrize("question", [
    "what was decided by the finance folks {}?", "what did legal approve {}?", "what did the finance team decide {}?",
    "what did the landlord choose {}?", "what did the auditors approve {}?", "what did the security team sign off on {}?",
    "what did the mobile team decide {}?", "what did the board agree on {}?",
])
def test_a_hit_of_the_time_asked_not_of_the_verb_nor_the_subject_is_not_sure(shared_store, question, then):
    """Issue 25 §2.6 (adversarial pass): "what was decided by the finance folks on December 1?" gave
    the episode "Sales closed the Acme deal" of that day at 0.58: only decisions were held to the subject."""
    store, ids = shared_store(filler_and_day, TIMES[then])
    hits = recall(store, question.format(then))
    assert all(h.confidence < 0.5 for h in hits if h.memory.id in ids.values()), [
        (h.memory.content, h.confidence) for h in hits]


@pytest.mark.contract
@pytest.mark.parametrize(("question", "wanted"), [
    ("what failed yesterday?", "The CI runners ran out of disk space"),
    ("what did Priya decide yesterday?", "Priya chose Redis for the session cache"),
    ("What broke at home in January 2024?", "Heat pump stopped with alarm code A11 during the cold snap"),
    ("what went wrong in the kitchen last week?", "The dishwasher leaked all over the floor"),
    ("What did Sales do on Tuesday?", "Sales closed the Globex deal"),
])
def test_what_the_verb_asks_for_stays_first_and_sure(shared_store, question, wanted):
    store, _ = shared_store(acts_at_work_and_home)
    hits = recall(store, question)
    assert hits[0].memory.content == wanted and hits[0].confidence >= 0.5, [
        (h.memory.content, h.confidence) for h in hits]


def acts_at_work_and_home(store: Store) -> None:
    with_filler(store)
    of_a_day(store, "2026-11-26T10:00:00Z")
    # (OF_A_DAY's "Sales closed the Acme deal" is of Thursday: the same text again would stay Thursday's)
    remember(store, "Sales closed the Globex deal", kind="episode", at="2026-11-24T10:00:00Z")
    remember(store, "Priya chose Redis for the session cache", kind="decision", at="2026-11-26T12:00:00Z")
    remember(store, "Priya leads the platform team since the spring reorganisation", days_ago=90)
    remember(store, "Heat pump stopped with alarm code A11 during the cold snap", kind="failure",
             at="2024-01-16T07:15:00Z")
    remember(store, "We decided to keep the thermostat at 20 degrees over winter", kind="decision",
             at="2024-01-20T10:00:00Z")
    remember(store, "Booked the chimney sweep for February", kind="episode", at="2024-01-22T10:00:00Z")
    remember(store, "The dishwasher leaked all over the floor", kind="episode", at="2026-11-18T19:00:00Z")
    remember(store, "Bought new curtains for the living room", kind="episode", at="2026-11-19T19:00:00Z")


@pytest.mark.parametrize("question", ["what happened yesterday?", "what did we do yesterday?"])
def test_a_question_without_a_verb_of_meaning_is_answered_surely_by_its_time(shared_store, question):
    store, ids = shared_store(filler_and_day, TIMES["yesterday"])  # six: more than the default limit of hits
    sure = {h.memory.id: h.confidence
            for h in store.recall(tenant="t", query=question, scopes=SCOPES, limit=len(ids)).hits}
    assert all(sure.get(i, 0.0) >= 0.5 for i in ids.values()), sure


@pytest.mark.contract
@pytest.mark.parametrize(("content", "query"), [
    ("Release 2.3 is out 🚀 thanks to everyone", "🚀"),
    ("Team lunch on Friday 🎉 for the launch", "🎉"),
    ("Payment API status 🔴 since the last deploy", "🔴"),
    ("Marked the migration ✅ in the tracker", "✅"),
    ("The on-call channel uses 🔥 for an incident", "🔥 incident"),
])
def test_an_emoji_finds_the_memories_holding_it(store, content, query):
    with_filler(store)
    remember(store, "Release 2.2 went out last month without any problem")
    wanted = remember(store, content)
    hits = recall(store, query)
    assert hits and hits[0].memory.id == wanted


SYMBOL_MEMORIES = ("Release 2.3 is out 🚀 thanks to everyone", "Team lunch on Friday 🎉 for the launch",
                   "Payment API status 🔴 since the last deploy", "🎉🎉🎉", "Status: 🟢", "x")


def filler_and_symbols(store: Store) -> list[str]:
    """The filler and :data:`SYMBOL_MEMORIES`: their ids."""
    with_filler(store)
    return [remember(store, text) for text in SYMBOL_MEMORIES]


@pytest.mark.contract
@pytest.mark.parametrize("query", ["😀", "✨✨", "★", "🐛 🦄", "☕?", "is there a ✨?", "😀😀😀", "🫠", "⚙️ ⚡"])
def test_a_symbol_question_matching_no_stored_text_abstains(shared_store, query):
    """An adversarial pass: "😀", stored nowhere, got a hit at 0.33: most symbols embed as one unknown
    token, so a memory of symbols (or of little text) was the vector side's near match."""
    store, _ = shared_store(filler_and_symbols)
    outcome = store.recall(tenant="t", query=query, scopes=SCOPES)
    assert outcome.hits == [] and outcome.abstained, [(h.memory.content, h.confidence) for h in outcome.hits]


@pytest.mark.contract
@pytest.mark.parametrize("query", ["🙂🚀", "🚀✨", "🎉", "is it 🔴?", "😀 🔴"])
def test_a_symbol_question_finds_the_memories_holding_any_of_its_symbols_and_only_those(shared_store, query):
    """"🙂🚀" was one phrase of two symbols: the memory holding 🚀 alone was not found."""
    store, ids = shared_store(filler_and_symbols)
    hits = recall(store, query)
    holding = {ids[i] for i, text in enumerate(SYMBOL_MEMORIES) if any(ch in text for ch in query if not ch.isascii())}
    assert hits and hits[0].signals.keyword_rank == 1 and {h.memory.id for h in hits} == holding


@pytest.mark.contract
@pytest.mark.parametrize(("content", "query"), [
    ("اجتماع الفريق مع مُحَمَّد يوم الأحد", "محمد"),
    ("اجتماع الفريق مع محمد يوم الأحد", "مُحَمَّد"),
    ("الكِتَابُ على الطاولة في المكتب", "الكتاب"),
    ("הפגישה עם דָּוִד נדחתה לשבוע הבא", "דוד"),
    ("הפגישה עם דוד נדחתה לשבוע הבא", "דָּוִד"),
    ("שָׁלוֹם לכל הצוות החדש", "שלום"),
])
def test_arabic_and_hebrew_words_match_whatever_their_vowel_marks(store, content, query):
    with_filler(store)
    remember(store, "اجتماع المبيعات في القاهرة" if "ا" in content else "הצוות החדש מתחיל בינואר")
    wanted = remember(store, content)
    hits = recall(store, query)
    assert hits and hits[0].memory.id == wanted and hits[0].signals.keyword_rank == 1


def test_a_file_indexed_before_symbols_were_words_is_reindexed_on_opening(db_path):
    """A file of schema version 7, its keyword index written with symbols and vowel marks as
    they were typed, is indexed anew by the migration: the emoji and the unmarked word find it."""
    from memvault.storage import maintenance
    from memvault.storage.sqlite import schema
    from memvault.storage.sqlite.db import open_connection, write_transaction

    conn = open_connection(db_path)
    for name in ("memvault_nfc", "memvault_tag", "memvault_hash", "memvault_index_text"):
        conn.create_scalar_function(name, lambda s: s, 1)  # as the earlier memvault indexed: text as written
    with write_transaction(conn):
        for step in schema.MIGRATIONS[:7]:
            step(conn) if callable(step) else conn.execute(step)
        conn.execute("PRAGMA user_version = 7")
        for i, text in enumerate(("Release 2.3 is out 🚀 and שָׁלוֹם to all", "Release 2.2 is out"), start=1):
            conn.execute(
                "INSERT INTO memories(id, tenant, scope, kind, content, content_hash, importance, observed_at,"
                " recorded_at) VALUES (?, 't', 'proj', 'fact', ?, ?, 5, ?, 0)",
                (f"0190a000-0000-7000-8000-00000000000{i}", text, f"h{i}", i))
    conn.close()
    rocket = "0190a000-0000-7000-8000-000000000001"
    store = Store(str(db_path))
    try:
        for query in ("🚀", "שלום"):
            hits = store.recall(tenant="t", query=query, scopes=SCOPES).hits
            assert hits and hits[0].memory.id == rocket and hits[0].signals.keyword_rank == 1
        store.forget(tenant="t", id=rocket)
        assert [p for p in maintenance.check(store) if "FTS5" in p or "integrity" in p] == []
        assert store.recall(tenant="t", query="🚀", scopes=SCOPES).hits == []
    finally:
        store.close()


def plants_and_another_tenant(store: Store) -> None:
    remember(store, "The office plants need water on Mondays", days_ago=40)
    store.remember(tenant="other", scope="proj", content="Priya decided the deploy failed yesterday")


@pytest.mark.contract
@pytest.mark.parametrize("question", ["what failed yesterday?", "what did Priya decide yesterday?",
                                      "deploy notes from last week", "zebra quartz yesterday"])
def test_a_question_no_memory_of_the_tenant_holds_a_word_of_is_answered_on_every_backend(shared_store, question):
    """PostgreSQL's keyword statistics read the tenant's document count as a ``numeric`` (a Decimal) when
    none of the question's terms was counted, and recall failed with a TypeError (adversarial pass)."""
    store, _ = shared_store(plants_and_another_tenant)
    assert all(h.confidence < 0.5 for h in recall(store, question))


# --- the act and the doer a question names (issue 25 §2.6, round 4) ---------------------------------
# Questions whose verb none of :data:`OF_A_DAY` holds, in any form (passive, phrasal, irregular past).
UNHELD_ACTS = [
    "what got fixed {}?", "what did we fix {}?", "what got merged {}?", "what did we merge {}?",
    "what did we build {}?", "what was built {}?", "what got built {}?", "who wrote the spec {}?",
    "what was written {}?", "what did we send {}?", "what has been sent {}?", "what did we pay for {}?",
    "what got paid {}?", "who did we hire {}?", "what did we sell {}?", "what was sold {}?", "what did we buy {}?",
    "what got bought {}?", "what did they teach {}?", "what froze {}?", "what was frozen {}?",
    "what was cancelled {}?", "what did we order {}?", "what did we book {}?", "what got archived {}?",
    "what was translated {}?", "what did we refactor {}?", "what did we sign {}?", "what did we paint {}?",
    "what did we print {}?", "what was renamed {}?", "what did we clean up {}?",
]


def no_rise(hits, of_time, wrong) -> None:  # type: ignore[no-untyped-def]
    """Asserts that no hit of ``wrong`` (of the time asked, not answering the question) is surer than a hit of
    ``of_time`` (all the time's) ranked above it."""
    least = 1.0
    for h in hits:
        assert h.memory.id not in wrong or h.confidence <= least, [(h.memory.content, h.confidence) for h in hits]
        least = min(least, h.confidence) if h.memory.id in of_time else least


@pytest.mark.contract  # which memory holds a verb's forms is read from each backend's own index
@pytest.mark.parametrize("then", ["yesterday", "on Tuesday", "in October"])
@pytest.mark.parametrize("question", UNHELD_ACTS)
def test_a_hit_of_the_time_asked_not_holding_the_act_asked_is_not_sure(shared_store, question, then):
    """Issue 25 §2.6 (round 4): "what got fixed yesterday?" gave that day's checkout errors at 0.82 and
    "what got merged yesterday?" the sales deal at 0.60: only the four meanings' verbs were held to a hit."""
    store, ids = shared_store(filler_and_day, TIMES[then])
    hits = recall(store, question.format(then))
    assert all(h.confidence < 0.5 for h in hits if h.memory.id in ids.values()), [
        (h.memory.content, h.confidence) for h in hits]
    no_rise(hits, set(ids.values()), set(ids.values()))


# A memory of an act in one of its forms, and questions asking for it in others.
HELD_ACTS = [
    ("Built the new base image for the ARM runners", ["what did we build {}?", "what was built {}?",
                                                      "what got built {}?"]),
    ("Sold the old office furniture to a reseller", ["what did we sell {}?", "what was sold {}?",
                                                     "what got sold {}?"]),
    ("Wrote the postmortem of the billing outage", ["what did we write {}?", "what was written {}?",
                                                    "what did Ana write {}?"]),
    ("Sent the quarterly report to the investors", ["what did we send {}?", "what got sent {}?"]),
    ("Bought two laptops for the support desk", ["what did we buy {}?", "what got bought {}?"]),
    ("Merged the pull request splitting the billing module", ["what got merged {}?", "what did we merge {}?"]),
    ("Fixed the flaky login test of the CI suite", ["what got fixed {}?", "what did we fix {}?"]),
    ("Froze the public SDK's API until the release", ["what was frozen {}?", "what did we freeze {}?"]),
    ("Taught the new hires how to use the deploy tool", ["what did we teach {}?", "what was taught {}?"]),
    ("Hiring: we hired a second SRE for the platform", ["who did we hire {}?", "who got hired {}?"]),
    ("Paid the hosting invoice of the EU region", ["what did we pay {}?", "what got paid {}?"]),
]


def day_and_act(store: Store, at: str, content: str, ana: bool) -> tuple[dict[str, str], str]:
    """The filler, :func:`of_a_day` of ``at``, ``content`` seven hours after it (and with ``ana`` Ana's
    postmortem long before): of_a_day's ids and ``content``'s."""
    ids = filler_and_day(store, at)
    wanted = remember(store, content, kind="episode", at=(datetime.fromisoformat(at) + timedelta(hours=7)).isoformat())
    if ana:
        store.remember(tenant="t", scope="proj", content="Ana wrote the postmortem", kind="episode",
                       observed_at=(NOW - timedelta(days=300)).isoformat())
    return ids, wanted


@pytest.mark.parametrize("then", ["yesterday", "on Tuesday"])
@pytest.mark.parametrize(("content", "question"), [(c, q) for c, qs in HELD_ACTS for q in qs])
def test_a_hit_of_the_time_asked_holding_the_act_in_any_form_is_first_and_sure(shared_store, content, question, then):
    store, (ids, wanted) = shared_store(day_and_act, TIMES[then], content, "Ana" in question)
    hits = recall(store, question.format(then))
    assert hits and hits[0].memory.id == wanted and (hits[0].confidence >= 0.5) != ("Ana" in question), [
        (h.memory.content, h.confidence) for h in hits]
    assert all(h.confidence < 0.5 for h in hits if h.memory.id in ids.values()), [
        (h.memory.content, h.confidence) for h in hits]
    no_rise(hits, {wanted, *ids.values()}, set(ids.values()))


# Acts of a day by a doer, and the doers named elsewhere: {name: (text, kind)}.
DOERS_DAY = {
    "marketing pause": ("Marketing paused the newsletter until January", "episode"),
    "ops restart": ("The ops team restarted the search cluster", "episode"),
}
DOERS_ELSEWHERE = [
    "Legal reviews every vendor contract before signature", "HR owns the onboarding checklist",
    "Lena settled on Rust for the ingest service", "Priya leads the platform team since the spring",
    "The infra team runs the Kubernetes clusters", "The finance team closes the books on the 5th",
    "Omar is the release manager of the mobile apps",
]


def doers(store: Store, at: str) -> dict[str, str]:
    """:data:`OF_A_DAY` and :data:`DOERS_DAY` of the time ``at``, :data:`DOERS_ELSEWHERE` long before: {name: id}."""
    ids = of_a_day(store, at)
    start = datetime.fromisoformat(at) + timedelta(hours=len(ids))
    ids.update({name: remember(store, text, kind=kind, at=(start + timedelta(hours=i)).isoformat())
                for i, (name, (text, kind)) in enumerate(DOERS_DAY.items())})
    for text in DOERS_ELSEWHERE:
        remember(store, text, days_ago=300)
    return ids


def filler_and_doers(store: Store, at: str) -> dict[str, str]:
    """The filler and :func:`doers` (its result)."""
    with_filler(store)
    return doers(store, at)


@pytest.mark.contract  # which memory holds the doer is read from each backend's own index
@pytest.mark.parametrize("then", ["yesterday", "on Tuesday", "2 days ago", "in October"])
@pytest.mark.parametrize("question", [
    "what did legal deploy {}?", "what did HR deploy {}?", "what did Lena deploy {}?", "what did Priya ship {}?",
    "what did the infra team deploy {}?", "what did the finance team release {}?", "what did Omar roll out {}?",
    "what was deployed by legal {}?", "what got shipped by the infra team {}?", "what did HR pause {}?",
    "what did legal pause {}?", "what did Lena pause {}?", "what did the finance team put on hold {}?",
    "what did HR restart {}?", "what did Priya's team restart {}?", "what did Lena decide {}?",
    "what did the infra team fail {}?", "what did Omar meet {}?",
])
def test_a_hit_of_the_time_asked_not_holding_the_doer_asked_is_not_sure(shared_store, question, then):
    """Issue 25 §2.6 (round 4): "what did legal deploy yesterday?" gave someone else's deployment of
    that day at 0.88, "what did HR pause on Tuesday?" Marketing's pause at 0.91."""
    store, ids = shared_store(filler_and_doers, TIMES[then])
    hits = recall(store, question.format(then))
    # Sure only as sure as without the time (whose words move the question's vector a little): the act
    # alone ("Marketing paused ..." for "what did legal pause?") is the base model's call, not the time's.
    timeless = {h.memory.id: h.confidence for h in recall(store, question.format("").replace(" ?", "?"))}
    assert all(h.confidence < 0.5 or h.confidence <= timeless.get(h.memory.id, 0.0) + 0.03
               for h in hits if h.memory.id in ids.values()), [(h.memory.content, h.confidence) for h in hits]
    no_rise(hits, set(ids.values()), set(ids.values()))


@pytest.mark.contract
@pytest.mark.parametrize("then", ["yesterday", "on Tuesday"])
@pytest.mark.parametrize(("question", "wanted"), [
    ("what did Marketing pause {}?", "marketing pause"), ("what did marketing pause {}?", "marketing pause"),
    ("what was paused by marketing {}?", "marketing pause"), ("what did the ops team restart {}?", "ops restart"),
    ("what did ops restart {}?", "ops restart"), ("what did we deploy {}?", "release"),
    ("what did Tom decide {}?", "decision"), ("What did Sales close {}?", "none"), ("what did we pause {}?",
                                                                                    "marketing pause"),
])
def test_a_hit_of_the_time_asked_holding_its_doer_and_act_is_first_and_sure(shared_store, question, wanted, then):
    store, ids = shared_store(filler_and_doers, TIMES[then])
    hits = recall(store, question.format(then))
    assert hits[0].memory.id == ids[wanted] and hits[0].confidence >= 0.5, [
        (h.memory.content, h.confidence) for h in hits]
    no_rise(hits, set(ids.values()), set(ids.values()) - {ids[wanted]})


@pytest.mark.parametrize(("content", "question"), [
    ("May prefers oat milk in her flat white.", "What does May prefer?"),
    ("May approved the new hiring plan.", "What did May approve?"),
    ("The May team owns the billing dashboards.", "what does the May team own?"),
    ("Jan approves every firewall change.", "What does Jan approve?"),
    ("June reviews the access list each quarter.", "what does June review?"),
    ("April joined the data team as an analyst.", "which team did April join?"),
    ("August left the company after the reorg.", "when did August leave?"),
    ("March signed the office lease.", "what did March sign?"),
    ("Since May joined, standups start at 9:30.", "what changed since May joined?"),
    ("After June left, Omar took over the release train.", "who took over after June left?"),
])
def test_a_month_written_as_a_name_is_no_time(store, content, question):
    """Issue 25 §2.6 (round 4): "What does May prefer?", "Jan approved": a month only written as one
    (in/during/since May, May 3rd, May 2025) names a time."""
    with_filler(store)
    wanted = remember(store, content, kind="fact", at="2026-09-10T10:00:00Z")
    for month in ("01", "03", "04", "05", "06", "08"):
        remember(store, "Reviewed the access logs and rotated the deploy keys", kind="episode",
                 at=f"2026-{month}-12T10:00:00Z")
    outcome = store.recall(tenant="t", query=question, scopes=SCOPES)
    assert outcome.time is None and outcome.hits[0].memory.id == wanted, [
        (h.memory.content, h.confidence) for h in outcome.hits]


def filler_and_may(store: Store) -> None:
    with_filler(store)
    remember(store, "May approved the new hiring plan.", kind="decision", at="2026-09-10T10:00:00Z")


@pytest.mark.parametrize("question", [
    "what did we ship in May?", "what happened during May?", "what changed since May?", "what did we do on May 3rd?",
    "what happened in May 2026?", "what did we do in early May?", "what was decided at the end of May?",
    "what did we do in June?", "what happened in August?", "what did we ship in Jan?",
])
def test_a_month_written_as_a_month_is_a_time(shared_store, question):
    store, _ = shared_store(filler_and_may)
    outcome = store.recall(tenant="t", query=question, scopes=SCOPES)
    assert outcome.time is not None


def may_and_a_decision_in_may(store: Store) -> tuple[str, str]:
    with_filler(store)
    return (remember(store, "May approved the new hiring plan for the support desk", kind="decision",
                     at="2026-09-10T10:00:00Z"),
            remember(store, "Picked Hetzner for the new build servers", kind="decision", at="2026-05-12T10:00:00Z"))


@pytest.mark.parametrize("question", ["what was decided in May?", "what happened in May?", "what did we decide in May?"])
def test_a_memory_naming_a_person_after_a_month_does_not_say_that_month(shared_store, question):
    store, (named, then) = shared_store(may_and_a_decision_in_may)
    hits = recall(store, question)
    assert hits[0].memory.id == then and all(h.confidence < 0.5 for h in hits if h.memory.id == named), [
        (h.memory.content, h.confidence) for h in hits]


@pytest.mark.contract
@pytest.mark.parametrize("then", list(TIMES))
@pytest.mark.parametrize("question", [
    "what did we roll out {}?", "what got rolled out {}?", "what was rolled out {}?", "what did the team roll out {}?",
    "what did we launch {}?", "what got launched {}?", "what was deployed {}?",
])
def test_no_hit_of_the_time_asked_not_answering_is_surer_than_one_above_it(shared_store, question, then):
    """Issue 25 §2.6 (round 4): "what did we roll out yesterday?" gave that day's CI failure first at 0.89
    (a phrasal verb of release); of a day's hits, one not answering is never surer than one above it."""
    store, ids = shared_store(filler_and_day, TIMES[then])
    hits = recall(store, question.format(then))
    wrong = set(ids.values()) - {ids["release"]}
    assert all(h.confidence < 0.5 for h in hits if h.memory.id in wrong), [(h.memory.content, h.confidence) for h in hits]
    no_rise(hits, set(ids.values()), wrong)
