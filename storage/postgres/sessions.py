"""The PostgreSQL answers about sessions and turns (``backend.Reader.sessions``/``turns``,
``backend.Writer.append_turns``/``end_session``): SQL only; the append rule is
``backend.number_turns``. An append creates its session row if absent, then locks it
(``SELECT ... FOR UPDATE``) before reading its count and refs: a concurrent append to the same
session waits for this one's commit, then reads what it wrote (``READ COMMITTED``)."""

from __future__ import annotations

from typing import Any

import psycopg

from ..backend import TurnRow, number_turns
from ..records import Session, Turn
from ..turn_search import TurnHit
from .sql import TS_CONFIG, index_words
from ..session_rows import SESSION_COLUMNS as _SESSION
from ..session_rows import TURN_COLUMNS as _TURN
from ..session_rows import session_of as _session
from ..session_rows import turn_of as _turn


def sessions(
    conn: psycopg.Connection, tenant: str, ids: list[str] | None, scopes: list[str] | None, limit: int | None,
    lock: bool,
) -> list[Session]:
    """See ``backend.Reader.sessions`` (``lock``: in a write transaction, by id)."""
    params: dict[str, Any] = {"tenant": tenant, "ids": ids, "scopes": scopes, "limit": limit}
    if ids is not None:
        query = f"SELECT {_SESSION} FROM sessions s WHERE s.tenant = %(tenant)s AND s.id = ANY(%(ids)s)" \
            f" ORDER BY s.last_at DESC, s.id LIMIT %(limit)s{' FOR UPDATE' if lock else ''}"
    else:
        scoped = "" if scopes is None else " AND s.scope = ANY(%(scopes)s)"
        query = f"SELECT {_SESSION} FROM sessions s WHERE s.tenant = %(tenant)s{scoped}" \
            " ORDER BY s.last_at DESC, s.id LIMIT %(limit)s"
    return [_session(row) for row in conn.execute(query, params).fetchall()]  # type: ignore[arg-type]


def turns(
    conn: psycopg.Connection, tenant: str, session_id: str, after_seq: int, limit: int | None,
    tokens: int | None,
) -> list[Turn]:
    """See ``backend.Reader.turns``: the session's key and size first, then one range of its turns."""
    found = conn.execute("SELECT seq, tokens FROM sessions WHERE tenant = %(tenant)s AND id = %(id)s",
                         {"tenant": tenant, "id": session_id}).fetchone()
    if found is None:
        return []
    after = " AND t.seq > %(after)s" if after_seq else ""  # only then: it may steer the plan to the seq key
    params = {"key": found[0], "after": after_seq, "limit": limit,
              "floor": None if tokens is None else found[1] - tokens}
    if tokens is None:
        query = f"SELECT {_TURN} FROM turns t WHERE t.session_seq = %(key)s{after} ORDER BY t.seq" \
            " LIMIT %(limit)s"
    else:
        # The newest turns within the budget: those the session held (all - budget) tokens before,
        # one range of ``turns_budget``.
        query = f"SELECT * FROM (SELECT {_TURN} FROM turns t WHERE t.session_seq = %(key)s" \
            f" AND t.tokens_before >= %(floor)s{after} ORDER BY t.tokens_before DESC, t.seq DESC" \
            " LIMIT %(limit)s) newest ORDER BY seq"
    rows = conn.execute(query, params).fetchall()  # type: ignore[arg-type]
    return [_turn((session_id, *row)) for row in rows]


