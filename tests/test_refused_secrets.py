"""A refused value that looks like a credential is named by what it looks like, never
quoted back: not in the tool result, the resource error, the command line's output, an
import's report nor the server's log, whichever field held it. An ordinary bad value is
still quoted (errors.shown)."""

from __future__ import annotations

import json
import logging

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from memvault.server import cli
from memvault.server.app import build_server
from memvault.server.config import Config
from memvault.storage import keys
from memvault.storage.errors import shown
from memvault.storage.store import Store

# Made-up values in each provider's format, and what a refusal calls them.
SECRETS = {
    "GitHub token": "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A",
    "AWS access key": "AKIA" + "QYLPMN5HFIQR7BZX",
    "bearer token": "Bearer " + "k4R9tQ2wLm6Vp9Xc3Zb7Jd1Fg5Ys0Ua8Ei4KoNh",
    "Slack token": "xoxb-" + "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
}

pytestmark = pytest.mark.usefixtures("one_model")  # the packaged model loaded once (conftest)


def tool_calls(secret: str, kept: str) -> list[tuple[str, dict[str, object]]]:
    """One call per field (and name) a refused value can come back from."""
    return [
        ("remember", {"content": "x", "kind": secret}),
        ("remember", {"content": "x", "observed_at": secret}),
        ("remember", {"content": "x", "expires_at": secret}),
        ("remember", {"content": "x", "importance": secret}),
        ("remember", {"content": "x", "check_similar": secret}),
        ("remember", {"content": "x", "tags": secret}),  # a string for a list
        ("remember", {"content": "x", secret: 1}),  # an unknown argument's name
        ("recall", {"query": "x", "since": secret}),
        ("recall", {"query": "x", "until": secret}),
        ("recall", {"query": "x", "kinds": [secret]}),
        ("recall", {"query": "x", "limit": secret}),
        ("recall", {"query": "x", "include_history": [secret]}),
        ("recall", {"query": "x", "scope": secret}),  # a scope searched is named in the result
        ("recall", {"query": "", "scope": secret}),
        ("forget", {"id": secret}),
        ("forget", {"id": [secret]}),
        ("supersede", {"id": secret, "content": "y"}),
        ("supersede", {"id": kept, "content": "y", "kind": secret}),
        (secret, {}),  # a tool memvault does not have
    ]


@pytest.mark.asyncio
@pytest.mark.parametrize("label", sorted(SECRETS))
async def test_a_secret_in_any_tool_argument_is_named_never_quoted(db_path, caplog, label):
    secret = SECRETS[label]
    caplog.set_level(logging.DEBUG)
    async with Client(build_server(Config(db=db_path))) as c:
        kept = (await c.call_tool("remember", {"content": "The build runs on Fridays"})).structured_content["id"]
        for tool, args in tool_calls(secret, kept):
            r = await c.call_tool(tool, args)
            text = r.content[0].text
            assert r.is_error, (tool, args)
            assert secret not in text and secret.split()[-1][:12] not in text, text
            assert f"a value that looks like {'an' if label[0] in 'A' else 'a'} {label}" in text, text
        for uri in (f"memory://memories/{secret}", f"memory://{secret}"):
            with pytest.raises(MCPError) as refused:
                await c.read_resource(uri)
            assert secret not in str(refused.value) and label in str(refused.value)
        with pytest.raises(MCPError) as refused:
            await c.get_prompt("save_session", {"focus": "x", secret: "y"})
        assert secret not in str(refused.value)
        for args in ({"focus": "x", "scope": secret}, {"focus": secret}):
            with pytest.raises(MCPError) as refused:
                await c.get_prompt("save_session", args)
            assert secret not in str(refused.value) and label in str(refused.value)
        listed = await c.call_tool("recall", {"query": "", "scope": "default"})
    assert [m["id"] for m in listed.structured_content["memories"]] == [kept]  # nothing stored or replaced
    assert secret.split()[-1] not in caplog.text


@pytest.mark.asyncio
async def test_an_ordinary_refused_value_is_still_quoted(db_path):
    async with Client(build_server(Config(db=db_path))) as c:
        for tool, args, says in [
            ("remember", {"content": "x", "kind": "memo"}, "kind: 'memo' is not one of "),
            ("recall", {"query": "x", "since": "yesterday"}, "since: 'yesterday' is not an ISO-8601 date-time"),
            ("forget", {"id": "nope"}, "id: 'nope' is not a memory id: "),
            ("nope", {}, "unknown tool 'nope'. memvault's tools: remember, recall, supersede, forget"),
            ("recal", {}, "unknown tool 'recal'; did you mean 'recall'? memvault's tools: remember, recall, "),
        ]:
            r = await c.call_tool(tool, args)
            assert r.is_error and r.content[0].text.startswith(says), r.content[0].text


