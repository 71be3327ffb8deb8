"""Claude Code's session transcripts as turns: JSON lines under ``~/.claude/projects/<dir>/<session>.jsonl``,
one entry a line (``type`` user / assistant / summary / system / file-history-snapshot ...; ``uuid``,
``sessionId``, ``cwd``, ``timestamp``; ``message.content`` a string or a list of blocks). Format:
docs/hooks.md#transcripts.

Kept: user text (role ``user``); assistant text (``assistant``); a ``tool_use`` block (``assistant``, with
the tool's name and call id, its input as readable fields: :func:`input_text`); a ``tool_result`` block
(``tool``, with the call id and the name of the call it answers when the same read saw it). Skipped:
``thinking`` and ``redacted_thinking`` blocks, images, entries other than user and assistant, meta entries
(``isMeta``), the summary Claude Code writes after compacting (``isCompactSummary``), a subagent's own
conversation (``isSidechain``), and entries whose ``sessionId`` cannot be a session id. Each turn's ``ref``
is its entry's ``uuid`` (``uuid:N`` for the N-th turn of one entry), so a transcript read twice adds
nothing.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from memvault.storage import validate
from memvault.storage.errors import InvalidInput
from memvault.storage.records import NewTurn
from memvault.storage.timefmt import parse_iso

DEFAULT_ROOT = Path("~/.claude/projects")  # where Claude Code keeps its transcripts
SKIPPED_FLAGS = ("isMeta", "isCompactSummary", "isSidechain")
# What Claude Code writes for a built-in slash command run in the terminal (/model, /clear ...) and its
# output: no turn of the conversation, unless the command was given arguments (then it says what was asked).
_COMMAND_ONLY = re.compile(
    r"\s*(?:<(command-name|command-message|command-args|local-command-stdout|local-command-stderr)>.*?</\1>\s*)+",
    re.DOTALL)
_COMMAND_ARGS = re.compile(r"<command-args>\s*[^\s<]")


@dataclass(frozen=True)
class Read:
    """A transcript's turns read from a byte offset: ``turns`` as (session id, cwd, turn) in file order;
    ``offset`` the byte after the last line read (where the next read starts); ``names`` the tool name
    of each call id seen (read so far); ``bad`` the numbers of the lines that are not JSON objects (or
    nested too deeply to read) and ``refused`` of the entries skipped because their ``sessionId`` cannot
    be a session id (not 1-128 letters, digits and ``._:-``, or a credential), both counted from the
    read's first line."""

    turns: list[tuple[str, str | None, NewTurn]]
    offset: int
    names: dict[str, str]
    bad: list[int]
    refused: list[int] = field(default_factory=list)


def chunks(
    path: Path, offset: int = 0, session_id: str | None = None, names: dict[str, str] | None = None,
    turns: int | None = None, final: bool = False,
) -> Iterator[Read]:
    """The turns of the lines of ``path`` from byte ``offset``, as :class:`Read` parts of ``turns`` turns
    or a few more (None: one part), each ending at a line end, so that what is stored of one part can be
    remembered by its ``offset`` before the next is read. A last line without its line end is left for
    the next read (Claude Code may be writing it) unless ``final`` (a finished transcript: import).
    ``session_id``: the session of entries that name none (default: the file's name); ``names``: tool
    names of calls an earlier read saw. Raises OSError when the file cannot be read."""
    with open(path, "rb") as fh:
        fh.seek(offset)
        data = fh.read()
    if not final:
        data = data[: data.rfind(b"\n") + 1]
    names = dict(names or {})
    part: list[tuple[str, str | None, NewTurn]] = []
    bad: list[int] = []
    refused: list[int] = []
    ids: dict[str, bool] = {}
    at = start = 0
    for number, raw in enumerate(data.split(b"\n"), 1):
        at += len(raw) + 1
        line = raw.decode("utf-8", errors="replace")
        if line.strip():
            got = _entry(line, session_id or path.stem, names, ids)
            if got is None:
                bad.append(number)
            elif got is False:
                refused.append(number)
            else:
                part.extend(got)
        if turns is not None and len(part) >= turns:
            end = min(at, len(data))
            yield Read(part, offset + end, dict(names), bad, refused)
            part, bad, refused, start = [], [], [], end
    if start < len(data) or start == 0:
        yield Read(part, offset + len(data), names, bad, refused)


