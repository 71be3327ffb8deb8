"""What consolidation shows across the wire: ``memory://review`` and the boot line over the MCP
server, the ``consolidate`` prompt, and ``memvault consolidate --json`` parsed."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

import pytest
from mcp import Client

from memvault.server import cli
from memvault.server.app import build_server
from memvault.server.config import Config
from memvault.storage.consolidate import consolidate
from memvault.storage.review import Review
from memvault.storage.store import Store
from memvault.tools.review import review_document
from memvault.storage.timefmt import format_ms, now_ms
from memvault.tools.boot import boot_context
from memvault.tools.handlers import Caller

pytestmark = pytest.mark.usefixtures("one_model")  # the packaged model loaded once (conftest)
DAY_MS = 86_400_000
WHERE = {"tenant": "default", "scope": "default"}


def seeded(db_path, embedder) -> dict[str, str]:
    """A database with a contradicting pair, a fact a year old and five old episodes, consolidated once."""
    store = Store(db_path, embedder)
    try:
        def fact(content: str, days_ago: int = 0) -> str:
            observed = format_ms(now_ms() - days_ago * DAY_MS)
            return store.remember(**WHERE, content=content, kind="fact", observed_at=observed).id

        ids = {"old": fact("The team standup is at 9:15 every weekday."),
               "new": fact("The team standup is at 10:30 every weekday."),
               "stale": fact("The staging database runs on host db-stg-03.", 400)}
        # Monday to Friday of one ISO week ten weeks back: compaction is per week, so five days
        # counted back from today would span two weeks on some days of the week.
        monday = now_ms() - 70 * DAY_MS
        monday -= datetime.fromtimestamp(monday / 1000, UTC).weekday() * DAY_MS
        for n in range(5):
            store.remember(**WHERE, content=f"Looked into the flaky export test, attempt {n}.",
                           kind="episode", importance=3, observed_at=format_ms(monday + n * DAY_MS))
        consolidate(store)
    finally:
        store.close()
    return ids


@pytest.mark.asyncio
async def test_review_boot_line_and_prompt_over_the_mcp_server(db_path, real_embedder):
    ids = seeded(db_path, real_embedder)
    async with Client(build_server(Config(db=db_path))) as c:
        listed = {str(r.uri): r for r in (await c.list_resources()).resources}
        review = (await c.read_resource("memory://review")).contents[0].text
        boot = (await c.read_resource("memory://boot")).contents[0].text
        prompt = (await c.get_prompt("consolidate", {})).messages[0].content.text
    assert listed["memory://review"].title and listed["memory://review"].mime_type == "text/markdown"
    sections = dict(re.findall(r"^## (.+?) \((\d+)\)$", review, re.MULTILINE))
    assert sections == {"Contradicting pairs": "1", "Decayed: not confirmed for long": "1",
                        "Failing procedures": "0"}
    pair = re.search(r"^- older \[(\S+)\] fact, \S+: (\".*\")\n  newer \[(\S+)\] fact, \S+: (\".*\")\n"
                     r"  why: (.*)$", review, re.MULTILINE)
    assert pair
    older, newer, why = pair.group(1, 3, 5)
    assert ids["old"].startswith(older) and ids["new"].startswith(newer)
    assert "9:15" in why and "10:30" in why
    stale = re.search(r"^- \[(\S+)\] fact, \S+: (\".*\") \(strength (0\.\d\d), last learned", review,
                      re.MULTILINE)
    assert stale and ids["stale"].startswith(stale.group(1))
    assert json.loads(stale.group(2)) == "The staging database runs on host db-stg-03."
    assert float(stale.group(3)) < 0.3
    assert "_2 items wait for review._" in review
    reader = Store(db_path, None)
    try:  # the day it was stored as, 400 days before the seeding (not before today)
        stored_day = (format_ms(reader.get(tenant="default", id=ids["stale"]).observed_at) or "")[:10]
    finally:
        reader.close()
    assert [line for line in boot.splitlines() if "review" in line] == [
        "2 items wait for review: read memory://review",
        f"- [{stale.group(1)}] {stored_day}: \"The staging database runs on host db-stg-03.\" — needs review"]
    assert all(word in prompt for word in ("memory://review", "confirm", "supersede", "forget"))


def test_boot_has_no_review_line_when_nothing_waits(store):
    store.remember(tenant="t", scope="proj", content="Deploys go through the release branch.",
                   kind="decision")
    assert "review" not in boot_context(store, Caller(tenant="t", scope="proj"), 2_000)


def test_memvault_consolidate_json_says_what_it_compacted_and_what_waits(db_path, real_embedder, capsys):
    ids = seeded(db_path, real_embedder)  # one run already: the episodes are compacted
    store = Store(db_path, real_embedder)
    try:
        observed = format_ms(now_ms() - 45 * DAY_MS)
        fresh = [store.remember(**WHERE, content=f"Renewed the certificate of service {n}.", kind="episode",
                                importance=3, observed_at=observed).id for n in range(2)]
    finally:
        store.close()
    code = cli.main(["consolidate", "--json", "--db", str(db_path)])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    (digest,) = out["compacted"]
    assert sorted(digest["sources"]) == sorted(fresh) and digest["tenant"] == "default"
    assert out["compared"] == 0 and out["contradictions_found"] == 0 and out["finished"] is True
    assert out["waiting"] == {"default": {"contradictions": 1, "decayed": 1, "failing": 0, "more": False}}
    assert out["longest_write_ms"] >= 0

    code = cli.main(["consolidate", "--db", str(db_path)])
    text = capsys.readouterr().out
    assert code == 0 and text.startswith("compacted 0 episodes into 0 digests\n")
    assert "tenant default: 1 contradicting pair, 1 decayed, 0 failing procedures wait for review" in text
    assert ids["old"] not in text


def test_review_never_says_nothing_waits_while_more_may(store, monkeypatch):
    monkeypatch.setattr(store, "review", lambda tenant, scopes, reasons=None: Review([], [], [], more=True))
    assert "Nothing waits" not in review_document(store, Caller(tenant="t", scope="s"))
    monkeypatch.setattr(store, "review", lambda tenant, scopes, reasons=None: Review([], [], []))
    assert "Nothing waits" in review_document(store, Caller(tenant="t", scope="s"))


@pytest.mark.asyncio
async def test_a_digest_found_through_its_episode_and_forgetting_that_episode_over_the_mcp_server(
        db_path, real_embedder):
    seeded(db_path, real_embedder)
    async with Client(build_server(Config(db=db_path))) as c:
        found = await c.call_tool("recall", {"query": "Looked into the flaky export test, attempt 3."})
        hit = found.structured_content["memories"][0]
        assert "digest" in hit["tags"] and hit["signals"]["through"]
        assert f"found through {hit['signals']['through']}, an episode it compacts" in found.content[0].text
        source = hit["signals"]["through"]
        forgot = await c.call_tool("forget", {"id": source})
        assert not forgot.is_error
        out = forgot.structured_content
        assert out["forgotten_ids"][1] == hit["id"] and len(out["restored_ids"]) == 4
        again = await c.call_tool("recall", {"query": "flaky export test attempt", "limit": 10})
    assert {h["id"] for h in again.structured_content["memories"]} >= set(out["restored_ids"])
    assert not any(h["id"] in out["forgotten_ids"] for h in again.structured_content["memories"])
