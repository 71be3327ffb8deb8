"""`memvault ui` in a real browser (the OS's headless Chromium): search, a chain, supersede, forget,
the boot preview, paging while another client writes, another tenant's memory; screenshots of each
page into docs/ui/ when MEMVAULT_SCREENSHOTS is set. One server and one browser for the module."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from uiserver import CALLER, Served, browser, served, shoot

from memvault.storage import literal
from memvault.storage.consolidate import consolidate
from memvault.storage.records import NewTurn
from memvault.storage.store import Store
from memvault.tools import boot, handlers
from memvault.tools.caller import Caller

pytestmark = pytest.mark.slow

FACTS = [
    ("Staging database is db-stg-03", "fact", ["infra"]),
    ("The user prefers tabs over spaces in Python", "preference", ["style"]),
    ("Deploys run from the release branch on Fridays after lunch", "procedure", ["deploy"]),
    ("Decided to keep PostgreSQL 16 until the vendor certifies 18", "decision", ["infra"]),
]


@pytest.fixture(scope="module")
def ui(tmp_path_factory: pytest.TempPathFactory):
    with served(tmp_path_factory.mktemp("ui") / "memvault.db") as running:
        store = running.store
        for content, kind, tags in FACTS:
            handlers.remember(store, CALLER, content=content, kind=kind, tags=tags)
        old = (datetime.now(UTC) - timedelta(days=400)).isoformat()
        handlers.remember(store, CALLER, content="The office wifi is called hq-guest", observed_at=old)
        turns = [NewTurn(role="user", text="Why does the deploy fail on Fridays?"),
                 NewTurn(role="assistant", text="The release branch was locked by the freeze job.")]
        store.episodes.append(tenant="default", scope="default", session_id="s-1", turns=turns,
                              client="claude-code", cwd="/home/dev/app")
        store.upkeep.run_due()
        yield running


@pytest.fixture(scope="module")
def context(ui: Served):
    """One browser context for the module, its cookie got once from the URL's token."""
    with browser() as launched:
        context = launched.new_context(viewport={"width": 1100, "height": 760})
        first = context.new_page()
        first.goto(ui.opening)
        context.landed = first.url  # type: ignore[attr-defined]
        first.close()
        yield context
        context.close()


@pytest.fixture
def page(ui: Served, context):
    page = context.new_page()
    page.goto(ui.base)
    yield page
    page.close()


def submit(page, selector: str) -> None:
    """Click ``selector`` and wait for the page it leads to."""
    with page.expect_navigation():
        page.click(selector)


def test_the_token_becomes_an_http_only_cookie_and_leaves_the_url(ui: Served, page):
    assert page.context.landed == f"{ui.base}/"
    [cookie] = page.context.cookies()
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    # A value of its own under this port's name: another local server the browser visits gets no token.
    assert cookie["value"] != ui.token and cookie["name"] == f"memvault_ui_{ui.base.rsplit(':', 1)[-1]}"
    shoot(page, "memories")


def test_search_shows_the_agents_recall_with_confidence_and_signals(ui: Served, page):
    page.fill("input[name=q]", "which staging database host?")
    submit(page, "button:text('Show')")
    first = page.locator("li.memory").first
    assert "db-stg-03" in first.inner_text()
    expected = handlers.recall(ui.store, CALLER, query="which staging database host?", limit=20)
    shown = first.locator(".confidence").inner_text()
    assert shown.startswith(f"confidence {expected.memories[0].confidence:.2f}")
    assert "keyword #1" in first.locator(".signals").inner_text()
    shoot(page, "search")


def test_a_memory_shows_its_whole_chain_from_any_version(ui: Served, page):
    first = handlers.remember(ui.store, CALLER, content="The build cache lives on nfs-01").id
    second = handlers.supersede(ui.store, CALLER, id=first, content="The build cache lives on nfs-02",
                                reason="nfs-01 retired").id
    third = handlers.supersede(ui.store, CALLER, id=second, content="The build cache lives in S3").id
    page.goto(f"{ui.base}/memories/{first}")
    versions = page.locator("ol.chain li")
    assert versions.count() == 3
    assert [versions.nth(i).locator("a").get_attribute("href") for i in range(3)] == \
        [f"/memories/{m}" for m in (first, second, third)]
    assert "because “nfs-01 retired”" in versions.nth(0).inner_text()
    assert "current" in versions.nth(2).inner_text()
    assert "this version, shown above" in versions.nth(0).inner_text()  # its text once on its page
    assert "nfs-02" in versions.nth(1).inner_text() and page.content().count("lives on nfs-01") == 1
    shoot(page, "memory")


