"""Writing and removing a memory's vectors: window 0 in ``memory_vectors`` under its
cell of the vector index (``cells``), later windows of a long memory in ``memory_windows``.
More: docs/storage-tuning.md#sqlite-vectors."""

from __future__ import annotations

import apsw

from .cells import key
from .schema import VECTOR_SEQ, VECTOR_TABLE


def write(conn: apsw.Connection, seq: int, cell: int, vectors: list[bytes]) -> None:
    """Store ``vectors`` (float32 blobs, window 0 first) for memory ``seq``, window 0
    in ``cell``, replacing any."""
    delete(conn, seq)
    add(conn, seq, cell, vectors)


def add(conn: apsw.Connection, seq: int, cell: int, vectors: list[bytes]) -> None:
    """:func:`write` for a memory that has no vectors (one just inserted): its delete,
    a look-up by seq that found nothing, was a third of an import's SQL time."""
    conn.execute(f"INSERT INTO {VECTOR_TABLE}(key, embedding) VALUES (?, ?)", (key(cell, seq), vectors[0]))
    conn.executemany(
        "INSERT INTO memory_windows(memory_seq, part, embedding) VALUES (?, ?, ?)",
        [(seq, part, blob) for part, blob in enumerate(vectors[1:], start=1)],
    )


def delete(conn: apsw.Connection, seq: int) -> None:
    """Remove every vector of memory ``seq`` (none is fine)."""
    conn.execute(f"DELETE FROM {VECTOR_TABLE} WHERE {VECTOR_SEQ} = ?", (seq,))
    conn.execute("DELETE FROM memory_windows WHERE memory_seq = ?", (seq,))
