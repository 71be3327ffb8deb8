"""The PostgreSQL backend on its own: every Reader/Writer method, row-level security,
hostile keyword queries, filtered HNSW search, forget and scrub, many writers,
migrations and start-up errors. The contract tests run the memory rules over it."""

from __future__ import annotations

import searching

import contextlib
import json
import subprocess
import sys
import threading
import time
from dataclasses import replace
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import psycopg
import pytest
from memvault.storage.backend import SCRUB_DUE, NewRow, recorded_model
from memvault.storage.history import short_ids
from memvault.storage.errors import Busy, Conflict, StorageUnavailable, StoreError
from memvault.storage.ids import new_id
from memvault.storage.literal import literal_tokens
from memvault.storage.postgres import PostgresBackend, schema
from memvault.storage.postgres.backend import PgWriter
from memvault.storage.postgres.sql import index_words
from memvault.storage.query import Filters, content_words, query_chunks
from memvault.storage.records import ApiKey

DIM = 64
NOW = 2_000_000_000_000


@pytest.fixture
def backend(pg_url: str):
    b = PostgresBackend(pg_url, busy_timeout_ms=2_000)
    with b.write(None) as w:
        assert w.claim_model("test-model", DIM)
    yield b
    b.close()


def unit(seed: int, dim: int = DIM) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=dim).astype(np.float32)
    return v / np.linalg.norm(v)


def row(content: str, tenant: str = "a", *, seed: int = 0, vectors: bool = True, **fields) -> NewRow:
    values: dict[str, object] = {
        "id": new_id(), "tenant": tenant, "scope": "s", "kind": "fact", "content": content, "content_hash": content,
        "tags": (), "importance": 5, "source": None, "observed_at": 1_000, "recorded_at": 1_000, "tokens": literal_tokens([content])[0],
        "vectors": [unit(seed)] if vectors else None, "model": "test-model",
    }
    values.update(fields)
    return NewRow(**values)  # type: ignore[arg-type]


def scrub_due(b: PostgresBackend) -> bool:
    with b.read(None) as r:
        return SCRUB_DUE in r.settings()


def link(w: PgWriter, old_id: str, new_id: str) -> None:
    """A supersession link written by hand (a damaged database for ``check`` to find)."""
    w.conn.execute("UPDATE memories SET superseded_by = %s WHERE id = %s", (new_id, old_id))


def insert(b: PostgresBackend, *rows: NewRow) -> list[int]:
    with b.write(rows[0].tenant) as w:
        return [w.insert(r) for r in rows]


def everything(tenant: str = "a", **kw) -> Filters:
    return Filters(tenant=tenant, scopes=["s"], now=NOW, **kw)


def keyword_ids(b: PostgresBackend, query: str, tenant: str = "a") -> list[str]:
    with b.read(tenant) as r:
        found = searching.keyword(r, everything(tenant), query_chunks(query), 10)
        rows = searching.rows(r, [seq for seq, _, _ in found])
        return [rows[seq].id for seq, _, _ in found]


# -- rows and writes -------------------------------------------------------------------

def test_inserted_rows_read_back_with_every_field(backend):
    r1 = row("first memory", tags=("zeta", "alpha", "Mid"), source="chat", expires_at=NOW + 5,
             confirmations=2, last_confirmed_at=900, importance=7, kind="decision")
    [seq] = insert(backend, r1)
    with backend.read("a") as r:
        found = searching.by_id(r, "a", r1.id)
        assert found is not None and found[0] == seq
        memory = found[1]
        assert memory.tags == ("Mid", "alpha", "zeta")  # byte order, as SQLite's primary key gives them
        assert (memory.content, memory.source, memory.kind, memory.importance) == ("first memory", "chat", "decision", 7)
        assert (memory.expires_at, memory.confirmations, memory.last_confirmed_at) == (NOW + 5, 2, 900)
        assert memory.vector_pending is False and searching.rows(r, [seq]) == {seq: memory}
        assert searching.by_id(r, "b", r1.id) is None  # another tenant's id looks unknown


def test_an_existing_id_is_a_conflict_and_the_transaction_stays_usable(backend):
    r1 = row("one")
    insert(backend, r1)
    with backend.write("a") as w:
        with pytest.raises(Conflict, match=r1.id):
            w.insert(row("other", id=r1.id))
        w.insert(row("after the conflict"))
    assert sorted(keyword_ids(backend, "one conflict")) == sorted(
        [r1.id, *keyword_ids(backend, "conflict")])


def test_prefix_neighbours_listing_and_counts(backend):
    ids = [f"0190aaaa-0000-7000-8000-00000000000{i}" for i in range(4)]
    rows = [row(f"memory number {i}", id=ids[i], observed_at=1_000 + i % 2, importance=i + 1) for i in range(4)]
    seqs = insert(backend, *rows)
    insert(backend, row("tenant b", tenant="b", id="0190aaaa-0000-7000-8000-00000000000z"))
    with backend.read("a") as r:
        assert [m.id for m in searching.by_prefix(r, "a", "0190aaaa", 10)] == ids
        assert [m.id for m in searching.by_prefix(r, "a", "0190aaaa", 2)] == ids[:2]
        # Unique among a's ids only: b's id shares 35 characters with ids[3].
        assert short_ids(r, "a", [ids[1], ids[3]], min_length=8) == {ids[1]: ids[1], ids[3]: ids[3]}
        assert short_ids(r, "a", [ids[3]], min_length=36) == {ids[3]: ids[3]}
        # newest observed first, ties by newest row
        assert [m.id for m in searching.listed(r, everything(), "observed", None)] == [ids[3], ids[1], ids[2], ids[0]]
        assert [m.id for m in searching.listed(r, everything(), "importance", 2)] == [ids[3], ids[2]]
        assert searching.count(r, everything()) == 4 and searching.count(r, everything(kinds=["episode"])) == 0
        kept = r.counts(Filters("a", None, NOW))  # the kept counts, every scope
        assert sum(kept.values()) == 4 and {s for s, _ in kept} == {"s"}
        page = r.memories("a", filters=Filters("a", None, NOW, include_history=True), order="seq", after_seq=seqs[1])
        assert list(page) == seqs[2:]


