"""`memvault ui` refuses, with a page saying why and nothing changed in the store: no token, a wrong
token, another Host (DNS rebinding, with the browser resolving evil.example to the server), a form
from another site, a forged CSRF token, an expired memory, a 1 MB field, content the store refuses.
One server and one browser (the OS's headless Chromium) for the module."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest
from uiserver import CALLER, Served, browser, served

from memvault.server.web.gate import csrf_token
from memvault.tools import handlers

pytestmark = pytest.mark.slow
EVIL = "evil.example"


@pytest.fixture(scope="module")
def ui(tmp_path_factory: pytest.TempPathFactory):
    with served(tmp_path_factory.mktemp("ui") / "memvault.db") as running:
        soon = (datetime.now(UTC) + timedelta(seconds=5)).isoformat()  # a loaded machine took over 1 s to store it
        expiring = handlers.remember(running.store, CALLER, content="Parking is free until noon",
                                     expires_at=soon)
        running.expiring = expiring.id  # type: ignore[attr-defined]
        yield running


@pytest.fixture(scope="module")
def chromium(ui: Served):
    with browser(f"--host-resolver-rules=MAP {EVIL} 127.0.0.1") as launched:
        yield launched


@pytest.fixture(scope="module")
def signed_in(ui: Served, chromium):
    """One context for the module, its cookie got once from the URL's token."""
    context = chromium.new_context()
    context.new_page().goto(ui.opening)
    yield context
    context.close()


@pytest.fixture
def page(signed_in):
    page = signed_in.new_page()
    yield page
    page.close()


@pytest.fixture
def memory(ui: Served) -> str:
    now = time.monotonic_ns()  # a new memory each time: no duplicate of an earlier test's; in numbers of 6 digits
    # (14 digits in a row passing the Luhn check were refused as a payment card number)
    return handlers.remember(ui.store, CALLER, content=f"The printer on floor {now // 10**6 % 10**6} is broken, "
                                                      f"ticket {now % 10**6}").id


def unchanged(ui: Served, memory_id: str) -> dict[str, object]:
    """The memory's whole view (its chain): what a refused request must leave as it was."""
    return handlers.memory_view(ui.store, CALLER, memory_id)


def test_a_page_without_the_token_shows_nothing_and_changes_nothing(ui: Served, chromium, memory: str):
    context = chromium.new_context()
    page = context.new_page()
    before = unchanged(ui, memory)
    answer = page.goto(f"{ui.base}/memories/{memory}")
    assert answer.status == 403 and "Token missing" in page.inner_text("h1")
    assert "printer" not in page.content()
    posted = page.request.post(f"{ui.base}/memories/{memory}/forget", headers={"Origin": ui.base},
                               form={"csrf": csrf_token(ui.token)})
    assert posted.status == 403 and unchanged(ui, memory) == before
    wrong = page.goto(f"{ui.base}/?token=not-the-token")
    assert wrong.status == 403 and "Wrong token" in page.inner_text("h1") and not context.cookies()
    context.close()


def test_a_page_under_another_host_name_is_refused(ui: Served, chromium, memory: str):
    context = chromium.new_context()
    page = context.new_page()
    port = ui.base.rsplit(":", 1)[1]
    answer = page.goto(f"http://{EVIL}:{port}/?token={ui.token}")  # DNS rebinding: the same server by name
    assert answer.status == 421 and "Wrong Host" in page.inner_text("h1")
    assert not context.cookies() and "printer" not in page.content()
    context.close()


def test_a_form_from_another_site_changes_nothing(ui: Served, page, memory: str):
    before = unchanged(ui, memory)
    attack = (f'<form method="post" action="{ui.base}/memories/{memory}/forget">'
              f'<input name="csrf" value="{csrf_token(ui.token)}"><button>win</button></form>')
    page.route(f"http://{EVIL}/", lambda route: route.fulfill(body=attack, content_type="text/html"))
    page.goto(f"http://{EVIL}/")
    with page.expect_navigation() as sent:
        page.click("button")
    assert sent.value.status == 403  # SameSite=Strict: the cookie stays home
    origin = page.request.post(f"{ui.base}/memories/{memory}/forget", headers={"Origin": f"http://{EVIL}"},
                               form={"csrf": csrf_token(ui.token)})
    assert origin.status == 403 and "Wrong origin" in origin.text()
    assert unchanged(ui, memory) == before


