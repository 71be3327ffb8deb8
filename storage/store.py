"""The memory store: one SQLite connection, the memory semantics, nothing of MCP.

``Store`` is safe to call from several threads: a lock gives the connection to
one thread at a time (sqlite-vec has crashed peers that shared a connection
across threads), and embedding runs outside that lock. Several processes may
open the same file; every write is one ``BEGIN IMMEDIATE`` transaction.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import apsw

from . import ranking as ranking_rules
from . import search, validate
from . import vectors as vector_rows
from .db import open_connection, scrub, write_transaction
from .embeddings import Embedder
from .errors import Conflict, InvalidInput, ModelUnavailable, NotFound
from .ids import new_id
from .limits import DEFAULT_SCOPE, IDEMPOTENCY_KEY_MAX_CHARS, REASON_MAX_CHARS, SOURCE_MAX_CHARS
from .candidates import Candidates, Tokenize, gather, porter_tokenizer
from .limits import BUSY_TIMEOUT_MS
from .records import DueWork, ForgetOutcome, Hit, Memory, RecallOutcome, RememberOutcome, Signals, SupersedeOutcome
from .schema import VECTOR_TABLE, check_compatible, migrate, vector_table_sql
from .secrets import refuse_secrets
from .timefmt import format_ms, now_ms
from .timewords import TimeParser

log = logging.getLogger(__name__)
# remember names current memories at least this similar (cosine): on the agentic set it
# flags 8 of 21 pairs where a later memory replaced an earlier one, and about 7 % of
# other new memories (whose nearest earlier neighbour has median similarity 0.43).
SIMILAR_MEMORY = 0.7
FUTURE_TOLERANCE_MS = 86_400_000  # observed_at may run ahead of the server clock by a day (clock skew)
# An expired memory is hidden at once and its content erased (like forget) by the first
# write or start-up at least this long after it expired, so expiries share a scrub.
EXPIRY_GRACE_MS = 3_600_000
ID_PREFIX_MIN_CHARS = 8  # like git: a unique prefix of an id stands for the id
SCRUB_DUE = "scrub_due"  # settings key: forgotten bytes may remain in the files until a scrub
SCRUB_RETRY_S = 60.0  # after a failed scrub, writes other than forget wait this long to retry

_COLUMNS = (
    "m.id, m.tenant, m.scope, m.kind, m.content,"
    " (SELECT json_group_array(tag) FROM memory_tags WHERE memory_seq = m.seq),"
    " m.importance, m.source, m.observed_at, m.recorded_at, m.expires_at, m.supersedes,"
    " m.superseded_by, m.supersede_reason, m.forgotten_at, m.forget_reason, m.confirmations,"
    " m.last_confirmed_at, m.vector_pending"
)
_BOOT_GROUP = (
    "CASE m.kind WHEN 'preference' THEN 0 WHEN 'decision' THEN 0 WHEN 'procedure' THEN 1"
    " WHEN 'episode' THEN 3 ELSE 2 END"
)


_ID_CHARS = re.compile(r"[0-9a-f-]+")


def _expired(memory: Memory, now: int) -> bool:
    return memory.expires_at is not None and memory.expires_at <= now


def _visible(memory: Memory, now: int) -> Memory:
    """``memory`` as reads may show it: an expired memory loses its content, like a tombstone."""
    if memory.forgotten_at is None and _expired(memory, now):
        return replace(memory, content=None, tags=(), source=None, supersede_reason=None)
    return memory


def _differences(memory: Memory, given: dict[str, object]) -> tuple[str, ...]:
    """Names of the ``given`` fields (None: not given) whose value differs from ``memory``'s."""
    stored = {
        "kind": memory.kind, "tags": sorted(memory.tags), "importance": memory.importance,
        "source": memory.source, "observed_at": memory.observed_at, "expires_at": memory.expires_at,
    }
    return tuple(
        name for name, value in given.items()
        if value is not None and (sorted(value) if name == "tags" else value) != stored[name]  # type: ignore[call-overload]
    )


def _memory(row: tuple) -> Memory:
    values = list(row)
    values[5] = tuple(json.loads(values[5]))
    values[18] = bool(values[18])
    return Memory(*values)


