"""API keys of the team server, stored hashed in the memvault database.

A key is ``mvk_`` followed by 43 URL-safe characters of ``secrets.token_urlsafe(32)``
(256 random bits); only its SHA-256 is stored. A fast hash is enough for a
high-entropy random token (no password to guess, OWASP "Password Storage" applies
to low-entropy secrets); the stored hash is compared with ``hmac.compare_digest``.
A key names its tenant and default scope, and may be read-only or expire.

This module knows nothing of HTTP: the server's token verifier calls :func:`find`.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from . import validate
from .errors import InvalidInput
from .ids import new_id
from .limits import DEFAULT_SCOPE
from .store import Store

PREFIX = "mvk_"
NAME_MAX_CHARS = 200
EXPIRES_MAX_DAYS = 3_650
DAY_MS = 86_400_000

_COLUMNS = "id, tenant, scope, name, read_only, created_at, expires_at, revoked_at"


@dataclass(frozen=True)
class ApiKey:
    """One key's metadata (never the key): times in ms since the epoch."""

    id: str
    tenant: str
    scope: str
    name: str | None
    read_only: bool
    created_at: int
    expires_at: int | None
    revoked_at: int | None

    def refusal(self, now: int) -> str | None:
        """Why this key may not be used at ``now`` (ms), or None when it may."""
        if self.revoked_at is not None:
            return "revoked"
        if self.expires_at is not None and self.expires_at <= now:
            return "expired"
        return None


def _key(row: tuple) -> ApiKey:
    id_, tenant, scope, name, read_only, created_at, expires_at, revoked_at = row
    return ApiKey(id=id_, tenant=tenant, scope=scope, name=name, read_only=bool(read_only),
                  created_at=created_at, expires_at=expires_at, revoked_at=revoked_at)


def digest(key: str) -> str:
    """Hex SHA-256 of ``key`` (UTF-8)."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def create(
    store: Store, tenant: str, scope: str | None = None, name: str | None = None,
    read_only: bool = False, expires_days: int | None = None,
) -> tuple[ApiKey, str]:
    """Make a new key for ``tenant``; returns its metadata and the key itself (shown once).

    Raises:
        InvalidInput: tenant/scope empty or longer than 128 characters, name longer
            than 200, ``expires_days`` not 1..3,650.
    """
    tenant = validate.scope(tenant, DEFAULT_SCOPE, field="tenant")
    scope = validate.scope(scope, DEFAULT_SCOPE)
    name = validate.short_text("name", name, NAME_MAX_CHARS)
    if expires_days is not None and not 1 <= expires_days <= EXPIRES_MAX_DAYS:
        raise InvalidInput("expires", f"must be from 1 to {EXPIRES_MAX_DAYS:,} days, got {expires_days}")
    now = store.clock()
    key = PREFIX + secrets.token_urlsafe(32)
    record = ApiKey(id=new_id(), tenant=tenant, scope=scope, name=name, read_only=read_only, created_at=now,
                    expires_at=now + expires_days * DAY_MS if expires_days else None, revoked_at=None)
    with store.writing() as conn:
        conn.execute(
            f"INSERT INTO api_keys(key_hash, {_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (digest(key), record.id, record.tenant, record.scope, record.name, int(record.read_only),
             record.created_at, record.expires_at, record.revoked_at),
        )
    return record, key


def find(store: Store, key: str) -> ApiKey | None:
    """The key's metadata, revoked or expired ones included (see :meth:`ApiKey.refusal`);
    None for a key that was never issued."""
    wanted = digest(key)
    with store.snapshot() as conn:
        row = conn.execute(f"SELECT key_hash, {_COLUMNS} FROM api_keys WHERE key_hash = ?", (wanted,)).fetchone()
    if row is None or not hmac.compare_digest(row[0], wanted):
        return None
    return _key(row[1:])


def list_keys(store: Store) -> list[ApiKey]:
    """Every key's metadata, oldest first."""
    with store.snapshot() as conn:
        return [_key(row) for row in conn.execute(f"SELECT {_COLUMNS} FROM api_keys ORDER BY created_at, id")]


def revoke(store: Store, key_id: str) -> ApiKey:
    """Revoke the key with id ``key_id`` (at once, for every server on this database).

    Revoking a revoked key changes nothing and returns it as it is.

    Raises:
        InvalidInput: no key has that id (field ``id``).
    """
    with store.writing() as conn:
        conn.execute("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                     (store.clock(), key_id))
        row = conn.execute(f"SELECT {_COLUMNS} FROM api_keys WHERE id = ?", (key_id,)).fetchone()
    if row is None:
        raise InvalidInput("id", f"no API key with id {key_id!r} (`memvault keys list` shows them)")
    return _key(row)
