"""The strings a regular expression needs: a text that holds none of them holds no match, so a
pattern can be left out for it (``secret_plugins.KeyFormatDetector`` compiles only the rows of its table
a text can hold). Read from the pattern's text, conservatively: what this reading does not take apart,
it answers None for (the pattern is then always run)."""

from __future__ import annotations

import re
from collections.abc import Iterator

# A repeat: it makes the character or group before it optional or repeated.
_REPEAT = re.compile(r"(?:[?*+]|\{\d+(?:,\d*)?\})\??")


def required_literals(regex: str) -> tuple[str, ...] | None:
    """Strings one of which a text holds wherever ``regex`` matches in it: for each alternative at the
    top level, its longest run of characters matched as written (not in a group, a class or a repeat).
    None when an alternative has no such run, or holds syntax this reading does not take apart (a flag,
    ``\\p``, ``\\x``, ``\\Q``, a group other than ``(?:``): the caller then always runs it."""
    alternatives = _alternatives(regex)
    if alternatives is None:
        return None
    runs = [_longest_run(alternative) for alternative in alternatives]
    return None if None in runs or "" in runs else tuple(runs)  # type: ignore[arg-type]


def _class_end(regex: str, at: int) -> int:
    """The offset after the class ``[...]`` starting at ``at`` (a ``]`` first in it is a member)."""
    i = at + 1 + regex.startswith("^", at + 1)
    i += regex.startswith("]", i)
    while i < len(regex) and regex[i] != "]":
        i += 2 if regex[i] == "\\" else 1
    return i + 1


def _tops(regex: str, at: int = 0) -> Iterator[tuple[int, str, int]]:
    """Each character of ``regex`` from ``at`` outside escapes and classes, as (offset, character,
    group depth after it); then (the offset reached, "", depth): past ``len(regex)`` when an escape
    or a class is cut short."""
    depth, i = 0, at
    while i < len(regex):
        c = regex[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            i = _class_end(regex, i)
            continue
        depth += (c == "(") - (c == ")")
        yield i, c, depth
        i += 1
    yield i, "", depth


def _alternatives(regex: str) -> list[str] | None:
    """``regex``'s alternatives at its top level, or None when a group or a class is not closed."""
    pieces, start = [], 0
    for i, c, depth in _tops(regex):  # the last: where the walk ended, and the depth there
        if c == "|" and depth == 0:
            pieces.append(regex[start:i])
            start = i + 1
    return None if depth != 0 or i > len(regex) else [*pieces, regex[start:]]


def _group_end(regex: str, at: int) -> int:
    """The offset after the group starting at ``at``."""
    for i, c, depth in _tops(regex, at):
        if not c:
            break
        if depth == 0:
            return i + 1
    return len(regex) + 1


def _longest_run(alternative: str) -> str | None:
    """The longest run of characters ``alternative`` matches as written; None: syntax not taken apart."""
    runs, run, i = [""], "", 0
    while i < len(alternative):
        c, literal = alternative[i], None
        if c == "\\":
            escaped = alternative[i + 1:i + 2]
            if escaped in ("", "p", "P", "x", "Q", "E", "C") or escaped.isdigit():
                return None
            literal = None if escaped.isalnum() else escaped  # \d, \s, \b...: no character as written
            i += 2
        elif c == "[":
            i = _class_end(alternative, i)
        elif c == "(":
            if not alternative.startswith("(?:", i):
                return None
            i = _group_end(alternative, i)
            if i > len(alternative):
                return None
        elif c in ".^$":
            i += 1
        elif c in "?*+{})|]":
            return None  # a repeat of nothing, or a bracket out of place: not taken apart
        else:
            literal, i = c, i + 1
        repeat = _REPEAT.match(alternative, i)
        if repeat:
            i = repeat.end()
        if literal is not None and not repeat:
            run += literal
        else:
            runs.append(run)
            run = ""
    return max([*runs, run], key=len)
