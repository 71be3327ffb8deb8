"""The SQLite keyword search's bound (storage/sqlite/tx.py ``keyword``): when a question's
words match many memories, BM25 ranks those matching its rarest words and only the
newest of those matching nothing but its common words; a filter still gets a full top-k.
The common words' lists are never walked match by match: FTS5 seeks in them (rowid
bounds, ``common AND rare``), and every memory ranked keeps its BM25 over all the words."""

from __future__ import annotations

import searching

import json

import pytest

import sqlite_raw
from fakes import FakeEmbedder
from memvault.storage import transfer
from memvault.storage.query import Filters, query_chunks
from memvault.storage.sqlite import sql
from memvault.storage.sqlite import tx as sqlite_tx
from memvault.storage.store import Store

OLD, NEW = 30, 30  # memories matching only the common word: short (best BM25) first, then long


@pytest.fixture
def store(db_path, monkeypatch):
    monkeypatch.setattr(sqlite_tx, "KEYWORD_RANKED", 8)
    monkeypatch.setattr(sqlite_tx, "KEYWORD_NEWEST", 10)
    s = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    lines = [{"content": f"weather {i}", "scope": "old"} for i in range(OLD)]
    lines += [{"content": f"zeppelin {i} weather", "scope": "old"} for i in range(3)]
    lines += [{"content": f"the weather was grey over the harbour and the hills today {i}", "scope": "new"}
              for i in range(NEW)]
    assert transfer.import_lines(s, (json.dumps(line) for line in lines), tenant="t", scope="new").imported == len(lines)
    yield s
    s.close()


def keyword(store: Store, query: str, k: int, scopes: list[str]) -> list[str]:
    with store.backend.read("t") as tx:
        found = searching.keyword(tx, Filters(tenant="t", scopes=scopes, now=store.clock()), query_chunks(query), k)
        rows = searching.rows(tx, [seq for seq, _, _ in found])
    return [rows[seq].content for seq, _, _ in found]  # type: ignore[misc]


def test_a_common_word_is_ranked_among_its_newest_matches_only(store):
    found = keyword(store, "weather", 8, ["old", "new"])
    # Unbounded, the 30 short old memories would win; bounded, the newest 10 matches are ranked.
    assert len(found) == 8 and all(text.startswith("the weather was grey") for text in found)


def test_every_memory_with_a_rare_word_is_ranked_whatever_its_age(store):
    found = keyword(store, "zeppelin weather", 8, ["old", "new"])
    assert len(found) == 8 and {t for t in found[:3]} == {f"zeppelin {i} weather" for i in range(3)}
    assert all(t.startswith("the weather was grey") for t in found[3:])


def test_a_filter_passing_only_older_matches_still_gets_a_full_top_k(store):
    found = keyword(store, "weather", 8, ["old"])
    assert len(found) == 8 and all(t.startswith(("weather ", "zeppelin ")) for t in found)


@pytest.mark.parametrize("n", [0, 1, 130])  # varints of 1 and 2 bytes
def test_the_keyword_index_size_follows_every_write(db_path, n):
    """``term_counts``' total (BM25's N) is read from FTS5's own record, not counted:
    it stays the number of memories with content through imports and forgets."""
    s = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    lines = (json.dumps({"content": f"harbour note {i}"}) for i in range(n))
    transfer.import_lines(s, lines, tenant="t", scope="a")
    ids = [s.remember(tenant="t", scope="a", content=f"kept {i} harbour").id for i in range(2)]
    s.forget(tenant="t", id=ids[0])
    with s.backend.read("t") as tx:
        assert searching.term_counts(tx, ["harbour"]) == (n + 1, {"harbour": n + 1})
        assert searching.count(tx, Filters(tenant="t", scopes=["a"], now=s.clock())) == n + 1
    s.close()


def test_a_recall_reads_each_terms_document_counts_once(store):
    """The keyword bound and the IDF weights need the same terms' counts: FTS5 counts a
    term by walking its matches, so a recall asks for them once."""
    with sqlite_raw.statements(store) as seen:
        found = store.recall(tenant="t", query="zeppelin weather harbour", scopes=["old", "new"], limit=5)
    assert found.hits and found.hits[0].memory.content.startswith("zeppelin")
    assert sum("_terms WHERE term" in sql for sql in seen) == 1, [s for s in seen if "terms" in s]


def counted(seen: list[str]) -> list[str]:
    """The statements that count: terms' documents, memories passing a filter, the newest matches."""
    return [s for s in seen if "_terms WHERE term" in s or "SELECT count(*)" in s or "ORDER BY rowid DESC" in s]


def test_recalls_in_a_row_count_nothing_again_while_the_data_stays_the_same(store):
    """The words' document counts, the filter's count and the newest matches of the common
    words depend on the data only: a recall after another (another transaction of the
    same connection) reads them again only for words not seen before."""
    question = dict(tenant="t", query="zeppelin weather harbour", scopes=["old", "new"], limit=5)
    first = store.recall(**question)
    with sqlite_raw.statements(store) as seen:
        again = store.recall(**question)
    assert counted(seen) == [] and [h.memory.id for h in again.hits] == [h.memory.id for h in first.hits]
    with sqlite_raw.statements(store) as seen:
        store.recall(**{**question, "query": "zeppelin hills"})
    assert [s for s in counted(seen) if "_terms WHERE term" in s], seen  # "hill" is new


