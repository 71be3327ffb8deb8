"""``supersede`` names the other current memories its new content contradicts, as ``remember`` does (trial 59
#1: superseding with "The deploy freeze starts on 21 December" said nothing of another memory's "20
December"); never the memory it replaces."""

from __future__ import annotations

import pytest

from memvault.storage.store import Store
from memvault.tools import handlers, text
from memvault.tools.caller import Caller

CASES = [  # (other current memory, memory superseded, its correction, reason)
    ("The deploy freeze starts on 20 December", "The deploy freeze begins mid-December, Ana said",
     "The deploy freeze starts on 21 December", "different date: 20 → 21"),
    ("The team standup is at 9:15 every morning", "Standup happens in the morning, time unsure",
     "The team standup is at 10:30 every morning", "different time: 09:15 → 10:30"),
    ("Redis listens on port 6379 in production", "Redis runs in production somewhere",
     "Redis listens on port 6380 in production", "different number: 6379 → 6380"),
    ("We deploy the API with Jenkins", "The API deploys are manual for now",
     "We deploy the API with GitHub Actions", "different name: jenkins → github actions"),
]


@pytest.mark.parametrize(("other", "old", "new", "reason"), CASES)
def test_supersede_returns_the_other_memories_its_content_contradicts(db, real_embedder, other, old, new, reason):
    s = Store(db, real_embedder)
    other_id = s.remember(tenant="t", scope="p", content=other, observed_at="2026-11-20T10:00:00Z").id
    old_id = s.remember(tenant="t", scope="p", content=old, observed_at="2026-11-21T10:00:00Z").id
    result = handlers.supersede(s, Caller(tenant="t", scope="p"), id=old_id, content=new)
    s.close()
    found = {c.id: c for c in result.contradicts}
    assert list(found) == [other_id] and not found[other_id].newer
    assert found[other_id].reason == reason
    assert f"Contradicts current memory {other_id} ({reason})" in text.render(result)


def test_supersede_never_names_the_memory_it_replaces(db, real_embedder):
    s = Store(db, real_embedder)
    old_id = s.remember(tenant="t", scope="p", content="The deploy freeze starts on 20 December").id
    result = handlers.supersede(s, Caller(tenant="t", scope="p"), id=old_id,
                                content="The deploy freeze starts on 21 December")
    s.close()
    assert result.contradicts == []


def test_a_supersede_agreeing_with_the_other_memories_contradicts_none(db, real_embedder):
    s = Store(db, real_embedder)
    s.remember(tenant="t", scope="p", content="The deploy freeze starts on 21 December")
    old_id = s.remember(tenant="t", scope="p", content="Release notes are written by Priya").id
    result = handlers.supersede(s, Caller(tenant="t", scope="p"), id=old_id,
                                content="Release notes are written by Priya and Tom")
    s.close()
    assert result.contradicts == []
