"""Where a database is: an SQLite file path, or a PostgreSQL URL (RFC 3986 form,
``postgresql://user:password@host:port/dbname?...`` as libpq reads it)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

URL_SCHEMES = ("postgresql://", "postgres://")
POSTGRES_INSTALL = 'pip install "memvault[postgres]" (from a clone: pip install ".[postgres]")'
_POSTGRES_PACKAGES = ("psycopg", "psycopg_pool", "pgvector")  # the ``postgres`` extra (pyproject.toml)
_ANY_URL = re.compile(r"^\s*[A-Za-z][A-Za-z0-9+.-]*://")


def is_url(db: Path | str) -> bool:
    """Whether ``db`` names a PostgreSQL database rather than an SQLite file."""
    return str(db).strip().lower().startswith(URL_SCHEMES)


def looks_like_url(db: Path | str) -> bool:
    """Whether ``db`` starts like a URL of any scheme (``mysql://``, a mistyped ``postgressql://``)."""
    return _ANY_URL.match(str(db)) is not None


def redacted(db: Path | str) -> str:
    """``db`` as it may be logged or shown: a URL (any scheme) without its password
    (``***``), a path as is."""
    text = str(db)
    if not looks_like_url(text):
        return text
    parts = urlsplit(text)
    if parts.password is None:
        return text
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def postgres_extra_missing() -> list[str]:
    """The packages of the ``postgres`` extra that this install lacks (importing none of them)."""
    return [name for name in _POSTGRES_PACKAGES if importlib.util.find_spec(name) is None]
