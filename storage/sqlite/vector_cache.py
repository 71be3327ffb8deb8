"""An in-memory copy of the vector index's cells, int8, from which a search picks the
few vectors it then reads from the file.
More: docs/storage-tuning.md#sqlite-vector-cache."""

from __future__ import annotations

import functools
import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import apsw

from .cells import CELL_SHIFT, SEQ_MASK
from .schema import VECTOR_TABLE

if TYPE_CHECKING:
    import numpy as np  # annotations; numpy is imported where vectors are used (docs/hooks.md#speed)

CACHE_BYTES = 256 << 20  # about 650,000 vectors of 384 dimensions
RESET_AFTER = 20_000  # changed keys past which the copy starts again rather than catches up
# Freed heap goes back to the OS each time 1/TRIM_SHARE of the budget was dropped: glibc keeps
# freed blocks, pinned by long-lived ones (docs/storage-tuning.md#giving-freed-memory-back).
TRIM_SHARE = 4


@functools.cache
def malloc_trim() -> Callable[[int], object] | None:
    """The C library's ``malloc_trim`` (glibc 2.8+, man 3 malloc_trim); None elsewhere. Looked up on first
    use: ctypes costs a process that never drops a cell (a hook) 0.003 s (docs/hooks.md#speed)."""
    import ctypes

    return getattr(ctypes.CDLL(None), "malloc_trim", None)


@dataclass(frozen=True)
class Block:
    """One cell's vectors: ``keys`` int64 (n,), ``codes`` int8 (n, dim), ``scales`` float32 (n,)."""

    keys: np.ndarray
    codes: np.ndarray
    scales: np.ndarray

    @property
    def nbytes(self) -> int:
        return self.keys.nbytes + self.codes.nbytes + self.scales.nbytes


def quantise(keys: list[int], blobs: list[bytes]) -> Block:
    """A :class:`Block` of float32 vector blobs stored under ``keys``."""
    import numpy as np
    if not keys:
        return Block(np.zeros(0, np.int64), np.zeros((0, 0), np.int8), np.zeros(0, np.float32))
    matrix = np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(blobs), -1)
    scales = np.abs(matrix).max(axis=1) / 127.0
    scales[scales == 0] = 1.0
    codes = np.rint(matrix / scales[:, None]).astype(np.int8)
    return Block(np.array(keys, dtype=np.int64), codes, scales.astype(np.float32))


def _joined(blocks: list[Block]) -> Block:
    import numpy as np
    blocks = [b for b in blocks if len(b.keys)]
    if len(blocks) <= 1:
        return blocks[0] if blocks else quantise([], [])
    return Block(np.concatenate([b.keys for b in blocks]), np.concatenate([b.codes for b in blocks]),
                 np.concatenate([b.scales for b in blocks]))


def _rows(conn: apsw.Connection, query: str, params: tuple) -> Block:
    rows = conn.execute(query, params).fetchall()
    return quantise([r[0] for r in rows], [r[1] for r in rows])


def position(conn: apsw.Connection) -> int:
    """The log position of ``conn``'s snapshot: the last change to ``memory_vectors`` it sees."""
    return conn.execute("SELECT ifnull(max(change), 0) FROM vector_changes").fetchone()[0]


def trim_heap() -> None:
    """Give the heap pages freed by dropped cells back to the operating system (1-20 ms, GIL released)."""
    trim = malloc_trim()
    if trim is not None:
        trim(0)