class Store:
    """Memories of many tenants in one SQLite file.

    Args:
        path: the database file (created with its folder, user-only permissions).
        embedder: makes vectors; None runs keyword-only, every result saying so.
        clock: returns "now" in ms since the epoch; injectable for expiry tests.
        allow_secrets: store content that contains credentials (off: refused, see ``secrets``).
        busy_timeout_ms: how long a write waits for another connection's write lock.

    Every method takes the ``tenant`` explicitly: it is the hard isolation
    boundary, and no method reads or writes another tenant's rows. Times in and
    out of the public methods are ISO-8601 strings on input and ms on records.

    Raises (all methods): :class:`InvalidInput`, :class:`NotFound`,
    :class:`Conflict` as documented per method; :class:`StoreError` on open.
    """

    def __init__(
        self,
        path: Path | str,
        embedder: Embedder | None = None,
        *,
        clock: Callable[[], int] = now_ms,
        allow_secrets: bool = False,
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
    ) -> None:
        self.path = Path(path)
        self.allow_secrets = allow_secrets
        self.embedder = embedder
        self.clock = clock
        self._lock = threading.RLock()
        self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="memvault-embed")
        self._time = TimeParser()
        self._tokenize: Tokenize | None = None
        self._conn = open_connection(self.path, check=check_compatible, busy_timeout_ms=busy_timeout_ms)
        migrate(self._conn)
        self._scrub_retry_at = 0.0
        self.run_due_maintenance()

    def warm_up(self) -> None:
        """Load what the first recall would otherwise wait for: the model (if it can
        load), the time-expression parser and the keyword tokenizer."""
        self.vector_status()
        self._time.warm_up()
        with self.snapshot() as conn:
            self._keyword_tokenizer(conn)

    def _keyword_tokenizer(self, conn: apsw.Connection) -> Tokenize:
        """The FTS5 index's tokenizer as a function, made once (under the store lock)."""
        if self._tokenize is None:
            self._tokenize = porter_tokenizer(conn)
        return self._tokenize

    def close(self) -> None:
        """Close the connection (the store cannot be used afterwards)."""
        self._pool.shutdown(wait=True)
        with self._lock:
            self._conn.close()

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[apsw.Connection]:
        """The connection inside one read transaction, for this thread alone."""
        with self._lock:
            self._conn.execute("BEGIN")
            try:
                yield self._conn
            finally:
                self._conn.execute("COMMIT")

    @contextlib.contextmanager
    def writing(self) -> Iterator[apsw.Connection]:
        """The connection inside one ``BEGIN IMMEDIATE`` transaction, for this thread alone."""
        with self._lock, write_transaction(self._conn):
            yield self._conn

    # -- vectors -----------------------------------------------------------------

    def setting(self, key: str) -> str | None:
        """A value of the settings table (e.g. "model_id"), or None; call under the store lock."""
        row = self._conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def vector_status(self) -> str | None:
        """None when vectors can be made and searched; otherwise the reason they cannot."""
        if self.embedder is None:
            return "no embedding model configured: keyword search only"
        try:
            self.embedder.load()
        except ModelUnavailable as exc:
            return f"embedding model unavailable ({exc}): keyword search only, new memories wait for vectors"
        with self._lock:
            recorded, dim = self.setting("model_id"), self.setting("model_dim")
        if recorded is not None and recorded != self.embedder.model_id:
            return (
                f"the database's vectors come from model {recorded} but this server runs "
                f"{self.embedder.model_id}: keyword search only until `memvault reindex` is run"
            )
        if recorded is not None and dim != str(self.embedder.dim):
            return (
                f"the database's vectors have {dim} dimensions but model {recorded} here makes "
                f"{self.embedder.dim}: keyword search only until `memvault reindex` is run"
            )
        return None

    def _embed_memory(self, text: str) -> tuple[list[bytes] | None, str | None]:
        """The vectors of ``text``'s windows (float32 blobs, window 0 first), or None and why not."""
        reason = self.vector_status()
        if reason is not None:
            return None, reason
        assert self.embedder is not None
        return [v.tobytes() for v in self.embedder.embed(self.embedder.windows(text))], None

    def vectors_writable(self) -> bool:
        """Inside a write transaction: True when vectors of our model may be written.

        Creates the vector table and records the model and its dimension on first
        use; afterwards both must match the embedder.
        """
        assert self.embedder is not None and self.embedder.model_id is not None
        recorded = self.setting("model_id")
        if recorded is None:
            self._conn.execute(vector_table_sql(self.embedder.dim or 0))
            self._conn.executemany(
                "INSERT INTO settings(key, value) VALUES (?, ?)",
                [("model_id", self.embedder.model_id), ("model_dim", str(self.embedder.dim))],
            )
            return True
        return recorded == self.embedder.model_id and self.setting("model_dim") == str(self.embedder.dim)

    def has_vector_table(self) -> bool:
        """Whether the database has a vector table (a model has been recorded)."""
        return self.setting("model_id") is not None

    # -- writing -----------------------------------------------------------------

    def _insert(
        self,
        *,
        tenant: str,
        scope: str,
        kind: str,
        content: str,
        tags: list[str],
        importance: int,
        source: str | None,
        observed_at: int,
        expires_at: int | None,
        vectors: list[bytes] | None,
        supersedes: str | None = None,
        idempotency_key: str | None = None,
    ) -> str:
        memory_id = new_id()
        content_hash = validate.content_hash(content)
        with_vector = vectors is not None and self.vectors_writable()
        # The episode context: for an episode, the latest current episode observed shortly
        # before it in the scope, the turn it continues (never the memory being superseded:
        # its stale words must not index the new one). Independent facts have none.
        context = None
        if kind == "episode":
            context = self._conn.execute(
                "SELECT seq FROM memories WHERE tenant = ? AND scope = ? AND kind = 'episode'"
                " AND forgotten_at IS NULL AND superseded_by IS NULL AND id IS NOT ? AND observed_at BETWEEN ? AND ?"
                " ORDER BY observed_at DESC, seq DESC LIMIT 1",
                (tenant, scope, supersedes, observed_at - search.EPISODE_GAP_MS, observed_at),
            ).fetchone()
        self._conn.execute(
            "INSERT INTO memories(id, tenant, scope, kind, content, content_hash, importance, source,"
            " observed_at, recorded_at, expires_at, supersedes, vector_pending, context_seq)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                memory_id, tenant, scope, kind, content, content_hash, importance, source,
                observed_at, self.clock(), expires_at, supersedes, 0 if with_vector else 1,
                context[0] if context else None,
            ),
        )
        seq = self._conn.last_insert_rowid()
        self._record_key(tenant, idempotency_key, seq, content_hash)
        self._conn.executemany("INSERT INTO memory_tags(memory_seq, tag) VALUES (?, ?)", [(seq, t) for t in tags])
        if with_vector:
            assert vectors is not None
            vector_rows.write(self._conn, seq, tenant, vectors)
        return memory_id

    def _replay_or_duplicate(
        self, tenant: str, scope: str, content_hash: str, key: str | None, given: dict[str, object]
    ) -> RememberOutcome | None:
        """Inside a write transaction: the outcome when nothing new must be stored.

        A known idempotency key replays its first answer (or is a conflict when
        the content differs). Otherwise identical current content in the scope is
        confirmed, and a new key is recorded against it. Either way the stored
        memory is left as it is, and ``not_applied`` names the ``given`` fields
        whose values differ from it.
        """
        now = self.clock()
        if key is not None:
            row = self._conn.execute(
                "SELECT m.id, k.content_hash FROM idempotency_keys k JOIN memories m ON m.seq = k.memory_seq"
                " WHERE k.tenant = ? AND k.key = ?",
                (tenant, key),
            ).fetchone()
            if row is not None:
                memory_id, stored_hash = row
                if stored_hash != content_hash:
                    raise Conflict(
                        f"idempotency_key {key!r} was already used for memory {memory_id} with different "
                        "content; a retry must send the same content, a new memory needs a new key"
                    )
                stored = self._row(tenant, memory_id)
                return RememberOutcome(id=memory_id, created=False, not_applied=_differences(stored, given))
        memory_id = self._current_with_hash(tenant, scope, content_hash, now)
        if memory_id is None:
            return None
        stored = self._row(tenant, memory_id)
        self._conn.execute(
            "UPDATE memories SET confirmations = confirmations + 1, last_confirmed_at = ? WHERE id = ?",
            (now, memory_id),
        )
        self._record_key(tenant, key, self._seq(memory_id), content_hash)
        return RememberOutcome(
            id=memory_id, created=False, duplicate_of=memory_id, not_applied=_differences(stored, given)
        )

    def _current_with_hash(self, tenant: str, scope: str, content_hash: str, now: int, but: str | None = None) -> str | None:
        """The id of a current, unexpired memory of the scope with this content (other than ``but``)."""
        row = self._conn.execute(
            "SELECT id FROM memories WHERE tenant = ? AND scope = ? AND content_hash = ? AND id IS NOT ?"
            " AND superseded_by IS NULL AND forgotten_at IS NULL AND (expires_at IS NULL OR expires_at > ?)",
            (tenant, scope, content_hash, but, now),
        ).fetchone()
        return row[0] if row else None

    def _seq(self, memory_id: str) -> int:
        return self._conn.execute("SELECT seq FROM memories WHERE id = ?", (memory_id,)).fetchone()[0]

    def _record_key(self, tenant: str, key: str | None, seq: int, content_hash: str) -> None:
        if key is not None:
            self._conn.execute(
                "INSERT INTO idempotency_keys(tenant, key, memory_seq, content_hash) VALUES (?, ?, ?, ?)",
                (tenant, key, seq, content_hash),
            )

    def remember(
        self,
        *,
        tenant: str,
        scope: str,
        content: str,
        kind: str | None = None,
        tags: list[str] | None = None,
        importance: int | None = None,
        source: str | None = None,
        observed_at: str | None = None,
        expires_at: str | None = None,
        idempotency_key: str | None = None,
        check_similar: bool = False,
    ) -> RememberOutcome:
        """Store a memory, or return the existing one it repeats.

        Same ``idempotency_key`` and same content: the first call's id,
        ``created`` False. Content identical (white space folded, Unicode
        normalised) to a current memory of the same tenant and scope: that id,
        ``created`` False, ``duplicate_of`` set, its ``confirmations`` counted.
        In both cases the stored memory keeps its fields: ``not_applied`` names
        each field given here with another value (kind, tags, importance,
        source, observed_at, expires_at); ``supersede`` changes them. Otherwise a
        new row, its FTS entry and its vector, in one transaction; without a
        usable model the vector is marked pending and ``degraded`` says why.

        ``similar`` lists current memories of the scope whose meaning is very close
        (cosine ≥ ``SIMILAR_MEMORY``, most similar first): probably the same subject,
        so the agent may want ``supersede`` instead. With ``check_similar`` and such
        memories, nothing is stored: ``created`` False, ``id`` the most similar one.

        Raises:
            InvalidInput: a field breaks its limits (see ``limits``),
                ``expires_at`` is not later than ``observed_at``, or a field
                contains a credential (unless ``allow_secrets``).
            Conflict: the idempotency key was used for other content.
        """
        text = validate.content(content)
        fields = dict(
            tenant=tenant,
            scope=validate.scope(scope, DEFAULT_SCOPE),
            kind=validate.kind(kind),
            tags=validate.tags(tags),
            importance=validate.importance(importance),
            source=validate.short_text("source", source, SOURCE_MAX_CHARS),
        )
        key = validate.short_text("idempotency_key", idempotency_key, IDEMPOTENCY_KEY_MAX_CHARS)
        if idempotency_key is not None and key is None:
            raise InvalidInput("idempotency_key", "must not be empty (leave it out instead)")
        observed, expires = self._times(observed_at, expires_at)
        self._refuse_secrets(
            content=content, scope=scope, tags=tags, source=source, idempotency_key=idempotency_key
        )
        given = {
            "kind": kind and fields["kind"], "tags": None if tags is None else fields["tags"],
            "importance": importance and fields["importance"], "source": fields["source"],
            "observed_at": observed_at and observed, "expires_at": expires,
        }
        content_hash = validate.content_hash(text)
        with self._lock, write_transaction(self._conn):
            existing = self._replay_or_duplicate(tenant, fields["scope"], content_hash, key, given)
        if existing is not None:
            return existing
        vectors, degraded = self._embed_memory(text)
        with self._lock:
            with write_transaction(self._conn):
                existing = self._replay_or_duplicate(tenant, fields["scope"], content_hash, key, given)
                if existing is not None:
                    return existing
                similar = self._similar(tenant, str(fields["scope"]), vectors[0]) if vectors else []
                if check_similar and similar:
                    return RememberOutcome(id=similar[0], created=False, degraded=degraded, similar=tuple(similar))
                memory_id = self._insert(
                    **fields, content=text, observed_at=observed, expires_at=expires,
                    vectors=vectors, idempotency_key=key,
                )
            self.run_due_maintenance()  # cheap when nothing is due; never raises for a busy file
        return RememberOutcome(id=memory_id, created=True, degraded=degraded, similar=tuple(similar))

    def _similar(self, tenant: str, scope: str, vector: bytes) -> list[str]:
        """Inside a transaction: ids of current memories of ``scope`` at least ``SIMILAR_MEMORY`` similar."""
        if not self.has_vector_table():
            return []
        filters = search.Filters(tenant=tenant, scopes=[scope], now=self.clock())
        sql, params = search.vector_sql(filters, VECTOR_TABLE, 3)
        close = [seq for seq, distance in self._conn.execute(sql, {**params, "vector": vector})
                 if 1.0 - distance >= SIMILAR_MEMORY]
        return [self._rows_by_seq(close)[seq].id for seq in close]

    def _refuse_secrets(self, **fields: str | list[str] | None) -> None:
        """Scan every stored free-text field as the caller sent it, before any
        normalisation (lower-casing would hide a key's pattern), unless allowed."""
        if self.allow_secrets:
            return
        texts: dict[str, str] = {}
        for field, value in fields.items():
            for i, text in enumerate(value if isinstance(value, list) else [value]):
                if isinstance(text, str):
                    texts[f"{field}[{i}]" if isinstance(value, list) else field] = text.strip()
        refuse_secrets(texts)

    def _times(self, observed_at: str | None, expires_at: str | None) -> tuple[int, int | None]:
        now = self.clock()
        observed = validate.timestamp("observed_at", observed_at)
        if observed is not None and observed > now + FUTURE_TOLERANCE_MS:
            raise InvalidInput("observed_at", "is more than a day in the future of the server clock")
        observed = now if observed is None else observed
        expires = validate.timestamp("expires_at", expires_at)
        if expires is not None and expires <= observed:
            given = "observed_at" if observed_at is not None else "observed_at (now)"
            raise InvalidInput("expires_at", f"must be later than {given}")
        if expires is not None and expires <= now:
            raise InvalidInput("expires_at", "is already past: the memory would never be shown")
        return observed, expires

    def _resolve(self, tenant: str, given: str) -> Memory:
        """The memory of ``tenant`` named by ``given``: its id in any letter case, or a
        unique prefix of at least ``ID_PREFIX_MIN_CHARS`` characters (like git).

        Only ``tenant``'s ids are looked at, so another tenant's memory neither
        matches nor makes a prefix ambiguous: it looks exactly like an unknown id.

        Raises:
            InvalidInput: ``given`` is not a non-empty string, is shorter than
                ``ID_PREFIX_MIN_CHARS``, or the prefix is ambiguous.
            NotFound: nothing matches.
        """
        if not isinstance(given, str) or not given.strip():
            raise InvalidInput("id", "must be a memory id such as the one remember returned")
        wanted = given.strip().lower()
        if len(wanted) < ID_PREFIX_MIN_CHARS and _ID_CHARS.fullmatch(wanted):
            raise InvalidInput(
                "id", f"{given.strip()!r} is too short: give at least {ID_PREFIX_MIN_CHARS} characters of the id"
            )
        if not _ID_CHARS.fullmatch(wanted):
            raise NotFound(given)
        rows = self._conn.execute(
            f"SELECT {_COLUMNS} FROM memories m WHERE m.id >= ? AND m.id < ? AND m.tenant = ? ORDER BY m.id LIMIT 2",
            (wanted, wanted + "~", tenant),  # '~' sorts after every id character
        ).fetchall()
        if not rows:
            raise NotFound(given)
        if len(rows) > 1 and rows[0][0] != wanted:
            raise InvalidInput(
                "id", f"{given.strip()[:40]!r} is the start of several memory ids; give more characters or the whole id"
            )
        return _memory(rows[0])

    def short_ids(self, *, tenant: str, ids: list[str]) -> dict[str, str]:
        """The shortest prefix (at least ``ID_PREFIX_MIN_CHARS``) that names each of ``ids``
        uniquely among ``tenant``'s memories today, as ``{id: prefix}``.

        UUIDv7 ids begin with their creation time, so memories made within about a
        minute share their first 8 characters and need longer prefixes. A prefix
        may become ambiguous as memories are added (then it is an error, never
        another memory), as with git's abbreviated hashes.
        """
        out: dict[str, str] = {}
        with self.snapshot() as conn:
            for memory_id in ids:
                neighbours = conn.execute(
                    "SELECT (SELECT id FROM memories WHERE tenant = :t AND id < :id ORDER BY id DESC LIMIT 1),"
                    " (SELECT id FROM memories WHERE tenant = :t AND id > :id ORDER BY id LIMIT 1)",
                    {"t": tenant, "id": memory_id},
                ).fetchone()
                shared = max(len(os.path.commonprefix([memory_id, n])) for n in (*neighbours, "") if n is not None)
                out[memory_id] = memory_id[: max(ID_PREFIX_MIN_CHARS, shared + 1)]
        return out

    def _row(self, tenant: str, memory_id: str) -> Memory:
        """The memory with exactly this id (as stored links name it). Raises NotFound."""
        row = self._conn.execute(
            f"SELECT {_COLUMNS} FROM memories m WHERE m.id = ? AND m.tenant = ?", (memory_id, tenant)
        ).fetchone()
        if row is None:
            raise NotFound(memory_id)
        return _memory(row)

    def _newest(self, memory: Memory) -> Memory:
        """The last version reached from ``memory`` by ``superseded_by`` links (bounded: a cycle stops it)."""
        seen = {memory.id}
        current = memory
        while current.superseded_by is not None and current.superseded_by not in seen:
            current = self._row(memory.tenant, current.superseded_by)
            seen.add(current.id)
        return current

    def supersede(
        self,
        *,
        tenant: str,
        id: str,
        content: str,
        reason: str | None = None,
        kind: str | None = None,
        tags: list[str] | None = None,
        importance: int | None = None,
        source: str | None = None,
        observed_at: str | None = None,
        expires_at: str | None = None,
    ) -> SupersedeOutcome:
        """Replace memory ``id`` by a new one.

        Fields left None are inherited from the old memory (``observed_at``
        defaults to now). One transaction inserts the new memory and links both
        ways; the old one leaves recall and the boot context but stays in history.
        Only the current version of a history can be superseded. A history whose
        newest version was forgotten or has expired has no current version: it
        ends there, and new content is stored with ``remember``. No two current
        memories of a scope hold the same content, so the new content must
        differ from every other current memory of the scope, and may equal the
        old memory's only when another field changes.

        Raises:
            NotFound: no such memory in this tenant.
            Conflict: it already has a successor (the message names the current
                one, or says the history ended), it was forgotten or has expired,
                or the content repeats a current memory (named).
            InvalidInput: as for :meth:`remember`; also an inherited expiry that is already past.
        """
        text = validate.content(content)
        reason = validate.short_text("reason", reason, REASON_MAX_CHARS)
        new_kind = validate.kind(kind) if kind is not None else None
        new_tags = validate.tags(tags) if tags is not None else None
        new_importance = validate.importance(importance) if importance is not None else None
        new_source = validate.short_text("source", source, SOURCE_MAX_CHARS)
        self._refuse_secrets(content=content, source=source, tags=tags, reason=reason)
        content_hash = validate.content_hash(text)
        vectors, degraded = self._embed_memory(text)
        with self._lock:
            with write_transaction(self._conn):
                now = self.clock()
                old = self._resolve(tenant, id)
                self._check_supersedable(old, now)
                observed, expires = self._times(observed_at, expires_at)
                if expires_at is None and old.expires_at is not None:
                    if old.expires_at <= max(observed, now):
                        raise InvalidInput(
                            "expires_at",
                            f"the inherited expiry {format_ms(old.expires_at)} is not later than observed_at "
                            "and now: the new memory would never be shown; pass a new expires_at",
                        )
                    expires = old.expires_at
                if content_hash == validate.content_hash(old.content or ""):
                    given = {"kind": new_kind, "tags": new_tags, "importance": new_importance,
                             "source": new_source, "expires_at": expires_at and expires}
                    if not _differences(old, given):
                        raise Conflict(
                            f"the new content is the same as memory {old.id}'s and no other field changes: "
                            "nothing to supersede"
                        )
                else:
                    same = self._current_with_hash(tenant, old.scope, content_hash, now, but=old.id)
                    if same is not None:
                        raise Conflict(
                            f"memory {same} of this scope already holds this content: forget {old.id} "
                            "if it is wrong, rather than superseding it with a second copy"
                        )
                new = self._insert(
                    tenant=tenant,
                    scope=old.scope,
                    kind=new_kind or old.kind,
                    content=text,
                    tags=new_tags if new_tags is not None else list(old.tags),
                    importance=new_importance or old.importance,
                    source=new_source if new_source is not None else old.source,
                    observed_at=observed,
                    expires_at=expires,
                    vectors=vectors,
                    supersedes=old.id,
                )
                self._conn.execute(
                    "UPDATE memories SET superseded_by = ?, supersede_reason = ? WHERE id = ?", (new, reason, old.id)
                )
            self.run_due_maintenance()
        return SupersedeOutcome(id=new, superseded_id=old.id, degraded=degraded)

    def _check_supersedable(self, old: Memory, now: int) -> None:
        """Raise Conflict unless ``old`` is the current, live version of its history."""
        if old.forgotten_at is not None:
            raise Conflict(f"memory {old.id} was forgotten, so it cannot be superseded: remember the new content")
        if _expired(old, now):
            raise Conflict(
                f"memory {old.id} expired at {format_ms(old.expires_at)}, so it cannot be superseded: "
                "remember the new content"
            )
        if old.superseded_by is None:
            return
        newest = self._newest(old)
        if newest.superseded_by is not None:
            raise Conflict(
                f"the history of memory {old.id} is damaged (its versions link in a cycle): run memvault doctor"
            )
        ended = "was forgotten" if newest.forgotten_at is not None else "has expired" if _expired(newest, now) else None
        if ended is not None:
            raise Conflict(
                f"memory {old.id} was superseded, and its newest version {newest.id} {ended}: this history "
                "has no current version any more; remember the new content"
            )
        raise Conflict(
            f"memory {old.id} was already superseded; its current version is {newest.id}: "
            f"supersede {newest.id} instead"
        )

    def _chain(self, memory: Memory) -> list[Memory]:
        """Every memory linked to ``memory`` by supersession, oldest first.

        Each walk stops at an id it has seen, so a cycle left by damage or hand
        edits ends it instead of looping (``memvault doctor`` reports cycles).
        """
        seen = {memory.id}
        first = memory
        while first.supersedes is not None and first.supersedes not in seen:
            first = self._row(memory.tenant, first.supersedes)
            seen.add(first.id)
        chain = [first]
        while chain[-1].superseded_by is not None and chain[-1].superseded_by not in {m.id for m in chain}:
            chain.append(self._row(memory.tenant, chain[-1].superseded_by))
        if memory.id not in {m.id for m in chain}:
            chain.append(memory)
        return chain

    def _erase(self, seq: int, now: int, reason: str | None) -> None:
        """Inside a write transaction: empty one memory into a tombstone and note that a scrub is due."""
        vector_rows.delete(self._conn, seq)
        self._conn.execute("DELETE FROM memory_tags WHERE memory_seq = ?", (seq,))
        self._conn.execute("DELETE FROM idempotency_keys WHERE memory_seq = ?", (seq,))
        self._conn.execute(
            "UPDATE memories SET content = NULL, content_hash = NULL, source = NULL,"
            " supersede_reason = NULL, forgotten_at = ?, forget_reason = ?, vector_pending = 0"
            " WHERE seq = ?",
            (now, reason, seq),
        )
        # Recorded with the delete: a crash before the scrub leaves the duty, not silent residue.
        self._conn.execute("INSERT OR REPLACE INTO settings(key, value) VALUES (?, ?)", (SCRUB_DUE, new_id()))

    def forget(
        self, *, tenant: str, id: str, reason: str | None = None, include_history: bool = False
    ) -> ForgetOutcome:
        """Delete a memory's content for real, leaving a tombstone (id, time, reason).

        Content, source, tags, duplicate hash, FTS entry and vector are removed,
        and a pending scrub is recorded, in one transaction; then the file is
        scrubbed (``VACUUM`` and a WAL checkpoint) so the text is not recoverable
        from its bytes. ``scrubbed`` is True only when no scrub is pending any
        more; when the scrub could not run (another connection held a lock,
        the disk is full) the forget still stands and the scrub is finished by a
        later write, ``run_due_maintenance``, the next start-up or ``memvault doctor``.
        ``include_history`` forgets the whole supersession chain. Forgetting a
        forgotten memory is not an error (``already_forgotten`` True).

        Raises:
            NotFound: no such memory in this tenant.
            InvalidInput: the reason is too long or contains a credential.
        """
        self._refuse_secrets(reason=reason)
        reason = validate.short_text("reason", reason, REASON_MAX_CHARS)
        with self._lock:
            with write_transaction(self._conn):
                memory = self._resolve(tenant, id)
                chain = self._chain(memory) if include_history else [memory]
                now = self.clock()
                forgotten: list[str] = []
                for member in chain:
                    if member.forgotten_at is None:
                        self._erase(self._seq(member.id), now, reason)
                        forgotten.append(member.id)
            scrubbed = self._finish_scrub(retry_now=True)
        return ForgetOutcome(
            id=memory.id,
            already_forgotten=memory.forgotten_at is not None,
            forgotten_ids=forgotten,
            scrubbed=scrubbed,
        )

    # -- due maintenance ------------------------------------------------------------

    def _finish_scrub(self, retry_now: bool) -> bool:
        """Under the lock, outside a transaction: scrub if one is due; True when none is due any more.

        Never raises for a lock, a full disk or any other SQLite error: the duty
        stays recorded and the result is False. Without ``retry_now`` a scrub
        that failed less than ``SCRUB_RETRY_S`` ago is not tried again (each try
        may wait out the busy timeout).
        """
        try:
            due = self.setting(SCRUB_DUE)
            if due is None:
                return True
            if not retry_now and time.monotonic() < self._scrub_retry_at:
                return False
            if scrub(self._conn):
                with write_transaction(self._conn):
                    self._conn.execute("DELETE FROM settings WHERE key = ? AND value = ?", (SCRUB_DUE, due))
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                return self.setting(SCRUB_DUE) is None  # False if another forget came in meanwhile
        except apsw.Error as exc:
            log.warning("scrub of forgotten content postponed: %s", exc)
        self._scrub_retry_at = time.monotonic() + SCRUB_RETRY_S
        return False

    def run_due_maintenance(self) -> DueWork:
        """Do the work the store owes: erase expired memories and finish a pending scrub.

        A memory expired for more than ``EXPIRY_GRACE_MS`` becomes a tombstone
        (reason "expired at ..."), exactly as if forgotten; then a scrub that is
        due (after a forget or such an erase, possibly by another process or
        before a crash) is run. Called when the store opens and after each write;
        servers may also call it now and then. Never raises for a busy database:
        what could not be done stays due.
        """
        with self._lock:
            now = self.clock()
            purged: list[str] = []
            pending = False  # (unknown when the database is busy: then no scrub is claimed)
            try:
                if self._conn.execute(
                    "SELECT 1 FROM memories WHERE forgotten_at IS NULL AND expires_at <= ? LIMIT 1",
                    (now - EXPIRY_GRACE_MS,),
                ).fetchone():
                    with write_transaction(self._conn):
                        rows = self._conn.execute(
                            "SELECT seq, id, expires_at FROM memories WHERE forgotten_at IS NULL AND expires_at <= ?",
                            (now - EXPIRY_GRACE_MS,),
                        ).fetchall()
                        for seq, memory_id, expired in rows:
                            self._erase(seq, now, f"expired at {format_ms(expired)}")
                            purged.append(memory_id)
                pending = self.setting(SCRUB_DUE) is not None
            except (apsw.BusyError, apsw.LockedError) as exc:
                log.warning("erasing expired memories postponed: %s", exc)
            scrubbed = self._finish_scrub(retry_now=bool(purged))
        return DueWork(purged_ids=purged, scrubbed=pending and scrubbed, scrub_pending=not scrubbed)

    # -- reading -----------------------------------------------------------------

    def get(self, *, tenant: str, id: str) -> Memory:
        """The memory ``id`` (any letter case, or a unique prefix of 8+ characters) of ``tenant``.

        A forgotten memory is a tombstone; an expired one is shown the same way
        (no content, source or tags; ``expires_at`` in the past).

        Raises:
            NotFound: no such memory in this tenant.
            InvalidInput: an ambiguous prefix.
        """
        with self._lock:
            return _visible(self._resolve(tenant, id), self.clock())

    def history(self, *, tenant: str, id: str) -> list[Memory]:
        """The supersession chain through ``id``, oldest first, expired members
        without content (as :meth:`get`). Raises NotFound or InvalidInput as :meth:`get`."""
        with self.snapshot():
            now = self.clock()
            return [_visible(m, now) for m in self._chain(self._resolve(tenant, id))]

    def recall(
        self,
        *,
        tenant: str,
        query: str,
        scopes: list[str],
        limit: int | None = None,
        kinds: list[str] | None = None,
        tags: list[str] | None = None,
        since: str | None = None,
        until: str | None = None,
        include_history: bool = False,
    ) -> RecallOutcome:
        """Hybrid search (FTS5 BM25 + vec0 cosine, fused in ``ranking``) over current memories.

        Only memories of ``tenant`` in ``scopes`` that pass every filter are
        candidates; ``tags`` must all be present; ``since``/``until`` bound
        ``observed_at``. Text is never parsed as FTS5 syntax (see
        ``search.match_expression``). Returns at most ``limit`` hits, or none
        with ``abstained`` True when nothing is relevant enough. Writes nothing.

        Raises:
            InvalidInput: a bad limit, kind, tag or date.
        """
        query = validate.nfc(validate.query(query))
        filters = self._filters(tenant, scopes, kinds, tags, since, until, include_history)
        size = validate.limit(limit)
        found = self._ranking(filters, query, max(search.CANDIDATES_MIN, 4 * size))
        if found is None:
            return RecallOutcome(hits=[], abstained=True)
        candidates, ranking = found
        hits = [
            Hit(
                memory=s.memory,
                score=s.score,
                confidence=s.confidence,
                signals=Signals(s.keyword_rank, s.keyword_score, s.vector_rank, s.similarity, s.coverage),
            )
            for s in ranking.hits[:size]
        ]
        degraded = candidates.degraded
        pending = sum(h.memory.vector_pending for h in hits)
        if degraded is None and pending:
            degraded = f"{pending} matching memories have no vector yet"
        return RecallOutcome(hits=hits, abstained=ranking.abstained, degraded=degraded)

    def _filters(
        self, tenant: str, scopes: list[str], kinds: list[str] | None, tags: list[str] | None,
        since: str | None, until: str | None, include_history: bool,
    ) -> search.Filters:
        """The checked filters of a recall or a listing. Raises InvalidInput."""
        since_ms, until_ms = validate.timestamp("since", since), validate.timestamp("until", until)
        if since_ms is not None and until_ms is not None and since_ms >= until_ms:
            raise InvalidInput("until", f"must be later than since ({since}); nothing can be observed in between")
        return search.Filters(
            tenant=tenant,
            scopes=list(dict.fromkeys(scopes)),
            now=self.clock(),
            kinds=validate.kinds(kinds),
            tags=validate.tags(tags) or None,
            since=since_ms,
            until=until_ms,
            include_history=bool(include_history),
        )

    def _ranking(
        self, filters: search.Filters, query: str, pool: int, rank: bool = True
    ) -> tuple[Candidates, ranking_rules.Ranking | None] | None:
        """Candidates for ``query`` and their ranking, from one snapshot (see
        ``candidates.gather`` and ``ranking.rank``); None when the query has no words."""
        if not search.query_chunks(query):
            return None
        when = self._time.find(query, filters.until or filters.now)
        words_query = when.remove_from(query) if when else query
        # The query is embedded on a worker thread while the keyword search runs.
        degraded = self.vector_status()
        embedding = self._pool.submit(self.embedder.embed, [query]) if self.embedder and degraded is None else None

        def query_vector() -> bytes | None:
            if embedding is None or not self.has_vector_table():
                return None
            return embedding.result()[0].tobytes()

        with self.snapshot() as conn:  # one snapshot for every read below
            found = gather(
                conn, self._keyword_tokenizer(conn), filters, words_query, query_vector, when, pool, degraded, self._rows_by_seq
            )
            if not rank:
                return found, None

            def same_subject(a: int, b: int) -> float | None:
                row = conn.execute(search.pair_similarity_sql(VECTOR_TABLE), (a, b)).fetchone()
                return None if row is None else 1.0 - row[0]

            return found, ranking_rules.rank(found, filters.now, found.unknown_names, same_subject)

    def ranked_lists(self, *, tenant: str, query: str, scopes: list[str], k: int) -> tuple[list[str], list[str]]:
        """The keyword-only (BM25) and vector-only (cosine) top-``k`` ids, for evaluation baselines."""
        filters = search.Filters(tenant=tenant, scopes=scopes, now=self.clock())
        ranked = self._ranking(filters, validate.query(query), k, rank=False)
        if ranked is None:
            return [], []
        found = ranked[0]
        return [found.rows[s].id for s, _, _ in found.keyword], [found.rows[s].id for s, _ in found.vector]

    def _rows_by_seq(self, seqs: list[int]) -> dict[int, Memory]:
        if not seqs:
            return {}
        rows = self._conn.execute(
            f"SELECT m.seq, {_COLUMNS} FROM memories m WHERE m.seq IN (SELECT value FROM json_each(?))",
            (json.dumps(seqs),),
        ).fetchall()
        return {row[0]: _memory(row[1:]) for row in rows}

    def boot_memories(
        self, *, tenant: str, scopes: list[str], max_rows: int | None = None
    ) -> tuple[list[Memory], int]:
        """Current, unexpired memories in boot order (at most ``max_rows``, None
        for all), and how many there are in all. The boot context itself reads
        :meth:`boot_section` per section.

        Order: preferences and decisions, procedures, facts and failures (most
        important, then most recent first), episodes (most recent first).
        """
        filters = search.Filters(tenant=tenant, scopes=list(dict.fromkeys(scopes)), now=self.clock())
        where, params = search.filter_sql(filters)
        sql = (
            f"SELECT {_COLUMNS} FROM memories m WHERE {where} ORDER BY {_BOOT_GROUP},"
            f" CASE WHEN {_BOOT_GROUP} = 3 THEN 0 ELSE m.importance END DESC, m.observed_at DESC LIMIT :max_rows"
        )
        with self.snapshot() as conn:
            total = conn.execute(f"SELECT count(*) FROM memories m WHERE {where}", params).fetchone()[0]
            rows = conn.execute(sql, {**params, "max_rows": -1 if max_rows is None else max_rows})
            return [_memory(r) for r in rows], total

    # -- listing and display helpers (no ranking) ------------------------------------

    def list_memories(
        self,
        *,
        tenant: str,
        scopes: list[str],
        limit: int | None = None,
        kinds: list[str] | None = None,
        tags: list[str] | None = None,
        since: str | None = None,
        until: str | None = None,
        include_history: bool = False,
    ) -> list[Memory]:
        """The memories of ``tenant`` in ``scopes`` that pass every filter, newest
        observed first (no query, no ranking, no abstention); at most ``limit``.

        Filters mean what they mean for :meth:`recall`. Writes nothing.

        Raises:
            InvalidInput: a bad limit, kind, tag or date.
        """
        filters = self._filters(tenant, scopes, kinds, tags, since, until, include_history)
        where, params = search.filter_sql(filters)
        sql = f"SELECT {_COLUMNS} FROM memories m WHERE {where} ORDER BY m.observed_at DESC, m.seq DESC LIMIT :limit"
        with self.snapshot() as conn:
            return [_memory(r) for r in conn.execute(sql, {**params, "limit": validate.limit(limit)})]

    def scope_counts(self, *, tenant: str) -> dict[str, int]:
        """How many current (not superseded, forgotten or expired) memories each
        scope of ``tenant`` holds, largest first."""
        with self.snapshot() as conn:
            rows = conn.execute(
                "SELECT scope, count(*) FROM memories WHERE tenant = ? AND forgotten_at IS NULL"
                " AND superseded_by IS NULL AND (expires_at IS NULL OR expires_at > ?)"
                " GROUP BY scope ORDER BY count(*) DESC, scope",
                (tenant, self.clock()),
            ).fetchall()
        return dict(rows)

    def short_ids(self, *, tenant: str, ids: list[str], min_length: int = 8) -> dict[str, str]:
        """The shortest prefix (at least ``min_length`` characters) of each id that no
        other memory id of ``tenant`` starts with, like git's abbreviated hashes.

        A prefix one character longer than the longest prefix shared with either
        neighbour in sorted order is unique. UUIDv7 ids begin with their time, so
        memories made in the same minute need more than 8 characters.
        """
        out: dict[str, str] = {}
        with self.snapshot() as conn:
            for memory_id in ids:
                shared = 0
                for sql in (
                    "SELECT max(id) FROM memories WHERE tenant = ? AND id < ?",
                    "SELECT min(id) FROM memories WHERE tenant = ? AND id > ?",
                ):
                    other = conn.execute(sql, (tenant, memory_id)).fetchone()[0]
                    if other is not None:
                        shared = max(shared, len(os.path.commonprefix([memory_id, other])))
                short = memory_id[: max(min_length, shared + 1)]
                out[memory_id] = memory_id[: len(short) + 1] if short.endswith("-") else short
        return out

    def boot_section(
        self, *, tenant: str, scopes: list[str], kinds: list[str], newest_first: bool, max_rows: int
    ) -> tuple[list[Memory], int]:
        """Current, unexpired memories of ``kinds`` for one section of the boot
        context, and how many there are in all.

        Order: most recent first when ``newest_first``, else most important, then
        most recent. At most ``max_rows`` are returned: the caller picks a number
        that its token budget could never show (``count`` stays exact).
        """
        filters = search.Filters(
            tenant=tenant, scopes=list(dict.fromkeys(scopes)), now=self.clock(), kinds=validate.kinds(kinds)
        )
        where, params = search.filter_sql(filters)
        order = "m.observed_at DESC" if newest_first else "m.importance DESC, m.observed_at DESC"
        sql = f"SELECT {_COLUMNS} FROM memories m WHERE {where} ORDER BY {order}, m.seq DESC LIMIT :max_rows"
        with self.snapshot() as conn:
            total = conn.execute(f"SELECT count(*) FROM memories m WHERE {where}", params).fetchone()[0]
            return [_memory(r) for r in conn.execute(sql, {**params, "max_rows": max_rows})], total
