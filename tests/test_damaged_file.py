"""A damaged database file is named as one, on the command line and over stdio: no
traceback, no "memvault fault", nothing written, and the way to recover."""

from __future__ import annotations

import os

import pytest
from conftest import server_env
from fakes import FakeEmbedder
from wire import StdioServer

from memvault.storage.store import Store

PAGE = 4096


def filled(db, count: int, words: int) -> None:  # type: ignore[no-untyped-def]
    """A database of ``count`` memories of ``words`` words each."""
    store = Store(db, FakeEmbedder())  # type: ignore[arg-type]
    try:
        for i in range(count):
            store.remember(tenant="default", scope="default", content=f"memory {i}: " + "words " * words)
    finally:
        store.close()


def damaged(db, every: int) -> None:
    """A database of 40 memories with every ``every``-th page after the first two overwritten."""
    filled(db, 40, 60)
    size = os.path.getsize(db)
    with open(db, "r+b") as fh:
        for offset in range(2 * PAGE, size, every * PAGE):
            fh.seek(offset)
            fh.write(b"\xa5" * PAGE)


@pytest.mark.parametrize("every", [1, 2, 3])
@pytest.mark.parametrize("argv", [["doctor"], ["doctor", "--json"], ["remember", "Written into a damaged file"],
                                  ["list"], ["export"], ["stats"]])
def test_the_command_line_says_the_file_is_damaged_without_a_traceback(db_path, argv, every, cli_here):
    damaged(db_path, every)
    before = db_path.read_bytes()
    done = cli_here(argv, server_env(db_path))  # a traceback would be the exception main lets out
    assert "Traceback" not in done.stderr and "Error:" not in done.stderr, done.stderr
    if done.returncode != 0 or argv[0] == "doctor":
        assert done.returncode == 1 and "the database file is damaged" in done.stderr + done.stdout
        said = done.stderr + done.stdout  # doctor says how to recover (it differs by damage); the others point to it
        assert ("recover" if argv[0] == "doctor" else "memvault doctor") in said  # (text or --json)
    if argv[0] == "remember":
        assert done.returncode == 1 and db_path.read_bytes()[:PAGE] == before[:PAGE]


def test_a_tool_over_stdio_says_the_file_is_damaged_not_a_memvault_fault(db_path):
    damaged(db_path, 1)
    server = StdioServer(db_path)
    try:
        for name, arguments in (("remember", {"content": "Written in a damaged file"}), ("recall", {"query": "memory"})):
            result = server.call_tool(name, arguments)
            said = result["content"][0]["text"]
            assert result["isError"] and "the database file is damaged" in said and "memvault fault" not in said
    finally:
        server.close()



@pytest.mark.parametrize("argv", [["recall", "memory words"], ["list", "--limit", "50"], ["export"]])
def test_a_text_written_over_with_bytes_that_are_not_utf8_is_damage_not_a_fault(db_path, argv, cli_here):
    """An adversarial pass: random bytes in the memories' pages made reads a "memvault fault"
    (UnicodeDecodeError) and a traceback on the command line."""
    filled(db_path, 40, 60)
    data = bytearray(db_path.read_bytes())
    at = data.index(b"memory 7: words")
    data[at + 10:at + 15] = b"\xff\xfe\xa5\xa5\xff"  # the record's header intact: only its text is broken
    db_path.write_bytes(bytes(data))
    done = cli_here(argv, server_env(db_path))
    said = done.stderr + done.stdout
    assert "Traceback" not in said and "memvault fault" not in said, said
    assert done.returncode == 1 and "the database file is damaged" in said and "not UTF-8" in said, said
