"""The ``Reader`` and ``Writer`` of one PostgreSQL transaction (``storage.backend``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
import psycopg
from psycopg import sql

from ..backend import (
    KEPT_REASON, MODEL_DIM, MODEL_ID, SCRUB_DUE, TENANTS_HELD, Found, NewRow, Order, Repeats, Search, TurnRow,
    compaction_reason, recorded_model,
)
from ..errors import Busy, Conflict, shown
from ..ids import new_id
from ..query import Filters
from ..records import ApiKey, Memory, Session, Turn
from ..runs import Run
from ..turn_search import TurnHit
from . import schema
from . import sessions as session_sql
from .sql import (
    MEMORY_COLUMNS, MEMORY_FIELDS, RUNS_SQL, TS_CONFIG, KeywordFound, TextStats, holds_sql,
    filter_sql, index_words, keyword_sql, listing_sql, pairs_sql, similarity_sql,
    vector_sql, window_sql,
)

# The keyword search's bound, as SQLite's (storage/sqlite/tx.py; chosen in
# docs/storage-tuning.md#bounding-the-keyword-search).
KEYWORD_RANKED = 3_000
KEYWORD_NEWEST = 1_000  # memories, the tenant's newest: the common chunks' matches ranked are among them
EF_SEARCH_MIN = 40  # pgvector's default hnsw.ef_search; raised to k for larger candidate pools
_ORDER = {"observed": "m.observed_at DESC, m.seq DESC", "importance": "m.importance DESC, m.observed_at DESC, m.seq DESC",
          "seq": "m.seq"}
_API_COLUMNS = "id, tenant, scope, name, read_only, created_at, expires_at, revoked_at"
_TS_VECTOR = f"to_tsvector('{TS_CONFIG}', %s)"
_VECTOR_INSERT = "INSERT INTO memory_vectors(memory_seq, tenant, embedding)"  # then its rows


def _memory(row: tuple) -> Memory:
    """A :class:`Memory` from a row of ``MEMORY_COLUMNS``, field by field."""
    values = dict(zip(MEMORY_FIELDS, row, strict=True))
    return Memory(**{**values, "tags": tuple(values["tags"])})


def put_settings(conn: psycopg.Connection, values: dict[str, str]) -> None:
    """Set each of ``values`` in the ``settings`` table."""
    conn.cursor().executemany("INSERT INTO settings(key, value) VALUES (%s, %s)"
                              " ON CONFLICT (key) DO UPDATE SET value = excluded.value", list(values.items()))


def _lock_key(*parts: str) -> str:
    return "\x1f".join(parts)


class PgReader:
    """One read transaction on ``conn``, bound to ``tenant`` (None: every tenant)."""

    _writes = False  # a writer may see its own uncommitted changes: it remembers nothing it read
    _locked = ""  # a writer locks the rows it reads by id or prefix (``backend.Writer``)

    def __init__(self, conn: psycopg.Connection, tenant: str | None, seen: set[str] | None = None) -> None:
        self.conn = conn
        self.tenant = tenant
        # Shared by the backend's readers: "vectors" once a committed state showed the vector tables.
        self._seen = set() if seen is None else seen
        self._vectors = False
        # The last keyword query's filters and statistics: later questions answer from them.
        self._learnt: tuple[Filters, KeywordFound] | None = None

    def _all(self, query: str | sql.Composable, params: Any = None) -> list[tuple]:
        return self.conn.execute(query, params).fetchall()  # type: ignore[arg-type]

    def _one(self, query: str | sql.Composable, params: Any = None) -> tuple | None:
        return self.conn.execute(query, params).fetchone()  # type: ignore[arg-type]

    def _own(self, column: str = "tenant") -> tuple[str, dict[str, object]]:
        """`` AND <column> = %(own)s`` when bound to a tenant (else nothing), with its parameter."""
        if self.tenant is None:
            return "", {}
        return f" AND {column} = %(own)s", {"own": self.tenant}

    def has_vectors(self) -> bool:
        """Whether the vector tables exist (a model has been claimed)."""
        if "vectors" in self._seen or self._vectors:
            return True
        self._vectors = bool(self._one("SELECT to_regclass('memory_vectors') IS NOT NULL")[0])  # type: ignore[index]
        if self._vectors and not self._writes:
            self._seen.add("vectors")
        return self._vectors

    # -- retrieval candidates ----------------------------------------------------------
    def search(self, query: Search) -> Found:
        """``backend.Reader.search``; the keyword statement also brings statistics and terms."""
        filters = replace(query.filters, include_history=True) if query.history else query.filters
        pairs = self._pairs(query.pairs) if query.pairs else {}
        if query.vector is None and not (query.words or query.k or query.terms or query.exists or query.seqs):
            return Found(pairs=pairs)  # cosines among memories alone (ranking's same-subject checks)
        keyword = self._keyword(filters, query.words, query.k) if query.words and query.k > 0 else []
        vector = self._vector_of(query.vector) if isinstance(query.vector, int) else query.vector
        lexemes = self._lexemes(query.terms) if query.terms else {}
        documents, counts = self._term_counts(sorted({t for ts in lexemes.values() for t in ts})) \
            if lexemes else (0, {})
        seqs = list(dict.fromkeys([seq for seq, _, _ in keyword] + query.seqs))
        nearest, similarity = self._vector(filters, vector, query.k, query.seqs) if vector is not None else ([], {})
        return Found(
            keyword=keyword,
            vector=nearest,
            similarity=similarity,
            terms=self._document_terms(seqs) if seqs else {},
            lexemes=lexemes, documents=documents, counts=counts,
            exists=[self._contains(query.filters, chunks) for chunks in query.exists],
            pairs=pairs,
        )

    def _vector_of(self, seq: int) -> np.ndarray | None:
        """Memory ``seq``'s own (window 0) vector, None without one."""
        if not self.has_vectors():
            return None
        own, params = self._own()
        row = self._one(f"SELECT embedding FROM memory_vectors WHERE memory_seq = %(seq)s{own}", {"seq": seq, **params})
        return None if row is None else np.asarray(row[0].to_numpy(), dtype=np.float32)

    def _keyword(self, filters: Filters, words: list[list[str]], k: int) -> list[tuple[int, float, float]]:
        """Top-``k`` keyword matches of ``words``: when more than ``KEYWORD_RANKED`` memories
        may match, ranked as on SQLite (the rarest phrases' matches, the others' among those and
        the tenant's ``KEYWORD_NEWEST`` newest memories, decided in the same statement), every
        match when the filter passes fewer than ``k`` of those.
        More: docs/storage-tuning.md#bounding-the-keyword-search."""
        built = keyword_sql(filters, words, k, KEYWORD_RANKED, KEYWORD_NEWEST)
        if built is None:
            return []
        found = built.split(self._all(built.sql, built.params))
        if found.bounded and len(found.candidates) < k:
            built = keyword_sql(filters, words, k)
            found = built.split(self._all(built.sql, built.params))  # type: ignore[union-attr]
        if not self._writes and filters.tenant == self.tenant:
            self._learnt = (filters, found)
        return found.candidates

    def _stats(self, texts: list[str], filters: Filters | None = None) -> list[TextStats] | None:
        """The last keyword query's statistics of ``texts`` (under ``filters``), or None."""
        if self._learnt is None or (filters is not None and filters != self._learnt[0]):
            return None
        stats = self._learnt[1].texts
        return [stats[t] for t in texts] if all(t in stats for t in texts) else None

    def _contains(self, filters: Filters, words: list[list[str]]) -> bool:
        built = holds_sql(filters, words)
        if built is None:
            return False
        phrases: list[str] = built[1]["phrases"]  # type: ignore[assignment]
        known = self._stats(phrases, filters)
        if known is not None and (any(s.passing for s in known) or all(s.passing is not None for s in known)):
            return any(s.passing for s in known)
        return bool(self._one(*built)[0])  # type: ignore[index]

    def _vector(self, filters: Filters, vector: np.ndarray, k: int,
                seqs: list[int]) -> tuple[list[tuple[int, float]], dict[int, float]]:
        """The top-``k`` ``(seq, cosine)`` nearest ``vector`` best first, and the cosine of each of
        ``seqs`` with a vector (best window): one round trip."""
        if not self.has_vectors() or (k <= 0 and not seqs):
            return [], {}
        ann, params = vector_sql(filters, k, exact=False)
        windows, window_params = window_sql(filters, k)
        with self.conn.pipeline():  # the settings, both searches and the similarities in one round trip
            if k > 0:
                self.conn.execute("SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true),"
                                  " set_config('hnsw.ef_search', %s, true)", (str(min(1000, max(EF_SEARCH_MIN, k))),))
                nearest = self.conn.execute(ann, {**params, "vector": vector})
                by_window = self.conn.execute(windows, {**window_params, "vector": vector})
            if seqs:
                cosines = self.conn.execute(similarity_sql(self.tenant),
                                            {"seqs": seqs, "vector": vector, "tenant": self.tenant})
        similarity = {seq: 1.0 - float(distance) for seq, distance in cosines.fetchall()} if seqs else {}
        if k <= 0:
            return [], similarity
        rows = nearest.fetchall()
        if len(rows) < k:
            # The index scan stopped at hnsw.max_scan_tuples: few pass, an exact scan is cheap.
            exact, params = vector_sql(filters, k, exact=True)
            rows = self._all(exact, {**params, "vector": vector})
        best = {seq: 1.0 - float(d) for seq, d in rows}
        for seq, distance in by_window.fetchall():
            best[seq] = max(best.get(seq, -1.0), 1.0 - float(distance))
        return sorted(best.items(), key=lambda item: (-item[1], -item[0]))[:k], similarity

    def _pairs(self, seqs: list[int]) -> dict[tuple[int, int], float]:
        if not self.has_vectors():
            return {}
        rows = self._all(pairs_sql(self.tenant), {"seqs": seqs, "tenant": self.tenant})
        return {(a, b): 1.0 - float(distance) for a, b, distance in rows}

    def _lexemes(self, words: list[str]) -> dict[str, list[str]]:
        """Each word's index terms (from the last keyword query when it has them all)."""
        texts = {w: index_words(w) for w in words}
        known = self._stats([t for t in texts.values() if t])
        if known is not None:
            stats = self._learnt[1].texts  # type: ignore[index]
            return {w: sorted(set(stats[t].lexemes)) if t else [] for w, t in texts.items()}
        rows = self._all(f"SELECT t, tsvector_to_array(to_tsvector('{TS_CONFIG}', t)) FROM unnest(%s::text[]) AS t",
                         (list({t for t in texts.values() if t}),))
        found = {t: sorted(lexemes) for t, lexemes in rows}
        return {w: found.get(t, []) if t else [] for w, t in texts.items()}

    def _document_terms(self, seqs: list[int]) -> dict[int, tuple[frozenset[str], frozenset[str]]]:
        known = {} if self._learnt is None else self._learnt[1].terms
        if all(seq in known for seq in seqs):
            return {seq: known[seq] for seq in seqs}
        own, params = self._own()
        rows = self._all(
            "SELECT seq, tsvector_to_array(coalesce(content_terms, ''::tsvector)),"
            " tsvector_to_array(coalesce(context_terms, ''::tsvector))"
            f" FROM memories WHERE seq = ANY(%(seqs)s){own}", {"seqs": seqs, **params},
        )
        return {seq: (frozenset(content), frozenset(context)) for seq, content, context in rows}

    def _term_counts(self, terms: list[str]) -> tuple[int, dict[str, int]]:
        own, params = self._own("k.tenant")
        total = f"(SELECT coalesce(sum(k.documents), 0) FROM keyword_documents k WHERE true{own})"
        if self._learnt is not None:
            learnt = self._learnt[1]
            counts = {s.lexemes[0]: s.documents for s in learnt.texts.values() if len(s.lexemes) == 1}
            if all(t in counts for t in terms):
                return learnt.total, {t: counts[t] for t in terms if counts[t]}
        if not terms:
            return int(self._one(f"SELECT {total}", params)[0]), {}  # type: ignore[index]  (sum() is numeric)
        if self.tenant is not None and not self._writes:
            # Kept per tenant and term by triggers (schema.py, version 14), one index look-up a term,
            # where counting the GIN index's matches grew with the store. A writer counts its own
            # changes too, which the deferred triggers have not added yet.
            rows = self._all(f"SELECT {total}, k.term, sum(k.content) FROM keyword_terms k"
                             f" WHERE k.term = ANY(%(terms)s){own} GROUP BY k.term", {**params, "terms": terms})
            if not rows:
                return int(self._one(f"SELECT {total}", params)[0]), {}  # type: ignore[index]
            return int(rows[0][0]), {term: int(n) for _, term, n in rows if n}
        # Through the GIN index (schema.py); 'simple' reads a lexeme back as itself.
        if self.tenant is None:  # the owner: no policy applies
            counts = ("SELECT t.term, (SELECT count(*) FROM memories m WHERE m.content_terms"
                      " @@ plainto_tsquery('simple', t.term)) AS documents FROM unnest(%(terms)s::text[]) AS t(term)")
        else:
            counts = "SELECT term, documents FROM memvault_term_documents(%(terms)s, %(own)s)"
        rows = self._all(f"SELECT {total}, c.term, c.documents FROM ({counts}) c", {**params, "terms": terms})
        return (int(rows[0][0]) if rows else 0), {term: int(n) for _, term, n in rows if n}

    # -- rows ------------------------------------------------------------------------------
    def memories(
        self, tenant: str | None, *, seqs: list[int] | None = None, ids: list[str] | None = None,
        prefix: str | None = None, filters: Filters | None = None, order: Order = "observed",
        limit: int | None = None, offset: int = 0, after_seq: int = 0, after_key: tuple[int, int] | None = None,
        expired_before: int | None = None, pending: bool = False,
    ) -> dict[int, Memory]:
        """See ``backend.Reader.memories``: a writer locks the rows it reads by id or prefix."""
        if expired_before is not None or pending:
            own, params = self._own("m.tenant")
            where = "m.forgotten_at IS NULL AND m.expires_at <= %(cutoff)s" if expired_before is not None \
                else "m.vector_pending AND m.content IS NOT NULL AND m.seq > %(after)s"
            if pending and filters is not None:
                passing, given = filter_sql(filters)
                where, params = f"{where} AND {passing}", {**params, **given}
            rows = self._all(f"SELECT m.seq, {MEMORY_COLUMNS} FROM memories m WHERE {where}{own} ORDER BY m.seq"
                             " LIMIT %(limit)s OFFSET %(offset)s", {"cutoff": expired_before, "after": after_seq,
                                                                    "limit": limit, "offset": offset, **params})
            return {row[0]: _memory(row[1:]) for row in rows}
        if filters is None and prefix is None and not (seqs or ids):
            return {}
        if filters is not None and limit is not None and not (offset or after_seq or filters.include_history) \
                and order != "seq" and filters.scopes is not None:
            query, params = listing_sql(filters, order, limit, after_key)
            return {row[0]: _memory(row[1:]) for row in self._all(query, params)}
        if filters is not None:
            where, params = filter_sql(filters)
            if after_key is not None:  # order "observed" (the history admitted)
                where += " AND (m.observed_at, m.seq) < (%(after_at)s, %(after_seq_key)s)"
                params.update(after_at=after_key[0], after_seq_key=after_key[1])
            query = f"SELECT m.seq, {MEMORY_COLUMNS} FROM memories m WHERE {where} AND m.seq > %(after)s" \
                f" ORDER BY {_ORDER[order]}"
            params["after"] = after_seq
        elif prefix is not None:
            query = f"SELECT m.seq, {MEMORY_COLUMNS} FROM memories m WHERE m.tenant = %(tenant)s" \
                " AND m.id >= %(prefix)s AND m.id < %(end)s ORDER BY m.id"
            params = {"tenant": tenant, "prefix": prefix, "end": prefix + "\U0010ffff"}
        else:
            key, wanted = ("seq", seqs) if ids is None else ("id", ids)
            query = f"SELECT m.seq, {MEMORY_COLUMNS} FROM memories m WHERE m.{key} = ANY(%(wanted)s)" \
                " AND m.tenant = %(tenant)s ORDER BY m.seq"
            params = {"wanted": wanted, "tenant": tenant}
        locked = self._locked if filters is None and seqs is None else ""
        rows = self._all(f"{query} LIMIT %(limit)s OFFSET %(offset)s{locked}", {**params, "limit": limit, "offset": offset})
        return {row[0]: _memory(row[1:]) for row in rows}

    def id_neighbours(self, tenant: str, ids: list[str]) -> dict[str, tuple[str | None, str | None]]:
        return {row[0]: (row[1], row[2]) for row in self._all(
            "SELECT w.id, (SELECT id FROM memories WHERE tenant = %(t)s AND id < w.id ORDER BY id DESC LIMIT 1),"
            " (SELECT id FROM memories WHERE tenant = %(t)s AND id > w.id ORDER BY id LIMIT 1)"
            ' FROM unnest(%(ids)s::text[]) AS w(id)', {"t": tenant, "ids": ids})}

    def counts(self, filters: Filters) -> dict[tuple[str, str], int]:
        if filters.tags or filters.since is not None or filters.until is not None or filters.include_history:
            where, params = filter_sql(filters)
            return {(scope, kind): int(n) for scope, kind, n in self._all(
                f"SELECT m.scope, m.kind, count(*) FROM memories m WHERE {where} GROUP BY m.scope, m.kind", params)}
        scoped = "" if filters.scopes is None else " AND scope = ANY(%s)"  # by the key
        counts = {(scope, kind): int(n) for scope, kind, n in self._all(
            "SELECT scope, kind, current FROM memory_counts WHERE tenant = %s AND current > 0" + scoped,
            (filters.tenant,) if filters.scopes is None else (filters.tenant, list(filters.scopes)))}
        # Expired but not yet erased (at most EXPIRY_GRACE_MS of them): from the expiry index.
        for scope, kind, n in self._all(
            "SELECT scope, kind, count(*) FROM memories WHERE forgotten_at IS NULL AND expires_at <= %s"
            " AND tenant = %s AND superseded_by IS NULL GROUP BY scope, kind", (filters.now, filters.tenant)):
            if (scope, kind) in counts:  # (of the scopes asked for)
                counts[scope, kind] -= int(n)
        return {(scope, kind): n for (scope, kind), n in counts.items() if n > 0
                and (filters.scopes is None or scope in filters.scopes) and (not filters.kinds or kind in filters.kinds)}

    def repeats(
        self, tenant: str, scope: str, content_hash: str, now: int, *, key: str | None = None, but: str | None = None,
        keys_since: int = 0,
    ) -> Repeats:
        keyed = None if key is None else self._one(
            "SELECT m.id, k.content_hash FROM idempotency_keys k JOIN memories m ON m.seq = k.memory_seq"
            " WHERE k.tenant = %s AND k.key = %s AND k.recorded_at >= %s", (tenant, key, keys_since))
        same = self._one(
            "SELECT id FROM memories WHERE tenant = %s AND scope = %s AND content_hash = %s"
            " AND id IS DISTINCT FROM %s AND superseded_by IS NULL AND forgotten_at IS NULL"
            " AND (expires_at IS NULL OR expires_at > %s) ORDER BY seq LIMIT 1",
            (tenant, scope, content_hash, but, now),
        )
        return Repeats(keyed=None if keyed is None else (keyed[0], keyed[1]), same=None if same is None else same[0])

    def settings(self) -> dict[str, str]:
        return dict(self._all("SELECT key, value FROM settings"))

    def tenant_setting(self, tenant: str, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM tenant_settings WHERE tenant = %s AND key = %s",
                                (tenant, key)).fetchone()
        return row[0] if row else None

    def review_pairs(self, tenant: str, older: list[str] | None = None, limit: int | None = None,
                     scopes: list[str] | None = None) -> list[tuple[str, str]]:
        if older is None and scopes is not None:  # as on SQLite: a subquery, not a join (a merge join walked
            # every memory of the tenant by id, up to the last pair read)
            rows = self._all("SELECT older, newer FROM review_pairs p WHERE tenant = %(t)s AND (SELECT m.scope"
                             " FROM memories m WHERE m.tenant = %(t)s AND m.id = p.older) = ANY(%(s)s)"
                             " ORDER BY older, newer LIMIT %(n)s::bigint", {"t": tenant, "s": scopes, "n": limit})
            return [(row[0], row[1]) for row in rows]
        rows = self._all("SELECT older, newer FROM review_pairs WHERE tenant = %s AND (%s::text[] IS NULL"
                         " OR older = ANY(%s)) ORDER BY older, newer LIMIT %s::bigint", (tenant, older, older, limit))
        return [(row[0], row[1]) for row in rows]

    def dismissed(self, tenant: str, ids: list[str]) -> set[tuple[str, str]]:
        rows = self._all("SELECT memory, other FROM dismissed_pairs WHERE tenant = %s AND memory = ANY(%s)",
                         (tenant, ids))
        return {(row[0], row[1]) for row in rows}

    def api_keys(self, key_hash: str | None = None) -> dict[str, ApiKey]:
        own, params = self._own()
        # By hash through the owner's function: a serving role reads no key before a tenant is known.
        source = "memvault_api_key(%(hash)s)" if key_hash is not None else "api_keys"
        rows = self._all(f"SELECT key_hash, {_API_COLUMNS} FROM {source} WHERE true{own} ORDER BY created_at, id",
                         {"hash": key_hash, **params})
        return {row[0]: ApiKey(**dict(zip(_API_COLUMNS.split(", "), row[1:], strict=True))) for row in rows}

    def tenants_beside(self, tenant: str) -> list[str]:
        if self._one("SELECT 1 FROM memory_counts WHERE tenant = %(t)s AND current > 0"
                     " UNION ALL SELECT 1 FROM api_keys WHERE tenant = %(t)s LIMIT 1", {"t": tenant}):
            return [tenant]
        return [row[0] for row in self._all(TENANTS_HELD)]

    def sessions(
        self, tenant: str, *, ids: list[str] | None = None, scopes: list[str] | None = None,
        limit: int | None = None,
    ) -> list[Session]:
        return session_sql.sessions(self.conn, tenant, ids, scopes, limit, lock=self._writes)

    def turns(
        self, tenant: str, session_id: str, *, after_seq: int = 0, limit: int | None = None,
        tokens: int | None = None,
    ) -> list[Turn]:
        return session_sql.turns(self.conn, tenant, session_id, after_seq, limit, tokens)

    def search_turns(
        self, tenant: str, chunks: list[list[str]], *, scopes: list[str] | None, session_id: str | None,
        limit: int,
    ) -> list[TurnHit]:
        phrases = list(dict.fromkeys(p for p in (index_words(" ".join(words)) for words in chunks) if p))
        return session_sql.search_turns(self.conn, tenant, phrases, scopes, session_id, limit)

    def runs(self, tenant: str, memory_ids: list[str]) -> dict[str, list[Run]]:
        ids = {seq: memory.id for seq, memory in self.memories(tenant, ids=memory_ids).items()}
        found: dict[str, list[Run]] = {}
        for seq, at, outcome, note in self._all(RUNS_SQL, {"seqs": list(ids)}) if ids else []:
            found.setdefault(ids[seq], []).append(Run(int(at), outcome, note))
        return found


