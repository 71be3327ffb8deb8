"""Connecting to PostgreSQL: connections, the pool, transactions bound to a tenant, and
memvault's errors for the server's failures. Connections autocommit and every transaction
is opened with ``BEGIN``, so ``VACUUM`` uses the same pool."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

import psycopg
from pgvector.psycopg import register_vector
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import ConnectionPool, PoolTimeout

from ..errors import Busy, StorageUnavailable, StoreError
from ..location import is_url, redacted, scrubbed
from .schema import APP_ROLE

CONNECT_TIMEOUT_S = 10
# How long a request waits for a pooled connection before asking whether the server can be reached
# at all, when the pool is not full (so no other request holds what it waits for): under /healthz's
# 2 s probe, so a stopped server is said as unreachable, not as a timeout or a busy database.
REACH_AFTER_S = 0.5
REACH_TIMEOUT_S = 2  # libpq's connect_timeout minimum


def location(url: str) -> str:
    """``url`` as it may be shown, never the password: a URL as given with ``***`` for its
    password, a libpq key=value string as ``postgresql://user@host:port/dbname``."""
    if is_url(url):
        return redacted(url)
    try:
        parts = conninfo_to_dict(url)
    except psycopg.ProgrammingError as exc:
        raise StoreError(f"not a PostgreSQL connection string ({scrubbed(str(exc), url)})") from exc
    user = f"{parts['user']}@" if parts.get("user") else ""
    port = f":{parts['port']}" if parts.get("port") else ""
    return f"postgresql://{user}{parts.get('host', '')}{port}/{parts.get('dbname', '')}"


def connect(url: str) -> psycopg.Connection:
    """One autocommit connection (for checks and migrations).

    Raises:
        StoreError: a malformed URL, or no login; the message never holds the password.
    """
    try:
        return psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S)
    except psycopg.ProgrammingError as exc:  # libpq cannot parse it (an unknown parameter, a bad %-escape)
        raise StoreError(f"not a valid PostgreSQL URL: {location(url)}: {scrubbed(str(exc), url)}") from exc
    except psycopg.OperationalError as exc:  # libpq may quote a badly encoded password
        text = scrubbed(str(exc), url)
        reason = "; ".join(line.strip() for line in text.splitlines() if line.strip()) or type(exc).__name__
        hint = ""
        if "password" in text:
            hint = " (wrong user name or password)"
        elif re.search(r'role "[^"]*" does not exist', text):
            hint = " (no such role: check the user name, or create the role first)"
        elif re.search(r'database "[^"]*" does not exist', text):
            hint = " (no such database: create it first)"
        raise StoreError(f"cannot connect to PostgreSQL at {location(url)}{hint}: {reason}") from exc


def open_pool(url: str, size: int, timeout_s: float) -> ConnectionPool:
    """A pool of up to ``size`` autocommit connections with pgvector's types registered.

    Raises:
        StoreError: no connection could be opened within ``timeout_s``.
    """

    pool = ConnectionPool(
        url, min_size=1, max_size=size, timeout=timeout_s, open=False, configure=register_vector,
        kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT_S}, name="memvault",
    )
    try:
        pool.open(wait=True, timeout=max(timeout_s, CONNECT_TIMEOUT_S))
    except PoolTimeout as exc:
        pool.close()
        reason = scrubbed(str(exc), url)
        raise StoreError(f"cannot open connections to PostgreSQL at {location(url)}: {reason}") from exc
    return pool


def unavailable(exc: Exception, busy_timeout_ms: int) -> StorageUnavailable | None:
    """memvault's error for a PostgreSQL failure that is not memvault's fault, or None.
    More: docs/storage-tuning.md#postgres-connect-unavailable."""
    seconds = busy_timeout_ms / 1000
    if isinstance(exc, PoolTimeout):
        return Busy(f"the database is busy: no connection became free within {seconds:g} s. "
                    "Nothing was written; retrying is safe.")
    if isinstance(exc, (psycopg.errors.LockNotAvailable, psycopg.errors.DeadlockDetected,
                        psycopg.errors.SerializationFailure)):
        return Busy(f"the database is busy: another writer held a row this one needs ({exc.diag.message_primary}). "
                    "Nothing was written; retrying is safe.")
    if isinstance(exc, psycopg.errors.DiskFull):
        return StorageUnavailable(f"the PostgreSQL server's disk is full ({exc.diag.message_primary}). Nothing "
                                  "was written; retrying is safe but fails again until space is freed.")
    if isinstance(exc, psycopg.errors.ReadOnlySqlTransaction):
        return StorageUnavailable(f"the PostgreSQL server is read-only ({exc.diag.message_primary}), e.g. a "
                                  "standby. Nothing was written; connect to the primary.")
    if isinstance(exc, psycopg.errors.InsufficientPrivilege):
        return StorageUnavailable(f"this PostgreSQL role may not do that ({exc.diag.message_primary}): maintenance "
                                  "across tenants and API keys are the schema owner's (docs/postgresql.md). "
                                  "Nothing was written.")
    if isinstance(exc, psycopg.OperationalError):
        return StorageUnavailable(f"the connection to PostgreSQL failed ({str(exc).strip() or type(exc).__name__}). "
                                  "Nothing was written; retrying is safe once the server is back.")
    return None


