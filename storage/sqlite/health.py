"""What ``memvault stats`` and ``memvault doctor`` read from an SQLite file: counts,
and SQLite's, FTS5's and memvault's own consistency checks.

The ``memories`` table is the truth; FTS5 entries and vectors are derived from it.
Call these inside a read transaction.
"""

from __future__ import annotations

import re
from pathlib import Path

import apsw

from ..links import shared_problems
from .crypto import file_head
from .db import read_only_uri
from .cells import SEQ_MASK
from .schema import VECTOR_SEQ, VECTOR_TABLE, keyword_table, turn_index_table
from ..backend import SCRUB_DUE


def stats(conn: apsw.Connection, now: int) -> dict[str, object]:
    """Counts over the whole file, as ``maintenance.stats`` describes them."""
    live = "forgotten_at IS NULL AND (expires_at IS NULL OR expires_at > :now)"

    def one(sql: str) -> int:
        return conn.execute(sql, {"now": now}).fetchone()[0]

    by_scope: dict[str, dict[str, int]] = {}
    for tenant, scope, count in conn.execute(
        f"SELECT tenant, scope, count(*) FROM memories WHERE superseded_by IS NULL AND {live}"
        " GROUP BY tenant, scope ORDER BY tenant, scope", {"now": now}
    ):
        by_scope.setdefault(tenant, {})[scope] = count
    settings = dict(conn.execute("SELECT key, value FROM settings").fetchall())
    return {
        "schema_version": one("PRAGMA user_version"),
        "model_id": settings.get("model_id"),
        "tenants": one("SELECT count(DISTINCT tenant) FROM memories"),
        "current": one(f"SELECT count(*) FROM memories WHERE superseded_by IS NULL AND {live}"),
        "superseded": one(f"SELECT count(*) FROM memories WHERE superseded_by IS NOT NULL AND {live}"),
        "expired": one("SELECT count(*) FROM memories WHERE forgotten_at IS NULL AND expires_at <= :now"),
        "forgotten": one("SELECT count(*) FROM memories WHERE forgotten_at IS NOT NULL"),
        "vectors_pending": one("SELECT count(*) FROM memories WHERE vector_pending = 1"),
        "scrub_pending": SCRUB_DUE in settings,
        "by_kind": dict(conn.execute(
            f"SELECT kind, count(*) FROM memories WHERE superseded_by IS NULL AND {live} GROUP BY kind", {"now": now}
        )),
        "by_scope": by_scope,
    }


def check(conn: apsw.Connection) -> list[str]:
    """Every inconsistency of the file, as sentences; an empty list means healthy.

    SQLite's ``integrity_check``, FTS5's own ``integrity-check`` against the
    memories, that FTS entries, vectors and memories agree by id, that vectors
    are not pending, that no tombstone keeps content, and that supersession links
    are complete both ways and form no cycle.
    """
    problems: list[str] = []
    tables = conn.execute("SELECT tenant, number, documents FROM keyword_tenants").fetchall()
    # A query first: it makes FTS5 read its structure afresh in this snapshot; the
    # integrity_check pragma alone used the structure this connection cached before
    # another connection's rebuild, and reported blobs the rebuild had replaced.
    for _, number, _ in tables:
        conn.execute(f"SELECT count(*) FROM {keyword_table(number)} WHERE {keyword_table(number)} MATCH 'memvault'")
    integrity = failed_pages(conn, "integrity_check")
    if integrity:
        problems.append(f"the database file is damaged: {integrity}")

    def one(sql: str, params: tuple = ()) -> int:
        return conn.execute(sql, params).fetchone()[0]

    unchecked: str | None = None  # why FTS5's check could not run: said once, not once per tenant
    for tenant, number, documents in tables:
        table = keyword_table(number)
        # FTS5's check is an INSERT command: in this read transaction it needs the write lock,
        # which another connection may hold, or which a commit made since this snapshot began
        # refuses. That says nothing about the index, and the message says so; the next
        # tenant's check would meet the same lock, so none is tried after it.
        try:
            if unchecked is None:
                conn.execute(f"INSERT INTO {table}({table}, rank) VALUES ('integrity-check', 0)")
        except (apsw.BusyError, apsw.LockedError) as exc:
            unchecked = f"another connection was writing ({exc}); run the check again"
        except apsw.ReadOnlyError:  # the check needs the write lock: a read-only file, not a problem (doctor's note)
            unchecked = ""
        except apsw.Error as exc:
            problems.append(f"the FTS5 index of tenant {tenant!r} is damaged ({exc})")
        missing_fts = one(
            "SELECT count(*) FROM memories m WHERE m.tenant = ? AND m.content IS NOT NULL"
            f" AND NOT EXISTS (SELECT 1 FROM {table}_docsize d WHERE d.id = m.seq)", (tenant,))
        stray_fts = one(
            f"SELECT count(*) FROM {table}_docsize d WHERE NOT EXISTS"
            " (SELECT 1 FROM memories m WHERE m.seq = d.id AND m.tenant = ? AND m.content IS NOT NULL)", (tenant,))
        if missing_fts or stray_fts or one(f"SELECT count(*) FROM {table}_docsize") != documents:
            problems.append(f"FTS5: {missing_fts} memories of tenant {tenant!r} lack an entry, "
                            f"{stray_fts} entries have no memory")
    if unchecked:
        problems.append(f"the FTS5 index could not be checked: {unchecked}")
    unindexed = one("SELECT count(*) FROM memories WHERE content IS NOT NULL"
                    " AND tenant NOT IN (SELECT tenant FROM keyword_tenants)")
    if unindexed:
        problems.append(f"FTS5: {unindexed} memories lack an entry")
    problems += _turn_index_problems(conn)
    missing_vec = one(
        f"SELECT count(*) FROM memories m WHERE m.content IS NOT NULL AND m.vector_pending = 0"
        f" AND NOT EXISTS (SELECT 1 FROM {VECTOR_TABLE} WHERE {VECTOR_SEQ} = +m.seq)"
    )
    stray_vec = one(
        f"SELECT count(*) FROM {VECTOR_TABLE} v WHERE NOT EXISTS"
        f" (SELECT 1 FROM memories m WHERE m.seq = (v.key & {SEQ_MASK}) AND m.content IS NOT NULL)"
    )
    if missing_vec or stray_vec:
        problems.append(
            f"vectors: {missing_vec} memories marked embedded have none, "
            f"{stray_vec} vectors belong to no live memory"
        )
    problems += shared_problems(one, lambda sql: conn.execute(sql).fetchall(), "vector_pending = 1")
    return problems