def test_supersede_from_the_page_stores_a_new_version_with_its_reason(ui: Served, page):
    old = handlers.remember(ui.store, CALLER, content="The on-call rota changes on Mondays", tags=["ops"]).id
    page.goto(f"{ui.base}/memories/{old}")
    page.fill("textarea[name=content]", "The on-call rota changes on Tuesdays")
    page.fill("input[name=reason]", "moved in the spring")
    submit(page, "button:text('Supersede')")
    assert "/supersede" not in page.url, page.inner_text("main")
    new = page.url.rsplit("/", 1)[1]
    assert new != old
    view = handlers.memory_view(ui.store, CALLER, new)
    assert view["memory"]["content"] == "The on-call rota changes on Tuesdays"
    assert view["memory"]["tags"] == ["ops"]
    assert view["history"][0]["superseded_by"] == new
    assert view["history"][0]["supersede_reason"] == "moved in the spring"


def test_an_edit_of_one_field_keeps_line_breaks_and_tags_with_commas(ui: Served, page):
    old = handlers.remember(ui.store, CALLER, content="step one\nstep two", tags=["ci,cd", "ops"],
                            kind="procedure").id
    page.goto(f"{ui.base}/memories/{old}")
    page.fill("input[name=importance]", "7")
    submit(page, "button:text('Supersede')")
    new = page.url.rsplit("/", 1)[1]
    assert new != old, page.inner_text("main")
    stored = ui.store.get(tenant="default", id=new)
    assert (stored.content, stored.tags, stored.importance) == ("step one\nstep two", ("ci,cd", "ops"), 7)
    assert stored.observed_at == ui.store.get(tenant="default", id=old).observed_at  # the same observation


def test_an_edit_leaving_the_text_as_shown_keeps_its_own_line_breaks(ui: Served, page):
    """A browser sends every line break of an edit box as CRLF: a lone CR or CRLF stored by an agent
    stays as it was when the text is left alone."""
    text = "row one\rrow two\r\nrow three\nrow four"
    old = handlers.remember(ui.store, CALLER, content=text, kind="procedure").id
    page.goto(f"{ui.base}/memories/{old}")
    page.fill("input[name=importance]", "6")
    submit(page, "button:text('Supersede')")
    stored = ui.store.get(tenant="default", id=page.url.rsplit("/", 1)[1])
    assert (stored.content, stored.importance) == (text, 6)


def test_a_list_shows_the_head_of_a_long_memory_and_its_page_the_whole(ui: Served, page):
    text = "Runbook for the nightly export. " + " ".join(f"step{n:04d}" for n in range(800))
    memory_id = handlers.remember(ui.store, CALLER, content=text, scope="long", kind="procedure").id
    page.goto(f"{ui.base}/?scope=long")
    listed = page.inner_text("ol.memories")
    assert "Runbook for the nightly export." in listed and "step0799" not in listed
    assert f"{len(text):,} characters" in listed
    page.goto(f"{ui.base}/memories/{memory_id}")
    assert page.inner_text("blockquote") == text


def test_forget_asks_first_then_the_text_is_gone_from_the_page_and_the_store(ui: Served, page):
    first = handlers.remember(ui.store, CALLER, content="The lab printer is 4471").id
    second = handlers.supersede(ui.store, CALLER, id=first, content="The lab printer is 9130").id
    page.goto(f"{ui.base}/memories/{second}")
    submit(page, "text=Forget…")
    assert "Forget this memory?" in page.inner_text("h1")
    assert handlers.memory_view(ui.store, CALLER, second)["memory"]["content"]  # nothing yet
    shoot(page, "forget")
    page.check("input[name=history]")
    page.fill("input[name=reason]", "asked to")
    submit(page, "text=Forget for good")
    assert page.url == f"{ui.base}/?done=forgotten"
    assert "lab printer" not in page.content()
    for memory_id in (first, second):
        stored = ui.store.get(tenant="default", id=memory_id)
        assert stored.content is None and stored.forgotten_at is not None
        page.goto(f"{ui.base}/memories/{memory_id}")
        assert "Forgotten memory" in page.inner_text("h1")
        assert "4471" not in page.content() and "9130" not in page.content()
    page.goto(ui.base)
    page.fill("input[name=q]", "lab printer")
    submit(page, "button:text('Show')")
    assert "lab printer" not in page.inner_text("ol.memories")
    page.goto(f"{ui.base}/memories/{second}/forget")  # again, as a second tab would
    submit(page, "text=Forget for good")
    assert page.url == f"{ui.base}/?done=already" and "already forgotten" in page.inner_text("main")


def test_boot_preview_shows_the_document_and_its_token_count_at_the_budget(ui: Served, page):
    page.goto(f"{ui.base}/boot")
    page.fill("input[name=tokens]", "300")
    submit(page, "button:text('Preview')")
    assert page.url.endswith("tokens=300&task="), page.url
    document = boot.boot_context(ui.store, CALLER, 300)
    assert page.inner_text("pre.boot").rstrip("\n") == document.rstrip("\n")
    used = int(page.inner_text("#count b"))
    assert used == literal.counter()(document) and used <= 300
    shoot(page, "boot")


