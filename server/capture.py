"""Capture: a client's transcript entries become its sessions' turns (``memvault hook`` after tool
calls and at the end of a session, and ``memvault import --from claude-code``), each entry once:
a byte offset per transcript is kept in the user state folder."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memvault.storage.records import AppendOutcome, NewTurn, Session
    from memvault.storage.store import Store

    from .config import Config

APPEND_AT_ONCE = 500  # turns written by one transaction of an import or a capture


class HookInputError(ValueError):
    """The hook's input is not what the client documents: the message names the field."""


def capture(store: Store, config: Config, client: str, data: dict[str, Any], end: bool) -> Stored:
    """Append the transcript's entries not read before (per database, tenant, scope and transcript: a
    byte offset kept in the user state folder, saved after each stored part; read again from the start
    when it is lost, the turns a session has left out before they are redacted) to their sessions;
    ``end``: then end the hook's session. Entries that cannot be stored (an unreadable line, a session id
    that cannot be one, a session of another scope) are skipped and said on stderr, as a warning: the
    rest is stored and the offset moves past them. Returns what was stored."""
    import logging

    from . import transcripts

    session_id = data["session_id"]
    path = Path(data["transcript_path"]).expanduser()
    state = _State.of(config, path)
    stored = Stored(known={} if state.offset == 0 else None)
    bad = refused = 0
    missing = not path.is_file()
    if missing:
        logging.getLogger(__name__).warning("transcript_path: %s %s: nothing captured", path, _not_a_file(path))
    else:
        for got in transcripts.chunks(path, state.offset, session_id, state.names, turns=APPEND_AT_ONCE):
            store_turns(store, config.tenant, config.scope, got.turns, client, stored)
            state.save(got.offset, got.names)
            bad, refused = bad + len(got.bad), refused + len(got.refused)
    skipped = stored.skipped(bad, refused)
    if skipped:
        logging.getLogger(__name__).warning("%s: skipped %s", path, skipped)
    if not transcripts.usable(session_id):  # e.g. a credential: never stored as a session's name
        raise HookInputError("session_id: cannot be a session id (1-128 letters, digits and ._:-, no "
                             "credential)" + ("" if missing else "; the transcript's sessions were captured")
                             + (", none was ended" if end else ""))
    if end:
        _end_captured(store, config.tenant, session_id)
    return stored


def _end_captured(store: Store, tenant: str, session_id: str) -> None:
    """End the hook's session (its digest written) when a turn of it was ever captured; a session
    without one is no session (docs/hooks.md: a client that never captures leaves none): said on stderr."""
    import logging

    session = _session(store, tenant, session_id)
    if session is None or not session.turns:
        logging.getLogger(__name__).warning("session %s: no turn of it was captured, so there is no session to "
                                            "end and no digest", session_id)
        return
    store.episodes.end(tenant=tenant, session_id=session_id)


