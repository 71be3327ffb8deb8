"""The count of what waits for review on the boot's path (issues 26 and 28): read from the pairs
consolidation and ``remember`` kept, never by judging them again, so the boot read does no work
that grows with the queue; the count stays right after remember, supersede, forget, consolidate
and confirm; ``memory://review`` reads the reason of the pairs it shows only. Both backends."""

from __future__ import annotations

import re

import pytest
from memvault.storage import consolidate as consolidation
from memvault.storage import contradiction, strength
from memvault.storage.consolidate import consolidate
from memvault.storage.store import Store
from memvault.tools import review as review_tool
from memvault.tools.boot import boot_context
from memvault.tools.handlers import Caller
from memvault.tools.review import review_document

pytestmark = pytest.mark.contract
CALLER = Caller(tenant="a", scope="proj")
DAY_S = 86_400


def pair(store: Store, clock, subject: str, old: str, new: str) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    """Two facts on ``subject`` whose values differ, the newer an hour later; their ids."""
    first = store.remember(tenant="a", scope="proj", content=f"The {subject} listens on port {old}.", kind="fact")
    clock.advance(3600)
    second = store.remember(tenant="a", scope="proj", content=f"The {subject} listens on port {new}.", kind="fact")
    return first.id, second.id


def waiting(store: Store) -> int:
    """The count the boot context's header says (0 when it says nothing waits)."""
    found = re.search(r"^([\d,]+)\+? items? waits? for review", boot_context(store, CALLER, 2_000), re.MULTILINE)
    return int(found.group(1).replace(",", "")) if found else 0


def never_judged(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    def judge(*args: object) -> None:
        raise AssertionError("a read judged a pair again")

    monkeypatch.setattr(contradiction, "judge", judge)
    monkeypatch.setattr(consolidation, "disagreement", judge)


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
    real = consolidation.disagreement
    monkeypatch.setattr(consolidation, "disagreement", lambda *texts: judged.append(texts) or real(*texts))
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
