"""<private>...</private> spans in the free-text fields other than content (source, a supersede's or
forget's reason, a failed run's note; the same fields of an import line) are dropped as content's are,
never stored, never refused for a credential inside them, and the result says so; a name (tag,
scope) with such a span is refused naming the field (a name is shown whole in results, listings and logs).
Asserted on the store (both backends) and on the results."""

from __future__ import annotations

import json

import pytest

from memvault.storage import transfer
from memvault.storage.errors import InvalidInput
from memvault.tools import handlers, text
from memvault.tools.caller import Caller

pytestmark = pytest.mark.contract

CALLER = Caller(tenant="default", scope="default")
TOKEN = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A"
# (as sent, as stored): a span, an unclosed one, upper case with an attribute, a credential inside
SPANS = [
    ("chat with <private>Alice, 555-0100</private> on Monday", "chat with on Monday"),
    ("the review notes <private>from Bob's HR file", "the review notes"),
    ("from <PRIVATE why=1>the board</PRIVATE> minutes", "from minutes"),
    (f"the vault <private>{TOKEN}</private>", "the vault"),
]


@pytest.mark.parametrize("sent,kept", SPANS)
def test_remember_drops_private_spans_from_the_source(store, sent, kept):
    result = handlers.remember(store, CALLER, content="the plan for the launch", source=sent)
    assert store.get(tenant="default", id=result.id).source == kept
    assert result.redacted == ["private"] and "Redacted" in text.render(result)


@pytest.mark.parametrize("sent,kept", SPANS)
def test_supersede_drops_private_spans_from_its_reason_and_source(store, sent, kept):
    old = handlers.remember(store, CALLER, content="the launch is in May")
    result = handlers.supersede(store, CALLER, id=old.id, content="the launch is in June", reason=sent)
    assert store.get(tenant="default", id=old.id).supersede_reason == kept and result.redacted == ["private"]
    newer = handlers.supersede(store, CALLER, id=result.id, content="the launch is in July", source=sent)
    assert store.get(tenant="default", id=newer.id).source == kept and newer.redacted == ["private"]
    plain = handlers.supersede(store, CALLER, id=newer.id, content="the launch is in August", reason="moved")
    assert plain.redacted == [] and "Redacted" not in text.render(plain)


@pytest.mark.parametrize("sent,kept", SPANS[:2])
def test_supersede_by_drops_private_spans_from_its_reason(store, sent, kept):
    old = handlers.remember(store, CALLER, content="the office is in Leeds")
    new = handlers.remember(store, CALLER, content="the office moved to York")
    result = handlers.supersede(store, CALLER, id=old.id, by=new.id, reason=sent)
    assert store.get(tenant="default", id=old.id).supersede_reason == kept and result.redacted == ["private"]


@pytest.mark.parametrize("sent,kept", SPANS)
def test_forget_drops_private_spans_from_its_reason(store, sent, kept):
    memory = handlers.remember(store, CALLER, content="an old note to forget")
    result = handlers.forget(store, CALLER, id=memory.id, reason=sent)
    assert store.get(tenant="default", id=memory.id).forget_reason == kept
    assert result.redacted == ["private"] and result.model_dump()["redacted"] == ["private"]
    assert "Redacted" in text.render(result)


def test_a_reason_that_is_only_private_is_stored_as_none(store):
    memory = handlers.remember(store, CALLER, content="another note to forget")
    result = handlers.forget(store, CALLER, id=memory.id, reason="<private>the lawsuit</private>")
    assert store.get(tenant="default", id=memory.id).forget_reason is None and result.redacted == ["private"]


@pytest.mark.parametrize("sent,kept", SPANS)
def test_a_failed_runs_note_drops_private_spans(store, sent, kept):
    procedure = handlers.remember(store, CALLER, content="deploy: run make release, then tag", kind="procedure")
    result = handlers.confirm(store, CALLER, id=procedure.id, outcome="failure", note=sent)
    assert result.runs is not None and result.runs.failure_modes == [kept]
    assert result.redacted == ["private"] and "Redacted" in text.render(result)
    ok = handlers.confirm(store, CALLER, id=procedure.id, outcome="failure", note="the tag was taken")
    assert ok.redacted == []


@pytest.mark.parametrize("field", ["tags", "scope"])
@pytest.mark.parametrize("name", ["<private>hr</private>", "team<private>x</private>", "a <private>b"])
def test_a_name_with_a_private_span_is_refused_naming_the_field(store, field, name):
    value = [name] if field == "tags" else name
    with pytest.raises(InvalidInput) as refused:
        handlers.remember(store, CALLER, content="a memory with a private name", **{field: value})
    assert refused.value.field == ("tags[0]" if field == "tags" else "scope")
    assert "<private>" in refused.value.reason
    assert store.count_memories(tenant="default", scopes=["default"]) == 0
    kept = handlers.remember(store, CALLER, content="a memory with a plain name", tags=["hr"])  # the owner's own
    assert store.get(tenant="default", id=kept.id).tags == ("hr",)


