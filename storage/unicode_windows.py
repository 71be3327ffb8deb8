"""Unicode normalization and per-character rewriting of a long text in bounded windows: the same result, no call
holding the GIL for long.

``unicodedata.normalize`` and ``str.translate`` hold the GIL for a whole call, and normalizing a long run of
combining marks out of order takes time growing with the square of its length (CPython reorders it by insertion),
while every other thread of the process waits (the times are in ``bench/secret_speed.py --shapes``).
:func:`normalize` cuts the text where no normalization changes across the cut; :func:`sliced` and :func:`translate`
cut anywhere, for what rewrites each character alone.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable, Mapping
from typing import Any

from .regex_windows import WINDOW

# The characters of combining class 0 that canonical composition joins to a character before them: the second of a
# canonical decomposition of two in UnicodeData.txt (vowel signs and length marks of Indic and other Brahmic
# scripts), and Hangul vowels and trailing consonants (Unicode ch. 3.12). Every other such second is a combining
# mark; tests/test_unicode_windows.py checks the list against unicodedata's.
STARTER_SECONDS = frozenset([*"\u09be\u09d7\u0b3e\u0b56\u0b57\u0bbe\u0bd7\u0cc2\u0cd5\u0cd6\u0d3e\u0d57\u0dcf\u0ddf"
                             "\u0fb5\u0fb7\u102e\u1b35\U00011127\U0001133e\U00011357\U000114b0\U000114ba"
                             "\U000114bd\U000115af\U00011930", *map(chr, range(0x1161, 0x1176)),
                             *map(chr, range(0x11A8, 0x11C3))])


@functools.lru_cache(maxsize=4096)
def starts_afresh(char: str) -> bool:
    """Whether NFC and NFKC of a text cut before ``char`` are those of its two parts joined: its canonical and
    compatibility decompositions start with a character of combining class 0 that composes with none before it,
    so that canonical reordering and composition (UAX #15, Unicode ch. 3.11) never act across the cut."""
    if char < "\x80":
        return True
    for form in ("NFD", "NFKD"):
        first = unicodedata.normalize(form, char)[0]
        if unicodedata.combining(first) or first in STARTER_SECONDS:
            return False
    return True


def _ordered(piece: str, form: str) -> str:
    """The decomposition ``form`` ("NFD", "NFKD") of ``piece``, one character at a time, each run of combining marks
    sorted by combining class, stably (Unicode ch. 3.11, D108 canonical ordering): linear, where CPython's own
    reordering is quadratic in a run's length."""
    out: list[str] = []
    run: dict[int, list[str]] = {}
    for char in piece:
        for part in unicodedata.normalize(form, char):
            combining = unicodedata.combining(part)
            if combining:
                run.setdefault(combining, []).append(part)
                continue
            for key in sorted(run):
                out += run[key]
            run.clear()
            out.append(part)
    for key in sorted(run):
        out += run[key]
    return "".join(out)


def normalize(form: str, text: str) -> str:
    """``unicodedata.normalize(form, text)`` for "NFC" or "NFKC", the same string, normalized in pieces of about
    ``WINDOW`` characters cut before a character that :func:`starts_afresh`. A longer piece (no such character in
    it) is first decomposed and ordered by :func:`_ordered`, which composing then leaves in order."""
    if len(text) <= WINDOW:
        return unicodedata.normalize(form, text)
    out, at, cut = [], 0, WINDOW
    while at < len(text):
        while cut < len(text) and not starts_afresh(text[cut]):
            cut += 1
        piece = text[at:cut]
        if len(piece) > 2 * WINDOW:
            piece = _ordered(piece, "NFD" if form == "NFC" else "NFKD")
        out.append(unicodedata.normalize(form, piece))
        at, cut = cut, cut + WINDOW
    return "".join(out)


def translate(text: str, table: Mapping[int, Any]) -> str:
    """``text.translate(table)``, translated in slices of ``WINDOW`` characters."""
    if len(text) <= WINDOW:  # most texts: no slicing's calls
        return text.translate(table)
    return sliced(lambda piece: piece.translate(table), text)


def sliced(rewrite: Callable[[str], str], text: str) -> str:
    """``rewrite(text)``, for a ``rewrite`` of each character alone (``str.translate``, a substitution of one
    character class), run on slices of ``WINDOW`` characters."""
    if len(text) <= WINDOW:
        return rewrite(text)
    return "".join(rewrite(text[at:at + WINDOW]) for at in range(0, len(text), WINDOW))
