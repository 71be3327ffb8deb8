"""Python's ``re`` over a long text in bounded windows: the same result, no call holding the GIL for long.

Python's ``re`` holds the GIL for a whole call: one ``sub`` over 256 KiB that retries a bounded repeat at every
start took a second, and every other thread of the process (the team server's event loop, its readiness probe)
waited for it. :func:`sub` finds each match's start in windows of at most ``WINDOW`` characters plus the
pattern's reach, and skips the stretches where no match can start (far from any ``anchor``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

# Characters one search reads at most, past its start, besides the pattern's reach: a few ms of the slowest
# pattern's retries (bench/secret_speed.py --shapes).
WINDOW = 2048


def sub(pattern: re.Pattern[str], text: str, repl: Callable[[re.Match[str]], str], reach: int,
        anchor: re.Pattern[str] | None = None, lead: int = 0, runs: re.Pattern[str] | None = None) -> str:
    """``pattern.sub(repl, text)``, the same string. ``reach``: the characters past its start (look-aheads
    included) within which every start of a match of ``pattern`` shows one, each run of ``runs`` (a pattern of one
    character class, ``+``) counted as one; ``anchor``: a pattern every match holds a match of within ``lead``
    characters of its start, each no longer than ``reach`` or a run of one class (None: any start). ``pattern``
    matches no empty string. Each search reads at most ``WINDOW + reach`` characters past where it starts, runs
    counted as one (a match itself is read whole, as ``sub`` reads it)."""
    pieces: list[str] = []
    at = pos = 0
    size = len(text)
    while pos < size:
        if anchor is not None:
            near, look = None, pos
            while near is None and look < size:  # a window at a time, each an anchor's start and reach
                near = anchor.search(text, look, look + WINDOW + reach)
                look += WINDOW + 1
            if near is None:
                break
            pos = max(pos, near.start() - lead)
        trusted = end = pos + WINDOW  # a start up to here has all of its reach in the window
        for _ in range(reach):  # a run of ``runs`` counted as one character
            if end >= size:
                break
            run = runs.match(text, end) if runs is not None else None
            end = run.end() if run is not None else end + 1
        if end >= size:
            trusted = end = size
        found = pattern.search(text, pos, end)
        if found is None or found.start() > trusted:
            pos = trusted + 1
            continue
        match = pattern.match(text, found.start())  # read whole, past the window, as ``sub`` would
        if match is None:  # the window's end read as the text's (a look-ahead refused beyond it)
            pos = found.start() + 1
            continue
        if match.end() <= match.start():
            raise ValueError(f"{pattern.pattern[:40]!r} matched an empty string at {match.start()}")
        pieces += [text[at:match.start()], repl(match)]
        at = pos = match.end()
    if not pieces:
        return text
    pieces.append(text[at:])
    return "".join(pieces)
