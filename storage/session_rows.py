"""What the two backends' sessions queries share word for word: the columns read, the health
check's query, and records made from rows (``sqlite.sessions``, ``postgres.sessions``)."""

from __future__ import annotations

import json

from .records import Session, Turn

SESSION_COLUMNS = ("s.id, s.tenant, s.scope, s.client, s.cwd, s.started_at, s.last_at, s.ended_at, s.turns,"
                   " s.tokens, s.digest_id")
TURN_COLUMNS = "t.seq, t.role, t.text, t.tool, t.call_id, t.tokens, t.at, t.redacted, t.ref"

# Sessions whose counts disagree with their turns, or whose turns are not numbered 1..n (a health check).
MISCOUNTED = ("SELECT count(*) FROM sessions s"
              " WHERE s.turns <> (SELECT count(*) FROM turns t WHERE t.session_seq = s.seq)"
              " OR s.turns <> (SELECT coalesce(max(t.seq), 0) FROM turns t WHERE t.session_seq = s.seq)"
              " OR s.tokens <> (SELECT coalesce(sum(t.tokens), 0) FROM turns t WHERE t.session_seq = s.seq)")


def session_of(row: tuple) -> Session:
    """A :class:`Session` from a row of ``SESSION_COLUMNS``."""
    id_, tenant, scope, client, cwd, started_at, last_at, ended_at, turns, tokens, digest_id = row
    return Session(id=id_, tenant=tenant, scope=scope, client=client, cwd=cwd, started_at=started_at,
                   last_at=last_at, ended_at=ended_at, turns=turns, tokens=tokens, digest_id=digest_id)


def turn_of(row: tuple) -> Turn:
    """A :class:`Turn` from its session id and a row of ``TURN_COLUMNS`` (``redacted``: a JSON array's
    text on SQLite, an array on PostgreSQL)."""
    session_id, seq, role, text, tool, call_id, tokens, at, redacted, ref = row
    kinds = json.loads(redacted) if isinstance(redacted, str) else redacted
    return Turn(session_id=session_id, seq=seq, role=role, text=text, tool=tool, call_id=call_id,
                tokens=tokens, at=at, redacted=tuple(kinds), ref=ref)
