"""The count of what waits for review on the boot's path (issues 26 and 28): read from the pairs
consolidation and ``remember`` kept, never by judging them again, so the boot read does no work
that grows with the queue; the count stays right after remember, supersede, forget, consolidate
and confirm; ``memory://review`` reads the reason of the pairs it shows only. Both backends."""

from __future__ import annotations

import re
from contextlib import contextmanager

import pytest
from memvault.storage import consolidate as consolidation
from memvault.storage import contradiction, strength
from memvault.storage.consolidate import consolidate
from memvault.storage.store import Store
from memvault.tools import boot
from memvault.tools import review as review_tool
from memvault.tools.boot import boot_context
from memvault.tools.handlers import Caller
from memvault.tools.review import review_document

pytestmark = pytest.mark.contract
CALLER = Caller(tenant="a", scope="proj")
DAY_S = 86_400


def pair(store: Store, clock, subject: str, old: str, new: str,  # type: ignore[no-untyped-def]
         scope: str = "proj") -> tuple[str, str]:
    """Two facts on ``subject`` whose values differ, the newer an hour later; their ids."""
    first = store.remember(tenant="a", scope=scope, content=f"The {subject} listens on port {old}.", kind="fact")
    clock.advance(3600)
    second = store.remember(tenant="a", scope=scope, content=f"The {subject} listens on port {new}.", kind="fact")
    return first.id, second.id


def waiting(store: Store) -> int:
    """The count the boot context's header says (0 when it says nothing waits)."""
    found = re.search(r"^([\d,]+)\+? items? waits? for review", boot_context(store, CALLER, 2_000), re.MULTILINE)
    return int(found.group(1).replace(",", "")) if found else 0


