"""A consolidation run in turns (a server's worker, stopped by its calls): each step between a run's
first and last checks the pairs it found, not every pair kept, and the run ends as a run in one piece
does. State tests on both backends."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from memvault.storage import consolidate as consolidation
from memvault.storage.consolidate import consolidate
from memvault.storage.store import Store

pytestmark = pytest.mark.contract
SERVICES = ["billing", "search", "mail", "payroll", "ledger", "inventory"]
OTHERS = ["Backups are kept for 14 days.", "Cache entries expire after 30 minutes.", "The VPN gateway is vpn4.",
          "Deploys need 2 approvals.", "The wiki lives on Confluence.", "Standups start at 9:30."]


def kept(store: Store, tenant: str = "a") -> set[tuple[str, str]]:
    with store.backend.read(tenant) as tx:
        return set(tx.review_pairs(tenant))


def worded(store: Store, tenant: str) -> set[tuple[str | None, str | None]]:
    """The pairs kept for ``tenant``, each as its two memories' words."""
    pairs = kept(store, tenant)
    with store.backend.read(tenant) as tx:
        rows = {m.id: m.content for m in tx.memories(tenant, ids=sorted({i for p in pairs for i in p})).values()}
    return {(rows[older], rows[newer]) for older, newer in pairs}


def ported(store: Store, ports: tuple[int, int], tenant: str = "a") -> None:
    """Each service's port said twice, the second time changed: one contradicting pair a service."""
    for port in ports:
        for service in SERVICES:
            store.remember(tenant=tenant, scope="proj", content=f"The {service} service listens on port {port}.",
                           kind="fact")


def noted(store: Store, count: int, tenant: str = "a") -> None:
    for n in range(count):
        store.remember(tenant=tenant, scope="proj", content=f"{OTHERS[n % len(OTHERS)]} (note {n})", kind="fact")


def in_turns(store: Store, each: int) -> list[set[str]]:
    """A whole run in turns of ``each`` comparisons (the sets a server's worker gives each turn); the ids
    of the rows each turn read by id."""
    read: list[set[str]] = []
    opened = store.backend.read

    @contextmanager
    def spied(tenant: str | None) -> Iterator[object]:
        with opened(tenant) as tx:
            memories = tx.memories

            def by_id(*args: object, **kwargs: object) -> object:
                read[-1].update(kwargs.get("ids") or [])  # type: ignore[arg-type]
                return memories(*args, **kwargs)  # type: ignore[arg-type]

            tx.memories = by_id  # type: ignore[method-assign]
            yield tx

    store.backend.read = spied  # type: ignore[method-assign]
    compacted: set[str] = set()
    checked: set[str] = set()
    try:
        while True:
            read.append(set())
            asked = iter(range(1_000))
            if consolidate(store, stop=lambda: next(asked) >= each, compacted=compacted, checked=checked).finished:
                return read
    finally:
        store.backend.read = opened  # type: ignore[method-assign]


@pytest.mark.parametrize("each", [1, 5])
def test_a_step_between_a_runs_first_and_last_reads_no_pair_it_did_not_find(store, each):
    """The pairs kept stay checked by the run's first and last steps; the steps between read the rows of
    the pairs they found only (a call that begins meanwhile waits for one comparison and that, not for
    every pair kept to be read again; a tenant with nothing new is checked by the first only), and the run
    keeps the pairs a scan checking every pair at every step keeps (tenant "b": the same memories)."""
    for tenant in ("a", "b"):
        ported(store, (8000, 9000), tenant)
    consolidate(store)
    before = kept(store)
    assert len(before) == len(SERVICES)
    for tenant in ("a", "b"):
        noted(store, 40, tenant)
    consolidation.scan(store, "b", store.clock(), consolidation.Report())
    named = {i for pair in before for i in pair}
    of_b = {i for pair in kept(store, "b") for i in pair}
    read = in_turns(store, each)
    assert len(read) > 3 and read[0] >= named and read[-1] >= named
    assert [r & named for r in read[1:-1]] == [set()] * (len(read) - 2)
    assert [bool(r & of_b) for r in read].count(True) == 1  # nothing new: checked once
    assert before <= kept(store) and worded(store, "a") == worded(store, "b")
    assert consolidate(store).compared == 0


@pytest.mark.parametrize("changed", ["forgotten", "superseded"])
def test_a_pair_outdated_during_a_run_in_turns_is_gone_when_it_ends(store, changed):
    """A pair one of whose memories is forgotten or superseded while the run goes on is dropped by the
    run's last step; the pairs still current stay, and the new one found meanwhile is kept."""
    ported(store, (8000, 9000))
    consolidate(store)
    pairs = sorted(kept(store))
    noted(store, 30)
    store.remember(tenant="a", scope="proj", content="The VPN gateway is vpn7.", kind="fact")
    compacted: set[str] = set()
    checked: set[str] = set()
    asked = iter(range(1_000))
    assert not consolidate(store, stop=lambda: next(asked) >= 2, compacted=compacted, checked=checked).finished
    gone = pairs[0][1]
    if changed == "forgotten":
        store.forget(tenant="a", id=gone)
    else:
        store.supersede(tenant="a", id=gone, content="The billing service moved to port 9100.")
    while True:
        asked = iter(range(1_000))
        if consolidate(store, stop=lambda: next(asked) >= 2, compacted=compacted, checked=checked).finished:
            break
    now = kept(store)
    assert set(pairs[1:]) <= now and pairs[0] not in now
    assert len(now - set(pairs)) >= 1


def test_pairs_past_the_most_kept_are_cut_as_the_store_cuts_them(store, monkeypatch):
    """At ``PAIRS_KEPT`` the scan keeps the pairs of the newest newer and, among those, of the newest older
    (the backend's order when it trims them), whatever order a step's set holds them in: a run in turns
    and a run in one piece keep the same. One pair kept; a port said three times, in each tenant."""
    monkeypatch.setattr(consolidation, "PAIRS_KEPT", 1)
    said: dict[str, list[str]] = {}
    for service in SERVICES:
        said[service] = [store.remember(tenant=service, scope="proj", kind="fact",
                                        content=f"The {service} service listens on port {port}.").id
                         for port in (7000, 8000, 9000)]
    consolidate(store)
    assert {service: kept(store, service) for service in SERVICES} == {
        service: {(ids[1], ids[2])} for service, ids in said.items()}
