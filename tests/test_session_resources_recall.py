"""Recall finds a session's digest (an ``episode`` memory) when asked what happened last time, with
the real model, and never returns a raw turn."""

from __future__ import annotations

import pytest

from memvault.storage.records import NewTurn
from memvault.storage.store import Store

pytestmark = pytest.mark.contract

# Phrasings of "what did we do last session" tried against the store below; each must find the digest.
QUERIES = (
    "what did we do last session",
    "what happened in the previous session",
    "what was I working on last time",
    "summary of the last session",
    "where did we leave off",
    "recap of our last conversation",
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


def test_recall_finds_the_last_sessions_digest_and_never_a_raw_turn(real_store: Store):
    for kind, content in OTHERS:
        real_store.remember(tenant="t", scope="proj", kind=kind, content=content)
    turns = [NewTurn(role=role, tool=tool, text=text) for role, tool, text in TURNS]
    real_store.episodes.append(tenant="t", scope="proj", session_id="s-billing", turns=turns, client="claude-code")
    digest = real_store.episodes.end(tenant="t", session_id="s-billing").digest_id
    assert digest is not None
    for query in QUERIES:
        outcome = real_store.recall(tenant="t", query=query, scopes=["proj", "global"], limit=5)
        found = [hit.memory.id for hit in outcome.hits]
        assert digest in found, (query, [hit.memory.content for hit in outcome.hits])
        assert not {hit.memory.content for hit in outcome.hits} & {text for _, _, text in TURNS}
