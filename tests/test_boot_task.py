"""The boot context for a task (``memory://boot{?task}``) and the last session's digest: a relevant
memory leads even where it would not fit otherwise, nothing is shown twice, the footer stays true and
within the budget, and without a task or sessions the text is what it always was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from boot_seed import BUDGETS, seed
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS
from test_boot import COUNT, parse

from memvault.server.app import build_server
from memvault.server.config import Config
from memvault.storage.errors import InvalidInput
from memvault.storage.ranking import SURE_CONFIDENCE
from memvault.storage.records import NewTurn
from memvault.storage.store import Store
from memvault.tools.boot import LAST_SESSION, SECTIONS, TASK, boot_context
from memvault.tools.handlers import Caller

CALLER = Caller(tenant="t", scope="proj")
GOLDEN = json.loads((Path(__file__).parent / "data" / "boot_golden.json").read_text())
NEEDLE = "The staging database password rotates every 90 days through the Vault job rotate-pg"


def sections(boot: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for block in boot.split("\n## ")[1:]:
        title, *lines = block.strip().splitlines()
        out[title] = [line for line in lines if line.startswith("- [")]
    return out


def fill(store: Store, n: int) -> str:
    """``n`` facts on other subjects, more important and newer than the needle; the needle's id."""
    needle = store.remember(tenant="t", scope="proj", content=NEEDLE, importance=1,
                            observed_at="2025-01-01T10:00:00Z").id
    for i in range(n):
        store.remember(tenant="t", scope="proj", importance=6,
                       observed_at=f"2025-03-{1 + i % 28:02d}T10:00:00Z",
                       content=f"Service number {i} listens on port {9000 + i} and is owned by team {i % 7}")
    return needle


def test_a_task_puts_a_relevant_memory_first_even_when_it_would_not_fit_otherwise(real_store: Store):
    fill(real_store, 40)
    plain = boot_context(real_store, CALLER, 300)
    assert "rotate-pg" not in plain  # the least important fact: no room for it in Facts
    boot = boot_context(real_store, CALLER, 300, task="rotate the staging database password")
    shown = sections(boot)
    assert list(shown)[0] == TASK.title and "rotate-pg" in shown[TASK.title][0]
    assert boot.count("rotate-pg") == 1 and "surely relevant to the task" in boot
    lines, count, total, tokens = parse(boot)
    assert lines == count and total == 41 == parse(plain)[2] and tokens <= 300
    assert "Facts" in shown  # today's sections keep the rest of the budget


def test_a_task_nothing_answers_leaves_todays_sections_and_says_so(real_store: Store):
    fill(real_store, 10)
    boot = boot_context(real_store, CALLER, 2000, task="which sourdough starter does the bakery use")
    assert TASK.title not in sections(boot) and "No memory is surely relevant to the task" in boot
    assert sections(boot) == sections(boot_context(real_store, CALLER, 2000))


def test_a_task_hit_of_a_recent_section_is_not_repeated_and_the_footer_counts_it_once(real_store: Store):
    backup = "The nightly backup to bucket pg-archive failed: the disk was full"
    failure = real_store.remember(tenant="t", scope="proj", kind="failure", content=backup).id
    flaky = "A flaky login test timed out in CI"
    real_store.remember(tenant="t", scope="proj", kind="failure", content=flaky)
    boot = boot_context(real_store, CALLER, 2000, task="why did the nightly backup fail")
    shown = sections(boot)
    assert any("pg-archive" in line for line in shown[TASK.title])
    assert not any("pg-archive" in line for line in shown["Recent failures"])
    short = real_store.short_ids(tenant="t", ids=[failure])[failure]
    assert parse(boot)[1:3] == (2, 2) and boot.count(f"[{short}]") == 1


def test_without_a_task_or_sessions_the_text_is_the_one_before(store: Store):
    seed(store)
    for budget in BUDGETS:
        golden = GOLDEN[f"proj {budget}"]
        assert boot_context(store, CALLER, budget) == golden
        assert boot_context(store, CALLER, budget, task="") == golden
        assert boot_context(store, CALLER, budget, task=None) == golden


def test_a_task_without_a_model_is_searched_by_keywords_and_says_so(db_path):
    store = Store(db_path, None)
    try:
        store.remember(tenant="t", scope="proj", content=NEEDLE)
        boot = boot_context(store, CALLER, 500, task="rotate-pg password")
    finally:
        store.close()
    assert "Searching for the task:" in boot and "rotate-pg" in boot


def end_session(store: Store, session_id: str, texts: list[str], at: int, scope: str = "proj") -> str:
    """A session of ``texts`` (user and assistant turns in turn), ended at ``at``; its digest's id."""
    turns = [NewTurn(role="user" if i % 2 == 0 else "assistant", text=text, at=at - 1000 * (len(texts) - i))
             for i, text in enumerate(texts)]
    store.episodes.append(tenant="t", scope=scope, session_id=session_id, turns=turns, client="claude-code",
                          cwd="/home/dev/app")
    digest = store.episodes.end(tenant="t", session_id=session_id, at=at).digest_id
    assert digest is not None
    return digest