def never_judged(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    def judge(*args: object) -> None:
        raise AssertionError("a read judged a pair again")

    monkeypatch.setattr(contradiction, "judge", judge)
    monkeypatch.setattr(contradiction, "disagreement", judge)


def test_the_boot_read_never_judges_the_pairs_review_holds(store, clock, monkeypatch):
    pairs = [pair(store, clock, f"{name} service", "8001", "8002") for name in ("billing", "search", "ledger")]
    consolidate(store)
    never_judged(monkeypatch)
    boot = boot_context(store, CALLER, 2_000)
    assert "3 items wait for review: read memory://review" in boot
    short = store.short_ids(tenant="a", ids=[newer for _, newer in pairs])
    assert all(f"— possibly outdated by {short[newer]}" in boot for _, newer in pairs)
    assert [(o, n) for o, n, why in store.review("a", ["proj"], reasons=0).contradictions] == sorted(pairs)


def test_the_review_document_reads_the_reason_of_the_pairs_it_shows_only(store, clock, monkeypatch):
    for name in ("billing", "search", "ledger"):
        pair(store, clock, f"{name} service", "8001", "8002")
    consolidate(store)
    judged = []
    real = contradiction.disagreement
    monkeypatch.setattr(contradiction, "disagreement", lambda *texts: judged.append(texts) or real(*texts))
    monkeypatch.setattr(review_tool, "SHOWN", 1)
    document = review_document(store, CALLER)
    assert "## Contradicting pairs (3)" in document and "- and 2 more" in document
    assert document.count("why: different") == 1 and len(judged) == 1
    assert "_3 items wait for review._" in document


def test_the_count_stays_right_after_each_verb(store, clock):
    billing = pair(store, clock, "billing service", "8001", "8002")
    search = pair(store, clock, "search service", "9001", "9002")
    assert waiting(store) == 0  # not yet compared
    consolidate(store)
    assert waiting(store) == 2
    store.supersede(tenant="a", id=billing[0], content="The billing service is written in Go.")
    assert waiting(store) == 1
    store.forget(tenant="a", id=search[1])
    assert waiting(store) == 0
    ledger = pair(store, clock, "ledger service", "7001", "7002")
    assert waiting(store) == 0
    consolidate(store)
    assert waiting(store) == 1
    assert [(o, n) for o, n, _ in store.review("a", ["proj"]).contradictions] == [ledger]
    store.confirm(tenant="a", id=ledger[0])  # still true, but the pair waits until one is settled
    assert waiting(store) == 1
    store.supersede_by(tenant="a", id=ledger[0], by=ledger[1])
    assert waiting(store) == 0


def test_a_confirmed_memory_leaves_the_decayed_count(store, clock):
    kept = store.remember(tenant="a", scope="proj", content="Queue 1 drains into bucket 1.", kind="fact").id
    store.remember(tenant="a", scope="proj", content="The office plant is watered on Fridays.", kind="fact")
    clock.advance((strength.HALF_LIFE_DAYS["fact"] + 1) * DAY_S)
    assert waiting(store) == 2
    store.confirm(tenant="a", id=kept)
    assert waiting(store) == 1


SUBJECTS = ("billing", "search", "ledger", "mailer", "gateway", "scheduler", "indexer")


def kept_pairs(store: Store, clock, n: int,  # type: ignore[no-untyped-def]
               scope: str = "proj") -> list[tuple[str, str]]:
    """``n`` contradicting pairs of facts of ``scope`` kept for review (as ``remember`` keeps them), sorted."""
    pairs = [pair(store, clock, f"{name} service", "8001", "8002", scope) for name in SUBJECTS[:n]]
    if pairs:
        consolidation.note(store, "a", pairs)
    return sorted(pairs)


def header_count(document: str) -> str | None:
    found = re.search(r"^(.*) for review: read memory://review$", document, re.MULTILINE)
    return found.group(1) if found else None


@pytest.mark.parametrize("kept", [0, 1, 2, 3, 4, 7])
def test_the_boot_count_reads_at_most_pairs_counted_and_says_when_it_is_a_lower_bound(store, clock, monkeypatch, kept):
    pairs = kept_pairs(store, clock, kept)
    monkeypatch.setattr(boot, "PAIRS_COUNTED", 10_000)  # every pair read: the boot before issue 28
    every = boot_context(store, CALLER, 2_000)
    monkeypatch.setattr(boot, "PAIRS_COUNTED", 3)
    bounded = boot_context(store, CALLER, 2_000)
    assert len(store.review("a", ["proj"]).contradictions) == kept
    said = {0: None, 1: "1 item waits", 2: "2 items wait", 3: "3 items wait"}.get(kept, "3+ items wait")
    assert header_count(bounded) == said
    if kept <= 3:
        assert bounded == every
    else:  # the count, and the footer's token figure that counts it, differ; nothing else
        tokens = re.compile(r"within [\d,]+ tokens")
        assert tokens.sub("", bounded) == tokens.sub("", every).replace(f"\n{kept} items wait", f"\n{said}")
    short = store.short_ids(tenant="a", ids=[i for p in pairs for i in p])
    lines = {line[3:].split("]")[0]: line for line in bounded.splitlines() if line.startswith("- [")}
    for older, newer in pairs:  # every mark shown, however many pairs the count read
        assert lines[short[older]].endswith(f"— possibly outdated by {short[newer]}")
        assert "possibly outdated" not in lines[short[newer]]


@pytest.mark.parametrize("kept", [0, 2, 5])
def test_the_boot_count_reads_the_pairs_of_the_callers_scope_however_many_another_scope_holds(
        store, clock, monkeypatch, kept):
    """Pairs of another scope of the tenant, kept before the caller's (first in key order) and more
    than the bound, take no place in the count: the boot is the one read without them (N2, verify63)."""
    other = kept_pairs(store, clock, 6, scope="side")
    store.remember(tenant="a", scope="proj", content="The office plant is watered on Fridays.", kind="fact")
    pairs = kept_pairs(store, clock, kept)
    monkeypatch.setattr(boot, "PAIRS_COUNTED", 3)
    beside = boot_context(store, CALLER, 2_000)
    with store.backend.write("a") as tx:  # the other scope's pairs no longer kept
        tx.change_review_pairs("a", set(), set(other), consolidation.PAIRS_KEPT)
    alone = boot_context(store, CALLER, 2_000)
    assert header_count(beside) == {0: None, 2: "2 items wait", 5: "3+ items wait"}[kept]
    assert beside == alone
    short = store.short_ids(tenant="a", ids=[i for p in pairs for i in p])
    lines = {line[3:].split("]")[0]: line for line in beside.splitlines() if line.startswith("- [")}
    for older, newer in pairs:
        assert lines[short[older]].endswith(f"— possibly outdated by {short[newer]}")
        assert "possibly outdated" not in lines[short[newer]]
    assert beside.count("possibly outdated") == kept


def test_a_pair_no_longer_waiting_among_those_read_lowers_the_bound_not_the_marks(store, clock, monkeypatch):
    pairs = kept_pairs(store, clock, 5)
    store.supersede(tenant="a", id=pairs[0][1], content="The billing service moved to a queue.")  # read first
    monkeypatch.setattr(boot, "PAIRS_COUNTED", 3)
    document = boot_context(store, CALLER, 2_000)
    assert len(store.review("a", ["proj"]).contradictions) == 4
    assert header_count(document) == "2+ items wait"
    short = store.short_ids(tenant="a", ids=[i for p in pairs for i in p])
    assert all(f"— possibly outdated by {short[newer]}" in document for _, newer in pairs[1:])
    monkeypatch.setattr(boot, "PAIRS_COUNTED", 4)
    assert header_count(boot_context(store, CALLER, 2_000)) == "3+ items wait"
    monkeypatch.setattr(boot, "PAIRS_COUNTED", 5)
    assert header_count(boot_context(store, CALLER, 2_000)) == "4 items wait"


def test_the_boot_read_asks_for_no_more_pairs_or_rows_than_it_counts_and_shows(store, clock, monkeypatch):
    """The kind, not the instance: every read of the kept pairs on the boot's path is bounded (by
    ``PAIRS_COUNTED`` or by the ids of the memories shown), and so is every read of their rows."""
    kept_pairs(store, clock, 7)
    monkeypatch.setattr(boot, "PAIRS_COUNTED", 2)
    asked: list[tuple[str, int | None, int]] = []
    real = store.backend.read

    class Spy:
        def __init__(self, tx):  # type: ignore[no-untyped-def]
            self.tx = tx

        def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
            return getattr(self.tx, name)

        def review_pairs(self, tenant, older=None, limit=None, scopes=None):  # type: ignore[no-untyped-def]
            found = self.tx.review_pairs(tenant, older=older, limit=limit, scopes=scopes)
            asked.append(("pairs", limit if older is None else len(older), len(found)))
            return found

        def memories(self, tenant, ids=None, **given):  # type: ignore[no-untyped-def]
            found = self.tx.memories(tenant, ids=ids, **given)
            if ids is not None:
                asked.append(("rows", len(ids), len(found)))
            return found

    @contextmanager
    def read(tenant):  # type: ignore[no-untyped-def]
        with real(tenant) as tx:
            yield Spy(tx)

    monkeypatch.setattr(store.backend, "read", read)
    document = boot_context(store, CALLER, 2_000)
    assert header_count(document) == "2+ items wait"
    shown = document.count("\n- [")
    assert asked and all(bound is not None for _, bound, _ in asked)
    assert [found for what, bound, found in asked if what == "pairs" and bound == 3] == [3]  # PAIRS_COUNTED + 1
    assert all(bound <= shown + 4 for _, bound, _ in asked)  # the count's rows: both of each pair counted