def test_import_drops_private_spans_from_source_reason_and_notes_and_names_the_lines(store):
    lines = [
        json.dumps({"content": "plain line", "source": "the wiki"}),
        json.dumps({"content": "the meeting is on Friday", "source": SPANS[0][0]}),
        json.dumps({"content": "the meeting was on Thursday", "id": "01a23c43-0000-7000-8000-000000000001",
                    "superseded_by": "01a23c43-0000-7000-8000-000000000002", "supersede_reason": SPANS[3][0]}),
        json.dumps({"content": "the meeting is on Friday now", "id": "01a23c43-0000-7000-8000-000000000002",
                    "supersedes": "01a23c43-0000-7000-8000-000000000001"}),
        json.dumps({"content": "release: make release", "kind": "procedure",
                    "runs": [{"at": "2026-11-01T10:00:00Z", "outcome": "failure", "note": SPANS[1][0]}]}),
    ]
    report = transfer.import_lines(store, lines, tenant="default", scope="default")
    assert not report.failed and report.imported == 5 and report.private_removed == (2, 3, 5)
    old = store.get(tenant="default", id="01a23c43-0000-7000-8000-000000000001")
    assert old.supersede_reason == SPANS[3][1]
    friday = next(m for m in store.list_memories(tenant="default", scopes=["default"], limit=20)
                  if m.content == "the meeting is on Friday")
    assert friday.source == SPANS[0][1]
    release = next(m for m in store.list_memories(tenant="default", scopes=["default"], limit=20)
                   if m.kind == "procedure")
    assert store.run_summaries(tenant="default", ids=[release.id])[release.id].failure_modes == (SPANS[1][1],)


@pytest.mark.parametrize("key", ["k1<private>PRIVIDEM</private>", "<private>k</private>", "k <PRIVATE a=1>x",
                                 "k</private>"])
def test_an_idempotency_key_with_a_private_span_is_refused_and_nothing_is_stored(store, key):
    with pytest.raises(InvalidInput) as refused:
        handlers.remember(store, CALLER, content="The wiki runs on Docusaurus", idempotency_key=key)
    assert refused.value.field == "idempotency_key" and "<private>" in refused.value.reason
    assert "PRIVIDEM" not in str(refused.value)
    assert store.count_memories(tenant="default", scopes=["default"]) == 0
    kept = handlers.remember(store, CALLER, content="The wiki runs on Docusaurus", idempotency_key="k1")
    again = handlers.remember(store, CALLER, content="The wiki runs on Docusaurus", idempotency_key="k1")
    assert again.id == kept.id


@pytest.mark.parametrize("scope", ["<private>hr</private>", "team<private>x</private>"])
def test_a_scope_filter_with_a_private_span_is_refused(store, scope):
    handlers.remember(store, CALLER, content="The wiki runs on Docusaurus")
    with pytest.raises(InvalidInput) as refused:
        handlers.recall(store, CALLER, query="wiki", scope=scope)
    assert refused.value.field == "scope" and "<private>" in refused.value.reason


@pytest.mark.parametrize("query", ["wiki <private>PRIVQUERY</private>", "<private>PRIVQUERY</private> wiki",
                                   "wiki <PRIVATE>PRIVQUERY", "wiki <private note=1>PRIV\nQUERY</private>"])
def test_recall_searches_without_the_querys_private_spans(store, query):
    memory = handlers.remember(store, CALLER, content="The wiki runs on Docusaurus")
    plain = handlers.recall(store, CALLER, query="wiki")
    found = handlers.recall(store, CALLER, query=query)
    assert [m.id for m in found.memories] == [m.id for m in plain.memories] == [memory.id]
    assert "PRIV" not in found.model_dump_json()
    turns = handlers.recall(store, CALLER, query=query, turns=True)
    assert "PRIV" not in turns.model_dump_json()


@pytest.mark.parametrize("query", ["<private>PRIVQUERY</private>", "<private>wiki", "  <private>x</private>  "])
def test_a_query_that_is_only_private_is_refused_and_never_lists(store, query):
    handlers.remember(store, CALLER, content="The wiki runs on Docusaurus")
    for filters in ({}, {"kinds": ["fact"]}):
        with pytest.raises(InvalidInput) as refused:
            handlers.recall(store, CALLER, query=query, **filters)
        assert refused.value.field == "query" and "PRIV" not in str(refused.value)


@pytest.mark.usefixtures("one_model")
@pytest.mark.asyncio
async def test_private_spans_over_the_sdk_client_key_refused_query_stripped(db_path):
    from mcp import Client

    from memvault.server.app import build_server
    from memvault.server.config import Config

    async with Client(build_server(Config(db=db_path))) as c:
        refused = await c.call_tool("remember", {"content": "The wiki runs on Docusaurus",
                                                 "idempotency_key": "k1<private>PRIVIDEM</private>"})
        stored = await c.call_tool("remember", {"content": "The wiki runs on Docusaurus", "idempotency_key": "k1"})
        found = await c.call_tool("recall", {"query": "wiki <private>PRIVQUERY</private>"})
    assert refused.is_error and "idempotency_key" in refused.content[0].text
    assert "PRIVIDEM" not in refused.content[0].text
    assert not stored.is_error and not found.is_error
    assert "Docusaurus" in found.content[0].text and "PRIVQUERY" not in found.content[0].text
    assert b"PRIVIDEM" not in db_path.read_bytes()