def _turn_index_problems(conn: apsw.Connection) -> list[str]:
    """Each tenant's turn index (``schema.turn_index_table``) is there and holds one entry a turn."""
    repair = "`memvault doctor --repair` rebuilds it from the turns"
    if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'turn_index_tenants'").fetchone():
        return [f"the turn index is missing (table turn_index_tenants): {repair}"]
    problems = []
    numbers = dict(conn.execute("SELECT tenant, number FROM turn_index_tenants").fetchall())
    counts = conn.execute("SELECT s.tenant, count(*) FROM turns t JOIN sessions s ON s.seq = t.session_seq"
                          " GROUP BY s.tenant").fetchall()
    for tenant, turns in counts:
        table = turn_index_table(numbers[tenant]) if tenant in numbers else None
        if table is None or not conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (table,)).fetchone():
            problems.append(f"the turn index of tenant {tenant!r} is missing: {repair}")
        elif (entries := conn.execute(f"SELECT count(*) FROM {table}_docsize").fetchone()[0]) != turns:
            problems.append(f"the turn index of tenant {tenant!r} holds {entries:,} entries for {turns:,} turns: "
                            f"{repair}")
    return problems


SQLITE_MAGIC = b"SQLite format 3\x00"  # the file header's first 16 bytes (sqlite.org/fileformat2.html)
BTREE_PAGE_TYPES = {2, 5, 10, 13}  # the first byte of an interior or leaf b-tree page
RECOVERY = "docs/troubleshooting.md#a-damaged-database"


