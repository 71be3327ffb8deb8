"""The SQLite vector index (storage/sqlite/cells.py): trained cells, filters inside the
search, a full top-k, the migration of a file whose vectors are in the old vec0 table,
and (slow, real embeddings) recall@10 against an exact scan."""

from __future__ import annotations

import searching

import json
import random
import threading

import numpy as np
import pytest

import sqlite_raw
from conftest import LOCOMO
from fakes import FakeEmbedder
from memvault.storage import transfer
from memvault.storage.query import Filters
from memvault.storage.sqlite import backend as sqlite_backend
from memvault.storage.sqlite import cells
from memvault.storage.sqlite.schema import MIGRATIONS, VECTOR_TABLE
from memvault.storage.store import Store

WORDS = ("deploy staging cluster kafka lunch running shoes paris budget invoice garden piano "
         "database backup certificate rotation painting hiking recipe sister guitar laptop").split()
DAY = 86_400_000


@pytest.fixture
def small_cells(monkeypatch):
    """A store trains its cells at 200 vectors and reads 2 cells per search, so a few
    hundred memories exercise the index as a million would."""
    monkeypatch.setattr(cells, "TRAIN_AT", 200)
    monkeypatch.setattr(cells, "PROBE", 2)


def fill(store: Store, n: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    lines = []
    for i in range(n):
        lines.append(json.dumps({
            "content": " ".join(rng.choices(WORDS, k=6)) + f" note {i}",
            "scope": ("alpha", "beta", "gamma")[i % 3],
            "kind": ("fact", "episode", "procedure", "preference")[i % 4],
            "observed_at": f"2026-01-{1 + i % 28:02d}T10:00:00Z",
            **({"tags": ["ops"]} if i % 5 == 0 else {}),
        }))
    report = transfer.import_lines(store, lines, tenant="t", scope="alpha")
    assert report.imported == n


def in_cell_zero(store: Store) -> int:
    with sqlite_raw.connection(store) as conn:
        return conn.execute(f"SELECT count(*) FROM {VECTOR_TABLE} WHERE key < ?", (1 << cells.CELL_SHIFT,)).fetchone()[0]


def indexed(store: Store) -> cells.Cells:
    """The centroids in force once the index is up to date."""
    store.upkeep.index_vectors()
    with store.backend.read(None) as tx:
        return tx.cells()  # type: ignore[attr-defined]


def test_the_index_trains_cells_and_moves_every_vector_into_one(db_path, small_cells):
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    fill(store, 300)
    trained = indexed(store)
    assert trained.size == cells.cell_count(300) and in_cell_zero(store) == 0
    # A memory written now goes straight to its cell, in its own transaction.
    out = store.remember(tenant="t", scope="alpha", content="kafka lunch paris piano")
    assert in_cell_zero(store) == 0 and store.get(tenant="t", id=out.id).vector_pending is False
    store.close()


def test_a_store_grown_fourfold_trains_a_new_generation_and_drops_the_old(db_path, small_cells):
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    fill(store, 210)
    first = indexed(store)
    fill(store, 650, seed=1)
    second = indexed(store)
    assert set(second.generations.tolist()) == {2} and second.ids.min() > first.ids.max()
    assert in_cell_zero(store) == 0
    assert maintenance_check(store) == []
    with sqlite_raw.snapshot(store) as conn:  # read from the lowest and highest ids: still one run of them
        assert cells.version(conn) == (int(second.ids.max()), second.size)
    store.close()


def test_the_cells_version_is_read_through_the_key_not_a_scan_of_the_centroids(db_path, small_cells):
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    with sqlite_raw.connection(store) as conn:
        assert cells.version(conn) == (0, 0)
    fill(store, 210)
    assert indexed(store).size
    with sqlite_raw.connection(store) as conn:
        plan = " / ".join(row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + cells.VERSION_SQL))
    # Each end of the run once: the highest id was read a second time for the count before.
    assert "SCAN vector_cells" not in plan and plan.count("SEARCH vector_cells") == 2, plan
    store.close()


def maintenance_check(store: Store) -> list[str]:
    from memvault.storage import maintenance

    return [p for p in maintenance.check(store) if "no vector yet" not in p]


