"""A statement of a move ("We moved CI from Jenkins to GitHub Actions", "switched from", "replaced ...
with", "migrated", "swapped ... for") agrees with a statement of where it went ("Our CI runs on GitHub
Actions"), stored before or after it; a statement of where it came from still contradicts it. Remember,
supersede, recall, boot and review read a pair the same way (new-user trial 60 #3: the new memory was
"possibly outdated by" the older move, boot marked the other one, review kept the pair "no longer
disagreeing")."""

from __future__ import annotations

import pytest
from mcp import Client
from stores import cosine

from memvault.server.app import build_server
from memvault.server.config import Config
from memvault.storage.consolidate import consolidate
from memvault.storage.contradiction import contradicts, newer_in_meaning
from memvault.storage.ranking import SAME_SUBJECT
from memvault.storage.store import Store
from memvault.tools.boot import OUTDATED_MARK

MOVES = [  # (where it was, a move, where it went, question)
    ("Our CI runs on Jenkins", "We moved CI from Jenkins to GitHub Actions", "Our CI runs on GitHub Actions",
     "which CI do we use, Jenkins or GitHub Actions?"),
    ("Our CI runs on Jenkins", "We switched CI from Jenkins to GitHub Actions", "Our CI runs on GitHub Actions",
     "which CI do we use?"),
    ("Our CI runs on Jenkins", "We replaced Jenkins with GitHub Actions for CI", "Our CI runs on GitHub Actions",
     "which CI do we use?"),
    ("Our CI runs on Jenkins", "We swapped Jenkins for GitHub Actions in CI", "Our CI runs on GitHub Actions",
     "which CI do we use?"),
    ("Our database is MySQL", "We migrated the database from MySQL to Postgres", "Our database is Postgres",
     "which database do we run?"),
    ("Error tracking runs on Sentry", "We moved error tracking from Sentry to Rollbar",
     "Error tracking runs on Rollbar", "what do we use for error tracking?"),
    ("The wiki lives in Confluence", "We migrated the wiki from Confluence to Notion", "The wiki lives in Notion",
     "where does the wiki live?"),
]
GONE_TO = [(move, target) for _, move, target, _ in MOVES] + [
    ("Jenkins was replaced by GitHub Actions for CI", "Our CI runs on GitHub Actions"),
    ("We moved builds to Buildkite", "Builds run on Buildkite"),
]


@pytest.mark.parametrize(("move", "target"), GONE_TO)
def test_a_move_and_a_statement_of_its_target_agree_in_either_order(real_embedder, move, target):
    near = cosine(real_embedder, move, target)
    assert contradicts(move, target, near, SAME_SUBJECT) is None
    assert contradicts(target, move, near, SAME_SUBJECT) is None
    # neither restates what the other left: the one stored later is the newer
    assert newer_in_meaning(target, move, True) and newer_in_meaning(move, target, True)


@pytest.mark.parametrize(("source", "move"), [(source, move) for source, move, _, _ in MOVES])
def test_a_statement_of_where_a_move_came_from_still_contradicts_it(real_embedder, source, move):
    near = cosine(real_embedder, source, move)
    assert contradicts(source, move, near, SAME_SUBJECT) is not None  # stored before the move
    assert not newer_in_meaning(source, move, True)  # stored after: it restates what the move left


@pytest.mark.contract
@pytest.mark.parametrize(("source", "move", "target", "question"), MOVES[:3])
def test_superseding_with_where_a_move_went_leaves_both_current_and_unmarked(
        real_store: Store, source, move, target, question):
    old = real_store.remember(tenant="t", scope="p", content=source, observed_at="2026-03-01T10:00:00Z").id
    moved = real_store.remember(tenant="t", scope="p", content=move, observed_at="2026-06-01T10:00:00Z")
    assert [i for i, _ in moved.contradicts] == [old]
    new = real_store.supersede(tenant="t", id=old, content=target, observed_at="2026-07-01T10:00:00Z")
    assert new.contradicts == () and new.newer == ()
    hits = real_store.recall(tenant="t", query=question, scopes=["p"]).hits
    assert {h.memory.id for h in hits} >= {moved.id, new.id}
    assert all(h.outdated_by is None for h in hits)
    consolidate(real_store)
    assert real_store.review("t", ["p"]).contradictions == []


@pytest.mark.asyncio
@pytest.mark.contract
async def test_boot_review_and_recall_read_a_move_and_its_source_in_the_same_order(db, one_model):
    """A statement of where a move came from, stored after it, is the older in meaning everywhere."""
    async with Client(build_server(Config(db=db, tenant="default", scope="proj"))) as c:
        moved = (await c.call_tool("remember", {"content": "We moved CI from Jenkins to GitHub Actions",
                                                "observed_at": "2026-06-01T10:00:00Z"})).structured_content
        late = (await c.call_tool("remember", {"content": "Our CI runs on Jenkins",
                                               "observed_at": "2026-07-01T10:00:00Z"})).structured_content
        assert [(x["id"], x["newer"]) for x in late["contradicts"]] == [(moved["id"], True)]
        found = (await c.call_tool("recall", {"query": "which CI do we use?"})).structured_content["memories"]
        assert {m["id"]: m["possibly_outdated_by"] for m in found} == {moved["id"]: None, late["id"]: moved["id"]}
        boot = (await c.read_resource("memory://boot")).contents[0].text
        review = (await c.read_resource("memory://review")).contents[0].text
    line = next(line for line in boot.splitlines() if "Our CI runs on Jenkins" in line)
    assert OUTDATED_MARK.strip(" —") in line
    assert "kept when compared" not in review
    assert review.index("Our CI runs on Jenkins") < review.index("We moved CI from Jenkins")  # older first


@pytest.mark.asyncio
@pytest.mark.contract
async def test_the_trial_sequence_leaves_nothing_to_review_on_the_wire(db, one_model):
    async with Client(build_server(Config(db=db, tenant="default", scope="proj"))) as c:
        old = (await c.call_tool("remember", {"content": "Our CI runs on Jenkins"})).structured_content["id"]
        await c.call_tool("remember", {"content": "We moved CI from Jenkins to GitHub Actions"})
        new = await c.call_tool("supersede", {"id": old, "content": "Our CI runs on GitHub Actions",
                                              "reason": "migrated"})
        assert new.structured_content["contradicts"] == []
        found = (await c.call_tool("recall", {"query": "which CI do we use, Jenkins or GitHub Actions?"}))
        assert all(m["possibly_outdated_by"] is None for m in found.structured_content["memories"])
        boot = (await c.read_resource("memory://boot")).contents[0].text
        review = (await c.read_resource("memory://review")).contents[0].text
    assert OUTDATED_MARK not in boot
    assert "Contradicting pairs" not in review
