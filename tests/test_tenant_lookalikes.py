"""A tenant named on the command line or in the server's settings (``--tenant``, ``MEMVAULT_TENANT``)
that differs from a tenant holding memories or keys only by letter case or character form is refused for
writes and named by reads, as a key's tenant and an OAuth claim are (``storage/tenants.py``)."""

from __future__ import annotations

import io

import pytest
from fakes import FakeEmbedder
from mcp import Client

from memvault.server import cli
from memvault.server.app import build_server
from memvault.server.config import Config
from memvault.storage import keys, maintenance
from memvault.storage.store import Store

# (tenant held, tenant named): the same tenant but for letter case, in several scripts
CASE = [("acme", "Acme"), ("acme", "ACME"), ("acme", "aCmE"), ("москва", "Москва"), ("σοφία", "ΣΟΦΊΑ"),
        ("straße", "STRASSE"), ("Globex", "globex")]
# names no tenant may take at all (compatibility forms, letters of other scripts passing for Latin ones)
NEVER = ["ａｃｍｅ", "аcme", "асе", "Αcme", "acme\u200b", "ａcme"]


def _held(db: str, tenant: str) -> None:
    store = Store(db, FakeEmbedder())  # type: ignore[arg-type]
    try:
        store.remember(tenant=tenant, scope="default", content="The payroll vendor is Gusto")
    finally:
        store.close()


def _tenants(db: str) -> dict[str, object]:
    store = Store(db, FakeEmbedder())  # type: ignore[arg-type]
    try:
        return maintenance.stats(store)["by_scope"]  # type: ignore[return-value]
    finally:
        store.close()


@pytest.mark.parametrize(("held", "named"), CASE)
@pytest.mark.parametrize("command", [["remember", "The office is in Austin"], ["import", "-"],
                                     ["forget", "01a246dc-136d-7385-8e41-1efb17342772"]])
def test_a_cli_write_to_a_new_tenant_alike_an_existing_one_is_refused_naming_it(
        db_path, capsys, monkeypatch, held, named, command):
    _held(str(db_path), held)
    before = _tenants(str(db_path))
    monkeypatch.setattr("sys.stdin", io.StringIO('{"content": "The office is in Austin"}\n'))
    assert cli.main([*command, "--db", str(db_path), "--tenant", named]) == 2
    err = capsys.readouterr().err
    assert f"--tenant: {named!r} differs from the existing tenant {held!r} only by letter case" in err, err
    assert f"name the tenant {held!r}" in err
    assert _tenants(str(db_path)) == before


@pytest.mark.parametrize("named", NEVER)
def test_a_tenant_in_a_compatibility_form_or_passing_for_latin_is_refused(db_path, capsys, named):
    _held(str(db_path), "acme")
    before = _tenants(str(db_path))
    assert cli.main(["remember", "The office is in Austin", "--db", str(db_path), "--tenant", named]) == 2
    assert capsys.readouterr().err.startswith("memvault: --tenant: ")
    assert _tenants(str(db_path)) == before


@pytest.mark.parametrize(("named", "stored"), [("acmé", "acmé"), ("acme-", "acme-"), ("acme2", "acme2"),
                                               ("acme", "acme")])
def test_a_tenant_that_only_resembles_one_or_is_it_is_written_as_ever(db_path, capsys, named, stored):
    _held(str(db_path), "acme")
    assert cli.main(["remember", "The office is in Austin", "--db", str(db_path), "--tenant", named]) == 0
    assert "differs from the existing tenant" not in capsys.readouterr().err
    assert stored in _tenants(str(db_path))


def test_a_tenant_holding_only_keys_is_one_too(db_path, capsys):
    store = Store(str(db_path), FakeEmbedder())  # type: ignore[arg-type]
    try:
        keys.create(store, "initech")
    finally:
        store.close()
    assert cli.main(["remember", "The office is in Austin", "--db", str(db_path), "--tenant", "Initech"]) == 2
    assert "existing tenant 'initech'" in capsys.readouterr().err
    assert _tenants(str(db_path)) == {}


@pytest.mark.parametrize(("held", "named"), CASE)
@pytest.mark.parametrize("command", [["recall", "payroll vendor"], ["list", "--kind", "fact"], ["export"]])
def test_a_cli_read_of_an_empty_tenant_alike_one_holding_memories_names_that_one(
        db_path, capsys, held, named, command):
    _held(str(db_path), held)
    cli.main([*command, "--db", str(db_path), "--tenant", named])
    err = capsys.readouterr().err
    assert f"note: tenant {named!r} holds no memories; the tenant {held!r}, which differs from it only by " \
           "letter case or character form, does" in err, err
    cli.main([*command, "--db", str(db_path), "--tenant", held])
    assert "note: tenant" not in capsys.readouterr().err


