"""The SQLite answers about sessions and turns (``backend.Reader.sessions``/``turns``,
``backend.Writer.append_turns``/``end_session``): SQL only; the append rule is
``backend.number_turns``. Writes run inside the backend's ``BEGIN IMMEDIATE``, which
already excludes every other writer, so reading the session row locks it."""

from __future__ import annotations

import json

import apsw

from ..backend import TurnRow, number_turns
from ..records import Session, Turn
from ..textindex import index_text
from ..turn_search import TURN_KEY_MASK, TURN_KEY_SHIFT, TurnHit, session_keys, turn_key
from ..session_rows import SESSION_COLUMNS as _SESSION
from ..session_rows import TURN_COLUMNS as _TURN
from ..session_rows import session_of as _session
from ..session_rows import turn_of as _turn
from .schema import create_turn_index, turn_index_table

# Past 1 / WHOLE_REWRITE_SHARE of a tenant's indexed turns, a forgotten session's turns leave the turn
# index by a rewrite of the whole index rather than one by one
# (docs/benchmarks.md#forgetting-a-session-sqlite-turn-index).
WHOLE_REWRITE_SHARE = 2000


def sessions(
    conn: apsw.Connection, tenant: str, ids: list[str] | None, scopes: list[str] | None, limit: int | None
) -> list[Session]:
    """See ``backend.Reader.sessions``."""
    if ids is not None:
        rows = conn.execute(f"SELECT {_SESSION} FROM sessions s WHERE s.tenant = ? AND s.id IN"
                            " (SELECT value FROM json_each(?)) ORDER BY s.last_at DESC, s.id LIMIT ?",
                            (tenant, json.dumps(ids), -1 if limit is None else limit))
    else:
        wanted = None if scopes is None else json.dumps(scopes)
        rows = conn.execute(f"SELECT {_SESSION} FROM sessions s WHERE s.tenant = :tenant AND (:scopes IS NULL"
                            " OR s.scope IN (SELECT value FROM json_each(:scopes)))"
                            " ORDER BY s.last_at DESC, s.id LIMIT :limit",
                            {"tenant": tenant, "scopes": wanted, "limit": -1 if limit is None else limit})
    return [_session(row) for row in rows]


def turns(
    conn: apsw.Connection, tenant: str, session_id: str, after_seq: int, limit: int | None, tokens: int | None
) -> list[Turn]:
    """See ``backend.Reader.turns``: the session's key and size first, then one range of its turns."""
    found = conn.execute("SELECT seq, tokens FROM sessions WHERE tenant = :tenant AND id = :id",
                         {"tenant": tenant, "id": session_id}).fetchone()
    if found is None:
        return []
    after = " AND t.seq > :after" if after_seq else ""  # only then: it may steer the plan to the seq key
    params = {"key": found[0], "after": after_seq, "limit": -1 if limit is None else limit,
              "floor": None if tokens is None else found[1] - tokens}
    if tokens is None:
        query = f"SELECT {_TURN} FROM turns t WHERE t.session_seq = :key{after} ORDER BY t.seq" \
            " LIMIT :limit"
    else:
        # The newest turns within the budget: those the session held (all - budget) tokens before,
        # one range of ``turns_budget``.
        # (named: the planner would rather walk the session by seq)
        query = f"SELECT * FROM (SELECT {_TURN} FROM turns t INDEXED BY turns_budget" \
            " WHERE t.session_seq = :key" \
            f" AND t.tokens_before >= :floor{after} ORDER BY t.tokens_before DESC, t.seq DESC" \
            " LIMIT :limit) newest ORDER BY seq"
    return [_turn((session_id, *row)) for row in conn.execute(query, params)]


def append_turns(
    conn: apsw.Connection, tenant: str, scope: str, session_id: str, client: str | None, cwd: str | None,
    now: int, rows: list[TurnRow],
) -> tuple[list[int], int]:
    """See ``backend.Writer.append_turns`` (inside a write transaction)."""
    start = min([now, *(t.at for t in rows)])
    conn.execute("INSERT INTO sessions(tenant, id, scope, client, cwd, started_at, last_at)"
                 " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tenant, id) DO NOTHING",
                 (tenant, session_id, scope, client, cwd, start, start))
    row = conn.execute(f"SELECT s.seq, {_SESSION} FROM sessions s WHERE s.tenant = ? AND s.id = ?",
                       (tenant, session_id)).fetchone()
    key, session = row[0], _session(row[1:])
    refs = [t.ref for t in rows if t.ref is not None]
    known = {ref for (ref,) in conn.execute(
        "SELECT ref FROM turns WHERE session_seq = ? AND ref IN (SELECT value FROM json_each(?))",
        (key, json.dumps(refs)))} if refs else set()
    numbered, repeated = number_turns(session, scope, known, rows)
    before = session.tokens
    values = []
    for seq, t in numbered:
        values.append((key, seq, t.role, t.text, t.tool, t.call_id, t.ref, t.tokens, before, t.at,
                       json.dumps(list(t.redacted))))
        before += t.tokens
    conn.executemany("INSERT INTO turns(session_seq, seq, role, text, tool, call_id, ref, tokens,"
                     " tokens_before, at, redacted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", values)
    if numbered:
        table = _turn_index(conn, tenant) or create_turn_index(conn, tenant)
        conn.executemany(f"INSERT INTO {table}(rowid, text) VALUES (?, ?)",
                         [(turn_key(key, seq), index_text(t.text)) for seq, t in numbered])
        times = [t.at for _, t in numbered]
        conn.execute("UPDATE sessions SET turns = turns + ?, tokens = ?, last_at = max(last_at, ?),"
                     " started_at = min(started_at, ?), ended_at = NULL WHERE seq = ?",
                     (len(numbered), before, max(times), min(times), key))
    if (client is not None and session.client is None) or (cwd is not None and session.cwd is None):
        conn.execute("UPDATE sessions SET client = coalesce(client, ?), cwd = coalesce(cwd, ?) WHERE seq = ?",
                     (client, cwd, key))
    return [seq for seq, _ in numbered], repeated