def test_filters_of_listing(backend):
    insert(backend, row("tagged", tags=("x", "y"), observed_at=10), row("half", tags=("x",), observed_at=20),
           row("gone", expires_at=NOW - 1, observed_at=30), row("other scope", scope="t", observed_at=40))
    with backend.read("a") as r:
        def contents(**kw) -> list[str | None]:
            return [m.content for m in searching.listed(r, everything(**kw), "observed", None)]
        assert contents() == ["half", "tagged"]
        assert contents(tags=["x", "y"]) == ["tagged"]
        assert contents(since=15) == ["half"] and contents(until=15) == ["tagged"]
        both = searching.listed(r, Filters("a", ["s", "t"], NOW), "observed", None)
        assert [m.content for m in both] == ["other scope", "half", "tagged"]


def test_idempotency_keys_duplicates_and_confirmations(backend):
    r1 = row("keyed", idempotency_key="k-1")
    insert(backend, r1)
    with backend.write("a") as w:
        assert searching.idempotency_key(w, "a", "k-1") == (r1.id, "keyed")
        assert searching.idempotency_key(w, "b", "k-1") is None
        assert searching.current_with_hash(w, "a", "s", "keyed", NOW, None) == r1.id
        assert searching.current_with_hash(w, "a", "s", "keyed", NOW, r1.id) is None
        w.confirm(r1.id, 5_000, "k-2")
    with backend.read("a") as r:
        memory = searching.by_id(r, "a", r1.id)[1]  # type: ignore[index]
        assert (memory.confirmations, memory.last_confirmed_at) == (1, 5_000)
        assert searching.idempotency_key(r, "a", "k-2") == (r1.id, "keyed")


def test_supersede_link_lock_and_episode_context(backend):
    first = row("Where should we go hiking?", kind="episode", observed_at=1_000)
    [first_seq] = insert(backend, first)
    with backend.read("a") as r:
        episodes = Filters("a", ["s"], 0, kinds=["episode"], since=0, until=2_001)
        assert list(r.memories("a", filters=episodes)) == [first_seq]
    reply = row("For walking or running?", kind="episode", observed_at=1_500, context_seq=first_seq)
    [reply_seq] = insert(backend, reply)
    with backend.read("a") as r:
        found = {seq: (score, content) for seq, score, content in searching.keyword(r, everything(), query_chunks("hiking"), 10)}
        assert found[first_seq][1] < 0  # the question holds the word itself
        score, content_score = found[reply_seq]
        assert content_score == 0.0 and score < 0  # the reply is found through its context only
        assert searching.document_terms(r, [reply_seq])[reply_seq][1] >= {"hike", "where"}
    newer = row("We go hiking on Sunday", supersedes=first.id, reason="decided", observed_at=1_600)
    with backend.write("a") as w:
        assert searching.by_id(w, "a", first.id)[1].superseded_by is None  # type: ignore[index]  (and locked)
        w.insert(newer)
    with backend.read("a") as r:
        old = searching.by_id(r, "a", first.id)[1]  # type: ignore[index]
        assert (old.superseded_by, old.supersede_reason) == (newer.id, "decided")
        assert reply_seq not in [s for s, _, _ in searching.keyword(r, everything(), query_chunks("where"), 10)]
        assert searching.document_terms(r, [reply_seq])[reply_seq][1] == set()  # a superseded memory is no context
    assert backend.check() == []


def test_erase_leaves_a_tombstone_and_frees_everything_derived(backend):
    r1 = row("secret plan alpha", tags=("t",), idempotency_key="k", source="src", vectors=True)
    [seq] = insert(backend, r1)
    context_user = row("follow up", kind="episode", context_seq=seq)
    [user_seq] = insert(backend, context_user)
    with backend.write("a") as w:
        w.erase(r1.id, 7_000, "asked")
    with backend.read("a") as r:
        m = searching.by_id(r, "a", r1.id)[1]  # type: ignore[index]
        assert (m.content, m.source, m.tags, m.forgotten_at, m.forget_reason) == (None, None, (), 7_000, "asked")
        assert searching.idempotency_key(r, "a", "k") is None and searching.similarity(r, [seq], unit(0)) == {}
        assert searching.keyword(r, everything(), query_chunks("secret plan"), 10) == []
        assert searching.document_terms(r, [user_seq])[user_seq] == ({"follow", "up"}, set())
    assert scrub_due(backend) and backend.stats(NOW)["forgotten"] == 1
    assert not backend.maintain(lambda: False) and scrub_due(backend)  # never on its own: it shuts callers out
    assert backend.scrub() and not scrub_due(backend)
    assert backend.check() == []


def test_vectors_pending_then_set_and_similarity(backend):
    r1 = row("needs a vector", vectors=False)
    long_row = row("long memory", seed=5, vectors=True)
    [seq, long_seq] = insert(backend, r1, long_row)
    with backend.write("a") as w:
        assert [(s, m.tenant, m.content) for s, m in w.memories(None, pending=True, limit=10).items()] \
            == [(seq, "a", "needs a vector")]
        assert not w.set_vectors(seq, "other content", [unit(1)], "test-model")
        assert not w.set_vectors(seq, "needs a vector", [unit(1)], "other-model")  # not the recorded model
        assert w.set_vectors(seq, "needs a vector", [unit(1), unit(2)], "test-model")
        assert w.memories(None, pending=True, limit=10) == {}
    with backend.read("a") as r:
        sims = searching.similarity(r, [seq, long_seq], unit(2))
        assert sims[seq] == pytest.approx(1.0, abs=1e-5)  # its best window, part 1
        # a memory as the question: its own (window 0) vector
        assert searching.similarity(r, [long_seq], seq)[long_seq] == pytest.approx(float(unit(1) @ unit(5)), abs=1e-5)
        found = dict(searching.vector(r, everything(), unit(2), 5))
        assert found[seq] == pytest.approx(1.0, abs=1e-5)