FILTERS = {
    "tenant only": {},
    "one scope": {"scopes": ["beta"]},
    "two scopes": {"scopes": ["beta", "gamma"]},
    "kinds": {"kinds": ["procedure"]},
    "tag": {"tags": ["ops"]},
    "since and until": {"since": 1767571200000, "until": 1767571200000 + 6 * DAY},  # 5 to 10 January 2026
    "scope, kind and time": {"scopes": ["alpha"], "kinds": ["fact", "episode"], "since": 1767571200000},
}


@pytest.mark.parametrize("name", sorted(FILTERS))
def test_a_filtered_search_returns_only_allowed_memories_and_a_full_top_k(db_path, small_cells, name):
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    fill(store, 400)
    # Another tenant, and memories of the owner that a search must skip.
    other = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    for i in range(30):
        other.remember(tenant="u", scope="beta", content=f"deploy staging cluster kafka {i}", kind="procedure")
    old = store.remember(tenant="t", scope="beta", content="kafka deploy staging old plan", kind="procedure")
    store.supersede(tenant="t", id=old.id, content="kafka deploy staging new plan")
    gone = store.remember(tenant="t", scope="beta", content="kafka deploy staging forgotten plan", kind="procedure")
    store.forget(tenant="t", id=gone.id)
    store.upkeep.index_vectors()
    now = store.clock()
    query = FakeEmbedder().embed(["kafka deploy staging cluster"])[0]
    filters = Filters(**{"tenant": "t", "scopes": ["alpha", "beta", "gamma"], "now": now, **FILTERS[name]})  # type: ignore[arg-type]
    k = 40
    with store.backend.read("t") as tx:
        found = searching.vector(tx, filters, query, k)
        rows = searching.rows(tx, [seq for seq, _ in found])
        passing = searching.count(tx, filters)
    assert passing >= k and len(found) == k  # the owner finds its own data, a full top-k
    for memory in rows.values():
        assert memory.tenant == "t" and memory.scope in filters.scopes
        assert memory.superseded_by is None and memory.forgotten_at is None and memory.id != old.id
        assert filters.kinds is None or memory.kind in filters.kinds
        assert filters.tags is None or set(filters.tags) <= set(memory.tags)
        assert filters.since is None or memory.observed_at >= filters.since
        assert filters.until is None or memory.observed_at < filters.until
    similarities = [s for _, s in found]
    assert similarities == sorted(similarities, reverse=True)
    other.close()
    store.close()


def test_a_tenant_with_few_memories_is_searched_whole_in_a_large_file(db_path, small_cells):
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    fill(store, 400)
    mine = [store.remember(tenant="small", scope="alpha", content=f"piano garden recipe {i}").id for i in range(3)]
    store.upkeep.index_vectors()
    query = FakeEmbedder().embed(["kafka deploy"])[0]  # far from the small tenant's texts
    with store.backend.read("small") as tx:
        found = searching.vector(tx, Filters(tenant="small", scopes=["alpha"], now=store.clock()), query, 10)
        ids = {m.id for m in searching.rows(tx, [seq for seq, _ in found]).values()}
    assert ids == set(mine)
    store.close()