def test_shown_scans_the_whole_value_before_cutting_it():
    """A long value is cut to 60 characters: cut first, a key's first 57 characters would show."""
    key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA" + "x" * 100 + "\n-----END RSA PRIVATE KEY-----"
    assert shown("padding " * 10 + SECRETS["GitHub token"]) == "a value that looks like a GitHub token"
    assert shown(key) == "a value that looks like a private key"
    assert shown({"k": [SECRETS["AWS access key"]]}) == "a value that looks like an AWS access key"
    assert shown("x" * 100) == "'" + "x" * 57 + "...'"


@pytest.mark.parametrize("label", sorted(SECRETS))
def test_a_secret_in_any_command_line_argument_is_named_never_printed(db_path, capsys, label):
    secret = SECRETS[label]
    db = ["--db", str(db_path)]
    assert cli.main(["remember", "The build runs on Fridays", *db]) == 0
    store = Store(db_path)
    try:
        keys.create(store, "acme")
    finally:
        store.close()
    for argv in (
        ["show", secret], ["forget", secret], ["supersede", secret, "y"], ["list", "--since", secret],
        ["list", "--until", secret], ["list", "--kind", secret], ["recall", "x", "--kind", secret],
        ["remember", "x", "--kind", secret], ["remember", "x", "--importance", secret], ["keys", "revoke", secret],
        ["setup", secret], ["list", "--limit", secret], ["list", secret], ["list", "--scope", secret],
        ["recall", "x", "--scope", secret], ["--scope", secret, "list"], ["keys", "create", "--tenant", secret],
        ["keys", "create", "--tenant", "acme", "--scope", secret],
    ):
        try:
            code = cli.main([*argv, *db])
        except SystemExit as exit_:  # argparse's own refusals
            code = exit_.code
        out, err = capsys.readouterr()
        assert code != 0, argv
        assert secret.split()[-1] not in out + err, (argv, err)
        assert f"looks like {'an' if label[0] in 'A' else 'a'} {label}" in err, (argv, err)


def test_a_secret_in_an_import_line_is_named_never_printed(db_path, capsys):
    secret = SECRETS["GitHub token"]
    source = db_path.parent / "in.jsonl"
    lines = [{"content": "fine"}, {"content": "x", "kind": secret}, {"content": "x", "id": secret},
             {"content": "x", "supersedes": secret}, {"content": "x", "observed_at": secret}, {"content": "x", secret: 1},
             {"content": "x", "tenant": secret}, {"content": "x", "importance": secret}]
    source.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert cli.main(["import", str(source), "--db", str(db_path), "--json"]) == 1
    out, err = capsys.readouterr()
    assert secret not in out + err
    report = json.loads(out)
    assert len(report["failed"]) == len(lines) - 1
    # an unknown field's name is the field named (described by its kind), its value in the message
    assert all("a value that looks like a GitHub token" in failed["field"] + failed["message"]
               for failed in report["failed"]), report


@pytest.mark.slow
def test_over_stdio_neither_the_answers_nor_the_servers_log_repeat_a_secret(db_path):
    """The real server, its stderr log captured: refusals of several fields, an unknown
    tool, resource and JSON-RPC method."""
    from wire import StdioServer

    log = db_path.parent / "stderr.log"
    answers = []
    with log.open("w") as stderr:
        server = StdioServer(db_path, stderr=stderr)
        try:
            for label, secret in SECRETS.items():
                for tool, args in tool_calls(secret, "0190a8e4-7c5b-7d2e-9f3a-1b2c3d4e5f60"):
                    answer = server.request("tools/call", {"name": tool, "arguments": args})
                    assert answer["result"]["isError"] and label in json.dumps(answer), answer
                    answers.append(answer)
                answers.append(server.request("resources/read", {"uri": f"memory://memories/{secret}"}))
                answers.append(server.request(secret, {}))
                assert label in json.dumps(answers[-1]) and label in json.dumps(answers[-2])
        finally:
            server.close()
    text = json.dumps(answers) + log.read_text()
    assert "Tool 'remember' failed" in log.read_text()  # the refusals are logged, named
    for secret in SECRETS.values():
        assert secret.split()[-1] not in text


@pytest.mark.parametrize("variable", ["MEMVAULT_SCOPE", "MEMVAULT_TENANT"])
def test_a_scope_or_tenant_setting_that_looks_like_a_credential_stops_the_server(variable, monkeypatch, tmp_path):
    """A re-trial started `memvault serve` with a token as its scope: the start-up line
    printed it, then every call failed. Settings go through ``validate.scope`` too."""
    from memvault.server import config

    secret = SECRETS["GitHub token"]
    monkeypatch.setenv(variable, secret)
    with pytest.raises(ValueError) as refused:  # the command line exits 2 with it
        config.load(db=str(tmp_path / "m.db"))
    assert secret not in str(refused.value) and variable in str(refused.value) and "GitHub token" in str(refused.value)
    monkeypatch.setenv(variable, "project-x")
    assert config.load(db=str(tmp_path / "m.db")) is not None  # an ordinary name is kept
