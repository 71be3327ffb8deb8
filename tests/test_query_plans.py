"""No query on the agent's path reads every memory of a tenant (issue 28), on SQLite: each
SELECT that recall, a listing and the boot context run is planned by SQLite (``EXPLAIN QUERY
PLAN``, with the bindings it ran with) and must reach memories through an index that
bounds what it reads — never a full scan of a table, never a sort or a count of
everything a tenant or a scope holds."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import apsw
import pytest

import sqlite_raw
from fakes import Clock, FakeEmbedder
from memvault.storage.consolidate import consolidate
from memvault.storage.records import NewTurn
from memvault.storage.store import Store
from memvault.tools import boot, handlers

# Tables a plan may scan whole: sized by the index's configuration, not by memories.
SMALL_TABLES = {"settings", "vector_cells", "keyword_tenants", "memory_counts", "turn_index_tenants"}
# Queries that read what passes a filter with no bound in their own plan, and why each is bounded.
BOUNDED_ELSEWHERE = {
    # the exact vector scan of the memories passing a filter: run only after a count
    # stopped by LIMIT found fewer of them than the nearest cells would hold (tx._nearest)
    "SELECT p.seq, vec_distance_cosine(": "counted first",
    # the windows of long memories: an exact scan of every window (issue 24 item 3, the
    # SQLite vector path, is where this is decided; only long memories have windows)
    "SELECT w.memory_seq, min(vec_distance_cosine(": "known: windows are scanned",
}
# Indexes whose leading columns only name a tenant or a scope: a sort or count over
# what they find reads everything the tenant or scope holds.
WIDE = re.compile(r"^SEARCH (\w+) USING (?:COVERING )?INDEX \w+ \(tenant=\?(?: AND scope=\?)?\)$")


@pytest.fixture
def traced(tmp_path) -> Iterator[tuple[Store, list[tuple[str, object]]]]:
    """A store whose every connection records the statements it runs, with their bindings."""
    seen: list[tuple[str, object]] = []

    def hook(conn: apsw.Connection) -> None:
        conn.exec_trace = lambda _cursor, sql, bindings: seen.append((sql, bindings)) or True

    apsw.connection_hooks.append(hook)
    store = Store(tmp_path / "plans.db", FakeEmbedder(), clock=Clock())
    try:
        for tenant in ("a", "b"):
            for i in range(60):
                store.remember(
                    tenant=tenant, scope=("proj", "other")[i % 2], kind=("fact", "episode", "decision", "failure")[i % 4],
                    content=f"note {i} about the kafka deploy of {tenant}" + (" and more words" * 80 if i % 10 == 0 else ""),
                    tags=["ops"] if i % 3 == 0 else [], importance=1 + i % 9,
                )
            for i in range(60):  # sessions of both scopes, searched by recall's turns
                store.episodes.append(tenant=tenant, scope=("proj", "other")[i % 2], session_id=f"s{i % 20}",
                                      turns=[NewTurn(role="user", text=f"deploy kafka {i} of {tenant}")])
        kept_pair(store)
        seen.clear()
        yield store, seen
    finally:
        apsw.connection_hooks.remove(hook)
        store.close()


def plans(store: Store, seen: list[tuple[str, object]]) -> dict[str, list[str]]:
    """Each distinct SELECT run, with its plan's lines."""
    out: dict[str, list[str]] = {}
    with sqlite_raw.connection(store) as conn:
        for sql, bindings in seen:
            if sql in out or not sql.lstrip().upper().startswith(("SELECT", "WITH")):
                continue
            out[sql] = [row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql, bindings)]
    return out


def unbounded(sql: str, plan: list[str]) -> list[str]:
    """The plan lines that read a whole table, or every memory of a tenant or scope."""
    derived = {m.group(1) for line in plan if (m := re.match(r"(?:CO-ROUTINE|MATERIALIZE) (\S+)", line))}
    bad = [line for line in plan if (m := re.match(r"SCAN (\S+)", line)) and "VIRTUAL TABLE" not in line
           and m.group(1) not in derived | SMALL_TABLES and m.group(1) != "CONSTANT" and not m.group(1).startswith("(")]
    if any(sql.lstrip().startswith(prefix) for prefix in BOUNDED_ELSEWHERE):
        return []
    # An index searched by tenant alone, in a query that names scopes: every memory of the
    # tenant's other scopes is read and skipped.
    if re.search(r"\bscope\b", sql):
        bad += [line for line in plan if re.match(r"SEARCH (?:m|memories) USING (?:COVERING )?INDEX \w+ \(tenant=\?(?: AND (?:observed_at|expires_at)\W[^)]*)?\)$", line)]
    counted = (re.match(r"\s*SELECT\s+(?:count|sum)\(", sql, re.IGNORECASE) or "GROUP BY" in sql.upper()) \
        and "LIMIT" not in sql.upper()
    sorted_ = any(line.startswith("USE TEMP B-TREE FOR ORDER BY") for line in plan)
    if counted or sorted_:
        bad += [line for line in plan if WIDE.match(line)]
    return bad