def delete_session(conn: apsw.Connection, tenant: str, session_id: str) -> int:
    """See ``backend.Writer.delete_session`` (the scrub is the caller's to record)."""
    key = conn.execute("SELECT seq FROM sessions WHERE tenant = ? AND id = ?", (tenant, session_id)).fetchone()
    if key is None:
        return 0
    table = _turn_index(conn, tenant)
    if table is not None:
        _unindex(conn, table, tenant, key[0])
    conn.execute("DELETE FROM turns WHERE session_seq = ?", key)
    gone = conn.changes()
    conn.execute("DELETE FROM sessions WHERE seq = ?", key)
    return gone


def _unindex(conn: apsw.Connection, table: str, tenant: str, session_key: int) -> None:
    """Remove session ``session_key``'s turns from ``tenant``'s turn index ``table`` so that none of
    their terms stays in the index's pages (a delete by rowid alone would leave them there). Each
    turn is given to FTS5 with the text it was indexed with. While the session is small beside the
    index (at most ``1 / WHOLE_REWRITE_SHARE`` of its turns), secure-delete erases each turn's
    terms where they lie, a cost per turn that grows with the index; a larger session is deleted
    as tombstones and the index rewritten whole (``optimize``), a cost of the index's size alone."""
    rows = conn.execute("SELECT seq, text FROM turns WHERE session_seq = ?", (session_key,)).fetchall()
    (indexed,), = conn.execute("SELECT coalesce(sum(turns), 0) FROM sessions WHERE tenant = ?", (tenant,))
    whole = len(rows) * WHOLE_REWRITE_SHARE > indexed
    if whole:
        conn.execute(f"INSERT INTO {table}({table}, rank) VALUES ('secure-delete', 0)")
    conn.executemany(f"INSERT INTO {table}({table}, rowid, text) VALUES ('delete', ?, ?)",
                     [(turn_key(session_key, seq), index_text(text)) for seq, text in rows])
    if whole:
        conn.execute(f"INSERT INTO {table}({table}) VALUES ('optimize')")
        conn.execute(f"INSERT INTO {table}({table}, rank) VALUES ('secure-delete', 1)")


def end_session(
    conn: apsw.Connection, tenant: str, session_id: str, ended_at: int, digest_id: str | None
) -> None:
    """See ``backend.Writer.end_session``."""
    conn.execute("UPDATE sessions SET ended_at = ?, digest_id = ? WHERE tenant = ? AND id = ?",
                 (ended_at, digest_id, tenant, session_id))


def _turn_index(conn: apsw.Connection, tenant: str) -> str | None:
    """``tenant``'s turn index (``schema.turn_index_table``); None before its first turn."""
    row = conn.execute("SELECT number FROM turn_index_tenants WHERE tenant = ?", (tenant,)).fetchone()
    return None if row is None else turn_index_table(row[0])


def search_turns(
    conn: apsw.Connection, tenant: str, match: str, scopes: list[str] | None, session_id: str | None,
    limit: int,
) -> list[TurnHit]:
    """See ``backend.Reader.search_turns``: the tenant's turn index matched (one session: its rowid
    range), each match's session and turn read by key."""
    table = _turn_index(conn, tenant)
    if table is None:
        return []
    params: dict[str, object] = {"match": match, "limit": limit, "tenant": tenant,
                                 "scopes": None if scopes is None else json.dumps(scopes)}
    if session_id is not None:
        found = conn.execute("SELECT seq FROM sessions WHERE tenant = ? AND id = ?",
                             (tenant, session_id)).fetchone()
        if found is None:
            return []
        params["lo"], params["hi"] = session_keys(found[0])
    within = " AND rowid BETWEEN :lo AND :hi" if session_id is not None else ""
    query = (f"SELECT s.id, {_TURN}, s.scope, f.score FROM (SELECT rowid AS key, bm25({table}) AS score"
             f" FROM {table} WHERE {table} MATCH :match{within}) f"
             f" JOIN sessions s ON s.seq = f.key >> {TURN_KEY_SHIFT} AND s.tenant = :tenant"
             f" JOIN turns t ON t.session_seq = s.seq AND t.seq = f.key & {TURN_KEY_MASK}"
             " WHERE (:scopes IS NULL OR s.scope IN (SELECT value FROM json_each(:scopes)))"
             " ORDER BY f.score, t.at DESC LIMIT :limit")
    rows = conn.execute(query, params).fetchall()
    return [TurnHit(turn=_turn(row[:-2]), scope=row[-2], score=-row[-1]) for row in rows]
