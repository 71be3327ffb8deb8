"""Claude Code's session transcripts as turns: JSON lines under ``~/.claude/projects/<dir>/<session>.jsonl``,
one entry a line (``type`` user / assistant / summary / system / file-history-snapshot ...; ``uuid``,
``sessionId``, ``cwd``, ``timestamp``; ``message.content`` a string or a list of blocks). Format:
docs/hooks.md#transcripts.

Kept: user text (role ``user``); assistant text (``assistant``); a ``tool_use`` block (``assistant``, with
the tool's name and call id, its input as JSON); a ``tool_result`` block (``tool``, with the call id and
the name of the call it answers when the same read saw it). Skipped: ``thinking`` and
``redacted_thinking`` blocks, images, entries other than user and assistant, meta entries
(``isMeta``), the summary Claude Code writes after compacting (``isCompactSummary``) and a subagent's
own conversation (``isSidechain``). Each turn's ``ref`` is its entry's ``uuid`` (``uuid:N`` for the
N-th turn of one entry), so a transcript read twice adds nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from memvault.storage.errors import InvalidInput
from memvault.storage.records import NewTurn
from memvault.storage.timefmt import parse_iso

DEFAULT_ROOT = Path("~/.claude/projects")  # where Claude Code keeps its transcripts
SKIPPED_FLAGS = ("isMeta", "isCompactSummary", "isSidechain")


@dataclass(frozen=True)
class Read:
    """A transcript's turns read from a byte offset: ``turns`` as (session id, cwd, turn) in file order;
    ``offset`` the byte after the last whole line read (where the next read starts); ``names`` the
    tool name of each call id seen (read so far); ``bad`` the numbers of the lines that are not JSON
    objects (counted from the read's first line)."""

    turns: list[tuple[str, str | None, NewTurn]]
    offset: int
    names: dict[str, str]
    bad: list[int]


def read(
    path: Path, offset: int = 0, session_id: str | None = None, names: dict[str, str] | None = None
) -> Read:
    """The turns of the whole lines of ``path`` from byte ``offset`` (a last line without its line end
    is left for the next read: Claude Code may be writing it). ``session_id``: the session of entries
    that name none (default: the file's name); ``names``: tool names of calls an earlier read saw.
    Raises OSError when the file cannot be read."""
    with open(path, "rb") as fh:
        fh.seek(offset)
        data = fh.read()
    whole = data[: data.rfind(b"\n") + 1]
    lines = whole.decode("utf-8", errors="replace").splitlines()
    names = dict(names or {})
    turns, bad = parse(lines, session_id or path.stem, names)
    return Read(turns, offset + len(whole), names, bad)


def parse(
    lines: Iterable[str], session_id: str, names: dict[str, str] | None = None
) -> tuple[list[tuple[str, str | None, NewTurn]], list[int]]:
    """The turns of transcript ``lines`` as :func:`read` gives them, and the numbers (from 1) of the
    lines that are not JSON objects; blank lines are skipped. ``names`` (tool_use id -> tool name)
    names the results of earlier calls and learns these lines' calls."""
    names = {} if names is None else names
    turns: list[tuple[str, str | None, NewTurn]] = []
    bad: list[int] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            bad.append(number)
            continue
        if not isinstance(entry, dict):
            bad.append(number)
            continue
        session = entry.get("sessionId") if isinstance(entry.get("sessionId"), str) else session_id
        cwd = entry.get("cwd") if isinstance(entry.get("cwd"), str) else None
        turns.extend((session, cwd, turn) for turn in entry_turns(entry, names))
    return turns, bad


def entry_turns(entry: dict[str, object], names: dict[str, str]) -> list[NewTurn]:
    """The turns of one transcript entry (none for a skipped one); ``names`` maps the tool_use ids
    seen so far to their tools, and learns this entry's."""
    kind, message = entry.get("type"), entry.get("message")
    if kind not in ("user", "assistant") or not isinstance(message, dict):
        return []
    if any(entry.get(flag) for flag in SKIPPED_FLAGS):
        return []
    uuid = entry.get("uuid")
    at = _ms(entry.get("timestamp"))
    made = [part for part in _blocks(str(kind), message.get("content"), names) if part[1].strip()]
    return [NewTurn(role=role, text=text, tool=tool, call_id=call_id, at=at,
                    ref=None if not isinstance(uuid, str) else uuid if n == 0 else f"{uuid}:{n}")
            for n, (role, text, tool, call_id) in enumerate(made)]


def _blocks(
    kind: str, content: object, names: dict[str, str]
) -> Iterator[tuple[str, str, str | None, str | None]]:
    """(role, text, tool, call id) of each kept part of a message's ``content``."""
    if isinstance(content, str):
        if content.strip():
            yield kind, content, None, None
        return
    if not isinstance(content, list):
        return
    for block in content:
        if not isinstance(block, dict):
            continue
        part = block.get("type")
        if part == "text" and isinstance(block.get("text"), str) and block["text"].strip():
            yield kind, block["text"], None, None
        elif part == "tool_use" and isinstance(block.get("name"), str):
            call_id = block.get("id") if isinstance(block.get("id"), str) else None
            if call_id:
                names[call_id] = block["name"]
            yield "assistant", json.dumps(block.get("input", {}), ensure_ascii=False), block["name"], call_id
        elif part == "tool_result":
            call_id = block.get("tool_use_id") if isinstance(block.get("tool_use_id"), str) else None
            text = _result_text(block.get("content"))
            if block.get("is_error"):
                text = f"error: {text}"
            yield "tool", text, names.get(call_id or ""), call_id


def _result_text(content: object) -> str:
    """A tool result's text: a string, or its text blocks joined (an image block as ``[image]``)."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    parts = []
    for block in content:
        if isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str):
            parts.append(block["text"])
        elif isinstance(block, dict) and block.get("type") == "image":
            parts.append("[image]")
    return "\n".join(parts)


def _ms(timestamp: object) -> int | None:
    """An entry's ISO-8601 ``timestamp`` in ms; None (the time of the append) when absent or unreadable."""
    if not isinstance(timestamp, str):
        return None
    try:
        return parse_iso("timestamp", timestamp)
    except InvalidInput:
        return None


def transcripts(path: Path) -> list[Path]:
    """``path`` itself when a file, else the ``.jsonl`` files under it (recursively), sorted."""
    if path.is_file():
        return [path]
    return sorted(p for p in path.rglob("*.jsonl") if p.is_file())
