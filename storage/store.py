"""The memory service: what memvault means, above any database.

``Store`` holds the backend, the embedder, the clock and the policy (secrets allowed
or not) and owns every verb: ``remember`` (idempotency keys, duplicates, credential
refusal, similar memories), ``supersede`` and ``forget`` (the history rules; forgotten
content erased for real and scrubbed), the reads (``get``, ``history``, listings,
boot sections, ``recall``: handed to ``retrieval``, fused in ``ranking``); the work it
owes its database (expiry erasure, scrubs, the vector index's upkeep) is done on its
worker (``maintenance.Upkeep``). It talks to a database only through ``backend``'s contract, one transaction per
operation; the rules over rows it reads are in ``history`` (ids and chains).
``open_backend`` picks SQLite for a file path and PostgreSQL for a ``postgresql://`` URL.

``Store`` is safe to call from several threads. Embedding never runs inside a write
transaction: a write lock is never held while a model runs.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Unpack

import numpy as np

from . import history, maintenance, validate
from .backend import Backend, NewRow, Reader, Search, Writer, recorded_model
from .embeddings import Embedded, Embedder
from .errors import Conflict, InvalidInput, ModelUnavailable, StoreError, shown
from .ids import new_id
from .literal import literal_tokens
from .limits import (
    BUSY_TIMEOUT_MS, DEFAULT_SCOPE, IDEMPOTENCY_KEY_MAX_CHARS, IDEMPOTENCY_KEY_TTL_MS, REASON_MAX_CHARS,
    SOURCE_MAX_CHARS,
)
from .location import POSTGRES_INSTALL, is_url, postgres_extra_missing
from .query import EPISODE_GAP_MS, Filters
from .maintenance import Upkeep, Worker
from .records import ForgetOutcome, Memory, RecallOutcome, RememberOutcome, SupersedeOutcome
from .retrieval import FilterArgs, Retriever, checked_filters
from .secrets import refuse_secrets, scanned_fields
from .timefmt import format_ms, now_ms

log = logging.getLogger(__name__)
# remember names current memories at least this similar (cosine): on the agentic set it
# flags 8 of 21 pairs where a later memory replaced an earlier one, and about 7 % of
# other new memories (whose nearest earlier neighbour has median similarity 0.43).
SIMILAR_MEMORY = 0.7
SIMILAR_COUNT = 3  # similar memories named at most
EMBEDDING_THREADS = 4  # new memories embedded at once; more wait for a thread


def differences(memory: Memory, given: dict[str, object]) -> tuple[str, ...]:
    """Names of the ``given`` fields (None: not given) whose value differs from ``memory``'s."""
    stored = {
        "kind": memory.kind, "tags": sorted(memory.tags), "importance": memory.importance,
        "source": memory.source, "observed_at": memory.observed_at, "expires_at": memory.expires_at,
    }
    return tuple(
        name for name, value in given.items()
        if value is not None and (sorted(value) if name == "tags" else value) != stored[name]  # type: ignore[call-overload]
    )


@dataclass(frozen=True)
class _NewMemory:
    """A :meth:`Store.remember` call checked and on its way to the write: ``fields`` the
    row's checked fields (tenant, scope, kind, tags, importance, source), ``given`` the
    fields the call set (for ``not_applied``), ``embedding`` its vectors being made."""

    fields: dict[str, object]
    text: str
    content_hash: str
    key: str | None
    given: dict[str, object]
    observed: int
    expires: int | None
    tokens: int
    check_similar: bool
    embedding: Future[tuple[Embedded | None, str | None]]

    @property
    def tenant(self) -> str:
        return str(self.fields["tenant"])

    @property
    def scope(self) -> str:
        return str(self.fields["scope"])