def append_turns(
    conn: psycopg.Connection, tenant: str, scope: str, session_id: str, client: str | None, cwd: str | None,
    now: int, rows: list[TurnRow],
) -> tuple[list[int], int]:
    """See ``backend.Writer.append_turns`` (inside a write transaction)."""
    start = min([now, *(t.at for t in rows)])
    conn.execute("INSERT INTO sessions(tenant, id, scope, client, cwd, started_at, last_at)"
                 " VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (tenant, id) DO NOTHING",
                 (tenant, session_id, scope, client, cwd, start, start))
    row = conn.execute(f"SELECT s.seq, {_SESSION} FROM sessions s WHERE s.tenant = %s AND s.id = %s"
                       " FOR UPDATE", (tenant, session_id)).fetchone()
    assert row is not None  # inserted above, or there already
    key, session = row[0], _session(row[1:])
    refs = [t.ref for t in rows if t.ref is not None]
    known = {ref for (ref,) in conn.execute(
        "SELECT ref FROM turns WHERE session_seq = %s AND ref = ANY(%s)", (key, refs))} if refs else set()
    numbered, repeated = number_turns(session, scope, known, rows)
    before = session.tokens
    values = []
    for seq, t in numbered:
        values.append((key, seq, tenant, t.role, t.text, t.tool, t.call_id, t.ref, t.tokens, before, t.at,
                       list(t.redacted), index_words(t.text)))
        before += t.tokens
    conn.cursor().executemany(
        "INSERT INTO turns(session_seq, seq, tenant, role, text, tool, call_id, ref, tokens, tokens_before,"
        " at, redacted, terms) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s,"
        f" to_tsvector('{TS_CONFIG}', %s))", values)
    if numbered:
        times = [t.at for _, t in numbered]
        conn.execute("UPDATE sessions SET turns = turns + %s, tokens = %s, last_at = greatest(last_at, %s),"
                     " started_at = least(started_at, %s), ended_at = NULL WHERE seq = %s",
                     (len(numbered), before, max(times), min(times), key))
    if (client is not None and session.client is None) or (cwd is not None and session.cwd is None):
        conn.execute("UPDATE sessions SET client = coalesce(client, %s), cwd = coalesce(cwd, %s)"
                     " WHERE seq = %s", (client, cwd, key))
    return [seq for seq, _ in numbered], repeated


def delete_session(conn: psycopg.Connection, tenant: str, session_id: str) -> int:
    """See ``backend.Writer.delete_session`` (the scrub is the caller's to record)."""
    key = conn.execute("SELECT seq FROM sessions WHERE tenant = %s AND id = %s FOR UPDATE",
                       (tenant, session_id)).fetchone()
    if key is None:
        return 0
    gone = conn.execute("DELETE FROM turns WHERE session_seq = %s", key).rowcount
    conn.execute("DELETE FROM sessions WHERE seq = %s", key)
    return gone


def end_session(
    conn: psycopg.Connection, tenant: str, session_id: str, ended_at: int, digest_id: str | None
) -> None:
    """See ``backend.Writer.end_session``."""
    conn.execute("UPDATE sessions SET ended_at = %s, digest_id = %s WHERE tenant = %s AND id = %s",
                 (ended_at, digest_id, tenant, session_id))


def search_turns(
    conn: psycopg.Connection, tenant: str, phrases: list[str], scopes: list[str] | None,
    session_id: str | None, limit: int,
) -> list[TurnHit]:
    """See ``backend.Reader.search_turns``: ``phrases`` (index words, ``sql.index_words``) as one
    tsquery of phrases joined by OR, matched through the GIN index ``turns_terms``
    (``schema.memvault_turn_hits``)."""
    if not phrases:
        return []
    query = "(" + " || ".join(f"phraseto_tsquery('{TS_CONFIG}', %(p{i})s)" for i in range(len(phrases))) + ")"
    params: dict[str, Any] = {f"p{i}": p for i, p in enumerate(phrases)}
    params |= {"tenant": tenant, "scopes": scopes, "id": session_id, "limit": limit}
    scoped = "" if scopes is None else " AND s.scope = ANY(%(scopes)s)"
    one = "" if session_id is None else \
        " AND t.session_seq = (SELECT seq FROM sessions WHERE tenant = %(tenant)s AND id = %(id)s)"
    rows = conn.execute(
        # each match's session read by its key (LIMIT 1: never hashed from all the tenant's sessions)
        f"SELECT s.id, {_TURN}, s.scope, t.score FROM memvault_turn_hits({query}, %(tenant)s) t"
        " CROSS JOIN LATERAL (SELECT s.id, s.scope FROM sessions s WHERE s.seq = t.session_seq"
        f" AND s.tenant = %(tenant)s LIMIT 1) s WHERE true{scoped}{one}"
        " ORDER BY score DESC, t.at DESC LIMIT %(limit)s", params).fetchall()  # type: ignore[arg-type]
    return [TurnHit(turn=_turn(row[:-2]), scope=row[-2], score=float(row[-1])) for row in rows]
