"""A scope a read names (recall's and a listing's ``scope``, the ``--scope`` and ``MEMVAULT_SCOPE`` of
``memvault recall`` and ``list``) is read exactly as written: one that remember refuses (a space around
it, a compatibility form, an invisible character, letters passing for Latin ones) is refused in remember's
words, naming the field, where it was trimmed into 'default' or read as an empty scope; a scope stored
before the name rules is still read as written. Of several scopes alike, a note names the one spelled as
folded ('default', not 'Default') (trial verify62 N8)."""

from __future__ import annotations

import pytest
from mcp import Client

from memvault.server import cli
from memvault.server.app import build_server
from memvault.server.config import Config
from memvault.storage import validate
from memvault.storage.errors import InvalidInput
from memvault.storage.store import Store
from memvault.tools import handlers

# scopes remember refuses: each would read 'default' trimmed, or an empty scope beside it
REFUSED = ["default ", " default", "default\u00a0", "default\t", "\u3000default", "ｄｅｆａｕｌｔ", "Ｄefault",
           "de\u200bfault", "de  fault", "d\u0435fault", "cafe\u0301", "\u0430\u0441\u0435"]
CALLER = handlers.Caller(tenant="a", scope="default")
FACT = "Deploys happen on Fridays"


def reads(store: Store, scope: str) -> list:  # type: ignore[type-arg]
    """Every read of the tools and the CLI that takes a scope filter, as calls."""
    return [lambda: handlers.recall(store, CALLER, query="deploys", scope=scope),
            lambda: handlers.recall(store, CALLER, query="", scope=scope),
            lambda: handlers.list_memories(store, CALLER, scope=scope),
            lambda: handlers.count_memories(store, CALLER, scope=scope)]


@pytest.mark.contract
@pytest.mark.parametrize("scope", REFUSED)
def test_a_read_refuses_a_scope_as_remember_does(store, scope):
    store.remember(tenant="a", scope="default", content=FACT)
    with pytest.raises(InvalidInput) as wrote:
        handlers.remember(store, CALLER, content="A scope test", scope=scope)
    for read in reads(store, scope):
        with pytest.raises(InvalidInput) as read_as:
            read()
        assert (read_as.value.field, str(read_as.value)) == ("scope", str(wrote.value))
    assert store.scope_counts(tenant="a") == {"default": 1}


@pytest.mark.contract
@pytest.mark.parametrize(("scope", "found", "other"), [
    ("default", [FACT], None), ("Default", [], "default"), ("DEFAULT", [], "default"), ("global", [], "default"),
])
def test_a_read_of_a_name_is_read_as_written(store, scope, found, other):
    store.remember(tenant="a", scope="default", content=FACT)
    listed = handlers.recall(store, CALLER, query="", scope=scope)
    assert [m.content for m in listed.memories] == found and listed.scopes == [scope]
    assert [o.scope for o in listed.other_scopes] == ([other] if other else [])
    assert handlers.count_memories(store, CALLER, scope=scope) == len(found)


@pytest.mark.contract
@pytest.mark.parametrize("legacy", ["legacy\u200b", "ｗork", "two  spaces", "d\u0435fault"])
def test_a_scope_stored_before_the_name_rules_is_read_as_written_and_its_look_alikes_are_not(
        store, monkeypatch, legacy):
    with monkeypatch.context() as old:  # a store written by an earlier memvault
        old.setattr(validate, "name", lambda field, value, max_chars: value)
        kept = store.remember(tenant="a", scope=legacy, content="Kept from before the rules").id
    for read in reads(store, legacy)[1:3]:
        assert [m.id for m in read().memories] == [kept]
    assert handlers.count_memories(store, CALLER, scope=legacy) == 1
    with pytest.raises(InvalidInput, match="^scope: "):
        handlers.list_memories(store, CALLER, scope=legacy + " ")
    with pytest.raises(InvalidInput, match="^scope: "):  # held by another tenant only
        handlers.list_memories(store, handlers.Caller(tenant="b", scope="default"), scope=legacy)


@pytest.mark.contract
@pytest.mark.parametrize(("held", "named", "said"), [
    (["Default", "default"], "DEFAULT", "default"), (["DEFAULT", "default"], "Default", "default"),
    (["default", "Default"], "dEFAULT", "default"), (["Work", "WORK"], "work", "WORK"),
])
def test_the_note_of_a_new_scope_names_the_one_spelled_as_folded_of_several_alike(store, held, named, said):
    for scope in held:
        store.remember(tenant="a", scope=scope, content=f"{FACT} in {scope}")
    assert store.remember(tenant="a", scope=named, content="A scope test").lookalike_scope == said


@pytest.mark.contract
@pytest.mark.usefixtures("one_model")
@pytest.mark.asyncio
async def test_over_mcp_recall_refuses_what_remember_refuses_in_the_same_words(db):
    async with Client(build_server(Config(db=db))) as c:
        assert not (await c.call_tool("remember", {"content": FACT})).is_error
        for scope in ("default ", "ｄｅｆａｕｌｔ", "de\u200bfault"):
            wrote = await c.call_tool("remember", {"content": "A scope test", "scope": scope})
            for query in ("deploys", ""):
                read = await c.call_tool("recall", {"query": query, "scope": scope})
                assert read.is_error and wrote.is_error and read.content[0].text == wrote.content[0].text
                assert read.content[0].text.startswith("scope: ")
        listed = await c.call_tool("recall", {"query": "", "scope": "default"})
        assert [m["content"] for m in listed.structured_content["memories"]] == [FACT]


@pytest.mark.usefixtures("one_model")
@pytest.mark.parametrize("scope", ["default ", " default", "ｄｅｆａｕｌｔ", "de\u200bfault"])
@pytest.mark.parametrize("command", [["recall", "deploys"], ["list"]])
def test_the_cli_reads_refuse_a_scope_setting_as_remember_does(db_path, capsys, monkeypatch, scope, command):
    assert cli.main(["remember", FACT, "--db", str(db_path)]) == 0
    capsys.readouterr()
    assert cli.main(["remember", "A scope test", "--db", str(db_path), "--scope", scope]) == 2
    wrote = capsys.readouterr().err
    assert wrote.startswith("memvault: --scope: ")
    assert cli.main([*command, "--db", str(db_path), "--scope", scope]) == 2
    captured = capsys.readouterr()
    assert (captured.err, captured.out) == (wrote, "")
    monkeypatch.setenv("MEMVAULT_SCOPE", scope)
    assert cli.main([*command, "--db", str(db_path)]) == 2
    assert capsys.readouterr().err == wrote.replace("--scope: ", "MEMVAULT_SCOPE: ", 1)


@pytest.mark.usefixtures("one_model")
def test_the_cli_lists_a_scope_stored_before_the_name_rules(db_path, capsys, monkeypatch):
    store = Store(str(db_path))
    try:
        with monkeypatch.context() as old:
            old.setattr(validate, "name", lambda field, value, max_chars: value)
            store.remember(tenant="default", scope="ｗork", content="Kept from before the rules")
    finally:
        store.close()
    assert cli.main(["list", "--db", str(db_path), "--scope", "ｗork"]) == 0
    assert "Kept from before the rules" in capsys.readouterr().out