def _entry(
    line: str, session_id: str, names: dict[str, str], ids: dict[str, bool]
) -> list[tuple[str, str | None, NewTurn]] | None | Literal[False]:
    """One line's turns; None when it is no readable JSON object; False when its session id is refused
    (``ids`` remembers each id's verdict)."""
    try:
        entry = json.loads(line)
        if not isinstance(entry, dict):
            return None
        made = entry_turns(entry, names)
    except (ValueError, RecursionError):  # RecursionError: nested deeper than Python reads
        return None
    if not made:
        return []
    session = entry.get("sessionId") if isinstance(entry.get("sessionId"), str) else session_id
    if session not in ids:
        ids[session] = usable(session)
    if not ids[session]:
        return False
    cwd = entry.get("cwd") if isinstance(entry.get("cwd"), str) else None
    return [(session, cwd, turn) for turn in made]


def usable(session_id: str) -> bool:
    """Whether ``session_id`` can name a session: ``validate.session_id``'s form and no credential (an id
    is stored and shown as it is)."""
    try:
        validate.no_credential("sessionId", validate.session_id(session_id, "sessionId"))
    except InvalidInput:
        return False
    return True


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
    """(role, text, tool, call id) of each kept part of a message's ``content``. Its text blocks up to a tool
    call or result are one turn, joined as the API joins them (nothing between): a credential written
    across two blocks is redacted whole."""
    if isinstance(content, str):
        if content.strip() and not (_COMMAND_ONLY.fullmatch(content) and not _COMMAND_ARGS.search(content)):
            yield kind, content, None, None
        return
    if not isinstance(content, list):
        return
    text: list[str] = []  # the text blocks since the last turn of another kind: one turn, read whole
    for block in content:
        if not isinstance(block, dict):
            continue
        part = block.get("type")
        if part == "text" and isinstance(block.get("text"), str):
            text.append(block["text"])
            continue
        if part in ("tool_use", "tool_result"):
            joined, text = "".join(text), []
            if joined.strip():
                yield kind, joined, None, None
        if part == "tool_use" and isinstance(block.get("name"), str):
            call_id = block.get("id") if isinstance(block.get("id"), str) else None
            if call_id:
                names[call_id] = block["name"]
            yield "assistant", input_text(block.get("input", {})), block["name"], call_id
        elif part == "tool_result":
            call_id = block.get("tool_use_id") if isinstance(block.get("tool_use_id"), str) else None
            result = _result_text(block.get("content"))
            if block.get("is_error"):
                from memvault.storage.digest import FAILED_MARK

                result = FAILED_MARK + result
            yield "tool", result, names.get(call_id or ""), call_id
    joined = "".join(text)
    if joined.strip():
        yield kind, joined, None, None


def input_text(value: object) -> str:
    """A tool call's input as the text stored: each string field as ``key: value`` with its own line
    breaks (a nested field by its path: ``edits[0].new_string``), other values as JSON, one field a
    line; an empty input as ``{}``. Not JSON: an escaped line break or quote would hide a credential
    from the scanner that redacts the turn (``SECRET_KEY=...`` written into a ``.env``). What the
    scanner must see together stays on one line: a list of one-line scalars as a shell would write it
    (``args: --password X``), and a ``{"name": N, "value": V}`` entry as ``N: V`` (an ``env`` list)."""
    lines: list[str] = []
    _fields(value, "", lines)
    return "\n".join(lines)


_NAME_VALUE = ({"name", "value"}, {"key", "value"}, {"parameterkey", "parametervalue"})


def _fields(value: object, path: str, lines: list[str]) -> None:
    if isinstance(value, dict) and len(value) == 2 and {str(k).lower() for k in value} in _NAME_VALUE \
            and all(isinstance(v, str) and "\n" not in v for v in value.values()):
        name, item = sorted(value.items(), key=lambda kv: "value" in str(kv[0]).lower())
        lines.append(f"{path}.{name[1]}: {item[1]}" if path else f"{name[1]}: {item[1]}")
    elif isinstance(value, dict) and value:
        for key, item in value.items():
            _fields(item, f"{path}.{key}" if path else str(key), lines)
    elif isinstance(value, list) and value and all(
            isinstance(item, (str, int, float)) and "\n" not in str(item) for item in value):
        joined = shlex.join(str(item) for item in value)
        lines.append(f"{path}: {joined}" if path else joined)
    elif isinstance(value, list) and value:
        for i, item in enumerate(value):
            _fields(item, f"{path}[{i}]", lines)
    else:
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        lines.append(f"{path}: {text}" if path else text)


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
    """``path`` itself when a file, else the ``.jsonl`` files under it (recursively), sorted, with the
    links to nothing among them (their import fails, and says so)."""
    if path.is_file():
        return [path]
    return sorted(p for p in path.rglob("*.jsonl") if p.is_file() or (p.is_symlink() and not p.exists()))
