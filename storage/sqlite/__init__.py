"""The SQLite backend: one file, an FTS5 table per tenant for keywords, an IVF index of int8-scored
cells for vectors (``cells``, ``vector_cache``), exact rescoring with sqlite-vec's ``vec_distance_cosine``."""

from .backend import SqliteBackend

__all__ = ["SqliteBackend"]