def test_listing_pages_skip_and_repeat_nothing_while_another_client_writes(ui: Served, page):
    scope = "paging"
    ids = [handlers.remember(ui.store, CALLER, content=f"Paging fact number {i}", scope=scope).id
           for i in range(25)]
    page.goto(f"{ui.base}/?scope={scope}")
    first_page = [a.get_attribute("href").rsplit("/", 1)[1] for a in page.locator("a.content").all()]
    assert len(first_page) == 20
    for i in range(3):  # another client writes newer ones, and forgets one already shown
        handlers.remember(ui.store, CALLER, content=f"Paging fact written meanwhile {i}", scope=scope)
    handlers.forget(ui.store, CALLER, id=first_page[0])
    submit(page, "text=Older memories")
    second_page = [a.get_attribute("href").rsplit("/", 1)[1] for a in page.locator("a.content").all()]
    assert sorted(first_page + second_page) == sorted(ids)
    assert page.get_attribute("a.first", "href") == f"/?scope={scope}"  # back to the newest, same filters


def test_another_tenants_memory_is_not_reachable_by_url(ui: Served, page):
    other = Caller(tenant="other", scope="default")
    theirs = handlers.remember(ui.store, other, content="Another tenant's secret plan").id
    for path in (f"/memories/{theirs}", f"/memories/{theirs}/forget", f"/memories/{theirs[:13]}"):
        answer = page.goto(ui.base + path)
        assert answer.status == 404 and "secret plan" not in page.content()
    page.goto(f"{ui.base}/memories/{handlers.list_memories(ui.store, CALLER, limit=1).memories[0].id}")
    csrf = page.locator("input[name=csrf]").first.get_attribute("value")
    answer = page.request.post(f"{ui.base}/memories/{theirs}/forget", form={"csrf": csrf},
                               headers={"Origin": ui.base})
    assert answer.status == 404
    assert ui.store.get(tenant="other", id=theirs).content == "Another tenant's secret plan"


def test_sessions_review_and_stats_pages_show_what_the_store_holds(ui: Served, page):
    page.goto(f"{ui.base}/sessions")
    assert "s-1" in page.inner_text("table")
    shoot(page, "sessions")
    submit(page, "text=s-1")
    turns = page.locator("li.turn pre")
    assert [turns.nth(i).inner_text() for i in range(turns.count())] == [
        "Why does the deploy fail on Fridays?", "The release branch was locked by the freeze job."]
    page.goto(f"{ui.base}/review")
    assert "hq-guest" in page.inner_text("main")  # unconfirmed for 400 days: decayed
    shoot(page, "review")
    page.goto(f"{ui.base}/stats")
    counts = dict(re.findall(r"^(\w+)\t(\d+)$", page.inner_text("main"), re.MULTILINE))
    assert int(counts["default"]) == ui.store.scope_counts(tenant="default")["default"]
    assert int(counts["preference"]) == 1
    assert "not encrypted" in page.inner_text("main")  # the test's store is plain
    shoot(page, "stats")


def _review_pair(ui: Served, page, older: str, newer: str):  # type: ignore[no-untyped-def]
    """Store two contradicting memories, keep the pair for review, open /review: their ids and section."""
    old, new = (handlers.remember(ui.store, CALLER, content=content).id for content in (older, newer))
    consolidate(ui.store)
    assert (old, new) in [pair[:2] for pair in ui.store.review("default", CALLER.scopes(None)).contradictions]
    page.goto(f"{ui.base}/review")
    return old, new, page.locator("section.pair").filter(has=page.locator(f"a[href='/memories/{old}']"))


def test_the_review_page_shows_a_contradicting_pair_together_and_supersedes_the_older_by_the_newer(
        ui: Served, page):
    old, new, pair = _review_pair(ui, page, "The team standup is at 9:15 every weekday.",
                                  "The team standup is at 10:30 every weekday.")
    assert pair.count() == 1 and pair.locator(".contradicting").inner_text() == "Contradicting"
    assert pair.locator(".older a").get_attribute("href") == f"/memories/{old}"
    assert pair.locator(".newer a").get_attribute("href") == f"/memories/{new}"
    assert "9:15" in pair.inner_text() and "10:30" in pair.inner_text()
    shoot(page, "review-pair")
    with page.expect_navigation():
        pair.locator("button:text('Supersede the older by the newer')").click()
    assert page.url == f"{ui.base}/memories/{new}", page.inner_text("main")
    assert ui.store.get(tenant="default", id=old).superseded_by == new
    assert ui.store.get(tenant="default", id=new).content == "The team standup is at 10:30 every weekday."
    page.goto(f"{ui.base}/review")
    assert page.locator(f"section.pair a[href='/memories/{old}']").count() == 0


