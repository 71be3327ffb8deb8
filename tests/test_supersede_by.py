"""``supersede`` with ``by``: a memory marked replaced by one stored before (the newer of a
contradicting pair), in one transaction, on both backends and over the MCP server."""

from __future__ import annotations

import pytest
from mcp import Client

from memvault.server.app import build_server
from memvault.server.config import Config
from memvault.storage import maintenance
from memvault.storage.errors import Conflict, InvalidInput, NotFound
from memvault.storage.store import Store

pytestmark = pytest.mark.contract


def fact(store: Store, content: str, scope: str = "proj", tenant: str = "a") -> str:
    return store.remember(tenant=tenant, scope=scope, content=content, kind="fact").id


def test_supersede_by_links_the_pair_and_recall_returns_only_the_newer(store):
    old = fact(store, "The standup is at 9:15 every weekday.")
    new = fact(store, "The standup is at 10:30 every weekday.")
    outcome = store.supersede_by(tenant="a", id=old, by=new, reason="moved in March")
    assert (outcome.id, outcome.superseded_id, outcome.stored) == (new, old, False)
    older, newer = store.get(tenant="a", id=old), store.get(tenant="a", id=new)
    assert (older.superseded_by, older.supersede_reason, newer.supersedes) == (new, "moved in March", old)
    assert newer.content == "The standup is at 10:30 every weekday." and newer.superseded_by is None
    assert [m.id for m in store.history(tenant="a", id=new)] == [old, new]
    hits = {h.memory.id for h in store.recall(tenant="a", query="when is the standup", scopes=["proj"]).hits}
    assert new in hits and old not in hits
    assert maintenance.own(store).check() == []


def test_supersede_by_refuses_what_would_break_a_history_and_changes_nothing(store):
    old = fact(store, "Deploys go out on Tuesdays.")
    new = fact(store, "Deploys go out on Thursdays.")
    other_scope = fact(store, "Deploys go out on Fridays.", scope="ops")
    successor = fact(store, "Deploys go out on Mondays.")
    replaced = fact(store, "Deploys went out daily.")
    store.supersede_by(tenant="a", id=replaced, by=successor)  # successor replaces one already
    later = store.supersede(tenant="a", id=new, content="Deploys go out on Wednesdays.").id
    gone = fact(store, "Deploys go out on Sundays.")
    store.forget(tenant="a", id=gone)
    foreign = fact(store, "Deploys are frozen in December.", tenant="b")
    cases = [
        (old, InvalidInput, "by", "itself"),
        (other_scope, InvalidInput, "by", "scope"),
        (new, Conflict, "by", f"current version {later}"),
        (gone, Conflict, "by", "was forgotten"),
    ]
    for by, error, field, words in cases:
        with pytest.raises(error, match=words) as raised:
            store.supersede_by(tenant="a", id=old, by=by)
        assert raised.value.field == field
    with pytest.raises(NotFound) as missing:  # another tenant's memory is never found
        store.supersede_by(tenant="a", id=old, by=foreign)
    assert missing.value.field == "by"
    with pytest.raises(InvalidInput) as bad:
        store.supersede_by(tenant="a", id=old, by="nope")
    assert bad.value.field == "by"
    with pytest.raises(Conflict, match="already superseded"):
        store.supersede_by(tenant="a", id=replaced, by=old)
    assert store.get(tenant="a", id=old).superseded_by is None  # nothing changed by any refusal
    assert store.get(tenant="a", id=old).supersedes is None
    store.worker.run(lambda: None)  # the forget's scrub, on the store's worker, done: check() reads alone
    assert maintenance.own(store).check() == []


@pytest.mark.asyncio
async def test_supersede_with_by_over_the_mcp_server_and_its_bad_input(db_path, one_model):
    async with Client(build_server(Config(db=db_path))) as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        assert "by" in tools["supersede"].input_schema["properties"]
        assert "content" not in tools["supersede"].input_schema.get("required", [])
        old = (await c.call_tool("remember", {"content": "The VPN gateway is vpn1.example.org."})).structured_content
        new = (await c.call_tool("remember", {"content": "The VPN gateway moved to vpn2.example.org."}))
        new_id = new.structured_content["id"]
        missing = await c.call_tool("supersede", {"id": old["id"]})
        both = await c.call_tool("supersede", {"id": old["id"], "by": new_id, "content": "x"})
        tagged = await c.call_tool("supersede", {"id": old["id"], "by": new_id, "tags": ["net"]})
        done = await c.call_tool("supersede", {"id": old["id"], "by": new_id, "reason": "moved"})
        listed = await c.call_tool("recall", {"query": "VPN gateway"})
    assert missing.is_error and "content" in missing.content[0].text and "`by`" in missing.content[0].text
    assert both.is_error and "content" in both.content[0].text
    assert tagged.is_error and "tags" in tagged.content[0].text
    assert not done.is_error
    assert done.structured_content == {"id": new_id, "superseded_id": old["id"], "degraded": None, "stored": False,
                                       "contradicts": [], "redacted": []}
    assert [m["id"] for m in listed.structured_content["memories"]] == [new_id]