def test_a_memory_as_the_question_scores_as_its_own_vector_does_asked_once_or_again(backend):
    """``search`` with a memory's seq as the vector (ranking's same-subject checks) gives what its
    window-0 vector gives, over every window of the others; nothing for a memory without a vector
    or of another tenant; the same when the pairs are asked again in the transaction."""
    seqs = insert(backend, row("first", seed=1), row("second", seed=2, vectors=False),
                  row("third", seed=3, vectors=[unit(3), unit(4)]), row("fourth", seed=6))
    [other] = insert(backend, row("elsewhere", tenant="b", seed=7))
    with backend.read("a") as r:
        own = {seqs[0]: unit(1), seqs[2]: unit(3), seqs[3]: unit(6)}  # window 0 of each with a vector
        for of in seqs:
            asked = [s for s in seqs if s != of] + [other]
            expected = searching.similarity(r, asked, own[of]) if of in own else {}
            assert (len(expected) == 2) == (of != seqs[1])  # neither the one without a vector nor tenant b's
            for _ in range(2):
                assert searching.similarity(r, asked, of) == pytest.approx(expected, abs=1e-6)
                assert searching.similarity(r, asked[:1], of) == pytest.approx(
                    {k: v for k, v in expected.items() if k == asked[0]}, abs=1e-6)
        assert searching.similarity(r, seqs, other) == {}  # another tenant's memory is no question here


def test_claim_model_and_reset_vectors(backend):
    insert(backend, row("embedded"))
    with backend.write("a") as w:
        assert w.claim_model("test-model", DIM) and not w.claim_model("other-model", DIM)
        assert not w.claim_model("test-model", DIM + 1)
    with backend.write("a") as w:  # vectors of another model: the memory stays pending
        seq = w.insert(row("another model's vectors", model="other-model"))
        assert w.memories("a", seqs=[seq])[seq].vector_pending
    backend.reset_vectors("other-model", 32)
    with backend.read("a") as r:
        assert recorded_model(r.settings()) == ("other-model", 32)
        assert len(r.conn.execute("SELECT 1 FROM memories WHERE vector_pending").fetchall()) == 2
    assert any("no vector yet" in p for p in backend.check())


def test_rebuild_keyword_index_writes_the_words_again(backend):
    first = row("Where should we go hiking?", kind="episode")
    [first_seq] = insert(backend, first)
    [reply_seq] = insert(backend, row("For walking or running?", kind="episode", context_seq=first_seq))
    with backend.write(None) as w:
        w.conn.execute("UPDATE memories SET content_terms = NULL, context_terms = NULL")
    assert any("lack their words" in p for p in backend.check())
    assert keyword_ids(backend, "hiking") == []
    backend.rebuild_keyword_index()
    assert backend.check() == []
    with backend.read("a") as r:
        assert {s for s, _, _ in searching.keyword(r, everything(), query_chunks("hiking"), 10)} == {first_seq, reply_seq}


def test_settings_expired_and_api_keys(backend):
    backend.put_setting("x", "1")
    with backend.read(None) as r:
        assert r.settings()["x"] == "1"
    backend.put_setting("x", None)
    with backend.read(None) as r:
        assert "x" not in r.settings()
    r1 = row("short lived", expires_at=2_000)
    insert(backend, r1, row("lasting"))
    with backend.read(None) as r:
        assert r.memories(None, expired_before=1_999) == {}
        assert [(m.id, m.expires_at) for m in r.memories(None, expired_before=2_000).values()] == [(r1.id, 2_000)]
    key = ApiKey(id=new_id(), tenant="a", scope="s", name="ci", read_only=True, created_at=1, expires_at=None,
                 revoked_at=None)
    with backend.write(None) as w:
        w.put_api_key("hash-1", key)
        w.put_api_key("hash-1", ApiKey(**{**key.__dict__, "revoked_at": 50}))
    with backend.read(None) as r:
        assert r.api_keys("hash-1") == {"hash-1": ApiKey(**{**key.__dict__, "revoked_at": 50})}
        assert r.api_keys() == {"hash-1": ApiKey(**{**key.__dict__, "revoked_at": 50})} and r.api_keys("other") == {}
    with backend.read("b") as r:
        assert r.api_keys("hash-1") == {} and r.api_keys() == {}


def test_stats_count_by_state(backend):
    a = row("current one")
    insert(backend, a, row("expired one", expires_at=NOW - 1))
    insert(backend, row("b's", tenant="b", kind="preference"))
    stats = backend.stats(NOW)
    assert (stats["current"], stats["expired"], stats["tenants"], stats["schema_version"]) == (2, 1, 2, schema.SCHEMA_VERSION)
    assert stats["by_kind"] == {"fact": 1, "preference": 1}
    assert stats["by_scope"] == {"a": {"s": 1}, "b": {"s": 1}}


def test_check_finds_one_sided_links(backend):
    r1 = row("old")
    insert(backend, r1)
    with backend.write("a") as w:
        link(w, r1.id, "0190ffff-dead-7000-8000-000000000000")  # a successor that does not exist
    assert any("one-sided" in p for p in backend.check())


def test_check_finds_supersession_cycles(backend):
    x, y, z = row("x", supersedes=None), row("y"), row("z")
    insert(backend, x, y, z)
    with backend.write("a") as w:
        link(w, x.id, y.id)
        link(w, y.id, x.id)
        link(w, z.id, x.id)  # leads into the cycle without being on it
    problems = backend.check()
    assert any(p.startswith("2 memories are in a supersession cycle (superseded_by links)") for p in problems)


# -- isolation -----------------------------------------------------------------------------

