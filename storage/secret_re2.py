"""Credential patterns run by RE2 (google-re2), in time linear in the text searched.

detect-secrets' patterns are written for Python's backtracking ``re``, and several take
quadratic or cubic time on text an attacker chooses (its keyword plugin on
``"PASSWORD" * 200``, the npm plugin on a run of ``/``, the assignment patterns of the
Cloudant and IBM plugins on a run of spaces). RE2 matches any pattern in linear time, so
:func:`linear_source` rewrites each plugin's patterns for it; RE2 has no look-around, so the
few look-aheads of those patterns are rewritten to consume the character they looked at,
outside any group. :func:`find` runs a :class:`Detector`'s patterns over a whole text.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
import string
from collections.abc import Iterable, Iterator
from typing import Any, ClassVar

import re2

OPTIONS = re2.Options()
OPTIONS.log_errors = False  # a pattern RE2 refuses raises; nothing is written to stderr
# The key format table's one pattern, and the prose grammar's, outgrow RE2's default 8 MiB of DFA memory on a long run
# of key characters, and RE2 then falls back to its far slower NFA: 32 MiB for those patterns alone (the DFA grows to it
# only on such input; docs/storage-tuning.md#the-credential-scans-regular-expressions).
TABLE_OPTIONS = re2.Options()
TABLE_OPTIONS.log_errors, TABLE_OPTIONS.max_mem = False, 32 << 20
# RE2's DFA starts only with room for 20 states as large as its program's instruction list, else every search runs
# the far slower NFA: the prose grammar (some 340,000 instructions) needs 48 MiB (bench/secret_scan.py).
GRAMMAR_OPTIONS = re2.Options()
GRAMMAR_OPTIONS.log_errors, GRAMMAR_OPTIONS.max_mem = False, 64 << 20


def compile_linear(source: str, options: Any = OPTIONS) -> Any:
    """``source`` compiled by RE2 (linear time in the text searched), ``^`` and ``$`` at
    each line's ends: a text is searched whole, not line by line."""
    return re2.compile("(?m)" + source, options)


# detect-secrets' look-arounds: ``(?!\w)`` / ``(?![...])``, perhaps closing a group, and
# build_assignment_regex's ``(?:(?<=\W)|(?<=^))``.
_LOOKAHEAD = re.compile(r"\(\?!(\\w|\[[^\]]*\])\)(\))?")
_LOOKBEHIND = "(?:(?<=\\W)|(?<=^))"
_LONG_REPEAT = re.compile(r"\{(\d+),\d{4,}\}")  # RE2 repeats at most 1,000 times


def linear_source(pattern: re.Pattern[str]) -> str:
    """A detect-secrets pattern's source for RE2 (:func:`compile_linear`): each look-ahead becomes the
    class it refused or the end of the line, consumed outside the group it closed (so a value found is
    the same), the look-behind the start of the line or a non-word character, and a repeat of more
    than 1,000 open-ended."""

    def ahead(match: re.Match[str]) -> str:
        refused = match.group(1)
        allowed = "\\W" if refused == "\\w" else "[^" + refused[1:]
        return (match.group(2) or "") + f"(?:{allowed}|$)"

    source = _LONG_REPEAT.sub(r"{\1,}", _LOOKAHEAD.sub(ahead, pattern.pattern.replace(_LOOKBEHIND, "(?:^|\\W)")))
    flags = ("i" if pattern.flags & re.IGNORECASE else "") + ("s" if pattern.flags & re.DOTALL else "")
    return f"(?{flags}){source}" if flags else source


class Detector:
    """A credential detector: what a refusal calls what it finds (``secret_type``, see
    ``secrets.LABELS``) and its RE2 patterns (``denylist``), each run over a whole text by :func:`find`."""

    secret_type: ClassVar[str]
    denylist: list[Any]


@functools.lru_cache(maxsize=4)
def utf8(text: str) -> tuple[bytes, list[int] | None]:
    """``text`` in UTF-8, and the byte offset of each of its characters (None: ASCII, the same). RE2's wrapper encodes a
    ``str`` whole, and counts up to the offset asked, at every call: a row matched at each of many matches of a long
    text would take quadratic time (docs/storage-tuning.md#the-credential-scans-regular-expressions)."""
    if text.isascii():
        return text.encode(), None
    widths = (1 if c < "\x80" else 2 if c < "\u0800" else 3 if c < "\U00010000" else 4 for c in text)
    return text.encode("utf-8", "surrogatepass"), [0, *itertools.accumulate(widths)]


def pattern_set(sources: Iterable[str]) -> Any:
    """An RE2 set (``RE2::Set``, unanchored) of ``sources``, whose ``Match(bytes)`` gives the numbers of those that
    match somewhere, in one pass (a set's DFA keeps on when its memory fills, where a pattern's gives up)."""
    options = re2.Options()
    options.log_errors, options.max_mem = False, 64 << 20
    searcher = re2.Set.SearchSet(options)
    for source in sources:
        searcher.Add(source)
    searcher.Compile()
    return searcher


