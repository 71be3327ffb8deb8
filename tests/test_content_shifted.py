"""A snippet shifted as a whole is another memory (trial 77 S5): it can be stored beside the
unshifted one, a memory can be superseded by its shifted form, and a store whose hashes were made
by the rule before (indentation shared by every line did not count) is hashed anew on upgrade."""

from __future__ import annotations

import pytest
from fakes import FakeEmbedder

from memvault.storage import validate
from memvault.storage.store import Store

pytestmark = pytest.mark.contract
SHIFTS = [("spec:\n  replicas: 3", "  spec:\n    replicas: 3"),
          ("def f():\n\treturn 1", "\tdef f():\n\t\treturn 1"),
          ("  a: 1\n  b: 2", "a: 1\nb: 2")]


@pytest.mark.parametrize(("given", "shifted"), SHIFTS)
def test_a_memory_is_superseded_by_its_shifted_form(store: Store, given, shifted):
    old = store.remember(tenant="t", scope="s", content=given).id
    new = store.supersede(tenant="t", id=old, content=shifted).id
    assert store.get(tenant="t", id=new).content == shifted
    assert store.get(tenant="t", id=old).superseded_by == new
    again = store.remember(tenant="t", scope="s", content=shifted)
    assert again.duplicate_of == new and not again.created


@pytest.mark.parametrize(("given", "shifted"), SHIFTS[:2])
def test_a_store_hashed_by_the_rule_before_tells_a_shifted_snippet_apart_after_the_upgrade(
        backend, db, clock, given, shifted):
    import raw

    from memvault.storage.postgres import schema as pg_schema
    from memvault.storage.sqlite import schema as sqlite_schema

    store = Store(db, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        first = store.remember(tenant="t", scope="s", content=shifted, idempotency_key="k1")
    finally:
        store.close()
    before = validate.content_hash(given)  # the rule before gave the shifted snippet the unshifted one's hash
    raw.execute(db, "UPDATE memories SET content_hash = ?", before)
    raw.execute(db, "UPDATE idempotency_keys SET content_hash = ?", before)
    if backend == "sqlite":
        raw.execute(db, f"PRAGMA user_version = {sqlite_schema.MIGRATIONS.index(sqlite_schema._V20_HASHES, 17)}")
    else:
        again = pg_schema.MIGRATIONS.index(pg_schema._v_hashes, pg_schema.MIGRATIONS.index(pg_schema._v_hashes) + 1)
        raw.execute(db, "UPDATE memvault_schema SET version = ?", again)  # the hashes made again, and what follows
    store = Store(db, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        other = store.remember(tenant="t", scope="s", content=given)
        assert other.created and other.duplicate_of is None
        assert store.remember(tenant="t", scope="s", content=shifted).duplicate_of == first.id
        again = store.remember(tenant="t", scope="s", content=shifted, idempotency_key="k1")
        assert again.id == first.id  # the key's replay: its hash made again with the memory's
    finally:
        store.close()