def test_row_level_security_hides_other_tenants_from_a_query_without_tenant_filter(backend):
    insert(backend, row("alpha's memory", tags=("x",), idempotency_key="ka"))
    insert(backend, row("bravo's memory", tenant="b", tags=("y",), idempotency_key="kb"))
    for tenant in ("a", "b"):
        with backend.read(tenant) as r:
            for table in ("memories", "memory_tags", "idempotency_keys", "memory_vectors"):
                tenants = r.conn.execute(f"SELECT DISTINCT tenant FROM {table}").fetchall()
                assert tenants == [(tenant,)], table  # its own rows only, and they are there
            assert r.conn.execute("SELECT current_user").fetchone() == (schema.APP_ROLE,)
    with backend.write("a") as w:  # writes are held to the tenant too
        assert w.conn.execute("UPDATE memories SET importance = 9 RETURNING tenant").fetchall() == [("a",)]
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            w.conn.execute("INSERT INTO memory_tags(memory_seq, tenant, tag) VALUES (1, 'b', 'forged')")
    with backend.read(None) as r:  # maintenance sees every tenant
        assert r.conn.execute("SELECT count(DISTINCT tenant) FROM memories").fetchone() == (2,)
        assert searching.term_counts(r, ["memori"]) == (2, {"memori": 2})


def test_the_full_text_lookup_functions_keep_to_the_transactions_tenant(backend):
    insert(backend, row("alpha's memory"))
    insert(backend, row("bravo's memory", tenant="b"))
    lookup = "SELECT count(*) FROM memvault_phrase_hits(ARRAY[plainto_tsquery('memvault', %s)], %s)"
    with backend.read("a") as r:
        assert r.conn.execute(lookup, ("bravo", "b")).fetchone() == (0,)  # asking for b does not help
        assert r.conn.execute(lookup, ("alpha", "b")).fetchone() == (0,)  # nor asking for another tenant
        assert r.conn.execute(lookup, ("alpha", "a")).fetchone() == (1,)  # a's own
        assert r.conn.execute("SELECT * FROM memvault_term_documents(%s, 'b')", (["bravo"],)).fetchall() == [
            ("bravo", 0)]
        assert searching.term_counts(r, ["memori", "alpha"]) == (1, {"memori": 1, "alpha": 1})
    with backend.read(None) as r:  # no tenant named: the functions give nothing, even to the owner
        assert r.conn.execute(lookup, ("bravo", "b")).fetchone() == (0,)
        assert searching.term_counts(r, ["memori"]) == (2, {"memori": 2})  # the owner counts without them


# -- keyword side ---------------------------------------------------------------------------

HOSTILE = [
    ('"unbalanced quote', "An unbalanced quote breaks naive query parsers"),
    ("-minus *star :colon ^caret", "minus star colon caret are operator characters"),
    ("(paren) & | ! <-> :*", "paren characters and tsquery operators"),
    ("NEAR(a b)", "NEAR a b is the FTS5 proximity syntax"),
    ("col:value", "col value pairs in the config"),
    ("x OR", "x OR y is a boolean expression"),
    ("'; DROP TABLE memories; --", "DROP TABLE memories is SQL"),
    ("ünïcödé dïäcrïtics", "unicode diacritics appear in names"),
    ("Søren Łukasz", "Soren and Lukasz are folded"),
    ("\u200fעברית\u200e right-to-left", "עברית is written right-to-left"),
    ("身份验证", "用户身份验证失败时"),
    ("v2.3.1", "Kafka v2.3.1 is deployed"),
    ("running runners", "she runs every day"),
]


@pytest.mark.parametrize(("query", "content"), HOSTILE)
def test_hostile_queries_find_the_memory_holding_their_words(backend, query, content):
    target = row(content)
    insert(backend, target, row("unrelated filler text"))
    assert keyword_ids(backend, query)[:1] == [target.id]


@pytest.mark.parametrize("query", ["!!! ??? ...", "🙂🚀", '""', "*", "^:-", "x" * 3000])
def test_queries_without_index_words_find_nothing_and_raise_nothing(backend, query):
    insert(backend, row("something stored"))
    assert keyword_ids(backend, query) == []


def test_a_very_long_query_of_many_words(backend):
    target = row("needle in a haystack")
    insert(backend, target)
    query = " ".join(f"word{i}" for i in range(2_000)) + " needle"
    assert keyword_ids(backend, query) == []  # beyond query.MAX_PHRASES chunks: dropped, like on SQLite
    assert keyword_ids(backend, " ".join(f"word{i}" for i in range(60)) + " needle") == [target.id]


def test_terms_agree_between_query_documents_and_counts(backend):
    seqs = insert(backend, row("Running shoes for runners"), row("the runner ran"), row("身份验证 café"))
    insert(backend, row("running elsewhere", tenant="b"))
    with backend.read("a") as r:
        terms = searching.query_terms(r, ["Running", "café", "身份"])
        assert "run" in terms and "cafe" in terms and len(terms) == 3
        docs = searching.document_terms(r, seqs)
        assert set(terms) <= docs[seqs[0]][0] | docs[seqs[2]][0]
        total, counts = searching.term_counts(r, terms + ["absent"])
        assert total == 3 and counts["run"] == 1 and counts["cafe"] == 1 and "absent" not in counts



@pytest.mark.parametrize("question", [
    "What did Caroline's runner say about running?",  # a phrase of two words ("Caroline s")
    "Running shoes",  # one phrase holding both content words
    "café 身份验证 Dana",  # non-ASCII words, CJK bigrams and a name no memory holds
    "the of",  # stop words only: kept
])
def test_what_a_keyword_query_learns_is_what_the_lookups_answer(backend, question):
    """The keyword query also returns its phrases' and content words' statistics and its
    candidates' index terms, and the lookups a recall makes next answer from them:
    exactly what a fresh transaction answers, for the same filters (a filter that
    differs is asked of the server)."""
    first = insert(backend, row("Caroline's runner said running is good"))[0]
    insert(backend, row("Running shoes for the runner"), row("the café of 身份验证", kind="decision"),
           row("Caroline ran", scope="other"), row("a reply with other words", context_seq=first))
    insert(backend, row("Caroline running everywhere", tenant="b"))
    chunks = query_chunks(question)
    words = content_words(chunks)
    names = [[w] for w in ("Caroline", "Dana", "runner", "Running")]
    narrow = everything(kinds=["decision"])
    with backend.read("a") as r:
        found = [seq for seq, _, _ in searching.keyword(r, everything(), chunks, 10)]

    def lookups(r, learn: bool) -> tuple:
        if learn:
            assert [seq for seq, _, _ in searching.keyword(r, everything(), chunks, 10)] == found
        terms = searching.query_terms(r, words)
        return (terms, searching.term_counts(r, terms), [searching.contains(r, everything(), [n]) for n in names],
                [searching.contains(r, narrow, [n]) for n in names], searching.document_terms(r, found))

    with backend.read("a") as fresh, backend.read("a") as learnt:
        expected, got = lookups(fresh, False), lookups(learnt, True)
    assert got == expected
    assert expected[2] == [True, False, True, True] and expected[3] == [False, False, False, False]
    assert expected[1][0] == 5  # the tenant's own memories only
    assert found and all(expected[4][seq][0] for seq in found)

