"""The SQLite answers to ``backend.Reader`` and ``backend.Writer``: one object per
transaction over the backend's connection, SQL only, no memory rules.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import fields, replace
from typing import TYPE_CHECKING

import apsw

from .. import backend
from ..errors import Conflict
from ..backend import KEPT_REASON, MODEL_DIM, MODEL_ID, SCRUB_DUE, recorded_model
from ..ids import new_id
from ..query import Filters
from ..records import ApiKey, Memory, Session, Turn
from ..textindex import index_text
from ..turn_search import TurnHit
from . import cells as vector_cells
from . import sessions as session_sql
from . import sql
from .schema import VECTOR_SEQ, VECTOR_TABLE, create_keyword_index, keyword_table
from .vector_cache import VectorCache

if TYPE_CHECKING:
    import numpy as np  # annotations; numpy is imported where vectors are used (docs/hooks.md#speed)

    from ..runs import Run

Tokenize = Callable[[str], list[str]]
# Bounds of a keyword search's BM25 work (``SqliteTransaction._keyword``), measured:
# docs/storage-tuning.md#bounding-the-keyword-search.
KEYWORD_RANKED = 3_000
KEYWORD_NEWEST = 300
KEPT_ANSWERS = 20_000  # terms' document counts, newest matches and memories' terms kept between transactions, at most (a few MB)

# Each field of ``records.Memory`` and the SQL over ``memories AS m`` that reads it (by name).
_FIELDS = {f.name: f"m.{f.name}" for f in fields(Memory)} | {
    "tags": "(SELECT json_group_array(tag) FROM memory_tags WHERE memory_seq = m.seq)"}
_COLUMNS = ", ".join(f"{sql_text} AS {name}" for name, sql_text in _FIELDS.items())
_KEY_COLUMNS = "id, tenant, scope, name, read_only, created_at, expires_at, revoked_at"
_ORDER = {"observed": "m.observed_at DESC, m.seq DESC", "importance": "m.importance DESC, m.observed_at DESC, m.seq DESC",
          "seq": "m.seq"}


def memory(row: tuple) -> Memory:
    """A :class:`Memory` from a row of ``_COLUMNS``, field by field."""
    values = dict(zip(_FIELDS, row, strict=True))
    values["tags"] = tuple(json.loads(values["tags"])) if values["tags"] != "[]" else ()  # most have none
    values["vector_pending"] = bool(values["vector_pending"])
    return Memory(**values)


def _api_key(row: tuple) -> ApiKey:
    id_, tenant, scope, name, read_only, created_at, expires_at, revoked_at = row
    return ApiKey(id=id_, tenant=tenant, scope=scope, name=name, read_only=bool(read_only),
                  created_at=created_at, expires_at=expires_at, revoked_at=revoked_at)


def _blob(vector: np.ndarray | bytes) -> bytes:
    """``vector`` as stored (float32 bytes); a stored vector's bytes as they are."""
    if isinstance(vector, bytes):
        return vector
    import numpy as np
    return np.asarray(vector, dtype=np.float32).tobytes()


def _array(vector: np.ndarray | bytes) -> np.ndarray:
    """``vector`` as a float32 array (a stored vector's bytes read as one)."""
    import numpy as np
    if isinstance(vector, bytes):
        return np.frombuffer(vector, dtype=np.float32)
    return np.asarray(vector, dtype=np.float32)