def test_a_file_with_vectors_in_the_old_vec0_table_keeps_them(db_path):
    """Schema version 4 files keep window 0 vectors in a vec0 table; the migration
    moves them, searchable at once, with no vector made again."""
    from memvault.storage.sqlite.db import open_connection, write_transaction
    from memvault.storage.validate import content_hash

    conn = open_connection(db_path)
    conn.create_scalar_function("memvault_nfc", lambda s: s, 1)
    conn.create_scalar_function("memvault_tag", lambda s: s, 1)
    conn.create_scalar_function("memvault_hash", lambda s: s, 1)
    vectors = FakeEmbedder().embed([f"kafka staging deploy number {i}" for i in range(5)])
    with write_transaction(conn):
        for step in MIGRATIONS[:4]:
            conn.execute(step)  # type: ignore[arg-type]
        conn.execute("PRAGMA user_version = 4")
        conn.execute(f"CREATE VIRTUAL TABLE {VECTOR_TABLE} USING vec0(tenant TEXT PARTITION KEY,"
                     " embedding float[64] distance_metric=cosine)")
        conn.executemany("INSERT INTO settings(key, value) VALUES (?, ?)", [("model_id", "fake-bow@1"), ("model_dim", "64")])
        for i, v in enumerate(vectors, start=1):
            conn.execute(
                "INSERT INTO memories(id, tenant, scope, kind, content, content_hash, importance, observed_at,"
                " recorded_at, vector_pending) VALUES (?, 't', 's', 'fact', ?, ?, 5, 0, 0, 0)",
                (f"0190a000-0000-7000-8000-00000000000{i}", f"kafka staging deploy number {i - 1}", f"h{i}"),
            )
            conn.execute(f"INSERT INTO {VECTOR_TABLE}(rowid, tenant, embedding) VALUES (?, 't', ?)", (i, v.tobytes()))
        conn.execute("INSERT INTO idempotency_keys(tenant, key, memory_seq, content_hash) VALUES ('t', 'k', 2, 'h2')")
    conn.close()
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    with store.backend.read("t") as tx:
        found = searching.vector(tx, Filters(tenant="t", scopes=["s"], now=1), vectors[2], 5)
        assert len(found) == 5 and found[0][0] == 3 and found[0][1] == pytest.approx(1.0, abs=1e-5)
    with store.backend.read("t") as tx:  # the key, now timed from its memory's recording
        assert searching.idempotency_key(tx, "t", "k") == (  # its hash made again by schema 17
            "0190a000-0000-7000-8000-000000000002", content_hash("kafka staging deploy number 1"))
    assert maintenance_check(store) == []
    with sqlite_raw.connection(store) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
        assert raw.execute("SELECT recorded_at FROM idempotency_keys").fetchall() == [(0,)]
        assert raw.execute("SELECT type FROM sqlite_master WHERE name = ?", (VECTOR_TABLE,)).fetchone() == ("table",)
    store.close()