# -- vector side ----------------------------------------------------------------------------

def test_filtered_hnsw_search_returns_the_exact_top_k(pg_url):
    b = PostgresBackend(pg_url)
    dim, k = 384, 10
    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(2_000, dim)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    try:
        with b.write(None) as w:
            w.claim_model("m", dim)
            seqs = [w.insert(row(f"m{i}", tenant="ab"[i % 2], scope=f"s{i % 5}", vectors=False)) for i in range(2_000)]
            for i, (seq, v) in enumerate(zip(seqs, vectors, strict=True)):
                w.set_vectors(seq, f"m{i}", [v], "m")
        query = unit(99, dim)
        allowed = [i for i in range(2_000) if i % 2 == 0 and i % 5 == 3]  # tenant a, scope s3: 200 rows
        exact = sorted(allowed, key=lambda i: -float(vectors[i] @ query))[:k]
        with b.read("a") as r:
            r.conn.execute("SET LOCAL enable_seqscan = off")  # the planner must take the HNSW index
            plan = "\n".join(x[0] for x in r.conn.execute(
                "EXPLAIN SELECT memory_seq FROM memory_vectors ORDER BY embedding <=> %s LIMIT 10", (query,)))
            assert "memory_vectors_hnsw" in plan
            found = searching.vector(r, Filters("a", ["s3"], NOW), query, k)
        assert [s for s, _ in found] == [seqs[i] for i in exact]
        assert [sim for _, sim in found] == pytest.approx([float(vectors[i] @ query) for i in exact], abs=1e-5)
    finally:
        b.close()


# -- forget and scrub ------------------------------------------------------------------------

def test_forget_and_scrub_leave_no_marker_in_the_table_files(pg_server, pg_url):
    if pg_server.data is None:
        pytest.skip("needs the data directory of the test server")
    b = PostgresBackend(pg_url)
    marker = "zq" + new_id().replace("-", "")
    try:
        with b.write("a") as w:
            w.claim_model("test-model", DIM)
            target = row(f"the code is {marker} and more", tags=(marker,), idempotency_key=marker)
            w.insert(target)
            w.insert(row(f"{marker} again in a second memory", kind="episode"))
            for i in range(50):
                w.insert(row(f"filler memory {i}"))
        with b.read(None) as r:
            dboid = r.conn.execute("SELECT oid FROM pg_database WHERE datname = current_database()").fetchone()[0]
            r.conn.execute("SELECT 1")
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute("ANALYZE")  # as autovacuum may at any time (test_postgres_statistics.py)
            admin.execute("CHECKPOINT")  # the marker reaches the table files

        def files() -> list[Path]:
            return [p for p in (pg_server.data / "base" / str(dboid)).rglob("*") if p.is_file()]

        assert any(marker.encode() in p.read_bytes() for p in files())
        with b.write("a") as w:
            for memory in searching.listed(w, everything(), "observed", None):
                if memory.content and marker in memory.content:
                    w.erase(memory.id, 9_000, None)
        assert scrub_due(b)
        assert b.scrub()
        leaking = [str(p) for p in files() if marker.encode() in p.read_bytes()]
        assert leaking == []
        assert len(keyword_ids(b, "filler")) == 10  # the others are intact
    finally:
        b.close()


def test_a_forgotten_sessions_turns_and_a_procedures_run_notes_leave_no_marker_after_the_scrub(pg_server, pg_url):
    """Every table holding text is rewritten: the turns (and their word index), the sessions (cwd,
    client) and the notes of a forgotten procedure's runs, not only the memories."""
    if pg_server.data is None:
        pytest.skip("needs the data directory of the test server")
    from fakes import FakeEmbedder

    from memvault.storage.records import NewTurn
    from memvault.storage.store import Store

    marker = "zq" + new_id().replace("-", "")
    store = Store(pg_url, FakeEmbedder())  # type: ignore[arg-type]
    try:
        store.episodes.append(tenant="a", scope="s", session_id="s-1", cwd=f"/home/{marker}",
                              turns=[NewTurn(role="user", text=f"deploy {marker} tonight")])
        kept = store.episodes.append(tenant="a", scope="s", session_id="s-2",
                                     turns=[NewTurn(role="user", text="an unrelated session")])
        procedure = store.remember(tenant="a", scope="s", content="Restart the queue worker", kind="procedure")
        store.confirm(tenant="a", id=procedure.id, outcome="failure", note=f"it hung on {marker}")
        with store.backend.read(None) as r:
            dboid = r.conn.execute("SELECT oid FROM pg_database WHERE datname = current_database()").fetchone()[0]
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute("ANALYZE")
            admin.execute("CHECKPOINT")

        def leaking() -> list[str]:
            return [str(p) for p in (pg_server.data / "base" / str(dboid)).rglob("*")
                    if p.is_file() and marker.encode() in p.read_bytes()]

        assert leaking()
        store.episodes.forget(tenant="a", session_id="s-1")
        store.forget(tenant="a", id=procedure.id)
        assert store.upkeep.scrub()
        assert leaking() == []
        assert kept and [t.text for t in store.episodes.turns(tenant="a", session_id="s-2")] == ["an unrelated session"]
    finally:
        store.close()


# -- many writers ------------------------------------------------------------------------------

