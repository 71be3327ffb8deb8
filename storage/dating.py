"""A time phrase dating a whole statement, opening or closing it ("Since October the team lead is
Tomás", "From 1 November, the release manager is Aiko", "Dave is our PM starting next sprint"):
split off so that two statements are compared without it (``contradiction.judge``). The time is
read by :func:`.timewords.time_end`, as a question's or a memory's.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .timewords import time_end

# Words between an opener and its time, or between two times ("effective as of", "since the 3rd of",
# "starting from", "Monday the 3rd of March").
_JOINING = re.compile(r"(?:\s+(?:on|in|from|the|of|at|as))*\s+", re.IGNORECASE)
# Words that open a time phrase dating a statement, with the words joining them to its time.
_OPENER = re.compile(r"(?<!\S)(?:since|from|starting|beginning|effective|after|as\s+of)" + _JOINING.pattern,
                     re.IGNORECASE)
_WORD_END = re.compile(r"[,.;:!?]*(?=\s|$)")  # what may close a time's word ("October,", "sprint.")
# An event opening a statement before its subject pronoun dates it as a time does ("Since the migration we no longer
# deploy on Fridays", "Après la panne nous ..."): the opener, a determiner, one to three words, then the pronoun.
_EVENT = re.compile(r"(?:since|after|following|depuis|après|desde|tras)\s+(?:the|this|that|our|le|la|les|l['’]|notre"
                    r"|el|los|las|nuestro|nuestra)\s*(?:[^\W\d_][\w-]*\s+){1,3}?"
                    r"(?=(?:we|i|they|nous|je|ils|elles|nosotros|nosotras)\s)", re.IGNORECASE)
PHRASE_MAX = 200  # characters a time phrase spans at most (a text's phrases are read in constant time)


def _phrase_end(text: str, opener: re.Match[str]) -> int | None:
    """Where the time phrase ``opener`` opens in ``text`` ends (its times in a row, up to a comma, with
    the punctuation closing its last word), or None when no time follows it."""
    end, at = None, opener.end()
    while at < opener.start() + PHRASE_MAX and (found := time_end(text, at)) is not None \
            and (closed := _WORD_END.match(text, found)) is not None:
        end = closed.end()
        if "," in closed.group() or (joined := _JOINING.match(text, end)) is None:
            break
        at = joined.end()
    return end


@lru_cache(maxsize=4096)
def split(text: str) -> tuple[str, str]:
    """(the time phrase dating ``text``, the rest of it as written) when a time phrase opens or
    closes it and something is left ("Since October, the team lead is Tomás" → ("Since October,",
    "the team lead is Tomás")); else ("", ``text``)."""
    if len(text.split(maxsplit=3)) < 3:
        return "", text
    start = len(text) - len(text.lstrip())
    opening = _OPENER.match(text, start)
    end = None if opening is None else _phrase_end(text, opening)
    if end is not None and text[end:].strip():
        return text[:end], text[end:].lstrip()
    event = _EVENT.match(text, start)
    if event is not None:
        return event.group().rstrip(), text[event.end():]
    at = max(start + 1, len(text.rstrip()) - PHRASE_MAX)
    while (opener := _OPENER.search(text, at)) is not None:
        if _phrase_end(text, opener) == len(text.rstrip()):  # a phrase after a comma is left in place
            before = text[:opener.start()].rstrip()
            return ("", text) if before.endswith(",") else (text[opener.start():], before)
        at = opener.end()
    return "", text
