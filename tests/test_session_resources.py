"""``memory://sessions`` and ``memory://sessions/{session_id}{?tokens}``: what they list and show,
``tokens`` read from the newest turn back, bad input named with its limit, and another tenant's
session never readable (over the SDK's client, stdio and HTTP)."""

from __future__ import annotations

import json
import re

import pytest
from httpwire import HttpServer, client, new_key
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS
from wire import StdioServer

from memvault.server.app import build_server
from memvault.server.config import Config
from memvault.storage.limits import SESSION_READ_MAX_TOKENS
from memvault.storage.records import NewTurn
from memvault.storage.store import Store
from memvault.tools.handlers import Caller
from memvault.tools.sessions import session_document, sessions_document

CALLER = Caller(tenant="t", scope="proj")
LINE = re.compile(r'^- #(\d+) (user|assistant|tool)(?:, tool (".*?"))?, (\S+Z)'
                  r'(?:, redacted ([^:"]+))?: (".*")$')
TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def turns_of(document: str) -> list[tuple[int, str, str | None, str, str | None, str]]:
    """(seq, role, tool, time, redacted, text) of each turn line, the quoted parts read as JSON."""
    out = []
    for line in document.splitlines():
        if line.startswith("- #"):
            match = LINE.match(line)
            assert match, line
            seq, role, tool, at, redacted, text = match.groups()
            out.append((int(seq), role, tool and json.loads(tool), at, redacted, json.loads(text)))
    return out


def footer(document: str) -> tuple[int, int]:
    """(turns shown, turns in the session) from the footer."""
    found = re.search(r"_(?:All (\d[\d,]*) turns? shown|(\d[\d,]*) of (\d[\d,]*) turns? shown)", document)
    assert found, document[-300:]
    if found.group(1):
        n = int(found.group(1).replace(",", ""))
        return n, n
    return int(found.group(2).replace(",", "")), int(found.group(3).replace(",", ""))


CONVERSATION = [
    NewTurn(role="user", text="Why does the deploy fail on staging?", at=1_767_225_601_000),
    NewTurn(role="assistant", text="Let me read the logs.", tool="Bash", call_id="c1", at=1_767_225_602_000),
    NewTurn(role="tool", text=f"error: bad token {TOKEN}\nexit 1", tool="Bash", call_id="c1",
            at=1_767_225_603_000),
    NewTurn(role="assistant", text='The token expired; said "rotate it".', at=1_767_225_604_000),
    NewTurn(role="user", text="Rotated <private>my pin is 4411</private> it, thanks", at=1_767_225_605_000),
]


def test_a_session_reads_back_its_turns_in_order_with_role_tool_time_and_quoted_text(store: Store):
    store.episodes.append(tenant="t", scope="proj", session_id="s-1", turns=CONVERSATION,
                          client="claude-code", cwd="/home/dev/app")
    document = session_document(store, CALLER, "s-1")
    shown = turns_of(document)
    assert [(seq, role, tool) for seq, role, tool, *_ in shown] == [
        (1, "user", None), (2, "assistant", "Bash"), (3, "tool", "Bash"), (4, "assistant", None),
        (5, "user", None)]
    assert shown[0][3] == "2026-01-01T00:00:01.000Z" and shown[3][5] == 'The token expired; said "rotate it".'
    assert shown[2][4] == "GitHub token" and "[GitHub token]" in shown[2][5] and TOKEN not in document
    assert shown[4][4] == "private" and "4411" not in document
    assert '"claude-code"' in document and '"/home/dev/app"' in document and "open" in document
    assert footer(document) == (5, 5)


