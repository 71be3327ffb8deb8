"""Sessions in ``memvault export`` and ``import``: each session as lines of at most
``TURNS_PER_CALL_MAX`` turns, after the memories. An import appends the turns with their seqs (a
second import adds nothing; each turn is redacted again, as at capture, and keeps the kinds its
export says were redacted) and ends a session whose last line says it ended, linked to its digest
when that memory is in the tenant."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from . import validate
from .errors import InvalidInput, shown
from .limits import TURNS_PER_CALL_MAX
from .records import NewTurn, Session, Turn
from .timefmt import format_ms, parse_iso

if TYPE_CHECKING:
    from .store import Store

SESSION_KEY = "session_id"  # a line with this key is a session's; memory lines have none
TURN_FIELDS = ("seq", "role", "text", "tool", "call_id", "ref")
# What a session's line and each of its turns may hold (what ``_line`` writes): as for a memory's line,
# any other field is refused by name, not dropped unread.
SESSION_FIELDS = (SESSION_KEY, "scope", "client", "cwd", "started_at", "turns", "ended_at", "digest_id")
TURN_LINE_FIELDS = (*TURN_FIELDS, "at", "redacted")


def session_lines(store: Store, tenant: str) -> Iterator[str]:
    """JSON lines of ``tenant``'s sessions, first started first, each's turns in seq order, at most
    ``TURNS_PER_CALL_MAX`` a line; the last line of a session carries ``ended_at`` and ``digest_id``."""
    with store.backend.read(tenant) as tx:
        sessions = tx.sessions(tenant)
    for session in sorted(sessions, key=lambda s: (s.started_at, s.id)):
        after = 0
        while True:
            with store.backend.read(tenant) as tx:
                turns = tx.turns(tenant, session.id, after_seq=after, limit=TURNS_PER_CALL_MAX)
            last = len(turns) < TURNS_PER_CALL_MAX
            yield _line(session, turns, last)
            if last:
                break
            after = turns[-1].seq


def _line(session: Session, turns: list[Turn], last: bool) -> str:
    record: dict[str, Any] = {SESSION_KEY: session.id, "scope": session.scope, "client": session.client,
                              "cwd": session.cwd, "started_at": format_ms(session.started_at),
                              "turns": [{**{f: getattr(t, f) for f in TURN_FIELDS}, "at": format_ms(t.at),
                                         "redacted": list(t.redacted)} for t in turns]}
    if last:
        record.update(ended_at=format_ms(session.ended_at), digest_id=session.digest_id)
    return json.dumps(record, ensure_ascii=False)


def is_session_line(record: object) -> bool:
    """Whether a parsed export line is a session's."""
    return isinstance(record, dict) and SESSION_KEY in record


def import_session(
    store: Store, record: dict[str, Any], *, tenant: str, scope: str, end: bool = True
) -> tuple[int, int]:
    """Append one session line's turns to ``tenant`` (a line without ``scope`` goes to ``scope``)
    and, with ``end``, end the session when the line says it ended. Returns (turns added, turns
    already there).

    Raises:
        InvalidInput: naming the field (``turns[3].role``, ``ended_at`` ...); nothing of the line written.
        Conflict: the session exists in another scope.
    """
    _known_fields("line", record, SESSION_FIELDS, "a session's line")
    turns = record.get("turns")
    if not isinstance(turns, list):
        raise InvalidInput("turns", f"must be a list of turns; got {shown(turns)}")
    made = []
    for i, turn in enumerate(turns):
        if not isinstance(turn, dict):
            raise InvalidInput(f"turns[{i}]", f"must be an object; got {shown(turn)}")
        _known_fields(f"turns[{i}]", turn, TURN_LINE_FIELDS, "a turn")
        at = turn.get("at")
        made.append(NewTurn(**{f: turn.get(f) for f in TURN_FIELDS},  # type: ignore[arg-type]
                            at=None if at is None else parse_iso(f"turns[{i}].at", at),
                            redacted=turn.get("redacted") or ()))
    ended = record.get("ended_at")
    ended_at = None if ended is None else parse_iso("ended_at", ended)
    digest_id = record.get("digest_id")
    if digest_id is not None:
        digest_id = validate.id_text("digest_id", digest_id)
    outcome = store.episodes.append(tenant=tenant, scope=record.get("scope") or scope,
                                    session_id=record[SESSION_KEY], turns=made, client=record.get("client"),
                                    cwd=record.get("cwd"))
    if end and ended_at is not None and (outcome.added or outcome.repeated or _exists(store, tenant, outcome.session_id)):
        store.episodes.mark_ended(tenant=tenant, session_id=outcome.session_id, at=ended_at, digest_id=digest_id)
    return len(outcome.added), outcome.repeated


def _known_fields(field: str, record: dict[str, Any], known: tuple[str, ...], what: str) -> None:
    """Refuse the first name of ``record`` that is not in ``known`` (``what`` it is, for the message),
    naming that field: ``field.name``, or the name alone for the line's own (``field`` "line").

    Raises:
        InvalidInput: the unknown field, with those expected.
    """
    for name in record:
        if name not in known:
            named = field_name(name)
            raise InvalidInput(named if field == "line" else f"{field}.{named}",
                               f"is not a field of {what} in memvault's export format (the fields: {', '.join(known)})")


def field_name(name: str) -> str:
    """A line's field ``name`` as a message names it: as is when plain (letters, digits, ``_.-``, at most
    40) and no credential, else as ``shown`` says it (quoted, or described by its kind), so no name can
    break or forge a line of the message or repeat a secret."""
    said = shown(name)
    return name if _PLAIN_NAME.fullmatch(name) and said == f"'{name}'" else said


_PLAIN_NAME = re.compile(r"[A-Za-z0-9_.-]{1,40}")


def _exists(store: Store, tenant: str, session_id: str) -> bool:
    """Whether ``tenant`` has the session (a line without turns makes none: ``Episodes.append``)."""
    from .errors import NotFound

    try:
        store.episodes.session(tenant=tenant, session_id=session_id)
    except NotFound:
        return False
    return True
