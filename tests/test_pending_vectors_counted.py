"""What ``remember`` and ``supersede`` say of the pending vectors they could not compare with: only the
current memories of the new memory's own tenant and scope, counted in the backend's query, so another
tenant's or scope's backlog (more than ``PENDING_LOOK`` rows) neither hides them nor is said as theirs."""

from __future__ import annotations

import json

import pytest
from fakes import FakeEmbedder

from memvault.storage.errors import ModelUnavailable
from memvault.storage.store import PENDING_LOOK, Store
from memvault.storage.transfer import import_lines

pytestmark = pytest.mark.contract
BACKLOG = PENDING_LOOK + 20


class NoModel(FakeEmbedder):
    def load(self) -> None:
        raise ModelUnavailable("no model here")


def pending_rows(db: str, clock, rows: dict[tuple[str, str], int]) -> None:  # type: ignore[no-untyped-def]
    """``rows[(tenant, scope)]`` memories stored while no model loads: their vectors pending."""
    store = Store(db, NoModel(), clock=clock)  # type: ignore[arg-type]
    try:
        for (tenant, scope), n in rows.items():
            lines = [json.dumps({"content": f"Queue {tenant} {scope} {i} drains into bucket {i}"}) for i in range(n)]
            assert import_lines(store, lines, tenant=tenant, scope=scope).imported == n
    finally:
        store.close()


def said(degraded: str | None) -> str | None:
    return None if degraded is None else degraded.split(" no vector yet")[0]


CASES = [  # (tenant, scope of the new memory, what its remember says of the pending ones)
    ("a", "proj", "2 memories of this scope have"),  # behind the other tenant's and other scope's backlogs
    ("a", "elsewhere", f"more than {PENDING_LOOK} memories of this scope have"),
    ("other", "proj", f"more than {PENDING_LOOK} memories of this scope have"),
    ("b", "proj", None),  # none of its own: unchanged by the others'
    ("a", "empty", None),
]


def test_pending_vectors_are_counted_in_the_new_memorys_tenant_and_scope_only(db, clock):
    pending_rows(db, clock, {("other", "proj"): BACKLOG, ("a", "elsewhere"): BACKLOG, ("a", "proj"): 2,
                             ("b", "other"): 1})
    store = Store(db, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        for n, (tenant, scope, expected) in enumerate(CASES):
            outcome = store.remember(tenant=tenant, scope=scope, content=f"Hotfix {n} needs one approval")
            assert store.get(tenant=tenant, id=outcome.id).vector_pending is False
            assert said(outcome.degraded) == expected, (tenant, scope)
    finally:
        store.close()


def test_a_superseded_pending_memory_is_not_counted_as_one_left(db, clock):
    pending_rows(db, clock, {("other", "proj"): BACKLOG, ("a", "proj"): 2})
    store = Store(db, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        older = store.list_memories(tenant="a", scopes=["proj"])[0]
        outcome = store.supersede(tenant="a", id=older.id, content="Queue a proj drains into bucket 9 now")
        assert said(outcome.degraded) == "1 memory of this scope has"
        store.forget(tenant="a", id=store.list_memories(tenant="a", scopes=["proj"])[-1].id)
        assert store.remember(tenant="a", scope="proj", content="Deploys need two approvals").degraded is None
    finally:
        store.close()
