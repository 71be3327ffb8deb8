"""``Store.remember``, above any backend: idempotency keys and duplicates, credential
refusal, the embedding of the new memory (on a thread of its own while the checks run),
the similar-memory lookup, and the insert, in one write transaction.

Where one writer excludes all others (SQLite) the write lock is never held during an
embedding, and the similar-memory search runs in a read snapshot before the write
(:meth:`Remembering._similar_seen`); where writers run at once (PostgreSQL) the write
transaction does its checks while the memory is embedded.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from . import history, validate
from .backend import Reader, VectorLog, Writer
from .candidates import admits
from .embeddings import Embedded
from .errors import Conflict, shown
from .limits import DEFAULT_SCOPE, IDEMPOTENCY_KEY_MAX_CHARS, IDEMPOTENCY_KEY_TTL_MS, SOURCE_MAX_CHARS
from .query import Filters
from .records import RememberOutcome
from .upkeep import Upkeep
from .writes import Writes, differences

# remember names current memories at least this similar (cosine): on the agentic set it
# flags 8 of 21 pairs where a later memory replaced an earlier one, and about 7 % of
# other new memories (whose nearest earlier neighbour has median similarity 0.43).
SIMILAR_MEMORY = 0.7
SIMILAR_COUNT = 3  # similar memories named at most
EMBEDDING_THREADS = 4  # new memories embedded at once; more wait for a thread


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
    check_similar: bool
    embedding: Future[tuple[Embedded | None, str | None]]
    status: str | None

    @property
    def tenant(self) -> str:
        return str(self.fields["tenant"])

    @property
    def scope(self) -> str:
        return str(self.fields["scope"])


class Remembering(Writes, Upkeep):
    """:meth:`remember` and its checks (a part of ``Store``, whose constructor makes
    ``_embedding``: ``EMBEDDING_THREADS`` threads that embed new memories)."""

    _embedding: ThreadPoolExecutor

    def _replay_or_duplicate(
        self, tx: Writer, tenant: str, scope: str, content_hash: str, key: str | None, given: dict[str, object]
    ) -> RememberOutcome | None:
        """Inside a write transaction: the outcome when nothing new must be stored.

        A known idempotency key replays its first answer (or is a conflict when
        the content differs); keys recorded ``IDEMPOTENCY_KEY_TTL_MS`` or more ago
        are dropped first, so such a key is new again. Otherwise identical current content in the scope is
        confirmed, and a new key is recorded against it. Either way the stored
        memory is left as it is, and ``not_applied`` names the ``given`` fields
        whose values differ from it.
        """
        now = self.clock()
        if key is not None:
            tx.drop_keys(now - IDEMPOTENCY_KEY_TTL_MS)  # expired: forgotten, so the key may name a new request
            known = tx.idempotency_key(tenant, key)
            if known is not None:
                memory_id, stored_hash = known
                if stored_hash != content_hash:
                    raise Conflict(
                        "idempotency_key", f"{shown(key)} was already used for memory {memory_id} with different "
                        "content; a retry must send the same content, a new memory needs a new key"
                    )
                stored = history.row(tx, tenant, memory_id)
                return RememberOutcome(id=memory_id, created=False, not_applied=differences(stored, given))
        memory_id = tx.current_with_hash(tenant, scope, content_hash, now, None)
        if memory_id is None:
            return None
        stored = history.row(tx, tenant, memory_id)
        tx.confirm(memory_id, now)
        if key is not None:
            tx.record_key(tenant, key, memory_id, content_hash, now)
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
        embedding = self._embedding.submit(self.embed_memory, text, status)
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
                observed=observed, expires=expires, check_similar=check_similar, embedding=embedding, status=status,
            )
            if self.backend.parallel_writes:
                return self._remember_alongside(new)
            return self._remember_one_writer(new)
        finally:
            embedding.cancel()  # a refused or repeated memory's embedding, unless it began

    def _remember_one_writer(self, new: _NewMemory) -> RememberOutcome:
        """:meth:`remember` where one writer excludes all others (SQLite): the write lock is
        never held during an embedding. While the memory is embedded, a read looks for a
        repeat; the similar-memory search runs in a snapshot of its own before the write."""
        repeated = self._seen_repeat(new.tenant, new.scope, new.content_hash, new.key, new.given)
        if repeated is not None:
            return repeated
        made, degraded = new.embedding.result()
        seen = self._similar_seen(new.tenant, new.scope, made)
        with self.backend.write(new.tenant) as tx:
            existing = self._replay_or_duplicate(tx, new.tenant, new.scope, new.content_hash, new.key, new.given)
            if existing is not None:
                return existing
            due = self._due(tx)
            outcome = self._insert_new(tx, new, made, degraded, seen)
        if outcome.created:
            self._run_due(due)  # cheap when nothing is due; never raises for a busy database
        return outcome

    def _remember_alongside(self, new: _NewMemory) -> RememberOutcome:
        """:meth:`remember` where writers run at once (PostgreSQL): the transaction's checks
        that need no vector run while the memory is embedded."""
        with self.backend.write(new.tenant) as tx:
            existing = self._replay_or_duplicate(tx, new.tenant, new.scope, new.content_hash, new.key, new.given)
            if existing is not None:
                return existing
            due = self._due(tx)
            # The model's claim, answered again below without a new query (None: another
            # thread switched the model just now; the claim waits for the vectors' model).
            model_id = self.embedder.model_id if self.embedder is not None and new.status is None else None
            if model_id is not None:
                tx.claim_model(model_id, self.embedder.dim)  # type: ignore[union-attr]
            made, degraded = new.embedding.result()
            outcome = self._insert_new(tx, new, made, degraded, None)
        if outcome.created:
            self._run_due(due)  # cheap when nothing is due; never raises for a busy database
        return outcome

    def _insert_new(
        self, tx: Writer, new: _NewMemory, made: Embedded | None, degraded: str | None,
        seen: tuple[list[int], int] | None,
    ) -> RememberOutcome:
        """Inside the write of :meth:`remember`, once it repeats nothing: insert ``new`` with
        its vectors (``made``, when they may be stored), unless ``check_similar`` finds
        similar memories (``seen``: the search made before the write, see :meth:`_similar_seen`)."""
        vectors, degraded = self._stored_vectors(tx, made, degraded)
        similar = self._similar(tx, new.tenant, new.scope, vectors[0], seen) if vectors else []
        if new.check_similar and similar:
            return RememberOutcome(id=similar[0], created=False, degraded=degraded, similar=tuple(similar))
        row = self._new_row(
            tx, **new.fields, content=new.text, observed_at=new.observed, expires_at=new.expires,  # type: ignore[arg-type]
            vectors=vectors, idempotency_key=new.key,
        )
        tx.insert(row)
        return RememberOutcome(id=row.id, created=True, degraded=degraded, similar=tuple(similar))

    def _seen_repeat(
        self, tenant: str, scope: str, content_hash: str, key: str | None, given: dict[str, object]
    ) -> RememberOutcome | None:
        """Before a memory's vectors are made: its outcome when a read transaction sees
        that it repeats a known idempotency key or a current memory (the write transaction
        that answers it checks again, see :meth:`_replay_or_duplicate`), else None."""
        with self.backend.read(tenant) as tx:
            seen = (key is not None and tx.idempotency_key(tenant, key) is not None) or (
                tx.current_with_hash(tenant, scope, content_hash, self.clock(), None) is not None
            )
        if not seen:
            return None
        with self.backend.write(tenant) as tx:
            return self._replay_or_duplicate(tx, tenant, scope, content_hash, key, given)

    def _similar_seen(self, tenant: str, scope: str, made: Embedded | None) -> tuple[list[int], int] | None:
        """Where the backend logs its vector changes (``backend.VectorLog``: SQLite), the
        similar-memory search of :meth:`_similar` in a read snapshot of its own, before
        the write lock is taken: the seqs it found and the snapshot's mark; None when it
        cannot be done there (no vectors, no such log, or vectors of another model or of
        none recorded yet: the write searches itself).

        At 100,000 memories the search was about 75 % of the time a remember held the
        write lock (p50 4.7 of 6.1 ms, load 5 on 2 cores), time in which no other call
        could write."""
        if made is None:
            return None
        with self.backend.read(tenant) as tx:
            if not isinstance(tx, VectorLog) or tx.model() != (made.model_id, len(made.vectors[0])):
                return None
            mark = tx.vector_mark()
            return self._similar_seqs(tx, tenant, scope, made.vectors[0]), mark

    def _similar(
        self, tx: Reader, tenant: str, scope: str, vector: np.ndarray, seen: tuple[list[int], int] | None = None
    ) -> list[str]:
        """Ids of current memories of ``scope`` at least ``SIMILAR_MEMORY`` similar, most similar first.

        ``seen``: what :meth:`_similar_seen` found in an earlier snapshot. Then only those
        memories and the ones whose vectors changed since (``VectorLog.vectors_since``)
        are scored, exactly, and checked to be current here: the answer is the search's
        in this transaction, except that a memory that ranked below the three found and
        now would rank among them (one of them was forgotten or superseded meanwhile) is
        not named. Without ``seen``, or when the log no longer reaches back, it searches."""
        since = tx.vectors_since(seen[1]) if seen is not None and isinstance(tx, VectorLog) else None
        if seen is None or since is None:
            close = self._similar_seqs(tx, tenant, scope, vector)
            rows = tx.rows(close)
            return [rows[seq].id for seq in close]
        scores = tx.similarity(list(dict.fromkeys(seen[0] + since)), vector)
        rows = tx.rows([seq for seq, similarity in scores.items() if similarity >= SIMILAR_MEMORY])
        filters = Filters(tenant=tenant, scopes=[scope], now=self.clock())
        current = [(scores[seq], seq) for seq, row in rows.items() if admits(filters, row)]
        return [rows[seq].id for _, seq in sorted(current, reverse=True)[:SIMILAR_COUNT]]

    def _similar_seqs(self, tx: Reader, tenant: str, scope: str, vector: np.ndarray) -> list[int]:
        """Seqs of the (at most ``SIMILAR_COUNT``) current memories of ``scope`` at least
        ``SIMILAR_MEMORY`` similar, most similar first, by the vector search."""
        filters = Filters(tenant=tenant, scopes=[scope], now=self.clock())
        return [seq for seq, similarity in tx.vector(filters, vector, SIMILAR_COUNT) if similarity >= SIMILAR_MEMORY]