def test_a_sessions_digest_links_its_session_and_a_lookalike_source_does_not(ui: Served, page):
    ui.store.episodes.append(tenant="default", scope="default", session_id="s-digest", turns=[
        NewTurn(role="user", text="Rotate the staging certificates before Friday")])
    digest = ui.store.episodes.end(tenant="default", session_id="s-digest").digest_id
    lookalike = ui.store.remember(tenant="default", scope="default", content="Pasted from a chat log",
                                  source="session s-digest").id  # no `session` tag: not a digest
    page.goto(f"{ui.base}/memories/{digest}")
    assert page.locator("dd a:text('the session')").get_attribute("href") == "/sessions/s-digest"
    submit(page, "text=Forget…")
    whole = page.locator("a:text('Forget the whole session')")
    assert whole.get_attribute("href") == "/sessions/s-digest/forget"
    for path in (f"/memories/{lookalike}", f"/memories/{lookalike}/forget"):
        page.goto(ui.base + path)
        assert page.locator("a[href^='/sessions/s-digest']").count() == 0


def test_forgetting_a_session_asks_first_then_its_turns_are_gone(ui: Served, page):
    ui.store.episodes.append(tenant="default", scope="default", session_id="s-gone", turns=[
        NewTurn(role="user", text="The vault phrase is lemon-otter-42")])
    page.goto(f"{ui.base}/sessions/s-gone")
    submit(page, "text=Forget this session…")
    assert "Forget this session?" in page.inner_text("h1")
    assert len(ui.store.episodes.turns(tenant="default", session_id="s-gone")) == 1  # nothing yet
    submit(page, "text=Forget for good")
    assert page.url == f"{ui.base}/sessions?done=forgotten" and "s-gone" not in page.inner_text("main")
    assert "s-1" in page.inner_text("main")  # the other session stays
    assert [s.id for s in ui.store.episodes.sessions(tenant="default")].count("s-gone") == 0
    page.goto(f"{ui.base}/sessions/s-gone")
    assert "lemon-otter" not in page.content()


def test_a_credential_stored_with_allow_secrets_is_named_never_shown(ui: Served, page):
    key = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"
    other = Store(ui.runtime.config.db, allow_secrets=True)  # another process's, run with --allow-secrets
    try:
        memory_id = handlers.remember(other, CALLER, content=f"The CI token is {key}", scope="keys").id
    finally:
        other.close()
    page.goto(f"{ui.base}/?scope=keys")
    assert "The CI token is [GitHub token]" in page.inner_text("ol.memories")
    page.goto(f"{ui.base}/memories/{memory_id}")
    assert "[GitHub token]" in page.inner_text("blockquote") and key not in page.content()


def test_bidi_and_invisible_characters_are_written_out_and_the_edit_box_keeps_the_text(ui: Served, page):
    """A page for people to check what was stored must not let stored text reorder or hide itself."""
    text = "Pay invoice 4411 to acct \u202e9876\u202c today, zero\u200bwidth, emoji 👩\u200d💻"
    other = Store(ui.runtime.config.db)  # the agent's process (the validation keeps these characters)
    try:
        memory_id = handlers.remember(other, CALLER, content=text, scope="odd").id
    finally:
        other.close()
    page.goto(f"{ui.base}/memories/{memory_id}")
    shown = page.inner_text("blockquote")
    assert "\\u202e9876\\u202c" in shown and "zero\\u200bwidth" in shown and "👩\u200d💻" in shown
    assert "\u202e" not in shown and page.input_value("textarea[name=content]") == text


def test_a_search_for_a_credential_never_shows_it_back(ui: Served, page):
    key = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    handlers.remember(ui.store, CALLER, content="The release token rotation runbook is in the wiki", scope="vault")
    page.goto(f"{ui.base}/?q=release+token+rotation+runbook+{key}")
    assert page.locator("p.summary a").count() >= 1  # a link to the other scope, carrying the query
    assert key not in page.content() and "[GitHub token]" in page.inner_text("p.summary")


def test_the_review_page_settles_a_pair_that_both_hold_by_confirming_the_older(ui: Served, page):
    old, _, pair = _review_pair(ui, page, "The office printer is on floor 2.", "The office printer is on floor 3.")
    with page.expect_navigation():
        pair.locator("button:text('Both hold: confirm the older')").click()
    assert page.url == f"{ui.base}/memories/{old}", page.inner_text("main")
    assert ui.store.get(tenant="default", id=old).confirmations == 1
    assert ui.store.get(tenant="default", id=old).superseded_by is None
    page.goto(f"{ui.base}/review")
    assert page.locator(f"section.pair a[href='/memories/{old}']").count() == 0