@pytest.mark.slow
@pytest.mark.skipif(not (LOCOMO / "memories.jsonl").exists(), reason="LoCoMo data folder ../shared/eval/locomo absent")
def test_vector_recall_at_10_against_an_exact_scan_on_real_embeddings(db_path, real_embedder, monkeypatch):
    """The first half of LoCoMo's turns with the real model, written as rows (the recall is the
    index's, not the memory rules'; the model's 12 ms a turn is the test's cost): the index, trained
    at 500 vectors so that they use it and reading the share of its cells it reads at all 3,962
    turns, finds at least 98 % of the exact top 10 of LoCoMo's questions."""
    from memvault.storage.backend import NewRow

    lines = (LOCOMO / "memories.jsonl").read_text().splitlines()
    turns = [json.loads(line)["text"] for line in lines[: len(lines) // 2]]
    monkeypatch.setattr(cells, "TRAIN_AT", 500)
    monkeypatch.setattr(cells, "PROBE", round(cells.PROBE * cells.cell_count(len(turns)) / cells.cell_count(len(lines))))
    questions = [json.loads(line)["question"] for line in (LOCOMO / "queries.jsonl").read_text().splitlines()][:300]
    windows = [real_embedder.windows(text) for text in turns]
    made = real_embedder.embed_as([part for parts in windows for part in parts])
    store = Store(db_path, real_embedder)
    with store.backend.write("t") as tx:
        start = 0
        for i, (text, parts) in enumerate(zip(turns, windows, strict=True)):
            tx.insert(NewRow(id=f"0190a000-0000-7000-8000-{i:012x}", tenant="t", scope="s", kind="fact", content=text,
                             content_hash=str(i), tags=(), importance=5, source=None, observed_at=0, recorded_at=0,
                             tokens=1, vectors=list(made.vectors[start : start + len(parts)]), model=made.model_id))
            start += len(parts)
    store.upkeep.index_vectors()
    with store.backend.read("t") as tx:
        assert tx.cells().size == cells.cell_count(len(turns))  # type: ignore[attr-defined]
    with sqlite_raw.connection(store) as conn:
        stored = conn.execute(f"SELECT key & {cells.SEQ_MASK}, embedding FROM {VECTOR_TABLE}").fetchall()
    seqs = np.array([s for s, _ in stored])
    matrix = np.frombuffer(b"".join(e for _, e in stored), dtype=np.float32).reshape(len(stored), -1)
    filters = Filters(tenant="t", scopes=["s"], now=store.clock())
    hits = 0
    for q in real_embedder.embed(questions):
        exact = set(seqs[np.argsort(-(matrix @ q))[:10]].tolist())
        with store.backend.read("t") as tx:
            found = {seq for seq, _ in searching.vector(tx, filters, q, 10)}
        hits += len(exact & found)
    assert hits / (10 * len(questions)) >= 0.98
    store.close()


def test_every_vector_lookup_by_memory_uses_the_index_not_a_scan(db_path):
    from memvault.storage.sqlite import sql

    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    store.remember(tenant="t", scope="s", content="hello world")
    filters = Filters(tenant="t", scopes=["s"], now=store.clock())
    queries = [sql.vector_sql(filters, 10, None), sql.similarity_sql([1, 2]), sql.pairs_sql([1, 2])]
    with sqlite_raw.connection(store) as conn:
        for query, params in queries:
            bind = {**params, "vector": b"\0" * 256} if isinstance(params, dict) else params
            plan = " / ".join(row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + query, bind))
            assert "memory_vectors_seq" in plan and "SCAN v" not in plan, plan
    store.close()


@pytest.mark.parametrize("history", [False, True])
def test_memories_of_a_kind_are_found_by_the_index_not_by_reading_their_scope(db_path, history):
    """A filter on kinds seeks in ``memories_kept`` (tenant, scope, expires_at, kind), the
    history admitted or not: the
    memories that never expire, then those expiring later, each by its own search. Read
    as one condition (expires_at IS NULL OR > now) SQLite sought no further than the scope
    and read all of it (63-76 ms at 1,000,000 memories, for a question naming a kind)."""
    from memvault.storage.sqlite import sql

    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    store.remember(tenant="t", scope="s", content="hello world")
    filters = Filters(tenant="t", scopes=["s"], now=store.clock(), kinds=["decision"], include_history=history)
    with sqlite_raw.connection(store) as conn:
        for query, params in (sql.passing_sql(filters, 10), sql.vector_sql(filters, 10, None)):
            plan = [row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + query, {**params, "vector": b"\0" * 256})]
            searches = [d for d in plan if "memories_kept" in d]
            assert len(searches) == 2 and "expires_at=? AND kind=?" in searches[0], plan
            assert "expires_at>?" in searches[1] and not any(d.startswith("SCAN m") for d in plan), plan
    store.close()


def test_a_search_starting_from_the_memories_passing_finds_the_expiring_ones_until_they_expire(db_path):
    clock = [1_800_000_000_000]
    store = Store(db_path, FakeEmbedder(), clock=lambda: clock[0])  # type: ignore[arg-type]
    kept = store.remember(tenant="t", scope="s", kind="decision", content="we keep the cache").id
    later = store.remember(tenant="t", scope="s", kind="decision", content="we pause the deploys",
                           expires_at="2027-06-01T00:00:00Z").id
    store.remember(tenant="t", scope="s", kind="fact", content="the cache is warm")
    vector = np.asarray(FakeEmbedder().embed(["cache"])[0], dtype=np.float32)

    def found() -> set[str]:
        from memvault.storage.sqlite import sql

        query, params = sql.vector_sql(Filters(tenant="t", scopes=["s"], now=clock[0], kinds=["decision"]), 10, None)
        with sqlite_raw.snapshot(store) as conn:
            seqs = [seq for seq, _ in conn.execute(query, {**params, "vector": vector.tobytes()})]
        with store.backend.read("t") as tx:
            rows = searching.rows(tx, seqs)
        return {rows[seq].id for seq in seqs}

    assert found() == {kept, later}
    clock[0] = 1_900_000_000_000  # past 2027-06-01
    assert found() == {kept}
    store.close()