def _not_a_file(path: Path) -> str:
    """What ``path``, which is no regular file, is instead, in words ("is not there", "is a folder")."""
    import stat

    try:
        mode = path.stat().st_mode
    except OSError:
        return "is not there" if not path.is_symlink() else "is a broken link"
    if stat.S_ISDIR(mode):
        return "is a folder"
    kind = ("a named pipe (FIFO)" if stat.S_ISFIFO(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
    return f"is not a regular file (it is {kind})" if kind != "not a regular file" else "is not a regular file"


class Stored:
    """What :func:`store_turns` did, over one or more calls: ``outcomes`` of its appends; ``known``
    (None: not looked up) each session's refs, read once, whose turns were left out before being
    redacted, counted in ``already``; ``other_scope``, the turns skipped per session of another scope
    (storing them is a Conflict); ``refused``, turns the store refused (a field outside its limits)."""

    def __init__(self, known: dict[str, set[str]] | None = None) -> None:
        self.known = known
        self.outcomes: list[AppendOutcome] = []
        self.already = 0
        self.other_scope: dict[str, int] = {}
        self.refused = 0
        self.why: str | None = None  # the store's words for the first turn it refused

    def skipped(self, bad: int = 0, refused: int = 0) -> str:
        """What was skipped, in words ("" when nothing): ``bad`` unreadable lines and ``refused`` entries
        whose session id cannot be one, read by the caller."""
        if not (bad or refused or self.other_scope or self.refused):
            return ""
        from memvault.tools.text import count  # only to say what was skipped: the tools layer is slow

        parts = [f"{count(bad, 'line')} not JSON (or nested too deeply)"] if bad else []
        parts += [f"{count(refused, 'entry', 'entries')} whose sessionId cannot be a session id "
                  "(1-128 letters, digits and ._:-, no credential)"] if refused else []
        parts += [f"{count(n, 'turn')} of session {sid}, which belongs to another scope"
                  for sid, n in self.other_scope.items()]
        parts += [f"{count(self.refused, 'turn')} refused by the store (the first: {self.why})"] if self.refused else []
        return "; ".join(parts)


def store_turns(store: Store, tenant: str, scope: str, turns: Iterable[tuple[str, str | None, NewTurn]],
                client: str, stored: Stored | None = None) -> Stored:
    """Append transcript turns, (session id, cwd, turn) in order, to their sessions, at most
    :data:`APPEND_AT_ONCE` a transaction, into ``stored`` (a new one when None: ``known`` not looked up).
    A session of another scope is skipped, and a part the store refuses is sent again turn by turn, the
    refused ones skipped: one bad entry never blocks the rest of a transcript."""
    from memvault.storage.errors import Conflict, InvalidInput

    stored = Stored() if stored is None else stored
    batch: list[NewTurn] = []
    current: tuple[str, str | None] | None = None

    def append(session_id: str, cwd: str | None, turns: list[NewTurn]) -> None:
        outcome = store.episodes.append(tenant=tenant, scope=scope, session_id=session_id, turns=turns,
                                        client=client, cwd=cwd)
        stored.outcomes.append(outcome)
        if stored.known is not None:
            stored.known[session_id].update(t.ref for t in turns if t.ref is not None)

    def flush() -> None:
        if current is None or not batch:
            return
        session_id, cwd = current
        try:
            if session_id not in stored.other_scope:
                append(session_id, cwd, list(batch))
        except Conflict:  # the session is another scope's: its turns are not this scope's to add
            stored.other_scope[session_id] = 0
        except InvalidInput:
            for turn in batch:
                try:
                    append(session_id, cwd, [turn])
                except InvalidInput as exc:
                    stored.refused += 1
                    stored.why = stored.why or str(exc)
        if session_id in stored.other_scope:
            stored.other_scope[session_id] += len(batch)
        batch.clear()

    for session_id, cwd, turn in turns:
        if stored.known is not None and session_id not in stored.known:
            stored.known[session_id] = _refs(store, tenant, scope, session_id, stored)
        if stored.known is not None and turn.ref is not None and turn.ref in stored.known[session_id]:
            stored.already += 1
            continue
        if current is None or session_id != current[0] or len(batch) >= APPEND_AT_ONCE:
            flush()
            current = (session_id, cwd)
        batch.append(turn)
    flush()
    return stored


def _refs(store: Store, tenant: str, scope: str, session_id: str, stored: Stored) -> set[str]:
    """The refs session ``session_id`` has (none when it does not exist); a session of another scope is
    marked in ``stored.other_scope``."""
    session = _session(store, tenant, session_id)
    if session is None:
        return set()
    if session.scope != scope:
        stored.other_scope.setdefault(session_id, 0)
        return set()
    return {t.ref for t in store.episodes.turns(tenant=tenant, session_id=session_id) if t.ref is not None}


def import_transcripts(store: Store, tenant: str, scope: str, files: list[Path],
                       progress: Callable[[], object]) -> dict[str, Any]:
    """Each transcript's sessions and turns (``store_turns``, the turns a session has left out before
    they are redacted), each session then ended at its last turn (its digest written); ``progress()``
    after each file. A file that fails is reported and the next one read. The report: ``files``,
    ``sessions``, ``sessions_ended`` (ended by this import: their digests written), ``turns_added``,
    ``turns_already_there``, ``redacted`` (kinds replaced), ``unreadable_lines`` and ``refused_lines``
    (path -> numbers of the lines not JSON objects, and of the entries whose sessionId cannot be a
    session id), ``other_scope`` (path -> session id -> turns skipped: the session is another scope's),
    ``turns_refused`` (by the store), ``failed`` (path -> why that file's import stopped)."""
    from memvault.storage.errors import MemvaultError

    from . import transcripts

    report: dict[str, Any] = {"files": len(files), "sessions": 0, "sessions_ended": 0, "turns_added": 0,
                              "turns_already_there": 0, "redacted": [], "unreadable_lines": {},
                              "refused_lines": {}, "other_scope": {}, "turns_refused": 0, "failed": {}}
    kinds: set[str] = set()
    for path in files:
        stored = Stored(known={})
        sessions: dict[str, None] = {}  # in the order read
        try:
            for got in transcripts.chunks(path, turns=APPEND_AT_ONCE, final=True):
                for name, lines in (("unreadable_lines", got.bad), ("refused_lines", got.refused)):
                    if lines:
                        report[name].setdefault(str(path), []).extend(lines)
                store_turns(store, tenant, scope, got.turns, "claude-code", stored)
                sessions.update(dict.fromkeys(session_id for session_id, _, _ in got.turns))
            for session_id in sessions:
                if session_id not in stored.other_scope:
                    report["sessions"] += 1
                    report["sessions_ended"] += _end(store, tenant, session_id)
        except (OSError, MemvaultError) as exc:
            from .cli_io import failure_words

            report["failed"][str(path)] = failure_words(exc)
        if stored.other_scope:
            report["other_scope"][str(path)] = dict(stored.other_scope)
        report["turns_added"] += sum(len(o.added) for o in stored.outcomes)
        report["turns_already_there"] += stored.already + sum(o.repeated for o in stored.outcomes)
        report["turns_refused"] += stored.refused
        kinds.update(kind for o in stored.outcomes for kind in o.redacted)
        progress()
    report["redacted"] = sorted(kinds)
    return report


def _end(store: Store, tenant: str, session_id: str) -> bool:
    """End the session at its newest stored turn (a turn the store refused, e.g. dated in the future,
    is no end); whether this ended it (False: it was ended, digest written, and has not changed
    since). A session none of whose turns could be stored is not there: False."""
    before = _session(store, tenant, session_id)
    if before is None:
        return False
    store.episodes.end(tenant=tenant, session_id=session_id, at=before.last_at)
    return before.ended_at is None or before.digest_id is None


def _session(store: Store, tenant: str, session_id: str) -> Session | None:
    """Session ``session_id`` of ``tenant``, or None when there is none."""
    from memvault.storage.errors import NotFound

    try:
        return store.episodes.session(tenant=tenant, session_id=session_id)
    except NotFound:
        return None


def nonempty_text(value: object) -> str | None:
    """``value`` when it is a non-empty string, else None."""
    return value if isinstance(value, str) and value else None


@dataclass
class _State:
    """Where the last capture of one transcript stopped: ``offset`` (bytes) and the tool names of the
    calls read so far (for results read later), in a small JSON file of the user state folder."""

    file: Path
    offset: int
    names: dict[str, str]

    NAMES_KEPT = 200  # the newest calls' names kept: a result follows its call closely

    @classmethod
    def of(cls, config: Config, transcript: Path) -> _State:
        from platformdirs import user_state_path

        key = json.dumps([str(config.db), config.tenant, config.scope, str(transcript.resolve())])
        file = user_state_path("memvault", appauthor=False) / "transcripts" / (
            hashlib.sha256(key.encode()).hexdigest()[:32] + ".json")
        try:
            saved = json.loads(file.read_text(encoding="utf-8"))
            offset, names = int(saved["offset"]), dict(saved["names"])
        except (OSError, ValueError, KeyError, TypeError):  # none yet, or unreadable: from the start
            offset, names = 0, {}
        if not transcript.is_file() or offset > transcript.stat().st_size:  # replaced or shortened
            offset, names = 0, {}
        return cls(file, offset, names)

    def save(self, offset: int, names: dict[str, str]) -> None:
        kept = dict(list(names.items())[-self.NAMES_KEPT:])
        self.file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)  # private, as the database's folder
        tmp = self.file.with_name(f"{self.file.name}.{os.getpid()}.tmp")
        with open(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w", encoding="utf-8") as fh:
            fh.write(json.dumps({"offset": offset, "names": kept}))
        os.replace(tmp, self.file)