@pytest.mark.parametrize("form", [{"csrf": "0" * 64}, {}, {"csrf": ""}], ids=["forged", "missing", "empty"])
def test_a_forged_or_missing_csrf_token_changes_nothing(ui: Served, page, memory: str, form):
    before = unchanged(ui, memory)
    for action in ("confirm", "forget", "supersede"):
        answer = page.request.post(f"{ui.base}/memories/{memory}/{action}", headers={"Origin": ui.base},
                                   form={**form, "content": "The printer works again"})
        assert answer.status == 403 and "CSRF token is not the one this page was given" in answer.text()
    assert unchanged(ui, memory) == before


def test_an_expired_memory_shows_no_text_and_cannot_be_changed(ui: Served, page):
    expiring = ui.expiring  # type: ignore[attr-defined]
    while ui.store.get(tenant="default", id=expiring).content is not None:
        time.sleep(0.05)  # it expires 5 seconds after the module started
    before = unchanged(ui, expiring)
    answer = page.goto(f"{ui.base}/memories/{expiring}")
    assert answer.status == 200 and "Expired memory" in page.inner_text("h1")
    assert "Parking" not in page.content() and page.locator("form[method=post]").count() == 0
    for action in ("confirm", "supersede"):
        refused = page.request.post(f"{ui.base}/memories/{expiring}/{action}", headers={"Origin": ui.base},
                                    form={"csrf": csrf_token(ui.token), "content": "Parking costs 2 EUR"})
        assert refused.status == 409 and "expired" in refused.text()
    assert unchanged(ui, expiring) == before


def test_a_1_mb_field_is_refused_with_a_clear_page(ui: Served, page, memory: str):
    before = unchanged(ui, memory)
    page.goto(f"{ui.base}/memories/{memory}")
    page.eval_on_selector("textarea[name=content]", "field => { field.value = 'x'.repeat(1000000) }")
    with page.expect_navigation() as sent:
        page.click("button:text('Supersede')")
    assert sent.value.status == 413 and "Form too large" in page.inner_text("h1")
    assert "nothing was changed" in page.inner_text("#message")
    assert unchanged(ui, memory) == before


def test_content_the_store_refuses_is_refused_on_the_page(ui: Served, page, memory: str):
    before = unchanged(ui, memory)
    key = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    for content, says in (("y" * 9_000, "content: is 9,000 characters"), (f"token {key}", "GitHub")):
        page.goto(f"{ui.base}/memories/{memory}")
        page.fill("textarea[name=content]", content)
        with page.expect_navigation() as sent:
            page.click("button:text('Supersede')")
        assert sent.value.status == 400 and says in page.inner_text("#message")
        assert key not in page.content()
        assert page.get_attribute("text=Back to the memory", "href") == f"/memories/{memory}"
    assert unchanged(ui, memory) == before


def test_pages_holding_memory_text_are_never_cached(ui: Served, page, memory: str):
    answer = page.goto(f"{ui.base}/memories/{memory}")
    assert answer.headers["cache-control"] == "no-store"
    assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]


@pytest.mark.parametrize(("path", "field"), [
    ("/sessions/x?after=" + "9" * 5_000, "after"), ("/boot?tokens=" + "9" * 5_000, "tokens"),
    ("/boot?tokens=" + "9" * 25, "tokens"), ("/boot?task=until+9999-12-31", None),
    ("/?q=what+happened+on+9999-12-31", None)])
def test_numbers_past_every_range_and_times_at_the_calendars_edge_get_a_page_not_a_500(ui: Served, page, path: str,
                                                                                     field: str | None):
    """adversarial pass 48: 5,000 digits (past what int reads) and 9999-12-31 in a question gave 500 and a traceback."""
    answer = page.goto(f"{ui.base}{path}")
    assert answer.status == (400 if field else 200), page.content()[:500]
    if field:
        assert f"{field}: must be an integer" in page.inner_text("#message")
    assert "Internal Server Error" not in page.content()
