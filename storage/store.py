"""The memory service: ``Store`` owns every verb (remember, supersede, forget, the reads,
recall) over one ``backend`` contract, one transaction per operation. Thread-safe; no
model runs inside a write transaction. Background work: ``maintenance.Upkeep``."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Unpack

from . import history, maintenance, validate
from .backend import Backend, NewRow, Reader, Search, Writer, recorded_model
from .embeddings import Embedded, Embedder
from .episodes import Episodes
from .errors import Conflict, InvalidInput, ModelUnavailable, NotFound, StoreError, shown
from .ids import new_id
from .literal import counter, literal_tokens
from .limits import (
    BUSY_TIMEOUT_MS, DEFAULT_SCOPE, IDEMPOTENCY_KEY_MAX_CHARS, IDEMPOTENCY_KEY_TTL_MS, REASON_MAX_CHARS,
    SOURCE_MAX_CHARS,
)
from .location import POSTGRES_INSTALL, is_url, postgres_extra_missing
from .query import EPISODE_GAP_MS, Filters
from .maintenance import Upkeep, Worker
from .records import Memory
from .timefmt import format_ms, now_ms

if TYPE_CHECKING:
    import numpy as np  # annotations only (numpy comes with the backend: docs/hooks.md#speed)

    from . import consolidate
    from . import review as reviews
    from .hits import RecallOutcome
    # imported by the verbs that make them: a hook's capture makes none (docs/hooks.md#speed)
    from .outcomes import ConfirmOutcome, ForgetOutcome, RememberOutcome, SupersedeOutcome
    from .retrieval import FilterArgs, Retriever
    from .runs import RunSummary

SIMILAR_MEMORY = 0.7  # cosine; measured in docs/retrieval-tuning.md#similar-memories
SIMILAR_COUNT = 3  # similar memories named at most
SUBJECT_COUNT = 5  # nearest memories checked for a contradiction (docs/how-memory-works.md#contradictions)
EMBEDDING_THREADS = 4  # new memories embedded at once; more wait for a thread
# Said after why a new memory has no vector: what remember could not do without it, and when it is done.
NOT_COMPARED = ("similar and contradicts were not checked: the memory is compared with its neighbours once its "
                "vector is made, and a contradiction then found waits for review")
# The pending rows of a scope :meth:`Store._unvectored` counts at most; past it, it says "more than".
PENDING_LOOK = 256


def differences(memory: Memory, given: dict[str, object]) -> tuple[str, ...]:
    """Names of the ``given`` fields (None: not given) whose value differs from ``memory``'s."""
    stored = {
        "kind": memory.kind, "tags": sorted(memory.tags), "importance": memory.importance,
        "source": memory.source, "observed_at": memory.observed_at, "expires_at": memory.expires_at,
        "scope": memory.scope,
    }
    return tuple(
        name for name, value in given.items()
        if value is not None and (sorted(value) if name == "tags" else value) != stored[name]  # type: ignore[call-overload]
    )


def _older_first(new_id: str, contradicts: list[tuple[str, str]], newer: list[str]) -> list[tuple[str, str]]:
    """(older id, newer id) in meaning of the new memory ``new_id`` and each it contradicts (``newer``:
    those read as the newer of the two), as review and boot then read the pair."""
    return [(new_id, i) if i in newer else (i, new_id) for i, _ in contradicts]


def _without_private(content: str) -> str:
    """``secrets.without_private`` (imported by a write: a read never needs the credential check)."""
    from .secrets import without_private

    return without_private(content)


def open_backend(db: Path | str, busy_timeout_ms: int = BUSY_TIMEOUT_MS, worker: Worker | None = None) -> Backend:
    """PostgreSQL for a ``postgresql://`` URL, else the SQLite file at that path (its
    checkpoints on ``worker``). Raises StoreError when it cannot be opened or is not memvault's."""
    if is_url(db):
        missing = postgres_extra_missing()
        if missing:
            raise StoreError(f"PostgreSQL needs memvault's postgres extra ({', '.join(missing)} not installed): "
                             f"{POSTGRES_INSTALL}")
        from .postgres import PostgresBackend  # psycopg is imported only for PostgreSQL

        return PostgresBackend(str(db), busy_timeout_ms=busy_timeout_ms)
    from .sqlite import SqliteBackend

    return SqliteBackend(db, busy_timeout_ms=busy_timeout_ms, submit=worker and worker.submit)


NOT_SUPERSEDED = "Nothing was superseded: the old memory is still current"