class PgWriter(PgReader):
    """One write transaction on ``conn`` (``READ COMMITTED``), bound to ``tenant`` (None: every tenant)."""

    _writes = True
    _locked = " FOR UPDATE OF m"
    _claimed: tuple[tuple[str, int], bool] | None = None  # (model, dim) claimed and the answer

    def _advisory(self, *parts: str) -> None:
        """Hold a lock on ``parts`` until the transaction ends (writers of the same key or content queue)."""
        self.conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (_lock_key(*parts),))

    def repeats(
        self, tenant: str, scope: str, content_hash: str, now: int, *, key: str | None = None, but: str | None = None,
        keys_since: int = 0,
    ) -> Repeats:
        # The locks and the queries after them in one round trip, run in order.
        with self.conn.pipeline():
            if key is not None:
                self._advisory("key", tenant, key)
            self._advisory("hash", tenant, scope, content_hash)
            if key is not None:  # count for nothing: gone, so the key may name a new request
                own, params = self._own()
                self.conn.execute(f"DELETE FROM idempotency_keys WHERE recorded_at < %(before)s{own}",
                                  {"before": keys_since, **params})
            return super().repeats(tenant, scope, content_hash, now, key=key, but=but, keys_since=keys_since)

    def claim_model(self, model_id: str | None, dim: int) -> bool:
        """Whether vectors of ``model_id`` may be written, recording it (and making the vector tables) on first use."""
        if model_id is None:
            return False
        # Vector writers share the model lock; reset_vectors takes it alone.
        if self._claimed is not None and self._claimed[0] == (model_id, dim):
            return self._claimed[1]
        self._claimed = ((model_id, dim), self._claim(model_id, dim))
        return self._claimed[1]

    def _claim(self, model_id: str, dim: int) -> bool:
        with self.conn.pipeline():
            self.conn.execute("SELECT pg_advisory_xact_lock_shared(%s)", (schema.MODEL_LOCK,))
            recorded = recorded_model(self.settings())
        if recorded is None:  # the database's first vectors: one writer creates the tables
            self.conn.execute("SELECT pg_advisory_xact_lock(%s)", (schema.MODEL_CLAIM_LOCK,))
            recorded = recorded_model(self.settings())  # READ COMMITTED: a claim committed while this one waited
        if recorded is not None:
            self._vectors = True  # a model is recorded in the transaction that makes the tables
            return recorded == (model_id, dim)
        self.conn.execute("SELECT memvault_vector_tables(%s)", (dim,))  # made and owned by the schema's owner
        put_settings(self.conn, {MODEL_ID: model_id, MODEL_DIM: str(dim)})
        self._vectors = True
        return True

    def insert(self, row: NewRow) -> int:
        if row.vectors and not self.claim_model(row.model, len(row.vectors[0])):
            row = replace(row, vectors=None)
        context = None
        if row.context_seq is not None:
            found = self._one("SELECT content FROM memories WHERE seq = %s", (row.context_seq,))
            context = found[0] if found else None
        # One statement writes the memory, its tags and its window-0 vector.
        written = ["m AS (INSERT INTO memories(id, tenant, scope, kind, content, content_hash, importance, source,"
                   " observed_at, recorded_at, expires_at, supersedes, confirmations,"
                   " last_confirmed_at, vector_pending, context_seq, tokens, content_terms, context_terms)"
                   " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s,"
                   f" {_TS_VECTOR}, CASE WHEN %s::text IS NULL THEN NULL ELSE {_TS_VECTOR} END)"
                   " ON CONFLICT (id) DO NOTHING RETURNING seq, tenant)"]
        params: list[object] = [
            row.id, row.tenant, row.scope, row.kind, row.content, row.content_hash, row.importance,
            row.source, row.observed_at, row.recorded_at, row.expires_at, row.supersedes, row.confirmations, row.last_confirmed_at, row.vectors is None,
            row.context_seq, row.tokens, index_words(row.content), context, index_words(context),
        ]
        if row.tags:
            written.append("t AS (INSERT INTO memory_tags(memory_seq, tenant, tag)"
                           " SELECT m.seq, m.tenant, tag FROM m, unnest(%s::text[]) AS tag)")
            params.append(list(dict.fromkeys(row.tags)))
        if row.vectors is not None:
            written.append(f"v AS ({_VECTOR_INSERT} SELECT m.seq, m.tenant, %s FROM m)")
            params.append(np.asarray(row.vectors[0], dtype=np.float32))
        inserted = self._one(f"WITH {', '.join(written)} SELECT seq FROM m", params)
        if inserted is None:
            raise Conflict("id", f"a memory with id {row.id} exists already")
        seq = int(inserted[0])
        if row.idempotency_key is not None:
            self._key(row.idempotency_key, row.id, row.recorded_at)
        if row.vectors is not None:
            self._add_windows(seq, row.tenant, row.vectors)
        if row.supersedes is not None:
            self._link(row.supersedes, row.id, row.reason)
        if row.compacts:
            self._compact(row.compacts, row.id)
        return seq

    def _add_vectors(self, seq: int, tenant: str, vectors: list[np.ndarray]) -> None:
        """Write the vectors of a memory that has none (window 0, then the later windows)."""
        self.conn.execute(f"{_VECTOR_INSERT} VALUES (%s, %s, %s)", (seq, tenant, np.asarray(vectors[0], dtype=np.float32)))
        self._add_windows(seq, tenant, vectors)

    def _add_windows(self, seq: int, tenant: str, vectors: list[np.ndarray]) -> None:
        """Write the vectors of ``vectors``' later windows (window 1 on), if any."""
        if len(vectors) > 1:
            self.conn.cursor().executemany(
                "INSERT INTO memory_windows(memory_seq, tenant, part, embedding) VALUES (%s, %s, %s, %s)",
                [(seq, tenant, part, np.asarray(v, dtype=np.float32)) for part, v in enumerate(vectors[1:], start=1)],
            )

    def _delete_vectors(self, seq: int) -> None:
        if self.has_vectors():
            self.conn.execute("DELETE FROM memory_vectors WHERE memory_seq = %s", (seq,))
            self.conn.execute("DELETE FROM memory_windows WHERE memory_seq = %s", (seq,))

    def confirm(self, memory_id: str, now: int, key: str | None = None) -> None:
        own, params = self._own()
        self.conn.execute(
            "UPDATE memories SET confirmations = confirmations + 1,"
            " last_confirmed_at = GREATEST(coalesce(last_confirmed_at, 0), %(now)s)"
            f" WHERE id = %(id)s{own}", {"now": now, "id": memory_id, **params},
        )
        if key is not None:
            self._key(key, memory_id, now)

    def _key(self, key: str, memory_id: str, now: int) -> None:
        """Record the idempotency ``key`` against the memory ``memory_id`` (with its content hash)."""
        done = self.conn.execute(
            "INSERT INTO idempotency_keys(tenant, key, memory_seq, content_hash, recorded_at)"
            " SELECT tenant, %s, seq, content_hash, %s FROM memories WHERE id = %s"
            " ON CONFLICT (tenant, key) DO NOTHING RETURNING 1", (key, now, memory_id),
        ).fetchone()
        if done is None:  # only a writer outside the key's advisory lock lands here
            raise Busy(f"idempotency_key {shown(key)} was recorded by another writer at the same moment. "
                       "Nothing was written; retrying is safe and returns that memory.")

    def _link(self, old_id: str, new_id: str, reason: str | None) -> None:
        own, params = self._own()
        row = self._one(
            "UPDATE memories SET superseded_by = %(new)s, supersede_reason = %(reason)s"
            f" WHERE id = %(old)s{own} RETURNING seq", {"new": new_id, "reason": reason, "old": old_id, **params},
        )
        if row is not None:
            self._drop_as_context(int(row[0]))

    def _compact(self, ids: tuple[str, ...], digest_id: str) -> None:
        """As the SQLite backend's: ``ids`` superseded by the digest at once; a memory continuing one
        of them loses that context unless it is one of them."""
        own, params = self._own()
        seqs = [r[0] for r in self._all(
            "UPDATE memories SET superseded_by = %(new)s, supersede_reason = %(reason)s"
            f" WHERE id = ANY(%(ids)s){own} RETURNING seq",
            {"new": digest_id, "reason": compaction_reason(digest_id), "ids": list(ids), **params})]
        self.conn.execute("UPDATE memories SET context_seq = NULL, context_terms = NULL"
                          " WHERE context_seq = ANY(%(seqs)s) AND NOT seq = ANY(%(seqs)s)", {"seqs": seqs})

    def index_keywords(self) -> int:
        """Write every memory's ``tsvector``s again; returns how many memories were indexed."""
        rows = self._all(
            "SELECT m.seq, m.content, p.content FROM memories m LEFT JOIN memories p ON p.seq = m.context_seq"
            " WHERE m.content IS NOT NULL"
        )
        self.conn.cursor().executemany(
            f"UPDATE memories SET content_terms = {_TS_VECTOR},"
            f" context_terms = CASE WHEN %s::text IS NULL THEN NULL ELSE {_TS_VECTOR} END WHERE seq = %s",
            [(index_words(content), context, index_words(context), seq) for seq, content, context in rows],
        )
        return len(rows)

    def _drop_as_context(self, seq: int) -> None:
        """Memories using ``seq`` as their episode context lose it (and its words)."""
        self.conn.execute("UPDATE memories SET context_seq = NULL, context_terms = NULL WHERE context_seq = %s", (seq,))

    def add_run(self, memory_id: str, at: int, outcome: str, note: str | None) -> None:
        self.conn.execute("INSERT INTO runs(memory_seq, tenant, at, outcome, note)"
                          " SELECT seq, tenant, %s, %s, %s FROM memories WHERE id = %s",
                          (at, outcome, note, memory_id))

    def link(self, old_id: str, new_id: str, reason: str | None) -> None:
        own, params = self._own()
        self.conn.execute(f"UPDATE memories SET supersedes = %(old)s WHERE id = %(new)s{own}",
                          {"old": old_id, "new": new_id, **params})
        self._link(old_id, new_id, reason)

    def release(self, digest_id: str, ids: list[str]) -> None:
        own, params = self._own()
        self.conn.execute("UPDATE memories SET superseded_by = NULL, supersede_reason = NULL WHERE id = ANY(%(ids)s)"
                          f" AND superseded_by = %(digest)s AND supersede_reason = %(reason)s{own}",
                          {"ids": ids, "digest": digest_id, "reason": compaction_reason(digest_id), **params})

    def dismiss(self, tenant: str, memory_id: str, other_id: str, now: int) -> None:
        self.conn.cursor().executemany(
            "INSERT INTO dismissed_pairs(tenant, memory, other, dismissed_at) VALUES (%s, %s, %s, %s)"
            " ON CONFLICT (tenant, memory, other) DO UPDATE SET dismissed_at = excluded.dismissed_at",
            [(tenant, memory_id, other_id, now), (tenant, other_id, memory_id, now)])

    def erase(self, memory_id: str, now: int, reason: str | None) -> None:
        own, params = self._own()
        row = self._one(f"SELECT seq, tenant FROM memories WHERE id = %(id)s{own} FOR UPDATE",
                        {"id": memory_id, **params})
        if row is None:
            return
        seq, tenant = int(row[0]), row[1]
        self._delete_vectors(seq)
        self.conn.execute("DELETE FROM memory_tags WHERE memory_seq = %s", (seq,))
        self.conn.execute("DELETE FROM idempotency_keys WHERE memory_seq = %s", (seq,))
        self.conn.execute("UPDATE runs SET note = NULL WHERE memory_seq = %s AND note IS NOT NULL", (seq,))
        self.conn.execute(
            "UPDATE memories SET content = NULL, content_hash = NULL, source = NULL,"
            f" supersede_reason = {KEPT_REASON}, tokens = NULL,"
            " content_terms = NULL, context_terms = NULL, forgotten_at = %s, forget_reason = %s,"
            " vector_pending = false WHERE seq = %s",
            (now, reason, seq),
        )
        self._drop_as_context(seq)
        self.conn.execute("DELETE FROM dismissed_pairs WHERE tenant = %(t)s AND (memory = %(id)s OR (memory, other)"
                          " IN (SELECT other, memory FROM dismissed_pairs WHERE tenant = %(t)s AND memory = %(id)s))",
                          {"t": tenant, "id": memory_id})
        put_settings(self.conn, {SCRUB_DUE: new_id()})  # with the delete: a crash leaves the duty

    def set_vectors(self, seq: int, content: str, vectors: list[np.ndarray], model: str) -> bool:
        own, params = self._own()
        row = self._one(
            "SELECT tenant FROM memories WHERE seq = %(seq)s AND vector_pending AND content = %(content)s"
            f"{own} FOR UPDATE", {"seq": seq, "content": content, **params},
        )
        if row is None or not self.claim_model(model, len(vectors[0])):
            return False
        self._delete_vectors(seq)
        self._add_vectors(seq, row[0], vectors)
        self.conn.execute("UPDATE memories SET vector_pending = false WHERE seq = %s", (seq,))
        return True

    def change_tenant_setting(self, tenant: str, key: str, change: Callable[[str | None], str]) -> None:
        self._advisory("setting", tenant, key)  # (the row may not exist yet: FOR UPDATE would lock nothing)
        value = change(self.tenant_setting(tenant, key))
        self.conn.execute("INSERT INTO tenant_settings(tenant, key, value) VALUES (%s, %s, %s)"
                          " ON CONFLICT (tenant, key) DO UPDATE SET value = excluded.value",
                          (tenant, key, value))

    def change_review_pairs(self, tenant: str, add: set[tuple[str, str]], drop: set[tuple[str, str]],
                            most: int) -> None:
        self._advisory("review pairs", tenant)
        cursor = self.conn.cursor()
        cursor.executemany("DELETE FROM review_pairs WHERE tenant = %s AND older = %s AND newer = %s",
                           [(tenant, *pair) for pair in drop])
        cursor.executemany("INSERT INTO review_pairs(tenant, older, newer) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                           [(tenant, *pair) for pair in add])
        self.conn.execute("DELETE FROM review_pairs WHERE tenant = %(t)s AND (newer, older) <= (SELECT newer, older"
                          " FROM review_pairs WHERE tenant = %(t)s ORDER BY newer DESC, older DESC LIMIT 1"
                          " OFFSET %(most)s)", {"t": tenant, "most": most})

    def put_api_key(self, key_hash: str, key: ApiKey) -> None:
        self.conn.execute(
            f"INSERT INTO api_keys(key_hash, {_API_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
            " ON CONFLICT (id) DO UPDATE SET revoked_at = excluded.revoked_at",
            (key_hash, key.id, key.tenant, key.scope, key.name, key.read_only, key.created_at,
             key.expires_at, key.revoked_at),
        )

    def append_turns(
        self, tenant: str, scope: str, session_id: str, *, client: str | None, cwd: str | None, now: int,
        turns: list[TurnRow],
    ) -> tuple[list[int], int]:
        return session_sql.append_turns(self.conn, tenant, scope, session_id, client, cwd, now, turns)

    def end_session(self, tenant: str, session_id: str, ended_at: int, digest_id: str | None) -> None:
        session_sql.end_session(self.conn, tenant, session_id, ended_at, digest_id)

    def delete_session(self, tenant: str, session_id: str) -> int:
        gone = session_sql.delete_session(self.conn, tenant, session_id)
        put_settings(self.conn, {SCRUB_DUE: new_id()})  # with the delete: a crash leaves the duty
        return gone
