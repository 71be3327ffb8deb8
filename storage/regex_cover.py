"""Strings one of which a text must hold for an RE2 pattern to match in it, read from the pattern's
text: a text that holds none of them holds no match, so the pattern need not be compiled for it (the
named-credential detector compiles its patterns, and the key-format detector its table's rows, only for
the texts that hold one of their strings). It reads inside groups (``(?:a|b)c`` needs "ac" or "bc"),
named and flag groups and small classes, ignores case, and says which characters may follow each string
("pass" then a space, ":" or "=", so "5 passed" is not read as a word for password).

Conservative: syntax it does not take apart makes it answer None (the pattern always runs), and a part
it cannot spell out is read as "any text".
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Any

# A cover: pairs of a string (casefolded) and the characters (each the first of a casefolded character)
# that may follow it in a match, or None when any may (or it ends the match). Every match holds one.
Cover = frozenset[tuple[str, frozenset[str] | None]]

_MOST_SPELLED = 4096  # the most strings a part is spelled out as (the word table's spellings fit)
_CLASS_MOST = 64  # a class of more characters is read as any character
_SPACE = frozenset(" \t\n\r\f\v")  # RE2's \s
_DIGITS = frozenset("0123456789")
_ESCAPED = {"t": "\t", "n": "\n", "r": "\r", "f": "\f", "v": "\v"}
_REPEAT = re.compile(r"(?:[?*+]|\{(\d+)(,(\d*))?\})\??")


class _Unread(Exception):
    """Syntax :func:`cover` does not take apart."""


class _Node:
    """What a part of a pattern matches: ``exact``, every string (None: too many, or unknown); ``cover``, a
    :data:`Cover` of its matches (None: none known); ``first``, the first characters of its non-empty
    matches (None: any); ``nullable``, whether it matches the empty string. Strings casefolded."""

    __slots__ = ("exact", "cover", "first", "nullable")

    def __init__(self, exact: frozenset[str] | None, cover: Cover | None = None,
                 first: frozenset[str] | None = None, nullable: bool = False) -> None:
        self.exact, self.cover = exact, cover
        if exact is not None:
            first, nullable = frozenset(s[0] for s in exact if s), "" in exact
        self.first, self.nullable = first, nullable


_EMPTY = _Node(frozenset({""}))  # an assertion (^, $, \b, a flag group): no character


def _chars(chars: Iterable[str]) -> _Node:
    """A node of one character of ``chars`` (each casefolded)."""
    folded = frozenset(c.casefold() for c in chars)
    if len(folded) <= 8:
        return _Node(folded)
    return _Node(None, first=frozenset(f[0] for f in folded))


_ANY = _Node(None)


def cover(regex: str) -> Cover | None:
    """A :data:`Cover` of ``regex`` (RE2 syntax), with or without ``(?i)``: one of its strings is in a text
    casefolded, followed by one of its characters where it names them, wherever ``regex`` matches the text
    (each character RE2 matches for another without regard to case has the same ``str.casefold``:
    ``tests/test_secret_named_prefilter.py`` checks it). None when there is none, or the pattern holds
    syntax this reading does not take apart."""
    try:
        node, at = _alternation(regex, 0)
    except (_Unread, IndexError, ValueError):
        return None
    if at != len(regex):
        return None
    return _covered(node)


_ENTRY, _FIELD = "\ue000", "\ue001"


def indexed(covers: list[Cover | None]) -> dict[str, Any]:
    """The strings of ``covers`` for :func:`holding`: ``{"count": how many covers, "always": the numbers of
    those None (every text may hold a match), "following": [each set of characters that may follow a string,
    written as one string; "" for any], "index": {its first three characters (or fewer): its strings}}``,
    the strings of one head written as one string (JSON reads one string faster than a list of lists, and
    :func:`holding` splits only those of the heads a text holds): each string, the number of its following
    and the number of its cover, parted by ``_FIELD``, each entry by ``_ENTRY`` (private-use characters,
    which JSON writes as they are)."""
    following: dict[str, int] = {"": 0}
    index: dict[str, list[str]] = {}
    for number, pairs in enumerate(covers):
        for string, chars in sorted(pairs or (), key=lambda p: (p[0], sorted(p[1] or ()))):
            if _FIELD in string or _ENTRY in string:
                raise ValueError(f"a cover's string holds U+E000 or U+E001: {string!r}")
            written = "".join(sorted(chars or ()))
            entry = f"{string}{_FIELD}{following.setdefault(written, len(following))}{_FIELD}{number}"
            index.setdefault(string[:3], []).append(entry)
    return {"count": len(covers), "always": [i for i, c in enumerate(covers) if c is None],
            "following": list(following),
            "index": {head: _ENTRY.join(entries) for head, entries in sorted(index.items())}}


# The characters :func:`holding` reads at most in Python (at the places a head of many strings is), besides ``_LOOK``
# for each character of the text, before it answers every cover: past that, running every pattern costs less than
# the looks would. Each look counts as reading ``_LOOK`` characters (a step of Python's costs about that).
HOLDING_MOST_READ = 1_000_000
_LOOK = 1_000
# A head of more strings than this (the first characters of the thousands of spellings of a spaced-out word, "p a")
# is looked for by RE2 and its strings by Python where it is; the strings of the others by RE2 (a set of every
# string builds too slowly: docs/storage-tuning.md#the-credential-scans-regular-expressions).
_HEAD_STRINGS_MOST = 50


def holding(folded: str, covers: dict[str, Any], most_read: float = HOLDING_MOST_READ, follow: bool = True) -> set[int]:
    """The numbers of the covers (:func:`indexed`) that ``folded``, a text casefolded, holds: one of their
    strings, followed by one of its characters where it names them (when ``follow``); and those that are None.
    One pass of an RE2 set (:func:`_searcher`) finds the strings of most heads and where the other heads are; at
    each place such a head is, its strings are looked for by their lengths (:func:`_by_length`); every cover once
    those looks would read more than ``most_read`` characters and ``_LOOK`` a character of ``folded``."""
    searcher, heads = _searcher(covers, follow)
    follows, found, budget = covers["following"], set(covers["always"]), most_read + _LOOK * len(folded)
    for number in searcher.Match(folded.encode("utf-8", "surrogatepass")) or ():
        if number >= len(heads):
            found.add(number - len(heads))
            continue
        head = heads[number]
        strings, lengths = _by_length(covers["index"][head])
        start = 0
        while (at := folded.find(head, start)) >= 0:
            budget -= max(_LOOK * len(lengths), at + len(head) - start)
            if budget < 0:
                return set(range(covers["count"]))
            for length in lengths:
                end = at + length
                for following, cover_number in strings.get(folded[at:end], ()) if end <= len(folded) else ():
                    chars = follows[following] if follow else ""
                    if not chars or (end < len(folded) and folded[end] in chars):
                        found.add(cover_number)
            start = at + 1
    return found


def _searcher(covers: dict[str, Any], follow: bool) -> tuple[Any, list[str]]:
    """An RE2 set over a text casefolded, and the heads of more than ``_HEAD_STRINGS_MOST`` strings of ``covers``:
    its pattern ``i`` below their count finds head ``i``; pattern ``count + n`` the strings of cover ``n`` of the
    other heads, each followed by one of its characters where it names them (and ``follow``). Built once for
    ``covers`` (kept in it)."""
    built = covers.get(("searcher", follow))
    if built is not None:
        return built  # type: ignore[no-any-return]
    from .secret_re2 import pattern_set

    heads = [head for head, entries in covers["index"].items() if entries.count(_ENTRY) >= _HEAD_STRINGS_MOST]
    strings: dict[int, list[str]] = {}
    for head, entries in covers["index"].items():
        if entries.count(_ENTRY) < _HEAD_STRINGS_MOST:
            for entry in entries.split(_ENTRY):
                string, following, number = entry.split(_FIELD)
                chars = covers["following"][int(following)] if follow else ""
                strings.setdefault(int(number), []).append(
                    _literal(string) + (f"[{_literal(chars)}]" if chars else ""))
    searcher = pattern_set([*map(_literal, heads), *(  # (an empty class matches nothing)
        "|".join(strings.get(number, ())) or "[^\\x00-\\x{10FFFF}]" for number in range(covers["count"]))])
    covers[("searcher", follow)] = searcher, heads
    return searcher, heads


# ASCII punctuation escaped for RE2 (in a class too); every other character stands for itself.
_ESCAPES = str.maketrans({c: "\\" + c for c in map(chr, range(33, 127)) if not c.isalnum()})


def _literal(chars: str) -> str:
    """``chars`` written for RE2, each matched as itself."""
    return chars.translate(_ESCAPES)


@functools.lru_cache(maxsize=4096)
def _by_length(entries: str) -> tuple[dict[str, list[tuple[int, int]]], tuple[int, ...]]:
    """A head's entries (:func:`indexed`) as ``{string: [(its following's number, its cover's number)]}``
    and the lengths of those strings, sorted."""
    strings: dict[str, list[tuple[int, int]]] = {}
    for entry in entries.split(_ENTRY):
        string, following, number = entry.split(_FIELD)
        strings.setdefault(string, []).append((int(following), int(number)))
    return strings, tuple(sorted({len(string) for string in strings}))


def _covered(node: _Node) -> Cover | None:
    if node.exact is not None:
        return _pairs(node.exact, None)
    return node.cover


def _pairs(strings: frozenset[str], following: frozenset[str] | None) -> Cover | None:
    if "" in strings:
        return None
    return frozenset((s, following) for s in strings)


def _better(a: Cover | None, b: Cover | None) -> Cover | None:
    """The more selective of two covers: the longer shortest string (a character that must follow it
    counted as one more), then the fewer strings."""
    if b is None:
        return a
    if a is None:
        return b
    return max(a, b, key=lambda c: (min(len(s) + (f is not None) for s, f in c), -len(c)))


def _alternation(regex: str, at: int) -> tuple[_Node, int]:
    """The alternatives from ``at`` to the ``)`` closing them (not read) or the end."""
    nodes = []
    while True:
        node, at = _sequence(regex, at)
        nodes.append(node)
        if at < len(regex) and regex[at] == "|":
            at += 1
            continue
        break
    if len(nodes) == 1:
        return nodes[0], at
    if all(n.exact is not None for n in nodes):
        union = frozenset().union(*(n.exact for n in nodes))  # type: ignore[misc]
        if len(union) <= _MOST_SPELLED:
            return _Node(union), at
    covers = [_covered(n) for n in nodes]
    firsts = [n.first for n in nodes]
    return _Node(None, None if None in covers else frozenset().union(*covers),  # type: ignore[misc]
                 None if None in firsts else frozenset().union(*firsts),  # type: ignore[misc]
                 any(n.nullable for n in nodes)), at


def _sequence(regex: str, at: int) -> tuple[_Node, int]:
    """The atoms from ``at`` to a ``|`` or ``)`` (not read) or the end: the strings of adjacent atoms each
    matching one of a few strings spelled out together, with what may follow them, or the cover of an atom
    every match needs: whichever is the more selective."""
    items: list[tuple[_Node, int]] = []  # each atom, and the least times it is repeated (2: more than once)
    while at < len(regex) and regex[at] not in "|)":
        node, at = _atom(regex, at)
        low, most, at = _repeat(regex, at)
        if low == 0 and most == 1 and node.exact is not None:
            node, low = _Node(node.exact | {""}), 1  # x? is x or nothing
        items.append((node, low))

    def following(k: int) -> frozenset[str] | None:
        """The first characters of what the atoms from ``k`` match; None: any, or they may match nothing
        (then what follows the sequence comes next)."""
        found: set[str] = set()
        for node, low in items[k:]:
            if node.first is None:
                return None
            found |= node.first
            if low >= 1 and not node.nullable:
                return frozenset(found)
        return None

    run: frozenset[str] = frozenset({""})
    best: Cover | None = None
    whole = True  # every atom so far spelled out
    for k, (node, low) in enumerate(items):
        if low == 1 and node.exact is not None:
            spelled = frozenset(a + b for a in run for b in node.exact)
            if len(spelled) <= _MOST_SPELLED:
                run = spelled
                continue
            best, run, whole = _better(best, _pairs(run, following(k))), node.exact, False
            continue
        whole = False
        best = _better(best, _pairs(run, following(k)))
        if low >= 1:  # needed once at least, but not spelled out with its neighbours
            best = _better(best, _covered(node))
        run = frozenset({""})
    if whole:
        return _Node(run), at
    first: set[str] | None = set()
    nullable = True
    for node, low in items:
        if node.first is None:
            first = None
            nullable = nullable and (low == 0 or node.nullable)
            break
        first |= node.first
        if low >= 1 and not node.nullable:
            nullable = False
            break
    if first is not None and nullable:
        first = None  # what follows the sequence may come first
    return _Node(None, _better(best, _pairs(run, None)), None if first is None else frozenset(first),
                 nullable), at


def _repeat(regex: str, at: int) -> tuple[int, int | None, int]:
    """The least count of a repeat at ``at`` (1 when none; 2: once or more, but not spelled out), its
    most (None: no bound), and the offset after it."""
    found = _REPEAT.match(regex, at)
    if not found:
        return 1, 1, at
    text = found.group()
    if text[0] in "?*+":
        return {"?": (0, 1), "*": (0, None), "+": (2, None)}[text[0]] + (found.end(),)
    low = int(found.group(1))
    most = low if not found.group(2) else (int(found.group(3)) if found.group(3) else None)
    if most is not None and most < low:
        raise _Unread
    return (0 if low == 0 else 1 if low == most == 1 else 2), most, found.end()


def _atom(regex: str, at: int) -> tuple[_Node, int]:
    """One atom at ``at``: a character, an escape, a class, a group or an assertion."""
    c = regex[at]
    if c == "\\":
        return _escape(regex, at)
    if c == "[":
        return _class(regex, at)
    if c == "(":
        return _group(regex, at)
    if c in "^$":
        return _EMPTY, at + 1
    if c == ".":
        return _ANY, at + 1
    if c in "?*+{}]":
        raise _Unread
    return _chars(c), at + 1


def _escape(regex: str, at: int) -> tuple[_Node, int]:
    """The escape at ``at``: ``\\s`` and ``\\d`` as their characters, ``\\n`` and the like as the character,
    ``\\b``, ``\\B``, ``\\A``, ``\\z`` as no character, an escaped symbol as itself, ``\\p``, ``\\x`` and
    the other classes as any character."""
    e = regex[at + 1]
    if e in ("p", "P", "x"):
        if regex.startswith("{", at + 2):
            end = regex.find("}", at + 2)
            if end < 0:
                raise _Unread
            return _ANY, end + 1
        return _ANY, at + (3 if e != "x" else 4)
    if e in "bBAz":
        return _EMPTY, at + 2
    if e in _ESCAPED:
        return _chars(_ESCAPED[e]), at + 2
    if e == "s":
        return _chars(_SPACE), at + 2
    if e == "d":
        return _chars(_DIGITS), at + 2
    if e in "QEC" or e.isdigit():
        raise _Unread
    if e.isalnum():  # \w, \S, \D...
        return _ANY, at + 2
    return _chars(e), at + 2


def _class(regex: str, at: int) -> tuple[_Node, int]:
    """The class at ``at``: its characters when it is not negated and holds a few (ranges spelled out,
    ``\\s``, ``\\d``, escapes), else any character."""
    i = at + 1
    if regex.startswith("^", i):
        members = None
        i += 1
    else:
        members = set()
    first = True
    while True:
        if i >= len(regex):
            raise _Unread
        c = regex[i]
        if c == "]" and not first:
            end = i + 1
            break
        first = False
        if c == "[":
            if regex.startswith("[:", i):
                close = regex.find(":]", i + 2)
                if close < 0:
                    raise _Unread
                i, members = close + 2, None
                continue
            char, i = c, i + 1
        elif c == "\\":
            e = regex[i + 1]
            if e in ("p", "P", "x"):
                i = (regex.index("}", i) + 1) if regex.startswith("{", i + 2) else i + (3 if e != "x" else 4)
                members = None
                continue
            i += 2
            if e in _ESCAPED:
                char = _ESCAPED[e]
            elif e == "s" or e == "d":
                if members is not None:
                    members |= _SPACE if e == "s" else _DIGITS
                continue
            elif e.isalnum():
                members = None
                continue
            else:
                char = e
        else:
            char, i = c, i + 1
        if regex.startswith("-", i) and not regex.startswith("-]", i):  # a range
            high, i = regex[i + 1], i + 2
            if high == "\\":
                high, i = regex[i], i + 1
                if high.isalnum():
                    raise _Unread
            if members is not None:
                if ord(high) - ord(char) >= _CLASS_MOST:
                    members = None
                else:
                    members |= {chr(o) for o in range(ord(char), ord(high) + 1)}
            continue
        if members is not None:
            members.add(char)
    if members is None or not members or len(members) > _CLASS_MOST:
        return _ANY, end
    return _chars(members), end


def _group(regex: str, at: int) -> tuple[_Node, int]:
    """The group at ``at``: a flag group ``(?i)`` is no character; ``(?:``, ``(?P<name>``, ``(?i:``,
    ``(?-i:`` and ``(`` are read as their alternatives."""
    start = at + 1
    if regex.startswith("?", start):
        flags = re.match(r"\?[imsU-]*([:)])", regex[start:start + 12])
        named = re.match(r"\?P?<\w+>", regex[start:start + 64])
        if flags:
            if flags.group(1) == ")":
                return _EMPTY, start + flags.end()
            start += flags.end()
        elif named:
            start += named.end()
        else:
            raise _Unread
    node, end = _alternation(regex, start)
    if end >= len(regex) or regex[end] != ")":
        raise _Unread
    return node, end + 1