def vector_rows(store: Store, query: np.ndarray, k: int, filters: Filters | None = None) -> list[tuple[int, float]]:
    with store.backend.read("t") as tx:
        return searching.vector(tx, filters or Filters(tenant="t", scopes=["alpha", "beta", "gamma"], now=store.clock()), query, k)


@pytest.mark.parametrize("trained", [False, True], ids=["untrained, exact", "trained cells"])
def test_a_search_scores_its_cells_from_the_in_memory_copy_and_answers_as_the_file(db_path, small_cells, trained):
    """The in-memory copy (``vector_cache``) picks the candidates; the answer (which
    memories, their exact distances) is the one a read of the cells' rows gives."""
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    fill(store, 400 if trained else 150)
    store.upkeep.index_vectors()
    assert (indexed(store).size > 0) is trained
    queries = FakeEmbedder().embed(["kafka deploy staging cluster", "piano garden recipe", "budget invoice note 7"])
    # Two scopes of three pass: more than half of what the cells hold, so the cells are read.
    filters = Filters(tenant="t", scopes=["beta", "gamma"], now=store.clock())
    for q in queries:
        for k in (3, 10, 40):
            from_copy = vector_rows(store, q, k, filters)
            assert store.backend.vector_cache.cells > 0  # type: ignore[attr-defined]
            with pytest.MonkeyPatch.context() as patch:  # the copy declines: the rows are read from the file
                patch.setattr(store.backend.vector_cache, "candidates", lambda *args: None)  # type: ignore[attr-defined]
                from_file = vector_rows(store, q, k, filters)
            assert len(from_copy) == k
            assert [d for _, d in from_copy] == pytest.approx([d for _, d in from_file], abs=1e-6)
            last = from_file[-1][1] + 1e-6  # (the fake embedder's vectors tie often: ties may swap)
            assert {s for s, d in from_copy if d > last} == {s for s, d in from_file if d > last}
    store.close()


def test_the_in_memory_copy_follows_every_write_of_another_connection(db_path, small_cells):
    """Another store (another process) remembers, forgets and moves vectors between
    cells: the first store's copy, loaded before, answers for the newest snapshot."""
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    fill(store, 150)
    other = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    query = FakeEmbedder().embed(["lunch paris piano guitar"])[0]
    first = vector_rows(store, query, 5)
    assert store.backend.vector_cache.cells > 0  # type: ignore[attr-defined]
    with store.backend.read("t") as tx:
        top = searching.rows(tx, [first[0][0]])[first[0][0]]
    other.forget(tenant="t", id=top.id)
    new = other.remember(tenant="t", scope="gamma", content="lunch paris piano guitar").id
    fill(other, 300, seed=3)
    other.upkeep.index_vectors()  # trains cells: every vector moves out of cell 0
    with store.backend.read("t") as tx:
        found = searching.vector(tx, Filters(tenant="t", scopes=["alpha", "beta", "gamma"], now=store.clock()), query, 5)
        rows = searching.rows(tx, [seq for seq, _ in found])
    assert rows[found[0][0]].id == new and found[0][1] == pytest.approx(1.0, abs=1e-5)
    assert top.id not in {m.id for m in rows.values()} and all(m.forgotten_at is None for m in rows.values())
    other.close()
    store.close()


def test_a_write_that_rolls_back_leaves_the_in_memory_copy_as_the_file(db_path, monkeypatch):
    """A search inside a write transaction that then rolls back must not teach the copy
    what it wrote: the next memory gets the same row key with another vector, and the
    copy (reading no more than the one candidate it picks) must know that vector."""
    from memvault.storage.backend import NewRow

    monkeypatch.setattr(cells, "FILTER_FIRST", 1)
    monkeypatch.setattr(cells, "RESCORE_MIN", 1)
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    fill(store, 60)
    query = FakeEmbedder().embed(["garden piano sister"])[0]
    before = vector_rows(store, query, 5)
    with pytest.raises(RuntimeError), store.backend.write("t") as tx:
        tx.insert(NewRow(id="0190a000-0000-7000-8000-00000000abcd", tenant="t", scope="alpha", kind="fact",
                         content="garden piano sister", content_hash="h", tags=(), importance=5, source=None,
                         observed_at=0, recorded_at=0, tokens=5, vectors=[query], model=FakeEmbedder.model_id))
        everywhere = Filters(tenant="t", scopes=["alpha", "beta", "gamma"], now=store.clock())
        assert searching.vector(tx, everywhere, query, 1)[0][1] == pytest.approx(1.0)
        raise RuntimeError("roll back")
    assert vector_rows(store, query, 5) == before
    store.remember(tenant="t", scope="alpha", content="kafka budget invoice laptop")
    new = FakeEmbedder().embed(["kafka budget invoice laptop"])[0]
    assert vector_rows(store, new, 1)[0][1] == pytest.approx(1.0, abs=1e-5)
    store.close()


