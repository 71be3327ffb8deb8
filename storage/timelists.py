"""Days listed with their month written once, written each with its month so :mod:`.timewords` reads
every one: "November 3, 5 and 9" → "November 3, November 5 and November 9", "the 3rd, 5th and 9th of
November" → "the 3rd November, 5th November and 9th November", "3., 5. and 9 November" (German, once in
English: :mod:`.timeforeign`) → "3 November, 5 November and 9 November"; a year after the list goes with each
day, and a day listed after a date takes its month ("March 3 or was it the 5th?"); days alone, "the 3rd,
5th and 9th", are each written "the 3rd" (:mod:`.timewords` reads them as days of one month)."""

from __future__ import annotations

import re

from .timefmt import MONTHS, YEAR

# Times listed in a question ("on March 3 and on March 11", "Monday, Tuesday or Friday", "am 1. Dezember und am 3.
# März"): joined by a comma or a word for "and", "or" (of the languages of :mod:`.timeforeign` too), each perhaps
# led by "on", "in" ... again. An alternative is one too: "A or was it B", "A, or maybe B", "A? or B?", "A - or
# was it B".
LISTED_MAX = 7  # times of one list read at most ("Monday, Tuesday ... and Sunday"): more are read as one
_JOINER = r"(?:and|or|as\s+well\s+as|und|oder|et|ou|y|e|o|en|&)"
_HEDGE = (r"(?:(?:was|is)\s+it|maybe|perhaps|possibly|rather|vielleicht|eher|peut-être|plutôt|quizás?|tal\s+vez"
          r"|forse|misschien|talvez)")
LIST_JOIN = re.compile(rf"(?:\s*[,;、]\s*(?:{_JOINER}\s+)?|\s*(?:\?|\s[-\u2013\u2014])\s*(?:or|oder|ou|o)\s+"
                       rf"|\s+{_JOINER}\s+)(?:{_HEDGE}\s+)?"
                       r"(?:(?:on|in|at|during|of)\s+){0,2}(?:the\s+)?", re.IGNORECASE)  # Dutch "en op": "in on"

# A day of the month in a list: "3", "3rd", "3." (German), never part of a number ("3.5", "3/4", "2026").
_DAY = r"(?<![\w./:-])(?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th|\.(?!\d))?(?![\w/:%-]|\.\d)"
_JOINED_DAY = rf"(?:{LIST_JOIN.pattern}){_DAY}"
# After the last day of a list led by its month: the question goes on, or a year follows.
_LIST_END = (rf"(?=\s*(?:[?.,;!)？]|$)|\s+(?:at|and|or|in|on|when|before|after|to|for|with|we|i|you|they|what"
             rf"|did|was|were|decided|happened)\b)")
# At most LISTED_MAX days a list, so each place a list may start is tried a bounded way: linear in the question.
_DAYS = rf"{_DAY}(?:{_JOINED_DAY}){{1,{LISTED_MAX - 1}}}"
_MONTH_FIRST = re.compile(
    rf"(?<![\w-])(?P<month>{MONTHS})\.?\s+(?:the\s+)?(?P<days>{_DAYS}){_LIST_END}(?P<year>,?\s+{YEAR}(?!\d))?",
    re.IGNORECASE)
_MONTH_LAST = re.compile(
    rf"(?P<days>{_DAYS})\s+(?:of\s+)?(?P<month>{MONTHS})\.?(?![\w-])(?P<year>,?\s+{YEAR}(?!\d))?", re.IGNORECASE)
# Days of the month alone, listed: "the 3rd, 5th and 9th", each written "the 3rd" (:mod:`.timewords` reads them
# as days of one month).
_ORDINAL = r"(?<![\w./:-])(?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)(?![\w/:%-]|\.\d)"
_ORDINALS = re.compile(
    rf"(?<![\w-])the\s+{_ORDINAL}(?:(?:{LIST_JOIN.pattern}){_ORDINAL}){{1,{LISTED_MAX - 1}}}{_LIST_END}", re.IGNORECASE)
_BARE_ORDINAL = re.compile(rf"(?<!the\s){_ORDINAL}", re.IGNORECASE)
_WORD_MONTHS = frozenset("may mar march".split())  # words too, unless capitalised
_ONE_DAY = re.compile(_DAY, re.IGNORECASE)


def each_day_dated(query: str) -> str:
    """``query`` with each day of a list that writes its month (and year) once written with them; the rest
    unchanged."""
    def after(found: re.Match[str]) -> str:  # "3, 5 and 9 November 2026": "3 November 2026, 5 November 2026 ..."
        if found["month"].lower() in _WORD_MONTHS and found["month"].islower():
            return found[0]  # "3 or 4 may come"
        month, year = found["month"], (found["year"] or "").lstrip(",")
        return _ONE_DAY.sub(lambda day: f"{day[0].rstrip('.')} {month}{year}", found["days"])

    def before(found: re.Match[str]) -> str:  # "November 3, 5 and 9": "November 3, November 5 and November 9"
        month, year = found["month"], (found["year"] or "").lstrip(",").rstrip()
        year = f", {year.strip()}" if year else ""
        return _ONE_DAY.sub(lambda day: f"{month} {day[0].rstrip('.')}{year}", found["days"])

    query = _MONTH_FIRST.sub(before, _MONTH_LAST.sub(after, query))
    return _ORDINALS.sub(lambda found: _BARE_ORDINAL.sub(lambda day: f"the {day[0]}", found[0]), query)
