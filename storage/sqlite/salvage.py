"""Reading the memories of a damaged SQLite file around its damaged pages, for ``memvault export``.

SQLite stops a table scan at the first damaged page. A plain file is read here page by page
instead (the SQLite file format: https://www.sqlite.org/fileformat2.html, as SQLite's own
``.recover`` does): every b-tree leaf page that parses is read, with the committed frames of its
``-wal`` over the file's pages, and each record shaped as a ``memories`` row (or a
``memory_tags`` entry) is kept. An encrypted file's pages are read through SQLite one memory at
a time (a lookup by its number reaches every leaf whose path from the root is intact).
More: docs/troubleshooting.md#a-damaged-database.
"""

from __future__ import annotations

import mmap
import re
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import apsw

from ..limits import KINDS
from ..records import Memory
from .crypto import Key
from .db import read_only_uri

# The columns of a ``memories`` record in the order of the table (schema.py: ``_V1``, then ``tokens``).
_COLUMNS = ("seq", "id", "tenant", "scope", "kind", "content", "content_hash", "importance", "source", "observed_at",
            "recorded_at", "expires_at", "supersedes", "superseded_by", "supersede_reason", "forgotten_at",
            "forget_reason", "confirmations", "last_confirmed_at", "vector_pending", "context_seq", "tokens")
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_MAGIC = b"SQLite format 3\x00"
_TABLE_LEAF, _INDEX_LEAF, _INDEX_INTERIOR = 0x0D, 0x0A, 0x02
_WAL_MAGIC = (0x377F0682, 0x377F0683)
_PROBED = 1_000  # rows read past the last one found when the table's highest number cannot be read


@dataclass
class Salvaged:
    """What could be read: ``memories`` by their row number (of every tenant); ``missing``, the row
    numbers from 1 to the highest seen (in a row or an index entry) whose row could not be read
    (memories are never deleted, only emptied: each is a memory lost to the damage); ``lost``, the
    ids and tenants of those an index entry still names; ``untagged``, the ids of memories read whose
    tags may not all have been read (their pages are damaged); ``exact``, whether ``missing`` is the
    count (SQLite read the highest number) or at least it."""

    memories: dict[int, Memory] = field(default_factory=dict)
    missing: int = 0
    lost: dict[str, str] = field(default_factory=dict)
    untagged: list[str] = field(default_factory=list)
    exact: bool = False


def salvage(path: Path, key: Key | None) -> Salvaged:
    """The memories of the SQLite file at ``path`` that can still be read (``key``: it is encrypted)."""
    rows, entries, named, highest, untagged = _by_lookup(path, key) if key is not None else _by_page(path)
    tags: dict[int, set[str]] = {}
    for seq, tag in entries:
        tags.setdefault(seq, set()).add(tag)
    found = Salvaged()
    for seq in sorted(rows):
        record = dict(zip(_COLUMNS, rows[seq], strict=False))
        kept = {name: record.get(name) for name in _COLUMNS if name not in ("seq", "content_hash", "context_seq")}
        found.memories[seq] = Memory(**{**kept, "vector_pending": bool(kept["vector_pending"])},  # type: ignore[arg-type]
                                     tags=tuple(sorted(tags.get(seq, ()))))
    found.missing = max(highest, *found.memories, 0) - len(found.memories)
    found.exact = highest >= 0 and key is not None
    found.untagged = [found.memories[seq].id for seq in untagged]
    found.lost = {memory_id: tenant for seq, (tenant, memory_id) in sorted(named.items()) if seq not in found.memories}
    return found


# Memories rows by number; (number, tag) entries of ``memory_tags``; (tenant, id) by number from
# ``memories_tenant_id``; the highest row number known (-1: only the rows read say it); the numbers of
# rows whose tags could not all be read.
Rows = tuple[dict[int, list[object]], list[tuple[int, str]], dict[int, tuple[str, str]], int, list[int]]


def _memory_values(values: list[object]) -> bool:
    """Whether a record's ``values`` have the shape of a ``memories`` row (its number stored as NULL)."""
    return (len(values) >= len(_COLUMNS) - 1 and values[0] is None and isinstance(values[1], str)
            and _UUID.fullmatch(values[1]) is not None and all(isinstance(v, str) for v in values[2:5])
            and values[4] in KINDS and isinstance(values[7], int) and 1 <= values[7] <= 10
            and isinstance(values[9], int) and isinstance(values[10], int))


