"""The counts a recall's other-scopes hint and the boot context show are kept by the
write transactions (never counted over the tenant's memories) and stay exact after
remember, supersede, forget, expiry, import and concurrent writers, on every backend."""

from __future__ import annotations

import re
import threading

import pytest
import raw
import searching
from fakes import FakeEmbedder

from memvault.storage import transfer
from memvault.storage.maintenance import EXPIRY_GRACE_MS
from memvault.storage.store import Store

pytestmark = pytest.mark.contract
SCOPES = ["alpha", "beta", "gamma"]
KINDS = ["fact", "episode", "decision"]


def assert_exact(store: Store, tenant: str = "t") -> None:
    """The kept counts against a count over the memories (``count_memories``)."""
    expected = {s: store.count_memories(tenant=tenant, scopes=[s]) for s in SCOPES}
    assert store.scope_counts(tenant=tenant) == {s: n for s, n in sorted(
        expected.items(), key=lambda item: (-item[1], item[0])) if n}
    for kinds in (["fact"], ["episode", "decision"], KINDS):
        for scopes in (["alpha"], ["alpha", "beta"], SCOPES):
            _, total = store.boot_section(tenant=tenant, scopes=scopes, kinds=kinds, newest_first=True, max_rows=1)
            assert total == store.count_memories(tenant=tenant, scopes=scopes, kinds=kinds), (kinds, scopes)


def assert_documents(store: Store, db: str, tenant: str = "t") -> None:
    """BM25's N, the tenant's memories with words, as kept against a count over the memories."""
    with store.backend.read(tenant) as tx:
        kept = searching.term_counts(tx, ["note"])[0]
    assert kept == raw.execute(db, "SELECT count(*) FROM memories WHERE tenant = ? AND content IS NOT NULL", tenant)[0][0]


def test_kept_counts_follow_every_change_of_state(store: Store, clock, new_db, db: str):
    ids = [store.remember(tenant="t", scope=SCOPES[i % 3], kind=KINDS[i % 3], content=f"note {i} on the rollout")
           for i in range(12)]
    store.remember(tenant="other", scope="alpha", content="another tenant's note")
    assert_exact(store)
    store.supersede(tenant="t", id=ids[0].id, content="note 0, corrected")
    store.supersede(tenant="t", id=ids[1].id, content="note 1 moved to a decision", kind="decision")
    store.forget(tenant="t", id=ids[2].id)
    store.forget(tenant="t", id=ids[3].id, include_history=True)
    assert_exact(store)
    assert_documents(store, db)
    soon = store.remember(tenant="t", scope="beta", content="temporary window", expires_at="2026-01-01T01:00:00Z")
    assert_exact(store)
    clock.now += 2 * 3_600_000  # expired: hidden at once, its count too
    assert_exact(store)
    clock.now += EXPIRY_GRACE_MS
    assert soon.id in store.upkeep.run_due().purged_ids  # erased: the kept count follows
    assert_exact(store)
    assert_documents(store, db)
    assert_documents(store, db, "other")
    assert store.scope_counts(tenant="other") == {"alpha": 1}
    # Imported memories are counted as well (into another database).
    target = Store(new_db(), FakeEmbedder())  # type: ignore[arg-type]
    try:
        lines = list(transfer.export_lines(store, "t"))
        transfer.import_lines(target, lines, tenant="t", scope="alpha")
        assert_exact(target)
        assert sum(target.scope_counts(tenant="t").values()) == sum(store.scope_counts(tenant="t").values())
    finally:
        target.close()


def test_kept_counts_stay_exact_with_writers_on_two_stores(db: str):
    one, two = Store(db, FakeEmbedder()), Store(db, FakeEmbedder())  # type: ignore[arg-type]
    try:
        firsts = [one.remember(tenant="t", scope="alpha", content=f"first {i}").id for i in range(8)]

        def work(store: Store, n: int) -> None:
            for i in range(8):
                store.remember(tenant="t", scope=SCOPES[i % 3], kind=KINDS[i % 2], content=f"writer {n} note {i}")
                if i % 2 == n:
                    store.forget(tenant="t", id=firsts[i])
                else:
                    try:
                        store.supersede(tenant="t", id=firsts[i], content=f"first {i} from writer {n}")
                    except Exception:  # the other writer forgot or superseded it first
                        pass

        threads = [threading.Thread(target=work, args=(s, n)) for n, s in enumerate((one, two))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert_exact(one)
    finally:
        one.close()
        two.close()


@pytest.mark.sqlite_only
def test_scope_counts_and_boot_totals_read_no_memory_of_the_tenant(store: Store):
    """The kind, not the instance: no statement they run reads the tenant's memories (only
    the kept counts, and the expiry index's memories expired and not yet erased)."""
    import sqlite_raw

    for i in range(30):
        store.remember(tenant="t", scope=SCOPES[i % 3], kind=KINDS[i % 3], content=f"note {i}")
    with sqlite_raw.statements(store) as seen:
        store.scope_counts(tenant="t")
        store.boot_section(tenant="t", scopes=SCOPES, kinds=["fact"], newest_first=True, max_rows=0)
    counting = [s for s in seen if "count(" in s.lower() or "memory_counts" in s]
    assert counting
    with sqlite_raw.snapshot(store) as conn:
        for statement in counting:
            names = re.findall(r"(?<!:):([a-z_]+)", statement)
            values = {n: 0 for n in names} if names else (0,) * statement.count("?")
            plan = [row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + statement, values)]
            reads = [step for step in plan if re.match(r"(SCAN|SEARCH) (memories|m)\b", step)
                     and "memories_expiring" not in step]
            assert reads == [], (statement, plan)