def open_backend(db: Path | str, busy_timeout_ms: int = BUSY_TIMEOUT_MS, worker: Worker | None = None) -> Backend:
    """The backend for ``db``: PostgreSQL for a ``postgresql://`` (or ``postgres://``) URL,
    else the SQLite file at that path, which leaves its checkpoints to ``worker`` (if given).
    PostgreSQL needs ``pip install "memvault[postgres]"``.

    Raises:
        StoreError: the database cannot be opened or is not memvault's (the message says why).
    """
    if is_url(db):
        missing = postgres_extra_missing()
        if missing:
            raise StoreError(f"PostgreSQL needs memvault's postgres extra ({', '.join(missing)} not installed): "
                             f"{POSTGRES_INSTALL}")
        from .postgres import PostgresBackend  # psycopg is imported only for PostgreSQL

        return PostgresBackend(str(db), busy_timeout_ms=busy_timeout_ms)
    from .sqlite import SqliteBackend

    return SqliteBackend(db, busy_timeout_ms=busy_timeout_ms, submit=worker and worker.submit)


class Store:
    """The memory service: memories of many tenants in one database.

    Args:
        db: an SQLite file path (created with its folder, user-only permissions) or a
            ``postgresql://`` URL (see :func:`open_backend`).
        embedder: makes vectors; None runs keyword-only, every result saying so.
        clock: returns "now" in ms since the epoch; injectable for expiry tests.
        allow_secrets: store content that contains credentials (off: refused, see ``secrets``).
        busy_timeout_ms: how long a write waits for another connection's write lock.
        worker: runs the store's background jobs (``upkeep``); a new one when None. Closed with the store.

    Every method takes the ``tenant`` explicitly: it is the hard isolation
    boundary, and no method reads or writes another tenant's rows. Times in and
    out of the public methods are ISO-8601 strings on input and ms on records.

    Raises (all methods): :class:`InvalidInput`, :class:`NotFound`,
    :class:`Conflict` as documented per method; :class:`StoreError` on open;
    :class:`Busy` / :class:`StorageUnavailable` when the database cannot take a write.
    """

    def __init__(
        self,
        db: Path | str,
        embedder: Embedder | None = None,
        *,
        clock: Callable[[], int] = now_ms,
        allow_secrets: bool = False,
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
        worker: Worker | None = None,
    ) -> None:
        self.allow_secrets = allow_secrets
        self.embedder = embedder
        self.clock = clock
        self.worker = worker or Worker()
        self.backend = open_backend(db, busy_timeout_ms, self.worker)
        self.upkeep = Upkeep(self)
        with self.backend.read(None) as tx:
            recorded = recorded_model(tx.settings())
            due = self.upkeep.due(tx)
        if embedder is not None and recorded is not None:
            embedder.follow(recorded[0])
        self._retriever = Retriever(self.backend, embedder, self.model_problem, self.recorded_model_problem)
        # A new memory is embedded here while its secrets and duplicates are checked.
        self.embedding_pool = ThreadPoolExecutor(max_workers=EMBEDDING_THREADS, thread_name_prefix="memvault-embed-write")
        if due:
            self.upkeep.start()
        self.upkeep.start_indexing()

    def warm_up(self, stop: Callable[[], bool] = lambda: False) -> None:
        """Load what the first recall would otherwise wait for: the model (if it can
        load), the time-expression parser and the backend's vector index
        (the backend's own ``warm_up``, which gives up once ``stop()`` is true: a server stopping)."""
        self.vector_status()
        self._retriever.time.warm_up()
        maintenance.own(self).warm_up(stop)

    def close(self) -> None:
        """Close the worker (after a scrub queued on it), then release the backend (the store
        cannot be used afterwards)."""
        self._retriever.close()
        self.worker.close()
        self.embedding_pool.shutdown(wait=True)
        self.backend.close()

    # -- the embedding model and new rows ------------------------------------------------

    def vector_status(self) -> str | None:
        """None when vectors can be made and searched; otherwise the reason they cannot
        (the recorded model read in a read transaction of its own)."""
        problem = self.model_problem()
        if problem is not None:
            return problem
        with self.backend.read(None) as tx:
            return self.recorded_model_problem(tx)

    def model_problem(self) -> str | None:
        """Why this process cannot embed (no model, it cannot load, or another thread is
        preparing it), else None. Loads the model on first use: call it outside transactions."""
        if self.embedder is None:
            return "no embedding model configured: keyword search only"
        if self.embedder.preparing:
            return ("embedding model being prepared (the first start on this machine, about 10 s): keyword "
                    "search only, new memories get their vectors when it is ready")
        try:
            self.embedder.load()
        except ModelUnavailable as exc:
            return f"embedding model unavailable ({exc}): keyword search only, new memories wait for vectors"
        return None

    def recorded_model_problem(self, tx: Reader) -> str | None:
        """Why the database's vectors cannot be used with this process's (loaded) model, else None."""
        assert self.embedder is not None
        recorded = recorded_model(tx.settings())
        if recorded is not None and recorded[0] != self.embedder.model_id and self.embedder.follow(recorded[0]):
            return (
                f"the database's vectors now come from model {recorded[0]} (`memvault reindex` moved them): "
                "this server switches to it; keyword search only for this call"
            )
        if recorded is not None and recorded[0] != self.embedder.model_id:
            return (
                f"the database's vectors come from model {recorded[0]} but this server runs "
                f"{self.embedder.model_id}: keyword search only until this server restarts with that model "
                "or `memvault reindex` is run"
            )
        if recorded is not None and recorded[1] != self.embedder.dim:
            return (
                f"the database's vectors have {recorded[1]} dimensions but model {recorded[0]} here makes "
                f"{self.embedder.dim}: keyword search only until `memvault reindex` is run"
            )
        return None

    def embed_memory(self, text: str, reason: str | None) -> tuple[Embedded | None, str | None]:
        """The vectors of ``text``'s windows (window 0 first), or None and why not
        (``reason``: :meth:`model_problem` or :meth:`vector_status`, read by the caller)."""
        if reason is not None:
            return None, reason
        assert self.embedder is not None
        return self.embedder.embed_as(self.embedder.windows(text)), None

    @staticmethod
    def writable_vectors(tx: Reader, made: Embedded | None) -> Embedded | None:
        """Inside a write: ``made`` when vectors of its model may be stored (the database
        records none yet, or that one), else None (the memory's vector stays pending)."""
        recorded = recorded_model(tx.settings()) if made is not None else None
        return made if recorded is None or recorded == (made.model_id, len(made.vectors[0])) else None  # type: ignore[union-attr]

    def _stored_vectors(
        self, tx: Writer, made: Embedded | None, degraded: str | None
    ) -> tuple[Embedded | None, str | None]:
        """Inside a write: ``made``'s vectors when they may be stored (:meth:`writable_vectors`)
        and why not (``degraded``, or the database's other model) when they may not."""
        vectors = self.writable_vectors(tx, made)
        if made is not None and vectors is None:  # the database records another model
            degraded = self.recorded_model_problem(tx)
        return vectors, degraded

    def episode_context(
        self, tx: Reader, *, tenant: str, scope: str, kind: str, observed_at: int, supersedes: str | None
    ) -> int | None:
        """The seq of the episode a new memory continues, or None. An episode continues the
        latest current episode observed at most ``EPISODE_GAP_MS`` before it in the scope
        (its context; never the memory being superseded, whose stale words must not index
        the new one). Independent facts have none."""
        if kind != "episode":
            return None
        # Expiry is no matter here (``now`` 0): an episode continues the conversation it was part of.
        episodes = Filters(tenant=tenant, scopes=[scope], now=0, kinds=["episode"],
                           since=observed_at - EPISODE_GAP_MS, until=observed_at + 1)
        found = tx.memories(tenant, filters=episodes, limit=2)
        return next((seq for seq, memory in found.items() if memory.id != supersedes), None)

    def _new_row(
        self, tx: Writer, *, tenant: str, scope: str, kind: str, content: str, tags: list[str], importance: int,
        source: str | None, observed_at: int, expires_at: int | None, vectors: Embedded | None, tokens: int,
        supersedes: str | None = None, reason: str | None = None, idempotency_key: str | None = None,
    ) -> NewRow:
        """The row of a new memory (see :meth:`episode_context`); ``vectors`` from :meth:`writable_vectors`."""
        context = self.episode_context(
            tx, tenant=tenant, scope=scope, kind=kind, observed_at=observed_at, supersedes=supersedes
        )
        return NewRow(
            id=new_id(), tenant=tenant, scope=scope, kind=kind, content=content,
            content_hash=validate.content_hash(content), tags=tuple(tags), importance=importance, source=source,
            observed_at=observed_at, recorded_at=self.clock(), expires_at=expires_at, supersedes=supersedes,
            reason=reason, context_seq=context, idempotency_key=idempotency_key, tokens=tokens,
            vectors=None if vectors is None else list(vectors.vectors), model=vectors and vectors.model_id,
        )

    def _refuse_secrets(self, **fields: str | list[str] | None) -> None:
        """Scan every stored free-text field as the caller sent it, before any
        normalisation (lower-casing would hide a key's pattern), unless allowed."""
        if not self.allow_secrets:
            refuse_secrets(scanned_fields(fields))

    # -- remember ------------------------------------------------------------------------

    def _replay_or_duplicate(
        self, tx: Writer, tenant: str, scope: str, content_hash: str, key: str | None, given: dict[str, object]
    ) -> RememberOutcome | None:
        """Inside a write transaction: the outcome when nothing new must be stored.

        A known idempotency key replays its first answer (or is a conflict when
        the content differs); keys recorded ``IDEMPOTENCY_KEY_TTL_MS`` or more ago
        count for nothing, so such a key is new again. Otherwise identical current content in the scope is
        confirmed, and a new key is recorded against it. Either way the stored
        memory is left as it is, and ``not_applied`` names the ``given`` fields
        whose values differ from it.
        """
        now = self.clock()
        repeats = tx.repeats(tenant, scope, content_hash, now, key=key, keys_since=now - IDEMPOTENCY_KEY_TTL_MS)
        if repeats.keyed is not None:
            memory_id, stored_hash = repeats.keyed
            if stored_hash != content_hash:
                raise Conflict(
                    "idempotency_key", f"{shown(key)} was already used for memory {memory_id} with different "
                    "content; a retry must send the same content, a new memory needs a new key"
                )
            stored = history.row(tx, tenant, memory_id)
            return RememberOutcome(id=memory_id, created=False, not_applied=differences(stored, given))
        memory_id = repeats.same
        if memory_id is None:
            return None
        stored = history.row(tx, tenant, memory_id)
        tx.confirm(memory_id, now, key)
        return RememberOutcome(
            id=memory_id, created=False, duplicate_of=memory_id, not_applied=differences(stored, given)
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
            raise validate.empty("idempotency_key", idempotency_key, IDEMPOTENCY_KEY_MAX_CHARS, ", or left out")
        observed, expires = validate.times(observed_at, expires_at, self.clock())
        status = self.model_problem()
        # The embedding (most of a new memory's cost) runs while the checks below run; a
        # refused or repeated memory drops it (cancelled while it waits for a thread).
        embedding = self.embedding_pool.submit(self.embed_memory, text, status)
        try:
            self._refuse_secrets(
                content=content, scope=scope, tags=tags, source=source, idempotency_key=idempotency_key
            )
            new = _NewMemory(
                fields=fields, text=text, content_hash=validate.content_hash(text), key=key,
                given={
                    "kind": kind and fields["kind"], "tags": None if tags is None else fields["tags"],
                    "importance": importance and fields["importance"], "source": fields["source"],
                    "observed_at": observed_at and observed, "expires_at": expires,
                },
                observed=observed, expires=expires, check_similar=check_similar, embedding=embedding,
                tokens=literal_tokens([text])[0],  # type: ignore[arg-type]
            )
            return self._remember(new)
        finally:
            embedding.cancel()  # a refused or repeated memory's embedding, unless it began

    def _remember(self, new: _NewMemory) -> RememberOutcome:
        """:meth:`remember` once checked, on every backend: while the memory is embedded, a
        read looks for a repeat; the write begins only once the vectors are made (a write
        lock is never held during an embedding), checks again under its locks
        (:meth:`_replay_or_duplicate`), searches the similar memories and inserts."""
        repeated = self._seen_repeat(new.tenant, new.scope, new.content_hash, new.key, new.given)
        if repeated is not None:
            return repeated
        made, degraded = new.embedding.result()
        with self.backend.write(new.tenant) as tx:
            existing = self._replay_or_duplicate(tx, new.tenant, new.scope, new.content_hash, new.key, new.given)
            if existing is not None:
                return existing
            due = self.upkeep.due(tx)
            vectors, degraded = self._stored_vectors(tx, made, degraded)
            similar = self._similar(tx, new.tenant, new.scope, vectors.vectors[0]) if vectors else []
            if new.check_similar and similar:
                return RememberOutcome(id=similar[0], created=False, degraded=degraded, similar=tuple(similar))
            row = self._new_row(
                tx, **new.fields, content=new.text, observed_at=new.observed, expires_at=new.expires,  # type: ignore[arg-type]
                vectors=vectors, idempotency_key=new.key, tokens=new.tokens,
            )
            tx.insert(row)
        if due:
            self.upkeep.start()
        return RememberOutcome(id=row.id, created=True, degraded=degraded, similar=tuple(similar))

    def _seen_repeat(
        self, tenant: str, scope: str, content_hash: str, key: str | None, given: dict[str, object]
    ) -> RememberOutcome | None:
        """Before a memory's vectors are made: its outcome when a read transaction sees
        that it repeats a known idempotency key or a current memory (the write transaction
        that answers it checks again, see :meth:`_replay_or_duplicate`), else None."""
        with self.backend.read(tenant) as tx:
            now = self.clock()
            repeats = tx.repeats(tenant, scope, content_hash, now, key=key, keys_since=now - IDEMPOTENCY_KEY_TTL_MS)
            seen = repeats.keyed is not None or repeats.same is not None
        if not seen:
            return None
        with self.backend.write(tenant) as tx:
            return self._replay_or_duplicate(tx, tenant, scope, content_hash, key, given)

    def _similar(self, tx: Reader, tenant: str, scope: str, vector: np.ndarray) -> list[str]:
        """Ids of the (at most ``SIMILAR_COUNT``) current memories of ``scope`` at least
        ``SIMILAR_MEMORY`` similar, most similar first."""
        filters = Filters(tenant=tenant, scopes=[scope], now=self.clock())
        found = tx.search(Search(filters, k=SIMILAR_COUNT, vector=vector)).vector
        close = [seq for seq, similarity in found if similarity >= SIMILAR_MEMORY]
        rows = tx.memories(tenant, seqs=close)
        return [rows[seq].id for seq in close]

    # -- supersede and forget ------------------------------------------------------------

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
        made, degraded = self.embed_memory(text, self.model_problem())
        tokens = literal_tokens([text])[0]  # counted before the write lock, as the vectors are
        with self.backend.write(tenant) as tx:
            now = self.clock()
            # Read under the row's lock (``backend.Writer``): of two supersedes of one memory,
            # or a supersede and a forget, the second waits, then sees the first.
            old = history.resolve(tx, tenant, id)
            history.check_supersedable(tx, old, now)
            observed, expires = validate.times(observed_at, expires_at, self.clock())
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
                if not differences(old, given):
                    raise Conflict(
                        "content", f"is the same as memory {old.id}'s and no other field changes: "
                        "nothing to supersede"
                    )
            else:
                same = tx.repeats(tenant, old.scope, content_hash, now, but=old.id).same
                if same is not None:
                    raise Conflict(
                        "content", f"memory {same} of this scope already holds this content: forget {old.id} "
                        "if it is wrong, rather than superseding it with a second copy"
                    )
            vectors, degraded = self._stored_vectors(tx, made, degraded)
            row = self._new_row(
                tx,
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
                reason=reason,
                tokens=tokens,
            )
            tx.insert(row)
            due = self.upkeep.due(tx)
        if due:
            self.upkeep.start()
        return SupersedeOutcome(id=row.id, superseded_id=old.id, degraded=degraded)

    def forget(
        self, *, tenant: str, id: str, reason: str | None = None, include_history: bool = False
    ) -> ForgetOutcome:
        """Delete a memory's content for real, leaving a tombstone (id, time, reason).

        Content, source, tags, duplicate hash, keyword entry and vectors are
        removed, and a pending scrub is recorded, in one transaction; then the
        database is scrubbed (``backend.scrub``) so the text is not recoverable
        from its files, on the worker, asked at once (a VACUUM FULL or a
        WAL checkpoint makes other callers wait: never inside this call).
        ``scrubbed`` is True only when the forgotten text is in none of the database's
        files: on SQLite once no scrub is pending any more, on PostgreSQL never (after its
        scrub the text may remain in ``pg_wal`` and vectors in the HNSW index until
        PostgreSQL reuses that space). When the scrub
        runs in the background or could not run yet (another connection held a
        lock, the disk is full) the forget still stands and the scrub is finished
        by the worker after a later write, a server's periodic round, ``close``,
        the next start-up or ``memvault doctor``.
        ``include_history`` forgets the whole supersession chain. Forgetting a
        forgotten memory is not an error (``already_forgotten`` True).

        Raises:
            NotFound: no such memory in this tenant.
            InvalidInput: the reason is too long or contains a credential.
        """
        self._refuse_secrets(reason=reason)
        reason = validate.short_text("reason", reason, REASON_MAX_CHARS)
        with self.backend.write(tenant) as tx:
            # Every member is read under its row's lock (``backend.Writer``): a version a
            # concurrent supersede adds is either seen here or refused there.
            memory = history.resolve(tx, tenant, id)
            chain = history.chain(tx, memory) if include_history else [memory]
            now = self.clock()
            forgotten = [member.id for member in chain if member.forgotten_at is None]
            for member_id in forgotten:
                tx.erase(member_id, now, reason)
        # PostgreSQL's scrub (VACUUM FULL) leaves the text in pg_wal and the vectors in the
        # HNSW index's freed pages until PostgreSQL reuses them: never "scrubbed" there.
        scrubbed = self.upkeep.start_scrub() and self.backend.kind == "sqlite"
        return ForgetOutcome(
            id=memory.id,
            already_forgotten=memory.forgotten_at is not None,
            forgotten_ids=forgotten,
            scrubbed=scrubbed,
        )

    # -- reads ---------------------------------------------------------------------------

    def get(self, *, tenant: str, id: str) -> Memory:
        """The memory ``id`` (any letter case, or a unique prefix of 8+ characters) of ``tenant``.

        A forgotten memory is a tombstone; an expired one is shown the same way
        (no content, source or tags; ``expires_at`` in the past).

        Raises:
            NotFound: no such memory in this tenant.
            InvalidInput: an ambiguous prefix.
        """
        with self.backend.read(tenant) as tx:
            return history.visible(history.resolve(tx, tenant, id), self.clock())

    def history(self, *, tenant: str, id: str) -> list[Memory]:
        """The supersession chain through ``id``, oldest first, expired members
        without content (as :meth:`get`). Raises NotFound or InvalidInput as :meth:`get`."""
        with self.backend.read(tenant) as tx:
            now = self.clock()
            return [history.visible(m, now) for m in history.chain(tx, history.resolve(tx, tenant, id))]

    def recall(
        self,
        *,
        tenant: str,
        query: str,
        scopes: list[str],
        limit: int | None = None,
        **filters: Unpack[FilterArgs],
    ) -> RecallOutcome:
        """Hybrid search (keyword + vector cosine, fused in ``ranking``) over current memories.

        Only memories of ``tenant`` in ``scopes`` that pass every filter
        (:class:`FilterArgs`) are candidates. Text is never parsed as query syntax (see
        ``query.query_chunks``). Returns at most ``limit`` hits, or none
        with ``abstained`` True when nothing is relevant enough. Writes nothing.

        Raises:
            InvalidInput: a bad limit, kind, tag or date.
        """
        query = validate.nfc(validate.query(query))
        checked = checked_filters(tenant, scopes, self.clock(), **filters)
        return self._retriever.recall(checked, query, validate.limit(limit))

    def ranked_lists(self, *, tenant: str, query: str, scopes: list[str], k: int) -> tuple[list[str], list[str]]:
        """The keyword-only and vector-only (cosine) top-``k`` ids, for evaluation baselines."""
        filters = Filters(tenant=tenant, scopes=scopes, now=self.clock())
        ranked = self._retriever.ranking(filters, validate.query(query), k, rank=False)
        if ranked is None:
            return [], []
        found = ranked[0]
        return [found.rows[s].id for s, _, _ in found.keyword], [found.rows[s].id for s, _ in found.vector]

    def list_memories(
        self,
        *,
        tenant: str,
        scopes: list[str],
        limit: int | None = None,
        offset: int | None = None,
        after: str | None = None,
        **filters: Unpack[FilterArgs],
    ) -> list[Memory]:
        """The memories of ``tenant`` in ``scopes`` that pass every filter, newest
        observed first (no query, no ranking, no abstention); at most ``limit``, after
        skipping the ``offset`` newest, or those that come after the memory whose id is
        ``after`` in this order (a keyset page: what is written meanwhile never makes a
        row show twice or be skipped; a page: :meth:`count_memories` gives the total).

        Filters mean what they mean for :meth:`recall`. Writes nothing.

        Raises:
            InvalidInput: a bad limit, offset, kind, tag or date; ``after`` with an
                offset, or not the id of one of the tenant's memories.
        """
        checked = checked_filters(tenant, scopes, self.clock(), **filters)
        size, skip = validate.limit(limit), validate.offset(offset)
        if after is not None and skip:
            raise InvalidInput("cursor", "pages on its own: leave the offset out")
        with self.backend.read(tenant) as tx:
            key = None
            if after is not None:
                found = tx.memories(tenant, ids=[after])
                if not found:
                    raise InvalidInput("cursor", "is not one this listing gave: start again without it")
                seq, last = next(iter(found.items()))
                key = (last.observed_at, seq)
            return list(tx.memories(tenant, filters=checked, limit=size, offset=skip, after_key=key).values())

    def count_memories(self, *, tenant: str, scopes: list[str], **filters: Unpack[FilterArgs]) -> int:
        """How many memories :meth:`list_memories` has to show under the same filters
        (its ``limit`` and ``offset`` aside). Writes nothing.

        Raises:
            InvalidInput: a bad kind, tag or date.
        """
        checked = checked_filters(tenant, scopes, self.clock(), **filters)
        with self.backend.read(tenant) as tx:
            return sum(tx.counts(checked).values())

    def scope_counts(self, *, tenant: str) -> dict[str, int]:
        """How many current (not superseded, forgotten or expired) memories each
        scope of ``tenant`` holds, largest first."""
        with self.backend.read(tenant) as tx:
            counts = tx.counts(Filters(tenant=tenant, scopes=None, now=self.clock()))
        by_scope: dict[str, int] = {}
        for (scope, _), n in counts.items():
            by_scope[scope] = by_scope.get(scope, 0) + n
        return dict(sorted(by_scope.items(), key=lambda item: (-item[1], item[0])))

    def short_ids(self, *, tenant: str, ids: list[str]) -> dict[str, str]:
        """The shortest unique prefix of each id among ``tenant``'s memories (see ``history.short_ids``)."""
        with self.backend.read(tenant) as tx:
            return history.short_ids(tx, tenant, ids)

    def boot_section(
        self, *, tenant: str, scopes: list[str], kinds: list[str], newest_first: bool, max_rows: int
    ) -> tuple[list[Memory], int]:
        """Current, unexpired memories of ``kinds`` for one section of the boot
        context, and how many there are in all.

        Order: most recent first when ``newest_first``, else most important, then
        most recent. At most ``max_rows`` are returned: the caller picks a number
        that its token budget could never show (``count`` stays exact).
        """
        filters = Filters(
            tenant=tenant, scopes=list(dict.fromkeys(scopes)), now=self.clock(), kinds=validate.kinds(kinds)
        )
        with self.backend.read(tenant) as tx:
            total = sum(tx.counts(filters).values())  # kept counts: no count over the memories
            order = "observed" if newest_first else "importance"
            return list(tx.memories(tenant, filters=filters, order=order, limit=max_rows).values()), total

