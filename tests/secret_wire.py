"""The credential tables' check across the wire: ``remember`` over the MCP client refuses each text
naming the field and quoting none of its values, stores the talk, and a listing returns exactly the talk."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from mcp import Client

from memvault.server.app import build_server
from memvault.server.config import Config


async def refuses_and_stores(db_path: Path, refused: Iterable[tuple[str, list[str]]], talk: list[str]) -> None:
    """``refused``: (text, its values); ``talk``: texts to store. Raises AssertionError naming the text."""
    async with Client(build_server(Config(db=db_path))) as c:
        for text, values in refused:
            answer = await c.call_tool("remember", {"content": text})
            said = answer.content[0].text
            assert answer.is_error and said.startswith("content: ") and "password" in said, said
            assert not any(value in said for value in values), said
        for text in talk:
            stored = await c.call_tool("remember", {"content": text, "check_similar": False})
            assert not stored.is_error, (text, stored.content[0].text)
        listed = await c.call_tool("recall", {"query": "", "scope": "default", "limit": 50})
    assert sorted(m["content"] for m in listed.structured_content["memories"]) == sorted(talk)
