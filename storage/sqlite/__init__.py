"""The SQLite backend: one file, FTS5 for keywords, sqlite-vec (vec0) for vectors."""

from .backend import SqliteBackend

__all__ = ["SqliteBackend"]
