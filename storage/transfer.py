"""Moving memories between databases: ``memvault export`` and ``memvault import``, on any backend.
More: docs/storage-tuning.md#transfer."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from . import history, validate
from .backend import NewRow, Reader, compaction_reason
from .embeddings import Embedded
from .errors import Conflict, InvalidInput, ModelUnavailable, shown
from .ids import new_id
from .query import Filters
from .literal import literal_tokens
from .limits import CONTENT_MAX_CHARS, FUTURE_TOLERANCE_MS, ID_WHOLE, REASON_MAX_CHARS, SOURCE_MAX_CHARS
from .records import Memory
from .runs import OUTCOMES, Run
from .secrets import refusals, scanned_fields
from .session_transfer import field_name, import_session, is_session_line, session_lines
from .timefmt import format_ms

if TYPE_CHECKING:
    from .store import Store

FIELDS = (
    "id", "tenant", "scope", "kind", "content", "tags", "importance", "source", "observed_at", "recorded_at",
    "expires_at", "supersedes", "superseded_by", "supersede_reason", "confirmations", "last_confirmed_at",
)
_TIMES = ("observed_at", "recorded_at", "expires_at", "last_confirmed_at")
RUNS = "runs"  # a procedure's runs: [{"at", "outcome", "note"}], oldest first; left out when none
# Ids of the memories this one was judged to hold beside (``confirm`` with ``beside``), sorted; left out when none
BESIDE = "dismissed_beside"
EXPORT_PAGE = 500  # memories per read transaction of an export
IMPORT_BATCH = 64  # lines per embedding call (docs/storage-tuning.md#transfer)
WRITE_BATCH = 16  # lines per write transaction (docs/storage-tuning.md#transfer)
Progress = Callable[[int], None]  # called after each batch with the lines read so far (blank ones too)


def export_line(memory: Memory, runs: list[Run] | None = None, beside: list[str] | None = None) -> str:
    """One memory (a procedure's ``runs``, the ids of the memories of its dismissed pairs, ``beside``) as a line
    of the export format (no newline)."""
    record: dict[str, Any] = {name: getattr(memory, name) for name in FIELDS}
    record.update(tags=list(memory.tags), **{name: format_ms(record[name]) for name in _TIMES})
    if runs:
        record[RUNS] = [{"at": format_ms(run.at), "outcome": run.outcome, "note": run.note} for run in runs]
    if beside:
        record[BESIDE] = sorted(beside)
    return json.dumps(record, ensure_ascii=False)


def export_lines(
    store: Store, tenant: str, *, page: int = EXPORT_PAGE, left_out: list[str] | None = None,
    written: set[str] | None = None,
) -> Iterator[str]:
    """JSON lines of ``tenant``'s memories, history included, neither forgotten nor expired,
    in the order stored, then its sessions (:mod:`session_transfer`); ids of history left out
    (newest version not exported) go to ``left_out``, those of memories yielded to ``written``."""
    now, after = store.clock(), 0
    while True:
        with store.backend.read(tenant) as tx:
            exported = Filters(tenant=tenant, scopes=None, now=now, include_history=True)
            rows = list(tx.memories(tenant, filters=exported, order="seq", after_seq=after, limit=page).items())
            linked = [_exported_links(tx, memory, now) for _, memory in rows]
            runs = tx.runs(tenant, [m.id for _, m in rows if m.kind == "procedure"])
            beside: dict[str, list[str]] = {}
            for memory_id, other in tx.dismissed(tenant, [m.id for _, m in rows]) if rows else ():
                beside.setdefault(memory_id, []).append(other)
        for memory in linked:
            if isinstance(memory, str):
                if left_out is not None:
                    left_out.append(memory)
                continue
            yield export_line(memory, runs.get(memory.id), beside.get(memory.id))
            if written is not None:
                written.add(memory.id)
        if len(rows) < page:
            break
        after = rows[-1][0]
    yield from session_lines(store, tenant)


class _Read:
    """Memories read around a damaged file's pages (``sqlite.salvage``), as ``_exported_links`` looks them up."""

    def __init__(self, memories: dict[int, Memory]) -> None:
        self.by_id = {m.id: (seq, m) for seq, m in memories.items()}

    def memories(self, tenant: str, *, ids: list[str]) -> dict[int, Memory]:
        found = [self.by_id[i] for i in ids if i in self.by_id and self.by_id[i][1].tenant == tenant]
        return dict(found)


def salvaged_lines(
    memories: dict[int, Memory], tenant: str, now: int, *, skip: set[str], left_out: list[str] | None = None
) -> Iterator[str]:
    """JSON lines of ``tenant``'s ``memories`` read around a damaged file's pages, as :func:`export_lines`
    writes them (none forgotten or expired, links to exported versions only), except ``skip``'s ids
    (already written), and without procedures' runs (their table is not read)."""
    read = _Read(memories)
    for _, memory in sorted(memories.items()):
        if memory.tenant != tenant or memory.id in skip or memory.forgotten_at is not None or history.expired(memory, now):
            continue
        linked = _exported_links(read, memory, now)  # type: ignore[arg-type]
        if isinstance(linked, str):
            if left_out is not None:
                left_out.append(linked)
            continue
        yield export_line(linked)


def _exported_links(tx: Reader, memory: Memory, now: int) -> Memory | str:
    """``memory`` with links to exported versions only, or its id when it is history
    whose newest version is not exported."""
    def exported(m: Memory) -> bool:
        return m.forgotten_at is None and not history.expired(m, now)

    def nearest(link: str | None, step: str) -> str | None:
        seen = {memory.id}
        while link is not None and link not in seen:
            seen.add(link)
            found = next(iter(tx.memories(memory.tenant, ids=[link]).items()), None)
            if found is None or exported(found[1]):
                return link if found else None
            link = getattr(found[1], step)
        return None

    successor = nearest(memory.superseded_by, "superseded_by")
    if memory.superseded_by is not None and successor is None:
        return memory.id
    return replace(memory, superseded_by=successor, supersedes=nearest(memory.supersedes, "supersedes"))


@dataclass(frozen=True)
class LineError:
    """Why line ``line`` (1-based) was not imported: ``field`` ("line": the whole line) and why."""

    line: int
    field: str
    message: str


@dataclass(frozen=True)
class ImportReport:
    """What an import did: ``skipped_existing`` counts lines whose id exists or whose content
    repeats a current memory; ``vectors_pending`` memories have no vector yet (``degraded``: why);
    ``sessions`` session lines read, ``turns_added`` turns appended (``turns_existing`` there already);
    ``private_removed``, the lines whose ``<private>`` spans were dropped (never stored); ``failed``
    by line."""

    read: int
    imported: int
    skipped_existing: int
    failed: tuple[LineError, ...]
    vectors_pending: int
    degraded: str | None = None
    sessions: int = 0
    turns_added: int = 0
    turns_existing: int = 0
    private_removed: tuple[int, ...] = ()


def import_lines(
    store: Store,
    lines: Iterable[str],
    *,
    tenant: str,
    scope: str,
    progress: Progress | None = None,
    batch: int = IMPORT_BATCH,
) -> ImportReport:
    """Import ``lines`` (export format) into ``tenant``; a line without ``scope`` goes to
    ``scope``. A bad line is reported, never raised.

    Raises:
        Busy, StorageUnavailable: a batch could not be written (the batches before it stay).
    """
    state = _Import(store, tenant, scope)
    # A batch is embedded on the pool while the next is checked and the one before written.
    ahead: tuple[int, Future[_Embedded]] | None = None
    for chunk in _batches(lines, batch):
        checked = store.embedding_pool.submit(_with_vectors, store, *state.check(chunk))
        if ahead is not None:
            state.write(ahead[1].result(), ahead[0], progress)
        ahead = (chunk[-1][0], checked)
    if ahead is not None:
        state.write(ahead[1].result(), ahead[0], progress)
    state.end_sessions()
    return ImportReport(
        read=state.read, imported=state.imported, skipped_existing=state.skipped,
        failed=tuple(sorted(state.failed, key=lambda e: e.line)),  # each step refuses in turn
        vectors_pending=state.pending, degraded=state.degraded if state.pending else None,
        sessions=state.sessions, turns_added=state.turns_added, turns_existing=state.turns_existing,
        private_removed=tuple(state.private),
    )


def _batches(lines: Iterable[str], size: int) -> Iterator[list[tuple[int, str]]]:
    """Non-blank lines with their 1-based numbers, ``size`` at a time."""
    chunk: list[tuple[int, str]] = []
    for number, text in enumerate(lines, start=1):
        if text.strip():
            chunk.append((number, text))
            if len(chunk) == size:
                yield chunk
                chunk = []
    if chunk:
        yield chunk


@dataclass
class _Import:
    """One import under way: its counts, and the supersession links still to make."""

    store: Store
    tenant: str
    scope: str
    read: int = 0
    imported: int = 0
    skipped: int = 0
    pending: int = 0
    failed: list[LineError] = field(default_factory=list)
    degraded: str | None = None
    successors: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    compacted: dict[str, list[str]] = field(default_factory=dict)  # digest id: the lines it compacts
    superseded: set[str] = field(default_factory=set)
    runs: dict[str, list[Run]] = field(default_factory=dict)  # of the rows checked, written with them
    beside: dict[str, list[str]] = field(default_factory=dict)  # of the rows checked: dismissed with them
    session_ends: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # ended sessions' lines
    sessions: int = 0
    turns_added: int = 0
    turns_existing: int = 0
    model_id: str | None = None  # of the batch's vectors
    private: list[int] = field(default_factory=list)  # lines whose private spans were dropped
    renamed: dict[str, str] = field(default_factory=dict)  # a line's id taken in another tenant: its new id

    def check(self, chunk: list[tuple[int, str]]) -> tuple[list[tuple[int, NewRow]], int, str | None]:
        """The batch's checked rows not there yet, its time, and why no vectors can be made."""
        self.read += len(chunk)
        now = self.store.clock()
        checked: list[tuple[int, NewRow, dict[str, str]]] = []
        successors: dict[str, tuple[str, str | None]] = {}
        for number, text in chunk:
            if self._session(number, text):
                continue
            try:
                row, successor, as_sent, runs, private, beside = parse_line(
                    text, tenant=self.tenant, scope=self.scope, now=now)
            except InvalidInput as exc:
                self.failed.append(LineError(number, exc.field, exc.reason))
                continue
            if runs:
                self.runs[row.id] = runs
            if beside:
                self.beside[row.id] = beside
            if private:
                self.private.append(number)
            checked.append((number, row, as_sent))
            if successor is not None:
                successors[row.id] = successor
        if not self.store.allow_secrets:
            refused = refusals([as_sent for _, _, as_sent in checked])
            self.failed.extend(LineError(n, e.field, e.reason) for (n, _, _), e in zip(checked, refused, strict=True)
                               if e is not None)
            checked = [c for c, e in zip(checked, refused, strict=True) if e is None]
        for _, row, _ in checked:
            if row.id in successors:
                self.superseded.add(row.id)
                digest, reason = successors[row.id]
                if reason == compaction_reason(digest):  # marked by the digest's own line
                    self.compacted.setdefault(digest, []).append(row.id)
                else:
                    self.successors[digest] = (row.id, reason)
        # Left out before embedding (a resumed import is quick); the write checks again.
        with self.store.backend.read(self.tenant) as tx:
            new = [(number, row) for number, row, _ in checked if not self._already_there(tx, row, now)]
        self.skipped += len(checked) - len(new)
        return new, now, self.store.vector_status()

    def _session(self, number: int, text: str) -> bool:
        """Import ``text`` when it is a session's line (its end waits for the memories: see
        :meth:`end_sessions`); whether it was one."""
        try:
            record = _json(text)
        except (json.JSONDecodeError, InvalidInput):
            return False  # parse_line says why
        if not is_session_line(record):
            return False
        self.sessions += 1
        try:
            added, existing = import_session(self.store, record, tenant=self.tenant, scope=self.scope, end=False)
        except (InvalidInput, Conflict) as exc:
            self.failed.append(LineError(number, exc.field, exc.reason))
            return True
        self.turns_added, self.turns_existing = self.turns_added + added, self.turns_existing + existing
        if record.get("ended_at") is not None:
            self.session_ends.append((number, record))
        return True

    def end_sessions(self) -> None:
        """End the imported sessions whose lines say they ended, linked to their digests (written by now)."""
        for number, record in self.session_ends:
            try:
                import_session(self.store, {**record, "turns": []}, tenant=self.tenant, scope=self.scope)
            except (InvalidInput, Conflict) as exc:
                self.failed.append(LineError(number, exc.field, exc.reason))

    def write(self, embedded: _Embedded, last_line: int, progress: Progress | None) -> None:
        """Write one embedded batch, ``WRITE_BATCH`` lines per transaction, and count it."""
        new, now, reason, self.model_id = embedded
        self.degraded = reason or self.degraded
        outcomes: list[NewRow | LineError | None] = []
        for part in (new[i:i + WRITE_BATCH] for i in range(0, len(new), WRITE_BATCH)):
            try:
                outcomes += self._write(part, now)
            except Conflict:  # an id taken in another tenant: write line by line to find it
                for item in part:
                    try:
                        outcomes += self._write([item], now)
                    except Conflict as exc:
                        if exc.field != "id" or item[1].id in self.renamed:
                            outcomes.append(LineError(item[0], exc.field, exc.reason))
                            continue
                        # Imported under a new id, as a line without one: a tenant is never told that an
                        # id exists in another; the import's lines naming it follow.
                        self.renamed[item[1].id] = _own_id(self.tenant, item[1].id)
                        outcomes += self._write([item], now)
        for outcome in outcomes:
            if isinstance(outcome, LineError):
                self.failed.append(outcome)
            elif outcome is None:
                self.skipped += 1
            else:
                self.imported += 1
                if outcome.vectors is None:
                    self.pending += 1
                    self.degraded = self.degraded or "the database's vectors come from another model: run `memvault reindex`"
        if progress is not None:
            progress(last_line)

    def _already_there(self, tx: Reader, row: NewRow, now: int) -> bool:
        """Whether ``row``'s id exists, or it repeats a current memory other than its predecessor."""
        if not tx.memories(row.tenant, ids=[row.id, _own_id(row.tenant, row.id)]) and (
            row.id in self.superseded
            or tx.repeats(row.tenant, row.scope, row.content_hash, now, but=row.supersedes).same is None
        ):
            return False
        self.successors.pop(row.id, None)
        return True

    def _write(self, rows: list[tuple[int, NewRow]], now: int) -> list[NewRow | LineError | None]:
        """Insert ``rows`` in one transaction: each row written, None (there already) or a LineError.

        Raises:
            Conflict: an id exists in another tenant (nothing of the batch is written).
        """
        out: list[NewRow | LineError | None] = []
        written_lines: list[str] = []  # their successors, compactions and runs are done once the write commits
        with self.store.backend.write(self.tenant) as tx:
            for number, row in rows:
                if self._already_there(tx, row, now):
                    out.append(None)
                    continue
                line_id, row = row.id, replace(row, id=self.renamed.get(row.id, row.id),
                                               supersedes=self.renamed.get(row.supersedes or "", row.supersedes))
                before = next(iter(tx.memories(self.tenant, ids=[row.supersedes]).items()), None) \
                    if row.supersedes is not None else None
                if row.supersedes is not None and before is None:
                    out.append(LineError(number, "supersedes", f"names memory {row.supersedes}, which is neither "
                                         "in this tenant nor on an earlier line"))
                    continue
                if before is not None and before[1].superseded_by not in (None, row.id):
                    out.append(LineError(number, "supersedes", f"memory {row.supersedes} already has another "
                                         f"successor, {before[1].superseded_by}"))
                    continue
                context = self.store.episode_context(
                    tx, tenant=row.tenant, scope=row.scope, kind=row.kind, observed_at=row.observed_at,
                    supersedes=row.supersedes,
                )
                successor = self.successors.get(line_id)
                if successor is not None and row.supersedes != self.renamed.get(successor[0], successor[0]):
                    successor = None  # the two lines disagree: the successor's own line decides
                made = self.store.writable_vectors(
                    tx, Embedded(self.model_id, row.vectors) if row.vectors is not None and self.model_id else None)
                written = replace(row, context_seq=context, reason=successor[1] if successor else None,
                                  compacts=tuple(self.renamed.get(i, i) for i in self.compacted.get(line_id, ())),
                                  vectors=None if made is None else list(made.vectors), model=made and made.model_id)
                tx.insert(written)
                for run in self.runs.get(line_id, []):
                    tx.add_run(row.id, run.at, run.outcome, run.note)
                # a pair is on both its lines: the second written finds the first (one not there: no pair)
                others = [self.renamed.get(i, i) for i in self.beside.get(line_id, [])]
                for other in tx.memories(self.tenant, ids=others).values() if others else ():
                    tx.dismiss(self.tenant, row.id, other.id, now)
                written_lines.append(line_id)
                out.append(written)
        for line_id in written_lines:
            for table in (self.successors, self.compacted, self.runs, self.beside):
                table.pop(line_id, None)
        return out


def _own_id(tenant: str, memory_id: str) -> str:
    """The id a line's memory gets in ``tenant`` when its own is another tenant's (ids are global): the
    same on every import of the line, so a rerun finds it."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"memvault:{tenant}:{memory_id}"))


# A batch's rows with their vectors, its time, why it has none, and their model's id.
_Embedded = tuple[list[tuple[int, NewRow]], int, str | None, str | None]


def _with_vectors(store: Store, rows: list[tuple[int, NewRow]], now: int, reason: str | None) -> _Embedded:
    """``rows`` with their windows' vectors (one embedding call), or unchanged and why not."""
    if reason is not None or not rows:
        return rows, now, reason, None
    assert store.embedder is not None
    windows = [store.embedder.windows(row.content) for _, row in rows]
    try:
        made = store.embedder.embed_as([text for parts in windows for text in parts])
    except ModelUnavailable as exc:
        return rows, now, f"embedding model unavailable ({exc}): imported memories wait for vectors", None
    out, start = [], 0
    for (number, row), parts in zip(rows, windows, strict=True):
        out.append((number, replace(row, vectors=list(made.vectors[start : start + len(parts)]))))
        start += len(parts)
    return out, now, None, made.model_id


# What other memory formats call a memory's text: a line using one most likely meant content.
CONTENT_ELSEWHERE = frozenset({"text", "body", "note", "notes", "memory", "message"})


def _unknown_field(name: str) -> InvalidInput:
    """The refusal of a memory line's field ``name`` that memvault's export format does not have, naming
    that field, with the format's fields, that a line from elsewhere needs only ``content``, and "did you
    mean content?" for another format's name of it."""
    meant = " (did you mean content?)" if name.lower() in CONTENT_ELSEWHERE else ""
    return InvalidInput(field_name(name), f"is not a field of memvault's export format{meant}; a line from "
                        f'elsewhere needs only content, e.g. {{"content": "..."}} (the fields: '
                        f'{", ".join((*FIELDS, RUNS))})')


def _json(text: str) -> Any:
    """``text`` parsed as JSON, every object's keys once (RFC 8259 §4 leaves which of two counts
    undefined: an import took the last).

    Raises:
        json.JSONDecodeError: not JSON.
        InvalidInput: an object gives a key twice.
    """
    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise InvalidInput("line", f"gives the key {shown(key)} more than once in one object; give each key once")
            out[key] = value
        return out

    return json.loads(text, object_pairs_hook=unique)


def parse_line(
    text: str, *, tenant: str, scope: str, now: int
) -> tuple[NewRow, tuple[str, str | None] | None, dict[str, str], list[Run], bool, list[str]]:
    """The row a line asks for (no vectors yet), its successor link, its free-text fields as
    sent (for the secret scan), a procedure's runs, whether ``<private>`` spans were dropped from its
    free text (content, source, supersede_reason, a run's note) and the ids of its dismissed pairs' other
    memories (``BESIDE``); fields checked as ``Store.remember`` does (``validate.public_content``).

    Raises:
        InvalidInput: naming the field ("line" when the line is not a JSON object).
    """
    try:
        record = _json(text)
    except json.JSONDecodeError as exc:
        raise InvalidInput("line", f"is not valid JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(record, dict):
        raise InvalidInput("line", 'must be a JSON object such as {"content": "..."}')
    for name in record:
        if name not in (*FIELDS, RUNS, BESIDE):
            raise _unknown_field(name)
    given: dict[str, Any] = {name: value for name, value in record.items() if value is not None}
    if "content" not in given:
        raise InvalidInput("content", f"is required: a string of 1-{CONTENT_MAX_CHARS:,} characters")
    if given.get("tenant", tenant) != tenant:
        raise InvalidInput(
            "tenant", f"is {shown(given['tenant'])} but this import writes tenant {shown(tenant)} "
            "(choose it with --tenant, or leave the field out)"
        )
    for name, kind in (("importance", int), ("confirmations", int), ("tags", list)):
        if name in given:
            given[name] = _typed(given[name], kind)
    tags = given.get("tags")
    if tags is not None and not isinstance(tags, list):
        raise InvalidInput("tags", f"must be a list of strings; got {shown(tags)}")
    content, private = validate.public_content(given["content"])
    for name in ("content", "source", "supersede_reason"):  # the secret scan reads what is stored: not these
        given[name], dropped = validate.public(given.get(name))
        private = private or dropped
    observed, expires = validate.times(given.get("observed_at"), given.get("expires_at"), now)
    recorded = _past("recorded_at", given.get("recorded_at"), now)
    confirmations = _count("confirmations", given.get("confirmations", 0))
    confirmed = _past("last_confirmed_at", given.get("last_confirmed_at"), now)
    if confirmed is not None and not confirmations:
        raise InvalidInput("last_confirmed_at", "is set but confirmations is 0: a memory never confirmed has no "
                                                "last confirmation")
    row = NewRow(
        id=_uuid("id", given.get("id")) or new_id(),
        tenant=tenant,
        scope=validate.scope(scope if given.get("scope") is None else given["scope"], scope),
        kind=validate.kind(given.get("kind")),
        content=content,
        content_hash=validate.content_hash(content),
        tokens=literal_tokens([content])[0],  # type: ignore[arg-type]
        tags=tuple(validate.tags(tags)),
        importance=validate.importance(given.get("importance")),
        source=validate.short_text("source", given.get("source"), SOURCE_MAX_CHARS),
        observed_at=observed,
        recorded_at=now if recorded is None else recorded,
        expires_at=expires,
        supersedes=_uuid("supersedes", given.get("supersedes")),
        confirmations=confirmations,
        last_confirmed_at=confirmed,
    )
    successor = _uuid("superseded_by", given.get("superseded_by"))
    reason = validate.short_text("supersede_reason", given.get("supersede_reason"), REASON_MAX_CHARS)
    as_sent = scanned_fields({name: given.get(name) for name in ("content", "scope", "tags", "source", "supersede_reason")})
    runs, dropped = _runs(given.get(RUNS), row.kind)
    as_sent.update(scanned_fields({f"runs[{i}].note": run.note for i, run in enumerate(runs)}))
    beside = given.get(BESIDE, [])
    if not isinstance(beside, list):
        raise InvalidInput(BESIDE, f"must be a list of memory ids; got {shown(beside)}")
    others = [_uuid(f"{BESIDE}[{i}]", other) for i, other in enumerate(beside)]
    return (row, None if successor is None else (successor, reason), as_sent, runs, private or dropped,
            [other for other in others if other is not None and other != row.id])


def _runs(value: object, kind: str) -> tuple[list[Run], bool]:
    """A line's ``runs`` checked as ``Store.confirm`` checks a run (none: an empty list), and whether
    a note's ``<private>`` spans were dropped."""
    if value is None:
        return [], False
    if kind != "procedure":
        raise InvalidInput(RUNS, f"only a procedure has runs; this line's kind is {kind}")
    if not isinstance(value, list):
        raise InvalidInput(RUNS, f'must be a list of {{"at", "outcome", "note"}} objects; got {shown(value)}')
    runs, private = [], False
    for i, item in enumerate(value):
        name = f"runs[{i}]"
        if not isinstance(item, dict) or set(item) - {"at", "outcome", "note"}:
            raise InvalidInput(name, f'must be an object of "at", "outcome" and "note"; got {shown(item)}')
        outcome = item.get("outcome")
        if outcome not in OUTCOMES:
            raise InvalidInput(f"{name}.outcome",
                               f"must be one of {', '.join(OUTCOMES)}; got {shown(outcome)}")
        at = validate.timestamp(f"{name}.at", item.get("at"))
        if at is None:
            raise InvalidInput(f"{name}.at", "is required: an ISO-8601 time")
        note, dropped = validate.public(item.get("note"))
        private = private or dropped
        note = validate.short_text(f"{name}.note", note, REASON_MAX_CHARS)
        if note is not None and outcome != "failure":
            raise InvalidInput(f"{name}.note", "is the failure mode of a run: only a failure has one")
        runs.append(Run(at, str(outcome), note))
    return runs, private


def _typed(value: object, kind: type) -> object:
    """``value`` by the tools' coercion rule (docs/tools.md): a string of JSON of type ``kind``
    is that value, a whole float an integer; anything else stays for its check to refuse."""
    if kind is int and isinstance(value, float) and value.is_integer():
        return int(value)
    if not isinstance(value, str):
        return value
    try:
        parsed = json.loads(value)
    except (ValueError, RecursionError):
        return value
    parsed = value if isinstance(parsed, str) else _typed(parsed, kind)
    return parsed if isinstance(parsed, kind) and not isinstance(parsed, bool) else value


def _uuid(name: str, value: object) -> str | None:
    """A UUID in its canonical lower-case form (None stays None)."""
    if value is None:
        return None
    try:
        if not isinstance(value, str):
            raise ValueError
        return str(uuid.UUID(value))
    except ValueError:
        raise validate.not_an_id(name, value, shape=ID_WHOLE) from None


def _past(field: str, value: str | None, now: int) -> int | None:
    """An optional ISO-8601 time that has happened: at most ``FUTURE_TOLERANCE_MS`` ahead of ``now``
    (clock skew), as ``observed_at`` is checked (a confirmation in the future would never decay)."""
    at = validate.timestamp(field, value)
    if at is not None and at > now + FUTURE_TOLERANCE_MS:
        raise InvalidInput(field, f"is more than a day ahead of the server's clock ({format_ms(now)}): "
                                  "it must be a time that has happened")
    return at


def _count(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidInput(name, f"must be a whole number, 0 or more; got {shown(value)}")
    return value