@functools.lru_cache(maxsize=8)
def _pattern_set(patterns: tuple[Any, ...]) -> Any:
    """:func:`pattern_set` of ``patterns`` (:func:`compile_linear`'s, default options), built once."""
    return pattern_set(pattern.pattern for pattern in patterns)


def unmatched(patterns: tuple[Any, ...], text: str) -> frozenset[Any]:
    """Those of ``patterns`` that match nowhere in ``text``, found in one pass (:func:`pattern_set`): :func:`find`
    skips them, where a search each cost some fifty passes over every short text."""
    held = _pattern_set(patterns).Match(utf8(text)[0]) or ()
    return frozenset(patterns).difference(patterns[i] for i in held)


def find(detector: Any, text: str, skipped: frozenset[Any] = frozenset()) -> Iterator[tuple[int, str | None, str, int]]:
    """``(offset, label or None, value, end)`` of each value ``detector`` finds in ``text``, each pattern
    (its ``denylist``, or those its ``patterns(text)`` gives for this text: :class:`KeyFormatDetector`)
    run once over the whole text (a generator: the caller stops when it has enough). A value is
    what the plugin's own ``analyze_string`` would yield (every group that matched, or the whole
    match), kept when the plugin's own check of it (a JWT's ``is_formally_valid``) passes. ``end``:
    where the credential ends, the match's end when the value starts it (GitHub's pattern
    captures only the token's prefix), else (and for a named credential) the value's. The patterns of
    ``skipped`` match nowhere in ``text`` (:func:`unmatched`): not run."""
    values = getattr(detector, "values", None)
    valid = getattr(detector, "is_formally_valid", None)
    kept = getattr(detector, "patterns", None)
    encoded, offsets = utf8(text)
    chars = None if offsets is None else _char_offsets(text)
    for pattern in detector.denylist if kept is None else kept(text):
        if pattern in skipped:
            continue
        for found_bytes in matches(pattern, encoded):
            match = _TextMatch(found_bytes, text, chars)
            found = values(match) if values else ((None, v) for v in (match.groups() or (match.group(0),)) if v)
            for label, value in found:
                if valid is None or valid(value):  # at the value: a match may start at the line break before it
                    at = match.start() + match.group(0).find(value)
                    whole_match = values is None and at == match.start()  # named values are whole
                    yield at, label, value, _key_end(text, at + len(value), match.end()) if whole_match \
                        else at + len(value)


# A large program is slow to give a match's groups (its NFA or BitState set up for the whole program), and as slow again
# to find where a match starts when its reversed program's DFA has no room to start (the prose grammar's at 64 MiB, and
# four others'; docs/storage-tuning.md#the-credential-scans-regular-expressions). After this many matches in a text this
# long, its twin takes over (:func:`matches`), with this much memory an instruction (bench/secret_scan.py). Not from the
# first match: as fast on short texts, but compiling every twin doubles a cold first check (bench/secret_twin.py).
LARGE_PROGRAM = 4000
MANY_MATCHES_BYTES = 4096
TWIN_AFTER = 64
BYTES_PER_INSTRUCTION = 768


def matches(pattern: Any, encoded: bytes) -> Iterator[Any]:
    """``pattern.finditer(encoded)``, the same matches with the same groups. In a long text, after ``TWIN_AFTER``
    matches of a large program, the rest are found by its twin (:func:`twin`: RE2 runs only its DFAs) and each one's
    groups read once for every match of the same bytes between the same neighbours (RE2 reads them from those alone:
    the match anchored at both ends, its empty-width assertions looking one byte out): a repeated shape's thousands
    of matches read them once. The twin is compiled only for such a text."""
    found = pattern.finditer(encoded)
    if len(encoded) < MANY_MATCHES_BYTES or pattern.programsize < LARGE_PROGRAM:
        yield from found
        return
    end = 0
    for count, match in enumerate(found, start=1):
        yield match
        end = match.end()
        if count >= TWIN_AFTER and end > match.start():  # the next search starts at its end
            break
    else:
        return
    known: dict[tuple[bytes, bytes, bytes], tuple[int | None, tuple[tuple[int, int], ...]]] = {}
    for span in twin(pattern).finditer(encoded, end):
        start, end = span.span()
        key = (encoded[start - 1:start] if start else b"", encoded[start:end], encoded[end:end + 1])
        read = known.get(key)
        if read is None:
            match = pattern.match(encoded, start, end)
            read = known[key] = (match.lastindex, tuple(
                (-1, -1) if match.start(g) < 0 else (match.start(g) - start, match.end(g) - start)
                for g in range(pattern.groups + 1)))
        yield _Moved(pattern, encoded, start, *read)


@functools.lru_cache(maxsize=256)
def twin(pattern: Any) -> Any:
    """``pattern`` with each capturing group made non-capturing (the same language and the same matches), with
    ``BYTES_PER_INSTRUCTION`` of memory for each instruction of its program when that is more than its own."""
    options = re2.Options()
    for name in re2.Options.NAMES:
        setattr(options, name, getattr(pattern.options, name))
    options.max_mem = max(options.max_mem, BYTES_PER_INSTRUCTION * pattern.programsize)
    compiled = re2.compile(uncaptured(pattern.pattern), options)
    if compiled.groups:
        raise ValueError(f"pattern: a capturing group left in {pattern.pattern[:80]!r}")
    return compiled