def test_the_vector_change_log_keeps_only_its_newest_changes(db_path):
    from memvault.storage.sqlite.schema import VECTOR_LOG_KEEP

    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    with sqlite_raw.writing(store) as conn:
        conn.executemany(f"INSERT INTO {VECTOR_TABLE}(key, embedding) VALUES (?, zeroblob(8))",
                         [(i,) for i in range(1, VECTOR_LOG_KEEP + 51)])
        conn.execute(f"UPDATE {VECTOR_TABLE} SET key = key + 100000 WHERE key = 7")
        count, low, high = conn.execute("SELECT count(*), min(change), max(change) FROM vector_changes").fetchone()
    assert count == VECTOR_LOG_KEEP and high - low == VECTOR_LOG_KEEP - 1 and high == VECTOR_LOG_KEEP + 52
    store.close()


def test_finding_a_tenants_ids_by_prefix_uses_an_index_on_the_tenants_ids(db_path):
    """A forget, get or shown recall hit resolves ids within the tenant: by an index on
    (tenant, id), never by walking every memory of the tenant (70-150 ms at 100,000)."""
    from memvault.storage.sqlite import sql

    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    fill(store, 20)
    with sqlite_raw.connection(store) as conn:
        conn.execute("ANALYZE")  # whatever the statistics say
        prefix, prefix_params = sql.prefix_sql("m.id, m.content", "t", "0190a0")
        for query, params in ((prefix, {**prefix_params, "limit": 2, "offset": 0}),):
            searches = [row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + query, params) if "SEARCH" in row[3]]
            assert searches and all("memories_tenant_id (tenant=? AND id" in s for s in searches), searches
    store.close()


@pytest.mark.parametrize("rows", [1, cells.BLAS_ROWS - 1, cells.BLAS_ROWS, 500])
def test_assign_gives_each_vector_its_nearest_cell_by_either_product(rows):
    """Few rows are multiplied without BLAS, many with it: both give the nearest cell."""
    rng = np.random.default_rng(rows)
    centroids = rng.normal(size=(40, 16)).astype(np.float32)
    centroids /= np.linalg.norm(centroids, axis=1, keepdims=True)
    vectors = rng.normal(size=(rows, 16)).astype(np.float32)
    found = cells.Cells(np.arange(1, 41), np.ones(40, dtype=np.int64), centroids).assign(vectors)
    nearest = [1 + int(np.argmax([float(np.dot(v, c)) for c in centroids])) for v in vectors]
    assert found.tolist() == nearest


def test_warm_up_reads_the_cells_into_the_in_memory_copy_up_to_its_budget(db_path, small_cells):
    """``Store.warm_up`` (the server's boot) fills the copy so the first searches find
    their cells in memory; never past the budget, and answering as the file does."""
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    fill(store, 400)
    held = indexed(store).size + 1  # every trained cell, and cell 0
    store.close()
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    cache = store.backend.vector_cache  # type: ignore[attr-defined]
    assert cache.cells == 0
    store.warm_up()
    assert cache.cells == held
    size = cache._bytes
    query = FakeEmbedder().embed(["kafka deploy staging cluster"])[0]
    with pytest.MonkeyPatch.context() as patch:  # searches load no cell: the copy holds them all
        patch.setattr(cache, "_load", lambda *args: pytest.fail("a cell was read after the warm-up"))
        from_copy = vector_rows(store, query, 10)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cache, "candidates", lambda *args: None)
        from_file = vector_rows(store, query, 10)
    assert [d for _, d in from_copy] == pytest.approx([d for _, d in from_file], abs=1e-6)
    store.close()
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    cache = store.backend.vector_cache  # type: ignore[attr-defined]
    cache.budget = size // 3  # room for a third of the cells: it stops there, dropping none
    store.warm_up()
    assert 0 < cache.cells < held and cache._bytes <= cache.budget
    store.close()