@pytest.mark.asyncio
@pytest.mark.parametrize(("held", "named"), CASE[:3])
async def test_a_server_whose_tenant_setting_is_alike_an_existing_one_refuses_its_calls(db_path, held, named):
    _held(str(db_path), held)
    async with Client(build_server(Config(db=db_path, tenant=named))) as c:
        wrote = await c.call_tool("remember", {"content": "The office is in Austin"})
        read = await c.call_tool("recall", {"query": "payroll vendor"})
    for result in (wrote, read):
        assert result.is_error and f"the existing tenant {held!r}" in result.content[0].text
    assert set(_tenants(str(db_path))) == {held}
    async with Client(build_server(Config(db=db_path, tenant=held))) as c:
        assert not (await c.call_tool("recall", {"query": "payroll vendor"})).is_error


def test_a_hook_whose_tenant_setting_is_alike_an_existing_one_is_refused(db_path, tmp_path):
    from memvault.server import hooks
    from memvault.storage.errors import InvalidInput

    _held(str(db_path), "acme")
    with pytest.raises(InvalidInput, match="existing tenant 'acme'"):
        hooks.run(Config(db=db_path, tenant="ACME"), "claude-code", "SessionStart", {"cwd": str(tmp_path)})


@pytest.mark.parametrize(("held", "named"), CASE[:4])
@pytest.mark.parametrize("mode", [[], ["--json"], ["--write"], ["--hooks", "--write"], ["--bundle", "out.mcpb"]])
def test_setup_for_a_tenant_the_server_would_refuse_is_refused_writing_nothing(
        db_path, tmp_path, monkeypatch, capsys, held, named, mode):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.chdir(tmp_path)
    _held(str(db_path), held)
    client = "claude-desktop" if "--bundle" in mode else "claude-code"
    files = {p for p in tmp_path.rglob("*") if p.is_file()}
    assert cli.main(["setup", client, *mode, "--db", str(db_path), "--tenant", named]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert f"--tenant: {named!r} differs from the existing tenant {held!r}" in err and "nothing was written" in err
    assert {p for p in tmp_path.rglob("*") if p.is_file()} <= files | {db_path.with_name(db_path.name + s)
                                                                       for s in ("-wal", "-shm")}
    assert cli.main(["setup", client, *mode, "--db", str(db_path), "--tenant", held]) == 0
    capsys.readouterr()


# names that differ from "acme" / "default" by white space at an end, an invisible character, a compatibility
# form (full-width) or a decomposed accent (not NFC): the tools refuse them
PADDED = ["{} ", " {}", "{}\u00a0", "\u00a0{}", "{}\t", "{}\u200b", "\uff58{}", "{}e\u0301"]


@pytest.mark.parametrize("padded", PADDED)
@pytest.mark.parametrize(("command", "setting"), [
    (["remember", "The office is in Austin"], "tenant"), (["remember", "The office is in Austin"], "scope"),
    (["setup", "claude-code", "--write"], "tenant"), (["setup", "claude-code", "--write"], "scope"),
    (["keys", "create"], "tenant"), (["keys", "create"], "scope")])
def test_a_padded_tenant_or_scope_is_refused_by_the_cli_as_by_the_tools_writing_nothing(
        db_path, tmp_path, monkeypatch, capsys, padded, command, setting):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    _held(str(db_path), "acme")
    before = _tenants(str(db_path))
    named = padded.format("acme" if setting == "tenant" else "default")
    other = ["--scope", "default"] if setting == "tenant" else ["--tenant", "acme"]
    assert cli.main([*command, "--db", str(db_path), *other, f"--{setting}", named]) == 2
    out, err = capsys.readouterr()
    assert err.startswith(f"memvault: --{setting}: "), err
    assert "acme" not in out and _tenants(str(db_path)) == before and not (tmp_path / ".mcp.json").exists()


@pytest.mark.parametrize(("named", "held"), [("Default", "default"), ("DEFAULT", "default"), ("dEfAuLt", "default"),
                                             ("Finance", "finance"), ("STRASSE", "straße")])
@pytest.mark.parametrize("mode", [["--write"], ["--json"], []])
def test_setup_for_a_scope_alike_one_of_the_tenant_is_refused_as_keys_create_refuses_it(
        db_path, tmp_path, monkeypatch, capsys, named, held, mode):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    store = Store(str(db_path), FakeEmbedder())  # type: ignore[arg-type]
    try:
        store.remember(tenant="acme", scope="default", content="The payroll vendor is Gusto")
        store.remember(tenant="acme", scope="straße", content="The payroll vendor is Gusto")
        keys.create(store, "acme", "finance")  # a scope holding only a key is one too
    finally:
        store.close()
    for command in (["setup", "claude-code", *mode], ["keys", "create"]):
        assert cli.main([*command, "--db", str(db_path), "--tenant", "acme", "--scope", named]) == 2
        out, err = capsys.readouterr()
        assert f"--scope: {named!r} differs from the scope {held!r} of tenant 'acme'" in err, err
        assert out == "" and not (tmp_path / ".mcp.json").exists()
    for scope in (held, "work", "défault"):  # the scope itself, and names merely like it: as ever
        assert cli.main(["setup", "claude-code", *mode, "--db", str(db_path), "--tenant", "acme", "--scope", scope]) == 0
        capsys.readouterr()
