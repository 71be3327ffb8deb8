"""What a history says after compactions, forgets, expiries and versions joining between two others:
`memvault show` of any replaced memory names what replaced it, a version replaced by one forgotten
or expired since says so, a reason stays with the link it was given for, and a memory forgotten after
it expired keeps its forget in its tombstone (trial 57 #7, #8)."""

from __future__ import annotations

import pytest
from fakes import Clock
from test_consolidation import episode

from memvault.storage.consolidate import consolidate
from memvault.storage.limits import REASON_MAX_CHARS
from memvault.storage.store import Store
from memvault.storage.timefmt import parse_iso
from memvault.tools import handlers, text
from memvault.tools.caller import Caller

pytestmark = pytest.mark.contract
CALLER = Caller(tenant="a", scope="proj")


def shown(store: Store, memory_id: str) -> str:
    """What `memvault show` prints."""
    return text.memory_view_text(handlers.memory_view(store, CALLER, memory_id))


def dated(store: Store, content: str, day: str) -> str:
    return store.remember(tenant="a", scope="proj", content=content, kind="fact",
                          observed_at=f"2025-{day}T09:00:00Z").id


def test_show_of_a_compacted_episode_names_its_digest(store):
    source = episode(store, "Paired with Lena on the flaky checkout test; it was a race in the cart mock.", 45)
    episode(store, "Cleaned the backlog of stale tickets.", 45)
    digest = consolidate(store).compacted[0].digest_id
    view = handlers.memory_view(store, CALLER, source)
    assert view["memory"]["superseded_by"] == digest  # what --json says ...
    assert f"replaced:    compacted into the digest {digest}" in shown(store, source)  # ... the text says
    assert "\nreplaced:" not in shown(store, digest)


def test_show_of_every_replaced_version_names_what_replaced_it_and_why(store):
    first = store.remember(tenant="a", scope="proj", content="The API runs on port 8080.", kind="fact").id
    second = store.supersede(tenant="a", id=first, content="The API runs on port 8081.", reason="clash").id
    third = store.supersede(tenant="a", id=second, content="The API runs on port 8082.").id
    assert f'replaced:    superseded by {second} (reason "clash")' in shown(store, first)
    assert f"replaced:    superseded by {third}\n" in shown(store, second)
    assert "\nreplaced:" not in shown(store, third)


def test_a_version_replaced_by_one_forgotten_since_says_it_was_forgotten(store):
    oldest = store.remember(tenant="a", scope="proj", content="Deploy freezes start on 18 December.",
                            kind="decision").id
    middle = store.supersede(tenant="a", id=oldest, content="Deploy freezes start on 15 December.").id
    newest = store.supersede(tenant="a", id=middle, content="Deploy freezes start on 12 December.").id
    store.forget(tenant="a", id=middle, reason="typo")
    result = handlers.recall(store, CALLER, query="when do deploy freezes start?", include_history=True)
    by_id = {m.id: m for m in result.memories}
    assert by_id[oldest].superseded_by == middle and by_id[oldest].superseded_by_ended == "was forgotten"
    assert by_id[newest].superseded_by_ended is None
    line = next(x for x in text.render(result).splitlines() if "18 December" in x)
    assert line.endswith(f"superseded by {by_id[oldest].superseded_by}, which was forgotten")
    assert f"replaced:    superseded by {middle}, which was forgotten at " in shown(store, oldest)
    assert "(typo)" in shown(store, oldest)
    plain = handlers.recall(store, CALLER, query="when do deploy freezes start?")
    assert all(m.superseded_by_ended is None for m in plain.memories)


def test_a_version_replaced_by_one_expired_since_says_it_expired(store, clock: Clock):
    old = store.remember(tenant="a", scope="proj", content="The office is closed on Friday afternoon.", kind="fact").id
    store.supersede(tenant="a", id=old, content="The office is closed all Friday.", expires_at="2026-01-02T00:00:00Z")
    clock.now = parse_iso("now", "2026-01-03T00:00:00Z")
    result = handlers.recall(store, CALLER, query="is the office closed on Friday?", include_history=True)
    [older] = [m for m in result.memories if m.id == old]
    assert older.superseded_by_ended == "expired at 2026-01-02T00:00:00.000Z"
    assert ", which expired at 2026-01-02T00:00:00.000Z" in text.render(result)


def test_a_reason_given_for_one_link_stays_with_it_when_a_version_joins_between(store):
    a = dated(store, "The team standup is at 09:00.", "11-02")
    b = dated(store, "The team standup is at 09:30.", "11-16")
    c = dated(store, "The team standup is at 10:00.", "11-30")
    store.supersede_by(tenant="a", id=a, by=c, reason="moved twice")
    store.supersede_by(tenant="a", id=b, by=c, reason="moved")
    rows = {i: store.get(tenant="a", id=i) for i in (a, b, c)}
    assert (rows[a].superseded_by, rows[a].supersede_reason) == (b, f"moved twice (given for {c})")
    assert (rows[b].superseded_by, rows[b].supersede_reason) == (c, "moved")
    # another joins between A and B: A's reason still names C, once; D's names C, given for it
    d = dated(store, "The team standup is at 09:15.", "11-09")
    store.supersede_by(tenant="a", id=d, by=c, reason="a week later")
    rows = {i: store.get(tenant="a", id=i) for i in (a, b, c, d)}
    assert (rows[a].superseded_by, rows[a].supersede_reason) == (d, f"moved twice (given for {c})")
    assert (rows[d].superseded_by, rows[d].supersede_reason) == (b, f"a week later (given for {c})")
    assert [m.id for m in store.history(tenant="a", id=c)] == [a, d, b, c]


def test_a_version_placed_before_the_one_named_says_which_its_reason_was_given_for(store):
    tue = dated(store, "Deploys go out on Tuesdays.", "09-01")
    fri = dated(store, "Deploys go out on Fridays.", "11-01")
    store.supersede_by(tenant="a", id=tue, by=fri)  # no reason: none is moved
    mon = dated(store, "Deploys go out on Mondays.", "08-01")
    store.supersede_by(tenant="a", id=mon, by=fri, reason="x" * REASON_MAX_CHARS)
    rows = {i: store.get(tenant="a", id=i) for i in (mon, tue)}
    assert rows[tue].supersede_reason is None
    assert rows[mon].superseded_by == tue
    reason = rows[mon].supersede_reason or ""
    assert reason.endswith(f"… (given for {fri})") and len(reason) == REASON_MAX_CHARS


def test_a_memory_forgotten_after_it_expired_shows_the_forget(store, clock: Clock):
    memory = store.remember(tenant="a", scope="proj", content="The office is closed for maintenance.",
                            expires_at="2026-01-02T00:00:00Z").id
    clock.now = parse_iso("now", "2026-01-02T00:00:05Z")
    store.forget(tenant="a", id=memory, reason="maintenance done")
    view = handlers.memory_view(store, CALLER, memory)
    assert view["memory"] == {"id": memory, "expired_at": "2026-01-02T00:00:00.000Z",
                              "forgotten_at": "2026-01-02T00:00:05.000Z", "forget_reason": "maintenance done"}
    assert shown(store, memory) == (f"{memory} expired at 2026-01-02T00:00:00.000Z; its content is erased; it was "
                                    "forgotten at 2026-01-02T00:00:05.000Z (maintenance done)")