def test_the_last_ended_sessions_digest_shows_last_and_only_once(store: Store, clock):
    seed(store)
    end_session(store, "s-old", ["fix the flaky login test", "retried the fixture"], clock.now - 3600_000)
    digest = end_session(store, "s-last", ["migrate the billing table", "it ran"], clock.now - 60_000)
    opened = [NewTurn(role="user", text="hi")]
    store.episodes.append(tenant="t", scope="proj", session_id="s-open", turns=opened)
    short = store.short_ids(tenant="t", ids=[digest])[digest]
    for budget in (800, 1500, 2000, 3000):
        boot = boot_context(store, CALLER, budget)
        shown = sections(boot)
        assert list(shown)[-1] == LAST_SESSION.title and len(shown[LAST_SESSION.title]) == 1
        assert shown[LAST_SESSION.title][0].startswith(f"- [{short}]") and boot.count(f"[{short}]") == 1
        assert "billing" in shown[LAST_SESSION.title][0]
        assert all(s.title in shown for s in SECTIONS)  # today's sections are all still there
        lines, count, total, tokens = parse(boot)
        assert lines == count and tokens <= budget
        assert total == parse(boot_context(store, Caller("t", "proj"), budget))[2]


def test_the_digest_takes_at_most_a_quarter_of_the_budget_from_todays_sections(store: Store, clock):
    seed(store)
    steps = [f"step {i}: ran the migration of table number {i} and checked its row counts" for i in range(60)]
    digest = end_session(store, "s-long", steps, clock.now - 60_000)
    digest_tokens = store.get(tenant="t", id=digest).tokens or 0
    for budget in BUDGETS:
        before = sections(GOLDEN[f"proj {budget}"])
        after = sections(boot_context(store, CALLER, budget))
        shown = after.pop(LAST_SESSION.title, [])
        assert list(after) == list(before), budget  # no section of today's is left out
        # What today's sections show shrinks by at most the digest's cap (a line cut to an excerpt
        # counts by what it lost).
        lost = sum(COUNT(line) for lines in before.values() for line in lines) - sum(
            COUNT(line) for lines in after.values() for line in lines)
        assert lost <= budget * LAST_SESSION.cap + 20, (budget, lost)
        if digest_tokens + 40 <= budget * LAST_SESSION.cap:  # its line and heading fit its cap: it is shown
            assert len(shown) == 1, budget


def test_a_forgotten_digest_is_not_shown(store: Store, clock):
    store.remember(tenant="t", scope="proj", content="The API gateway runs on port 8443")
    digest = end_session(store, "s1", ["rename the gateway", "renamed"], clock.now - 60_000)
    assert LAST_SESSION.title in sections(boot_context(store, CALLER, 1000))
    store.forget(tenant="t", id=digest)
    assert LAST_SESSION.title not in sections(boot_context(store, CALLER, 1000))


@pytest.mark.parametrize(("task", "says"), [
    ("x" * 2001, "task: is 2,001 characters; the limit is 2,000"),
    ("deploy with ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
     "task: is a value that looks like a GitHub token"),
])
def test_a_bad_task_is_refused_naming_the_field(store: Store, task, says):
    store.remember(tenant="t", scope="proj", content="The API gateway runs on port 8443")
    with pytest.raises(InvalidInput) as refused:
        boot_context(store, CALLER, 1000, task=task)
    assert str(refused.value).startswith(says) and "a1B2c3D4" not in str(refused.value)


@pytest.mark.usefixtures("one_model")
@pytest.mark.asyncio
async def test_the_boot_template_over_the_sdk_client(db_path):
    async with Client(build_server(Config(db=db_path, tenant="t", scope="proj", boot_tokens=300))) as c:
        templates = {t.uri_template: t for t in (await c.list_resource_templates()).resource_templates}
        template = templates["memory://boot{?task}"]
        assert template.title and template.description and template.mime_type == "text/markdown"
        await c.call_tool("remember", {"content": NEEDLE, "importance": 1,
                                       "observed_at": "2025-01-01T10:00:00Z"})
        for i in range(30):
            fact = {"content": f"Service {i} listens on port {9000 + i}", "importance": 7}
            await c.call_tool("remember", fact)
        plain = (await c.read_resource("memory://boot")).contents[0].text
        task = (await c.read_resource("memory://boot?task=rotate%20the%20staging%20database%20password")).contents
        empty = (await c.read_resource("memory://boot?task=")).contents[0].text
        path = (await c.read_resource("memory://boot?task=%2Fsrv%2Fapp%2Fdeploy.sh%20fails")).contents[0].text
        with pytest.raises(MCPError) as refused:
            await c.read_resource(f"memory://boot?task={'x' * 2001}")
    assert "rotate-pg" not in plain and list(sections(task[0].text))[0] == TASK.title and empty == plain
    assert path.startswith("# Memory boot context")  # a task is text: the SDK's path checks do not apply
    assert refused.value.error.code == INVALID_PARAMS
    assert refused.value.error.message.startswith("task: is 2,001")


def test_the_procedure_recall_ranks_second_for_a_task_leads_though_not_surely_relevant(real_store: Store):
    def remember(kind: str, content: str) -> str:
        return real_store.remember(tenant="t", scope="proj", kind=kind, content=content).id

    procedure = remember("procedure", "Rotating the staging database password: generate it in Vault, "
                                      "update the secret in kv/app/staging, then restart the api pods one "
                                      "at a time.")
    fact = remember("fact", "The staging database password was last rotated on 2 March.")
    remember("fact", "The staging database runs PostgreSQL 16 on host db-stg-03.")
    remember("decision", "We rotate database passwords every 90 days.")
    remember("fact", "The api pods read the database password from Vault at start-up.")
    task = "rotate the staging database password"
    hits = real_store.recall(tenant="t", query=task, scopes=["proj", "global"], limit=10).hits
    assert [h.memory.id for h in hits[:2]] == [fact, procedure]  # behind a fact on the same thing,
    assert hits[1].confidence < SURE_CONFIDENCE <= hits[0].confidence  # so not surely relevant alone
    led = sections(boot_context(real_store, CALLER, 2000, task=task))[TASK.title]
    assert len(led) == 2 and "last rotated on 2 March" in led[0] and "restart the api pods" in led[1]
