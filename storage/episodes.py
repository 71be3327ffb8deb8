"""The episodic tier: sessions and their turns, an append-only log of what a client's
session did, and each session's digest as an ``episode`` memory. Turns are written without
the embedding model; every turn passes through ``secrets.redact`` first."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from . import history, validate
from .backend import TurnRow
from .digest import digest
from .errors import Busy, Conflict, InvalidInput, NotFound, shown
from .limits import (
    CLIENT_MAX_CHARS, CWD_MAX_CHARS, DEFAULT_SCOPE, FUTURE_TOLERANCE_MS, SESSIONS_MAX_LIMIT, TURN_MAX_CHARS,
    REDACTED_KINDS_MAX, TURN_NAME_MAX_CHARS, TURNS_PER_CALL_MAX,
)
from .literal import literal_tokens
from .records import AppendOutcome, NewTurn, Session, Turn
from .query import query_chunks
from .timefmt import format_ms
from .turn_search import TurnHit

if TYPE_CHECKING:
    from .outcomes import ForgetOutcome
    from .store import Store

# Characters past TURN_MAX_CHARS read before the cut, so a credential across the cut is found
# whole and replaced (a PEM block of a 4,096-bit key is about 3,300).
CUT_MARGIN = 4_000
SEQ_MAX = 2**62
DIGEST_TAG = history.SESSION_TAG
END_ATTEMPTS = 3  # digests written again when turns keep arriving while one is written
FORGOTTEN = "its session was forgotten"  # the forget reason of a forgotten session's digest


def cut(text: str, given: int, kinds: tuple[str, ...] = ()) -> str:
    """``text`` (redacted from a turn of ``given`` characters) cut to ``TURN_MAX_CHARS``, with a
    line saying so, when it is longer or the turn was longer than what was read of it. A redaction's
    marker (``[kind]`` of ``kinds``) the cut would split goes whole: the cut comes before it."""
    if len(text) <= TURN_MAX_CHARS and given <= TURN_MAX_CHARS + CUT_MARGIN:
        return text
    at = TURN_MAX_CHARS
    for kind in kinds:
        marker = f"[{kind}]"
        start = text.find(marker, max(0, TURN_MAX_CHARS - len(marker) + 1), TURN_MAX_CHARS + len(marker) - 1)
        if 0 <= start < at:
            at = start
    return text[:at] + f"\n[cut: the turn had {given:,} characters; {at:,} kept]"


def _kinds(field: str, given: object) -> list[str]:
    """An earlier redaction's kinds: a list of at most ``REDACTED_KINDS_MAX`` short names (a turn keeps
    those whose marker ``[kind]`` is in its text, and "private", which leaves none: a claim that a
    credential was there is never taken on trust)."""
    if not isinstance(given, (list, tuple)) or len(given) > REDACTED_KINDS_MAX:
        raise InvalidInput(field, f"must be a list of at most {REDACTED_KINDS_MAX} kinds; got {shown(given)}")
    named = [validate.short_text(f"{field}[{j}]", kind, TURN_NAME_MAX_CHARS) for j, kind in enumerate(given)]
    return [kind for kind in named if kind]


def _redacted(value: str | None) -> tuple[str | None, tuple[str, ...]]:
    """A short field (``cwd``, ``client``, a turn's ``tool``, ``call_id``, ``ref``) through ``secrets.redact``,
    and the kinds replaced; None stays None."""
    return (value, ()) if not value else redact(value)


def redact(text: str) -> tuple[str, tuple[str, ...]]:
    """``secrets.redact`` (imported by a write: reading sessions never needs the credential check)."""
    from .secrets import redact as redacted

    return redacted(text)


class Episodes:
    """Sessions and turns of ``store``'s database (``store.episodes``); every verb takes
    ``tenant``, the isolation boundary, and runs one write transaction at most (``end``: its
    digest through ``Store.remember``/``supersede``, then one). Raises InvalidInput naming the
    field and the limit, NotFound for a session the tenant does not have."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def _row(self, i: int, turn: NewTurn, now: int) -> TurnRow:
        if not isinstance(turn, NewTurn):
            raise InvalidInput(f"turns[{i}]", f"must be a NewTurn; got {shown(turn)}")
        given = validate.turn_text(turn.text, f"turns[{i}].text")
        text, kinds = redact(given[:TURN_MAX_CHARS + CUT_MARGIN])
        text = cut(text, len(given), kinds)
        # a kind whose marker ``[kind]`` is in the text, and "private" (a removed span leaves none: an
        # export's turn lost it on import; the claim only says that text is missing)
        said = [kind for kind in _kinds(f"turns[{i}].redacted", turn.redacted) if f"[{kind}]" in text or kind == "private"]
        # the short fields are redacted as the text is, as cwd is
        names = {name: _redacted(validate.short_text(f"turns[{i}].{name}", getattr(turn, name), TURN_NAME_MAX_CHARS))
                 for name in ("tool", "call_id", "ref")}
        kinds = tuple(sorted(set(kinds) | set(said) | {kind for _, more in names.values() for kind in more}))
        at = now if turn.at is None else _time(f"turns[{i}].at", turn.at, now)
        return TurnRow(
            role=validate.role(turn.role, f"turns[{i}].role"), text=text,
            tool=names["tool"][0], call_id=names["call_id"][0], ref=names["ref"][0],
            tokens=0, at=at, redacted=kinds,
            seq=None if turn.seq is None else validate.integer(f"turns[{i}].seq", turn.seq, 1, SEQ_MAX),
        )

    def append(
        self, *, tenant: str, scope: str, session_id: str, turns: list[NewTurn], client: str | None = None,
        cwd: str | None = None,
    ) -> AppendOutcome:
        """Append ``turns`` (at most ``TURNS_PER_CALL_MAX``) to the session, creating it when
        absent (no turns: nothing is written, no session made); a turn with a seq the session has
        reached, or a ref it has, writes nothing.
        Never loads the embedding model. Raises InvalidInput (a field, or a seq beyond the
        next), Conflict (the session belongs to another scope)."""
        sid = validate.session_id(session_id)
        checked_scope = validate.scope(scope, DEFAULT_SCOPE)
        client = _redacted(validate.short_text("client", client, CLIENT_MAX_CHARS))[0]
        cwd = _redacted(validate.short_text("cwd", cwd, CWD_MAX_CHARS))[0]
        if not isinstance(turns, (list, tuple)) or len(turns) > TURNS_PER_CALL_MAX:
            got = f"{len(turns):,} turns" if isinstance(turns, (list, tuple)) else shown(turns)
            raise InvalidInput("turns", f"must be a list of at most {TURNS_PER_CALL_MAX:,} turns; got {got}")
        now = self._store.clock()
        made = [self._row(i, turn, now) for i, turn in enumerate(turns)]
        kinds = tuple(sorted({kind for row in made for kind in row.redacted}))
        # A turn that was only <private> text is no turn (unless its seq is given: seqs stay contiguous).
        rows = [row for row in made if row.seq is not None or row.text.strip()]
        if not rows:  # no turn, no session: a client that never captures leaves none (docs/hooks.md)
            return AppendOutcome(session_id=sid, added=(), repeated=0, redacted=kinds)
        counted = literal_tokens([row.text for row in rows])
        rows = [replace(row, tokens=n) for row, n in zip(rows, counted, strict=True)]  # type: ignore[arg-type]
        with self._store.backend.write(tenant) as tx:
            added, repeated = tx.append_turns(tenant, checked_scope, sid, client=client, cwd=cwd, now=now,
                                              turns=rows)
        return AppendOutcome(session_id=sid, added=tuple(added), repeated=repeated, redacted=kinds)

    def session(self, *, tenant: str, session_id: str) -> Session:
        """The session ``session_id`` of ``tenant``. Raises NotFound, InvalidInput."""
        sid = validate.session_id(session_id)
        with self._store.backend.read(tenant) as tx:
            return _one(tx.sessions(tenant, ids=[sid]), sid)

    def sessions(self, *, tenant: str, scopes: list[str] | None = None, limit: int = 20) -> list[Session]:
        """``tenant``'s sessions of ``scopes`` (None: every scope), newest activity first, at
        most ``limit`` (1..``SESSIONS_MAX_LIMIT``). The scopes are taken as given, as every read
        of the store takes them (``Caller.scopes`` checks one a client names)."""
        size = validate.integer("limit", limit, 1, SESSIONS_MAX_LIMIT)
        with self._store.backend.read(tenant) as tx:
            return tx.sessions(tenant, scopes=None if scopes is None else list(dict.fromkeys(scopes)), limit=size)

    def turns(
        self, *, tenant: str, session_id: str, tokens: int | None = None, after_seq: int = 0,
        limit: int | None = None,
    ) -> list[Turn]:
        """The session's turns after ``after_seq`` in seq order, at most ``limit``; with ``tokens``,
        the newest whose tokens sum to at most ``tokens``, oldest first. Raises NotFound, InvalidInput."""
        sid = validate.session_id(session_id)
        after = validate.integer("after_seq", after_seq, 0, SEQ_MAX)
        budget = None if tokens is None else validate.integer("tokens", tokens, 0, SEQ_MAX)
        size = None if limit is None else validate.integer("limit", limit, 1, SEQ_MAX)
        with self._store.backend.read(tenant) as tx:
            _one(tx.sessions(tenant, ids=[sid]), sid)
            return tx.turns(tenant, sid, after_seq=after, limit=size, tokens=budget)

    def search(
        self, *, tenant: str, query: str, scopes: list[str] | None, session_id: str | None = None,
        limit: int | None = None,
    ) -> list[TurnHit]:
        """The ``limit`` (1..``RECALL_MAX_LIMIT``, None: the recall default) turns of ``tenant``'s
        sessions of ``scopes`` (None: all; ``session_id``: that session only) that hold one of the query's
        words or phrases, best keyword score first. Keyword only: turns have no vectors. Raises
        InvalidInput (an empty query, a bad field), NotFound (a session the tenant does not have)."""
        words = query_chunks(validate.query(query))
        if not words:
            raise InvalidInput("query", "has no words to search turns for: give words (turns are found by "
                                        "keywords, never listed)")
        size = validate.limit(limit)
        sid = None if session_id is None else validate.session_id(session_id)
        with self._store.backend.read(tenant) as tx:
            if sid is not None:
                _one(tx.sessions(tenant, ids=[sid]), sid)
            return tx.search_turns(tenant, words, scopes=scopes, session_id=sid, limit=size)

    def end(self, *, tenant: str, session_id: str, at: int | None = None) -> Session:
        """End the session at ``at`` (ms; None: now) and write its digest, an ``episode``
        memory tagged ``session`` (superseding the one of an earlier end); the vector stays
        pending without a model. An ended session that has not changed, or a session without a
        turn (it has nothing to digest), is returned as it is.
        Raises NotFound, InvalidInput."""
        sid = validate.session_id(session_id)
        now = self._store.clock()
        ended = now if at is None else _time("at", at, now)
        written: str | None = None  # a digest an earlier attempt wrote: the next one supersedes it
        for _ in range(END_ATTEMPTS):
            with self._store.backend.read(tenant) as tx:
                session = _one(tx.sessions(tenant, ids=[sid]), sid)
                if (session.ended_at is not None and session.digest_id is not None) or not session.turns:
                    return session
                turns = tx.turns(tenant, sid)
            try:
                written = self._write_digest(tenant, session, redact(digest(session, turns))[0],
                                             written or session.digest_id)
            except Conflict:  # another end superseded the same digest meanwhile: read its work again
                continue
            with self._store.backend.write(tenant) as tx:
                found = tx.sessions(tenant, ids=[sid])  # locked: an append waits
                same = bool(found) and (found[0].started_at, found[0].turns) == (session.started_at, session.turns)
                if not found or found[0].started_at != session.started_at:
                    # forgotten meanwhile (and perhaps begun again): so is the digest just written
                    history.erase(tx, history.chain(tx, history.row(tx, tenant, written)), self._store.clock(),
                                  FORGOTTEN)
                    written = None
                elif same:
                    tx.end_session(tenant, sid, max(ended, found[0].last_at), written)
                    return replace(found[0], ended_at=max(ended, found[0].last_at), digest_id=written)
            _one(found, sid)  # forgotten meanwhile: NotFound
        raise Busy(f"session {sid} kept changing while its digest was written; end it again")

    def mark_ended(self, *, tenant: str, session_id: str, at: int, digest_id: str | None) -> None:
        """Record that the session ended at ``at`` (an import's), linked to the memory ``digest_id``
        when the tenant has it (else none: a later ``end`` writes a digest). Raises NotFound, InvalidInput."""
        sid = validate.session_id(session_id)
        ended = _time("ended_at", at, self._store.clock())
        with self._store.backend.write(tenant) as tx:
            session = _one(tx.sessions(tenant, ids=[sid]), sid)
            known = digest_id is not None and bool(tx.memories(tenant, ids=[digest_id]))
            tx.end_session(tenant, sid, max(ended, session.last_at), digest_id if known else None)

    def forget(self, *, tenant: str, session_id: str) -> ForgetOutcome:
        """Forget ``tenant``'s session: its turns deleted and every version of its digest memory
        erased (``history.erase``), in one transaction; the scrub then starts on the worker.
        Raises NotFound, InvalidInput."""
        from .outcomes import ForgetOutcome

        sid = validate.session_id(session_id)
        store = self._store
        with store.backend.write(tenant) as tx:
            found = tx.sessions(tenant, ids=[sid])  # locked: an append or end waits
            if not found:  # a forgotten session leaves nothing behind, so a retry lands here
                raise NotFound(sid, "session_id", "session", " (never captured in this tenant, or already "
                               f"forgotten: forgetting removes a session whole){_WHOLE_ID}")
            session = found[0]
            digest = [history.row(tx, tenant, session.digest_id)] if session.digest_id else []
            versions = history.chain(tx, digest[0]) if digest else []
            erased, restored = history.erase(tx, versions, store.clock(), FORGOTTEN)
            turns = tx.delete_session(tenant, sid)
        scrubbed = store.upkeep.start_scrub() and store.backend.kind == "sqlite"
        return ForgetOutcome(id=None, already_forgotten=False, forgotten_ids=erased, restored_ids=restored,
                             scrubbed=scrubbed, session=sid, turns_deleted=turns)

    def _write_digest(self, tenant: str, session: Session, text: str, earlier: str | None) -> str:
        """The id of the current digest memory holding ``text``: remembered, or superseding the
        session's ``earlier`` digest (the head of its chain, which a retried end may have written)."""
        store = self._store
        fields = {"tenant": tenant, "content": text, "source": history.session_source(session.id),
                  "observed_at": format_ms(session.last_at)}
        head = None
        if earlier is not None:
            head = store.history(tenant=tenant, id=earlier)[-1]
        if head is None or head.forgotten_at is not None:
            return store.remember(scope=session.scope, kind="episode", tags=[DIGEST_TAG], **fields).id
        if head.content == text:
            return head.id
        return store.supersede(id=head.id, reason="the session went on", **fields).id


def _time(field: str, value: object, now: int) -> int:
    """A time in ms since the epoch, at most ``FUTURE_TOLERANCE_MS`` ahead of ``now`` (clock skew)."""
    return validate.integer(field, value, 0, now + FUTURE_TOLERANCE_MS, " ms since the epoch")


# A session id is its client's, matched whole and exactly (a memory id may be shortened: it is memvault's).
_WHOLE_ID = "; a session is named by its whole id, exactly as its client gave it, case included"


def _one(found: list[Session], session_id: str) -> Session:
    if not found:
        raise NotFound(session_id, "session_id", "session", f" ({_WHOLE_ID[2:]})")
    return found[0]
