"""Strength (issue 27): confirmations raise it, time without one halves it per half-life, a fact
unconfirmed for six months needs review, and ranking and boot order weigh it; nothing is deleted by
decay. On both backends, with a fake clock."""

from __future__ import annotations

import re

import pytest
from conftest import names_field
from fakes import Clock

from memvault.storage import ranking
from memvault.storage import strength as strengths
from memvault.storage.errors import Conflict, InvalidInput
from memvault.storage.store import Store
from memvault.tools import handlers, text
from memvault.tools.boot import boot_context

pytestmark = pytest.mark.contract
CALLER = handlers.Caller(tenant="t", scope="proj")
DAY_S = 86_400


def fact(store: Store, content: str, **kw) -> str:
    return store.remember(tenant="t", scope="proj", content=content, **kw).id


def held(store: Store, memory_id: str) -> float:
    return strengths.strength(store.get(tenant="t", id=memory_id), store.clock())


def test_each_confirmation_raises_strength_and_a_duplicate_counts_as_one(store: Store):
    first = fact(store, "The staging database runs on host db-7")
    assert held(store, first) == 0.6
    out = store.confirm(tenant="t", id=first)
    assert out.memory.confirmations == 1 and out.runs is None and held(store, first) == 0.8
    assert (
        store.remember(tenant="t", scope="proj", content="The staging database runs on host db-7").id == first
    )
    assert store.get(tenant="t", id=first).confirmations == 2 and held(store, first) == 0.9


def test_a_restatement_dated_in_the_past_confirms_then_not_now(store: Store, clock: Clock):
    """Trial 27 #6: a six-month-old restatement cleared needs_review and started decay anew today."""
    clock.advance(400 * DAY_S)
    old = fact(store, "The build cache lives on cache-3", observed_at="2026-05-01T00:00:00Z")
    assert strengths.needs_review(store.get(tenant="t", id=old), clock())
    again = store.remember(tenant="t", scope="proj", content="The build cache lives on cache-3",
                           observed_at="2026-05-15T00:00:00Z")
    assert again.duplicate_of == old and again.not_applied == ("observed_at",)
    stored = store.get(tenant="t", id=old)
    assert stored.confirmations == 1 and stored.last_confirmed_at == 1_778_803_200_000  # 2026-05-15
    assert strengths.needs_review(stored, clock())  # still six months without a confirmation
    store.remember(tenant="t", scope="proj", content="The build cache lives on cache-3",
                   observed_at="2026-05-02T00:00:00Z")  # older than the last: that one stays
    assert store.get(tenant="t", id=old).last_confirmed_at == 1_778_803_200_000
    store.remember(tenant="t", scope="proj", content="The build cache lives on cache-3")  # now
    assert store.get(tenant="t", id=old).last_confirmed_at == clock()
    assert not strengths.needs_review(store.get(tenant="t", id=old), clock())


def test_one_half_life_halves_strength_and_a_fact_needs_review_after_six_months(store: Store, clock: Clock):
    memory_id = fact(store, "The VPN endpoint is vpn.example.org")
    store.confirm(tenant="t", id=memory_id)  # 0.8
    clock.advance(strengths.HALF_LIFE_DAYS["fact"] * DAY_S)
    assert held(store, memory_id) == 0.4
    lone = fact(store, "The office wifi is called corp-5")
    clock.advance(170 * DAY_S)
    assert not strengths.needs_review(store.get(tenant="t", id=lone), clock())
    clock.advance(13 * DAY_S)  # 183 days: six months
    assert held(store, lone) < strengths.REVIEW_BELOW
    shown = handlers.recall(store, CALLER, query="office wifi").memories[0]
    assert (shown.id, shown.needs_review, shown.strength) == (lone, True, held(store, lone))
    assert (
        store.get(tenant="t", id=lone).content == "The office wifi is called corp-5"
    )  # decay deletes nothing
    clock.advance(3_650 * DAY_S)
    assert [m.id for m in handlers.recall(store, CALLER, query="office wifi").memories][:1] == [lone]


def test_episodes_fade_faster_than_decisions(store: Store, clock: Clock):
    episode = fact(store, "We paired on the flaky login test", kind="episode")
    decision = fact(store, "We chose Postgres for the billing service", kind="decision")
    clock.advance(60 * DAY_S)
    assert held(store, episode) == 0.125 and held(store, decision) == round(0.7 * 0.5 ** (60 / 365), 3)
    assert not strengths.needs_review(
        store.get(tenant="t", id=episode), clock()
    )  # episodes are never reviewed


