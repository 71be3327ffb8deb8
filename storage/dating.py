"""A time phrase dating a whole statement, opening or closing it ("Since October the team lead is
Tomás", "From 1 November, the release manager is Aiko", "Dave is our PM starting next sprint"):
split off so that two statements are compared without it (``contradiction.judge``). One pass over
the words, no pattern that can backtrack.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .timefmt import MONTH_NAMES, WEEKDAY_NAMES

# Words that open a time phrase dating a statement ("as" only before "of").
OPENERS = frozenset("since from starting beginning effective after as".split())
# Words between the opener and the time, or inside it: "starting from", "effective as of", "since the 3rd of".
_JOINING = frozenset("on in from the of at as".split())
# Words that put a time in relation to now: "next sprint", "this quarter", "last Tuesday".
_RELATIVE = frozenset("next this last coming following upcoming".split())
_PARTS = frozenset("early late mid end start beginning middle".split())  # "early March", "the end of Q3"
# What a relative word dates: "next sprint" (a unit alone, "after 2 weeks", dates nothing).
_UNITS = frozenset("""day week weekend sprint month quarter year release cycle iteration semester term season
spring summer autumn fall winter""".split())
_MONTHS = frozenset(MONTH_NAMES) | frozenset("jan feb mar apr jun jul aug sep sept oct nov dec".split())
_DAYS = frozenset(WEEKDAY_NAMES)
_NOW = frozenset("today tomorrow tonight yesterday immediately".split())
# A time on its own: a year, a date in digits, a quarter or half ("Q3", "H2", "FY27").
_POINT = re.compile(r"(?:19|20)\d\d|\d{4}-\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}(?:/\d{2,4})?|q[1-4]|h[12]|fy\d\d")
_DAY_NUMBER = re.compile(r"(?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?")
# Words after a time that make it one end of a range ("From Monday to Friday the office ..."): no dating.
_RANGE = frozenset("to till until through thru and or - –".split())
_WORD = re.compile(r"\S+")


def _time(word: str, following: str) -> tuple[int, bool] | None:
    """(words it takes, whether it is a time by itself) of ``word`` (lowercase, before ``following``)
    read as part of a time, else None."""
    if word in _MONTHS or word in _DAYS or word in _NOW or _POINT.fullmatch(word) \
            or word.startswith("mid-") and word[4:] in _MONTHS:
        return 1, True
    if word in _RELATIVE and (following in _UNITS or following in _DAYS or following in _MONTHS):
        return 2, True
    if word in _PARTS or word in _JOINING or _DAY_NUMBER.fullmatch(word):
        return 1, False
    return None


def _phrase(words: list[str], bare: list[str], start: int) -> int | None:
    """The index after a time phrase opening at ``start`` of ``words`` (lowercase, a comma kept on
    the word it ends): "since", "as of" ... and a time, up to a comma or the first word that is no
    part of a time; None when there is none there, or when the time opens a range ("from Monday to
    Friday"). ``bare``: ``words`` without their commas."""
    if bare[start] not in OPENERS or bare[start] == "as" and bare[start + 1:start + 2] != ["of"]:
        return None
    at, end, timed = start + 1, start + 1, False
    while at < len(words) and not words[at - 1].endswith(","):
        read = _time(bare[at], bare[at + 1] if at + 1 < len(bare) else "")
        if read is None:
            break
        at, timed = at + read[0], timed or read[1]
        end = at if bare[at - 1] not in _JOINING else end  # "From 1 November the ...": not "the"
    if not timed or at < len(words) and bare[at] in _RANGE:
        return None
    return min(end, len(words))


@lru_cache(maxsize=4096)
def split(text: str) -> tuple[str, str]:
    """(the time phrase dating ``text``, the rest of it as written) when a time phrase opens or
    closes it and something is left ("Since October, the team lead is Tomás" → ("Since October,",
    "the team lead is Tomás")); else ("", ``text``)."""
    spans = [(m.start(), m.end()) for m in _WORD.finditer(text[:2000])]
    words = [text[a:b].lower().rstrip(".;:!?") for a, b in spans]
    if len(words) < 3:
        return "", text
    bare = [w.rstrip(",") for w in words]
    end = _phrase(words, bare, 0)
    if end is not None and end < len(words):
        return text[:spans[end - 1][1]], text[spans[end][0]:]
    for start in range(1, len(words) - 1):
        if bare[start] in OPENERS and not words[start - 1].endswith(",") and _phrase(words, bare, start) == len(words):
            return text[spans[start][0]:], text[:spans[start - 1][1]]
    return "", text
