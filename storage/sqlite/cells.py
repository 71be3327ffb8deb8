"""The cells of the SQLite vector index: an inverted file (IVF) over the stored vectors.
More: docs/storage-tuning.md#sqlite-cells."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import apsw

if TYPE_CHECKING:
    import numpy as np  # annotations; numpy is imported where vectors are used (docs/hooks.md#speed)

CELL_SHIFT = 40  # seqs stay below 2**40
SEQ_MASK = (1 << CELL_SHIFT) - 1
TRAIN_AT = 4_000  # below this many vectors the search is an exact scan of cell 0
GROW = 4  # a new generation is trained once the vectors have grown this much since the last
CELLS_PER_ROOT = 4  # cells of a generation: this times the square root of the vectors it is trained on
TRAIN_SAMPLE_PER_CELL = 20  # vectors sampled per cell for k-means (at most ``TRAIN_SAMPLE_MAX``)
TRAIN_SAMPLE_MAX = 64_000
TRAIN_ITERATIONS = 8
# A search filters the FILTER_FIRST * k nearest vectors of its cells first (one memory
# look-up each), all of them when fewer pass (docs/storage-tuning.md#filtering-before-reading).
FILTER_FIRST = 4
RESCORE_MIN = 50  # vectors read and scored exactly at least, whatever the k (see ``vector_cache``)
BLAS_ROWS = 64  # rows of a product from which BLAS is used (see ``_dot``)
# Cells read per generation, more when filters leave fewer than k (docs/storage-tuning.md#cells-read-per-search).
PROBE = 48


def cell_count(vectors: int) -> int:
    """How many cells a generation trained on ``vectors`` vectors gets."""
    return max(16, int(CELLS_PER_ROOT * math.sqrt(vectors)))


def key(cell: int, seq: int) -> int:
    """The row key of memory ``seq``'s vector in ``cell``."""
    return cell << CELL_SHIFT | seq


@dataclass(frozen=True)
class Cells:
    """The centroids in force: ``ids`` int64 (n,), ``generations`` int64 (n,),
    ``centroids`` float32 (n, dim), unit rows. Empty before the first training."""

    ids: np.ndarray
    generations: np.ndarray
    centroids: np.ndarray

    @property
    def newest_first(self) -> int:
        """The lowest cell id of the newest generation (0 when untrained): vectors with
        a lower cell have still to move."""
        if not len(self.ids):
            return 0
        return int(self.ids[self.generations == self.generations.max()].min())

    def assign(self, vectors: np.ndarray) -> np.ndarray:
        """The newest generation's nearest cell of each row of ``vectors`` (float32 (m, dim)); 0s when untrained."""
        import numpy as np
        if not len(self.ids):
            return np.zeros(len(vectors), dtype=np.int64)
        newest = self.generations == self.generations.max()
        return self.ids[newest][np.argmax(_dot(vectors, self.centroids[newest]), axis=1)]

    def nearest(self, vector: np.ndarray, per_generation: int) -> list[int]:
        """Cell 0 and the ``per_generation`` cells of each generation nearest ``vector``."""
        import numpy as np
        found = [0]
        if not len(self.ids):
            return found
        similarity = _dot(vector[None, :], self.centroids)[0]
        for generation in sorted(set(self.generations.tolist())):  # np.unique imports numpy.ma (0.02 s)
            mine = np.flatnonzero(self.generations == generation)
            best = mine[np.argsort(-similarity[mine])[:per_generation]]
            found += self.ids[best].tolist()
        return found

    @property
    def size(self) -> int:
        """Cells in force, all generations."""
        return len(self.ids)


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b.T`` (float32 (m, n)). Without BLAS for fewer than ``BLAS_ROWS`` rows of ``a``,
    whose threads cost more than a small product; with it for more
    (docs/storage-tuning.md#small-products-without-blas)."""
    import numpy as np
    return a @ b.T if len(a) >= BLAS_ROWS else np.einsum("ik,jk->ij", a, b)


def version(conn: apsw.Connection) -> tuple[int, int]:
    """What identifies the centroids in force: (highest cell id, number of cells).

    The cells in force are always one run of ids (a generation's are numbered on from
    the highest, and older generations go lowest first, whole), so their number is read
    from the lowest and highest ids: two index look-ups, where ``count(*)`` reads every
    centroid (docs/storage-tuning.md#reading-the-cells-version)."""
    return conn.execute(VERSION_SQL).fetchone()


# Each end in its own subquery: SQLite reads a lone min() or max() from the key, but
# scans the table for both in one SELECT.
VERSION_SQL = (
    "SELECT ifnull(high, 0), ifnull(high - low + 1, 0)"
    " FROM (SELECT (SELECT max(cell) FROM vector_cells) AS high, (SELECT min(cell) FROM vector_cells) AS low)"
)


def load(conn: apsw.Connection) -> Cells:
    """The centroids stored in ``vector_cells``."""
    import numpy as np
    rows = conn.execute("SELECT cell, generation, centroid FROM vector_cells ORDER BY cell").fetchall()
    if not rows:
        return Cells(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((0, 0), np.float32))
    return Cells(
        np.array([r[0] for r in rows], dtype=np.int64),
        np.array([r[1] for r in rows], dtype=np.int64),
        np.frombuffer(b"".join(r[2] for r in rows), dtype=np.float32).reshape(len(rows), -1),
    )


def kmeans(sample: np.ndarray, cells: int) -> np.ndarray:
    """Spherical k-means: ``cells`` unit centroids (float32 (cells, dim)) of the unit
    rows of ``sample`` (float32 (m, dim), m >= cells), started from random rows (seeded: the
    same sample gives the same cells); a cell left empty restarts from a random row."""
    import numpy as np
    rng = np.random.default_rng(0)
    centroids = sample[rng.choice(len(sample), cells, replace=False)].copy()
    for _ in range(TRAIN_ITERATIONS):
        nearest = np.concatenate([
            np.argmax(block @ centroids.T, axis=1) for block in np.array_split(sample, max(1, len(sample) // 4096))
        ])
        sums = np.zeros_like(centroids)
        np.add.at(sums, nearest, sample)
        empty = np.flatnonzero(np.bincount(nearest, minlength=cells) == 0)
        sums[empty] = sample[rng.choice(len(sample), len(empty), replace=False)]
        centroids = (sums / np.linalg.norm(sums, axis=1, keepdims=True)).astype(np.float32)
    return centroids