def _by_page(path: Path) -> Rows:
    """Every ``memories`` row and ``memory_tags`` entry found in a leaf page that parses (the file
    mapped, not read into memory; only memory-shaped records are kept)."""
    with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as data:
        size, reserved = 4096, 0
        if data[:16] == _MAGIC:
            size = struct.unpack(">H", data[16:18])[0]
            size = 65536 if size == 1 else size
            reserved = data[20]
        pages = _Pages(data, size, _wal_pages(Path(f"{path}-wal"), size))
        usable = size - reserved
        rows: dict[int, list[object]] = {}
        named: dict[int, tuple[str, str]] = {}
        roots: dict[str, int] = {}
        damaged: set[int] = set()
        for number in pages:
            try:
                for rowid, values in _leaf_records(pages, number, pages[number], usable):
                    if rowid is not None and _memory_values(values):
                        rows.setdefault(rowid, values)
                    elif rowid is None and len(values) == 3 and isinstance(values[0], str) \
                            and isinstance(values[1], str) and _UUID.fullmatch(values[1]) and isinstance(values[2], int):
                        named[values[2]] = (values[0], values[1])  # memories_tenant_id: (tenant, id, row number)
                    elif rowid is not None and len(values) == 5 and values[0] in ("table", "index") \
                            and isinstance(values[3], int):
                        roots[str(values[1])] = values[3]  # sqlite_schema
            except (IndexError, ValueError, struct.error, RecursionError):
                damaged.add(number)  # a damaged page: its cells are lost
        tags: set[tuple[int, str]] = set()
        whole = False
        for tree, order in (("memory_tags", 1), ("memory_tags_by_tag", -1)):  # (memory_seq, tag), (tag, memory_seq)
            leaves = _leaves(pages, roots[tree], usable) if tree in roots else None
            whole = whole or (leaves is not None and not damaged.intersection(leaves))
            for number in set(leaves or ()) - damaged:
                for _, values in _leaf_records(pages, number, pages[number], usable):
                    seq, tag = values[::order]
                    if isinstance(seq, int) and isinstance(tag, str) and seq in rows:
                        tags.add((seq, tag))
    untagged = [] if whole else sorted(rows)
    return rows, sorted(tags), named, max(named, default=0), untagged


class _Pages:
    """The pages of a file by number (1-based), a committed ``-wal`` copy in place of the file's."""

    def __init__(self, data: mmap.mmap, size: int, newer: dict[int, bytes]) -> None:
        self.data, self.size, self.newer = data, size, newer
        self.count = len(data) // size

    def __iter__(self) -> Iterator[int]:
        return iter(sorted(set(range(1, self.count + 1)) | self.newer.keys()))

    def __contains__(self, number: object) -> bool:
        return number in self.newer or (isinstance(number, int) and 1 <= number <= self.count)

    def __getitem__(self, number: int) -> bytes:
        if number in self.newer:
            return self.newer[number]
        if not 1 <= number <= self.count:
            raise KeyError(number)
        return self.data[(number - 1) * self.size:number * self.size]


def _leaves(pages: _Pages, root: int, usable: int) -> list[int] | None:
    """The leaf pages of the index b-tree at ``root``, or None when a page on the way is damaged."""
    leaves, todo, seen = [], [root], set()
    while todo:
        number = todo.pop()
        if number in seen or number not in pages:
            return None
        seen.add(number)
        page = pages[number]
        start = 100 if number == 1 else 0
        if page[start] == _INDEX_LEAF:
            leaves.append(number)
        elif page[start] == _INDEX_INTERIOR:
            cells = struct.unpack(">H", page[start + 3:start + 5])[0]
            todo.append(struct.unpack(">I", page[start + 8:start + 12])[0])
            for i in range(cells):
                at = struct.unpack(">H", page[start + 12 + 2 * i:start + 14 + 2 * i])[0]
                if at + 4 > usable:
                    return None
                todo.append(struct.unpack(">I", page[at:at + 4])[0])
        else:
            return None
    return leaves


def _wal_pages(wal: Path, size: int) -> dict[int, bytes]:
    """The pages of the committed frames of ``wal`` (newest copy of each), or none."""
    try:
        data = wal.read_bytes()
    except OSError:
        return {}
    if len(data) < 32 or struct.unpack(">I", data[:4])[0] not in _WAL_MAGIC or struct.unpack(">I", data[8:12])[0] != size:
        return {}
    salts, order = data[16:24], ">" if struct.unpack(">I", data[:4])[0] & 1 else "<"
    sums = _checksum(data[:24], order, (0, 0))
    if sums != struct.unpack(">II", data[24:32]):
        return {}
    committed: dict[int, bytes] = {}
    pending: dict[int, bytes] = {}
    for at in range(32, len(data) - 24 - size + 1, 24 + size):
        number, commit = struct.unpack(">II", data[at:at + 8])
        sums = _checksum(data[at:at + 8] + data[at + 24:at + 24 + size], order, sums)
        if data[at + 8:at + 16] != salts or sums != struct.unpack(">II", data[at + 16:at + 24]):
            break  # a frame of an earlier generation, or one never wholly written: SQLite ignores it and the rest
        pending[number] = data[at + 24:at + 24 + size]
        if commit:
            committed.update(pending)
            pending = {}
    return committed