# (8 writers in 2 processes and a raced supersede, through Store on every backend: test_concurrency.py)


@contextlib.contextmanager
def held_write(b: PostgresBackend, step: Callable[[PgWriter], object]) -> Iterator[None]:
    """A write transaction of tenant "a" on another thread, held open after ``step`` for the block."""
    held, release = threading.Event(), threading.Event()

    def holder() -> None:
        with b.write("a") as w:
            step(w)
            held.set()
            release.wait(5)

    t = threading.Thread(target=holder)
    t.start()
    try:
        held.wait(5)
        yield
    finally:
        release.set()
        t.join()


def test_a_held_row_lock_makes_the_second_writer_busy(pg_url):
    b = PostgresBackend(pg_url, busy_timeout_ms=300)
    r1 = row("contended", vectors=False)
    insert(b, r1)
    try:
        with held_write(b, lambda w: searching.by_id(w, "a", r1.id)):  # a writer's read of a memory locks it
            with pytest.raises(Busy, match="retrying is safe"), b.write("a") as w:
                searching.by_prefix(w, "a", r1.id[:12], 2)
    finally:
        b.close()


def test_a_held_content_or_key_lock_makes_the_second_writer_busy_and_then_lets_it_see_the_row(pg_url):
    """The content-hash and idempotency-key locks travel with the look-up that follows them
    (one round trip): a writer still waits for them, and one that waited sees the row."""
    b = PostgresBackend(pg_url, busy_timeout_ms=300)
    first = row("contended content", vectors=False, idempotency_key="k1")

    def take(w: PgWriter) -> None:
        assert searching.current_with_hash(w, "a", "s", first.content_hash, NOW, None) is None
        assert searching.idempotency_key(w, "a", "k1") is None

    try:
        with held_write(b, take):
            with pytest.raises(Busy, match="retrying is safe"), b.write("a") as w:
                searching.current_with_hash(w, "a", "s", first.content_hash, NOW, None)
            with pytest.raises(Busy, match="retrying is safe"), b.write("a") as w:
                searching.idempotency_key(w, "a", "k1")
        insert(b, first)
        with b.write("a") as w:
            assert searching.current_with_hash(w, "a", "s", first.content_hash, NOW, None) == first.id
            assert searching.idempotency_key(w, "a", "k1") == (first.id, first.content_hash)
    finally:
        b.close()


def test_vector_writers_do_not_wait_for_each_other_but_a_reset_waits_for_them(pg_url):
    b = PostgresBackend(pg_url, busy_timeout_ms=1500)  # opening a pooled connection on a loaded machine took over 0.3 s
    with b.write(None) as w:
        assert w.claim_model("test-model", DIM)

    def first_writer(w: PgWriter) -> None:  # held between its claim and its commit
        assert w.claim_model("test-model", DIM)
        w.insert(row("first writer", seed=1))

    with held_write(b, first_writer):
        with b.write("a") as w:  # within the lock timeout, or Busy
            assert w.claim_model("test-model", DIM)
            w.insert(row("second writer", seed=2))
        with pytest.raises(Busy):
            b.reset_vectors("other-model", DIM)
        with b.read(None) as r:
            assert recorded_model(r.settings()) == ("test-model", DIM)  # the refused reset changed nothing
    b.reset_vectors("other-model", DIM)
    with b.read("a") as r:
        assert recorded_model(r.settings()) == ("other-model", DIM)
        assert searching.vector(r, everything(), unit(1), 5) == []  # both writers' vectors went with the reset
    b.close()


def test_vector_tables_made_by_a_rolled_back_claim_are_not_taken_for_existing(pg_url):
    """The backend remembers that the vector tables exist only once a committed state shows them."""
    b = PostgresBackend(pg_url)
    try:
        with pytest.raises(RuntimeError), b.write("a") as w:
            assert w.claim_model("test-model", DIM) and w.has_vectors()
            raise RuntimeError("the write fails after its claim")
        with b.read("a") as r:
            assert recorded_model(r.settings()) is None and not r.has_vectors() and searching.vector(r, everything(), unit(1), 5) == []
        first = row("kept after the claim commits", seed=1)
        with b.write("a") as w:
            assert w.claim_model("test-model", DIM)
            w.insert(first)
        with b.read("a") as r:
            assert [seq for seq, _ in searching.vector(r, everything(), unit(1), 5)] == [searching.by_id(r, "a", first.id)[0]]  # type: ignore[index]
    finally:
        b.close()


