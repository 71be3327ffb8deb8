"""API keys of the team server, stored hashed in the memvault database.
More: docs/storage-tuning.md#keys."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import replace

from . import tenants, validate
from .errors import NotFound, shown
from .ids import new_id
from .limits import DEFAULT_SCOPE, KEY_ID_SHAPE
from .records import ApiKey
from .store import Store

PREFIX = "mvk_"
NAME_MAX_CHARS = 200
EXPIRES_MAX_DAYS = 3_650
DAY_MS = 86_400_000
WHAT = "API key id"  # how messages name a key's id

def digest(key: str) -> str:
    """Hex SHA-256 of ``key`` (UTF-8)."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def create(
    store: Store, tenant: str, scope: str | None = None, name: str | None = None,
    read_only: bool = False, expires_days: int | None = None,
) -> tuple[ApiKey, str]:
    """Make a new key for ``tenant``; returns its metadata and the key itself (shown once).
    Raises InvalidInput for a bad tenant, scope, name or ``expires_days``, and for a tenant that
    differs from one with memories or keys only by letter case or compatibility form
    (:func:`validate.lookalike`): its key would open an empty memory beside the tenant meant; so for a
    scope beside the tenant's scopes with memories or keys (its key would write beside them)."""
    tenant = validate.scope(tenant, DEFAULT_SCOPE, field="tenant")
    scope = validate.scope(scope, DEFAULT_SCOPE)
    name = None if name is None else validate.name("name", name, NAME_MAX_CHARS)  # listed and logged
    if expires_days is not None:
        expires_days = validate.integer("expires", expires_days, 1, EXPIRES_MAX_DAYS, " days")
    now = store.clock()
    key = PREFIX + secrets.token_urlsafe(32)
    record = ApiKey(id=new_id(), tenant=tenant, scope=scope, name=name, read_only=read_only, created_at=now,
                    expires_at=now + expires_days * DAY_MS if expires_days else None, revoked_at=None)
    with store.backend.write(None) as tx:
        alike = validate.lookalike(tenant, tx.tenants_beside(tenant))
        if alike is not None:
            raise tenants.refusal(tenant, alike, f"a key for {shown(tenant)} would")
        alike = tenants.scope_alike(tx, tenant, scope, now)
        if alike is not None:
            raise tenants.scope_refusal(tenant, scope, alike, f"a key for {shown(scope)} would")
        tx.put_api_key(digest(key), record)
    return record, key


def find(store: Store, key: str) -> ApiKey | None:
    """The key's metadata (revoked or expired too: :meth:`ApiKey.refusal`); None if never issued."""
    wanted = digest(key)
    with store.backend.read(None) as tx:
        found = list(tx.api_keys(wanted).items())
    if not found or not hmac.compare_digest(found[0][0], wanted):
        return None
    return found[0][1]


def list_keys(store: Store) -> list[ApiKey]:
    """Every key's metadata, oldest first."""
    with store.backend.read(None) as tx:
        return list(tx.api_keys().values())


def revoke(store: Store, key_id: str) -> ApiKey:
    """Revoke the key ``key_id`` (named as memory ids are: :func:`validate.id_text`) for
    every server on this database; a revoked key is returned as it is.
    Raises NotFound: no such key id; InvalidInput: not a key id's shape, or an ambiguous prefix."""
    wanted = validate.id_text("id", key_id, what=WHAT, shape=KEY_ID_SHAPE)
    with store.backend.write(None) as tx:
        keys = tx.api_keys()  # a database holds a few keys
        matches = [(key_hash, key) for key_hash, key in keys.items() if key.id.startswith(wanted)]
        exact = [(key_hash, key) for key_hash, key in matches if key.id == wanted]
        if len(matches) > 1 and not exact:
            raise validate.ambiguous_id("id", key_id, what=WHAT)
        if not matches:
            raise NotFound(key_id, what="API key with id", why=" (`memvault keys list` shows them)")
        key_hash, key = (exact or matches)[0]
        if key.revoked_at is None:
            key = replace(key, revoked_at=store.clock())
            tx.put_api_key(key_hash, key)
    return key