class Store:
    """The memory service over one database (:func:`open_backend`).

    ``embedder`` None runs keyword-only; ``clock`` returns now in ms; ``allow_secrets``
    stores content holding credentials; ``worker`` runs background jobs (closed with the
    store); ``upkeep`` False starts none (no vector index upkeep, scrub or consolidation: a
    hook leaves them to the servers and commands, docs/hooks.md#speed). Every method takes ``tenant``, the isolation boundary. Times: ISO-8601 in, ms
    on records. Raises InvalidInput, NotFound, Conflict per method; StoreError on open;
    Busy / StorageUnavailable when the database cannot take a write.
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
        upkeep: bool = True,
    ) -> None:
        self.allow_secrets = allow_secrets
        self.embedder = embedder
        self.clock = clock
        self.worker = worker or Worker()
        self.backend = open_backend(db, busy_timeout_ms, self.worker)
        self.upkeep = Upkeep(self)
        self.episodes = Episodes(self)
        try:
            with self.backend.read(None) as tx:
                recorded = recorded_model(tx.settings())
                due = self.upkeep.due(tx)
        except BaseException:  # (damage met in the settings: errors.Damaged) nothing of this store is left open
            self.backend.close()
            raise
        if embedder is not None and recorded is not None:
            embedder.follow(recorded[0])
        # Searching (retrieval, ranking, contradiction) is imported and set up by the first search: a hook
        # that only appends turns never needs it (0.01-0.02 s of imports: docs/hooks.md#speed). The lock:
        # two first searches on two threads would each make one, and one would never be closed.
        self._searching: Retriever | None = None
        self._searching_made = threading.Lock()
        # A new memory is embedded here while its secrets and duplicates are checked.
        self.embedding_pool = ThreadPoolExecutor(max_workers=EMBEDDING_THREADS, thread_name_prefix="memvault-embed-write")
        if upkeep and due:
            self.upkeep.start()
        if upkeep:
            self.upkeep.start_indexing()

    def warm_up(self, stop: Callable[[], bool] = lambda: False) -> None:
        """Load the model, the tokenizer budgets count with (``literal.counter``: the boot context's and
        ``remember``'s), the time parser and the backend's index now (until ``stop()``)."""
        self.vector_status()
        counter()
        self._retriever().time.warm_up()
        maintenance.own(self).warm_up(stop)

    def close(self) -> None:
        """Finish queued work, then release the backend; the store cannot be used afterwards."""
        if self._searching is not None:
            self._searching.close()
        self.worker.close()
        self.embedding_pool.shutdown(wait=True)
        self.backend.close()

    def _retriever(self) -> Retriever:
        """The store's searches (``retrieval.Retriever``), made by the first that needs them."""
        with self._searching_made:
            if self._searching is None:
                from .retrieval import Retriever

                self._searching = Retriever(self.backend, self.embedder, self.model_problem,
                                            self.recorded_model_problem)
            return self._searching

    # -- the embedding model and new rows ------------------------------------------------

    def vector_status(self) -> str | None:
        """None when vectors can be made and searched, else why not."""
        problem = self.model_problem()
        if problem is not None:
            return problem
        with self.backend.read(None) as tx:
            return self.recorded_model_problem(tx)

    def model_problem(self) -> str | None:
        """Why this process cannot embed, else None. Loads the model: call outside transactions."""
        if self.embedder is None:
            return "no embedding model loaded in this process: keyword search only"
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
        """The vectors of ``text``'s windows, or None and ``reason`` (read by the caller)."""
        if reason is not None:
            return None, reason
        assert self.embedder is not None
        return self.embedder.embed_as(self.embedder.windows(text)), None

    @staticmethod
    def writable_vectors(tx: Reader, made: Embedded | None) -> Embedded | None:
        """``made`` when the database records no model or its model, else None (pending)."""
        recorded = recorded_model(tx.settings()) if made is not None else None
        return made if recorded is None or recorded == (made.model_id, len(made.vectors[0])) else None  # type: ignore[union-attr]

    def _stored_vectors(
        self, tx: Writer, made: Embedded | None, degraded: str | None
    ) -> tuple[Embedded | None, str | None]:
        """:meth:`writable_vectors` and why there are none (``degraded`` or the other model, then
        :data:`NOT_COMPARED`)."""
        vectors = self.writable_vectors(tx, made)
        if made is not None and vectors is None:
            degraded = self.recorded_model_problem(tx)
        return vectors, None if vectors is not None else f"{degraded or 'no vector was made'}; {NOT_COMPARED}"

    def _unvectored(self, tx: Reader, tenant: str, scope: str, but: str | None = None) -> str | None:
        """Why ``similar`` and ``contradicts`` are incomplete although the new memory has its vector: current
        memories of ``scope`` (other than ``but``) whose vectors are still pending (stored while the model was
        not ready), which the vector search cannot find; None when there are none. Reads at most
        ``PENDING_LOOK`` of them, chosen in the query (another tenant's or scope's never hide them)."""
        pending = tx.memories(tenant, pending=True, limit=PENDING_LOOK + 2,  # one more, and ``but``
                              filters=Filters(tenant=tenant, scopes=[scope], now=self.clock()))
        mine = [m for m in pending.values() if m.id != but]
        if not mine:
            return None
        many = len(mine) > PENDING_LOOK
        count = f"more than {PENDING_LOOK}" if many else str(len(mine))
        which = f"{count} memor{'y' if count == '1' else 'ies'} of this scope {'has' if count == '1' else 'have'}"
        return (f"{which} no vector yet (stored before the embedding model was ready), so similar and contradicts "
                "did not compare the new memory with them: each is compared with its neighbours once its vector is "
                "made, and a contradiction then found waits for review")

    def episode_context(
        self, tx: Reader, *, tenant: str, scope: str, kind: str, observed_at: int, supersedes: str | None
    ) -> int | None:
        """The seq of the latest current episode of the scope observed at most
        ``EPISODE_GAP_MS`` before a new episode (not the one it supersedes), else None."""
        if kind != "episode":
            return None
        # ``now`` 0: an expired episode still was part of the conversation.
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

    def _refuse_secrets(self, undone: str = "", **fields: str | list[str] | None) -> None:
        """Scan the free-text fields as sent (before normalising), unless allowed; ``undone``
        says what the refused call did not do (a forget refused for its reason forgets nothing)."""
        if self.allow_secrets:
            return
        from .secrets import refuse_secrets, scanned_fields  # (a read never needs the credential check)

        try:
            refuse_secrets(scanned_fields(fields))
        except InvalidInput as exc:
            if not undone:
                raise
            raise InvalidInput(exc.field, f"{exc.reason}. {undone}") from None

    # -- remember ------------------------------------------------------------------------

    def _replay_or_duplicate(
        self, tx: Writer, tenant: str, scope: str, content_hash: str, key: str | None, given: dict[str, object]
    ) -> RememberOutcome | None:
        """Inside a write: the outcome when nothing new is stored: a live idempotency key
        replays (Conflict for other content), else identical current content is confirmed."""
        from .outcomes import RememberOutcome

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
        said = given.get("observed_at")  # a restatement dated in the past confirms then, not now
        tx.confirm(memory_id, min(now, said) if isinstance(said, int) else now, key)
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
        """Store a memory, or return the one it repeats (see :class:`RememberOutcome`).

        A repeated idempotency key, or content identical to a current memory of the scope
        (then confirmed), returns that id with ``created`` False. ``similar``: current
        memories of the scope with cosine ≥ ``SIMILAR_MEMORY``; with ``check_similar``
        and any, nothing is stored. ``contradicts``: see :meth:`_similar`. Without a usable
        model the vector is left pending.

        Raises:
            InvalidInput: a field breaks its limits or holds a credential.
            Conflict: the idempotency key was used for other content.
        """
        from dataclasses import replace

        from .outcomes import RememberOutcome

        text, private = validate.public_content(content)
        source, private_source = validate.public(source)
        said = (validate.PRIVATE_REMOVED,) if private or private_source else ()
        fields = dict(
            tenant=tenant,
            scope=validate.scope(scope, DEFAULT_SCOPE),
            kind=validate.kind(kind),
            tags=validate.tags(tags),
            importance=validate.importance(importance),
            source=validate.short_text("source", source, SOURCE_MAX_CHARS),
        )
        key = validate.short_text("idempotency_key", idempotency_key, IDEMPOTENCY_KEY_MAX_CHARS)
        key = key and validate.no_private("idempotency_key", key, "a key is stored and matched whole")
        if idempotency_key is not None and key is None:
            raise validate.empty("idempotency_key", idempotency_key, IDEMPOTENCY_KEY_MAX_CHARS, ", or left out")
        observed, expires = validate.times(observed_at, expires_at, self.clock())
        given = {
            "kind": kind and fields["kind"], "tags": None if tags is None else fields["tags"],
            "importance": importance and fields["importance"], "source": fields["source"],
            "observed_at": observed_at and observed, "expires_at": expires,
            "scope": fields["scope"],  # a key's replay names the memory of another scope
        }
        checked_scope, content_hash = str(fields["scope"]), validate.content_hash(text)
        # Embedded while the checks run, never inside the write; cancelled, unless it began,
        # for a refused or repeated memory.
        embedding = self.embedding_pool.submit(self.embed_memory, text, self.model_problem())
        try:
            self._refuse_secrets(  # the content as sent, but its private spans: they are never stored
                content=_without_private(content) if private else content, tags=tags, source=source,
                idempotency_key=idempotency_key,  # (the scope: refused by validate.scope above)
            )
            tokens = literal_tokens([text])[0]
            repeated = self._seen_repeat(tenant, checked_scope, content_hash, key, given)
            if repeated is not None:
                return replace(repeated, redacted=said)
            made, degraded = embedding.result()
            with self.backend.write(tenant) as tx:
                existing = self._replay_or_duplicate(tx, tenant, checked_scope, content_hash, key, given)
                if existing is not None:
                    return replace(existing, redacted=said)
                due = self.upkeep.due(tx)
                vectors, degraded = self._stored_vectors(tx, made, degraded)
                degraded = degraded or self._unvectored(tx, tenant, checked_scope)
                similar, contradicts, newer = (
                    self._similar(tx, tenant, checked_scope, vectors.vectors[0], text, observed,
                                  str(fields["kind"])) if vectors
                    else ([], [], [])
                )
                named, elsewhere = (self._not_outdated(tx, tenant, checked_scope, contradicts, newer)
                                    if contradicts else ([], ()))
                if check_similar and similar:
                    return RememberOutcome(
                        id=similar[0], created=False, degraded=degraded, similar=tuple(similar),
                        contradicts=tuple(named), other_scopes=elsewhere, newer=tuple(newer), redacted=said,
                    )
                row = self._new_row(
                    tx, **fields, content=text, observed_at=observed,  # type: ignore[arg-type]
                    expires_at=expires, vectors=vectors, idempotency_key=key,
                    tokens=tokens,  # type: ignore[arg-type]
                )
                # "Work" beside "work" splits what recall reads: said, not refused, of a new scope
                now, alike = self.clock(), None
                if not tx.counts(Filters(tenant=tenant, scopes=[checked_scope], now=now)):
                    alike = validate.lookalike(checked_scope, {s for s, _ in tx.counts(
                        Filters(tenant=tenant, scopes=None, now=now))})
                tx.insert(row)
                if contradicts and self.upkeep.keeps_pairs:
                    from . import consolidate

                    consolidate.keep(tx, tenant, _older_first(row.id, contradicts, newer), now)
        finally:
            embedding.cancel()
        if due:
            self.upkeep.start()
        return RememberOutcome(
            id=row.id, created=True, degraded=degraded, similar=tuple(similar), contradicts=tuple(named),
            other_scopes=elsewhere, newer=tuple(newer), redacted=said, lookalike_scope=alike,
        )

    def _seen_repeat(
        self, tenant: str, scope: str, content_hash: str, key: str | None, given: dict[str, object]
    ) -> RememberOutcome | None:
        """The outcome of a repeat a read already sees (answered in a write), else None."""
        with self.backend.read(tenant) as tx:
            now = self.clock()
            repeats = tx.repeats(tenant, scope, content_hash, now, key=key, keys_since=now - IDEMPOTENCY_KEY_TTL_MS)
            seen = repeats.keyed is not None or repeats.same is not None
        if not seen:
            return None
        with self.backend.write(tenant) as tx:
            return self._replay_or_duplicate(tx, tenant, scope, content_hash, key, given)

    def _similar(
        self, tx: Reader, tenant: str, scope: str, vector: np.ndarray, text: str, observed: int, kind: str
    ) -> tuple[list[str], list[tuple[str, str]], list[str]]:
        """Ids of up to ``SIMILAR_COUNT`` current memories of ``scope`` ≥ ``SIMILAR_MEMORY``;
        (id, reason) of those among the ``SUBJECT_COUNT`` nearest and best keyword matches
        (``candidates.worded_near``) of ``scope`` and ``global`` (``change_pairs``) ≥ ``ranking.SAME_SUBJECT``
        whose words disagree with ``text`` observed at ``observed`` (``contradiction.disagreement``,
        the one observed earlier as the older unless the other restates what it changed:
        ``contradiction.newer_in_meaning``), and the ids of those newer than it; all of a
        kind that states how things are (``strength.REVIEWED_KINDS``), as consolidation compares them."""
        from . import contradiction
        from .candidates import worded_near
        from .change_pairs import compared_scopes, kept_across
        from .ranking import SAME_SUBJECT
        from .strength import REVIEWED_KINDS

        filters = Filters(tenant=tenant, scopes=compared_scopes(scope), now=self.clock())
        found = tx.search(Search(filters, k=max(SIMILAR_COUNT, SUBJECT_COUNT), vector=vector)).vector
        if kind in REVIEWED_KINDS:
            found = worded_near(tx, filters, text, vector, SUBJECT_COUNT, found)
        near = [(seq, similarity) for seq, similarity in found if similarity >= contradiction.least_cosine(SAME_SUBJECT)]
        rows = tx.memories(tenant, seqs=[seq for seq, _ in near])
        similar = [rows[seq].id for seq, similarity in near
                   if similarity >= SIMILAR_MEMORY and rows[seq].scope == scope][:SIMILAR_COUNT]
        contradicts, later = [], []
        for seq, similarity in near if kind in REVIEWED_KINDS else []:
            if rows[seq].kind not in REVIEWED_KINDS:
                continue
            stored = rows[seq].content or ""
            if not contradiction.may_contradict(stored, text, similarity, SAME_SUBJECT):
                continue  # under every cosine gate, either way round: no words read to order them
            after = contradiction.newer_in_meaning(stored, text, rows[seq].observed_at > observed)
            if not kept_across(*((scope, rows[seq].scope) if after else (rows[seq].scope, scope))):
                continue
            reason = contradiction.contradicts(*((text, stored) if after else (stored, text)), similarity, SAME_SUBJECT)
            if reason is not None:
                contradicts.append((rows[seq].id, reason))
                later += [rows[seq].id] if after else []
        return similar, contradicts, later

    def _not_outdated(
        self, tx: Reader, tenant: str, scope: str, contradicts: list[tuple[str, str]], later: list[str]
    ) -> tuple[list[tuple[str, str]], tuple[tuple[str, str], ...]]:
        """``contradicts`` but the older ones another memory already outdates (a kept pair waits), or the
        latest observed of them when that is all, as ``remember`` names them (all are kept for review): a fact
        changed 62 times named ~7 of its versions on each change; and (id, scope) of those named whose scope
        is not ``scope`` (``global``), read in the same transaction."""
        from .change_pairs import compared_scopes
        from .review import waiting_newer

        rows = {m.id: m for m in tx.memories(tenant, ids=[i for i, _ in contradicts]).values()}
        olders = {i: m for i, m in rows.items() if i not in later}
        outdated = waiting_newer(tx, tenant, olders, self.clock(), compared_scopes(scope)) if olders else {}
        kept = [(i, reason) for i, reason in contradicts if i not in outdated]
        if not kept:
            latest = max(olders.values(), key=lambda m: (m.observed_at, m.id)).id
            kept = [(i, reason) for i, reason in contradicts if i == latest]
        return kept, tuple((i, rows[i].scope) for i, _ in kept if rows[i].scope != scope)

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
        """Replace the current memory ``id`` by a new one, linked both ways; fields left None
        are inherited (``observed_at``: now). The content may equal the old one's only when
        another field changes, and no other current memory's of the scope.

        Raises:
            NotFound: no such memory in this tenant.
            Conflict: it has a successor, was forgotten or expired, or the content repeats.
            InvalidInput: as for :meth:`remember`, or an inherited expiry already past.
        """
        from .outcomes import SupersedeOutcome

        text, private = validate.public_content(content)
        (reason, private_reason), (source, private_source) = validate.public(reason), validate.public(source)
        said = (validate.PRIVATE_REMOVED,) if private or private_reason or private_source else ()
        reason = validate.short_text("reason", reason, REASON_MAX_CHARS)
        new_kind = validate.kind(kind) if kind is not None else None
        new_tags = validate.tags(tags) if tags is not None else None
        new_importance = validate.importance(importance) if importance is not None else None
        new_source = validate.short_text("source", source, SOURCE_MAX_CHARS)
        self._refuse_secrets(NOT_SUPERSEDED, content=_without_private(content) if private else content, source=source,
                             tags=tags, reason=reason)
        content_hash = validate.content_hash(text)
        made, degraded = self.embed_memory(text, self.model_problem())
        tokens = literal_tokens([text])[0]  # counted before the write lock, as the vectors are
        with self.backend.write(tenant) as tx:
            now = self.clock()
            # Read under the row's lock (``backend.Writer``): a concurrent change waits.
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
                        "content", f"memory {same} of this scope already holds this content: supersede "
                        f"{old.id} with `by` {same} to mark it replaced by that memory"
                    )
            vectors, degraded = self._stored_vectors(tx, made, degraded)
            degraded = degraded or self._unvectored(tx, tenant, old.scope, but=old.id)
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
            # As remember reads a new memory; the memory replaced is no longer current, so it is no
            # contradiction.
            _, found, newer = (self._similar(tx, tenant, old.scope, vectors.vectors[0], text, observed, row.kind)
                               if vectors else ([], [], []))
            contradicts = [(i, reason) for i, reason in found if i != old.id]
            named, elsewhere = self._not_outdated(tx, tenant, old.scope, contradicts, newer) if contradicts else ([], ())
            tx.insert(row)
            if contradicts and self.upkeep.keeps_pairs:
                from . import consolidate

                consolidate.keep(tx, tenant, _older_first(row.id, contradicts, newer), self.clock())
            due = self.upkeep.due(tx)
        if due:
            self.upkeep.start()
        return SupersedeOutcome(id=row.id, superseded_id=old.id, degraded=degraded, redacted=said,
                                contradicts=tuple(named), other_scopes=elsewhere,
                                newer=tuple(i for i in newer if i != old.id))

    def supersede_by(self, *, tenant: str, id: str, by: str, reason: str | None = None) -> SupersedeOutcome:
        """Mark the current memory ``id`` superseded by ``by``, a current memory of the same scope
        already stored (e.g. the newer of a contradicting pair), in one transaction; nothing new is
        written. When ``by`` has earlier versions, ``id`` joins that history where its observed time
        falls (:meth:`_insert_version`).

        Raises:
            NotFound: either memory is not in this tenant.
            Conflict: ``id`` cannot be superseded (as for :meth:`supersede`), or ``by`` ended or was
                superseded, or ``by`` has earlier versions and ``id`` has its own or is not older.
            InvalidInput: ``by`` names ``id`` itself or another scope; the reason is too long or
                holds a credential.
        """
        from .outcomes import SupersedeOutcome

        reason, private = validate.public(reason)
        self._refuse_secrets(NOT_SUPERSEDED, reason=reason)
        reason = validate.short_text("reason", reason, REASON_MAX_CHARS)
        with self.backend.write(tenant) as tx:
            now = self.clock()
            old = history.resolve(tx, tenant, id)
            history.check_supersedable(tx, old, now)
            try:
                new = history.resolve(tx, tenant, by)
            except NotFound:
                raise NotFound(by, "by") from None
            except InvalidInput as exc:  # the same words, naming `by`
                raise InvalidInput("by", exc.reason) from None
            made = [m.id for m in (old, new) if history.is_digest(m) or history.is_session_digest(m)]
            if made:
                raise Conflict("by", f"memory {made[0]} is a digest memvault writes (of a week's episodes or of a "
                                     "session), not a version of another memory: supersede it with new content")
            if new.id == old.id:
                raise InvalidInput("by", f"names memory {old.id} itself: give the id of the memory that replaces it")
            if new.scope != old.scope:
                raise InvalidInput("by", f"names a memory of scope {new.scope!r}, and memory {old.id} is of scope "
                                         f"{old.scope!r}: a memory is replaced within its scope")
            gone = history.ended(new, now)
            if gone is not None:
                raise Conflict("by", f"memory {new.id} {gone}: it cannot replace another")
            if new.superseded_by is not None:
                raise Conflict("by", f"memory {new.id} was superseded itself: name its current version "
                                     f"{history.newest(tx, new).id}")
            if new.supersedes is None:
                tx.link(old.id, new.id, reason)
            else:
                self._insert_version(tx, old, new, reason)
        return SupersedeOutcome(id=new.id, superseded_id=old.id, stored=False,
                                redacted=(validate.PRIVATE_REMOVED,) if private else ())

    @staticmethod
    def _insert_version(tx: Writer, old: Memory, new: Memory, reason: str | None) -> None:
        """Put ``old``, a memory with no history, into the history ``new`` ends, where its observed time
        falls (a review's pairs of three versions of one fact: Tuesday, Thursday, Friday): the versions
        stay in time order, one chain. Raises Conflict when ``old`` has versions of its own or is not
        older than ``new``."""
        if old.supersedes is not None:
            raise Conflict("by", f"memory {new.id} already replaces memory {new.supersedes}, and memory {old.id} "
                                 "has earlier versions of its own: two histories are not merged; supersede "
                                 f"{old.id} with new content instead")
        if old.observed_at >= new.observed_at:
            raise Conflict("by", f"memory {new.id} already replaces memory {new.supersedes} and was observed "
                                 f"before memory {old.id}: supersede {new.id} with `by` {old.id} instead")
        after = new  # the version that will supersede ``old``
        before = history.row(tx, new.tenant, new.supersedes)  # type: ignore[arg-type]
        seen = {new.id}
        while before is not None and before.observed_at > old.observed_at and before.id not in seen:
            seen.add(before.id)
            after = before
            before = None if before.supersedes is None else history.row(tx, new.tenant, before.supersedes)
        if before is not None:
            tx.link(before.id, old.id, history.given_for(before.supersede_reason, after.id))
        tx.link(old.id, after.id, reason if after.id == new.id else history.given_for(reason, new.id))

    def forget(
        self, *, tenant: str, id: str, reason: str | None = None, include_history: bool = False
    ) -> ForgetOutcome:
        """Erase a memory's content (and with ``include_history`` its whole chain), leaving
        a tombstone, in one transaction that records a scrub, then run on the worker (see
        :class:`ForgetOutcome` for ``scrubbed``). Forgetting again is no error.

        Raises:
            NotFound: no such memory in this tenant.
            InvalidInput: the reason is too long or contains a credential.
        """
        from .outcomes import ForgetOutcome

        reason, private = validate.public(reason)
        self._refuse_secrets("The memory was NOT forgotten: give a reason without the credential (say what it "
                             "was, e.g. 'it held a GitHub token') and forget again", reason=reason)
        reason = validate.short_text("reason", reason, REASON_MAX_CHARS)
        with self.backend.write(tenant) as tx:
            # Read under the rows' locks: a concurrent supersede is seen here or refused there.
            memory = history.resolve(tx, tenant, id)
            now = self.clock()
            chain = [memory]
            if include_history:  # a digest's history: the episodes it compacts
                chain = history.chain(tx, memory) + (history.digest_sources(tx, memory, now)
                                                     if history.is_digest(memory) else [])
            sessions = sorted({history.session_of(m) or "" for m in chain
                               if m.forgotten_at is None and history.is_session_digest(m)})
            forgotten, restored = history.erase(tx, chain, now, reason)
        scrubbed = self.upkeep.start_scrub() and self.backend.kind == "sqlite"
        return ForgetOutcome(
            id=memory.id,
            already_forgotten=memory.forgotten_at is not None,
            forgotten_ids=forgotten,
            restored_ids=restored,
            scrubbed=scrubbed,
            sessions_kept=sessions,
            redacted=(validate.PRIVATE_REMOVED,) if private else (),
        )

    # -- confirmations and runs ----------------------------------------------------------

    def confirm(
        self, *, tenant: str, id: str, outcome: str | None = None, note: str | None = None,
        beside: str | None = None,
    ) -> ConfirmOutcome:
        """Record that the current memory ``id`` still holds (one more confirmation: its strength
        rises), or a run of a procedure: ``outcome`` "success" (a run and a confirmation) or
        "failure" (a run with ``note``, the failure mode; no confirmation). With ``beside``, the id of
        another current memory: the two both hold, so that pair is no contradiction
        (``Writer.dismiss``); a confirmation without it dismisses no pair. One transaction.

        Raises:
            NotFound: no such memory in this tenant (``id`` or ``beside``).
            Conflict: it (or ``beside``) was forgotten, expired or superseded.
            InvalidInput: another outcome, an outcome for a memory that is not a procedure, or a
                note without a failure, too long or holding a credential; ``beside`` with an outcome,
                or naming ``id`` itself.
        """
        from .outcomes import ConfirmOutcome

        from .runs import OUTCOMES, summarize

        if outcome is not None and outcome not in OUTCOMES:
            raise validate.not_one_of("outcome", outcome, OUTCOMES)  # the words of every path
        note, private = validate.public(note)
        self._refuse_secrets("Nothing was recorded: no confirmation, no run", note=note)
        note = validate.short_text("note", note, REASON_MAX_CHARS)
        if note is not None and outcome != "failure":
            raise InvalidInput("note", "is the failure mode of a run: give it with `outcome` failure")
        if beside is not None and outcome is not None:
            raise InvalidInput("beside", "names a contradicting memory that holds beside this one: give it "
                                         "without `outcome`")
        if beside is not None:  # a malformed id is refused before either is looked up
            beside = validate.id_text("beside", beside)
        with self.backend.write(tenant) as tx:
            memory = history.resolve(tx, tenant, id)  # read under the row's lock, as supersede does
            now = self.clock()
            gone = history.ended(memory, now)
            if gone is not None:
                raise Conflict("id", f"memory {memory.id} {gone}, so it cannot be confirmed: remember it "
                                     "again")
            other = None if beside is None else self._beside(tx, tenant, memory, beside, now)
            digest = history.compacted_into(memory)
            if digest is not None:
                raise Conflict("id", f"memory {memory.id} is an old episode compacted into the digest {digest}: "
                                     "an episode is not confirmed")
            if memory.superseded_by is not None:
                last = history.newest(tx, memory)
                raise Conflict("id", f"memory {memory.id} was superseded; its current version is {last.id}: "
                                     f"confirm {last.id} if it still holds")
            if outcome is not None and memory.kind != "procedure":
                raise InvalidInput("outcome", f"records a run of a procedure, and memory {memory.id} is of kind "
                                              f"{memory.kind}: confirm it without an outcome")
            if outcome != "failure":
                tx.confirm(memory.id, now)
            paired = other is not None and self._paired(tx, tenant, memory, other)
            if other is not None:
                tx.dismiss(tenant, memory.id, other.id, now)
            if outcome is not None:
                tx.add_run(memory.id, now, outcome, note)
            runs = tx.runs(tenant, [memory.id]).get(memory.id, [])
            stored = history.row(tx, tenant, memory.id)
        return ConfirmOutcome(stored, summarize(runs) if memory.kind == "procedure" else None, outcome,
                              (validate.PRIVATE_REMOVED,) if private else (), other and other.id, paired)

    @staticmethod
    def _paired(tx: Writer, tenant: str, memory: Memory, other: Memory) -> bool:
        """Whether ``memory`` and ``other`` were a contradicting pair before ``confirm`` dismissed them: kept for
        review either way round, or their words disagree (``contradiction.disagreement``, the older first), as
        recall would mark them."""
        from .contradiction import disagreement

        kept = tx.review_pairs(tenant, older=sorted({memory.id, other.id}))
        if (memory.id, other.id) in kept or (other.id, memory.id) in kept:
            return True
        older, newer = sorted((memory, other), key=lambda m: m.observed_at)
        return disagreement(older.content or "", newer.content or "") is not None

    @staticmethod
    def _beside(tx: Writer, tenant: str, memory: Memory, beside: str, now: int) -> Memory:
        """The current memory ``beside`` names (an id or unique prefix), read under its row's lock, for
        ``confirm``. Raises NotFound, Conflict (forgotten, expired or superseded), InvalidInput (``memory``
        itself)."""
        other = history.resolve(tx, tenant, beside, "beside")
        if other.id == memory.id:
            raise InvalidInput("beside", "names the memory confirmed: give the id of the memory it contradicts")
        gone = history.ended(other, now)
        if gone is not None or other.superseded_by is not None:
            raise Conflict("beside", f"memory {other.id} {gone or 'was superseded'}: only a current memory "
                                     "contradicts one")
        return other

    def run_summaries(self, *, tenant: str, ids: list[str]) -> dict[str, RunSummary]:
        """The :class:`runs.RunSummary` of each of ``ids`` that has runs."""
        from .runs import summarize

        with self.backend.read(tenant) as tx:
            return {memory_id: summarize(runs) for memory_id, runs in tx.runs(tenant, ids).items()}

    def failing_procedures(self, tenant: str, scopes: list[str]) -> list[Memory]:
        """The current procedures of ``scopes`` whose last runs failed (``RunSummary.flagged``),
        among the ``review.DECAYED_READ`` most important (a bounded read: boot asks for it)."""
        from .review import DECAYED_READ
        from .runs import summarize

        filters = Filters(tenant=tenant, scopes=list(dict.fromkeys(scopes)), now=self.clock(),
                          kinds=["procedure"])
        with self.backend.read(tenant) as tx:
            procedures = list(tx.memories(tenant, filters=filters, order="importance",
                                          limit=DECAYED_READ).values())
            runs = tx.runs(tenant, [m.id for m in procedures])
        return [m for m in procedures if m.id in runs and summarize(runs[m.id]).flagged]

    # -- reads ---------------------------------------------------------------------------

    def get(self, *, tenant: str, id: str) -> Memory:
        """The memory ``id`` (or a unique prefix of 8+ characters); forgotten or expired: a
        tombstone. Raises NotFound, or InvalidInput for an ambiguous prefix."""
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
        """Hybrid search (keyword + vector, fused in ``ranking``) over the memories of
        ``scopes`` passing the filters: at most ``limit`` hits, or none and ``abstained``.
        Raises InvalidInput for a bad limit, kind, tag or date."""
        query = validate.nfc(validate.query(query))
        from .retrieval import checked_filters

        checked = checked_filters(tenant, scopes, self.clock(), **filters)
        return self._retriever().recall(checked, query, validate.limit(limit))

    def ranked_lists(self, *, tenant: str, query: str, scopes: list[str], k: int) -> tuple[list[str], list[str]]:
        """The keyword-only and vector-only (cosine) top-``k`` ids, for evaluation baselines."""
        filters = Filters(tenant=tenant, scopes=scopes, now=self.clock())
        ranked = self._retriever().ranking(filters, validate.query(query), k, rank=False)
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
        one_more: bool = False,
        **filters: Unpack[FilterArgs],
    ) -> list[Memory]:
        """The memories passing the filters, newest observed first: at most ``limit`` after
        skipping ``offset``, or after the memory ``after`` (a keyset page); ``one_more``: and the
        memory after them, if any (whether a next page exists, told by the same statement).

        Raises:
            InvalidInput: a bad limit, offset, filter; ``after`` with an offset or unknown.
        """
        from .retrieval import checked_filters

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
            return list(tx.memories(tenant, filters=checked, limit=size + one_more, offset=skip, after_key=key).values())

    def count_memories(self, *, tenant: str, scopes: list[str], **filters: Unpack[FilterArgs]) -> int:
        """How many memories :meth:`list_memories` has to show (InvalidInput: a bad filter)."""
        from .retrieval import checked_filters

        checked = checked_filters(tenant, scopes, self.clock(), **filters)
        with self.backend.read(tenant) as tx:
            return sum(tx.counts(checked).values())

    def scope_counts(self, *, tenant: str) -> dict[str, int]:
        """How many current memories each scope of ``tenant`` holds, largest first."""
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
        """Up to ``max_rows`` current memories of ``kinds`` (newest first, or most important
        first) for one boot section, and how many there are in all."""
        filters = Filters(
            tenant=tenant, scopes=list(dict.fromkeys(scopes)), now=self.clock(), kinds=validate.kinds(kinds)
        )
        with self.backend.read(tenant) as tx:
            total = sum(tx.counts(filters).values())  # kept counts: no count over the memories
            order = "observed" if newest_first else "importance"
            return list(tx.memories(tenant, filters=filters, order=order, limit=max_rows).values()), total

    def review(self, tenant: str, scopes: list[str], reasons: int | None = None,
               pairs: int | None = None) -> reviews.Review:
        """What waits for the agent's judgement in ``scopes``: contradicting pairs (among the first
        ``pairs`` kept; None: all; the reason of the first ``reasons``; None: all), decayed memories,
        failing procedures (see ``review.review``)."""
        from . import review

        return review.review(self, tenant, list(dict.fromkeys(scopes)), reasons, pairs)

    def outdating(self, tenant: str, scopes: list[str], memories: list[Memory]) -> dict[str, str]:
        """For each of ``memories`` (current, of ``scopes``) that is the older of a kept pair waiting for
        review (as :meth:`review` reads them), the id of its newest newer memory: {older id: newer id}.
        By index, by those ids only (``review.kept_newer``, as recall marks its hits)."""
        from .review import kept_newer

        with self.backend.read(tenant) as tx:
            newer = kept_newer(tx, tenant, {m.id: m for m in memories}, self.clock(), list(dict.fromkeys(scopes)))
        return {older: memory.id for older, (_, memory) in newer.items()}