_GROUP_OPENING = re.compile(r"\\.|\[\^?\]?(?:\[:[a-z]+:\]|\\.|[^\]])*\]|\((?:\?P?<\w+>)?(?!\?)")


def uncaptured(source: str) -> str:
    """RE2 ``source`` with each capturing group, named (``(?P<name>``, ``(?<name>``) or not, made ``(?:``;
    escapes and character classes left as they are."""
    return _GROUP_OPENING.sub(lambda m: "(?:" if m.group().startswith("(") else m.group(), source)


class _Moved:
    """An RE2 match of :func:`matches` rebuilt from its ``lastindex`` and its groups' ``spans`` relative to ``start``:
    what :class:`_TextMatch` reads of one (``re``, ``lastindex``, ``start``, ``end``, ``group``, ``groups``)."""

    __slots__ = ("re", "_encoded", "_start", "lastindex", "_spans")

    def __init__(self, pattern: Any, encoded: bytes, start: int, lastindex: int | None,
                 spans: tuple[tuple[int, int], ...]) -> None:
        self.re, self._encoded, self._start, self.lastindex, self._spans = pattern, encoded, start, lastindex, spans

    def start(self, group: int = 0) -> int:
        at = self._spans[group][0]
        return at if at < 0 else self._start + at

    def end(self, group: int = 0) -> int:
        at = self._spans[group][1]
        return at if at < 0 else self._start + at

    def group(self, group: int = 0) -> bytes | None:
        start, end = self._spans[group]
        return None if start < 0 else self._encoded[self._start + start:self._start + end]

    def groups(self) -> tuple[bytes | None, ...]:
        return tuple(self.group(g) for g in range(1, len(self._spans)))


_KEY_CHARS = frozenset(string.ascii_letters + string.digits + "_-+/=.")


_KEY_RUN = re.compile(r"[A-Za-z0-9_\-+/=.]+")  # a run of ``_KEY_CHARS``


def _key_end(text: str, least: int, end: int) -> int:
    """``end`` moved back over what a pattern took after the key (its boundary: the line break or
    space that follows a GitLab token), never before ``least``: the marker keeps the next line's; then
    on to the end of the run of key characters it stops in: a pattern may stop inside the key
    (detect-secrets' JSON Web Token pattern ends lazily after the payload, before the signature)."""
    while end > least and text[end - 1] not in _KEY_CHARS:
        end -= 1
    if end and text[end - 1] in _KEY_CHARS:
        starts, ends = _key_runs(text)
        run = bisect.bisect_right(starts, end - 1) - 1
        end = max(end, ends[run])
    return end


@functools.lru_cache(maxsize=4)
def _key_runs(text: str) -> tuple[list[int], list[int]]:
    """The start and end of each run of key characters in ``text``, in order (one pass: a key's end is
    then found in logarithmic time, however many keys a long run holds)."""
    runs = [(m.start(), m.end()) for m in _KEY_RUN.finditer(text)]
    return [start for start, _ in runs], [end for _, end in runs]


class _TextMatch:
    """An RE2 match over a text's UTF-8 (:func:`utf8`) read as a match over the text: offsets in
    characters, groups as ``str``. RE2's wrapper decodes every offset of every match of a ``str`` (its
    own ``finditer`` took 2-3 times as long per match; decoys such as "pwd='" repeated match every few
    characters)."""

    __slots__ = ("_match", "_chars", "string", "re", "_last")

    def __init__(self, match: Any, text: str, chars: list[int] | None) -> None:
        self._match, self._chars, self.string, self.re, self._last = match, chars, text, match.re, 0

    @property
    def lastindex(self) -> int | None:
        if self._last == 0:  # the wrapper reads every group's span each time it is asked
            self._last = self._match.lastindex
        return self._last

    def start(self, group: int = 0) -> int:
        at: int = self._match.start(group)
        return at if self._chars is None or at < 0 else self._chars[at]

    def end(self, group: int = 0) -> int:
        at: int = self._match.end(group)
        return at if self._chars is None or at < 0 else self._chars[at]

    def group(self, group: int = 0) -> str | None:
        raw = self._match.group(group)
        return None if raw is None else raw.decode("utf-8", "surrogatepass")

    def groups(self) -> tuple[str | None, ...]:
        return tuple(None if raw is None else raw.decode("utf-8", "surrogatepass") for raw in self._match.groups())


@functools.lru_cache(maxsize=4)
def _char_offsets(text: str) -> list[int]:
    """The character offset of each byte offset of ``text``'s UTF-8 that starts a character (and of its
    end); only those are read (RE2 matches a UTF-8 text at characters' starts)."""
    encoded, offsets = utf8(text)
    chars = [0] * (len(encoded) + 1)
    for number, at in enumerate(offsets or range(len(text) + 1)):
        chars[at] = number
    return chars