def test_the_command_line_supersedes_with_by_and_names_its_flags(db_path):
    import json
    import subprocess
    import sys

    def memvault(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "memvault.server", *argv, "--db", str(db_path)],
                              capture_output=True, text=True, timeout=120)

    old = json.loads(memvault("remember", "The VPN gateway is vpn1.", "--json").stdout)["id"]
    new = json.loads(memvault("remember", "The VPN gateway moved to vpn2.", "--json").stdout)["id"]
    missing = memvault("supersede", old)
    copied = memvault("supersede", old, "The VPN gateway moved to vpn2.")
    done = memvault("supersede", old, "--by", new, "--reason", "moved", "--json")
    assert missing.returncode == 2 and "CONTENT: is required" in missing.stderr and "--by" in missing.stderr
    assert copied.returncode == 1 and f"with --by {new}" in copied.stderr
    assert done.returncode == 0 and json.loads(done.stdout)["stored"] is False


def test_supersede_by_refuses_a_digest_on_either_side(store, clock):
    from memvault.storage.consolidate import consolidate
    from memvault.storage.records import NewTurn
    from memvault.storage.timefmt import format_ms

    fact_id = fact(store, "The office plants are watered on Mondays.")
    for n in range(2):
        store.remember(tenant="a", scope="proj", content=f"Watered plants, round {n}.", kind="episode",
                       importance=2, observed_at=format_ms(clock() - 40 * 86_400_000))
    week = consolidate(store).compacted[0].digest_id
    store.episodes.append(tenant="a", scope="proj", session_id="s-by", turns=[NewTurn("user", "water the plants")])
    session = store.episodes.end(tenant="a", session_id="s-by").digest_id
    for older, newer in ((week, fact_id), (fact_id, week), (session, fact_id), (fact_id, session)):
        with pytest.raises(Conflict, match="a digest memvault writes") as refused:
            store.supersede_by(tenant="a", id=older, by=newer)
        assert refused.value.field == "by"
    assert store.get(tenant="a", id=fact_id).superseded_by is None and store.get(tenant="a", id=fact_id).supersedes is None


def test_a_third_version_joins_the_history_where_its_time_falls(store):
    """A review's three pairs of one fact (Tuesday, Thursday, Friday): settled in any order, one chain
    in time order, never a dead end."""
    def dated(content: str, day: str) -> str:
        return store.remember(tenant="a", scope="proj", content=content, kind="fact",
                              observed_at=f"2025-{day}T09:00:00Z").id

    tue, thu, fri = (dated(f"Deploys go out on {d}.", day) for d, day in
                     (("Tuesdays", "09-01"), ("Thursdays", "10-01"), ("Fridays", "11-01")))
    store.supersede_by(tenant="a", id=tue, by=fri)  # the outer pair first, as a trial clicked it
    store.supersede_by(tenant="a", id=thu, by=fri)  # then the inner one: Thursday goes between
    rows = {i: store.get(tenant="a", id=i) for i in (tue, thu, fri)}
    assert (rows[tue].supersedes, rows[tue].superseded_by) == (None, thu)
    assert (rows[thu].supersedes, rows[thu].superseded_by) == (tue, fri)
    assert (rows[fri].supersedes, rows[fri].superseded_by) == (thu, None)
    mon = dated("Deploys go out on Mondays.", "08-01")  # older than every version: it goes first
    store.supersede_by(tenant="a", id=mon, by=fri)
    assert store.get(tenant="a", id=tue).supersedes == mon
    assert store.get(tenant="a", id=mon).superseded_by == tue
    later = dated("Deploys go out on Saturdays.", "11-20")  # observed after Friday: not Friday's version
    with pytest.raises(Conflict, match=f"supersede {fri} with `by` {later}") as refused:
        store.supersede_by(tenant="a", id=later, by=fri)
    assert refused.value.field == "by" and store.get(tenant="a", id=later).superseded_by is None
    store.worker.run(lambda: None)
    assert maintenance.own(store).check() == []
