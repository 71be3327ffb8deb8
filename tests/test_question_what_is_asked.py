"""What a question asks, read apart from how it is worded (issue 25 §2): a memory about the person asked of
does not answer what she prefers, likes, uses or wants; a permission in the passive ("is deploying on a
Friday permitted?"), a kind word in -ing ("happening"), a year or month ahead ("next year") and a quarter by
its ordinal ("the third quarter") read as their plain forms do; a short form and its words ("DB" and
"database") are one; the verb of a yes/no question ("should I use MacPorts?") is its act. Questions no memory
answers stay unsure. Against stores with the real model."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memvault.storage.candidates import spelled_out
from memvault.storage.query import asked_of, asked_verbs, asking_leave_aside, named_kinds, subject_words
from memvault.storage.ranking import SURE_CONFIDENCE
from memvault.storage.timewords import Said, TimeParser

NOW = datetime(2026, 12, 6, 15, 0, tzinfo=UTC)
OLD = "2026-03-02T10:00:00Z"
# Memories of other people and things beside each case's own: the words of a question ("prefers", "editor",
# "uses", "wants") are held by some memory, as in a store in use.
AROUND = (
    "The staging cluster runs on three nodes.",
    "Alice reviews all infra pull requests.",
    "We use Grafana for dashboards.",
    "Ravi prefers dark mode in every editor.",
    "Bob uses Emacs for everything.",
    "Marta wants a second monitor.",
    "Backups are kept for 30 days.",
    "The team offsite happened in Porto last spring.",
)


@pytest.fixture(scope="module")
def shared_clock():
    """The clock of the stores ``shared_store`` fills (conftest)."""
    return lambda: int(NOW.timestamp() * 1000)


Memories = tuple[str | tuple[str, str], ...]  # each a fact's text, or (text, kind)


def remember(store, memories: Memories, around: bool) -> None:  # type: ignore[no-untyped-def]
    for memory in (*memories, *(AROUND if around else ())):
        content, kind = (memory, "fact") if isinstance(memory, str) else memory
        store.remember(tenant="t", scope="proj", content=content, kind=kind, observed_at=OLD, check_similar=False)


def recall(shared_store, memories: Memories, question: str, around: bool = True):  # type: ignore[no-untyped-def]
    store, _ = shared_store(remember, memories, around)
    return store.recall(tenant="t", query=question, scopes=["proj"], limit=3)


def sure_of(shared_store, memories: Memories, question: str, around: bool = True):  # type: ignore[no-untyped-def]
    """The first of ``memories`` is the first hit, and sure."""
    hits = recall(shared_store, memories, question, around).hits
    wanted = memories[0] if isinstance(memories[0], str) else memories[0][0]
    assert hits and hits[0].memory.content == wanted and hits[0].confidence >= SURE_CONFIDENCE, \
        [(hit.memory.content, hit.confidence) for hit in hits]


def unsure_of(shared_store, memories: Memories, question: str, around: bool = True):  # type: ignore[no-untyped-def]
    """No hit is sure."""
    hits = recall(shared_store, memories, question, around).hits
    assert all(hit.confidence < SURE_CONFIDENCE for hit in hits), [(hit.memory.content, hit.confidence) for hit in hits]


# --- 1. what someone prefers, likes, uses or wants ------------------------------------------------------
ABOUT_JUNE = ("June is on parental leave until October",)
ABOUT_PRIYA = ("Priya joined the platform team in May",)


@pytest.mark.parametrize(("memories", "question"), [
    (ABOUT_JUNE, "What does June prefer?"),
    (ABOUT_JUNE, "What does June like?"),
    (ABOUT_JUNE, "What does June use?"),
    (ABOUT_JUNE, "What does June want?"),
    (ABOUT_JUNE, "what does June usually prefer?"),
    (ABOUT_PRIYA, "What editor does Priya use?"),
    (ABOUT_PRIYA, "What does Priya use?"),
    (ABOUT_PRIYA, "Which laptop does Priya want?"),
    (("Tomás moved to Lisbon in 2024",), "What does Tomás enjoy?"),
    (("Marcus works on the billing team",), "what does Marcus prefer for indentation?"),
])
def test_a_memory_about_whom_a_question_asks_of_is_not_sure_of_what_they_prefer(shared_store, memories, question):
    """issue 25 §2.1: "June is on parental leave" answered "What does June prefer?" at 0.77."""
    unsure_of(shared_store, memories, question)


@pytest.mark.parametrize(("memories", "question"), [
    (("June prefers tea over coffee",), "What does June prefer?"),
    (("June likes tea over coffee",), "What does June prefer?"),
    (("June's favourite drink is tea",), "What does June prefer?"),
    (("June likes tea over coffee",), "What does June like?"),
    (("June loves hiking in the Alps",), "What does June like?"),
    (("June wants a standing desk",), "What does June want?"),
    ((("June: green tea, never coffee", "preference"),), "What does June prefer?"),
    (("Priya uses Vim",), "What editor does Priya use?"),
    (("Priya uses Vim",), "What does Priya use?"),
    (("Marcus prefers tabs for indentation",), "what does Marcus prefer for indentation?"),
    (("Redis listens on port 6379",), "which port does Redis use?"),
])
def test_a_memory_saying_what_someone_prefers_stays_sure(shared_store, memories, question):
    sure_of(shared_store, memories, question)


@pytest.mark.parametrize(("question", "held"), [
    ("What does June prefer?", {"prefer", "like", "favourite", "love"}),
    ("What editor does Priya use?", {"use", "editor"}),
    ("Which editor does Priya usually use?", {"use", "editor"}),
])
def test_what_a_question_asks_someone_does_is_read_with_its_verbs_kin(question, held):
    asked = asked_of(question)
    assert asked is not None and held <= asked[0]


@pytest.mark.parametrize("question", [
    "which port does Redis use?",  # a value the answer states without naming it
    "what does the billing service use?",  # no one named
    "who is June?",
])
def test_other_questions_ask_nothing_of_someone_by_a_verb(question):
    assert asked_of(question) is None


# --- 2. forms of a question that read as their plain form -------------------------------------------------
FRIDAYS = (("Never deploy on Friday afternoons", "decision"),)


@pytest.mark.parametrize(("memories", "question"), [
    (FRIDAYS, "Is deploying on a Friday afternoon permitted?"),
    (FRIDAYS, "Are deployments on Friday afternoons allowed?"),
    (FRIDAYS, "is deploying on Fridays ok?"),
    ((("Never force-push to main", "decision"),), "Is force-pushing to main allowed?"),
    (("The board offsite is in March 2027",), "what is happening in March 2027?"),
    (("The TLS certificate expires in 2027",), "what expires next year?"),
    (("The office lease ends in March 2027",), "what ends next year?"),
    (("The office lease ends in January 2027",), "what ends next month?"),
    (("Q3 goal: reduce p95 latency below 200ms", "Q4 goal: ship the mobile app"),
     "what's the target for the third quarter?"),
    (("Q4 goal: ship the mobile app", "Q3 goal: reduce p95 latency below 200ms"),
     "what is the goal for the fourth quarter?"),
])
def test_a_question_in_another_form_is_as_sure_as_its_plain_form(shared_store, memories, question):
    """issue 25 §2.2: 0.45, 0.41, 0.48 and 0.34 where the plain forms were sure."""
    sure_of(shared_store, memories, question)


@pytest.mark.parametrize(("question", "word", "kind"), [
    ("what is happening?", "happening", "episode"),
    ("what are we deciding?", "deciding", "decision"),
    ("what is failing?", "failing", "failure"),
])
def test_a_kind_word_in_ing_names_its_kind_and_no_subject(question, word, kind):
    assert (named_kinds(question), subject_words([word])) == ((frozenset({kind}), True), [])


@pytest.mark.parametrize(("memories", "question"), [
    (("The TLS certificate expires in 2027",), "what expires next month?"),
    (("Q1 goal: hire two SREs",), "what is the goal for February 2027?"),
])
def test_a_memory_naming_a_longer_time_is_not_sure_of_the_one_asked(shared_store, memories, question):
    """Reading "next month" made "expires in 2027" as sure for it as for "in January 2027" (0.68): neither says
    the month."""
    unsure_of(shared_store, memories, question)


@pytest.mark.parametrize(("question", "left"), [
    ("Is deploying on a Friday afternoon permitted?", "Is deploying on a Friday afternoon ?"),
    ("are force pushes allowed?", "are force pushes ?"),
    ("Is Docker allowed on prod?", "Is Docker allowed on prod?"),  # not what the question ends with
    ("what is allowed?", "what is allowed?"),  # no yes/no question
])
def test_a_permission_ending_a_yes_no_question_is_no_word_of_its_subject(question, left):
    assert asking_leave_aside(question) == left


@pytest.mark.parametrize(("question", "said"), [
    ("what's the target for the third quarter?", Said(frozenset({7, 8, 9}))),
    ("what is due in the 2nd quarter of 2027?", Said(frozenset({4, 5, 6}), 2027)),
    ("what expires next year?", Said(frozenset(range(1, 13)), 2027)),
    ("what is planned next month?", Said(frozenset({1}), 2027)),
])
def test_a_time_ahead_is_what_a_memory_says(question, said):
    found = TimeParser().find(question, int(NOW.timestamp() * 1000))
    assert found is not None and (found.start, found.end, found.said) == (0, 0, said)


def test_a_quarter_asked_by_its_ordinal_is_written_as_its_number():
    assert [Said(frozenset({m, m + 1, m + 2})).quarter() for m in (1, 4, 7, 10)] == ["Q1", "Q2", "Q3", "Q4"]
    assert Said(frozenset({3, 4, 5})).quarter() is None


# --- 3. short forms ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("memories", "question"), [
    (("The DB is backed up nightly",), "when is the database backed up?"),
    (("The database is backed up nightly",), "when is the DB backed up?"),
    (("Every PR needs two approvals",), "how many approvals does a pull request need?"),
    (("Every pull request needs two approvals",), "how many approvals does a PR need?"),
    (("Every pull request needs two approvals",), "how many approvals do PRs need?"),
    (("Secrets for each env live in Vault",), "where do secrets for each environment live?"),
    (("We run everything on Kubernetes",), "what do we run on k8s?"),
    (("The config lives in etc/app.yaml",), "where is the configuration?"),
    (("The monorepo is the only repository we keep",), "which repo do we keep?"),
    (("Authentication goes through Okta",), "what handles auth?"),
])
def test_a_short_form_finds_its_words_and_its_words_find_it(shared_store, memories, question):
    """issue 25 §2.3."""
    sure_of(shared_store, memories, question)


@pytest.mark.parametrize(("question", "text", "held"), [
    (["when", "is", "the", "DB", "backed", "up"], "The database is backed up", ["DB"]),
    (["a", "pull", "request"], "Every PR needs two", ["pull", "request"]),
    (["the", "databases"], "All DBs are encrypted", ["databases"]),
    (["the", "DB"], "The dashboard is blue", []),
])
def test_a_short_form_is_spelled_out(question, text, held):
    assert spelled_out(question, text) == held


# --- 4. the verb of a yes/no question ---------------------------------------------------------------------
@pytest.mark.parametrize(("question", "verbs"), [
    ("should I use MacPorts?", ("use",)),
    ("does Bob own billing?", ("own",)),
    ("Can we deploy on Friday?", ("deploy",)),
    ("does the billing service use Kafka?", ()),  # a doer of more words: not read
])
def test_the_verb_of_a_yes_no_question_is_its_act(question, verbs):
    assert asked_verbs(question) == verbs


@pytest.mark.parametrize("question", ["should I use MacPorts?", "can we use MacPorts?", "do we install MacPorts?"])
def test_a_yes_no_question_is_sure_of_a_memory_stating_its_act_in_other_words(shared_store, question):
    """issue 25 §2.4: 0.45, "use" being held by no memory."""
    sure_of(shared_store, ("We install developer tools with Homebrew, never MacPorts",), question, around=False)


# --- no answer: no assurance ------------------------------------------------------------------------------
@pytest.mark.parametrize(("memories", "question"), [
    (FRIDAYS, "Is deploying on a Monday permitted?"),
    (("The TLS certificate expires in 2027",), "what expires in January 2027?"),
    (("Q3 goal: reduce p95 latency below 200ms",), "what's the target for the second quarter?"),
    (("The staging DB is Postgres 16",), "which DB does the search service use?"),
    (("The database is backed up nightly",), "who owns the DB migrations?"),
    (("We install developer tools with Homebrew, never MacPorts",), "should I use Chocolatey?"),
])
def test_a_question_no_memory_answers_stays_unsure(shared_store, memories, question):
    unsure_of(shared_store, memories, question)
