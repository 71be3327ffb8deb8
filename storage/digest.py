"""A session's digest without a model: deterministic and extractive, what was asked, where it left off
(the last assistant message), which tools ran, which memories were stored or changed, and errors seen,
within ``limits.DIGEST_MAX_TOKENS`` literal tokens."""

from __future__ import annotations

import re
from collections import Counter

from .limits import CONTENT_MAX_CHARS, DIGEST_MAX_TOKENS, ID_PREFIX_MIN_CHARS
from .literal import literal_tokens
from .records import Session, Turn
from .timefmt import format_ms

# memvault's own tools that store or change a memory, as a client names them (Claude Code
# prefixes an MCP server's tools: ``mcp__memvault__remember``).
CHANGING_TOOLS = ("remember", "supersede", "forget")
OWN_PREFIX = "mcp__memvault__"
ASKED_WORDS = 12  # words of each user turn the digest quotes
ERROR_WORDS = 12  # words of an error's line
WHERE_CHARS = 200  # of the client's name and working directory
QUOTE_CHARS = 120  # of each quoted entry (a user turn's or an error's words)
# Of the session's last assistant message, quoted as where it left off ("Next: add a retry ..."): about 60
# tokens, so that the asked, tools and errors lines keep most of the digest's budget.
LAST_REPLY_WORDS = 40
LAST_REPLY_CHARS = 240
_ERROR = re.compile(r"\b(?:error|failed|failure|fatal|panic)\b|(?-i:[a-z](?:Error|Exception))\b|\bERR!|Traceback",
                    re.IGNORECASE)
# What a captured tool result that failed starts with (``server/transcripts``: Claude Code's ``is_error``): a
# mark, not the output's words, so it is no error line of its own.
FAILED_MARK = "error: "
_TRACEBACK = "Traceback (most recent call last)"
_MEMORY_ID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")


def _words(text: str, count: int, chars: int = QUOTE_CHARS) -> str:
    """The first ``count`` words of ``text``, at most ``chars`` characters (a pasted blob
    is one word), "..." when cut."""
    words = text.split()
    quoted = " ".join(words[:count])
    cut = len(words) > count or len(quoted) > chars
    return quoted[:chars] + (" ..." if cut else "")


def last_reply(turns: list[Turn]) -> str | None:
    """The session's last assistant message (one with text, not a tool call), its last
    ``LAST_REPLY_WORDS`` words and ``LAST_REPLY_CHARS`` characters (a long answer ends with what
    comes next), quoted: where the session left off. None when it has none."""
    last = next((t for t in reversed(turns) if t.role == "assistant" and t.tool is None and t.text.strip()), None)
    if last is None:
        return None
    words = last.text.split()
    quoted = " ".join(words[-LAST_REPLY_WORDS:])
    cut = len(words) > LAST_REPLY_WORDS or len(quoted) > LAST_REPLY_CHARS
    return f'"{"... " if cut else ""}{quoted[-LAST_REPLY_CHARS:]}"'


def error_line(text: str) -> str | None:
    """The line of a tool's output that says its error: the last traceback's exception (its first line
    after the frames, which are indented), else the first line holding an error word (``_ERROR``), else,
    for a result marked failed (``FAILED_MARK``), its first line that is not blank, marked; None for output
    that says no error. The mark itself is no error word."""
    lines = text.splitlines()
    marked = bool(lines) and lines[0].startswith(FAILED_MARK)
    if marked:
        lines[0] = lines[0][len(FAILED_MARK):]
    exception = None
    for i, line in enumerate(lines):
        if line.lstrip().startswith(_TRACEBACK):
            indent = len(line) - len(line.lstrip())
            exception = next((x for x in lines[i + 1:] if x.strip() and len(x) - len(x.lstrip()) <= indent
                              and not x.lstrip().startswith(_TRACEBACK)), exception)
    if exception is not None:
        return exception.strip()
    found = next((x for x in lines if _ERROR.search(x)), None)
    if found is None and marked:  # failed, in no words of its own: its first line, marked as the result was
        found = FAILED_MARK + next((x for x in lines if x.strip()), "").strip()
    return None if found is None else found.strip()


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _own_tool(name: str | None) -> str | None:
    """The memvault tool that changes memories ``name`` calls, else None."""
    bare = (name or "").removeprefix(OWN_PREFIX)
    return bare if bare in CHANGING_TOOLS else None


def _calls(turns: list[Turn]) -> list[list[Turn]]:
    """The tool calls, each its turns: the request (an assistant turn naming a tool), then its result (a tool
    turn), which share a call id; without one, a result goes with the request just before it of the same tool.
    A request without a result (the last before ``/exit``) is a call, as is a result without its request."""
    calls: dict[str | int, list[Turn]] = {}
    for turn in turns:
        if turn.role == "tool" or turn.role == "assistant" and turn.tool is not None:
            key: str | int = turn.call_id or turn.seq
            last = next(reversed(calls.items()), None)
            if turn.call_id is None and turn.role == "tool" and last is not None and isinstance(last[0], int) \
                    and [(t.role, t.tool) for t in last[1]] == [("assistant", turn.tool)]:
                key = last[0]
            calls.setdefault(key, []).append(turn)
    return list(calls.values())