@contextlib.contextmanager
def pooled(pool: ConnectionPool, timeout_s: float) -> Iterator[psycopg.Connection]:
    """``pool.connection(timeout_s)``, telling an unreachable server from a full pool: when no
    connection comes within :data:`REACH_AFTER_S` while the pool is below its size or failed to
    connect meanwhile, one direct connection attempt says whether the server answers.

    Raises:
        StorageUnavailable: the server refused or did not answer that attempt (its reason).
        PoolTimeout: no connection within ``timeout_s`` (the pool full: busy).
    """
    first = min(timeout_s, REACH_AFTER_S)
    failed = pool.get_stats().get("connections_errors", 0)
    try:
        conn = pool.getconn(timeout=first)
    except PoolTimeout:
        stats = pool.get_stats()  # psycopg_pool's counters: pool_size includes connections being made
        if stats.get("pool_size", 0) < stats.get("pool_max", pool.max_size) or \
                stats.get("connections_errors", 0) > failed:
            _reach(pool)
        if timeout_s <= first:
            raise
        conn = pool.getconn(timeout=timeout_s - first)
    try:
        with conn:
            yield conn
    finally:
        pool.putconn(conn)


def _full(exc: psycopg.OperationalError) -> bool:
    """Whether the server refused the connection for being at its connection limit (SQLSTATE 53300,
    ``too_many_connections``: the role's, the database's, or the server's "sorry, too many clients
    already", which a connection attempt gets without its SQLSTATE)."""
    return exc.sqlstate == "53300" or any(said in str(exc) for said in ("too many connections", "too many clients"))


def _reach(pool: ConnectionPool) -> None:
    """One direct connection to the pool's server, closed at once; raise when it fails."""
    try:
        psycopg.connect(pool.conninfo, **{**pool.kwargs, "connect_timeout": REACH_TIMEOUT_S}).close()
    except psycopg.OperationalError as exc:
        if _full(exc):  # the server answers, at its connection limit: busy, as a full pool is
            return
        text = scrubbed(str(exc), pool.conninfo)
        reason = "; ".join(line.strip() for line in text.splitlines() if line.strip()) or type(exc).__name__
        raise StorageUnavailable(
            f"PostgreSQL is unreachable: no connection can be opened ({reason}). Nothing was written; retrying "
            "is safe once the server is back (docs/troubleshooting.md#postgresql-unreachable)."
        ) from exc


@contextlib.contextmanager
def translated(busy_timeout_ms: int) -> Iterator[None]:
    """Raise memvault's error (see :func:`unavailable`) for the server's failures in the block."""
    try:
        yield
    except (psycopg.Error, PoolTimeout) as exc:
        mapped = unavailable(exc, busy_timeout_ms)
        if mapped is None:
            raise
        raise mapped from exc


@contextlib.contextmanager
def transaction(
    pool: ConnectionPool, tenant: str | None, *, write: bool, busy_timeout_ms: int, owner: bool = True
) -> Iterator[psycopg.Connection]:
    """A pooled connection inside one transaction, committed when the block ends without error.
    More: docs/storage-tuning.md#postgres-connect-transaction.

    Raises:
        Busy, StorageUnavailable: see :func:`unavailable` (rolled back).
    """
    with translated(busy_timeout_ms), pooled(pool, busy_timeout_ms / 1000) as conn:
        try:
            with conn.pipeline():  # one round trip; set_config('role', ...) is SET LOCAL ROLE
                conn.execute("BEGIN ISOLATION LEVEL READ COMMITTED" if write else
                             "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                timeout = f"{int(busy_timeout_ms)}ms"
                if tenant is None and owner:
                    conn.execute("SELECT set_config('lock_timeout', %s, true)", (timeout,))
                elif tenant is None:
                    conn.execute("SELECT set_config('lock_timeout', %s, true), set_config('role', %s, true)",
                                 (timeout, APP_ROLE))
                else:
                    conn.execute("SELECT set_config('lock_timeout', %s, true), set_config('role', %s, true),"
                                 " set_config('memvault.tenant', %s, true)", (timeout, APP_ROLE, tenant))
            yield conn
            conn.execute("COMMIT")
        except BaseException:
            if not conn.closed:
                with contextlib.suppress(psycopg.Error):
                    conn.execute("ROLLBACK")
            raise