def test_the_copy_gives_freed_memory_back_on_the_worker_each_time_a_quarter_of_its_budget_was_dropped(
        db_path, small_cells, monkeypatch):
    """Cells dropped past the budget leave freed heap pages that glibc keeps: the copy has
    the store's worker give them back (``malloc_trim``), once per quarter of its budget dropped."""
    from memvault.storage.maintenance import WORKER_THREAD
    from memvault.storage.sqlite import vector_cache

    releases: list[str] = []
    monkeypatch.setattr(vector_cache, "malloc_trim",
                        lambda: lambda pad: releases.append(threading.current_thread().name))
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    fill(store, 400)
    indexed(store)
    cache = store.backend.vector_cache  # type: ignore[attr-defined]
    store.warm_up()
    size, held = cache._bytes, cache.cells
    cache._cells.clear()
    cache._bytes = 0
    cache.budget = size // 8  # an eighth of the index fits: loading all of it drops 7/8
    store.warm_up()
    store.upkeep.scrub_pending()  # (after the jobs queued before it)
    assert cache._bytes <= cache.budget and releases == []  # the warm-up stops at the budget: nothing dropped
    with store.backend.read("t") as tx:
        for cell in [c for c in range(held * 4) if c not in cache._cells][:held]:  # one by one: each is a job
            cache.candidates(tx.conn, [cell], FakeEmbedder().embed(["x"])[0], 5, True)
            store.upkeep.scrub_pending()
    assert len(releases) >= 2 and set(releases) == {WORKER_THREAD}
    assert cache._dropped * vector_cache.TRIM_SHARE < cache.budget
    store.close()


def test_the_heap_is_given_back_where_the_c_library_has_malloc_trim():
    import ctypes

    from memvault.storage.sqlite import vector_cache

    assert (vector_cache.malloc_trim() is None) == (getattr(ctypes.CDLL(None), "malloc_trim", None) is None)
    vector_cache.trim_heap()  # (glibc: returns freed pages; elsewhere nothing)


def test_warm_up_stops_between_two_transactions_once_asked_to(db_path, small_cells):
    """A server stopping during its warm-up does not wait for the whole index to load."""
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    fill(store, 400)
    indexed(store)
    store.close()
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    asked: list[int] = []
    store.warm_up(stop=lambda: asked.append(1) or len(asked) > 1)  # stop before the second batch
    cache = store.backend.vector_cache  # type: ignore[attr-defined]
    assert len(asked) == 2 and cache.cells == sqlite_backend.PRELOAD_BATCH  # one batch, not every cell
    store.close()


@pytest.mark.parametrize("command", ["import", "reindex"])
def test_import_and_reindex_leave_the_vector_index_up_to_date(tmp_path, small_cells, capsys, command, one_model):
    from memvault.server import cli

    dump, db = tmp_path / "m.jsonl", tmp_path / "m.db"
    rng = random.Random(1)
    dump.write_text("".join(json.dumps({"content": " ".join(rng.choices(WORDS, k=6)) + f" note {i}"}) + "\n"
                            for i in range(260)))
    assert cli.main(["import", "--db", str(db), str(dump)]) == 0
    if command == "reindex":
        assert cli.main(["reindex", "--db", str(db)]) == 0
    capsys.readouterr()
    store = Store(db, FakeEmbedder())
    try:
        with store.backend.read(None) as tx:
            assert tx.cells().size  # type: ignore[attr-defined]  # trained
        assert in_cell_zero(store) == 0 and not store.backend.index_vectors()
        assert store.count_memories(tenant="default", scopes=["default"]) == 260
    finally:
        store.close()
