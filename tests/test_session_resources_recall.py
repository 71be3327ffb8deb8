"""Recall finds a session's digest (an ``episode`` memory) when asked what happened last time, with
the real model (among the first two hits), and never returns a raw turn.

The phrasings tried are all below: those that find the digest (``FOUND``) and those that do not yet
(``MISSED``, strict xfail: they fail this file once the digest is found by them, so the lists stay
true). The digest's lead sentence in plain words ("Recap of a working session ... what we worked on
and where we left off") took four phrasings from the misses (7 of 13 found before it, 11 after); the two left
share only "we", "did" and "time" with it.
"""

from __future__ import annotations

import pytest

from memvault.storage import maintenance
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
)
MISSED = (
    "what did we do last time",
    "what were we doing last time",
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


@pytest.mark.xfail(strict=True, reason="the digest shares no word with the question (see the module doc)")
@pytest.mark.parametrize("query", MISSED)
def test_phrasings_the_digest_is_not_found_by_yet(real_store: Store, query: str):
    digest = billing_session(real_store)
    assert digest in [i for i, _ in hits(real_store, query)]