class SqliteTransaction:
    """``backend.Writer`` (and so ``Reader``) over ``conn`` inside an open transaction.

    ``tokenize`` is the FTS5 index's tokenizer as a function (stems as the index does);
    ``cache`` the backend's in-memory copy of the vector index (``vector_cache``).
    Call :meth:`begun` after each ``BEGIN``.
    """

    def __init__(self, conn: apsw.Connection, tokenize: Tokenize, cache: VectorCache) -> None:
        self.conn = conn
        self._tokenize = tokenize
        self._cache = cache
        self._cells: tuple[tuple[int, int], vector_cells.Cells] | None = None  # (version, centroids) last read
        self._changes_at_begin = conn.total_changes()
        self._data_version: int | None = None  # of this transaction's snapshot, read when first needed
        # Answers kept while the data stays as ``_known_at`` (see ``_data``).
        self._documents: dict[tuple[str, str], tuple[int, int]] = {}  # keyed (table, term)
        self._passing: dict[tuple, int] = {}
        self._newest: dict[tuple[str, str], int | None] = {}  # keyed (table, FTS5 expression)
        self._read_terms: dict[int, tuple[frozenset[str], frozenset[str]]] = {}  # keyed seq: ``_document_terms``
        # A write transaction begun and not yet :meth:`committed`: what is kept may hold changes a rollback undid.
        self._uncommitted = False
        self.tenant: str | None = None  # the tenant the transaction is bound to (its statistics count its memories)
        self.writes = False
        self._known_at: tuple[int, int] | None = None

    def begun(self, tenant: str | None, writes: bool = False) -> None:
        """Note that a transaction bound to ``tenant`` has just begun (what it writes from now on is uncommitted)."""
        self.tenant, self.writes = tenant, writes
        self._changes_at_begin = self.conn.total_changes()
        self._data_version = None
        if self._uncommitted:  # the last write transaction rolled back
            self.forget()
        self._uncommitted = writes

    def committed(self) -> None:
        """Note that the write transaction begun last has committed: what was kept in it holds."""
        self._uncommitted = False

    def forget(self) -> None:
        """Drop every answer kept (see ``_data``)."""
        self._documents, self._passing, self._newest, self._read_terms, self._known_at = {}, {}, {}, {}, None

    def _data(self) -> None:
        """Forget the answers kept from earlier transactions unless no connection has changed
        the data since (SQLite's ``data_version``, and this one's ``total_changes``); the terms'
        document counts and memories' terms are kept across this connection's own changes, which
        ``_index`` applies to them. Why: docs/storage-tuning.md#answers-kept-between-transactions."""
        if self._data_version is None:
            self._data_version = self._one("PRAGMA data_version")[0]  # type: ignore[index]
        now = (self._data_version, self.conn.total_changes())
        if len(self._documents) + len(self._newest) + len(self._read_terms) > KEPT_ANSWERS \
                or self._known_at is None or self._known_at[0] != now[0]:
            self.forget()
        elif self._known_at != now:
            self._passing, self._newest = {}, {}
        self._known_at = now

    def _one(self, query: str, params: object = ()) -> tuple | None:
        return self.conn.execute(query, params).fetchone()

    def cells(self) -> vector_cells.Cells:
        """The vector index's centroids in force (read again only when they changed)."""
        version = vector_cells.version(self.conn)
        if self._cells is None or self._cells[0] != version:
            self._cells = (version, vector_cells.load(self.conn))
        return self._cells[1]

    def _cell(self, vector: np.ndarray) -> int:
        import numpy as np
        return int(self.cells().assign(np.asarray(vector, dtype=np.float32)[None, :])[0])

    # -- retrieval candidates -------------------------------------------------------

    def search(self, query: backend.Search) -> backend.Found:
        """See ``backend.Reader.search``."""
        filters = replace(query.filters, include_history=True) if query.history else query.filters
        keyword = self._keyword(filters, query.words, query.k) if query.words and query.k > 0 else []
        vector = self._vector_of(query.vector) if isinstance(query.vector, int) else query.vector
        lexemes = {w: sorted(set(self._tokenize(w))) for w in query.terms}
        documents, counts = self._term_counts(sorted({t for ts in lexemes.values() for t in ts})) \
            if lexemes else (0, {})
        return backend.Found(
            keyword=keyword,
            vector=self._vector(filters, vector, query.k) if vector is not None and query.k > 0 else [],
            similarity=self._similarity(query.seqs, vector) if vector is not None else {},
            terms=self._document_terms(list(dict.fromkeys([seq for seq, _, _ in keyword] + query.seqs))),
            lexemes=lexemes, documents=documents, counts=counts,
            exists=[self._contains(query.filters, chunks) for chunks in query.exists],
            pairs=self._pairs(query.pairs) if query.pairs else {},
        )

    def _vector_of(self, seq: int) -> bytes | None:
        """Memory ``seq``'s own (window 0) vector as stored (float32 bytes), None without one: a
        similarity to it is computed in SQL from these bytes, without numpy (docs/hooks.md#speed)."""
        row = self._one(f"SELECT embedding FROM {VECTOR_TABLE} WHERE {VECTOR_SEQ} = ?", (seq,))
        return None if row is None else bytes(row[0])

    def _keyword(self, filters: Filters, words: list[list[str]], k: int) -> list[tuple[int, float, float]]:
        """Top-``k`` keyword matches of ``words`` (``backend.Found.keyword``): when more than
        ``KEYWORD_RANKED`` may match, only the memories matching the rarest chunks and the
        ``KEYWORD_NEWEST`` newest matching the others are ranked, each by its BM25 over every
        chunk; every match when the filter passes fewer than ``k`` of those.
        More: docs/storage-tuning.md#bounding-the-keyword-search."""
        match = sql.match_expression(words)
        index = self._keyword_index(filters.tenant)
        if not match or index is None:
            return []
        table, documents = index
        newer_than, rare, common = self._keyword_bound(table, documents, words)
        found = self.conn.execute(*sql.keyword_sql(filters, match, k, newer_than, rare, common, table=table)).fetchall()
        if newer_than is not None and len(found) < k:
            found = self.conn.execute(*sql.filtered_keyword_sql(filters, match, k, table=table)).fetchall()
        return found

    def _keyword_index(self, tenant: str) -> tuple[str, int] | None:
        """``tenant``'s keyword index (``schema.keyword_table``) and how many memories it
        holds; None before the tenant's first memory."""
        row = self._one("SELECT number, documents FROM keyword_tenants WHERE tenant = ?", (tenant,))
        return None if row is None else (keyword_table(row[0]), row[1])

    def _keyword_bound(
        self, table: str, documents: int, words: list[list[str]]
    ) -> tuple[int | None, str | None, str | None]:
        """``(newer_than, rare, common)`` for ``sql.keyword_sql``: FTS5 expressions of the
        rarest chunks and of the others; (None, None, None) when at most about
        ``KEYWORD_RANKED`` memories match."""
        if documents <= KEYWORD_RANKED:
            return None, None, None
        terms = [[t for w in chunk for t in self._tokenize(w)] for chunk in words]
        counts = {t: content + context for t, (content, context) in self._term_documents(
            table, sorted({t for ts in terms for t in ts})).items()}
        # A chunk (an FTS5 phrase) matches no more memories than its rarest term.
        documents = [min((counts.get(t, 0) for t in ts), default=0) for ts in terms]
        rare: list[list[str]] = []
        common: list[list[str]] = []
        total = 0
        for count, chunk in sorted(zip(documents, words), key=lambda pair: pair[0]):
            total += count
            (rare if total <= KEYWORD_RANKED else common).append(chunk)
        if not common:
            return None, None, None
        common_match = sql.match_expression(common)
        newer_than = self._newest_match(table, common_match)  # type: ignore[arg-type]
        if newer_than is None:
            return None, None, None
        return newer_than, sql.match_expression(rare), common_match

    def _newest_match(self, table: str, match: str) -> int | None:
        """The seq of the ``KEYWORD_NEWEST + 1``-th newest memory matching ``match`` (kept, see
        ``_data``); None when fewer match."""
        self._data()
        if (table, match) not in self._newest:
            row = self._one(*sql.newest_match_sql(match, KEYWORD_NEWEST, table=table))
            self._newest[table, match] = None if row is None else row[0]
        return self._newest[table, match]

    def _contains(self, filters: Filters, words: list[list[str]]) -> bool:
        match = sql.match_expression(words)
        index = self._keyword_index(filters.tenant)
        if not match or index is None:
            return False
        return bool(self._one(*sql.contains_sql(filters, match, table=index[0]))[0])  # type: ignore[index]

    def _vector(self, filters: Filters, vector: np.ndarray | bytes, k: int) -> list[tuple[int, float]]:
        blob = _blob(vector)
        rows = self._nearest(filters, vector, blob, k)
        query, params = sql.window_sql(filters, k)
        rows += self.conn.execute(query, {**params, "vector": blob}).fetchall()
        best: dict[int, float] = {}
        for seq, distance in rows:
            best[seq] = max(best.get(seq, -1.0), 1.0 - distance)
        return sorted(best.items(), key=lambda item: item[1], reverse=True)[:k]

    def _nearest(self, filters: Filters, vector: np.ndarray | bytes, blob: bytes, k: int) -> list[tuple[int, float]]:
        """Window 0 candidates ``(seq, distance)``: from the nearest cells (``PROBE`` per
        generation, four times more while fewer than ``k`` pass, until every cell is read), or,
        when fewer memories pass the filter than half what those cells hold, from their vectors."""
        cells = self.cells()
        stored = self._one("SELECT ifnull(max(seq), 0) FROM memories")[0]  # type: ignore[index]
        # a set, not np.unique: that imports numpy.ma (0.02 s in a prompt hook: docs/hooks.md#speed)
        generations = len(set(cells.generations.tolist())) or 1
        probe = vector_cells.PROBE
        while True:
            share = min(1.0, probe * generations / cells.size) if cells.size else 1.0
            read = int(stored * share) // 2
            if self._passing_count(filters, read) < read:
                query, params = sql.vector_sql(filters, k, None)
                return self.conn.execute(query, {**params, "vector": blob}).fetchall()
            near = cells.nearest(_array(vector), probe)
            found = self._from_cache(filters, vector, blob, near, k)
            if found is None:  # the copy cannot answer for this snapshot: the cells' rows
                query, params = sql.vector_sql(filters, k, near, vector_cells.FILTER_FIRST * k)
                found = self.conn.execute(query, {**params, "vector": blob}).fetchall()
                if len(found) < k:  # the filters passed too few of the nearest: every vector of the cells
                    query, params = sql.vector_sql(filters, k, near)
                    found = self.conn.execute(query, {**params, "vector": blob}).fetchall()
            if len(found) >= k or share >= 1.0:
                return found
            probe *= 4

    def _passing_count(self, filters: Filters, limit: int) -> int:
        """How many memories pass ``filters``, counted no further than ``limit`` (kept, see ``_data``;
        ``filters.now`` is not in the key: it changes only which plan :meth:`_nearest` takes)."""
        self._data()
        key = (filters.tenant, tuple(filters.scopes), tuple(filters.kinds or ()), tuple(filters.tags or ()),
               filters.since, filters.until, filters.include_history, limit)
        if key not in self._passing:
            self._passing[key] = self._one(*sql.passing_sql(filters, limit))[0]  # type: ignore[index]
        return self._passing[key]

    def _from_cache(
        self, filters: Filters, vector: np.ndarray | bytes, blob: bytes, near: list[int], k: int
    ) -> list[tuple[int, float]] | None:
        """:meth:`_nearest`'s search of the cells ``near`` through the in-memory copy: its
        ``FILTER_FIRST * k`` nearest vectors (at least ``RESCORE_MIN``) read, filtered and
        scored exactly, every vector of the cells when fewer than ``k`` of them pass;
        None when the copy cannot answer for this transaction's snapshot."""
        n = max(vector_cells.FILTER_FIRST * k, vector_cells.RESCORE_MIN)
        may_advance = self.conn.total_changes() == self._changes_at_begin
        picked = self._cache.candidates(self.conn, near, _array(vector), n, may_advance)
        if picked is None:
            return None
        best, every = picked
        query, params = sql.rescore_sql(filters, k)
        found = self.conn.execute(query, {**params, "keys": json.dumps(best), "vector": blob}).fetchall()
        if len(found) < k and len(every) > len(best):
            found = self.conn.execute(query, {**params, "keys": json.dumps(every), "vector": blob}).fetchall()
        return found

    def _similarity(self, seqs: list[int], vector: np.ndarray | bytes) -> dict[int, float]:
        out: dict[int, float] = {}
        if not seqs:
            return out
        query, params = sql.similarity_sql(seqs)
        for seq, distance in self.conn.execute(query, {**params, "vector": _blob(vector)}):
            out[seq] = max(out.get(seq, -1.0), 1.0 - distance)
        return out

    def _pairs(self, seqs: list[int]) -> dict[tuple[int, int], float]:
        query, params = sql.pairs_sql(seqs)
        return {(a, b): 1.0 - distance for a, b, distance in self.conn.execute(query, params)}

    def _document_terms(self, seqs: list[int]) -> dict[int, tuple[frozenset[str], frozenset[str]]]:
        """The index terms of each of ``seqs``' own text and of its episode context (kept, see ``_data``:
        one recall asks again for the same memories)."""
        self._data()
        missing = [seq for seq in seqs if seq not in self._read_terms]
        if missing:
            rows = self.conn.execute(
                "SELECT m.seq, m.content, p.content FROM memories m LEFT JOIN memories p ON p.seq = m.context_seq"
                " WHERE m.seq IN (SELECT value FROM json_each(?))",
                (json.dumps(missing),),
            )
            self._read_terms.update((seq, (self._terms(own), self._terms(context))) for seq, own, context in rows)
        return {seq: self._read_terms[seq] for seq in seqs if seq in self._read_terms}

    def _terms(self, text: str | None) -> frozenset[str]:
        return frozenset(self._tokenize(index_text(text) or "")) if text else frozenset()

    def _term_counts(self, terms: list[str]) -> tuple[int, dict[str, int]]:
        """How many memories the bound tenant's keyword index holds, and how many of them
        hold each term in their own text (the tenant's own statistics: ``backend.Found``)."""
        index = self._keyword_index(self.tenant) if self.tenant is not None else None
        if index is None:
            return 0, {}
        table, documents = index
        return documents, {t: content for t, (content, _) in self._term_documents(table, terms).items() if content}

    def _term_documents(self, table: str, terms: list[str]) -> dict[str, tuple[int, int]]:
        """In how many memories of the keyword index ``table`` each of ``terms`` occurs, in
        their content and in their context (terms in neither left out; kept, see ``_data``)."""
        self._data()
        missing = [t for t in dict.fromkeys(terms) if (table, t) not in self._documents]
        if missing:
            found = {t: [0, 0] for t in missing}
            for term, column, documents in self.conn.execute(*sql.documents_sql(missing, table=table)):
                found[term][column != "content"] = documents
            self._documents.update({(table, t): (a, b) for t, (a, b) in found.items()})
        return {t: self._documents[table, t] for t in terms if self._documents[table, t] != (0, 0)}

    # -- rows -------------------------------------------------------------------------

    def memories(
        self, tenant: str | None, *, seqs: list[int] | None = None, ids: list[str] | None = None,
        prefix: str | None = None, filters: Filters | None = None, order: backend.Order = "observed",
        limit: int | None = None, offset: int = 0, after_seq: int = 0, after_key: tuple[int, int] | None = None,
        expired_before: int | None = None, pending: bool = False,
    ) -> dict[int, Memory]:
        """See ``backend.Reader.memories`` (one writer at a time: nothing to lock)."""
        if expired_before is not None:
            # Named: to keep ORDER BY seq, the planner would rather read the whole table in seq order.
            query, params = f"SELECT m.seq, {_COLUMNS} FROM memories m INDEXED BY memories_expiring WHERE" \
                " m.forgotten_at IS NULL AND m.expires_at <= :cutoff ORDER BY m.seq LIMIT :limit OFFSET :offset", \
                {"cutoff": expired_before}
        elif pending:
            where, params = sql.filter_sql(filters) if filters is not None else ("1", {})
            query, params = f"SELECT m.seq, {_COLUMNS} FROM memories m WHERE m.vector_pending = 1 AND m.seq > :after" \
                f" AND m.content IS NOT NULL AND {where} ORDER BY m.seq LIMIT :limit OFFSET :offset", \
                {**params, "after": after_seq}
        elif filters is None and prefix is None and not (seqs or ids):
            return {}
        elif filters is not None and limit is not None and not offset and not after_seq and order != "seq" \
                and filters.scopes is not None and not (filters.include_history and order != "observed"):
            query, params = sql.listing_sql(filters, order, limit, after_key, f"m.seq, {_COLUMNS}")
            return {row[0]: memory(row[1:]) for row in self.conn.execute(query, params)}
        elif filters is not None:
            where, params = sql.filter_sql(filters)
            after = " AND m.seq > :after" if after_seq else ""  # only then: a rowid range may change the plan
            query, params = f"SELECT m.seq, {_COLUMNS} FROM memories m WHERE {where}{after}" \
                f" ORDER BY {_ORDER[order]} LIMIT :limit OFFSET :offset", {**params, "after": after_seq}
        elif prefix is not None:
            query, params = sql.prefix_sql(f"m.seq, {_COLUMNS}", tenant or "", prefix)
        else:
            # By seq: the tenant only checked (``+``), never an index to search.
            key, tenant_is = ("m.seq", "+m.tenant") if ids is None else ("m.id", "m.tenant")
            query = f"SELECT m.seq, {_COLUMNS} FROM memories m WHERE {key} IN (SELECT value FROM json_each(:wanted))" \
                f" AND {tenant_is} = :tenant LIMIT :limit OFFSET :offset"
            params = {"wanted": json.dumps(seqs if ids is None else ids), "tenant": tenant}
        rows = self.conn.execute(query, {**params, "limit": -1 if limit is None else limit, "offset": offset})
        return {row[0]: memory(row[1:]) for row in rows}

    def id_neighbours(self, tenant: str, ids: list[str]) -> dict[str, tuple[str | None, str | None]]:
        return {row[0]: (row[1], row[2]) for row in self.conn.execute(
            "SELECT w.value, (SELECT max(id) FROM memories WHERE tenant = :tenant AND id < w.value),"
            " (SELECT min(id) FROM memories WHERE tenant = :tenant AND id > w.value) FROM json_each(:ids) AS w",
            {"tenant": tenant, "ids": json.dumps(ids)})}

    def counts(self, filters: Filters) -> dict[tuple[str, str], int]:
        if filters.tags or filters.since is not None or filters.until is not None or filters.include_history:
            where, params = sql.filter_sql(filters)
            return {(scope, kind): n for scope, kind, n in self.conn.execute(
                f"SELECT m.scope, m.kind, count(*) FROM memories m WHERE {where} GROUP BY m.scope, m.kind", params)}
        scoped = "" if filters.scopes is None else " AND scope IN (SELECT value FROM json_each(?))"  # by the key
        counts = {(scope, kind): n for scope, kind, n in self.conn.execute(
            "SELECT scope, kind, current FROM memory_counts WHERE tenant = ? AND current > 0" + scoped,
            (filters.tenant,) if filters.scopes is None else (filters.tenant, json.dumps(filters.scopes)))}
        # Expired but not yet erased (at most EXPIRY_GRACE_MS of them): from the expiry index.
        for scope, kind, n in self.conn.execute(
            "SELECT scope, kind, count(*) FROM memories INDEXED BY memories_expiring WHERE forgotten_at IS NULL"
            " AND expires_at <= ? AND tenant = ? AND superseded_by IS NULL GROUP BY scope, kind",
                (filters.now, filters.tenant)):
            if (scope, kind) in counts:  # (of the scopes asked for)
                counts[scope, kind] -= n
        return {(scope, kind): n for (scope, kind), n in counts.items() if n > 0
                and (filters.scopes is None or scope in filters.scopes) and (not filters.kinds or kind in filters.kinds)}

    def repeats(
        self, tenant: str, scope: str, content_hash: str, now: int, *, key: str | None = None, but: str | None = None,
        keys_since: int = 0,
    ) -> backend.Repeats:
        if key is not None and self.writes:  # count for nothing: gone, so the key may name a new request
            self.conn.execute("DELETE FROM idempotency_keys WHERE recorded_at < ?", (keys_since,))
        keyed = None if key is None else self._one(
            "SELECT m.id, k.content_hash FROM idempotency_keys k JOIN memories m ON m.seq = k.memory_seq"
            " WHERE k.tenant = ? AND k.key = ? AND k.recorded_at >= ?", (tenant, key, keys_since))
        same = self._one(
            "SELECT id FROM memories WHERE tenant = ? AND scope = ? AND content_hash = ? AND id IS NOT ?"
            " AND superseded_by IS NULL AND forgotten_at IS NULL AND (expires_at IS NULL OR expires_at > ?)",
            (tenant, scope, content_hash, but, now),
        )
        return backend.Repeats(keyed=None if keyed is None else (keyed[0], keyed[1]), same=same and same[0])

    def settings(self) -> dict[str, str]:
        return dict(self.conn.execute("SELECT key, value FROM settings").fetchall())

    def tenant_setting(self, tenant: str, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM settings WHERE key = ?", (f"{key}:{tenant}",)).fetchone()
        return row[0] if row else None  # (a file of one user: its settings table, "key:tenant")

    def review_pairs(self, tenant: str, older: list[str] | None = None, limit: int | None = None,
                     scopes: list[str] | None = None) -> list[tuple[str, str]]:
        bound = -1 if limit is None else limit  # (SQLite: a negative limit is none)
        if older is None and scopes is None:
            rows = self.conn.execute("SELECT older, newer FROM review_pairs WHERE tenant = ? ORDER BY older, newer"
                                     " LIMIT ?", (tenant, bound))
        elif older is None:  # in key order until the limit, each older's scope looked up by its id (a join
            # may be planned from the memories of the scopes, or walk the tenant's: PostgreSQL's merge join)
            rows = self.conn.execute("SELECT older, newer FROM review_pairs p WHERE tenant = ?1 AND (SELECT m.scope"
                                     " FROM memories m WHERE m.tenant = ?1 AND m.id = p.older) IN (SELECT value FROM"
                                     " json_each(?2)) ORDER BY older, newer LIMIT ?3",
                                     (tenant, json.dumps(scopes), bound))
        else:  # by the primary key, one lookup per id
            rows = self.conn.execute("SELECT older, newer FROM review_pairs WHERE tenant = ? AND older IN"
                                     " (SELECT value FROM json_each(?)) ORDER BY older, newer LIMIT ?",
                                     (tenant, json.dumps(older), bound))
        return [(row[0], row[1]) for row in rows]

    def dismissed(self, tenant: str, ids: list[str]) -> set[tuple[str, str]]:
        rows = self.conn.execute("SELECT memory, other FROM dismissed_pairs WHERE tenant = ? AND memory IN"
                                 " (SELECT value FROM json_each(?))", (tenant, json.dumps(ids)))
        return {(row[0], row[1]) for row in rows}

    def api_keys(self, key_hash: str | None = None) -> dict[str, ApiKey]:
        rows = self.conn.execute(f"SELECT key_hash, {_KEY_COLUMNS} FROM api_keys WHERE key_hash = ?1 OR ?1 IS NULL"
                                 " ORDER BY created_at, id", (key_hash,))
        return {row[0]: _api_key(row[1:]) for row in rows}

    def tenants_beside(self, tenant: str) -> list[str]:
        if self._one("SELECT 1 FROM memory_counts WHERE tenant = ?1 AND current > 0"
                     " UNION ALL SELECT 1 FROM api_keys WHERE tenant = ?1 LIMIT 1", (tenant,)):
            return [tenant]
        return [row[0] for row in self.conn.execute(backend.TENANTS_HELD)]

    def sessions(
        self, tenant: str, *, ids: list[str] | None = None, scopes: list[str] | None = None,
        limit: int | None = None,
    ) -> list[Session]:
        return session_sql.sessions(self.conn, tenant, ids, scopes, limit)

    def turns(
        self, tenant: str, session_id: str, *, after_seq: int = 0, limit: int | None = None,
        tokens: int | None = None,
    ) -> list[Turn]:
        return session_sql.turns(self.conn, tenant, session_id, after_seq, limit, tokens)

    def search_turns(
        self, tenant: str, chunks: list[list[str]], *, scopes: list[str] | None, session_id: str | None,
        limit: int,
    ) -> list[TurnHit]:
        match = sql.match_expression(chunks)
        if match is None:
            return []
        return session_sql.search_turns(self.conn, tenant, match, scopes, session_id, limit)

    def runs(self, tenant: str, memory_ids: list[str]) -> dict[str, list[Run]]:
        from ..runs import Run  # (no hook reads runs: docs/hooks.md#speed)

        found: dict[str, list[Run]] = {}
        for memory_id, at, outcome, note in self.conn.execute(sql.RUNS, (tenant, json.dumps(memory_ids))):
            found.setdefault(memory_id, []).append(Run(at, outcome, note))
        return found

    # -- writes -----------------------------------------------------------------------

    def append_turns(
        self, tenant: str, scope: str, session_id: str, *, client: str | None, cwd: str | None, now: int,
        turns: list[backend.TurnRow],
    ) -> tuple[list[int], int]:
        return session_sql.append_turns(self.conn, tenant, scope, session_id, client, cwd, now, turns)

    def end_session(self, tenant: str, session_id: str, ended_at: int, digest_id: str | None) -> None:
        session_sql.end_session(self.conn, tenant, session_id, ended_at, digest_id)

    def delete_session(self, tenant: str, session_id: str) -> int:
        gone = session_sql.delete_session(self.conn, tenant, session_id)
        self.conn.execute("INSERT OR REPLACE INTO settings(key, value) VALUES (?, ?)", (SCRUB_DUE, new_id()))
        return gone

    def claim_model(self, model_id: str | None, dim: int) -> bool:
        """Whether vectors of ``model_id`` may be written, recording it on first use."""
        if model_id is None:
            return False
        recorded = recorded_model(self.settings())
        if recorded is None:
            self.conn.executemany(
                "INSERT INTO settings(key, value) VALUES (?, ?)", [(MODEL_ID, model_id), (MODEL_DIM, str(dim))]
            )
            return True
        return recorded == (model_id, dim)

    def insert(self, row: backend.NewRow) -> int:
        if row.vectors and not self.claim_model(row.model, len(row.vectors[0])):
            row = replace(row, vectors=None)
        if self._one("SELECT 1 FROM memories WHERE id = ?", (row.id,)):
            raise Conflict("id", f"a memory with id {row.id} exists already")
        self.conn.execute(
            "INSERT INTO memories(id, tenant, scope, kind, content, content_hash, importance, source, observed_at,"
            " recorded_at, expires_at, supersedes, confirmations, last_confirmed_at, vector_pending, context_seq,"
            " tokens) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                row.id, row.tenant, row.scope, row.kind, row.content, row.content_hash, row.importance, row.source,
                row.observed_at, row.recorded_at, row.expires_at, row.supersedes, row.confirmations,
                row.last_confirmed_at, 0 if row.vectors else 1, row.context_seq, row.tokens,
            ),
        )
        seq = self.conn.last_insert_rowid()
        if row.content is not None:
            context = self._one("SELECT content FROM memories WHERE seq = ?", (row.context_seq,)) if row.context_seq else None
            self._index(row.tenant, seq, row.content, context[0] if context else None)
        if row.idempotency_key is not None:
            self._key(row.tenant, row.idempotency_key, seq, row.content_hash, row.recorded_at)
        self.conn.executemany("INSERT INTO memory_tags(memory_seq, tag) VALUES (?, ?)", [(seq, t) for t in row.tags])
        if row.vectors:
            self._add_vectors(seq, row.vectors)
        if row.supersedes is not None:
            self._link(row.supersedes, row.id, row.reason)
        if row.compacts:
            self._compact(row.tenant, row.compacts, row.id)
        return seq

    def confirm(self, memory_id: str, now: int, key: str | None = None) -> None:
        self.conn.execute(
            "UPDATE memories SET confirmations = confirmations + 1,"
            " last_confirmed_at = max(coalesce(last_confirmed_at, 0), ?) WHERE id = ?", (now, memory_id)
        )
        if key is not None:
            seq, tenant, content_hash = self._one(  # type: ignore[misc]
                "SELECT seq, tenant, content_hash FROM memories WHERE id = ?", (memory_id,))
            self._key(tenant, key, seq, content_hash, now)

    def _key(self, tenant: str, key: str, seq: int, content_hash: str, now: int) -> None:
        self.conn.execute(
            "INSERT INTO idempotency_keys(tenant, key, memory_seq, content_hash, recorded_at) VALUES (?, ?, ?, ?, ?)",
            (tenant, key, seq, content_hash, now),
        )

    def _link(self, old_id: str, new_id: str, reason: str | None) -> None:
        old = self._one("SELECT seq, tenant, content, superseded_by FROM memories WHERE id = ?", (old_id,))
        self.conn.execute("UPDATE memories SET superseded_by = ?, supersede_reason = ? WHERE id = ?", (new_id, reason, old_id))
        if old is not None and old[3] is None and old[2] is not None:
            self._drop_as_context(old[1], old[0], old[2])

    def _compact(self, tenant: str, ids: tuple[str, ...], digest_id: str) -> None:
        """Mark the current memories ``ids`` superseded by the digest ``digest_id``, in three statements
        (one a memory took 1 ms: bench/consolidate.py); a memory continuing one of them as its episode
        loses it, as after a supersede, unless it is one of them (they leave recall together)."""
        sources = "SELECT seq FROM memories WHERE id IN (SELECT value FROM json_each(:ids)) AND tenant = :tenant"
        params = {"ids": json.dumps(list(ids)), "tenant": tenant, "digest": digest_id,
                  "reason": backend.compaction_reason(digest_id)}
        self.conn.execute("UPDATE memories SET superseded_by = :digest, supersede_reason = :reason"
                          f" WHERE seq IN ({sources})", params)
        users = f"m.context_seq IN ({sources}) AND m.seq NOT IN ({sources})"
        for seq, text, context in self.conn.execute(
                "SELECT m.seq, m.content, c.content FROM memories m JOIN memories c ON c.seq = m.context_seq"
                f" WHERE {users} AND m.content IS NOT NULL", params).fetchall():
            self._index(tenant, seq, text, context, delete=True)
            self._index(tenant, seq, text, None)
        self.conn.execute(f"UPDATE memories AS m SET context_seq = NULL WHERE {users}", params)

    def _index(self, tenant: str, seq: int, content: str, context: str | None, delete: bool = False) -> None:
        """Add (``delete``: remove) memory ``seq``'s entry in ``tenant``'s keyword index:
        its ``content`` and its episode ``context``, exactly as indexed (a contentless FTS5
        table's delete must repeat the indexed values); ``keyword_tenants.documents`` follows."""
        index = self._keyword_index(tenant)
        number = create_keyword_index(self.conn, tenant) if index is None else None
        table = index[0] if index is not None else keyword_table(number)  # type: ignore[arg-type]
        command = f"INSERT INTO {table}({table}, rowid, content, context) VALUES ('delete', ?, ?, ?)" if delete \
            else f"INSERT INTO {table}(rowid, content, context) VALUES (?, ?, ?)"
        self.conn.execute(command, (seq, index_text(content), index_text(context)))
        self.conn.execute("UPDATE keyword_tenants SET documents = documents + ? WHERE tenant = ?",
                          (-1 if delete else 1, tenant))
        self._counted(table, seq, content, context, -1 if delete else 1)

    def _counted(self, table: str, seq: int, content: str, context: str | None, change: int) -> None:
        """Apply one entry of ``seq`` added (``change`` 1) to or removed (-1) from the keyword index ``table``
        to the answers kept (``_data``): each term's document count in the entry's column, and ``seq``'s terms."""
        self._read_terms.pop(seq, None)
        if not self._documents:
            return
        for column, text in enumerate((content, context)):
            for term in self._terms(text):
                if (table, term) in self._documents:
                    counts = list(self._documents[table, term])
                    counts[column] += change
                    self._documents[table, term] = (counts[0], counts[1])

    def _drop_as_context(self, tenant: str, seq: int, content: str) -> None:
        """Memories using ``seq`` (whose text is ``content``) as episode context lose it,
        and its words their keyword entries: a superseded or forgotten memory's stale words
        must not make the memory after it match."""
        users = self.conn.execute(
            "SELECT seq, content FROM memories WHERE context_seq = ? AND content IS NOT NULL", (seq,)).fetchall()
        for user, text in users:
            self._index(tenant, user, text, content, delete=True)
            self._index(tenant, user, text, None)
        self.conn.execute("UPDATE memories SET context_seq = NULL WHERE context_seq = ?", (seq,))

    def add_run(self, memory_id: str, at: int, outcome: str, note: str | None) -> None:
        self.conn.execute("INSERT INTO runs(memory_seq, at, outcome, note) SELECT seq, ?, ?, ? FROM memories"
                          " WHERE id = ?", (at, outcome, note, memory_id))

    def link(self, old_id: str, new_id: str, reason: str | None) -> None:
        self.conn.execute("UPDATE memories SET supersedes = ? WHERE id = ?", (old_id, new_id))
        self._link(old_id, new_id, reason)

    def release(self, digest_id: str, ids: list[str]) -> None:
        self.conn.execute("UPDATE memories SET superseded_by = NULL, supersede_reason = NULL"
                          " WHERE id IN (SELECT value FROM json_each(?)) AND superseded_by = ? AND supersede_reason = ?",
                          (json.dumps(ids), digest_id, backend.compaction_reason(digest_id)))

    def dismiss(self, tenant: str, memory_id: str, other_id: str, now: int) -> None:
        self.conn.executemany("INSERT OR REPLACE INTO dismissed_pairs(tenant, memory, other, dismissed_at)"
                              " VALUES (?, ?, ?, ?)",
                              [(tenant, memory_id, other_id, now), (tenant, other_id, memory_id, now)])

    def erase(self, memory_id: str, now: int, reason: str | None) -> None:
        seq, tenant, content, context_seq = self._one(  # type: ignore[misc]
            "SELECT seq, tenant, content, context_seq FROM memories WHERE id = ?", (memory_id,))
        self.conn.execute("DELETE FROM dismissed_pairs WHERE tenant = ?1 AND (memory = ?2 OR (memory, other) IN"
                          " (SELECT other, memory FROM dismissed_pairs WHERE tenant = ?1 AND memory = ?2))",
                          (tenant, memory_id))
        if content is not None:
            context = self._one("SELECT content FROM memories WHERE seq = ?", (context_seq,)) if context_seq else None
            self._index(tenant, seq, content, context[0] if context else None, delete=True)
            self._drop_as_context(tenant, seq, content)
        self._delete_vectors(seq)
        self.conn.execute("DELETE FROM memory_tags WHERE memory_seq = ?", (seq,))
        self.conn.execute("DELETE FROM idempotency_keys WHERE memory_seq = ?", (seq,))
        self.conn.execute("UPDATE runs SET note = NULL WHERE memory_seq = ? AND note IS NOT NULL", (seq,))
        self.conn.execute(
            "UPDATE memories SET content = NULL, content_hash = NULL, source = NULL, tokens = NULL,"
            f" supersede_reason = {KEPT_REASON}, forgotten_at = ?, forget_reason = ?, vector_pending = 0"
            " WHERE seq = ?",
            (now, reason, seq),
        )
        # Recorded with the delete: a crash before the scrub leaves the duty, not silent residue.
        self.conn.execute("INSERT OR REPLACE INTO settings(key, value) VALUES (?, ?)", (SCRUB_DUE, new_id()))

    def _add_vectors(self, seq: int, vectors: list[np.ndarray]) -> None:
        """Store memory ``seq``'s vectors (it has none): window 0 in ``VECTOR_TABLE`` under
        its cell (docs/storage-tuning.md#sqlite-vectors), later windows in ``memory_windows``."""
        key = vector_cells.key(self._cell(vectors[0]), seq)
        self.conn.execute(f"INSERT INTO {VECTOR_TABLE}(key, embedding) VALUES (?, ?)", (key, _blob(vectors[0])))
        self.conn.executemany("INSERT INTO memory_windows(memory_seq, part, embedding) VALUES (?, ?, ?)",
                              [(seq, part, _blob(v)) for part, v in enumerate(vectors[1:], start=1)])

    def _delete_vectors(self, seq: int) -> None:
        self.conn.execute(f"DELETE FROM {VECTOR_TABLE} WHERE {VECTOR_SEQ} = ?", (seq,))
        self.conn.execute("DELETE FROM memory_windows WHERE memory_seq = ?", (seq,))

    def set_vectors(self, seq: int, content: str, vectors: list[np.ndarray], model: str) -> bool:
        row = self._one("SELECT tenant FROM memories WHERE seq = ? AND vector_pending = 1 AND content = ?", (seq, content))
        if row is None or not self.claim_model(model, len(vectors[0])):
            return False
        self._delete_vectors(seq)
        self._add_vectors(seq, vectors)
        self.conn.execute("UPDATE memories SET vector_pending = 0 WHERE seq = ?", (seq,))
        return True

    def change_tenant_setting(self, tenant: str, key: str, change: Callable[[str | None], str]) -> None:
        row = self.conn.execute("SELECT value FROM settings WHERE key = ?", (f"{key}:{tenant}",)).fetchone()
        self.conn.execute("INSERT OR REPLACE INTO settings(key, value) VALUES (?, ?)",  # (the write lock)
                          (f"{key}:{tenant}", change(row[0] if row else None)))

    def change_review_pairs(self, tenant: str, add: set[tuple[str, str]], drop: set[tuple[str, str]],
                            most: int) -> None:
        self.conn.executemany("DELETE FROM review_pairs WHERE tenant = ? AND older = ? AND newer = ?",  # (the write lock)
                              [(tenant, *pair) for pair in drop])
        self.conn.executemany("INSERT OR IGNORE INTO review_pairs(tenant, older, newer) VALUES (?, ?, ?)",
                              [(tenant, *pair) for pair in add])
        self.conn.execute("DELETE FROM review_pairs WHERE tenant = ?1 AND (newer, older) <= (SELECT newer, older"
                          " FROM review_pairs WHERE tenant = ?1 ORDER BY newer DESC, older DESC LIMIT 1 OFFSET ?2)",
                          (tenant, most))

    def put_api_key(self, key_hash: str, key: ApiKey) -> None:
        self.conn.execute(
            f"INSERT INTO api_keys(key_hash, {_KEY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (id) DO UPDATE SET revoked_at = excluded.revoked_at",
            (key_hash, key.id, key.tenant, key.scope, key.name, int(key.read_only), key.created_at,
             key.expires_at, key.revoked_at),
        )