class VectorCache:
    """The copy, shared by every connection of one backend (thread-safe). ``release()``
    asks for :func:`trim_heap` to run (on the store's worker); None: never."""

    def __init__(self, budget: int = CACHE_BYTES, release: Callable[[], object] | None = None) -> None:
        self.budget = budget
        self.release = release
        self._lock = threading.Lock()  # searches on every reader thread share the copy (products run outside it)
        self._position = 0
        self._cells: OrderedDict[int, Block] = OrderedDict()
        self._bytes = 0
        self._dropped = 0  # bytes of cells dropped since freed memory was last given back

    @property
    def cells(self) -> int:
        """Cells held now."""
        return len(self._cells)

    def __contains__(self, cell: int) -> bool:
        return cell in self._cells

    def candidates(
        self, conn: apsw.Connection, cells: list[int], vector: np.ndarray, n: int, may_advance: bool
    ) -> tuple[list[int], list[int]] | None:
        """The keys of the ``n`` vectors of ``cells`` nearest ``vector`` (float32 (dim,),
        unit) by their int8 copy, nearest first, and the keys of every vector of those
        cells, as ``conn``'s open transaction sees them; None when the copy cannot
        answer for that snapshot (it is ahead of it, or behind and ``may_advance`` is
        False: the transaction has written)."""
        import numpy as np
        now = position(conn)
        with self._lock:
            if self._position < now and may_advance:
                self._catch_up(conn, now)
            if self._position != now:
                return None
            held = {c: self._cells[c] for c in cells if c in self._cells}
            for c in held:
                self._cells.move_to_end(c)
        loaded = {c: self._load(conn, c) for c in cells if c not in held}
        if loaded:
            with self._lock:
                if self._position == now:  # not changed meanwhile: what was read is current
                    for c, block in loaded.items():
                        self._keep(c, block)
        blocks = [held.get(c) or loaded[c] for c in cells]
        keys = np.concatenate([b.keys for b in blocks])
        if not len(keys):
            return [], []
        q = np.asarray(vector, dtype=np.float32)
        full = [b for b in blocks if len(b.keys)]
        # One product over the cells joined (each call costs more than copying); einsum, not
        # BLAS, whose threads cost more than a product this small (docs/storage-tuning.md).
        codes = np.concatenate([b.codes for b in full]) if len(full) > 1 else full[0].codes
        scores = np.einsum("ij,j->i", codes, q) * np.concatenate([b.scales for b in full])
        best = np.argpartition(-scores, n)[:n] if n < len(scores) else np.arange(len(scores))
        best = best[np.argsort(-scores[best])]
        return keys[best].tolist(), keys.tolist()

    def preload(self, conn: apsw.Connection, cells: list[int]) -> bool:
        """Load ``cells``, in this order, into the copy as ``conn``'s open transaction sees
        them, while they fit in ``budget`` (never dropping a cell to make room). False when
        it stopped early: the budget is reached, or the copy follows another snapshot."""
        now = position(conn)
        with self._lock:
            if self._position < now:
                self._catch_up(conn, now)
            if self._position != now:
                return False
            todo = [c for c in cells if c not in self._cells]
        for cell in todo:
            block = self._load(conn, cell)
            with self._lock:
                if self._position != now or self._bytes + block.nbytes > self.budget:
                    return False
                if cell not in self._cells:
                    self._keep(cell, block)
        return True

    def _load(self, conn: apsw.Connection, cell: int) -> Block:
        low = cell << CELL_SHIFT
        return _rows(conn, f"SELECT key, embedding FROM {VECTOR_TABLE} WHERE key BETWEEN ? AND ?", (low, low | SEQ_MASK))

    def _keep(self, cell: int, block: Block) -> None:
        old = self._cells.pop(cell, None)
        self._bytes += block.nbytes - (old.nbytes if old is not None else 0)
        self._cells[cell] = block
        while self._bytes > self.budget and len(self._cells) > 1:
            _, dropped = self._cells.popitem(last=False)
            self._bytes -= dropped.nbytes
            self._dropped += dropped.nbytes
        if self._dropped * TRIM_SHARE >= self.budget and self.release is not None:
            self.release()
            self._dropped = 0

    def _catch_up(self, conn: apsw.Connection, now: int) -> None:
        """Bring the copy (lock held) from its position to ``now``, ``conn``'s snapshot."""
        import numpy as np
        oldest, changed = conn.execute(
            "SELECT (SELECT ifnull(min(change), 0) FROM vector_changes), count(DISTINCT key) FROM vector_changes"
            " WHERE change > ?", (self._position,)).fetchone()
        if oldest > self._position + 1 or changed > RESET_AFTER:  # the log no longer reaches back to the copy
            self._cells.clear()
            self._bytes = 0
        elif self._cells:
            keys = [k for (k,) in conn.execute(
                "SELECT DISTINCT key FROM vector_changes WHERE change > ?", (self._position,))]
            touched = sorted({k >> CELL_SHIFT for k in keys} & self._cells.keys())
            if touched:
                gone = np.array(keys, dtype=np.int64)
                now_there = _rows(conn, f"SELECT key, embedding FROM {VECTOR_TABLE}"
                                  " WHERE key IN (SELECT value FROM json_each(?))", (json.dumps(keys),))
                for cell in touched:
                    block = self._cells[cell]
                    keep = ~np.isin(block.keys, gone)
                    mine = (now_there.keys >> CELL_SHIFT) == cell
                    self._keep(cell, _joined([
                        Block(block.keys[keep], block.codes[keep], block.scales[keep]),
                        Block(now_there.keys[mine], now_there.codes[mine], now_there.scales[mine]),
                    ]))
        self._position = now
