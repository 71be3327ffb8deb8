"""A word more than a command takes is refused in memvault's words, as a flag it does not take is,
naming the word, the command's arguments and flags (trial 77 S8: `memvault stats extra` gave argparse's
"unrecognized arguments"); a hook's unknown client or event is said in order (`hook x y` gave
"x y hook: CLIENT: ...")."""

from __future__ import annotations

import json

import pytest
from test_cli_output import fill, memvault

from memvault.server import cli

pytestmark = pytest.mark.usefixtures("one_model")


@pytest.mark.parametrize(("argv", "says"), [
    (["stats", "extra"], "`memvault stats` takes no argument 'extra'; its arguments: none; its flags: --db, --json"),
    (["decrypt", "x"], "`memvault decrypt` takes no argument 'x'; its arguments: none; its flags: --db"),
    (["show", "01a2b3c4", "more"], "`memvault show` takes no argument 'more'; its arguments: ID; its flags: "),
    (["keys", "list", "extra"], "`memvault keys list` takes no argument 'extra'; its arguments: none; its flags: "),
    (["doctor", "a", "b"], "`memvault doctor` takes no argument 'a b'; its arguments: none; its flags: "),
    (["forget", "01a2b3c4", "why", "not"], "`memvault forget` takes no argument"),
])
@pytest.mark.parametrize("as_json", [False, True])
def test_a_word_more_is_refused_naming_it_and_what_the_command_takes(db_path, capsys, argv, says, as_json):
    fill(db_path, 1)
    command = " ".join(argv[:2]) if argv[0] == "keys" else argv[0]
    if as_json and "--json" not in cli.flags_of(command):  # the flag it does not take is the one named
        says = f"`memvault {command}` takes no --json; its flags: "
    with pytest.raises(SystemExit) as exited:
        cli.main([*argv, "--db", str(db_path), *(["--json"] if as_json else [])])
    out, err = capsys.readouterr()
    assert exited.value.code == 2 and says in err and "unrecognized arguments" not in err, err
    if as_json:
        assert says in json.loads(out)["error"]["message"]


@pytest.mark.parametrize(("argv", "says"), [
    (["hook", "x", "y"], "memvault: hook: CLIENT: claude-code or codex; got 'x'\n"),
    (["hook", "claude-code", "y"], "memvault: hook: EVENT: claude-code hooks are SessionStart, "),
    (["hook", "codex", "Stop"], "memvault: hook: EVENT: codex hooks are "),
])
def test_a_hook_with_an_unknown_client_or_event_says_so_in_order(db_path, argv, says):
    done = memvault(db_path, *argv)
    assert done.stderr.decode().startswith(says), done.stderr