def damage(path: Path) -> list[str]:
    """What is wrong with the SQLite file at ``path`` that memvault cannot open or read, as
    sentences naming the check that failed (file format: sqlite.org/fileformat2.html);
    an empty list when these checks find nothing. Reads the file only (see also :func:`lone_shm`)."""
    problems: list[str] = []
    head = file_head(path, 100) or b""  # not Python's open: see crypto.file_head
    size = path.stat().st_size
    if len(head) < 100:
        return [f"the file is {size:,} bytes, shorter than SQLite's 100-byte header: it was "
                "truncated (a copy or write cut short) or is not a database"]
    page_size = int.from_bytes(head[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if head[:16] != SQLITE_MAGIC:
        return [overwritten(path) or (
            "the header check failed: the file does not start with SQLite's header and its pages are not "
            "SQLite's: it is encrypted (set MEMVAULT_KEY_FILE), another program's file, or overwritten")]
    pages = int.from_bytes(head[28:32], "big")
    counted = head[24:28] == head[92:96]  # the page count is valid only when written by this version
    if not _power_of_two(page_size) or page_size < 512:
        problems.append(f"the header check failed: its page size {page_size} is not a power of two "
                        "from 512 to 65536 (the header was overwritten)")
    elif counted and size < pages * page_size:
        problems.append(short_problem(size, page_size, pages))
    elif size % page_size:
        problems.append(part_page(size, page_size))
    if not problems:
        problems += _quick_check(path)
    return problems


def part_page(size: int, page_size: int) -> str:
    """The problem of a file of ``size`` bytes holding part of a ``page_size``-byte page (SQLite
    writes, checkpoints and truncates whole pages only)."""
    return (f"the size check failed: {size:,} bytes is not a whole number of {page_size:,}-byte pages: it was "
            "truncated or appended to")


def cut_in_a_page(path: Path) -> str | None:
    """:func:`part_page`'s problem when the SQLite file at ``path`` (its header read) ends inside a
    page, else None. Cheap enough for every open; unlike a page count larger than the file, never
    true of a healthy file while another process checkpoints into it."""
    shape = _shape(path)
    if shape is None or not shape[0] % shape[1]:
        return None
    return part_page(shape[0], shape[1])


def short_of_pages(path: Path) -> str | None:
    """The size check's problem when the SQLite file at ``path`` is shorter than the pages its header counts
    (a count written by this SQLite version), naming both; else None (also for an encrypted file, whose
    header is not read here). O(1): a stat and the first 100 bytes. True for a moment of a healthy file too,
    while a checkpoint writes into it (page 1 first, then the pages that extend the file): callers look again."""
    shape = _shape(path)
    if shape is None or not shape[2] or shape[0] >= shape[2] * shape[1]:
        return None
    return short_problem(*shape)


def short_problem(size: int, page_size: int, pages: int) -> str:
    """The size check's problem of a file of ``size`` bytes whose header counts ``pages`` of ``page_size``."""
    return (f"the size check failed: the file is {size:,} bytes but its header counts {pages:,} pages of "
            f"{page_size:,} bytes ({pages * page_size:,} bytes): it was truncated (a copy or write cut short, "
            "or a full disk)")


def _shape(path: Path) -> tuple[int, int, int] | None:
    """``(bytes, page size, pages counted or 0)`` of the SQLite file at ``path`` whose header is SQLite's
    with a valid page size, else None (file format: sqlite.org/fileformat2.html)."""
    head = file_head(path, 100)  # not Python's open: see crypto.file_head
    if head is None or len(head) < 100 or head[:16] != SQLITE_MAGIC:
        return None
    page_size = int.from_bytes(head[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if not _power_of_two(page_size) or page_size < 512:
        return None
    counted = head[24:28] == head[92:96]  # the page count is valid only when written by this version
    return path.stat().st_size, page_size, int.from_bytes(head[28:32], "big") if counted else 0


def overwritten(path: Path) -> str | None:
    """The problem of a file whose first bytes are not SQLite's header while its next pages are
    SQLite b-tree pages (an encrypted file's pages look random), or None."""
    head = file_head(path, 100) or b""  # not Python's open: see crypto.file_head
    if head[:16] == SQLITE_MAGIC or len(head) < 100:
        return None
    page_size = int.from_bytes(head[16:18], "big")
    page_size = page_size if _power_of_two(page_size) and page_size >= 512 else 4096
    pages = file_head(path, 9 * page_size) or b""
    seen = [pages[page_size * n] if len(pages) > page_size * n else None for n in range(1, 9)]
    if sum(t in BTREE_PAGE_TYPES for t in seen) < 4:
        return None
    return ("the header check failed: the file's first bytes are not SQLite's header ('SQLite format 3') "
            "although its pages are SQLite's: the header was overwritten")


def lone_shm(path: Path) -> list[str]:
    """The problem of a ``-shm`` left without its ``-wal`` (look before opening: an open makes a new -wal)."""
    wal, shm = Path(f"{path}-wal"), Path(f"{path}-shm")
    if not shm.exists() or wal.exists():
        return []
    return [f"{shm.name} is there without {wal.name}: if the -wal was deleted, or a copy left it behind, the "
            "changes not yet checkpointed into the file are lost; restore the three files together from the "
            "same copy if you have one"]


def _power_of_two(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def _quick_check(path: Path) -> list[str]:
    """SQLite's ``quick_check`` of ``path`` opened read-only, the damaged pages' tables named."""
    try:
        conn = apsw.Connection(read_only_uri(path), flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    except apsw.Error as exc:
        return [f"SQLite cannot open the file ({exc})"]
    try:
        found = failed_pages(conn, "quick_check")
    except apsw.Error as exc:
        return [f"SQLite's integrity check failed: it could not read the file ({exc})"]
    finally:
        conn.close()
    return [found] if found else []


def failed_pages(conn: apsw.Connection, pragma: str) -> str | None:
    """SQLite's ``pragma`` (integrity_check or quick_check) as one sentence naming the tables
    whose pages are damaged, or None when it says ok."""
    lines = [line for r in conn.execute(f"PRAGMA {pragma}(20)") for line in r[0].splitlines()
             if not line.startswith("***")]  # "*** in database main ***" heads the list
    if lines == ["ok"]:
        return None
    roots = dict(conn.execute("SELECT rootpage, name FROM sqlite_schema WHERE rootpage > 0").fetchall())
    named = sorted({roots[int(m)] for line in lines for m in re.findall(r"Tree (\d+)", line) if int(m) in roots})
    where = f" in the pages of {', '.join(named)}" if named else ""
    return f"SQLite's integrity check failed{where}: " + "; ".join(lines[:3])
