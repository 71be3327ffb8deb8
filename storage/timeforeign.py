"""Time words of other languages in a question, written in English so :mod:`.timewords` reads them:
"letzten Dienstag", "mardi dernier", "el martes pasado" → "last Tuesday"; "am 1. Dezember", "le 1er
décembre", "el 1 de diciembre" → "1 December", "am 24. November" → "24 November"; "12月1日" → "December 1".
Month and weekday names come from dateparser's language data (German, French, Spanish, Portuguese,
Italian, Dutch); the words for "last" are ours. A month is read only beside a day or a year, a weekday only
beside a word for "last": alone they may be a name ("Domingo", "Mai")."""

from __future__ import annotations

import re
from functools import cache

from .timefmt import MONTH_NAMES as _MONTHS, WEEKDAY_NAMES as _WEEKDAYS

_LANGUAGES = ("de", "fr", "es", "pt", "it", "nl")
# English month names and their abbreviations, read after a day of another language's form ("am 24. Nov.").
_ENGLISH = {form: month for month in _MONTHS for form in (month, month[:3])} | {"sept": "september"}
# "last" before or after the noun, and the nouns for a week and a month.
_LAST = ("letzten letzte letzter letztes vergangenen vergangene vergangener dernier dernière passé passée "
         "pasado pasada último última passado passada scorso scorsa vorige vorig afgelopen").split()
_UNITS = {"week": "woche semaine semana settimana", "month": "monat mois mes mês mese maand"}


@cache
def _names() -> tuple[dict[str, str], dict[str, str]]:
    """({foreign month form: English month}, {foreign weekday name: English weekday}), lower case: of a
    month its forms of four letters or more and its full name; of a weekday its names of five or more."""
    from importlib import import_module

    months: dict[str, str] = {}
    weekdays: dict[str, str] = {}
    for language in _LANGUAGES:
        info = import_module(f"dateparser.data.date_translation_data.{language}").info
        for month in _MONTHS:
            forms = [f.lower() for f in info.get(month, [])]
            months.update((f, month) for f in forms if len(f) >= 4 or f == max(forms, key=len))
        for day in _WEEKDAYS:
            weekdays.update((f.lower(), day) for f in info.get(day, []) if len(f) >= 5)
    for english in _MONTHS + _WEEKDAYS:
        months.pop(english, None)
        weekdays.pop(english, None)
    return months, weekdays


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    months, weekdays = _names()

    def alternation(words: object) -> str:
        return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))  # type: ignore[call-overload]

    # An English month name too after a day of another language's form ("am 24. November").
    month, last = alternation([*months, *_ENGLISH]), alternation(_LAST)
    nouns = alternation([*weekdays, *(w for words in _UNITS.values() for w in words.split())])
    dated = re.compile(
        rf"(?<![\w.])(?:(\d{{1,2}})(\.|er|º|°)?\s+(de\s+|di\s+|del\s+)?({month})\.?"
        rf"(?:,?\s+(?:de\s+|del\s+)?(\d{{4}}))?"
        rf"|({month})\.?\s+(\d{{4}}))(?![\w-])", re.IGNORECASE)
    relative = re.compile(rf"(?<![\w-])(?:({last})\s+({nouns})|({nouns})\s+({last}))(?![\w-])", re.IGNORECASE)
    cjk = re.compile(r"(?:(\d{4})\s*年\s*)?(\d{1,2})\s*月\s*(\d{1,2})\s*日")
    return dated, relative, cjk


def in_english(query: str) -> str:
    """``query`` with the time phrases of the languages above written in English (the rest unchanged)."""
    months, weekdays = _names()
    dated, relative, cjk = _patterns()
    units = {w: unit for unit, words in _UNITS.items() for w in words.split()}

    def english(word: str) -> str:
        word = word.lower()
        return _ENGLISH.get(word) or months.get(word) or weekdays.get(word) or units[word]

    def date(found: re.Match[str]) -> str:
        if found[6]:
            return found[0] if found[6].lower() in _ENGLISH else f"{english(found[6]).title()} {found[7]}"
        if found[4].lower() in _ENGLISH and not (found[2] or found[3]):
            return found[0]  # English as written ("on 24 November")
        return f"{found[1]} {english(found[4]).title()}" + (f" {found[5]}" if found[5] else "")

    def last(found: re.Match[str]) -> str:
        return f"last {english(found[2] or found[3]).title()}"

    query = cjk.sub(lambda f: f" {_MONTHS[int(f[2]) - 1].title()} {f[3]}" + (f", {f[1]} " if f[1] else " ")
                    if 1 <= int(f[2]) <= 12 else f[0], query)
    return relative.sub(last, dated.sub(date, query))
