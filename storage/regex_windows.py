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
    included) within which every start of a match of ``pattern`` shows one, a run of ``runs`` (a pattern of one
    character class, ``+``) and the character after it counted as one; ``anchor``: a pattern every match holds a
    match of within ``lead`` characters of its start (None: any start). ``pattern`` matches no empty string. Each
    search reads at most ``WINDOW + reach`` characters past where it starts, and the run of ``runs`` at the
    window's end (a match itself is read whole, as ``sub`` reads it)."""
    pieces: list[str] = []
    at = pos = 0
    size = len(text)
    while pos < size:
        if anchor is not None:
            near = anchor.search(text, pos)
            if near is None:
                break
            pos = max(pos, near.start() - lead)
        end = min(size, pos + WINDOW + reach)
        trusted = end if end == size else end - reach  # a start up to here has all of its reach in the window
        run = runs.match(text, end - 1) if runs is not None and end < size else None
        if run is not None:  # the window never ends inside a run: its start shows only with the whole of it
            end = min(size, run.end() + 1)
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
