"""``memvault hook`` is parsed by its own command's parser before the whole table is built
(server/cli.py ``_hook_args``): it must read what the whole parser reads, and leave every
argument it does not take to the whole parser, whose errors name it."""

from __future__ import annotations

import pytest

from memvault.server import cli


@pytest.mark.parametrize("argv", [
    ["hook", "claude-code", "SessionStart"],
    ["hook", "claude-code", "PostToolUse", "--db", "/tmp/m.db", "--tenant", "t", "--scope", "s"],
    ["hook", "codex", "UserPromptSubmit", "--scope=work"],
    ["hook", "claude-code", "Stop", "--tenant", "a b"],
])
def test_a_hook_is_parsed_alike_by_its_own_parser_and_the_whole_one(argv):
    assert vars(cli._hook_args(argv)) == vars(cli.parse(argv))


@pytest.mark.parametrize("argv", [
    ["hook", "claude-code"],  # no EVENT
    ["hook", "claude-code", "Stop", "--limit", "3"],  # a flag hook does not take
    ["hook", "claude-code", "Stop", "extra"],
    ["hook", "-h"],
    ["hook", "claude-code", "Stop", "--db"],  # no value
    ["--db", "x", "hook", "claude-code", "Stop"],  # a leading flag: the whole parser moves it
    ["stats"],
])
def test_what_the_hook_parser_does_not_take_is_left_to_the_whole_parser(argv):
    assert cli._hook_args(argv) is None


def test_a_refused_hook_argument_still_exits_non_blocking_with_the_whole_parser_words(capsys):
    assert cli.main(["hook", "claude-code", "Stop", "--limit", "3"]) == 1
    assert "`memvault hook` takes no --limit" in capsys.readouterr().err


def test_caller_is_one_class_whichever_module_it_is_imported_from():
    from memvault.tools import caller, handlers

    assert handlers.Caller is caller.Caller
