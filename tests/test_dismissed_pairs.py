"""A contradiction is dismissed per pair (issue 27, H2 and H3): ``confirm`` with ``beside`` names the pair
the agent judged both true; a plain confirmation, or the same text remembered again, raises strength and
dismisses nothing. On the store and over the wire (the tools' results and ``memory://review``), both
backends."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest
from conftest import names_field
from fakes import Clock, FakeEmbedder
from mcp import Client

from memvault.server.app import build_server
from memvault.server.config import Config
from memvault.storage import strength
from memvault.storage.consolidate import consolidate
from memvault.storage.errors import Conflict, InvalidInput, NotFound
from memvault.storage.store import Store
from memvault.tools.boot import OUTDATED_MARK, boot_context
from memvault.tools import handlers
from memvault.tools.handlers import Caller
from memvault.tools.text import render

pytestmark = pytest.mark.contract
CALLER = Caller(tenant="a", scope="proj")

# An older memory with two contradicting newer ones that do not contradict each other: (subject, older,
# newer on one slot, newer on the other).
TWO_PAIRS = [
    ("billing service", "The billing service listens on port 8001 and is written in Python.",
     "The billing service listens on port 8002.", "The billing service is written in Go."),
    ("search service", "The search service listens on port 9001 and runs on host search-1.",
     "The search service listens on port 9002.", "The search service runs on host search-4."),
]
# A value, its change told as a change, and the old value said again: exactly (a duplicate) or reworded.
RESTATED = [
    ("team standup", "The team standup is at 9:15 every weekday.", "The team standup moved from 9:15 to 10:30.",
     "The team standup is at 9:15 every weekday.", "Our team standup is at 9:15 every weekday."),
    ("billing service", "The billing service listens on port 8001.",
     "The billing service moved from port 8001 to port 8002.",
     "the billing service listens on port 8001", "Billing service listens on port 8001."),
]


def remembered(store: Store, clock: Clock, *texts: str) -> list[str]:
    """Each of ``texts`` remembered an hour after the one before (tenant a, scope proj, facts): their ids."""
    ids = []
    for text in texts:
        clock.advance(3600)
        ids.append(store.remember(tenant="a", scope="proj", kind="fact", content=text).id)
    return ids


def pairs(store: Store) -> set[tuple[str, str]]:
    return {(older, newer) for older, newer, _ in store.review("a", ["proj"]).contradictions}


def marks(store: Store, query: str) -> dict[str, str | None]:
    """{hit id: the id recall marks it possibly outdated by}."""
    return {h.memory.id: h.outdated_by for h in store.recall(tenant="a", query=query, scopes=["proj"]).hits}


@pytest.mark.parametrize("from_older", [True, False], ids=["older-beside-newer", "newer-beside-older"])
@pytest.mark.parametrize(("subject", "old", "true_change", "also_holds"), TWO_PAIRS, ids=["port-language", "port-host"])
def test_dismissing_one_pair_of_a_memory_keeps_its_other_pair_in_review_recall_and_boot(
        store, clock, subject, old, true_change, also_holds, from_older):
    older, changed, other = remembered(store, clock, old, true_change, also_holds)
    consolidate(store)
    assert pairs(store) == {(older, changed), (older, other)}
    clock.advance(60)
    store.confirm(tenant="a", id=older)  # a plain confirmation: strength only
    assert pairs(store) == {(older, changed), (older, other)} and marks(store, subject)[older] in (changed, other)
    named, beside = (older, other) if from_older else (other, older)
    done = store.confirm(tenant="a", id=named, beside=beside)
    assert done.beside == beside and done.memory.confirmations == (2 if from_older else 1)
    assert pairs(store) == {(older, changed)}
    assert marks(store, subject) == {older: changed, changed: None, other: None}
    assert f"{OUTDATED_MARK}" in boot_context(store, CALLER, 2000)
    consolidate(store)  # the scan keeps what it kept, and never the dismissed pair
    assert pairs(store) == {(older, changed)}
    store.confirm(tenant="a", id=older, beside=changed)
    assert pairs(store) == set() and set(marks(store, subject).values()) == {None}
    assert OUTDATED_MARK not in boot_context(store, CALLER, 2000)


@pytest.mark.parametrize("restatement", ["exact", "reworded"])
@pytest.mark.parametrize(("subject", "old", "change", "exact", "reworded"), RESTATED, ids=["time", "port"])
def test_saying_the_old_value_again_after_a_change_confirms_it_but_leaves_it_outdated(
        store, clock, subject, old, change, exact, reworded, restatement):
    older, changed = remembered(store, clock, old, change)
    clock.advance(3600)
    again = store.remember(tenant="a", scope="proj", kind="fact", content=exact if restatement == "exact" else reworded)
    assert again.created is (restatement == "reworded")
    consolidate(store)
    held = store.get(tenant="a", id=older)
    assert held.confirmations == (1 if restatement == "exact" else 0)
    if restatement == "exact":
        assert strength.strength(held, clock()) > strength.learned("fact", 0) * 0.99  # raised, then barely decayed
    assert (older, changed) in pairs(store)
    found = marks(store, subject)
    assert found[older] == changed and found[changed] is None
    assert found.get(again.id, changed) == changed  # a reworded restatement: outdated by the change too


@pytest.mark.parametrize(("subject", "old", "change", "exact", "reworded"), RESTATED, ids=["time", "port"])
def test_a_repeat_names_the_newer_of_its_waiting_pair_until_the_pair_is_settled(store, clock, subject, old, change,
                                                                               exact, reworded):
    older, changed = remembered(store, clock, old, change)
    consolidate(store)
    again = handlers.remember(store, CALLER, content=exact, kind="fact")
    assert (again.id, again.created, again.outdated_by) == (older, False, changed)
    assert f"possibly outdated by {changed}" in render(again)
    assert handlers.remember(store, CALLER, content=change, kind="fact").outdated_by is None  # the newer's repeat
    fresh = handlers.remember(store, CALLER, content=f"Nothing else is said about the {subject}.", kind="fact")
    assert fresh.created and fresh.outdated_by is None
    store.confirm(tenant="a", id=older, beside=changed)
    settled = handlers.remember(store, CALLER, content=exact, kind="fact")
    assert settled.id == older and settled.outdated_by is None and "outdated" not in render(settled)


@pytest.mark.parametrize("kept", [True, False], ids=["kept-for-review", "judged-on-recall"])
@pytest.mark.parametrize(("subject", "old", "true_change", "also_holds"), TWO_PAIRS, ids=["port-language", "port-host"])
def test_confirm_beside_says_whether_the_two_were_a_contradicting_pair(store, clock, subject, old, true_change,
                                                                       also_holds, kept):
    older, changed, other = remembered(store, clock, old, true_change, also_holds)
    unrelated, = remembered(store, clock, f"Lunch at the {subject} team is at noon on Fridays.")
    if kept:
        consolidate(store)
    for beside, paired in ((changed, True), (unrelated, False)):
        result = handlers.confirm(store, CALLER, id=older, beside=beside)
        assert (result.beside, result.paired) == (beside, paired)
        assert render(result).endswith("that pair is no longer a contradiction." if paired else
                                       "the two will not be flagged as a contradiction.")
    with store.backend.read("a") as tx:  # recorded either way: the unpaired one is never flagged later
        assert tx.dismissed("a", [older]) >= {(older, changed), (older, unrelated)}


@pytest.mark.parametrize(("forgotten", "waiting", "marked"), [
    ("other", {("older", "changed")}, {"older": "changed"}),  # the dismissed pair's newer: nothing else changes
    ("older", set(), {}),  # every pair of it goes, the dismissal too
    ("changed", set(), {"older": None}),  # the pair left is the dismissed one: still dismissed
])
def test_forgetting_a_memory_of_a_dismissed_pair_takes_its_dismissals_with_it(store, clock, forgotten, waiting,
                                                                              marked):
    subject, old, true_change, also_holds = TWO_PAIRS[0]
    ids = dict(zip(("older", "changed", "other"), remembered(store, clock, old, true_change, also_holds)))
    consolidate(store)
    store.confirm(tenant="a", id=ids["older"], beside=ids["other"])
    store.forget(tenant="a", id=ids[forgotten], reason="test")
    consolidate(store)
    name = {i: n for n, i in ids.items()}
    assert {(name[o], name[n]) for o, n in pairs(store)} == waiting
    found = marks(store, subject)
    assert {name[i]: name.get(by) if by else None for i, by in found.items() if name[i] == "older"} == marked
    with store.backend.read("a") as tx:
        dismissed = tx.dismissed("a", list(ids.values()))
    kept = forgotten == "changed"
    assert dismissed == ({(ids["older"], ids["other"]), (ids["other"], ids["older"])} if kept else set())


def test_a_dismissal_survives_a_restart(made_db, clock):
    subject, old, true_change, also_holds = TWO_PAIRS[1]
    first = Store(made_db, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    older, changed, other = remembered(first, clock, old, true_change, also_holds)
    consolidate(first)
    first.confirm(tenant="a", id=older, beside=other)
    first.close()
    again = Store(made_db, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        assert pairs(again) == {(older, changed)} and marks(again, subject)[older] == changed
        consolidate(again)
        assert pairs(again) == {(older, changed)}
    finally:
        again.close()


def test_a_database_of_before_gets_the_table_and_a_confirmation_made_then_dismisses_no_pair(made_db, clock):
    import raw

    from memvault.storage.postgres import schema as pg_schema
    from memvault.storage.sqlite import schema as sqlite_schema

    subject, old, true_change, also_holds = TWO_PAIRS[0]
    first = Store(made_db, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    older, changed, other = remembered(first, clock, old, true_change, also_holds)
    consolidate(first)
    clock.advance(60)
    first.confirm(tenant="a", id=older)  # after both newers were stored: what dismissed every pair before
    first.close()
    raw.execute(made_db, "DROP TABLE dismissed_pairs")
    raw.rewind(made_db, sqlite_schema._V21_DISMISSED_PAIRS, pg_schema._v_dismissed_pairs)
    again = Store(made_db, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        assert pairs(again) == {(older, changed), (older, other)}
        again.confirm(tenant="a", id=older, beside=other)
        assert pairs(again) == {(older, changed)} and marks(again, subject)[older] == changed
    finally:
        again.close()


@pytest.mark.parametrize(("beside", "args", "error", "words"), [
    ("missing", {}, NotFound, "no memory with id"),
    ("itself", {}, InvalidInput, "names the memory confirmed"),
    ("superseded", {}, Conflict, "was superseded"),
    ("forgotten", {}, Conflict, "forgotten"),
    ("other", {"outcome": "success"}, InvalidInput, "without `outcome`"),
])
def test_beside_naming_no_current_other_memory_is_refused_and_nothing_is_recorded(store, clock, beside, args, error,
                                                                                  words):
    older, changed, other = remembered(store, clock, *TWO_PAIRS[0][1:])
    consolidate(store)
    if beside == "superseded":
        store.supersede(tenant="a", id=other, content="The billing service is written in Rust.")
    if beside == "forgotten":
        store.forget(tenant="a", id=other, reason="test")
    named = {"missing": "0" * 26, "itself": older}.get(beside, other)
    with pytest.raises(error) as raised:
        store.confirm(tenant="a", id=older, beside=named, **args)
    assert str(raised.value).startswith("beside: ") and words in str(raised.value)
    assert store.get(tenant="a", id=older).confirmations == 0
    with store.backend.read("a") as tx:
        assert tx.dismissed("a", [older, other]) == set()


def days_ago(days: int) -> str:
    return (datetime.now(timezone.utc) - timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.mark.anyio
@pytest.mark.usefixtures("one_model")
async def test_over_the_wire_confirm_beside_dismisses_that_pair_only_and_a_restatement_none(db):
    subject, old, true_change, also_holds = TWO_PAIRS[0]
    _, was, change, exact, _ = RESTATED[0]
    async with Client(build_server(Config(db=db, tenant="default", scope="proj"))) as c:
        async def remember(text: str, days: int) -> str:
            r = await c.call_tool("remember", {"content": text, "kind": "fact", "observed_at": days_ago(days)})
            assert not r.is_error, r.content[0].text
            return r.structured_content["id"]

        async def review() -> str:
            return (await c.read_resource("memory://review")).contents[0].text

        async def outdated_by(query: str) -> dict[str, str | None]:
            found = await c.call_tool("recall", {"query": query})
            return {m["id"]: m["possibly_outdated_by"] for m in found.structured_content["memories"]}

        older, changed, other = [await remember(t, d) for t, d in ((old, 30), (true_change, 20), (also_holds, 10))]
        before = await review()
        assert json.dumps(true_change) in before and json.dumps(also_holds) in before
        r = await c.call_tool("confirm", {"id": older})
        assert not r.is_error and r.structured_content["beside"] is None and await review() == before
        r = await c.call_tool("confirm", {"id": older, "beside": other[:12]})  # the short form a text shows
        assert not r.is_error and r.structured_content["beside"] == other
        assert r.content[0].text.endswith(f"It holds beside {other}: that pair is no longer a contradiction.")
        after = await review()
        assert json.dumps(true_change) in after and json.dumps(also_holds) not in after
        assert "## Contradicting pairs (1)" in after
        assert (await outdated_by(subject))[older] == changed

        first = await remember(was, 9)
        now = await remember(change, 5)
        r = await c.call_tool("remember", {"content": exact, "kind": "fact"})  # the old value again, exactly
        assert r.structured_content["id"] == first and r.structured_content["created"] is False
        assert r.structured_content["outdated_by"] == now and f"possibly outdated by {now}" in r.content[0].text
        assert (await outdated_by("team standup"))[first] == now
        assert json.dumps(change) in await review()

        r = await c.call_tool("confirm", {"id": older, "beside": older})
        assert r.is_error and names_field(r.content[0].text, "beside"), r.content[0].text
        r = await c.call_tool("confirm", {"id": older, "beside": other, "outcome": "success"})
        assert r.is_error and names_field(r.content[0].text, "beside"), r.content[0].text


@pytest.mark.parametrize("reversed_lines", [False, True], ids=["in-order", "newest-line-first"])
def test_a_dismissal_travels_with_export_and_import(store, new_db, clock, reversed_lines):
    from memvault.storage import transfer

    subject, old, true_change, also_holds = TWO_PAIRS[0]
    older, changed, other = remembered(store, clock, old, true_change, also_holds)
    consolidate(store)
    store.confirm(tenant="a", id=older, beside=other)
    lines = [line for line in transfer.export_lines(store, "a") if '"content"' in line]
    records = {r["id"]: r for r in map(json.loads, lines)}
    assert records[older][transfer.BESIDE] == [other] and records[other][transfer.BESIDE] == [older]
    assert transfer.BESIDE not in records[changed]
    target = Store(new_db(), FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        for _ in range(2):  # a second import adds nothing
            transfer.import_lines(target, lines[::-1] if reversed_lines else lines, tenant="a", scope="proj")
        consolidate(target)
        assert pairs(target) == {(older, changed)} and marks(target, subject)[older] == changed
        with target.backend.read("a") as tx:
            assert tx.dismissed("a", [older, changed, other]) == {(older, other), (other, older)}
    finally:
        target.close()


def test_an_imported_dismissal_naming_no_memory_of_the_tenant_dismisses_nothing_and_a_bad_one_fails_its_line(
        store, clock):
    from memvault.storage import transfer

    line = {"content": "The billing service listens on port 8001.", "kind": "fact",
            "id": "0190e1f2-0000-7000-8000-000000000001", transfer.BESIDE: ["0190e1f2-0000-7000-8000-000000000002"]}
    done = transfer.import_lines(store, [json.dumps(line)], tenant="a", scope="proj")
    assert done.imported == 1 and not done.failed
    with store.backend.read("a") as tx:
        assert tx.dismissed("a", [line["id"]]) == set()
    bad = {**line, "id": "0190e1f2-0000-7000-8000-000000000003", transfer.BESIDE: "all of them"}
    done = transfer.import_lines(store, [json.dumps(bad)], tenant="a", scope="proj")
    assert [(f.field, "must be a list" in f.message) for f in done.failed] == [(transfer.BESIDE, True)]


def test_a_chain_of_changes_never_ends_at_a_memory_dismissed_beside_its_start(store, clock):
    """Tuesday, then Thursday, then Friday each contradicting both: with the first and the last judged to hold side
    by side, boot and recall name Thursday as what outdates Tuesday (a chain of kept pairs would otherwise end at the
    Friday memory), and the Friday one still outdates Thursday."""
    tuesday, thursday, friday = remembered(store, clock, "Deploys to production happen on Tuesday.",
                                           "Deploys to production now happen on Thursday.",
                                           "Deploys to production moved to Friday.")
    consolidate(store)
    assert pairs(store) == {(tuesday, thursday), (tuesday, friday), (thursday, friday)}
    store.confirm(tenant="a", id=tuesday, beside=friday)
    assert store.outdating("a", ["proj"], [store.get(tenant="a", id=i) for i in (tuesday, thursday)]) == {
        tuesday: thursday, thursday: friday}
    shown = {line.split("]")[0]: line for line in boot_context(store, CALLER, 2000).splitlines() if OUTDATED_MARK in line}
    short = store.short_ids(tenant="a", ids=[tuesday, thursday, friday])
    assert {line.rsplit(OUTDATED_MARK, 1)[1] for key, line in shown.items() if short[tuesday] in key} == {
        short[thursday]}
    assert marks(store, "when do deploys to production happen?")[tuesday] == thursday