def test_a_memorys_terms_are_read_once_while_the_data_stays_the_same(store, db_path):
    """A recall reads its candidates' index terms; the next one (another transaction of the same
    connection) reads none again until another connection commits a change."""
    question = dict(tenant="t", query="zeppelin weather harbour", scopes=["old", "new"], limit=5)
    first = store.recall(**question)
    with sqlite_raw.statements(store) as seen:
        again = store.recall(**question)
    assert not [s for s in seen if "p.seq = m.context_seq" in s]
    assert [(h.memory.id, h.signals.coverage) for h in again.hits] == [(h.memory.id, h.signals.coverage) for h in first.hits]
    other = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]  # another connection, as another process
    other.forget(tenant="t", id=first.hits[0].memory.id)
    other.close()
    with sqlite_raw.statements(store) as seen:
        after = store.recall(**question)
    assert [s for s in seen if "p.seq = m.context_seq" in s]
    assert first.hits[0].memory.id not in {h.memory.id for h in after.hits}


@pytest.mark.parametrize("narrowed", [{"kinds": []}, {"kinds": ["fact"]}, {"tags": []}, {"since": "2000-01-01"}])
def test_a_filters_count_is_kept_apart_from_other_filters(store, narrowed):
    """An empty list of kinds or tags filters nothing, like none (the same kept count)."""
    question = dict(tenant="t", query="zeppelin weather", scopes=["old"], limit=5)
    plain = store.recall(**question)
    assert [h.memory.id for h in store.recall(**question, **narrowed).hits] == [h.memory.id for h in plain.hits]
    assert not store.recall(**question, kinds=["decision"]).hits


@pytest.mark.parametrize("write", ["remember", "forget"])
def test_counts_kept_between_transactions_follow_a_commit_of_another_connection(store, db_path, write):
    question = dict(tenant="t", query="zeppelin weather", scopes=["old"], limit=5)
    before = store.recall(**question)
    other = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]  # another connection, as another process
    if write == "remember":
        other.remember(tenant="t", scope="old", content="a zeppelin over the hills")
    else:
        other.forget(tenant="t", id=before.hits[0].memory.id)
    other.close()
    with sqlite_raw.statements(store) as seen:
        after = store.recall(**question)
    assert len(counted(seen)) == 3, seen
    with store.backend.read("t") as tx:
        assert searching.term_counts(tx, ["zeppelin"])[1] == {"zeppelin": 4 if write == "remember" else 2}
    ids = {h.memory.id for h in after.hits if "zeppelin" in h.memory.content}
    assert (before.hits[0].memory.id in ids) == (write == "remember") and len(ids) == (4 if write == "remember" else 2)


def test_document_counts_follow_writes_between_and_within_transactions(store):
    with store.backend.read("t") as tx:
        before = searching.term_counts(tx, ["harbour", "zeppelin"])
    assert before[1] == {"harbour": NEW, "zeppelin": 3}
    store.remember(tenant="t", scope="new", content="a zeppelin over the harbour")
    with store.backend.read("t") as tx:
        assert searching.term_counts(tx, ["zeppelin", "harbour"]) == (before[0] + 1, {"harbour": NEW + 1, "zeppelin": 4})
    with store.backend.write("t") as tx:
        assert searching.term_counts(tx, ["zeppelin"])[1] == {"zeppelin": 4}
        tx.erase(store.recall(tenant="t", query="zeppelin", scopes=["old"], limit=1).hits[0].memory.id, store.clock(), None)
        assert searching.term_counts(tx, ["zeppelin"])[1] == {"zeppelin": 3}


def plan(conn, query: str, params: dict) -> list[tuple[int, str]]:
    return [(parent, detail) for _, parent, _, detail in conn.execute("EXPLAIN QUERY PLAN " + query, params)]


@pytest.mark.parametrize("bound", [(), (5,), (5, '"zeppelin"', '"weather"')])
def test_fts5_ranks_the_matches_before_any_memory_is_looked_up(store, bound):
    """BM25 runs inside FTS5 and memories are looked up in rank order until k pass the
    filter: the outer query sorts nothing (a sort there means every match was looked
    up first, one memory row per match: 12 against 8 ms a question at 100,000)."""
    filters = Filters(tenant="t", scopes=["new"], now=store.clock())
    with sqlite_raw.snapshot(store) as conn:
        steps = plan(conn, *sql.keyword_sql(filters, '"weather"', 8, *bound, table=sqlite_raw.keyword_table(conn, "t")))
    top = [detail for parent, detail in steps if parent == 0]
    assert top[:2] == ["CO-ROUTINE d", "SCAN d"] and not any("B-TREE" in d for d in top), steps