def test_tokens_gives_the_newest_turns_that_fit_oldest_first(store: Store):
    turns = [NewTurn(role="user" if i % 2 else "assistant", text=f"turn {i}: " + "word " * (i % 9 * 5))
             for i in range(40)]
    store.episodes.append(tenant="t", scope="proj", session_id="long", turns=turns)
    sizes = [t.tokens for t in store.episodes.turns(tenant="t", session_id="long")]
    for budget in (1, sizes[-1], sizes[-1] + sizes[-2], 100, 333, 1000, sum(sizes), sum(sizes) + 1):
        document = session_document(store, CALLER, "long", str(budget))
        seqs = [seq for seq, *_ in turns_of(document)]
        expected, used = [], 0
        for seq in range(40, 0, -1):  # the newest first, while they fit
            if used + sizes[seq - 1] > budget:
                break
            used += sizes[seq - 1]
            expected.insert(0, seq)
        assert seqs == expected, budget
        assert footer(document) == (len(expected), 40)
        if not expected:
            assert "the newest holds more than" in document


def append(store: Store, session_id: str, turns: list[NewTurn], tenant: str = "t", scope: str = "proj",
           **more: str) -> None:
    store.episodes.append(tenant=tenant, scope=scope, session_id=session_id, turns=turns, **more)


def now(turns: list[NewTurn]) -> list[NewTurn]:
    """``turns`` written at the store's clock."""
    return [NewTurn(role=t.role, text=t.text, tool=t.tool, call_id=t.call_id) for t in turns]


def test_the_listing_is_newest_first_with_each_sessions_facts_and_digest(store: Store, clock):
    append(store, "s-ended", now(CONVERSATION[:2]), client="codex")
    digest = store.episodes.end(tenant="t", session_id="s-ended").digest_id
    clock.advance(60)
    append(store, "s-global", now(CONVERSATION[:1]), scope="global")
    clock.advance(60)
    append(store, "s-open", now(CONVERSATION), cwd="/srv/x")
    append(store, "s-other-scope", now(CONVERSATION[:1]), scope="elsewhere")
    append(store, "s-other-tenant", now(CONVERSATION[:1]), tenant="u")
    listing = sessions_document(store, CALLER)
    assert re.findall(r"^## `(.+)`$", listing, flags=re.M) == ["s-open", "s-global", "s-ended"]
    ended = listing.split("## `s-ended`")[1]
    content = store.get(tenant="t", id=digest).content  # type: ignore[arg-type]
    short = store.short_ids(tenant="t", ids=[digest])[digest]  # type: ignore[list-item]
    assert f"- digest [{short}]: {json.dumps(content, ensure_ascii=False)}" in ended and '"codex"' in ended
    assert "2 turns," in ended and "ended 20" in ended
    opened = listing.split("## `s-open`")[1].split("## ")[0]
    assert "5 turns," in opened and '"/srv/x"' in opened and ", open" in opened and "no digest yet" in opened
    assert "_3 sessions shown._" in listing
    store.forget(tenant="t", id=digest)  # type: ignore[arg-type]
    assert "- digest: forgotten" in sessions_document(store, CALLER)
    assert sessions_document(store, Caller("nobody", "proj")).startswith("No sessions are recorded yet")


@pytest.mark.usefixtures("one_model")
@pytest.mark.asyncio
async def test_both_resources_are_listed_with_titles_and_descriptions(db_path):
    async with Client(build_server(Config(db=db_path))) as c:
        resources = {str(r.uri): r for r in (await c.list_resources()).resources}
        templates = {t.uri_template: t for t in (await c.list_resource_templates()).resource_templates}
    listed = [resources["memory://sessions"], templates["memory://sessions/{session_id}{?tokens}"]]
    assert all(r.title and r.description and r.mime_type == "text/markdown" for r in listed)


BAD_TOKENS = ["abc", "0", "-5", f"{SESSION_READ_MAX_TOKENS + 1}", "1e3", "", "%205", "\uff19", "9" * 5000]


