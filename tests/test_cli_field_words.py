"""The command line names a refused field with the word the MCP tool's error uses (``content``: the CLI's CONTENT, as
``query`` is its QUERY and ``id`` its ID), in its message, its usage line, a missing argument's error and its JSON
error document, for a credential's refusal and every other refusal of the text."""

from __future__ import annotations

import json

import pytest
from mcp import Client
from test_cli import run

from memvault.server import cli
from memvault.server.app import build_server
from memvault.server.config import Config

pytestmark = pytest.mark.usefixtures("one_model")  # the packaged model loaded once (conftest)

# (the tool's arguments, the command line): refused texts
REFUSED = [
    ({"content": "my password is Kx7#mPq2zz"}, ["remember", "my password is Kx7#mPq2zz"]),
    ({"content": "   "}, ["remember", "   "]),
    ({"content": "x" * 8_001}, ["remember", "x" * 8_001]),
]


async def _tool_error(arguments: dict[str, str], db_path) -> str:
    async with Client(build_server(Config(db=db_path))) as c:
        answer = await c.call_tool("remember", arguments)
    assert answer.is_error
    return answer.content[0].text


@pytest.mark.asyncio
@pytest.mark.parametrize(("arguments", "argv"), REFUSED)
async def test_the_command_line_names_the_refused_field_as_the_tool_does(db_path, capsys, arguments, argv) -> None:
    said = await _tool_error(arguments, db_path)
    field, reason = said.split(": ", 1)
    code, out, err = run(capsys, *argv, "--db", str(db_path))
    assert code == 2 and out == "" and err.startswith(f"memvault: {field.upper()}: {reason.split(' ')[0]}"), err
    code, out, err = run(capsys, *argv, "--json", "--db", str(db_path))
    assert code == 2 and json.loads(out)["error"]["field"] == field, out


def test_the_usage_and_a_missing_argument_name_it_too(capsys) -> None:
    with pytest.raises(SystemExit):
        cli.main(["remember", "--help"])
    assert "CONTENT" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        cli.main(["remember", "--json"])
    out, err = capsys.readouterr()
    assert json.loads(out)["error"]["field"] == "content" and "CONTENT: is required" in err, (out, err)
    with pytest.raises(SystemExit):
        cli.main(["supersede", "--help"])
    assert "CONTENT" in capsys.readouterr().out