def test_ranking_weighs_strength_in_place_of_freshness(store: Store, clock: Clock):
    ids = [fact(store, "Deploys run from the release branch"), fact(store, "Deploys need a green CI run")]

    def scores() -> dict[str, float]:
        hits = store.recall(tenant="t", query="how do deploys run", scopes=["proj"]).hits
        return {h.memory.id: h.score for h in hits}

    before = scores()
    store.confirm(tenant="t", id=ids[1])  # 0.6 -> 0.8
    after = scores()
    assert after[ids[1]] - before[ids[1]] == pytest.approx(ranking.STRENGTH_WEIGHT * 0.2)
    assert after[ids[0]] == before[ids[0]]
    clock.advance(strengths.HALF_LIFE_DAYS["fact"] * DAY_S)  # both halve
    later = scores()
    assert later[ids[0]] - after[ids[0]] == pytest.approx(-ranking.STRENGTH_WEIGHT * 0.3)
    assert later[ids[1]] - after[ids[1]] == pytest.approx(-ranking.STRENGTH_WEIGHT * 0.4)


def test_a_decayed_fact_sinks_in_its_boot_section_and_stays_there(store: Store, clock: Clock):
    old = fact(store, "The build cache lives in bucket ci-cache-old", importance=7)
    clock.advance(400 * DAY_S)
    fresh = fact(store, "The docs are published from the gh-pages branch", importance=5)
    boot = boot_context(store, CALLER, 2000)
    shorts = store.short_ids(tenant="t", ids=[old, fresh])
    lines = [line for line in boot.splitlines() if line.startswith("- [")]
    assert [re.match(r"- \[([0-9a-f-]+)\]", line).group(1) for line in lines] == [shorts[fresh], shorts[old]]
    assert lines[1] == f'- [{shorts[old]}] 2026-01-01: "The build cache lives in bucket ci-cache-old" — needs review'
    assert lines[0] == f'- [{shorts[fresh]}] 2027-02-05: "The docs are published from the gh-pages branch"'
    assert "_2 of 2 memories shown" in boot
    store.confirm(tenant="t", id=old)  # confirmed again: back on top (7 x 1.3 against 5 x 1.1)
    boot = boot_context(store, CALLER, 2000)
    assert boot.index(shorts[old]) < boot.index(shorts[fresh]) and "needs review" not in boot


def test_recall_text_and_the_memory_resource_show_strength(store: Store, clock: Clock):
    memory_id = fact(store, "The on-call rota is in the ops wiki")
    clock.advance(200 * DAY_S)
    hit = handlers.recall(store, CALLER, query="on-call rota").memories[0]
    assert text.memory_line(hit, ranked=True).endswith(
        '"The on-call rota is in the ops wiki" — strength 0.28, needs review'
    )
    view = handlers.memory_view(store, CALLER, memory_id)
    assert (view["memory"]["strength"], view["memory"]["needs_review"], view["memory"]["runs"]) == (
        0.278,
        True,
        None,
    )
    assert "strength:    0.28 (needs review)" in text.memory_view_text(view)


def test_a_forgotten_expired_or_superseded_memory_cannot_be_confirmed(store: Store, clock: Clock):
    gone = fact(store, "Temporary password rotation is on Fridays")
    store.forget(tenant="t", id=gone)
    brief = fact(store, "The demo server is up this week", expires_at="2026-01-02T00:00:00Z")
    old = fact(store, "The API rate limit is 100 per minute")
    new = store.supersede(tenant="t", id=old, content="The API rate limit is 500 per minute").id
    clock.advance(2 * DAY_S)
    says = {
        gone: "was forgotten, so it cannot be confirmed",
        brief: "expired at 2026-01-02",
        old: f"its current version is {new}: confirm {new} if it still holds",
    }
    for memory_id, message in says.items():
        with pytest.raises(Conflict) as caught:
            store.confirm(tenant="t", id=memory_id)
        assert names_field(str(caught.value), "id") and memory_id in str(caught.value)
        assert message in str(caught.value)
    assert store.get(tenant="t", id=old).confirmations == 0
    assert store.confirm(tenant="t", id=new).memory.confirmations == 1


def test_confirm_refuses_an_unknown_outcome_and_a_note_without_a_failure(store: Store):
    memory_id = fact(store, "Run the migrations before the deploy", kind="procedure")
    for args, field in (
        ({"outcome": "partial"}, "outcome"),
        ({"note": "slow"}, "note"),
        ({"outcome": "success", "note": "fine"}, "note"),
    ):
        with pytest.raises(InvalidInput) as caught:
            store.confirm(tenant="t", id=memory_id, **args)
        assert names_field(str(caught.value), field), caught.value
    assert store.get(tenant="t", id=memory_id).confirmations == 0