def test_the_first_vectors_of_a_database_are_claimed_once_by_racing_writers(pg_url):
    b = PostgresBackend(pg_url, busy_timeout_ms=5_000)
    barrier, answers = threading.Barrier(4), []

    def claim(model: str) -> None:
        with b.write("a") as w:
            barrier.wait(5)
            answers.append((model, w.claim_model(model, DIM)))

    threads = [threading.Thread(target=claim, args=(m,)) for m in ("m1", "m1", "m2", "m2")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with b.read(None) as r:
        winner = recorded_model(r.settings())[0]  # type: ignore[index]
    assert sorted(answers) == sorted((m, m == winner) for m in ("m1", "m1", "m2", "m2"))
    b.close()


def test_concurrent_writers_with_one_idempotency_key_store_one_memory(backend):
    barrier = threading.Barrier(4)
    outcomes: list[str] = []

    def remember(i: int) -> None:
        barrier.wait()
        with backend.write("a") as w:
            found = searching.idempotency_key(w, "a", "same-key")
            if found is not None:
                outcomes.append(found[0])
                return
            r1 = row(f"attempt {i}", idempotency_key="same-key")
            time.sleep(0.05)
            w.insert(r1)
            outcomes.append(r1.id)

    threads = [threading.Thread(target=remember, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(outcomes) == 4 and len(set(outcomes)) == 1


def test_a_lost_connection_is_storage_unavailable(backend, pg_server):
    insert(backend, row("x"))
    with pytest.raises(StorageUnavailable, match="connection to PostgreSQL failed"), backend.read("a") as r:
        pid = r.conn.info.backend_pid
        pg_server.admin("SELECT pg_terminate_backend(%s)", (pid,))
        r.conn.execute("SELECT 1")
    assert keyword_ids(backend, "x") != [] or True  # the pool replaces the broken connection
    with backend.read("a") as r:
        assert searching.count(r, everything()) == 1


# -- migrations and start-up errors --------------------------------------------------------------

def test_a_fresh_database_gets_the_schema_and_reopening_changes_nothing(pg_url):
    PostgresBackend(pg_url).close()
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT version FROM memvault_schema").fetchall() == [(schema.SCHEMA_VERSION,)]
    PostgresBackend(pg_url).close()
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT count(*) FROM memvault_schema").fetchone() == (1,)


def test_a_version_1_database_with_memories_is_migrated_and_still_searched(pg_url, monkeypatch):
    with monkeypatch.context() as m:  # a database written by memvault with schema version 1
        m.setattr(schema, "MIGRATIONS", schema.MIGRATIONS[:1])
        m.setattr(schema, "SCHEMA_VERSION", 1)
        PostgresBackend(pg_url).close()
    with psycopg.connect(pg_url) as conn:  # rows as that version wrote them (today's insert names later columns)
        for content, tenant in (("the gateway timeout is ninety seconds", "a"), ("the gateway runs in staging", "b")):
            conn.execute("INSERT INTO memories(id, tenant, scope, kind, content, content_hash, importance,"
                         " observed_at, recorded_at, content_terms) VALUES (%s, %s, 's', 'fact', %s, %s, 5, 1000, 1000,"
                         " to_tsvector('memvault', %s))", (new_id(), tenant, content, content, index_words(content)))
    migrated = PostgresBackend(pg_url)
    try:
        assert migrated.schema_version == schema.SCHEMA_VERSION
        with migrated.write(None) as w:  # the vector tables, made by the owner's function
            assert w.claim_model("test-model", DIM)
        assert len(keyword_ids(migrated, "gateway timeout")) == 1  # tenant a's one memory
        assert len(keyword_ids(migrated, "gateway", tenant="b")) == 1
        with migrated.read("a") as r:
            assert searching.term_counts(r, ["gateway"]) == (1, {"gateway": 1})
            functions = {name for (name,) in r.conn.execute(
                "SELECT proname FROM pg_proc WHERE proname LIKE 'memvault%%'").fetchall()}
            assert "memvault_matches" not in functions and "memvault_phrase_hits" in functions
    finally:
        migrated.close()


def test_two_processes_migrating_at_once_both_start(pg_url):
    code = "import sys; from memvault.storage.postgres import PostgresBackend; PostgresBackend(sys.argv[1]).close()"
    procs = [subprocess.Popen([sys.executable, "-c", code, pg_url], stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    errors = [p.communicate(timeout=60)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], errors


def test_a_newer_schema_is_refused_and_left_unchanged(pg_url):
    PostgresBackend(pg_url).close()
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE memvault_schema SET version = 99")
    with pytest.raises(StoreError, match="schema version 99.*newer memvault"):
        PostgresBackend(pg_url)
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT version FROM memvault_schema").fetchone() == (99,)


def _objects(url: str) -> tuple[list, list]:
    with psycopg.connect(url) as conn:
        tables = conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1").fetchall()
        extensions = conn.execute("SELECT extname FROM pg_extension WHERE extname = 'vector'").fetchall()
    return tables, extensions


def test_a_database_of_another_program_is_refused_untouched(pg_url):
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE invoices (id int)")
    with pytest.raises(StoreError, match="another program"):
        PostgresBackend(pg_url)
    assert _objects(pg_url) == ([("invoices",)], [])


def test_unreachable_server_is_a_clear_error():
    with pytest.raises(StoreError, match=r"cannot connect to PostgreSQL at postgresql://u:\*\*\*@127.0.0.1:1/db: .*"
                                         r"Connection refused") as caught:
        PostgresBackend("postgresql://u:secret@127.0.0.1:1/db")
    assert "secret" not in str(caught.value) and "\t" not in str(caught.value)


def test_a_missing_database_is_a_clear_error(pg_server):
    with pytest.raises(StoreError, match="no such database"):
        PostgresBackend(pg_server.url("memvault_never_created"))


def test_a_missing_role_is_named_as_such_not_as_a_missing_database(pg_server, pg_url):
    with pytest.raises(StoreError, match="no such role") as caught:
        PostgresBackend(pg_server.url(pg_server.dbname(pg_url), user="memvault_nobody", password="pw"))
    assert "no such database" not in str(caught.value)


def test_read_only_commands_leave_a_database_without_memvault_untouched(pg_server, pg_url, capsys, one_model):
    from memvault.server import cli

    for command in (["recall", "hello"], ["stats"], ["list"], ["doctor"]):
        assert cli.main([*command, "--db", pg_url]) == 1
        assert "no database at" in capsys.readouterr().err
    assert _objects(pg_url) == ([], [])
    assert cli.main(["remember", "The gateway timeout is 90 s", "--db", pg_url]) == 0
    assert "created a new database at postgresql://" in capsys.readouterr().err
    assert cli.main(["stats", "--db", pg_url]) == 0


def test_wrong_password_is_a_clear_error_without_the_password(pg_server, pg_url):
    if pg_server.data is None:
        pytest.skip("needs the test server's pg_hba.conf")
    hba = pg_server.data / "pg_hba.conf"
    original = hba.read_text()
    pg_server.admin("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'memvault_pw') THEN"
                    " CREATE ROLE memvault_pw LOGIN PASSWORD 'right'; END IF; END $$")
    hba.write_text("local all memvault_pw scram-sha-256\n" + original)
    pg_server.reload()
    try:
        with pytest.raises(StoreError, match=r"wrong user name or password") as caught:
            PostgresBackend(pg_server.url(pg_server.dbname(pg_url), user="memvault_pw",
                                          password="wrong-secret"))
        assert "wrong-secret" not in str(caught.value)
    finally:
        hba.write_text(original)
        pg_server.reload()


def test_a_role_that_cannot_create_pgvector_is_told_so_and_nothing_is_created(pg_server):
    pg_server.admin("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'memvault_plain') THEN"
                    " CREATE ROLE memvault_plain LOGIN; END IF; END $$")
    name = f"t_plain_{new_id()[-6:]}"
    pg_server.admin(f'CREATE DATABASE "{name}" OWNER memvault_plain')
    url = pg_server.url(name, user="memvault_plain")
    try:
        with pytest.raises(StoreError, match="CREATE EXTENSION vector"):
            PostgresBackend(url)
        assert _objects(url) == ([], [])
    finally:
        pg_server.admin(f'DROP DATABASE "{name}" WITH (FORCE)')


def test_a_remember_writes_only_once_embedded_then_only_the_search_the_insert_and_the_commit_remain(
    pg_url, monkeypatch
):
    """No write transaction is open while a remember's memory is embedded (its repeat
    check reads); once the model is claimed in the write, only the similar-memory search,
    the insert and the commit remain, and the memory, its tags and its vector are one statement."""
    from fakes import FakeEmbedder

    from memvault.storage.store import Store

    checked = threading.Event()  # the writer has claimed the model: its checks are done
    open_writes: list[int] = []
    during: list[int] = []

    class WatchedEmbedder(FakeEmbedder):
        def embed_as(self, texts):  # type: ignore[no-untyped-def]
            during.append(len(open_writes))
            return super().embed_as(texts)

    store = Store(pg_url, WatchedEmbedder())  # type: ignore[arg-type]
    store.remember(tenant="a", scope="s", content="The office opens at eight")
    claim, sent = PgWriter.claim_model, []
    execute, pipeline = psycopg.Connection.execute, psycopg.Connection.pipeline
    write = PostgresBackend.write

    @contextlib.contextmanager
    def watched_write(self, tenant):  # type: ignore[no-untyped-def]
        open_writes.append(1)
        try:
            with write(self, tenant) as w:
                yield w
        finally:
            open_writes.pop()

    def claim_model(self, model_id, dim):  # type: ignore[no-untyped-def]
        answer = claim(self, model_id, dim)
        checked.set()
        return answer

    def counted_execute(self, query, *args, **kwargs):  # type: ignore[no-untyped-def]
        if checked.is_set():
            sent.append((str(query if isinstance(query, str) else query.as_string(self)), self._pipeline is None))
        return execute(self, query, *args, **kwargs)

    @contextlib.contextmanager
    def counted_pipeline(self):  # type: ignore[no-untyped-def]
        outer = self._pipeline is None
        with pipeline(self) as p:
            yield p
        if outer and checked.is_set():
            sent.append(("(pipeline sync)", True))

    monkeypatch.setattr(PostgresBackend, "write", watched_write)
    monkeypatch.setattr(PgWriter, "claim_model", claim_model)
    monkeypatch.setattr(psycopg.Connection, "execute", counted_execute)
    monkeypatch.setattr(psycopg.Connection, "pipeline", counted_pipeline)
    try:
        outcome = store.remember(tenant="a", scope="s", content="Lunch is served at noon", tags=["office"])
    finally:
        monkeypatch.undo()
    assert outcome.created and store.get(tenant="a", id=outcome.id).tags == ("office",)
    assert during == [0, 0]  # both memories embedded with no write open
    statements = [q for q, _ in sent if q != "(pipeline sync)"]
    assert statements[-1] == "COMMIT" and sum("INSERT" in q for q in statements) == 1
    for check in ("idempotency_keys", "pg_advisory", "settings", "expires_at <="):
        assert not any(check in q for q in statements), check
    assert sum(own_trip for _, own_trip in sent) <= 4  # the search (and its exact retry), the insert, the commit
    store.close()


def test_doctor_says_it_scrubbed_what_a_forget_left_pending(pg_url, capsys, one_model):
    from memvault.server import cli

    assert cli.main(["remember", "--db", pg_url, "--json", "the old gate code is kept in the safe"]) == 0
    said = capsys.readouterr()
    memory_id = json.loads(said.out)["id"]
    assert cli.main(["forget", "--db", pg_url, memory_id]) == 0
    capsys.readouterr()
    assert cli.main(["doctor", "--db", pg_url, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["scrubbed"] is True and report["scrub_pending"] is False
    assert cli.main(["doctor", "--db", pg_url]) == 0  # nothing pending: nothing said of it
    assert "scrubbed" not in capsys.readouterr().out


CHECKED_FILTERS = [
    {}, {"scopes": ["o"]}, {"scopes": None}, {"kinds": ["decision"]}, {"tags": ["pets"]}, {"tags": ["pets", "x"]},
    {"since": 1_500}, {"until": 1_500}, {"include_history": True}, {"kinds": ["fact"], "tags": ["pets", "pets"]},
]


@pytest.mark.parametrize("narrowed", CHECKED_FILTERS)
def test_whether_a_memory_passing_the_filters_holds_a_name_is_what_the_keyword_search_finds(backend, narrowed):
    """The check of the names a question asks for (``Search.exists``), stopping at the first memory
    found, answers as the whole keyword search does, for every kind of filter."""
    paris = row("Audrey moved to Paris", kind="decision", observed_at=1_000)
    insert(backend, row("Audrey walks the dogs", tags=("pets", "x")), paris,
           row("Audrey moved to Lyon", kind="decision", observed_at=2_000, supersedes=paris.id),
           row("Bob keeps the keys", scope="o", tags=("pets",)), row("Zed left", expires_at=1_500),
           row("Dora feeds the cat", observed_at=1_200, tags=("pets",)))
    insert(backend, row("Carol elsewhere", tenant="b"))
    filters = replace(everything(), **narrowed)
    with backend.read("a") as r:
        for name in ("Audrey", "Paris", "Lyon", "Bob", "Zed", "Carol", "dogs walks", "feeds the cat", "Nobody"):
            chunks = query_chunks(name)
            expected = bool(searching.keyword(r, filters, chunks, 100))
            assert searching.contains(r, filters, chunks) is expected, name
