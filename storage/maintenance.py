"""Keeping a store healthy: statistics, filling and rebuilding derived indexes,
consistency checks (``memvault doctor``) and export.

The ``memories`` table is the truth; FTS5 entries and vectors are derived from it.
These functions work through ``Store.snapshot`` and ``Store.writing``, in short
transactions, so they can run while servers use the same file.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator

from . import vectors as vector_rows
from .errors import ModelUnavailable
from .schema import VECTOR_TABLE
from .store import SCRUB_DUE, Store
from .timefmt import format_ms

Progress = Callable[[int, int], None]
REINDEX_UNDER_WAY = "reindex_model_id"  # settings key: set while a reindex has vectors left to make


def stats(store: Store) -> dict[str, object]:
    """Counts over the whole file: memories by state and kind, tenants, pending vectors.

    ``current``, ``superseded`` and ``by_kind`` (current memories) leave out expired memories, counted apart in
    ``expired`` until they are erased (``Store.run_due_maintenance``);
    ``scrub_pending`` says forgotten bytes may still be in the files;
    ``by_scope``: ``{tenant: {scope: current memories}}``.
    """
    now = store.clock()
    live = "forgotten_at IS NULL AND (expires_at IS NULL OR expires_at > :now)"
    with store.snapshot() as conn:

        def one(sql: str) -> int:
            return conn.execute(sql, {"now": now}).fetchone()[0]

        by_scope: dict[str, dict[str, int]] = {}
        for tenant, scope, count in conn.execute(
            f"SELECT tenant, scope, count(*) FROM memories WHERE superseded_by IS NULL AND {live}"
            " GROUP BY tenant, scope ORDER BY tenant, scope", {"now": now}
        ):
            by_scope.setdefault(tenant, {})[scope] = count

        return {
            "database": str(store.path),
            "schema_version": one("PRAGMA user_version"),
            "model_id": store.setting("model_id"),
            "tenants": one("SELECT count(DISTINCT tenant) FROM memories"),
            "current": one(f"SELECT count(*) FROM memories WHERE superseded_by IS NULL AND {live}"),
            "superseded": one(f"SELECT count(*) FROM memories WHERE superseded_by IS NOT NULL AND {live}"),
            "expired": one("SELECT count(*) FROM memories WHERE forgotten_at IS NULL AND expires_at <= :now"),
            "forgotten": one("SELECT count(*) FROM memories WHERE forgotten_at IS NOT NULL"),
            "vectors_pending": one("SELECT count(*) FROM memories WHERE vector_pending = 1"),
            "scrub_pending": store.setting(SCRUB_DUE) is not None,
            "by_kind": dict(
                conn.execute(
                    f"SELECT kind, count(*) FROM memories WHERE superseded_by IS NULL AND {live} GROUP BY kind",
                    {"now": now},
                )
            ),
            "by_scope": by_scope,
        }


def fill_pending(
    store: Store, progress: Progress | None = None, batch: int = 64, stop: threading.Event | None = None
) -> int:
    """Embed every memory whose vector is pending; returns how many got one.

    Embeds a batch outside any transaction, then writes it in one short
    transaction, re-checking each row (another process may have filled or
    forgotten it meanwhile). ``progress(done, total)`` runs after each batch.
    When ``stop`` is set, returns before the next batch (what was written stays).

    Raises:
        ModelUnavailable: the model cannot be used (the reason says why).
    """
    reason = store.vector_status()
    if reason is not None:
        raise ModelUnavailable(reason)
    assert store.embedder is not None
    with store.snapshot() as conn:
        total = conn.execute("SELECT count(*) FROM memories WHERE vector_pending = 1").fetchone()[0]
    done, last_seq = 0, 0
    while stop is None or not stop.is_set():
        with store.snapshot() as conn:
            rows = conn.execute(
                "SELECT seq, tenant, content FROM memories WHERE vector_pending = 1 AND seq > ?"
                " AND content IS NOT NULL ORDER BY seq LIMIT ?",
                (last_seq, batch),
            ).fetchall()
        if not rows:
            return done
        last_seq = rows[-1][0]
        parts = [store.embedder.windows(r[2]) for r in rows]
        flat = store.embedder.embed([text for windows in parts for text in windows])
        with store.writing() as conn:
            if not store.vectors_writable():
                raise ModelUnavailable("the database's model changed while filling vectors: run memvault reindex")
            start = 0
            for (seq, tenant, content), windows in zip(rows, parts, strict=True):
                blobs = [v.tobytes() for v in flat[start : start + len(windows)]]
                start += len(windows)
                still = conn.execute(
                    "SELECT 1 FROM memories WHERE seq = ? AND vector_pending = 1 AND content = ?", (seq, content)
                ).fetchone()
                if still is None:
                    continue
                vector_rows.write(conn, seq, tenant, blobs)
                conn.execute("UPDATE memories SET vector_pending = 0 WHERE seq = ?", (seq,))
                done += 1
        if progress is not None:
            progress(done, total)
    return done


def reindex(store: Store, progress: Progress | None = None) -> int:
    """Rebuild the FTS5 index and every vector with the store's current model.

    One transaction rebuilds FTS5; the next drops the vector table, records the
    current model, marks every memory pending and notes that a reindex is under
    way; then vectors are filled in batches (:func:`fill_pending`), each batch
    its own transaction. Interrupted (Ctrl-C, a crash), it leaves whole batches
    only, and the next call with the same model resumes with the memories still
    pending instead of starting over. Returns how many vectors were made.

    Raises:
        ModelUnavailable: the model cannot be loaded (FTS5 is rebuilt all the same).
    """
    with store.writing() as conn:
        conn.execute("INSERT INTO memories_fts(memories_fts) VALUES ('rebuild')")
    if store.embedder is None:
        raise ModelUnavailable("no embedding model configured")
    store.embedder.load()
    with store.writing() as conn:
        if store.setting(REINDEX_UNDER_WAY) != store.embedder.model_id:
            conn.execute(f"DROP TABLE IF EXISTS {VECTOR_TABLE}")
            conn.execute("DELETE FROM memory_windows")
            conn.execute("DELETE FROM settings WHERE key IN ('model_id', 'model_dim')")
            store.vectors_writable()
            conn.execute("UPDATE memories SET vector_pending = 1 WHERE forgotten_at IS NULL")
            conn.execute(
                "INSERT OR REPLACE INTO settings(key, value) VALUES (?, ?)",
                (REINDEX_UNDER_WAY, store.embedder.model_id),
            )
    made = fill_pending(store, progress)
    with store.writing() as conn:
        conn.execute("DELETE FROM settings WHERE key = ?", (REINDEX_UNDER_WAY,))
    return made


def check(store: Store) -> list[str]:
    """Every inconsistency found, as sentences; an empty list means healthy.

    Checks SQLite's ``integrity_check``, FTS5's own ``integrity-check`` against
    the memories, that FTS entries, vectors and memories agree by id, that no
    tombstone keeps content, that supersession links are complete both ways and
    form no cycle, that no scrub of forgotten bytes is pending, and that the
    recorded model is the one this process would use.
    """
    problems: list[str] = []
    with store.snapshot() as conn:
        integrity = [r[0] for r in conn.execute("PRAGMA integrity_check")]
        if integrity != ["ok"]:
            problems.append("SQLite integrity_check: " + "; ".join(integrity[:5]))
        try:
            conn.execute("INSERT INTO memories_fts(memories_fts, rank) VALUES ('integrity-check', 1)")
        except Exception as exc:  # apsw raises CorruptError and friends
            problems.append(f"the FTS5 index does not match the memories ({exc})")
        missing_fts = conn.execute(
            "SELECT count(*) FROM memories m WHERE m.content IS NOT NULL"
            " AND NOT EXISTS (SELECT 1 FROM memories_fts_docsize d WHERE d.id = m.seq)"
        ).fetchone()[0]
        stray_fts = conn.execute(
            "SELECT count(*) FROM memories_fts_docsize d"
            " WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.seq = d.id AND m.content IS NOT NULL)"
        ).fetchone()[0]
        if missing_fts or stray_fts:
            problems.append(f"FTS5: {missing_fts} memories lack an entry, {stray_fts} entries have no memory")
        if store.has_vector_table():
            missing_vec = conn.execute(
                f"SELECT count(*) FROM memories m WHERE m.content IS NOT NULL AND m.vector_pending = 0"
                f" AND NOT EXISTS (SELECT 1 FROM {VECTOR_TABLE} v WHERE v.rowid = m.seq)"
            ).fetchone()[0]
            stray_vec = conn.execute(
                f"SELECT count(*) FROM {VECTOR_TABLE} v WHERE NOT EXISTS"
                f" (SELECT 1 FROM memories m WHERE m.seq = v.rowid AND m.content IS NOT NULL)"
            ).fetchone()[0]
            if missing_vec or stray_vec:
                problems.append(
                    f"vectors: {missing_vec} memories marked embedded have none, "
                    f"{stray_vec} vectors belong to no live memory"
                )
        pending = conn.execute(
            "SELECT count(*) FROM memories WHERE vector_pending = 1 AND content IS NOT NULL"
        ).fetchone()[0]
        if pending:
            under_way = " (a reindex was interrupted)" if store.setting(REINDEX_UNDER_WAY) else ""
            problems.append(
                f"vectors: {pending} memories have no vector yet{under_way}; they are found by keywords only "
                "until `memvault reindex` (or a server with a working model) makes them"
            )
        half_links = conn.execute(
            "SELECT count(*) FROM memories a WHERE (a.superseded_by IS NOT NULL AND NOT EXISTS"
            " (SELECT 1 FROM memories b WHERE b.id = a.superseded_by AND b.supersedes = a.id))"
            " OR (a.supersedes IS NOT NULL AND NOT EXISTS"
            " (SELECT 1 FROM memories b WHERE b.id = a.supersedes AND b.superseded_by = a.id))"
        ).fetchone()[0]
        if half_links:
            problems.append(f"{half_links} supersession links are one-sided")
        for column in ("superseded_by", "supersedes"):
            links = dict(conn.execute(f"SELECT id, {column} FROM memories WHERE {column} IS NOT NULL").fetchall())
            looped = _on_cycles(links)
            if looped:
                problems.append(
                    f"{len(looped)} memories are in a supersession cycle ({column} links), e.g. {sorted(looped)[0]}"
                )
        if store.setting(SCRUB_DUE) is not None:
            problems.append(
                "a scrub of forgotten content is pending (another connection held the database): "
                "forgotten text may remain in the file bytes until the next write or start-up"
            )
        tombstones = conn.execute(
            "SELECT count(*) FROM memories WHERE forgotten_at IS NOT NULL"
            " AND (content IS NOT NULL OR source IS NOT NULL"
            " OR EXISTS (SELECT 1 FROM memory_tags t WHERE t.memory_seq = memories.seq))"
        ).fetchone()[0]
        if tombstones:
            problems.append(f"{tombstones} forgotten memories still hold content, source or tags")
    reason = store.vector_status()
    if reason is not None:
        problems.append(reason)
    return problems


def _on_cycles(links: dict[str, str]) -> set[str]:
    """The ids that a chain of ``links`` (id -> next id) leads back to."""
    looped: set[str] = set()
    done: set[str] = set()
    for start in links:
        path: list[str] = []
        node: str | None = start
        while node is not None and node not in done and node not in path:
            path.append(node)
            node = links.get(node)
        if node is not None and node in path:
            looped.update(path[path.index(node):])
        done.update(path)
    return looped


def export(store: Store, tenant: str) -> Iterator[str]:
    """JSON lines of ``tenant``'s memories that are neither forgotten nor expired,
    current and superseded (history), oldest first. Forgotten and expired
    memories are left out entirely."""
    with store.snapshot() as conn:
        rows = conn.execute(
            "SELECT id, scope, kind, content, (SELECT json_group_array(tag) FROM memory_tags"
            " WHERE memory_seq = m.seq), importance, source, observed_at, recorded_at, expires_at,"
            " supersedes, superseded_by, supersede_reason, confirmations"
            " FROM memories m WHERE tenant = ? AND forgotten_at IS NULL"
            " AND (expires_at IS NULL OR expires_at > ?) ORDER BY seq",
            (tenant, store.clock()),
        ).fetchall()
    for row in rows:
        (memory_id, scope, kind, content, tags, importance, source, observed, recorded, expires,
         supersedes, superseded_by, reason, confirmations) = row
        yield json.dumps(
            {
                "id": memory_id, "tenant": tenant, "scope": scope, "kind": kind, "content": content,
                "tags": json.loads(tags), "importance": importance, "source": source,
                "observed_at": format_ms(observed), "recorded_at": format_ms(recorded),
                "expires_at": format_ms(expires), "supersedes": supersedes, "superseded_by": superseded_by,
                "supersede_reason": reason, "confirmations": confirmations,
            },
            ensure_ascii=False,
        )
