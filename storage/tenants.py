"""A tenant named by a caller (``--tenant``, ``MEMVAULT_TENANT``, an API key's, an OAuth claim) checked
against the tenants of the database: one that differs from an existing tenant only by letter case or
compatibility form (``Acme`` beside ``acme``, :func:`validate.lookalike`) would be a second, empty memory;
so would a scope beside the tenant's scopes (``Default`` beside ``default``)."""

from __future__ import annotations

from . import validate
from .backend import Reader
from .query import Filters
from .errors import InvalidInput, shown
from .store import Store


def lookalike(store: Store, tenant: str) -> str | None:
    """The tenant holding current memories or API keys that ``tenant``, holding none, differs from only by
    letter case or compatibility form; None when ``tenant`` holds some or none is alike. Index lookups only
    (``Transaction.tenants_beside``): run for every OAuth token."""
    with store.backend.read(None) as tx:
        return validate.lookalike(tenant, tx.tenants_beside(tenant))


def refusal(tenant: str, alike: str, would: str) -> InvalidInput:
    """The error refusing ``tenant`` beside the existing ``alike``: "..., so {would} see none of the memories
    of 'acme'" (``would``: "a key for 'Acme' would")."""
    return InvalidInput("tenant", f"{shown(tenant)} differs from the existing tenant {shown(alike)} only by letter "
                                  f"case or character form; a tenant is matched exactly, so {would} see none of the "
                                  f"memories of {shown(alike)}: name the tenant {shown(alike)}")


def refuse_lookalike(store: Store, tenant: str, who: str, scope: str | None = None) -> None:
    """Raise :func:`refusal` when ``tenant`` holds nothing and differs from a tenant that does only by
    letter case or compatibility form; ``who`` names what would see none of its memories ("this server").
    With ``scope``, so for a scope of the tenant (:func:`scope_alike`, :func:`scope_refusal`).

    Raises:
        InvalidInput: field ``tenant`` or ``scope``, naming the existing one.
    """
    with store.backend.read(None) as tx:
        alike = validate.lookalike(tenant, tx.tenants_beside(tenant))
        if alike is not None:
            raise refusal(tenant, alike, f"{who} would")
        alike = None if scope is None else scope_alike(tx, tenant, scope, store.clock())
    if alike is not None:
        raise scope_refusal(tenant, scope or "", alike, f"{who} would")


def scope_alike(tx: Reader, tenant: str, scope: str, now: int) -> str | None:
    """The scope of ``tenant`` holding current memories or API keys that ``scope``, holding none, differs
    from only by letter case or compatibility form (:func:`validate.lookalike`), or None."""
    held = {s for s, _ in tx.counts(Filters(tenant=tenant, scopes=None, now=now))}
    return validate.lookalike(scope, held | {k.scope for k in tx.api_keys().values() if k.tenant == tenant})


def scope_refusal(tenant: str, scope: str, alike: str, would: str) -> InvalidInput:
    """The error refusing ``scope`` beside the existing ``alike`` of ``tenant`` (``would``: "a key for
    'Default' would")."""
    return InvalidInput("scope", f"{shown(scope)} differs from the scope {shown(alike)} of tenant {shown(tenant)} "
                                 f"only by letter case or character form; a scope is matched exactly, so {would} "
                                 f"write beside {shown(alike)}: name the scope {shown(alike)}")


def held_elsewhere(tenant: str, alike: str) -> str:
    """What a read of ``tenant``, holding nothing, says of ``alike`` (:func:`lookalike`), which holds memories
    or keys."""
    return (f"tenant {shown(tenant)} holds no memories; the tenant {shown(alike)}, which differs from it only by "
            f"letter case or character form, does (a tenant is matched exactly): name the tenant {shown(alike)}")
