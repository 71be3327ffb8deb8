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
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import apsw

from . import search, validate
from .db import open_connection, scrub, write_transaction
from .embeddings import Embedder
from .errors import Conflict, InvalidInput, ModelUnavailable, NotFound
from .ids import new_id
from .limits import DEFAULT_SCOPE, IDEMPOTENCY_KEY_MAX_CHARS, REASON_MAX_CHARS, SOURCE_MAX_CHARS
from .records import ForgetOutcome, Hit, Memory, RecallOutcome, RememberOutcome
from .schema import VECTOR_TABLE, check_compatible, migrate, vector_table_sql
from .secrets import refuse_secrets
from .timefmt import now_ms

log = logging.getLogger(__name__)
FUTURE_TOLERANCE_MS = 86_400_000  # observed_at may run ahead of the server clock by a day (clock skew)

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
    ) -> None:
        self.path = Path(path)
        self.allow_secrets = allow_secrets
        self.embedder = embedder
        self.clock = clock
        self._lock = threading.RLock()
        self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="memvault-embed")
        self._conn = open_connection(self.path, check=check_compatible)
        migrate(self._conn)

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
            recorded = self.setting("model_id")
        if recorded is not None and recorded != self.embedder.model_id:
            return (
                f"the database's vectors come from model {recorded} but this server runs "
                f"{self.embedder.model_id}: keyword search only until `memvault reindex` is run"
            )
        return None

    def _embed(self, texts: list[str]) -> tuple[list[bytes] | None, str | None]:
        reason = self.vector_status()
        if reason is not None:
            return None, reason
        assert self.embedder is not None
        return [v.tobytes() for v in self.embedder.embed(texts)], None

    def vectors_writable(self) -> bool:
        """Inside a write transaction: True when vectors of our model may be written.

        Creates the vector table and records the model on first use.
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
        return recorded == self.embedder.model_id

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
        vector: bytes | None,
        supersedes: str | None = None,
        idempotency_key: str | None = None,
    ) -> str:
        memory_id = new_id()
        content_hash = validate.content_hash(content)
        with_vector = vector is not None and self.vectors_writable()
        # The episode context: the latest current memory observed shortly before this one
        # (never the memory being superseded: its stale words must not index the new one).
        context = self._conn.execute(
            "SELECT seq FROM memories WHERE tenant = ? AND scope = ? AND forgotten_at IS NULL"
            " AND superseded_by IS NULL AND id IS NOT ? AND observed_at BETWEEN ? AND ?"
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
            self._conn.execute(
                f"INSERT INTO {VECTOR_TABLE}(rowid, tenant, embedding) VALUES (?, ?, ?)", (seq, tenant, vector)
            )
        return memory_id

    def _replay_or_duplicate(
        self, tenant: str, scope: str, content_hash: str, key: str | None
    ) -> RememberOutcome | None:
        """Inside a write transaction: the outcome when nothing new must be stored.

        A known idempotency key replays its first answer (or is a conflict when
        the content differs). Otherwise identical current content in the scope is
        confirmed, and a new key is recorded against it.
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
                return RememberOutcome(id=memory_id, created=False)
        row = self._conn.execute(
            "SELECT seq, id FROM memories WHERE tenant = ? AND scope = ? AND content_hash = ?"
            " AND superseded_by IS NULL AND forgotten_at IS NULL AND (expires_at IS NULL OR expires_at > ?)",
            (tenant, scope, content_hash, now),
        ).fetchone()
        if row is None:
            return None
        seq, memory_id = row
        self._conn.execute(
            "UPDATE memories SET confirmations = confirmations + 1, last_confirmed_at = ? WHERE seq = ?", (now, seq)
        )
        self._record_key(tenant, key, seq, content_hash)
        return RememberOutcome(id=memory_id, created=False, duplicate_of=memory_id)

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
    ) -> RememberOutcome:
        """Store a memory, or return the existing one it repeats.

        Same ``idempotency_key`` and same content: the first call's id,
        ``created`` False. Content identical (white space folded) to a current
        memory of the same tenant and scope: that id, ``created`` False,
        ``duplicate_of`` set, its ``confirmations`` counted. Otherwise a new row,
        its FTS entry and its vector, in one transaction; without a usable model
        the vector is marked pending and ``degraded`` says why.

        Raises:
            InvalidInput: a field breaks its limits (see ``limits``),
                ``expires_at`` is not later than ``observed_at``, or the content
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
        self._refuse_secrets(content=text, source=fields["source"], tags=fields["tags"], idempotency_key=key)
        content_hash = validate.content_hash(text)
        with self._lock, write_transaction(self._conn):
            existing = self._replay_or_duplicate(tenant, fields["scope"], content_hash, key)
        if existing is not None:
            return existing
        vectors, degraded = self._embed([text])
        with self._lock, write_transaction(self._conn):
            existing = self._replay_or_duplicate(tenant, fields["scope"], content_hash, key)
            if existing is not None:
                return existing
            memory_id = self._insert(
                **fields, content=text, observed_at=observed, expires_at=expires,
                vector=vectors[0] if vectors else None, idempotency_key=key,
            )
        return RememberOutcome(id=memory_id, created=True, degraded=degraded)

    def _refuse_secrets(self, **fields: str | list[str] | None) -> None:
        """Scan every free-text field (content, source, tags, key, reason) unless allowed."""
        if self.allow_secrets:
            return
        for field, value in fields.items():
            for i, text in enumerate(value if isinstance(value, list) else [value]):
                refuse_secrets(f"{field}[{i}]" if isinstance(value, list) else field, text)

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

    def _get_row(self, tenant: str, memory_id: str) -> Memory:
        if not isinstance(memory_id, str) or not memory_id.strip():
            raise InvalidInput("id", "must be a memory id such as the one remember returned")
        row = self._conn.execute(
            f"SELECT {_COLUMNS} FROM memories m WHERE m.id = ? AND m.tenant = ?", (memory_id.strip(), tenant)
        ).fetchone()
        if row is None:
            raise NotFound(memory_id)
        return _memory(row)

    def _current_successor(self, memory: Memory) -> str:
        successor = memory.superseded_by
        while successor is not None:
            row = self._conn.execute("SELECT superseded_by FROM memories WHERE id = ?", (successor,)).fetchone()
            if row is None or row[0] is None:
                return successor
            successor = row[0]
        return memory.id

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
    ) -> tuple[str, str]:
        """Replace memory ``id`` by a new one; returns ``(new id, superseded id)``.

        Fields left None are inherited from the old memory (``observed_at``
        defaults to now). One transaction inserts the new memory and links both
        ways; the old one leaves recall and the boot context but stays in history.

        Raises:
            NotFound: no such (unforgotten) memory in this tenant.
            Conflict: it already has a successor; the message names the current one.
            InvalidInput: as for :meth:`remember`.
        """
        text = validate.content(content)
        reason = validate.short_text("reason", reason, REASON_MAX_CHARS)
        new_kind = validate.kind(kind) if kind is not None else None
        new_tags = validate.tags(tags) if tags is not None else None
        new_importance = validate.importance(importance) if importance is not None else None
        new_source = validate.short_text("source", source, SOURCE_MAX_CHARS)
        self._refuse_secrets(content=text, source=new_source, tags=new_tags, reason=reason)
        vectors, _ = self._embed([text])
        with self._lock, write_transaction(self._conn):
            old = self._get_row(tenant, id)
            if old.forgotten_at is not None:
                raise NotFound(id)
            if old.superseded_by is not None:
                current = self._current_successor(old)
                raise Conflict(
                    f"memory {old.id} was already superseded; its current version is {current}: "
                    f"supersede {current} instead"
                )
            observed, expires = self._times(observed_at, expires_at)
            if expires_at is None and old.expires_at is not None:
                if old.expires_at <= observed:
                    raise InvalidInput(
                        "expires_at", "the inherited expiry is not later than observed_at; pass a new expires_at"
                    )
                expires = old.expires_at
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
                vector=vectors[0] if vectors else None,
                supersedes=old.id,
            )
            self._conn.execute(
                "UPDATE memories SET superseded_by = ?, supersede_reason = ? WHERE id = ?", (new, reason, old.id)
            )
        return new, old.id

    def _chain_ids(self, memory: Memory) -> list[str]:
        """Every id linked to ``memory`` by supersession, oldest first."""
        first = memory
        while first.supersedes is not None:
            first = self._get_row(memory.tenant, first.supersedes)
        ids = [first.id]
        current = first
        while current.superseded_by is not None:
            current = self._get_row(memory.tenant, current.superseded_by)
            ids.append(current.id)
        return ids

    def forget(
        self, *, tenant: str, id: str, reason: str | None = None, include_history: bool = False
    ) -> ForgetOutcome:
        """Delete a memory's content for real, leaving a tombstone (id, time, reason).

        Content, source, tags, duplicate hash, FTS entry and vector are removed in
        one transaction; then the file is scrubbed (``VACUUM`` and a WAL
        checkpoint) so the text is not recoverable from its bytes.
        ``include_history`` forgets the whole supersession chain. Forgetting a
        forgotten memory is not an error (``already_forgotten`` True).

        Raises:
            NotFound: no such memory in this tenant.
        """
        reason = validate.short_text("reason", reason, REASON_MAX_CHARS)
        with self._lock:
            with write_transaction(self._conn):
                memory = self._get_row(tenant, id)
                ids = self._chain_ids(memory) if include_history else [memory.id]
                forgotten: list[str] = []
                now = self.clock()
                for memory_id in ids:
                    row = self._conn.execute(
                        "SELECT seq FROM memories WHERE id = ? AND forgotten_at IS NULL", (memory_id,)
                    ).fetchone()
                    if row is None:
                        continue
                    seq = row[0]
                    if self.has_vector_table():
                        self._conn.execute(f"DELETE FROM {VECTOR_TABLE} WHERE rowid = ?", (seq,))
                    self._conn.execute("DELETE FROM memory_tags WHERE memory_seq = ?", (seq,))
                    self._conn.execute("DELETE FROM idempotency_keys WHERE memory_seq = ?", (seq,))
                    self._conn.execute(
                        "UPDATE memories SET content = NULL, content_hash = NULL, source = NULL,"
                        " supersede_reason = NULL, forgotten_at = ?, forget_reason = ?, vector_pending = 0"
                        " WHERE seq = ?",
                        (now, reason, seq),
                    )
                    forgotten.append(memory_id)
            scrubbed = scrub(self._conn) if forgotten else True
        return ForgetOutcome(
            id=memory.id,
            already_forgotten=memory.forgotten_at is not None,
            forgotten_ids=forgotten,
            scrubbed=scrubbed,
        )

    # -- reading -----------------------------------------------------------------

    def get(self, *, tenant: str, id: str) -> Memory:
        """The memory ``id`` of ``tenant`` (a tombstone if forgotten). Raises NotFound."""
        with self._lock:
            return self._get_row(tenant, id)

    def history(self, *, tenant: str, id: str) -> list[Memory]:
        """The supersession chain through ``id``, oldest first. Raises NotFound."""
        with self.snapshot():
            memory = self._get_row(tenant, id)
            return [self._get_row(tenant, i) for i in self._chain_ids(memory)]

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
        """Hybrid search (FTS5 BM25 + vec0 cosine, fused by RRF) over current memories.

        Only memories of ``tenant`` in ``scopes`` that pass every filter are
        candidates; ``tags`` must all be present; ``since``/``until`` bound
        ``observed_at``. Text is never parsed as FTS5 syntax (see
        ``search.match_expression``). Returns at most ``limit`` hits, or none
        with ``abstained`` True when nothing is relevant enough. Writes nothing.

        Raises:
            InvalidInput: a bad limit, kind, tag or date.
        """
        validate.query(query)
        filters = search.Filters(
            tenant=tenant,
            scopes=list(dict.fromkeys(scopes)),
            now=self.clock(),
            kinds=validate.kinds(kinds),
            tags=validate.tags(tags) or None,
            since=validate.timestamp("since", since),
            until=validate.timestamp("until", until),
            include_history=bool(include_history),
        )
        size = validate.limit(limit)
        found = self._candidates(filters, query, max(search.CANDIDATES_MIN, 4 * size), judge=size)
        if found is None:
            return RecallOutcome(hits=[], abstained=True)
        hits = sorted(
            (
                Hit(
                    memory=found.rows[seq],
                    score=search.adjust(score, found.rows[seq].importance, found.rows[seq].observed_at, filters.now),
                    signals=replace(signals, vector_similarity=found.similarity.get(seq)),
                )
                for seq, (score, signals) in found.fused.items()
            ),
            key=lambda h: h.score,
            reverse=True,
        )
        if found.degraded is not None:
            return RecallOutcome(hits=hits[:size], abstained=not hits, degraded=found.degraded)
        unjudged = [h for h in hits[:size] if h.memory.vector_pending]
        keyword_top = found.similarity.get(found.keyword[0][0], -1.0) if found.keyword else -1.0
        if not unjudged and not search.answers(found.best_similarity, keyword_top, found.exact):
            return RecallOutcome(hits=[], abstained=True)
        hits = [h for h in hits if search.relevant_hit(h.signals.vector_similarity, found.best_similarity)]
        degraded = f"{len(unjudged)} matching memories have no vector yet" if unjudged else None
        return RecallOutcome(hits=hits[:size], abstained=not hits, degraded=degraded)

    def _candidates(
        self, filters: search.Filters, query: str, pool: int, judge: int = 0
    ) -> search.Candidates | None:
        """Keyword and vector candidates for ``query`` from one snapshot, with the
        rows they name and their cosine similarities: every vector candidate's, and
        for keyword-only candidates those of the best keyword match and of the
        first ``judge`` by fused rank (the ones recall may return). None when the
        query has no words at all."""
        match = search.match_expression(query)
        if match is None:
            return None
        # The query is embedded on a worker thread while the keyword search runs.
        degraded = self.vector_status()
        embedding = self._pool.submit(self.embedder.embed, [query]) if self.embedder and degraded is None else None
        with self.snapshot() as conn:  # one snapshot for every read below
            keyword = conn.execute(*search.keyword_sql(filters, match, pool)).fetchall()
            vector: list[tuple[int, float]] = []
            similarity: dict[int, float] = {}
            if embedding is not None and self.has_vector_table():
                query_vector = embedding.result()[0].tobytes()
                sql, params = search.vector_sql(filters, VECTOR_TABLE, pool)
                vector = conn.execute(sql, {**params, "vector": query_vector}).fetchall()
                similarity = {seq: 1.0 - distance for seq, distance in vector}
            fused = search.fuse(keyword, vector)
            if vector:
                ranked = sorted(fused, key=lambda seq: fused[seq][0], reverse=True)
                # twice as many as needed: the importance and freshness adjustment may reorder a few
                wanted = ranked[: 2 * judge] + [seq for seq, _ in keyword[:1]]
                sql, params = search.similarity_sql(VECTOR_TABLE, [s for s in wanted if s not in similarity])
                for seq, distance in conn.execute(sql, {**params, "vector": query_vector}):
                    similarity[seq] = 1.0 - distance
            rows = self._rows_by_seq(list(fused))
            found = search.Candidates(keyword, vector, fused, rows, similarity, degraded, exact=False)
            if keyword and found.best_similarity < search.MIN_SIMILARITY:
                # Only needed when similarity alone would not let recall answer.
                all_words = search.all_words_expression(query) or ""
                found = replace(found, exact=bool(conn.execute(*search.keyword_sql(filters, all_words, 1)).fetchall()))
        return found

    def ranked_lists(self, *, tenant: str, query: str, scopes: list[str], k: int) -> tuple[list[str], list[str]]:
        """The keyword-only (BM25) and vector-only (cosine) top-``k`` ids, for evaluation baselines."""
        filters = search.Filters(tenant=tenant, scopes=scopes, now=self.clock())
        found = self._candidates(filters, validate.query(query), k)
        if found is None:
            return [], []
        return [found.rows[s].id for s, _ in found.keyword], [found.rows[s].id for s, _ in found.vector]

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
        filters = search.Filters(
            tenant=tenant,
            scopes=list(dict.fromkeys(scopes)),
            now=self.clock(),
            kinds=validate.kinds(kinds),
            tags=validate.tags(tags) or None,
            since=validate.timestamp("since", since),
            until=validate.timestamp("until", until),
            include_history=bool(include_history),
        )
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