def parts(session: Session, turns: list[Turn]) -> tuple[str, list[str], list[str], list[str], list[str]]:
    """The digest's pieces: the head line, what was asked (one entry a user turn), the tools
    that ran with their counts, the memory changes and the errors (one entry each), before fitting."""
    calls = _calls(turns)
    users = [t for t in turns if t.role == "user" and t.text.strip()]
    where = ", ".join(x[:WHERE_CHARS] for x in (session.client, session.cwd) if x)
    # A plain lead: questions about last time ("where did we leave off?") share its words.
    head = (f"Recap of a working session{f' ({where})' if where else ''}, {format_ms(session.started_at)} to "
            f"{format_ms(session.last_at)}: what we worked on and where we left off. Session {session.id}: "
            f"{_count(len(turns), 'turn')}, {len(users)} from the user, {_count(len(calls), 'tool call')}.")
    asked = [f'"{_words(t.text, ASKED_WORDS)}"' for t in users]
    counts = Counter(call[0].tool or "unnamed tool" for call in calls)
    unanswered = Counter(call[0].tool or "unnamed tool" for call in calls if call[-1].role != "tool")
    tools = [f"{name} x{n}" + (f" ({unanswered[name]} with no result)" if unanswered[name] else "")
             for name, n in sorted(counts.items(), key=lambda c: (-c[1], c[0]))]
    changes, errors = [], []
    for call in calls:
        results = [t for t in call if t.role == "tool"]  # a request's input is no outcome ("grep error")
        own = _own_tool(call[0].tool)
        if own is not None:
            ids = dict.fromkeys(m[:ID_PREFIX_MIN_CHARS] for t in results for m in _MEMORY_ID.findall(t.text))
            changes.append(f"{own} {' '.join(ids)}".strip())
        said = next(((t, line) for t in results if (line := error_line(t.text)) is not None), None)
        if said is not None:
            name = call[0].tool or "unnamed tool"
            errors.append(f'{name} (turn {said[0].seq}): "{_words(said[1], ERROR_WORDS)}"')
    return head, asked, tools, changes, errors


def _line(name: str, entries: list[str], more: int) -> list[str]:
    """``Name: a; b; and 3 more``, or no line when there is nothing to say."""
    if not entries and not more:
        return []
    return [f"{name}: " + "; ".join(entries) + (f"; and {more} more" if more else "")]


def _text(head: str, asked: list[str], more_asked: int, tools: str, changes: list[str], more_changes: int,
          errors: list[str], more_errors: int, reply: str | None = None) -> str:
    tools_line = [f"Tools: {tools}."] if tools else []
    return "\n".join([head, *_line("Asked", asked, more_asked), *tools_line,
                      *_line("Memories", changes, more_changes), *_line("Errors", errors, more_errors),
                      *([f"Left off with: {reply}"] if reply else [])])


def digest(session: Session, turns: list[Turn], max_tokens: int = DIGEST_MAX_TOKENS) -> str:
    """The digest of ``session`` (its ``turns`` in seq order), at most ``max_tokens`` literal
    tokens and ``CONTENT_MAX_CHARS`` characters (it is stored as a memory): entries are dropped from the end of the longest list (asked, errors, memory
    changes) until it fits, each list then saying how many more there were; the tools line
    is cut by its last tools the same way."""
    head, asked, tools, changes, errors = parts(session, turns)
    reply = last_reply(turns)  # where it left off: the last line, never cut (the lists are)
    kept = [_fitting(asked, max_tokens), _fitting(errors, max_tokens), _fitting(changes, max_tokens)]
    kept_tools = len(tools)

    def text() -> str:
        shown_tools = ", ".join(tools[:kept_tools]) + (
            f", and {len(tools) - kept_tools} more" if kept_tools < len(tools) else "")
        return _text(head, asked[:kept[0]], len(asked) - kept[0], shown_tools, changes[:kept[2]],
                     len(changes) - kept[2], errors[:kept[1]], len(errors) - kept[1], reply)

    current = text()
    while literal_tokens([current])[0] > max_tokens or len(current) > CONTENT_MAX_CHARS:  # type: ignore[operator]
        longest = max(range(3), key=lambda i: kept[i])
        if kept[longest] > 0:
            kept[longest] -= 1
        elif kept_tools > 0:
            kept_tools -= 1
        else:
            break  # the head line alone
        current = text()
    return current


def _fitting(entries: list[str], max_tokens: int) -> int:
    """How many of the first ``entries`` fit ``max_tokens`` alone (bounds the fitting's steps)."""
    total = 0
    for i, tokens in enumerate(literal_tokens(entries)):  # type: ignore[arg-type]
        total += tokens  # type: ignore[operator]
        if total > max_tokens:
            return i
    return len(entries)