@pytest.mark.parametrize("tokens", BAD_TOKENS)
@pytest.mark.usefixtures("one_model")
@pytest.mark.asyncio
async def test_a_bad_tokens_is_invalid_params_naming_the_field_and_the_limit(db_path, tokens):
    store = Store(db_path, None)
    try:
        store.episodes.append(tenant="default", scope="default", session_id="s-1", turns=CONVERSATION)
    finally:
        store.close()
    async with Client(build_server(Config(db=db_path))) as c:
        with pytest.raises(MCPError) as refused:
            await c.read_resource(f"memory://sessions/s-1?tokens={tokens}")
        good = (await c.read_resource("memory://sessions/s-1?tokens=20&other=x")).contents[0].text
    message = refused.value.error.message
    assert refused.value.error.code == INVALID_PARAMS
    said = f"tokens: must be an integer from 1 to {SESSION_READ_MAX_TOKENS:,}; got "
    assert message.startswith(said), message
    assert len(message) < 200 and footer(good)[1] == 5


@pytest.mark.usefixtures("one_model")
@pytest.mark.asyncio
async def test_an_unknown_session_is_not_found_and_a_credential_as_an_id_is_not_echoed(db_path):
    async with Client(build_server(Config(db=db_path))) as c:
        with pytest.raises(MCPError) as unknown:
            await c.read_resource("memory://sessions/no-such-session")
        with pytest.raises(MCPError) as secret:
            await c.read_resource("memory://sessions/AKIAIOSFODNN7EXAMPLF")
    assert unknown.value.error.message.startswith("session_id: no session 'no-such-session'")
    assert "AKIAIOSFODNN7EXAMPLF" not in str(secret.value) and "session_id" in secret.value.error.message


@pytest.mark.slow
def test_over_stdio_a_bad_tokens_is_invalid_params_and_a_session_reads(db_path, tmp_path):
    store = Store(db_path, None)
    try:
        store.episodes.append(tenant="default", scope="default", session_id="s-1", turns=CONVERSATION)
    finally:
        store.close()
    log = tmp_path / "stderr.log"
    with log.open("w") as stderr:
        server = StdioServer(db_path, stderr=stderr)
        try:
            bad = server.request("resources/read", {"uri": "memory://sessions/s-1?tokens=lots"})
            read = server.request("resources/read", {"uri": "memory://sessions/s-1?tokens=100000"})
            listing = server.request("resources/read", {"uri": "memory://sessions"})
        finally:
            server.close()
    assert bad["error"]["code"] == INVALID_PARAMS
    assert bad["error"]["message"].startswith("tokens: must be an integer")
    assert footer(read["result"]["contents"][0]["text"]) == (5, 5)
    assert "## `s-1`" in listing["result"]["contents"][0]["text"]
    assert "Traceback" not in log.read_text()


@pytest.mark.slow
@pytest.mark.asyncio
async def test_another_tenants_session_is_never_readable_over_http(tmp_path):
    db = tmp_path / "team.db"
    alice, bob = new_key(db, "alice"), new_key(db, "bob")
    store = Store(db, None)
    try:
        store.episodes.append(tenant="alice", scope="default", session_id="alice-1", turns=CONVERSATION,
                              client="claude-code")
        store.episodes.end(tenant="alice", session_id="alice-1")
    finally:
        store.close()
    server = HttpServer(db)
    try:
        async with client(server.url, alice) as c:
            assert "## `alice-1`" in (await c.read_resource("memory://sessions")).contents[0].text
            own = (await c.read_resource("memory://sessions/alice-1?tokens=50")).contents[0].text
        async with client(server.url, bob) as c:
            listing = (await c.read_resource("memory://sessions")).contents[0].text
            with pytest.raises(MCPError) as foreign:
                await c.read_resource("memory://sessions/alice-1")
            with pytest.raises(MCPError) as unknown:
                await c.read_resource("memory://sessions/alice-2")
            boot = (await c.read_resource("memory://boot")).contents[0].text
    finally:
        server.close()
    assert footer(own)[1] == 5 and turns_of(own)[-1][0] == 5
    assert "alice-1" not in listing and listing.startswith("No sessions are recorded yet for tenant `bob`")
    assert foreign.value.error.code == unknown.value.error.code
    assert foreign.value.error.message.replace("alice-1", "alice-2") == unknown.value.error.message
    assert "Last session" not in boot and "Why does the deploy" not in boot