def _checksum(data: bytes, order: str, sums: tuple[int, int]) -> tuple[int, int]:
    """The WAL's running checksum of ``data`` from ``sums`` (the file format, "Checksum Algorithm")."""
    s0, s1 = sums
    words = struct.unpack(f"{order}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def _varint(buf: bytes, at: int) -> tuple[int, int]:
    value = 0
    for i in range(8):
        byte = buf[at + i]
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, at + i + 1
    return (value << 8) | buf[at + 8], at + 9


def _leaf_records(pages: _Pages, number: int, page: bytes, usable: int) -> Iterator[tuple[int | None, list]]:
    """``(rowid, values)`` of each cell of a table leaf page, ``(None, values)`` of an index leaf page."""
    start = 100 if number == 1 else 0
    kind = page[start]
    if kind not in (_TABLE_LEAF, _INDEX_LEAF):
        return
    cells = struct.unpack(">H", page[start + 3:start + 5])[0]
    most = usable - 35 if kind == _TABLE_LEAF else (usable - 12) * 64 // 255 - 23
    least = (usable - 12) * 32 // 255 - 23
    for i in range(cells):
        at = struct.unpack(">H", page[start + 8 + 2 * i:start + 10 + 2 * i])[0]
        size, at = _varint(page, at)
        rowid = None
        if kind == _TABLE_LEAF:
            rowid, at = _varint(page, at)
        spill = least + (size - least) % (usable - 4)  # the file format's local part of a payload that overflows
        local = size if size <= most else spill if spill <= most else least
        payload = page[at:at + local]
        if local < size:
            payload += _overflow(pages, struct.unpack(">I", page[at + local:at + local + 4])[0], size - local, usable)
        if len(payload) != size:
            raise ValueError("a cell runs past its page")
        try:
            values = _record(payload)
        except (ValueError, IndexError, struct.error):
            continue  # this cell's record is damaged (a text written over), not its neighbours
        yield rowid, values


def _overflow(pages: _Pages, number: int, length: int, usable: int) -> bytes:
    chunks, seen = [], set()
    while length > 0:
        if number in seen or number not in pages:
            raise ValueError("an overflow chain is broken")
        seen.add(number)
        page = pages[number]
        chunks.append(page[4:4 + min(length, usable - 4)])
        length -= usable - 4
        number = struct.unpack(">I", page[:4])[0]
    return b"".join(chunks)


def _record(payload: bytes) -> list[object]:
    header, at = _varint(payload, 0)
    types = []
    while at < header:
        kind, at = _varint(payload, at)
        types.append(kind)
    values: list[object] = []
    at = header
    for kind in types:
        if kind == 0:
            values.append(None)
        elif 1 <= kind <= 6:
            width = (1, 2, 3, 4, 6, 8)[kind - 1]
            if at + width > len(payload):
                raise ValueError("a record runs past its cell")
            values.append(int.from_bytes(payload[at:at + width], "big", signed=True))
            at += width
        elif kind == 7:
            values.append(struct.unpack(">d", payload[at:at + 8])[0])
            at += 8
        elif kind in (8, 9):
            values.append(kind - 8)
        elif kind >= 12:
            width = (kind - 12 - kind % 2) // 2
            if at + width > len(payload):
                raise ValueError("a record runs past its cell")
            chunk = payload[at:at + width]
            values.append(chunk.decode("utf-8") if kind % 2 else chunk)
            at += width
        else:
            raise ValueError("a reserved serial type")
    return values


def _by_lookup(path: Path, key: Key) -> Rows:
    """Every ``memories`` row SQLite can still reach by its number, up to the highest it can read."""
    conn = apsw.Connection(read_only_uri(path), flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    rows: dict[int, list[object]] = {}
    tags: list[tuple[int, str]] = []
    untagged: list[int] = []
    try:
        key.apply(conn, path)
        try:
            highest = conn.execute("SELECT max(seq) FROM memories").fetchone()[0] or 0
        except (apsw.Error, UnicodeDecodeError):
            highest = None  # the right edge of the table is damaged: read on until ``_PROBED`` in a row fail
        names = ", ".join(_COLUMNS)
        seq, failed = 0, 0
        while seq < highest if highest is not None else failed < _PROBED:
            seq += 1
            failed += 1
            try:
                found = conn.execute(f"SELECT {names} FROM memories WHERE seq = ?", (seq,)).fetchall()
            except (apsw.Error, UnicodeDecodeError):
                continue
            if not found or not _memory_values([None, *found[0][1:]]):
                continue
            failed = 0
            rows[seq] = [None, *found[0][1:]]
            try:
                tags.extend((seq, tag) for (tag,) in conn.execute(
                    "SELECT tag FROM memory_tags WHERE memory_seq = ?", (seq,)).fetchall())
            except (apsw.Error, UnicodeDecodeError):
                untagged.append(seq)
    finally:
        conn.close()
    return rows, tags, {}, highest if highest is not None else -1, untagged
