"""A value outside an argument's choices (an unknown command, action, transport, client) is refused in
memvault's words, naming the field, every choice and the nearest one (trial 77: `memvault recal` gave
argparse's "argument COMMAND: invalid choice: 'recal' (choose from ...)")."""

from __future__ import annotations

import json

import pytest

from memvault.server import cli


@pytest.mark.parametrize(("argv", "field", "says"), [
    (["recal"], "command", "'recal' is no `memvault` command; its commands: serve, keys, remember, recall,"),
    (["rememberr", "x"], "command", "did you mean 'remember'?"),
    (["zzzz"], "command", "'zzzz' is no `memvault` command; its commands: "),
    (["keys", "revok"], "action", "'revok' is no `memvault keys` command; its commands: create, list, revoke; "
                                  "did you mean 'revoke'?"),
    (["serve", "--transport", "htp"], "transport", "--transport: 'htp' is not one of stdio, http; did you mean 'http'?"),
    (["serve", "--transport", "grpc"], "transport", "--transport: 'grpc' is not one of stdio, http"),
    (["setup", "cursr"], "client", "client: 'cursr' is not one of claude-desktop, "),
    (["setup", "cursr"], "client", "did you mean 'cursor'?"),
    (["serve", "--auth", "jwt"], "auth", "--auth: 'jwt' is not one of "),
])
@pytest.mark.parametrize("as_json", [False, True])
def test_a_value_outside_the_choices_is_refused_naming_the_field_and_the_choices(tmp_path, capsys, argv, field, says,
                                                                                   as_json):
    with pytest.raises(SystemExit) as exited:
        cli.main([*(["--json"] if as_json else []), *argv, *([] if argv[0] == "setup" else ["--db", str(tmp_path / "m.db")])])
    out, err = capsys.readouterr()
    assert exited.value.code == 2 and says in err and "invalid choice" not in err and "choose from" not in err, err
    if as_json:
        error = json.loads(out)["error"]
        assert error["field"] == field and says in error["message"], error
    assert not (tmp_path / "m.db").exists()


def test_a_credential_given_as_a_command_is_not_repeated(capsys):
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    with pytest.raises(SystemExit):
        cli.main([token])
    err = capsys.readouterr().err
    assert token not in err and "is no `memvault` command" in err, err


@pytest.mark.parametrize(("argv", "field", "says"), [
    (["list", "--limit"], "limit", "--limit: needs a value (`memvault list -h` says what it takes)"),
    (["list", "--kind"], "kind", "--kind: needs a value"),
    (["recall", "q", "--limit"], "limit", "--limit: needs a value (`memvault recall -h`"),
    (["remember", "x", "--tag"], "tag", "--tag: needs a value"),
    (["remember", "x", "--observed-at"], "observed_at", "--observed-at: needs a value"),
    (["show", "--json-x"], None, None),  # an unknown flag: argparse's own words, unchanged
])
def test_a_flag_given_without_its_value_is_refused_naming_the_field(tmp_path, capsys, argv, field, says):
    """trial 79: `memvault list --json --limit` said argparse's "argument --limit: expected one argument", field null."""
    with pytest.raises(SystemExit) as exited:
        cli.main(["--json", *argv, "--db", str(tmp_path / "m.db")] if field else [*argv, "--db", str(tmp_path / "m.db")])
    out, err = capsys.readouterr()
    assert exited.value.code == 2 and "expected one argument" not in err, err
    if field:
        error = json.loads(out)["error"]
        assert error["field"] == field and says in error["message"] and says in err, error
    assert not (tmp_path / "m.db").exists()
