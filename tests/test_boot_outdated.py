"""The boot context marks the older of a contradicting pair that review holds ("— possibly outdated by
<short id>", as recall marks it ``possibly_outdated_by``) and puts the newer first in its section."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from memvault.storage.consolidate import consolidate
from memvault.storage.store import Store
from memvault.tools.boot import OUTDATED_MARK, boot_context, newer_first
from memvault.tools.handlers import Caller

pytestmark = pytest.mark.contract
CALLER = Caller(tenant="a", scope="proj")


def facts(boot: str) -> list[tuple[str, str]]:
    """(short id, the rest of the line) of each line of the Facts section."""
    block = boot.split("\n## Facts\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^- \[(\S+)\] \S+: (.*)$", block, re.MULTILINE)


def test_the_older_of_a_pair_is_marked_and_the_newer_comes_first(store: Store, clock):
    def fact(content: str, importance: int) -> str:
        clock.advance(3600)
        return store.remember(tenant="a", scope="proj", kind="fact", content=content,
                              importance=importance).id

    old = fact("The team standup is at 9:15 every weekday.", 9)
    other = fact("The CI runners have 4 cores each.", 7)
    new = fact("The team standup is at 10:30 every weekday.", 5)
    before = facts(boot_context(store, CALLER, 2000))
    assert [content for _, content in before] == [  # by importance; review holds no pair yet: no mark
        '"The team standup is at 9:15 every weekday."', '"The CI runners have 4 cores each."',
        '"The team standup is at 10:30 every weekday."']
    consolidate(store)
    after = facts(boot_context(store, CALLER, 2000))
    short = dict(zip((old, other, new), (s for s, _ in before)))
    assert after == [
        (short[new], '"The team standup is at 10:30 every weekday."'),
        (short[old], f'"The team standup is at 9:15 every weekday."{OUTDATED_MARK}{short[new]}'),
        (short[other], '"The CI runners have 4 cores each."')]
    store.supersede_by(tenant="a", id=old, by=new)
    assert OUTDATED_MARK not in boot_context(store, CALLER, 2000)  # the pair left review with its older


@pytest.mark.parametrize(("order", "expected"), [
    ("abcd", "cbad"), ("cab", "cba"), ("dcba", "dcba"), ("bda", "bda"), ("adcb", "cbad"),
])
def test_newer_first_moves_each_newer_memory_just_before_the_one_it_outdates(order: str, expected: str):
    newer_of = {"a": "b", "b": "c"}  # a is outdated by b, b by c; d stands alone
    memories = [SimpleNamespace(id=i) for i in order]
    assert "".join(m.id for m in newer_first(memories, newer_of)) == expected  # type: ignore[arg-type]


def test_confirming_the_older_of_a_pair_settles_it_in_review_boot_and_recall(store: Store, clock):
    """Trial 48 (M1): a pair judged no contradiction could not be dismissed. Confirming the older beside
    the newer is that verdict; a plain confirmation of either says nothing of the pair."""
    old = store.remember(tenant="a", scope="proj", kind="fact", content="The team standup is at 9:15 every weekday.").id
    clock.advance(3600)
    new = store.remember(tenant="a", scope="proj", kind="fact", content="The team standup is at 10:30 every weekday.").id
    consolidate(store)

    def pairs() -> list[tuple[str, str]]:
        return [(o, n) for o, n, _ in store.review("a", ["proj"]).contradictions]

    def marked() -> dict[str, str | None]:
        return {h.memory.id: h.outdated_by for h in store.recall(tenant="a", query="standup", scopes=["proj"]).hits}

    clock.advance(60)
    store.confirm(tenant="a", id=new)
    assert pairs() == [(old, new)] and marked()[old] == new
    assert OUTDATED_MARK in boot_context(store, CALLER, 2000) and "for review" in boot_context(store, CALLER, 2000)
    clock.advance(60)
    store.confirm(tenant="a", id=old)
    assert pairs() == [(old, new)] and marked()[old] == new
    store.confirm(tenant="a", id=old, beside=new)
    assert pairs() == [] and marked() == {old: None, new: None}
    boot = boot_context(store, CALLER, 2000)
    assert OUTDATED_MARK not in boot and "for review" not in boot
    consolidate(store)
    assert pairs() == []
    clock.advance(3600)  # a change stored after the confirmation is a contradiction again
    newest = store.remember(tenant="a", scope="proj", kind="fact", content="The team standup is at 11:00 every weekday.").id
    consolidate(store)
    assert (old, newest) in pairs() and marked()[old] == newest
