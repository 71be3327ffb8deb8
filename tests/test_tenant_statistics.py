"""Ranking statistics are the tenant's own: what another tenant stores changes none of a
recall's signals (BM25 and its IDF, coverage, confidence, scores), so the figures a client
sees say nothing about other tenants' memories, on every backend."""

from __future__ import annotations

import searching
import sqlite_raw

import pytest

from memvault.storage.store import Store

pytestmark = pytest.mark.contract
ALICE = ["Kafka retention on the events cluster is seven days", "The events cluster runs in eu-west with three brokers"]
QUESTIONS = ["How long is Kafka retention on the events cluster?", "where do the events brokers run", "kafka"]


def signals(store: Store, tenant: str = "alice") -> list[list[tuple]]:
    out = []
    for question in QUESTIONS:
        found = store.recall(tenant=tenant, query=question, scopes=["ops"], limit=10)
        out.append([(h.memory.id, h.score, h.confidence, h.signals) for h in found.hits] + [found.abstained])
    return out


@pytest.mark.parametrize("others", [300, 3])
def test_another_tenants_memories_change_none_of_a_recalls_signals(store: Store, others: int):
    ids = [store.remember(tenant="alice", scope="ops", content=text).id for text in ALICE]
    before = signals(store)
    assert before[0][0][0] == ids[0] and before[1][0][0] == ids[1]  # alice finds her own memories
    for n in range(others):
        store.remember(tenant="mallory", scope="ops", content=f"note {n}: kafka consumer lag on topic t{n}")
    store.remember(tenant="mallory", scope="ops", content="The events cluster retention is long, brokers in eu-west")
    assert signals(store) == before
    # ... and mallory's own statistics are mallory's: its recall finds its notes.
    found = store.recall(tenant="mallory", query="kafka consumer lag on topic t1", scopes=["ops"], limit=3)
    assert found.hits and found.hits[0].memory.tenant == "mallory"


# The one keyword index of every tenant that files of schemas 1-6 held, kept by a trigger
# (as schema 1 wrote it), which schema 7 replaces by one index per tenant.
SHARED_KEYWORD_INDEX = """
CREATE VIEW memories_fts_source AS
    SELECT m.seq AS seq, m.content AS content, p.content AS context
    FROM memories m LEFT JOIN memories p ON p.seq = m.context_seq WHERE m.content IS NOT NULL;
CREATE VIRTUAL TABLE memories_fts USING fts5(
    content, context, content='memories_fts_source', content_rowid='seq',
    tokenize='porter unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE memories_fts_terms USING fts5vocab(memories_fts, 'col');
CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories WHEN new.content IS NOT NULL BEGIN
    INSERT INTO memories_fts(rowid, content, context)
        VALUES (new.seq, new.content, (SELECT content FROM memories WHERE seq = new.context_seq));
END;
"""


def test_a_file_of_schema_version_7_gets_a_keyword_index_per_tenant(db_path):
    """Files made before keyword indexes were per tenant (one FTS5 table, kept by triggers)
    are migrated: each tenant's memories searchable, episode context kept, nothing stray."""
    from memvault.storage import maintenance
    from memvault.storage.sqlite import schema
    from memvault.storage.sqlite.db import open_connection, write_transaction

    conn = open_connection(db_path)
    for name in ("memvault_nfc", "memvault_tag", "memvault_hash"):
        conn.create_scalar_function(name, lambda s: s, 1)
    rows = [("alice", "Kafka retention on the events cluster is seven days", None),
            ("alice", "Where do the brokers run?", None), ("alice", "In eu-west, three of them", 2),
            ("mallory", "kafka consumer lag on topic t1", None)]
    with write_transaction(conn):
        for step in schema.MIGRATIONS[:7]:
            step(conn) if callable(step) else conn.execute(step)
        conn.execute(SHARED_KEYWORD_INDEX)  # what files of schemas 1-6 held beside the memories
        conn.execute("PRAGMA user_version = 7")
        for i, (tenant, text, context) in enumerate(rows, start=1):
            conn.execute(
                "INSERT INTO memories(id, tenant, scope, kind, content, content_hash, importance, observed_at,"
                " recorded_at, context_seq) VALUES (?, ?, 'ops', 'episode', ?, ?, 5, ?, 0, ?)",
                (f"0190a000-0000-7000-8000-00000000000{i}", tenant, text, f"h{i}", i, context))
    conn.close()
    store = Store(db_path)
    try:
        assert [p for p in maintenance.check(store) if "FTS5" in p or "integrity" in p] == []  # vectors: none here
        with sqlite_raw.snapshot(store) as raw:
            shared = ("memories_fts", "memories_fts_source", "memories_fts_terms", "memories_fts_insert")
            assert not raw.execute("SELECT name FROM sqlite_master WHERE name IN (?, ?, ?, ?)", shared).fetchall()

        def ids(tenant: str, query: str) -> list[str]:
            return [h.memory.id[-1] for h in store.recall(tenant=tenant, query=query, scopes=["ops"], limit=5).hits]
        assert ids("alice", "kafka retention") == ["1"] and ids("mallory", "kafka lag") == ["4"]
        assert "3" in ids("alice", "where do the brokers run")  # through its episode context
        with store.backend.read("alice") as tx:
            assert searching.term_counts(tx, ["kafka"]) == (3, {"kafka": 1})
    finally:
        store.close()
