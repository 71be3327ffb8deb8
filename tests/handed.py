"""What each call of the slow C primitives of the credential check and its readings is handed, recorded by test
doubles: ``unicodedata.normalize``, ``str.translate`` (seen by a profile hook, which names the string it is called
on), PyYAML's composer (a string whole, or each read of a stream) and the patterns run in windows
(``regex_windows.sub``; ``secret_parted``'s openings). Such a call holds the GIL throughout, in time linear in what
it is handed, but for CPython's canonical reordering (quadratic in a run of marks out of order: a run needing none is recorded apart),
so bounding what each is handed bounds each hold without timing one (the times: ``bench/secret_speed.py --shapes``).
"""

from __future__ import annotations

import sys
import unicodedata
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import pairwise
from typing import Any

import pytest
import yaml

from memvault.storage import secret_marks, secret_parted, secrets
from memvault.storage.regex_windows import WINDOW

# The patterns run in windows, by module (a name missing from an older tree is left as it is).
WINDOWED = {secrets: ["_GROUPS", "_DASHED_PREFIX"],
            secret_marks: ["_MARKS", "_TAG", "_LINK", "_HEADING", "_YAML_TAG", "_JSON_KEY", "_SPACES", "_SPLIT_WORD",
                           "_BROKEN_NAME", "_CJK_NOTE", "_CJK_LABEL"]}
# The most characters one call may be handed: a window and a pattern's reach (runs of spaces counted as one), a
# normalized piece (cut before the first character after a window where normalization starts afresh; a longer
# one is ordered first), and libyaml's read buffer.
MOST = {"pattern": 2 * WINDOW, "unicodedata.normalize": 2 * WINDOW, "str.translate": WINDOW, "yaml": 16 * 1024}
# Recorded apart, linear in their length and not bounded: a run of marks in canonical order normalized, a match.
IN_ORDER, MATCHED = "unicodedata.normalize, a run of marks in order", "pattern, a match read whole"
_NORMALIZE = unicodedata.normalize  # the real one, beside its double


class _Pattern:
    """A compiled pattern's double recording the characters each call reads at most: a search its window, a match
    what it matched (apart: read whole, as ``sub`` reads it), any other call the whole text."""

    def __init__(self, pattern: Any, calls: dict[str, list[int]]) -> None:
        self._pattern, self._calls, self._matched = pattern, calls["pattern"], calls[MATCHED]

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        self._calls.append(min(endpos, len(text)) - pos)
        return self._pattern.search(text, pos, endpos)

    def match(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        found = self._pattern.match(text, pos, endpos)
        self._matched.append(found.end() - pos if found else 0)
        return found

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._pattern, name)
        if not callable(method):
            return method

        def whole(*args: Any, **kwargs: Any) -> Any:
            self._calls.append(max((len(a) for a in args if isinstance(a, str)), default=0))
            return method(*args, **kwargs)
        return whole


def _ordered_run(text: str) -> bool:
    """Whether ``text`` is a run of marks after one other character, in canonical order: a piece with no cut that
    ``unicode_windows.normalize`` orders first and hands whole (linear for CPython)."""
    parts = [_NORMALIZE("NFKD", char) for char in text]
    classes = [unicodedata.combining(part) for parts_of in parts for part in parts_of]
    return all(unicodedata.combining(first[0]) for first in parts[1:]) and not any(
        0 < after < before for before, after in pairwise(classes))


@contextmanager
def handed(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, list[int]]]:
    """``{primitive: [characters handed, one a call]}`` while the block runs on this thread ("pattern": the patterns
    of ``WINDOWED``); the readings' caches of the credential check emptied first."""
    calls: dict[str, list[int]] = defaultdict(list)

    def normalize(form: str, text: str) -> str:
        calls[IN_ORDER if len(text) > WINDOW and _ordered_run(text) else "unicodedata.normalize"].append(len(text))
        return _NORMALIZE(form, text)

    compose_all = yaml.compose_all

    def composed(stream: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(stream, str):
            calls["yaml"].append(len(stream))
        else:
            read = stream.read
            stream.read = lambda size: calls["yaml"].append(len(piece := read(size))) or piece
        return compose_all(stream, *args, **kwargs)

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "c_call" and getattr(arg, "__name__", "") == "translate" and isinstance(
                getattr(arg, "__self__", None), str):
            calls["str.translate"].append(len(arg.__self__))

    monkeypatch.setattr(unicodedata, "normalize", normalize)
    monkeypatch.setattr(yaml, "compose_all", composed)
    for module, names in WINDOWED.items():
        doubles = {pattern: _Pattern(pattern, calls) for pattern in (getattr(module, name, None) for name in names)
                   if pattern is not None}
        for name in names:
            if hasattr(module, name):
                monkeypatch.setattr(module, name, doubles[getattr(module, name)])
        if hasattr(module, "_WINDOWED"):  # keyed by the patterns
            monkeypatch.setattr(module, "_WINDOWED", {doubles.get(p, p): v for p, v in module._WINDOWED.items()})
    opening = secret_parted._opening_pattern()  # compiled once, by a cached function
    monkeypatch.setattr(secret_parted, "_opening_pattern", lambda: _Pattern(opening, calls))
    secret_marks.unmarked.cache_clear()
    secret_marks.parsed.cache_clear()
    before = sys.getprofile()
    sys.setprofile(profile)
    try:
        yield calls
    finally:
        sys.setprofile(before)


def over(calls: dict[str, list[int]]) -> dict[str, int]:
    """``{primitive: the most characters one call was handed}`` for each primitive past its ``MOST``."""
    return {name: max(sizes) for name, sizes in calls.items() if name in MOST and max(sizes, default=0) > MOST[name]}