@pytest.mark.parametrize("scopes", [["old"], ["new"], ["old", "new"], ["none"]])
@pytest.mark.parametrize("k", [1, 8, 100])
def test_ranking_first_and_filtering_first_find_the_same_memories(store, scopes, k):
    """Every memory of the fixture matches: the filter alone decides which are found."""
    filters = Filters(tenant="t", scopes=scopes, now=store.clock())
    with sqlite_raw.snapshot(store) as conn:
        table = sqlite_raw.keyword_table(conn, "t")
        ranked = conn.execute(*sql.keyword_sql(filters, '"weather" OR "zeppelin"', k, table=table)).fetchall()
        filtered = conn.execute(*sql.filtered_keyword_sql(filters, '"weather" OR "zeppelin"', k, table=table)).fetchall()
    with store.backend.read("t") as tx:
        passing = searching.count(tx, filters)
    # Equal scores (the fixture's "weather {i}") may come in either order.
    assert [r[1:] for r in ranked] == [r[1:] for r in filtered] and len(ranked) == min(k, passing)
    if k >= passing:
        assert {r[0] for r in ranked} == {r[0] for r in filtered}


def scans(steps: list[tuple[int, str]]) -> list[str]:
    return [detail for _, detail in steps if detail.startswith("SCAN memories_fts")]


def test_no_scan_of_the_bounded_query_walks_every_match_of_the_common_words(store):
    """Each FTS5 scan carries a rowid bound FTS5 uses itself (``M2>``, ``M2<`` in its plan):
    the bound of before tested ``rowid > n OR rowid IN (...)`` on every match in SQLite."""
    filters = Filters(tenant="t", scopes=["new"], now=store.clock())
    match = '"zeppelin" OR "weather"'
    with sqlite_raw.snapshot(store) as conn:
        table = sqlite_raw.keyword_table(conn, "t")
        bounded = scans(plan(conn, *sql.keyword_sql(filters, match, 8, 5, '"zeppelin"', '"weather"', table=table)))
        unbounded = scans(plan(conn, *sql.keyword_sql(filters, match, 8, table=table)))
    assert len(bounded) == 3 and all(d.endswith((">", "<")) for d in bounded), bounded
    assert unbounded == [f"SCAN {table} VIRTUAL TABLE INDEX 0:M2"], unbounded


def test_a_bound_with_rare_chunks_needs_the_common_ones(store):
    with pytest.raises(ValueError):
        sql.keyword_sql(Filters(tenant="t", scopes=["new"], now=store.clock()), '"a" OR "b"', 8, 5, '"a"',
                        table="memories_fts_1")


def test_bounded_scores_are_the_bm25_of_every_word_of_the_question(store):
    """The old memories with the rare word are found by the rare word, scored with the
    common one as well: the same BM25 as a search over every match."""
    filters = Filters(tenant="t", scopes=["old", "new"], now=store.clock())
    chunks = query_chunks("zeppelin weather")
    with store.backend.read("t") as tx:
        bounded = searching.keyword(tx, filters, chunks, 8)
        newer_than, rare, common = tx._keyword_bound(*tx._keyword_index("t"), chunks)
    assert newer_than is not None and (rare, common) == ('"zeppelin"', '"weather"')
    with sqlite_raw.snapshot(store) as conn:
        table = sqlite_raw.keyword_table(conn, "t")
        every = {seq: (score, content) for seq, score, content in conn.execute(
            *sql.keyword_sql(filters, sql.match_expression(chunks), 1000, table=table))}
        rare_only = dict(conn.execute(
            f"SELECT rowid, bm25({table}, 1.0, 0.3) FROM {table} WHERE {table} MATCH ?", (rare,)))
    zeppelins = [seq for seq, _, _ in bounded if seq in rare_only]
    assert len(zeppelins) == 3 and all(seq <= newer_than for seq in zeppelins)
    for seq, score, content in bounded:
        assert score == pytest.approx(every[seq][0], abs=1e-9) and content == pytest.approx(every[seq][1], abs=1e-9)
    assert all(every[seq][0] < rare_only[seq] for seq in zeppelins)  # "weather" counted too


def test_a_common_word_still_ranks_the_memories_of_the_rare_one(db_path, monkeypatch):
    """Of two old memories with the rare word, the one that also has the common word comes
    first (though longer: ranked by the rare word alone it would come second), while the
    common word's own matches are too many to rank."""
    monkeypatch.setattr(sqlite_tx, "KEYWORD_RANKED", 3)
    monkeypatch.setattr(sqlite_tx, "KEYWORD_NEWEST", 4)
    s = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    lines = [{"content": "a zeppelin over the meadow"}, {"content": "a zeppelin over the old harbour"}]
    lines += [{"content": f"a quiet afternoon number {i}"} for i in range(30)]  # so that "harbour" weighs (BM25's IDF)
    lines += [{"content": f"the harbour was busy on day {i}"} for i in range(30, 40)]
    transfer.import_lines(s, (json.dumps(line) for line in lines), tenant="t", scope="a")
    found = keyword(s, "zeppelin harbour", 6, ["a"])
    s.close()
    assert found[:2] == ["a zeppelin over the old harbour", "a zeppelin over the meadow"], found
    assert set(found[2:]) == {f"the harbour was busy on day {i}" for i in range(36, 40)}  # the newest 4