def kept_pair(store: Store) -> None:
    """A contradicting pair of tenant a's "proj", kept for review, that recall reads for its hits."""
    for content in ("The team standup is at 9:15 every weekday.", "The team standup is at 10:30 every weekday."):
        store.clock.advance(3600)  # type: ignore[attr-defined]
        store.remember(tenant="a", scope="proj", kind="fact", content=content)
    consolidate(store)


def calls(store: Store) -> None:
    caller = handlers.Caller("a", "proj")
    marked = handlers.recall(store, caller, query="when is the team standup?", limit=5)
    assert any(m.possibly_outdated_by for m in marked.memories)  # the kept pair was read
    handlers.recall(store, caller, query="kafka deploy note", limit=5)
    handlers.recall(store, caller, query="what did we decide about the deploy", limit=5, kinds=["decision"])
    handlers.recall(store, caller, query="", kinds=["fact"], limit=5)
    handlers.recall(store, caller, query="", tags=["ops"], limit=5)
    handlers.recall(store, caller, query="", kinds=["episode"], since="2020-01-01", limit=5)
    # turn search: a word of a few turns (one that all hold is rightly read by a scan on PostgreSQL)
    handlers.recall(store, caller, query="7", turns=True, limit=5)
    handlers.recall(store, caller, query="kafka 7", turns=True, session_id="s2", limit=5)
    boot.boot_context(store, caller, 1500)


def test_recall_listings_and_boot_read_no_tenant_whole(traced):
    store, seen = traced
    calls(store)
    found = plans(store, seen)
    assert len(found) > 5  # the trace saw the store's queries
    bad = {sql.strip(): lines for sql, plan in found.items() if (lines := unbounded(sql, plan))}
    assert not bad, bad


def test_the_check_sees_a_scan_and_a_sort_of_a_whole_tenant():
    assert unbounded("SELECT id FROM memories", ["SCAN memories"]) == ["SCAN memories"]
    wide = ["SEARCH m USING INDEX memories_current (tenant=? AND scope=?)", "USE TEMP B-TREE FOR ORDER BY"]
    assert unbounded("SELECT id FROM memories m ORDER BY importance", wide) == wide[:1]
    assert unbounded("SELECT count(*) FROM memories m", wide[:1]) == wide[:1]
    assert not unbounded("SELECT id FROM memories m WHERE seq = ?", ["SEARCH m USING INTEGER PRIMARY KEY (rowid=?)"])


def test_remember_supersede_and_forget_read_no_tenant_whole(traced):
    """Issue 28's kind on the write path: a write's reads (duplicates, idempotency, chains, counts)
    go through indexes that bound them, as recall's do."""
    store, seen = traced
    caller = handlers.Caller(tenant="a", scope="proj")
    first = handlers.remember(store, caller, content="The deploy window moved to Thursday evenings", kind="fact")
    handlers.remember(store, caller, content="The deploy window moved to Thursday evenings", kind="fact")
    newer = handlers.supersede(store, caller, id=first.id, content="The deploy window moved to Friday mornings")
    handlers.forget(store, caller, id=newer.id, include_history=True)
    found = plans(store, seen)
    assert len(found) > 5
    bad = {sql.strip(): lines for sql, plan in found.items() if (lines := unbounded(sql, plan))}
    assert not bad, bad


@pytest.mark.parametrize("query", [
    "kafka deploy note", "note 7 about the kafka deploy", "what did we decide about the deploy of a?",
    "more words", "which deploy is current now?", "the kafka deploy last week",
])
def test_a_recall_reads_each_memory_row_once(traced, query: str):
    """The keyword and vector sides share their candidates' rows: no row is selected twice by one recall."""
    store, seen = traced
    store.recall(tenant="a", query=query, scopes=["proj", "other"], limit=5)
    wanted = [seq for sql, bindings in seen if "m.seq IN (SELECT value FROM json_each(:wanted))" in sql
              for seq in json.loads(bindings["wanted"])]  # type: ignore[index]
    assert wanted, "the recall read rows by seq"
    assert len(wanted) == len(set(wanted))
