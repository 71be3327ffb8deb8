"""memvault on PostgreSQL with pgvector: ``PostgresBackend`` implements ``storage.backend.Backend``.
More: docs/storage-tuning.md#postgres-init."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator

import psycopg
from psycopg import sql as pgsql

from ..errors import StorageUnavailable
from ..limits import BUSY_TIMEOUT_MS
from ..links import shared_problems
from . import schema, statistics
from ..backend import MODEL_DIM, MODEL_ID, SCRUB_DUE
from .backend import PgReader, PgWriter, put_settings
from .connect import connect, location, open_pool, pooled, transaction, translated
from .statistics import STATISTICS_DUE

log = logging.getLogger(__name__)
POOL_SIZE = 8
# Rewritten by a scrub (VACUUM FULL); the vector tables get a plain VACUUM
# (docs/storage-tuning.md#postgres-init-scrub).
SCRUB_TABLES = ("memories", "memory_tags", "idempotency_keys", "sessions", "turns", "runs", "keyword_terms")
SCRUB_LOCK_TIMEOUT_MS = 1_000  # a waiting VACUUM FULL queues every reader behind it: give up soon

__all__ = ["PostgresBackend", "schema_exists"]


class PostgresBackend:
    """Memories of many tenants in one PostgreSQL database (``storage.backend.Backend``).
    More: docs/storage-tuning.md#postgres-init-postgresbackend.

    Raises:
        StoreError: the server cannot be reached, pgvector is missing, or the database is
            another program's or a newer memvault's (nothing changed).
    """

    kind = "postgresql"
    read_only: str | None = None  # as SqliteBackend's: a read-only server refuses each write itself
    damaged: str | None = None  # as SqliteBackend's: PostgreSQL refuses what it cannot read or write itself
    unreadable: str | None = None  # as SqliteBackend's: a read PostgreSQL refuses says so itself

    def __init__(self, url: str, *, busy_timeout_ms: int = BUSY_TIMEOUT_MS, pool_size: int = POOL_SIZE) -> None:
        self.location = location(url)
        self.busy_timeout_ms = busy_timeout_ms
        with connect(url) as conn:
            self.schema_version = schema.migrate(conn)
            # A serving role that is not the owner may not scrub or reset vectors.
            self.owner = schema.is_owner(conn)
        self._pool = open_pool(url, pool_size, busy_timeout_ms / 1000)
        self._seen: set[str] = set()  # see PgReader

    @contextlib.contextmanager
    def read(self, tenant: str | None) -> Iterator[PgReader]:
        """One ``REPEATABLE READ`` read-only transaction bound to ``tenant`` (None: every tenant)."""
        with transaction(self._pool, tenant, write=False, busy_timeout_ms=self.busy_timeout_ms,
                         owner=self.owner) as conn:
            yield PgReader(conn, tenant, self._seen)

    @contextlib.contextmanager
    def write(self, tenant: str | None) -> Iterator[PgWriter]:
        """One ``READ COMMITTED`` write transaction bound to ``tenant`` (None: every tenant)."""
        with transaction(self._pool, tenant, write=True, busy_timeout_ms=self.busy_timeout_ms,
                         owner=self.owner) as conn:
            yield PgWriter(conn, tenant, self._seen)

    def put_setting(self, key: str, value: str | None) -> None:
        """Set (None: delete) one setting in its own transaction (a repair, not the contract)."""
        with self.write(None) as w:
            if value is None:
                w.conn.execute("DELETE FROM settings WHERE key = %s", (key,))
            else:
                put_settings(w.conn, {key: value})

    def _scrub_due(self) -> str | None:
        with self.read(None) as r:
            return r.settings().get(SCRUB_DUE)

    def maintain(self, stop: Callable[[], bool]) -> bool:
        """Nothing, off the request path: PostgreSQL keeps the HNSW index up to date itself, and
        :meth:`scrub` (``VACUUM FULL``, which shuts every reader and writer out for its whole run:
        docs/postgresql.md#what-forget-guarantees) runs only when asked
        (``Upkeep.scrub``: ``memvault doctor``). True when no scrub is due."""
        return self._scrub_due() is None

    def scrub(self) -> bool:
        """Rewrite the tables that held forgotten text, if a scrub is due; True when none is due any more.
        More: docs/storage-tuning.md#postgres-init-scrub."""
        try:
            due = self._scrub_due()
            if due is None:
                return True
            if not self.owner:  # VACUUM would skip the tables with a warning
                log.warning("scrub of forgotten content postponed: only the role owning memvault's tables may "
                            "rewrite them (`memvault doctor --repair` as that role; docs/postgresql.md)")
                return False
            with translated(self.busy_timeout_ms), pooled(self._pool, self.busy_timeout_ms / 1000) as conn:
                conn.execute("SELECT set_config('lock_timeout', %s, false)", (f"{SCRUB_LOCK_TIMEOUT_MS}ms",))
                try:
                    for table in (*SCRUB_TABLES, *schema.VECTOR_TABLES):
                        if conn.execute("SELECT to_regclass(%s)", (table,)).fetchone() != (None,):
                            full = pgsql.SQL("FULL " if table in SCRUB_TABLES else "")
                            conn.execute(pgsql.SQL("VACUUM {}{}").format(full, pgsql.Identifier(table)))
                    if conn.execute("SELECT 1 FROM settings WHERE key = %s", (STATISTICS_DUE,)).fetchone():
                        refused = statistics.clear(conn)
                        if refused is not None:
                            log.warning("scrub of forgotten content postponed: pg_statistic may hold values of "
                                        "forgotten memories sampled by ANALYZE, and %s (docs/postgresql.md)", refused)
                            return False
                        conn.execute("DELETE FROM settings WHERE key = %s", (STATISTICS_DUE,))
                    with contextlib.suppress(psycopg.errors.InsufficientPrivilege):
                        conn.execute("CHECKPOINT")
                    conn.execute("DELETE FROM settings WHERE key = %s AND value = %s", (SCRUB_DUE, due))
                finally:
                    conn.execute("RESET lock_timeout")
            return self._scrub_due() is None  # False if another forget came in meanwhile
        except (psycopg.Error, StorageUnavailable) as exc:
            log.warning("scrub of forgotten content postponed: %s", exc)
            return False

    def stats(self, now: int) -> dict[str, object]:
        """Counts over the whole database, as ``maintenance.stats`` gives them for SQLite."""
        live = "forgotten_at IS NULL AND (expires_at IS NULL OR expires_at > %(now)s)"
        p = {"now": now}
        with self.read(None) as r:
            by_scope: dict[str, dict[str, int]] = {}
            for tenant, scope, n in r._all(
                f"SELECT tenant, scope, count(*) FROM memories WHERE superseded_by IS NULL AND {live}"
                " GROUP BY tenant, scope ORDER BY tenant, scope", p,
            ):
                by_scope.setdefault(tenant, {})[scope] = int(n)
            settings = dict(r._all("SELECT key, value FROM settings"))
            counted = r._one(
                "SELECT (SELECT version FROM memvault_schema), count(DISTINCT tenant),"
                f" count(*) FILTER (WHERE superseded_by IS NULL AND {live}),"
                f" count(*) FILTER (WHERE superseded_by IS NOT NULL AND {live}),"
                " count(*) FILTER (WHERE forgotten_at IS NULL AND expires_at <= %(now)s),"
                " count(*) FILTER (WHERE forgotten_at IS NOT NULL), count(*) FILTER (WHERE vector_pending)"
                " FROM memories", p,
            )
            names = ("schema_version", "tenants", "current", "superseded", "expired", "forgotten",
                     "vectors_pending")
            values = {name: int(n) for name, n in zip(names, counted, strict=True)}  # type: ignore[arg-type]
            return {
                "database": self.location,
                "schema_version": values.pop("schema_version"),
                "model_id": settings.get("model_id"),
                **values,
                "scrub_pending": SCRUB_DUE in settings,
                "by_kind": {k: int(n) for k, n in r._all(
                    f"SELECT kind, count(*) FROM memories WHERE superseded_by IS NULL AND {live} GROUP BY kind", p)},
                "by_scope": by_scope,
            }

    def tenants(self) -> list[str]:
        """The tenants holding current memories, from the counts kept as memories change (no scan)."""
        with self.read(None) as r:
            return [row[0] for row in r._all(
                "SELECT DISTINCT tenant FROM memory_counts WHERE current > 0 ORDER BY tenant")]

    def check(self) -> list[str]:
        """Every inconsistency of the database's structures, as sentences (``maintenance.check``)."""
        problems: list[str] = []
        with self.read(None) as r:

            def one(query: str) -> int:
                return int(r._one(query)[0])  # type: ignore[index]

            missing = one("SELECT count(*) FROM memories WHERE content IS NOT NULL AND content_terms IS NULL")
            stray = one("SELECT count(*) FROM memories WHERE content IS NULL"
                        " AND (content_terms IS NOT NULL OR context_terms IS NOT NULL)")
            if missing or stray:
                problems.append(f"full-text index: {missing} memories lack their words, {stray} tombstones keep theirs")
            if r.has_vectors():
                missing_vec = one("SELECT count(*) FROM memories m WHERE m.content IS NOT NULL AND NOT m.vector_pending"
                                  " AND NOT EXISTS (SELECT 1 FROM memory_vectors v WHERE v.memory_seq = m.seq)")
                stray_vec = one(
                    "SELECT (SELECT count(*) FROM memory_vectors v WHERE NOT EXISTS (SELECT 1 FROM memories m"
                    " WHERE m.seq = v.memory_seq AND m.content IS NOT NULL)) + (SELECT count(*) FROM memory_windows w"
                    " WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.seq = w.memory_seq AND m.content IS NOT NULL))"
                )
                if missing_vec or stray_vec:
                    problems.append(f"vectors: {missing_vec} memories marked embedded have none, "
                                    f"{stray_vec} vectors belong to no live memory")
            documents = one(f"SELECT count(*) FROM ({schema.DOCUMENT_COUNTS}) want(tenant, n) FULL JOIN"
                            " keyword_documents k USING (tenant) WHERE want.n IS DISTINCT FROM nullif(k.documents, 0)")
            terms = one(f"SELECT count(*) FROM ({schema.TERM_COUNTS}) want(tenant, term, content, context)"
                        " FULL JOIN keyword_terms k USING (tenant, term) WHERE want.content IS DISTINCT FROM"
                        " k.content OR want.context IS DISTINCT FROM k.context")
            if documents or terms:
                problems.append(f"keyword statistics: {documents} tenants' memory counts and {terms} words' counts "
                                "disagree with the memories (`memvault doctor --repair` counts them again)")
            problems += shared_problems(one, r._all, "vector_pending")
        return problems

    def rebuild_keyword_index(self) -> None:
        """Write every memory's stored ``tsvector``s again from its content, and the keyword
        statistics from them (one transaction)."""
        with self.write(None) as w:
            w.index_keywords()
            w.conn.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the counting triggers fire now, not after the recount
            w.conn.execute("DELETE FROM keyword_terms")
            w.conn.execute(f"INSERT INTO keyword_terms {schema.TERM_COUNTS}")
            w.conn.execute("DELETE FROM keyword_documents")
            w.conn.execute(f"INSERT INTO keyword_documents {schema.DOCUMENT_COUNTS}")

    def reset_vectors(self, model_id: str, dim: int) -> None:
        """Drop every vector, record ``model_id``/``dim`` (new vector tables of that dimension)
        and mark every live memory pending, in one transaction."""
        with self.write(None) as w:
            w.conn.execute("SELECT pg_advisory_xact_lock(%s)", (schema.MODEL_LOCK,))
            for statement in schema.drop_vector_tables_sql():
                w.conn.execute(statement)
            w.conn.execute("SELECT memvault_vector_tables(%s)", (dim,))
            put_settings(w.conn, {MODEL_ID: model_id, MODEL_DIM: str(dim)})
            w.conn.execute("UPDATE memories SET vector_pending = true WHERE content IS NOT NULL")

    def warm_up(self, stop: Callable[[], bool] = lambda: False) -> None:
        """Nothing to do: the server's own buffer cache serves the HNSW index."""

    def close(self) -> None:
        """Close every pooled connection; the backend cannot be used afterwards."""
        self._pool.close()


def schema_exists(url: str) -> bool:
    """Whether the database at ``url`` holds memvault's schema; changes nothing (StoreError: no login)."""
    with connect(url) as conn:
        return schema.check_compatible(conn) > 0
