"""Recall finds a session's digest (an ``episode`` memory) when asked what happened last time, with
the real model (among the first two hits), and never returns a raw turn.

A question asking for the last session and naming no subject ("what did we do last time?", "where did
we leave off?": ``query.asks_for_last_session``) asks for the newest session digests: they are
candidates even before their vector is written (a capture hook writes the digest without the model)
and rank as the kind asked for. The digest's lead sentence in plain words ("Recap of a working session
... what we worked on and where we left off") finds most of the other phrasings (``FOUND``) by its words
and meaning. A question naming a subject ranks that subject's memories as before.
"""

from __future__ import annotations

import pytest

from memvault.storage import maintenance
from memvault.storage.query import asks_for_last_session, named_kinds
from memvault.storage.records import NewTurn
from memvault.storage.store import Store

FOUND = (
    "what did we do last session",
    "what happened in the previous session",
    "summary of the last session",
    "what was done in the last session",
    "remind me what we did last session",
    "previous session summary",
    "what did I do in my last session",
    "what was I working on last time",
    "where did we leave off",
    "recap of our last conversation",
    "what did we work on yesterday",
    # Found as questions for the last session (the first two shared only "we", "did" and "time" with it).
    "what did we do last time",
    "what were we doing last time",
    "what did we do last time?",
    "What were we working on in the last session?",
    "where did we leave off?",
    "recap of yesterday's session",
    "where were we?",
    "what did we talk about last time?",
    "catch me up on the previous conversation",
    "remind me where we stopped off",
    "what was I busy with in my last chat?",
    "summarize our previous session",
)
TURNS = (
    ("user", None, "Move the billing tables from MySQL to PostgreSQL 16 before the Friday release"),
    ("assistant", "Bash", "pg_dump --schema-only billing > billing.sql"),
    ("tool", "Bash", "pg_dump: error: connection to server on socket failed: role billing_ro does not exist"),
    ("assistant", None, "The read-only role was missing; I created billing_ro and ran the dump again."),
    ("user", None, "Good. Also switch the invoice job to the new database."),
    ("assistant", "Edit", "jobs/invoices.py: DATABASE_URL now points at pg-billing-01"),
)
OTHERS = (
    ("preference", "The user prefers short commit messages in the imperative mood"),
    ("fact", "The staging cluster runs Kubernetes 1.31 on three nodes"),
    ("decision", "We chose Redis Streams over Kafka for the notification queue"),
    ("procedure", "To release: tag the commit, wait for CI, then run make publish"),
    ("fact", "The office Wi-Fi password is rotated by IT every quarter"),
)


def billing_session(store: Store) -> str:
    """The store's memories and one ended session; its digest's id."""
    for kind, content in OTHERS:
        store.remember(tenant="t", scope="proj", kind=kind, content=content)
    turns = [NewTurn(role=role, tool=tool, text=text) for role, tool, text in TURNS]
    store.episodes.append(tenant="t", scope="proj", session_id="s-billing", turns=turns, client="claude-code")
    digest = store.episodes.end(tenant="t", session_id="s-billing").digest_id
    assert digest is not None
    maintenance.fill_pending(store)  # the digest's vector, as a server writes it: not left to a race with recall
    return digest


def hits(store: Store, query: str) -> list[tuple[str, str | None]]:
    outcome = store.recall(tenant="t", query=query, scopes=["proj", "global"], limit=5)
    return [(hit.memory.id, hit.memory.content) for hit in outcome.hits]


@pytest.mark.contract
def test_recall_finds_the_last_sessions_digest_and_never_a_raw_turn(real_store: Store):
    digest = billing_session(real_store)
    for query in FOUND:
        found = hits(real_store, query)
        assert digest in [i for i, _ in found[:2]], (query, found)
        assert not {content for _, content in found} & {text for _, _, text in TURNS}


@pytest.mark.contract
def test_the_digest_is_found_before_its_vector_is_written(real_store: Store):
    """A capture hook ends the session without the model: the digest waits for its vector."""
    for kind, content in OTHERS:
        real_store.remember(tenant="t", scope="proj", kind=kind, content=content)
    real_store.episodes.append(tenant="t", scope="proj", session_id="s-billing", client="claude-code",
                               turns=[NewTurn(role=role, tool=tool, text=text) for role, tool, text in TURNS])
    digest = real_store.episodes.end(tenant="t", session_id="s-billing").digest_id
    for query in ("what did we do last time", "where did we leave off?", "what were we doing last time"):
        found = hits(real_store, query)
        assert digest in [i for i, _ in found[:2]], (query, found)


@pytest.mark.contract
def test_the_newest_sessions_digest_comes_first(real_store: Store):
    billing_session(real_store)
    turns = [NewTurn(role="user", text="Add retries with backoff to the webhook sender"),
             NewTurn(role="assistant", tool="Edit", text="webhooks/send.py: retry 5 times with exponential backoff")]
    real_store.episodes.append(tenant="t", scope="proj", session_id="s-webhooks", turns=turns, client="claude-code")
    newest = real_store.episodes.end(tenant="t", session_id="s-webhooks").digest_id
    maintenance.fill_pending(real_store)
    for query in ("what did we do last time", "where did we leave off?", "recap of the last session",
                  "what were we working on in the previous session?"):
        assert hits(real_store, query)[0][0] == newest, query


@pytest.mark.contract
@pytest.mark.parametrize("query, answer", [
    ("what did we decide last time about the notification queue?", "We chose Redis Streams over Kafka"),
    ("last time, which Kubernetes version did the staging cluster run?", "The staging cluster runs Kubernetes"),
    ("what was the release procedure we used last time?", "To release: tag the commit"),
    ("which queue did we choose for notifications?", "We chose Redis Streams over Kafka"),
    ("how do we release?", "To release: tag the commit"),
    ("what do I prefer for commit messages?", "The user prefers short commit messages"),
])
def test_a_question_naming_a_subject_ranks_the_subjects_memory_before_the_digest(shared_store, query, answer):
    store, digest = shared_store(billing_session)  # one store for every question (recall writes nothing)
    found = hits(store, query)
    assert found and found[0][1].startswith(answer) and found[0][0] != digest, (query, found)


@pytest.mark.parametrize("query, asks", [
    ("what did we do last time?", True),
    ("where did we leave off", True),
    ("Where were we?", True),
    ("recap of yesterday's session", True),
    ("what were we working on in the last session?", True),
    ("catch me up on our previous conversation", True),
    ("recap of the last session please", True),  # courtesy words name no subject
    ("thanks! can you give me a quick recap of the previous session?", True),
    ("what happened last time?", True),
    ("what happened to the billing service last time?", False),
    ("what did we decide last time about the database?", False),
    ("the last time I checked, the price was 5 dollars", False),
    ("what happened last time the deploy failed?", False),
    ("what did Caroline do the last time she visited?", False),
    ("what did we work on?", False),
    ("which session cookie does the API set?", False),
    ("what is the time zone of the last server?", False),
])
def test_a_question_asks_for_the_last_session_only_without_a_subject(query, asks):
    assert asks_for_last_session(query) is asks
    assert named_kinds(query) == ((frozenset({"episode"}), True) if asks else named_kinds(query))
