"""Time named in a question ("what broke in March?", "last week", "in 2024", "two days ago",
"since Monday", "recently").
More: docs/storage-tuning.md#timewords."""

from __future__ import annotations

import calendar
import itertools
import re
import threading
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from . import limits
from .errors import InvalidInput
from .query import STOP_WORDS
from .timeforeign import in_english
from .timefmt import MONTH_NAMES, MONTHS, WEEKDAY_NAMES, YEAR, parse_iso
from .timelists import LIST_JOIN, LISTED_MAX

# Time spans of a question read at most (the first ones): a question names a few times, and each costs a
# dateparser reading, done again for each time words_of_times takes out.
SPANS_MAX = 2 * LISTED_MAX

_WEEKDAYS = "|".join(WEEKDAY_NAMES)
_WEEKDAY_ANY = rf"(?:{_WEEKDAYS}|mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)"  # "Fri 20th", "Fri, Nov 27"
_QUARTER = r"q[1-4]"
# A quarter by its ordinal ("the third quarter", "Q3"), a part of a day ("yesterday evening"), a weekend.
_ORDINALS = "first second third fourth".split()
_QUARTER_WORDS = rf"(?:{'|'.join(_ORDINALS)}|1st|2nd|3rd|4th)\s+quarter"
_QUARTER_NEAR = r"(last|previous|this|next)\s+quarter"  # by quarters back from now, as "last month"
_NEXT_PERIOD = r"next\s+(week|month|year)(?!\s+of\s)"  # the one after this: only a memory saying it covers it
_PARTS = r"morning|afternoon|evening|night"
_PART_DAY = rf"(?:(?:day\s+before\s+)?yesterday|today|this|(?:(?:last|this)\s+)?(?:{_WEEKDAYS}))"
_PART_HOURS = {"morning": (5, 12), "afternoon": (12, 17), "evening": (17, 24), "night": (18, 30)}
_NUMBER = r"(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
# A day of the month as an ordinal word ("Friday the twentieth", "the twenty-first of May"): read as "20th"
# (``_digit_days``), where a day in digits is; "May the first", never "may first".
_DAY_WORDS = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
              "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth").split()
_DAY_WORD = (rf"(?:twenty[-\s]?(?:{'|'.join(_DAY_WORDS[:9])})|thirty[-\s]?first|thirtieth"
             rf"|{'|'.join(reversed(_DAY_WORDS))})")
_DAY_WORD_TEXT = re.compile(rf"(?<![\w-]){_DAY_WORD}(?![\w-])", re.IGNORECASE)
# Words that may follow "Friday the twentieth" ("... at 3pm", "... and"), where "Monday the first thing" is no day.
_AFTER_DAY_WORD = r"(?=\s*(?:[?.,;!)]|$)|\s+(?:at|and|or|in|on|when|before|after|to|for|with|we|i|you|they)\b)"
# A month or quarter with a relative year, a weekday with a relative week: the one time both name
# ("March last year" is March 2025, never all of 2025), or "this"/"last" March.
_RELATIVE = r"(?:last|previous|this|next)"
_COMBINED = (rf"(?:(?:{MONTHS})\.?|{_QUARTER}),?\s+(?:of\s+)?{_RELATIVE}\s+year"
             rf"|{_RELATIVE}\s+year,?\s+in\s+(?:{MONTHS}|{_QUARTER})"
             rf"|(?:{_WEEKDAYS}),?\s+(?:of\s+)?{_RELATIVE}\s+week|{_RELATIVE}\s+week,?\s+on\s+(?:{_WEEKDAYS})"
             rf"|(?:last|previous)\s+(?:{MONTHS})|this\s+(?!may\b)(?:{MONTHS})")  # "this may be"
_COMBINED_PARTS = re.compile(
    rf"(?:(?P<month>{MONTHS})|(?P<quarter>{_QUARTER})|(?P<weekday>{_WEEKDAYS}))"
    rf"|(?P<relative>{_RELATIVE})(?:\s+(?P<unit>year|week))?", re.IGNORECASE)
# A date in digits: an ISO 8601 date-time (a clock time and an offset), or day, month and year with
# dashes, slashes or dots, the year first or last (:func:`_in_digits`), or day and month with a slash
# ("11/27": only after a word of ``_SHORT_DATE_LEAD``; "24/7" is always, no day); an ISO week ("week 48",
# "W48", "KW 48"); a day of the month alone ("on the 1st": the latest, ``_DAY_ALONE``).
_DATE_DIGITS = (r"\d{1,2}(?:-\d{1,2}-|/\d{1,2}/|\.\d{1,2}\.)\d{4}|\d{4}(?:/\d{1,2}/|\.\d{1,2}\.)\d{1,2}"
                r"|\d{1,2}(?:-\d{1,2}-|/\d{1,2}/)\d\d(?!\d)")  # a year of two digits: "12/1/26"
_ISO_WEEK = re.compile(rf"(?i:(?:week|kw)\s*|w)([1-9]|[1-4]\d|5[0-3])(?:,?\s+(?:of\s+)?({YEAR}))?")
_DAY_ALONE = re.compile(r"(?i:the)\s+([1-9]|[12]\d|3[01])(?i:st|nd|rd|th)")
_DIGITS = (r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:[.,]\d+)?)?(?:Z|[+-]\d\d(?::?\d\d)?)?"
           rf"|{_DATE_DIGITS}|(?!24/7(?!\d))\d{{1,2}}/\d{{1,2}}"
           rf"|{_ISO_WEEK.pattern}(?!\s+of\s+(?!{YEAR}))"
           rf"|{_DAY_ALONE.pattern}(?!\s*,\s*(?:a\s+)?{_WEEKDAY_ANY}\b|\s*\(|\s+(?:of\s+)?(?:{MONTHS})\b)"
           rf"{_AFTER_DAY_WORD}")
_TEXT_WEEK = re.compile(rf"\b(?:{_ISO_WEEK.pattern})\b")  # an ISO week a memory's text names
_NUMERIC_DATE = re.compile(r"(\d{1,4})([-/.])(\d{1,2})[-/.](\d{1,4})")
# Words after which a date in digits is a version ("build 2026.11.13", "version 13.11.2026"), not a day.
_VERSION_LEAD = frozenset("version versions build builds release releases rev revision tag patch ver v".split())
_SHORT_DATE = re.compile(r"(\d{1,2})/(\d{1,2})")
_SHORT_DATE_LEAD = frozenset("on since until till by before after from through for during of".split())
_ISO_DATE_TIME = re.compile(r"\d{4}-")
# Named days holding a weekday's name, in days from a day each year has (US Thanksgiving, the fourth
# Thursday of November; Western Easter): no weekday ("before Black Friday" is not before a Friday). None:
# no such rule (Super Bowl Sunday), so no day (docs/how-recall-works.md#4-time-in-the-question).
_HOLIDAYS: dict[str, tuple[str, int] | None] = {
    "black friday": ("thanksgiving", 1), "small business saturday": ("thanksgiving", 2),
    "cyber monday": ("thanksgiving", 4), "giving tuesday": ("thanksgiving", 5), "palm sunday": ("easter", -7),
    "maundy thursday": ("easter", -3), "holy thursday": ("easter", -3), "good friday": ("easter", -2),
    "holy saturday": ("easter", -1), "easter sunday": ("easter", 0), "easter monday": ("easter", 1),
    "ash wednesday": ("easter", -46), "shrove tuesday": ("easter", -47), "fat tuesday": ("easter", -47),
    "whit sunday": ("easter", 49), "pentecost sunday": ("easter", 49), "whit monday": ("easter", 50),
    "super bowl sunday": None, "super tuesday": None, "blue monday": None, "black monday": None,
    "black tuesday": None, "bloody sunday": None,
}
_HOLIDAY_NAMES = "|".join(name.replace(" ", r"\s+") for name in _HOLIDAYS)
_HOLIDAY_TEXT = re.compile(rf"\b(?:{_HOLIDAY_NAMES})\b", re.IGNORECASE)
# Seasons by their first month, in the northern hemisphere (meteorological: winter is December to February).
_SEASONS = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}
_SEASON = re.compile(rf"^(?:(last|this|past|previous)\s+)?({'|'.join(_SEASONS)})(?:,?\s+(?:of\s+)?({YEAR}))?$",
                     re.IGNORECASE)
# Time expressions by kind (the group's name), never inside a larger token (INC-2024-014) nor
# before a possessive ("mid-" may lead one: ``_PART_OF``); a month, year or weekday alone only where
# ``_temporal`` says so.
_SPAN = re.compile(
    rf"(?:(?<![\w./-])|(?<=\bmid-)|(?<=\bearly-)|(?<=\blate-))(?:(?P<digits>{_DIGITS})|(?P<combined>{_COMBINED})"
    rf"|(?P<monthday>{_WEEKDAY_ANY}\.?,?\s+(?:the\s+)?\d{{1,2}}(?:(?:st|nd|rd|th)|(?=\s*(?:[?.,;!]|$)))"
    rf"(?!\s+(?:of\s+)?(?:{MONTHS})\b)|the\s+\d{{1,2}}(?:st|nd|rd|th)\s*(?:,\s*|\(\s*)(?:a\s+)?{_WEEKDAY_ANY}\)?"
    rf"|{_WEEKDAY_ANY}\.?,?\s+the\s+{_DAY_WORD}(?!\s+of\s+(?:{MONTHS})\b){_AFTER_DAY_WORD}"
    rf"|the\s+{_DAY_WORD}\s*(?:,\s*|\(\s*)(?:a\s+)?{_WEEKDAY_ANY}\)?)"
    rf"|(?P<date>(?:{MONTHS})\.?\s+{_DAY}(?:,?\s*{YEAR})?|(?:{MONTHS})\.?,?\s+{YEAR}"
    rf"|(?:{MONTHS})\.?\s+(?:(?<!may\s)(?<!mar\s)(?<!march\s)|the\s+){_DAY_WORD}(?:,?\s*{YEAR})?"
    rf"|{_DAY_WORD}\s+of\s+(?:{MONTHS})\.?(?:,?\s*{YEAR})?"
    rf"|{_DAY}\s+(?:of\s+)?(?:{MONTHS})\.?(?:,?\s*{YEAR})?|\d{{4}}-\d\d(?:-\d\d)?)"
    rf"|(?P<rolling>(?:last|past|previous)\s+{_NUMBER}\s+(?:hours?|days?|weeks?|months?|years?)"
    rf"|past\s+(?:hour|day|week|month|year))"
    rf"|(?P<part>{_PART_DAY}\s+(?:{_PARTS})|last\s+night|tonight)"
    rf"|(?P<weekend>(?:(?:last|this|past|previous)\s+)?weekend)"
    rf"|(?P<holiday>(?:{_HOLIDAY_NAMES})(?:,?\s+{YEAR})?)"
    rf"|(?P<season>(?:(?:last|this|past|previous)\s+)?(?:{'|'.join(_SEASONS)})(?:,?\s+(?:of\s+)?{YEAR})?)"
    rf"|(?P<relative>(?:last|past|previous|this)\s+(?:week|month|year|{_WEEKDAYS})(?!\s+of\s)|{_NEXT_PERIOD}"
    r"|week\s+before\s+last"
    rf"|(?:{_WEEKDAYS})\s+before\s+last|{_NUMBER}\s+(?:{_WEEKDAYS})s\s+ago|(?:a|one)\s+week\s+from\s+(?:{_WEEKDAYS})"
    rf"|{_NUMBER}\s+(?:days?|weeks?|months?|years?)\s+ago|(?:a|one)\s+fortnight\s+ago"
    rf"|(?:day\s+before\s+)?yesterday|today|(?<=\bof\s)the\s+month)"
    rf"|(?P<quarter>(?:{_QUARTER}|{_QUARTER_WORDS})(?:,?\s+(?:of\s+)?{YEAR})?|{_QUARTER_NEAR})"
    rf"|(?P<month>(?:{MONTHS})\.?)|(?P<year>{YEAR})|(?P<weekday>{_WEEKDAYS}))"
    r"(?![\w-]|[./]\w|['’]s\b)",
    re.IGNORECASE,
)
_COMBINED_TEXT = re.compile(_COMBINED, re.IGNORECASE)
_DIGITS_TEXT = re.compile(_DIGITS)
# The word before a month name that makes it a month ("in May"; "from May" may be a person).
_MONTH_LEAD = frozenset(
    "in during since until till through throughout before after of early mid late last this past previous the".split()
)
# Words that lead to a time and mean nothing without it ("frozen during December").
_TIME_PREPOSITIONS = (r"\b(?:during|until|till|through|throughout|within|before|after|around|towards?|over|in|on|at"
                      r"|since|by)")
# Words before a time that ask for the time before or after it (:func:`_beyond`), by what they read as:
# "before", up to its start ("before November", "prior to last week", "older than this month"); "until",
# up to its end ("until Monday", "up to Q3"); "after", from its end ("after October", "later than 2024");
# "since", from its start. "Not" or "no" turns one ("not before May" is since May, "no later than Friday"
# until Friday). "By" stays a day or a deadline (``_AHEAD_LEAD``). After a unit ("the Sunday before
# October 25", "the week before 16 November") none: the day named is when a memory tells of it.
_DIRECTION = re.compile(
    r"(?:\b(not|no)\s+)?\b(before|prior\s+to|earlier\s+than|older\s+than|ahead\s+of|until|till|up\s+(?:to|until)"
    r"|after|later\s+than|newer\s+than|since)\s+(?:the\s+)?$", re.IGNORECASE)
_DIRECTIONS = {"after": "after", "later": "after", "newer": "after", "since": "since", "until": "until",
               "till": "until", "up": "until"}  # by the first word; the rest read as "before"
_TURNED = {"before": "since", "until": "since", "after": "until", "since": "since"}
_UNITS = frozenset(f"{unit}{plural}" for plural in ("", "s") for unit in [
    "day", "night", "week", "weekend", "month", "year", "quarter", "morning", "afternoon", "evening",
    *_WEEKDAYS.split("|")])
# Words before a time naming a part of it (:func:`_part_of`): "the first week of November" (days 1-7),
# "the last week of" (its last seven days), "the week of Nov 16" (the calendar week holding that day),
# "early", "the beginning of" (its first third), "mid", "the middle of" (the second), "late", "the end of".
_PART_OF = re.compile(
    r"\b(?:(?:the\s+)?(?:(first|second|third|fourth|last|1st|2nd|3rd|4th)\s+week|(beginning|start|middle|end)"
    r"|(week))\s+of|(early|mid|late))(?:\s+|-)$", re.IGNORECASE)
# The words before a time in a question that make it no time asked in (:func:`names_another`).
_NOT_ASKED = frozenset("before after since until till than to from between and through thru of".split())
_NOT_REPEATED = re.compile(r"\b(?:last|this|next|ago|past|previous|before|prior|after|since|until|till|earlier|later"
                           r"|older|newer|up)\b", re.IGNORECASE)  # words of a time relative to now or a bound
_THIRDS = {"beginning": 0, "start": 0, "early": 0, "middle": 1, "mid": 1, "end": 2, "late": 2}
_NOUN_AFTER = re.compile(r"\s+(?!(?:" + "|".join(sorted(STOP_WORDS)) + r")\b)[a-z]+\b")
# A form of "be" before "early" or "late" makes it said of what the question asks about, not a part of the time
# after it: "was payroll late last week?", "the trains were late last week" ("late" is no part of the week).
_BE = r"(?:is|are|was|were|am)"
_SAID_OF = re.compile(
    rf"(?:^\W*{_BE}\s+(?!there\b)(?:(?![\w'-]*ed\b)[\w'-]+\s+){{1,3}}"  # "was payroll ", "were the trains " (no -ed)
    rf"|\b(?:{_BE}|be|been)\s+)$", re.IGNORECASE)  # or right before it: "the trains were "
# Words placing what is asked within the time named, which name nothing without it ("earlier this month",
# "back in March"): they go with the time (left a word, "earlier" was a subject no memory holds).
_WITHIN_TIME = r"\b(?:earlier|later|sometime|back)"
# A clock time written beside a time ("at 10am on Tuesday", "yesterday at 15:30 UTC"): memories carry a
# day, so it narrows nothing and goes with the time (left a word, it buried the day's answer). Before the
# time only after a word leading to it ("to 02:00 yesterday" may be what was moved).
_CLOCK_LEAD = r"(?:at|around|about|by|after|before)\s+"
_CLOCK = (r"(?:\d{1,2}(?::\d\d){0,2}\s*(?:[ap]\.?m\.?(?!\w))"
          r"|\d{1,2}:\d\d(?::\d\d)?(?:\s*(?:utc|gmt|z)\b)?|noon\b|midnight\b)")
# Two times joined as one range: "between A and B", "from A to B" (the range runs from A's start to B's end).
_RANGE_LEAD = frozenset({"between", "from"})
_RANGE_JOIN = re.compile(r"\s*[-\u2013\u2014]\s*|\s+(?:and|to|until|till|through|thru)\s+", re.IGNORECASE)
# Months that are also first names: alone, a month only after a word of ``_MONTH_LEAD`` other than
# "the" and before no verb ("since May joined", "the May team").
_NAME_MONTHS = frozenset("may june july april august march jan".split())
# Times that are also first names, read as a name in a question (:func:`names_as_times`).
_NAME_TIMES = re.compile(r"\b(?:%s|summer|autumn)\b" % "|".join(sorted(_NAME_MONTHS)), re.IGNORECASE)
_DIGIT_AFTER = re.compile(r"\s*,?\s*\d")
_DIGIT_BEFORE = re.compile(r"\d\s*$")
# The word before a bare year that makes it a year ("in 2024", "Christmas 2024", "Q3 2024").
_YEAR_LEAD = _MONTH_LEAD - {"the", "this", "last", "past", "previous"} | frozenset(
    "from year christmas easter thanksgiving halloween hanukkah diwali ramadan eid new q1 q2 q3 q4 h1 h2".split()
)
# A bare weekday is a past day only in a past-tense question ("what did we ship on Monday?",
# not "can I ship on Monday?").
_PAST_TENSE = re.compile(r"\b(?:did|was|were|had|happened|went|broke|made|got|\w+[^\We]ed)\b", re.IGNORECASE)
_STATE_VERB = re.compile(r"\b(?:was|were)\b(?!\s+\w+ed\b)", re.IGNORECASE)  # "was decided" is an act
_NOT_PAST = re.compile(
    r"\b(?:can|could|should|shall|will|would|might|must|is|are|am|does|usually|always|never|every|each|next)\b",
    re.IGNORECASE,
)
# The word before a month, weekday or quarter that names a time ahead ("planned for March", "next
# Monday"): a memory saying it covers it, none is observed then (:class:`Said`).
_AHEAD_WORDS = frozenset("next coming upcoming".split())
_AHEAD_LEAD = _AHEAD_WORDS | {"for", "by"}
# The words before a season or named day that make it a time ("in the summer", "on Black Friday"; "the"
# is skipped), and those that make a named day a thing (in a past-tense question it is a time after any other).
_NAMED_LEAD = _MONTH_LEAD - {"the", "of"} | _AHEAD_LEAD | {"on", "over", "at", "around"}
_OWNERS = frozenset("a an every each our my your their his her its".split())
# A question asking what is due names a month that a memory may say in any year ("what is due in
# March?" and "The audit deadline is 2027-03-15"), besides the one observed then.
_DUE = re.compile(r"\b(?:due|deadlines?|scheduled|planned)\b", re.IGNORECASE)
_MONTH_ALONE = re.compile(rf"(?:{MONTHS})\.?|{_QUARTER}", re.IGNORECASE)
_NAME_VERB = re.compile(
    r"\s+(?:is|was|has|had|will|would|did|does|said|says|told|thinks|wants|likes|prefers|left|joined|\w+ed)\b",
    re.IGNORECASE,
)


def _a_name(month: str, before: str, text: str, end: int) -> bool:
    """Whether ``month``, written alone after the word ``before`` and ending at ``end`` of ``text``, is
    a person ("the May team", "from May", "since May joined") though one of :data:`_MONTH_LEAD` may lead it."""
    return month.lower().rstrip(".") in _NAME_MONTHS and (
        before not in _MONTH_LEAD | _AHEAD_LEAD or before == "the" or _NAME_VERB.match(text, end) is not None)


def names_as_times(question: str, text: str) -> str | None:
    """A month or season that is also a first name (:data:`_NAME_TIMES`) which ``question`` writes as
    someone's name ("What does August do?", "When does June start?", "Did Summer sign it?") and ``text``
    only as a time ("The offsite is in August", "in early June", "on 3 August", "the summer release"), or
    None: a text naming the person ("August is the new intern") or not the word at all names no other."""
    for asked in _NAME_TIMES.finditer(question):
        if asked.start() == 0 or not asked.group(0)[0].isupper() or not _a_name_in(question, asked):
            continue
        word = asked.group(0).lower()
        said = [m for m in _NAME_TIMES.finditer(text) if m.group(0).lower() == word]
        if said and not any(_a_name_in(text, m) for m in said):
            return asked.group(0)
    return None


def _a_name_in(text: str, found: re.Match[str]) -> bool:
    """Whether the month or season ``found`` in ``text`` may be a person: capitalised, with no day or year
    beside it, and not after a word making it a time (:func:`_a_name`)."""
    word = found.group(0)
    if not word[0].isupper() or _DIGIT_AFTER.match(text, found.end()) \
            or _DIGIT_BEFORE.search(text, max(0, found.start() - 4), found.start()):
        return False  # "August 3", "3 August", "June, 2024"
    before = _word_before(text, found.start())
    lead = before.group(1).lower() if before else ""
    return lead not in _MONTH_LEAD | _NAMED_LEAD \
        or word.lower() in _NAME_MONTHS and _a_name(word, lead, text, found.end())


_WORD_BEFORE = re.compile(r"(\w+)[\s,]*$")
_LOOKBACK = 64  # characters read back for the word before a time (constant work per time found)
PARSED_MAX = 3  # a question's time spans parsed at most, the most specific first (dateparser runs locked)
# Times listed in a question are joined by ``LIST_JOIN`` (:mod:`.timelists`); two dates by spaces alone too
# ("3月3日と3月11日" once its particle is dropped). A word leading to a time alone joins none: "last Friday on 23
# January", "the first weekend of August 2023".
# A time a question may list with others: (start, end, kind, text, the weekday beside it, the word leading to it).
_Listed = tuple[int, int, str, str, tuple[str, str] | None, str]
# Vague recent times, which dateparser does not read, in days back from now.
_RECENT = re.compile(
    r"(?<![\w.-])(?:recently|lately|of late|these days"
    r"|in recent (?P<recent>days|weeks|months)|(?:the )?(?:last|past) (?:few|couple of) (?P<few>days|weeks|months))"
    r"(?![\w-])",
    re.IGNORECASE,
)
RECENT_DAYS = {"days": 7, "weeks": 30, "months": 90}
RECENT_DEFAULT_DAYS = 30
_YEAR = re.compile(YEAR)
# dateparser reads "last week" but not "previous week": the same time to memvault ("past week" is
# the last seven days, ``_ROLLING``).
_PAST = re.compile(r"^previous\b", re.IGNORECASE)
# A rolling window up to now: "the past 2 weeks", "last 14 days", "over the past month".
_ROLLING = re.compile(rf"^(?:(?:last|past|previous)\s+({_NUMBER})|past)\s+(hour|day|week|month|year)s?$",
                      re.IGNORECASE)
_ROLLING_MAX = 100_000  # units back at most: "the last 10**9 days" reaches the epoch
_NUMBER_WORDS = "a one two three four five six seven eight nine ten eleven twelve".split()
# Words dateparser does not read as the time they name: "the week before last" is the calendar week two weeks
# back ("the day before yesterday" is read by ``_DAYS_FROM``, "last night" is a part of a day,
# ``_PART_HOURS``).
_SAID_AS = {"week before last": "2 weeks ago", "a fortnight ago": "2 weeks ago", "one fortnight ago": "2 weeks ago",
            "the month": "this month"}
# A weekday counted back ("Friday before last", "two Fridays ago": the one a week before last Friday, the
# latest before today), or ahead from one ("a week from Monday": only a memory saying it covers it);
# dateparser read the first as last Friday and the last as last Monday.
_WEEKDAY_BACK = re.compile(rf"^({_WEEKDAYS})\s+before\s+last$|^({_NUMBER})\s+({_WEEKDAYS})s\s+ago$", re.IGNORECASE)
_WEEK_FROM = re.compile(rf"^(?:a|one)\s+week\s+from\s+(?:{_WEEKDAYS})$", re.IGNORECASE)
_QUARTER_YEAR = re.compile(
    rf"^(?:q([1-4])|({'|'.join(_ORDINALS)}|1st|2nd|3rd|4th)\s+quarter)(?:,?\s+(?:of\s+)?({YEAR}))?$",
    re.IGNORECASE)
_PART_TEXT = re.compile(rf"^(?:last\s+(night)|to(night)|(.+?)\s+({_PARTS}))$", re.IGNORECASE)
_WEEKEND = re.compile(r"^(?:(last|this|past|previous)\s+)?weekend$", re.IGNORECASE)
# A month and day without a year ("December 20", "20 December"): this year's day, ahead or past.
_MONTH_DAY = re.compile(rf"^(?:(?:{MONTHS})\.?\s+{_DAY}|{_DAY}\s+(?:of\s+)?(?:{MONTHS})\.?)$", re.IGNORECASE)
_THIS_WEEKDAY = re.compile(rf"^this\s+({_WEEKDAYS})$", re.IGNORECASE)
# A weekday with a day of the month ("Friday the 20th", "the 20th (a Friday)"), and one beside a date
# ("Friday 27 November", "27 November, a Friday", "Fri, Nov 27"): read by :func:`_weekday_day`, ``_with_weekday``.
_MONTHDAY = re.compile(rf"({_WEEKDAY_ANY})\.?,?\s+(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)?"
                       rf"|the\s+(\d{{1,2}})(?:st|nd|rd|th)\s*[,(]\s*(?:a\s+)?({_WEEKDAY_ANY})\)?",
                       re.IGNORECASE)
_WEEKDAY_BEFORE = re.compile(rf"(?<![\w-])({_WEEKDAY_ANY})\.?,?\s+(?:the\s+)?$", re.IGNORECASE)
_WEEKDAY_AFTER = re.compile(rf"(?:\s*,\s*(?:a\s+)?|\s*\(\s*(?:a\s+)?)({_WEEKDAY_ANY})\b\)?", re.IGNORECASE)
_WEEKDAY_BACK_MONTHS = 24  # months searched back for a day of the month on the weekday named
_DAY_MS = 86_400_000
# A weekday as a question names it: one day (or since it), which a text writing the weekday does not name.
_WEEKDAY_TIME = re.compile(rf"(?:(?:since|last|this|past|previous)\s+)?(?:{_WEEKDAYS})", re.IGNORECASE)
# Days a text names relative to when it was observed (``TimeRange.said_relative``, read by :func:`_told`), in days
# from then; days or weeks back or ahead ("three days ago", "in two weeks": that day or calendar week, as a
# question's "two weeks ago" is; "a year ago" is no calendar year: docs/retrieval-tuning.md); the week, weekend,
# month or year before, of or after it ("next week", "this weekend"); the weekday or season before it ("last
# Friday", "last summer"), and the weekday ahead ("next Tuesday").
_DAYS_FROM = {"today": 0, "tonight": 0, "this morning": 0, "this afternoon": 0, "this evening": 0,
              "yesterday": -1, "last night": -1, "day before yesterday": -2, "tomorrow": 1, "day after tomorrow": 2}
_NEAR = {"last": -1, "this": 0, "next": 1}
_DAYS_SAID = re.compile(
    rf"(?<![\w-])(?:(?:the\s+)?day\s+(?:before\s+yesterday|after\s+tomorrow)|yesterday|tomorrow|last\s+night|today"
    rf"|tonight|this\s+(?:morning|afternoon|evening)"
    rf"|(?P<count>{_NUMBER})\s+(?P<unit>day|week)s?\s+ago"
    rf"|in\s+(?P<ahead_count>{_NUMBER})\s+(?P<ahead_unit>day|week)s?"
    rf"|(?P<near>last|this|next)\s+(?P<period>week(?:end)?|month|year)"
    rf"|last\s+(?P<last>{_WEEKDAYS}|{'|'.join(_SEASONS)})"
    rf"|(?P<coming>next|this|coming)\s+(?P<ahead>{_WEEKDAYS}))(?![\w-])",
    re.IGNORECASE,
)
# Words telling a plan, after which "in two days" is a time ahead though the sentence is in the past tense.
_PLAN = re.compile(r"\b(?:decided|agreed|planned|promised|scheduled|expected|wanted|needed|hoped|aimed|committed"
                   r"|chose|intended|asked|told|said|announced|due|deadline)\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?;](?=\s|$)|\n")
_EPOCH = datetime(1970, 1, 1)
_FAR_MS = 32_503_680_000_000  # 3000-01-01: a "now" after any time a question names, to read it whole


# A month, date, quarter or weekday written in a memory's text (``Said.in_text``).
_TEXT_TIME = re.compile(
    rf"(?<![\w.-])(?:(?P<iso_year>\d{{4}})-(?P<iso_month>\d\d)(?:-(?P<iso_day>\d\d))?"
    rf"|(?P<month>{MONTHS})\.?(?:\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?)?(?:,?\s*(?P<year>{YEAR}))?"
    rf"|(?P<day_first>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<month_after>{MONTHS})\.?(?:,?\s*(?P<year_after>{YEAR}))?"
    rf"|(?P<quarter>{_QUARTER})(?:\s+(?P<quarter_year>{YEAR}))?|(?P<weekday>{_WEEKDAYS})s?)(?![\w-])",
    re.IGNORECASE,
)
# Month names that are a month wherever a text writes them; "May", "March", "June" ... only
# with a day, a year or a word of ``_MONTH_LEAD`` before them ("we may ship", "June approved").
_PLAIN_MONTHS = frozenset("january february july september october november december feb sept oct nov dec".split())


def _told(found: re.Match[str], observed: datetime) -> tuple[int, int] | None:
    """The ms range a ``_DAYS_SAID`` match names in a text observed at ``observed`` (by UTC days, as a
    question's times are), or None past year 9999."""
    last = (found["last"] or "").lower()
    if found["ahead"]:  # "this Friday": the next on or after that day; "next Tuesday", noted Thursday: the next after
        weekday = _WEEKDAYS.split("|").index(found["ahead"].lower())
        days = (weekday - observed.weekday()) % 7 or (0 if found["coming"].lower() == "this" else 7)
        start = period_range(observed + timedelta(days=days), "day")[0]
        return start, start + _DAY_MS
    if last in _SEASONS:
        start = _season(_SEASONS[last], None, "last", observed)
        return _ms(start), _ms(_back(start, -3, "month"))
    if last:  # the latest such weekday before that day
        days = (observed.weekday() - _WEEKDAYS.split("|").index(last)) % 7 or 7
        start = period_range(observed - timedelta(days=days), "day")[0]
        return start, start + _DAY_MS
    if (found["period"] or "").lower() == "weekend":  # "this weekend": Saturday and Sunday of the week noted in;
        near = found["near"].lower()  # "next weekend" the first after that day, as "next Saturday" is
        start = _weekend(observed, _NEAR[near]) if near != "next" else period_range(
            observed + timedelta(days=(5 - observed.weekday()) % 7 or 7), "day")[0]
        return start, start + 2 * _DAY_MS
    if found["period"]:  # "next week": the calendar week after the one noted in
        period = found["period"].lower()
        moment = _shifted(observed, _NEAR[found["near"].lower()], period)
    elif found["ahead_unit"] and _a_length(found):
        return None  # "we finished the migration in two days": how long it took
    elif found["unit"] or found["ahead_unit"]:  # "two weeks ago", "in 3 days": that day or calendar week
        period = (found["unit"] or found["ahead_unit"]).lower()
        count = _count(found["count"] or found["ahead_count"])
        moment = _shifted(observed, count if found["ahead_unit"] else -count, period)
    else:
        period = "day"
        moment = observed + timedelta(days=_DAYS_FROM[" ".join(found.group(0).lower().split()).removeprefix("the ")])
    return None if moment is None else period_range(moment, period)


def _a_length(found: re.Match[str]) -> bool:
    """Whether the ``_DAYS_SAID`` match ``found`` ("in two days") is how long something took, not a time
    ahead: the sentence holding it is in the past tense, as a question's is read, and tells no plan ("we
    shipped it in 3 weeks"; "in 3 weeks we ship", "it expires in two days", "we decided to migrate in two
    days" are times)."""
    ends = [mark.start() for mark in _SENTENCE_END.finditer(found.string)]
    sentence = found.string[max((end + 1 for end in ends if end < found.start()), default=0):
                            min((end for end in ends if end >= found.end()), default=len(found.string))]
    return bool(_PAST_TENSE.search(sentence)) and not _NOT_PAST.search(sentence) and not _PLAN.search(sentence)


def _shifted(moment: datetime, count: int, unit: str) -> datetime | None:
    """``moment`` ``count`` days, weeks, months or years later (earlier when negative: :func:`_back`);
    None past year 9999."""
    try:
        return _back(moment, -count, unit)
    except (OverflowError, ValueError):
        return None


def _weekend(base: datetime, weeks: int) -> int:
    """The ms start (Saturday) of the weekend of the calendar week ``weeks`` after that of ``base`` (before it
    when negative)."""
    monday = base - timedelta(days=base.weekday())
    return period_range(monday + timedelta(days=5, weeks=weeks), "day")[0]


def _season(first: int, year: int | None, relative: str, base: datetime) -> datetime:
    """The first day of the season beginning in the month ``first``: of ``year``; else the latest begun
    by ``base``, "last" the latest ended, "this" the one of ``base`` or else this year's."""
    if year is not None:
        return datetime(year, first, 1)
    year = base.year - (base.month < first)
    ends = _back(datetime(year, first, 1), -3, "month")
    if relative in ("last", "past", "previous") and ends > base:
        year -= 1
    elif relative == "this" and ends <= base:
        year = base.year
    return datetime(year, first, 1)


def _word_before(text: str, end: int) -> re.Match[str] | None:
    """The word right before ``end`` (spaces and commas between) as group 1, or None; reads at most
    ``_LOOKBACK`` characters back, so a text's times cost linear time: a word longer than that is no
    word a time follows."""
    start = max(0, end - _LOOKBACK)
    found = _WORD_BEFORE.search(text, start, end)
    if found is not None and found.start(1) == start and start and re.match(r"\w", text[start - 1]):
        return None
    return found


def _quarter(text: str, year: int = 1) -> tuple[datetime | None, Said | None]:
    """(its first day, of ``year`` when ``text`` writes none; what a memory's text must say to name it) of the
    quarter ``text`` names alone ("Q3", "the third quarter", "3rd quarter of 2027"), else (None, None)."""
    quarter = _QUARTER_YEAR.match(text)
    if quarter is None:
        return None, None
    number = int(quarter[1] or quarter[2][0]) if (quarter[1] or quarter[2][0].isdigit()) \
        else _ORDINALS.index(quarter[2].lower()) + 1
    said = Said(frozenset(range(3 * number - 2, 3 * number + 1)), int(quarter[3]) if quarter[3] else None)
    return datetime(int(quarter[3]) if quarter[3] else year, 3 * number - 2, 1), said


def _whole_year(text: str, past: bool = False) -> Said | None:
    """What a memory's text must say to name the year ``text`` writes alone: any of its months (a year
    ahead: "what is due in 2028?" and "expires 2028-03-14", "ends in 2028"), else None. A ``past`` year
    only as the time of an event (:attr:`Said.past`)."""
    return Said(frozenset(range(1, 13)), int(text), past=past) if _YEAR.fullmatch(text) else None


def _month(name: str) -> int:
    return [month[:3] for month in MONTH_NAMES].index(name[:3].lower()) + 1


@dataclass(frozen=True)
class Said:
    """What a memory's text must say to name a time: one of ``months`` (1-12) of ``year`` (any
    when None) on ``day`` (any when None), the ``weekday`` (0 for Monday), or ISO ``week`` of ``year``."""

    months: frozenset[int] = frozenset()
    year: int | None = None
    day: int | None = None
    weekday: int | None = None
    week: int | None = None  # an ISO 8601 week of ``year`` (1-53)
    # A past year is named by a text only as when something happened ("In 1999 the company was founded",
    # "founded in 1999"), not as the year a plan is for nor a bound ("our plan for 2026", "until 2026").
    past: bool = False

    @classmethod
    def of(cls, expression: str) -> Said | None:
        """What names the time ``expression`` (a month, date, quarter or weekday), or None."""
        found = _TEXT_TIME.search(expression)
        return None if found is None else _said(found)

    def quarter(self) -> str | None:
        """"Q1" to "Q4" when this is a calendar quarter, however the question wrote it ("the third quarter"):
        a memory writes it so ("Q3 goal: ..."); else None."""
        first = min(self.months, default=0)
        return f"Q{first // 3 + 1}" if len(self.months) == 3 and first % 3 == 1 and self.months == {
            first, first + 1, first + 2} else None

    def in_text(self, text: str) -> bool:
        """Whether ``text`` names this time or a time within it ("December", "2027-03-14", "14 March", "Q1",
        "Mondays"): not a longer one holding it ("Q3" names no August, as "in August" names no 15 August), nor
        a time without its year for a year asked (a year written alone only then: "due in 2028")."""
        if self.week is not None:  # "week 32", "W32", "KW 32 2026", or a day of that week ("on 5 August")
            return any(int(found[1]) == self.week and found[2] in (None, str(self.year))
                       for found in _TEXT_WEEK.finditer(text)) or any(
                named.day is not None and len(named.months) == 1 and _a_day(self.year, *named.months, named.day)
                and datetime(self.year, *named.months, named.day).isocalendar()[:2] == (self.year, self.week)
                for named, _ in _periods(text, years=False) if named.year in (None, self.year))
        year = len(self.months) == 12
        for named, lead in _periods(text, years=year, deadlines=year and not self.past):
            if self.past and lead in _NOT_ASKED | _AHEAD_LEAD:
                continue
            if self.weekday is not None:
                if named.weekday == self.weekday:
                    return True
            elif (named.months and named.months <= self.months
                  and (self.year is None or named.year == self.year or named.year is None and not year)
                  and (self.day is None or named.day == self.day)):
                return True
        return False

    def wider_in(self, text: str) -> bool:
        """Whether ``text`` names months of this time only within longer times ("expires in 2027" for
        January 2027, "in Q1" for February): it does not say the time is this one."""
        if self.weekday is not None or self.week is not None or not self.months or self.in_text(text):
            return False
        named = [said for said, _ in _periods(text) if said.months]
        return bool(named) and all(said.months > self.months for said in named)

    def other(self, named: Said) -> bool:
        """Whether ``named``, of the same kind (a weekday, or a month, quarter, date or year), is another
        time: another weekday, no month in common, another year or another day."""
        if self.weekday is not None:
            return named.weekday != self.weekday
        pairs = ((self.year, named.year), (self.day, named.day))
        return not self.months & named.months or any(None not in pair and pair[0] != pair[1] for pair in pairs)


def _periods(text: str, years: bool = True, deadlines: bool = False) -> list[tuple[Said, str]]:
    """The times ``text`` names (:class:`Said`), each with the word before it: a month, date, quarter or
    weekday (``_TEXT_TIME``; "May", "March" ... only with a day, a year or a word of ``_MONTH_LEAD`` before
    them, so "we may ship" names none; no weekday of a named day: "Black Friday"), and with ``years``
    a year written as one ("in 2027", not "port 2049": :func:`_temporal`, :func:`_measured`), with ``deadlines``
    one after "by" or "for" too ("target by 2027")."""
    days = [found.span() for found in _HOLIDAY_TEXT.finditer(text)]
    periods = []
    for found in _TEXT_TIME.finditer(text):
        before = _word_before(text, found.start())
        lead = before.group(1).lower() if before else ""
        if found["month"] and not (found["day"] or found["year"]) and found["month"].lower() not in _PLAIN_MONTHS \
                and (lead not in _MONTH_LEAD | _AHEAD_LEAD or _a_name(found["month"], lead, text, found.end())):
            continue
        if not (found["weekday"] and any(start <= found.start() < end for start, end in days)):
            periods.append((_said(found), lead))
    for year in _SPAN.finditer(text) if years else ():
        before = _word_before(text, year.start())
        lead = before.group(1).lower() if before else ""
        if year.lastgroup == "year" and (_temporal("year", lead, True) or deadlines and lead in _AHEAD_LEAD) \
                and not _measured(text, year, before):
            periods.append((Said(frozenset(range(1, 13)), int(year.group(0))), lead))
    return periods


def names_another(question: str, text: str) -> bool:
    """Whether ``text`` names a quarter, month, date, year or weekday of the kind ``question`` asks in
    ("in Q2", "in February", "in 2026", "on Saturdays") but never the one it asks ("Q3 2026", "2027-01-14",
    "April 2027", "Sundays"); a time after "before", "since", "between", "of" ... is no time asked in."""
    asked = [said for said, lead in _periods(question) if lead not in _NOT_ASKED]
    pairs = [(mine, said) for mine in asked for said, _ in (_periods(text) if asked else [])
             if (mine.weekday is None) == (said.weekday is None)]
    return bool(pairs) and all(mine.other(said) for mine, said in pairs)


def names_the_weekday(question: str, text: str) -> bool:
    """Whether ``text`` names a weekday ``question`` asks in ("Last Friday I renewed ..." for "what did I
    do last Friday?"): any such weekday, as :func:`names_another` reads them."""
    asked = {said.weekday for said, lead in _periods(question) if said.weekday is not None and lead not in _NOT_ASKED}
    return bool(asked) and any(said.weekday in asked for said, _ in _periods(text))


def _said(found: re.Match[str]) -> Said:
    """The :class:`Said` of one ``_TEXT_TIME`` match."""
    if found["weekday"]:
        return Said(weekday=_WEEKDAYS.split("|").index(found["weekday"].lower()))
    if found["quarter"]:
        first = 3 * int(found["quarter"][1]) - 2
        year = found["quarter_year"]
        return Said(frozenset(range(first, first + 3)), int(year) if year else None)
    if found["iso_year"]:
        month, day, year = int(found["iso_month"]), found["iso_day"], found["iso_year"]
    elif found["month"]:
        month, day, year = _month(found["month"]), found["day"], found["year"]
    else:
        month, day, year = _month(found["month_after"]), found["day_first"], found["year_after"]
    return Said(frozenset({month}), int(year) if year else None, int(day) if day else None)


@dataclass(frozen=True)
class TimeRange:
    """``observed_at`` in [``start``, ``end``) ms, named by ``text``; ``vague`` for "recently";
    ``said``: what a memory's text says to name it. A time ahead ("for next March") has an
    empty range: only a memory saying it covers it."""

    start: int
    end: int
    text: str
    vague: bool = False
    said: Said | None = None
    shown_end: int | None = None  # the end shown to people: now, where ``end`` runs a day on (clock skew)
    # Asked of what is or was so then (a state), not only of what happened: a question not in the past
    # tense, one of "was"/"were" ("what was the rate limit in Q3?"), or a time up to now ("since October").
    present: bool = False
    # Whether a text writing the time's words names it: not "before November", "the first week of November".
    written: bool = True
    # The question's words naming it where more than ``text``: a weekday beside its date ("Friday 27 November",
    # "Friday the 20th"), which are no words of the question's subject either (:meth:`remove_from`).
    phrase: str | None = None
    note: str | None = None  # how it was read where its words disagree ("a Thursday, not a Friday")
    # The ms ranges in [start, end) it names when more than one ("12/01/2026": 12 January and 1 December).
    days: tuple[tuple[int, int], ...] = ()

    @property
    def until(self) -> int:
        """The end shown to people ([start, until)): ``end`` without the day of clock skew."""
        return self.end if self.shown_end is None else self.shown_end

    @property
    def observable(self) -> bool:
        """Whether anything can be observed in this time (it is not only ahead)."""
        return self.start < self.end

    def holds(self, ms: int) -> bool:
        """Whether the moment ``ms`` (since the epoch) lies in this range (in one of its ``days``)."""
        return self.start <= ms < self.end and (not self.days or any(start <= ms < end for start, end in self.days))

    def written_in(self, text: str) -> bool:
        """Whether ``text`` may write this time's words as this time: a bare year only as a time
        (in a date, or after a word that makes it one: "in 2019"), not as a number ("Ticket 2019
        tracks ...", "port 2049"), as a question reads it; a weekday never: "Wednesday" in a text
        is any Wednesday ("stand-up moves to Wednesdays"), not the one asked."""
        if not self.written or _WEEKDAY_TIME.fullmatch(self.text):
            return False
        if not _YEAR.fullmatch(self.text):
            return True
        for m in _SPAN.finditer(text):
            if self.text in m.group(0):
                found = _word_before(text, m.start())
                lead = found.group(1).lower() if found else ""
                if m.lastgroup in ("season", "holiday") or _temporal(m.lastgroup or "", lead, True):
                    return True
        return False

    def said_relative(self, text: str, observed_ms: int) -> bool:
        """Whether ``text``, observed at ``observed_ms``, names a day of this time by a word relative to
        that moment ("yesterday" in a memory of Thursday is Wednesday, "tomorrow" Friday, "next week" the
        calendar week after, "last summer" in one of November this year's summer; :data:`_DAYS_SAID`)."""
        if not self.observable:
            return False
        observed = datetime.fromtimestamp(observed_ms / 1000, tz=UTC).replace(tzinfo=None)
        for found in _DAYS_SAID.finditer(text):
            told = _told(found, observed)
            if told is not None and told[0] < self.end and self.start < told[1]:
                return True
        return False

    def repeated_in(self, text: str) -> bool:
        """Whether ``text`` writes this time's words as they were asked, when they name a date that
        :attr:`said` cannot ("the week of November 16", "the first week of November"), not relative
        to now nor a bound ("last Friday", "before November"), nor a weekday (any Wednesday)."""
        named = _TEXT_TIME.search(self.text)
        return self.said is None and named is not None and not named["weekday"] \
            and _NOT_REPEATED.search(self.text) is None \
            and re.search(rf"(?<![\w-]){re.escape(self.text)}(?![\w-])", text, re.IGNORECASE) is not None

    def dated_before(self, text: str, observed_ms: int) -> bool:
        """Whether ``text``, observed at ``observed_ms``, dates what it tells before this time: it names a
        month, quarter, date or year (a month without a year the latest by then) or a day relative to
        then (:data:`_DAYS_SAID`), and each ends by this time's start ("In March ...", "Back in 2024 ...",
        noted today, for "since Monday"); a time after "until", "since", "for", "next" ... is none."""
        observed = datetime.fromtimestamp(observed_ms / 1000, tz=UTC).replace(tzinfo=None)
        ends = [told[1] for told in (_told(found, observed) for found in _DAYS_SAID.finditer(text)) if told]
        for said, lead in _periods(text):
            if said.weekday is not None or lead in _NOT_ASKED | _AHEAD_LEAD:
                continue
            month, year = max(said.months), said.year or observed.year - (min(said.months) > observed.month)
            if said.day is None:
                ends.append(period_range(datetime(year, month, 1), "month")[1])
            elif _a_day(year, month, said.day, strict=True):
                ends.append(_ms(datetime(year, month, said.day)) + _DAY_MS)
        return bool(ends) and max(ends) <= self.start

    def remove_from(self, query: str) -> str:
        """``query`` without this expression (only where it stands alone, as it was found) and the
        preposition leading to it ("during", "until the"), a word placing within it ("earlier", "back":
        ``_WITHIN_TIME``) and a clock time beside it (``_CLOCK``): left alone it would be a keyword no
        memory of the time holds, lowering the coverage of those that do."""
        before = (rf"(?:{_CLOCK_LEAD}{_CLOCK}\s*,?\s+)?(?:{_WITHIN_TIME}\s+)?"
                  rf"(?:{_TIME_PREPOSITIONS}\s+(?:the\s+)?)?")
        after = rf"(?![\w-]|\.\w)(?:\s*,?\s+(?:{_CLOCK_LEAD})?{_CLOCK}(?![\w:-]))?"
        words = re.escape(self.phrase or self.text)
        return re.sub(rf"(?<![\w.-]){before}{words}{after}", " ", query, count=1, flags=re.IGNORECASE)


def _ms(moment: datetime) -> int:
    return (moment.replace(tzinfo=UTC) - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(milliseconds=1)


def period_range(moment: datetime, period: str) -> tuple[int, int]:
    """The ms range of the ``period`` ("day", "week", "month", "quarter", "year") that holds ``moment``;
    a week runs from Monday (ISO 8601). Counted in ms from the period's first day, so the period of
    9999-12-31 ends past ``datetime``'s range without overflowing."""
    if period in ("year", "quarter", "month"):
        first_month = {"year": 1, "quarter": 3 * ((moment.month - 1) // 3) + 1, "month": moment.month}[period]
        months = {"year": 12, "quarter": 3, "month": 1}[period]
        start = _ms(datetime(moment.year, first_month, 1))
        days = sum(calendar.monthrange(moment.year, m)[1] for m in range(first_month, first_month + months))
        return start, start + days * _DAY_MS
    day = _ms(datetime(moment.year, moment.month, moment.day))
    if period == "week":
        monday = day - moment.weekday() * _DAY_MS
        return monday, monday + 7 * _DAY_MS
    return day, day + _DAY_MS


def _named_time(span: re.Match[str], query: str, before: str, past: bool) -> bool:
    """Whether the season or named day ``span`` of ``query``, after the word ``before`` ("the" skipped), is a
    time: with a year or a relative word ("summer 2021", "last winter"), after a word of ``_NAMED_LEAD`` ("in
    the summer", "on Black Friday"), or a named day in a past-tense question after no word of ``_OWNERS``; a
    season never before a noun nor capitalised ("the summer camp", "in Spring Boot")."""
    text = span.group(0)
    if _YEAR.search(text) or span.lastgroup == "season" and _SEASON.match(text)[1]:  # type: ignore[index]
        return True
    if span.lastgroup == "season":
        return before in _NAMED_LEAD and not _NOUN_AFTER.match(query, span.end()) and not text[0].isupper()
    return before in _NAMED_LEAD or past and before not in _OWNERS


def _temporal(kind: str, before: str, past: bool, bare_weekday: bool = False) -> bool:
    """Whether a span of ``kind`` (a ``_SPAN`` group) preceded by the word ``before`` is a
    time in a question (``past``: asked in the past tense; ``bare_weekday``: the span opens with a weekday)."""
    if kind == "quarter":
        return True
    if kind == "part":  # "Wednesday evening" as a bare weekday is; "yesterday evening" always
        return before not in ("a", "an", "every", "each") and (not bare_weekday or _temporal("weekday", before, past))
    if kind == "weekend":  # "over the weekend" in a past question; "on weekends" is no time
        return before in ("last", "this", "past", "previous") or past
    if kind == "month":
        return before in _MONTH_LEAD or before in _AHEAD_LEAD
    if kind == "year":
        return before in _YEAR_LEAD
    if kind == "weekday":
        if before in ("since", "last", "this", "past", "previous") or before in _AHEAD_LEAD:
            return True
        if before in ("a", "an", "every", "each"):
            return False
        return past
    return True


class TimeParser:
    """Finds the time a question names; loads dateparser on first use (about 0.4 s,
    plus its first search), so call :meth:`warm_up` off the request path."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # dateparser's caches are not known to be thread-safe

    def warm_up(self) -> None:
        """Load dateparser, its English data and the names of :mod:`.timeforeign` now."""
        self.find(in_english("what happened in March 2024"), 0)

    def find(self, query: str, now_ms: int) -> TimeRange | None:
        """The most specific time expression of ``query`` as a range, or None.
        More: docs/retrieval-tuning.md#timewords-find."""
        # (text, direction, ahead, part, the words naming the part, the words naming it all)
        spans: list[tuple[str, str, bool, tuple[str, int], str, str, tuple[str, str] | None]] = []
        listed: list[_Listed] = []
        worded: dict[str, str] = {}  # a span's text with its day in digits: the words the question writes
        past = bool(_PAST_TENSE.search(query)) and not _NOT_PAST.search(query)
        due = not past and _DUE.search(query) is not None  # "what was planned in March?" is the past March
        matches = list(itertools.islice(_SPAN.finditer(query), SPANS_MAX))
        pair = _pair(query, matches)
        for m in matches:
            kind = m.lastgroup or ""
            beside = _weekday_beside(query, m) if kind in ("date", "digits") else None
            first = m.start() if beside is None else query.find(beside[0], max(0, m.start() - _LOOKBACK))
            found = _word_before(query, first)  # before a weekday beside the date: "on Friday 27 November"
            before = found.group(1).lower() if found else ""
            if kind in ("season", "holiday") and before == "the":  # "in the summer", "the summer camp"
                found = _word_before(query, found.start(1)) if found else None
                before = found.group(1).lower() if found else ""
            part = _PART_OF.search(query, max(0, m.start() - _LOOKBACK), m.start())
            if part and part[4] and _SAID_OF.search(query, max(0, part.start() - _LOOKBACK), part.start()):
                part = None  # "was payroll late last week?": late is what payroll was
            begin = part.start() if part else found.start(1) if found and before in _AHEAD_WORDS else first
            head = _DIRECTION.search(query, max(0, begin - _LOOKBACK), begin)
            unit = _word_before(query, head.start()) if head else None
            if unit and unit.group(1).lower() in _UNITS:
                head = None  # "the Sunday before October 25": read as that day, when a memory tells of it
            direction = _direction(head) if head else ""
            lead = direction or ("during" if part else before)  # the word the time reads as led by
            if listed and not direction and LIST_JOIN.fullmatch(query, listed[-1][1], first):
                lead = listed[-1][5]  # "on 11/03 and 12/03", "in March and April": led as the time before it
            bare = re.match(_WEEKDAYS, m.group(0), re.IGNORECASE) is not None
            if kind == "weekday" and (lead in ("", "the") or lead in _OWNERS) and _NOUN_AFTER.match(query, m.end()):
                continue  # "Friday deploys allowed?", "were the Monday standups moved?": of every Friday, Monday
            if kind == "digits" and _SHORT_DATE.fullmatch(m.group(0)) and (
                    lead not in _SHORT_DATE_LEAD or _measured(query, m, found)):
                continue  # "a 16/9 screen", "3/4 of the budget", "a ratio of 16/9": no day
            if kind == "digits" and before in _VERSION_LEAD:
                continue  # "build 2026.11.13": a version
            if kind == "digits" and _DAY_ALONE.fullmatch(m.group(0)) and lead not in ("on", "since"):
                continue  # "before the 10th": of this month or the last, unsaid
            if kind == "year" and _measured(query, m, found):
                continue  # "the timeout of 1990", "after 2000 requests": a number
            # A year ahead after "for" or "by" is one, as a month is ("planned for 2028"); a past one what a
            # plan was for ("the plan for 2026"), no time asked in.
            ahead_year = kind == "year" and lead in _AHEAD_LEAD and int(m.group(0)) > datetime.fromtimestamp(
                now_ms / 1000, tz=UTC).year
            if kind in ("season", "holiday") and not _named_time(m, query, lead, past):
                continue  # "the summer camp", "in Spring Boot", "our Black Friday sale"
            if (ahead_year or _temporal(kind, lead, past, bare)) \
                    and not (kind == "month" and _a_name(m.group(0), lead, query, m.end())):
                # A time after "next", or after "for"/"by" or a quarter without a year: only a memory
                # saying it covers it. With a year, "by July 10, 2022" is that day: past, or ahead
                # when it is to come (below).
                # A quarter without a year is this year's in a past-tense question ("what did we do in Q3?"),
                # else only a memory's saying it ("what ships in Q1?").
                ahead = kind not in ("combined", "digits") and (before in _AHEAD_WORDS or (
                    (before in _AHEAD_LEAD or kind == "quarter" and not past)
                    and (kind == "year" or not _YEAR.search(m.group(0))))
                    or _WEEK_FROM.match(m.group(0)) is not None)
                # "next March" is removed from the question whole; "for" stays a word of it.
                text = query[found.start(1):m.end()] if found and before in _AHEAD_WORDS else m.group(0)
                if kind in ("monthday", "date") and _DAY_WORD_TEXT.search(text):
                    worded[_digit_days(text)] = text  # "Friday the twentieth" read as "Friday the 20th"
                    text = _digit_days(text)
                spans.append((text, direction, ahead, _part(part), query[begin:m.end()],
                              query[head.start() if head else begin:m.end()], beside))
                if not (direction or ahead or part):
                    listed.append((first, first + len(beside[0]) if beside else m.end(), kind, text, beside, lead))
        # The most specific first: a span with a year, then the longest ("Christmas 2024" is 2024).
        spans.sort(key=lambda s: (_YEAR.search(s[0]) is not None, len(s[6][0] if s[6] else s[0])), reverse=True)
        spans = list(dict.fromkeys(spans))[:PARSED_MAX]
        if not spans and pair is None:
            return recent(query, now_ms)
        from dateparser.date import DateDataParser

        base = datetime.fromtimestamp(now_ms / 1000, tz=UTC).replace(tzinfo=None)
        latest = now_ms + limits.FUTURE_TOLERANCE_MS
        settings = {"RELATIVE_BASE": base, "PREFER_DATES_FROM": "past", "RETURN_TIME_AS_PERIOD": True}
        with self._lock:
            parser = DateDataParser(languages=["en"], settings=settings)
            if pair is not None:
                first, last = (self._range(parser, text, False, base, now_ms) for text in pair[1:])
                alike = first is not None and last is not None and bool(first.days or last.days)
                if alike and (found_pair := _read_alike(*pair, base, now_ms)) is not None:
                    return found_pair
                if not alike and first is not None and last is not None and first.observable and last.observable \
                        and first.start <= last.start:
                    end = min(last.end, latest)
                    return TimeRange(first.start, end, pair[0], shown_end=min(end, now_ms))
            run = _run(query, listed)
            texts = _one_month([text for _, _, _, text, _, _ in run], base)
            read = [self._range(parser, text, False, base, now_ms, past) for text in texts] if len(run) > 1 else []
            if read and all(r is not None and r.observable for r in read):
                both = _together(query[run[0][0]:run[-1][1]],
                                 [r if beside is None else _with_weekday(r, *beside)  # type: ignore[arg-type]
                                  for r, (*_, beside, _) in zip(read, run, strict=True)], now_ms)
                return replace(both, present=not past or both.end > now_ms or _STATE_VERB.search(query) is not None)
            for text, direction, ahead, part, named, phrase, beside in spans:
                found_range = self._range(parser, text, ahead, base, now_ms, past)
                if found_range is not None and beside is not None:
                    found_range = _with_weekday(found_range, *beside)
                if found_range is not None and found_range.said is not None and due and _MONTH_ALONE.fullmatch(text):
                    found_range = replace(found_range, said=replace(found_range.said, year=None))
                if found_range is not None and found_range.observable and part[0]:  # of the whole period
                    whole = self._range(parser, text, ahead, base, _FAR_MS, past) or found_range
                    found_range = _part_of(whole, part, named, now_ms) or found_range
                    if not found_range.observable and text.lower() == "the month":  # its end, early in it
                        whole = self._range(parser, "last month", False, base, _FAR_MS) or whole
                        found_range = _part_of(whole, part, named, now_ms) or found_range
                if found_range is not None and direction:
                    found_range = _beyond(found_range, direction, phrase, now_ms)
                if found_range is not None and text in worded:
                    words = found_range.phrase or found_range.text
                    found_range = replace(found_range, phrase=worded[text] if words in (text, found_range.text)
                                          else words.replace(text, worded[text]))
                if found_range is not None:
                    return replace(found_range, present=not past or found_range.end > now_ms
                                   or _STATE_VERB.search(query) is not None)
        return recent(query, now_ms)

    def words_of_times(self, query: str, now_ms: int) -> set[str]:
        """The words (lower case) of the times :meth:`find` reads in ``query``, one after another, each taken
        out before the next (at most ``LISTED_MAX``): a time left in a question once its time is out ("March
        5" of "on March 3, or possibly even March 5") is no name."""
        words: set[str] = set()
        for _ in range(LISTED_MAX):
            found = self.find(query, now_ms)
            rest = query if found is None or found.vague else found.remove_from(query)
            if rest == query:
                break
            words.update(w.lower() for w in re.findall(r"\w+", found.phrase or found.text))  # type: ignore[union-attr]
            query = rest
        return words

    @staticmethod
    def _range(parser: Any, text: str, ahead: bool, base: datetime, now_ms: int,
               past: bool = False) -> TimeRange | None:
        """The range the span ``text`` names (``ahead``: only a memory saying it covers it; ``past``: asked
        in the past tense), or None when dateparser reads no time in it or it lies ahead unsaid."""
        latest = now_ms + limits.FUTURE_TOLERANCE_MS
        if _HOLIDAY_TEXT.match(text):
            return _holiday(text, base, latest, now_ms, past, ahead)
        said = Said.of(text)
        near = re.fullmatch(_QUARTER_NEAR, text, re.IGNORECASE)
        if near:  # "last quarter", "next quarter": the calendar quarter that many back (ahead: only a memory saying it)
            moment = _back(base.replace(month=3 * ((base.month - 1) // 3) + 1, day=1),
                           {"this": 0, "next": -3}.get(near[1].lower(), 3), "month")
            return _timed(text, moment, "quarter", Said(frozenset(range(moment.month, moment.month + 3)), moment.year),
                          latest, now_ms)
        following = re.fullmatch(_NEXT_PERIOD, text, re.IGNORECASE)
        if following:  # "next year", "next month", "next week": none observed yet, only a memory saying it
            unit = following[1].lower()
            moment = _back(base, -1, unit)
            if unit == "week":
                return TimeRange(0, 0, text, said=Said(year=moment.isocalendar()[0], week=moment.isocalendar()[1]))
            months = range(1, 13) if unit == "year" else (moment.month,)
            return TimeRange(0, 0, text, said=Said(frozenset(months), moment.year))
        if _COMBINED_TEXT.fullmatch(text) or _DIGITS_TEXT.fullmatch(text):
            read = [_combined(text, base)] if _COMBINED_TEXT.fullmatch(text) else _in_digits(text, base, past)
            return _either(text, read, latest, now_ms)
        if ahead and _MONTHDAY.fullmatch(text):  # "by Friday the 18th": the next one
            return _weekday_day(text, base, latest, now_ms, False, ahead=True)
        if ahead:
            if said is not None and said.day is not None and said.year is None and _MONTH_DAY.match(text):
                # "for December 20": the next one (this year's, or next year's once past)
                said = replace(said, year=base.year + ((min(said.months), said.day) < (base.month, base.day)))
            said = said or _quarter(text)[1] or _whole_year(text)
            if said is not None:
                return TimeRange(0, 0, text, said=said)
            return None
        if _MONTHDAY.fullmatch(text):
            return _weekday_day(text, base, latest, now_ms, past)
        quarter, quarter_said = _quarter(text, base.year)
        said_as = text
        this_day = _THIS_WEEKDAY.match(text)
        back = _WEEKDAY_BACK.match(text)
        rolling = _ROLLING.match(text)
        part = _PART_TEXT.match(text)
        weekend = _WEEKEND.match(text)
        season = _SEASON.match(text)
        if season:  # the latest begun; "last": the latest ended; "this": the one of now, else this year's
            moment = _season(_SEASONS[season[2].lower()], int(season[3]) if season[3] else None,
                             (season[1] or "").lower(), base)
            found = _timed(text, moment, "month", None, latest, now_ms, end=_ms(_back(moment, -3, "month")))
            if found is None and season[3]:  # ahead: a memory saying a month of it that year ("June 2029")
                return TimeRange(0, 0, text, said=Said(frozenset(range(moment.month, min(moment.month + 3, 13))),
                                                       moment.year))
            return found
        if rolling:
            start = _ms(_back(base, _count(rolling[1]), rolling[2].lower()))
            return TimeRange(start, latest, text, shown_end=now_ms)
        if part:  # the part of the day named, in UTC hours (the asker's time zone is not known)
            day_text, name = part[3] or ("yesterday" if part[1] else "today"), (part[1] or part[2] or part[4]).lower()
            day = TimeParser._range(parser, "today" if day_text.lower() == "this" else day_text, False, base, now_ms)
            if day is None or not day.observable:
                return None
            first, last = _PART_HOURS[name]
            start = day.start + first * 3_600_000
            end = min(day.start + last * 3_600_000, latest)
            if start >= latest:
                return None
            return TimeRange(start, end, text, shown_end=min(end, now_ms))
        if weekend:  # Saturday and Sunday: "last" the previous week's, else the latest begun ("this": this week's)
            back_weeks = 1 if (weekend[1] or "").lower() in ("last", "previous") or (
                not weekend[1] or weekend[1].lower() == "past") and base.weekday() < 5 else 0
            start = _weekend(base, -back_weeks)
            if start >= latest:
                return None
            end = min(start + 2 * _DAY_MS, latest)
            return TimeRange(start, end, text, shown_end=min(end, now_ms))
        if quarter:  # without a year, this year's (ahead: only a memory saying it)
            moment, period, said = quarter, "quarter", quarter_said
        elif back:  # the latest such weekday before today, then a week back for each one more
            weekday = _WEEKDAYS.split("|").index((back[1] or back[3]).lower())
            weeks = 1 if back[1] else _count(back[2]) - 1
            moment, period = base - timedelta(days=(base.weekday() - weekday) % 7 or 7, weeks=weeks), "day"
        elif this_day:  # that day of this week (dateparser reads "this Monday" as the next one)
            monday = base - timedelta(days=base.weekday())
            moment: datetime | None = monday + timedelta(days=_WEEKDAYS.split("|").index(this_day[1].lower()))
            period = "day"
        elif " ".join(text.lower().split()) in _DAYS_FROM:  # "yesterday", "the day before yesterday", as in a memory
            moment, period = base + timedelta(days=_DAYS_FROM[" ".join(text.lower().split())]), "day"
        else:
            said_as = _SAID_AS.get(" ".join(text.lower().split()), text)
            data = parser.get_date_data(_PAST.sub("last", said_as))
            moment, period = data.date_obj, data.period or "day"
            if moment is not None and _MONTH_DAY.match(text) and moment.year != base.year and not past:
                # a month and day without a year is this year's, ahead or past; asked in the past tense,
                # the latest before today ("what did we decide on 1 December?"; docs/how-recall-works.md)
                try:
                    moment = moment.replace(year=base.year)
                except ValueError:  # 29 February of a common year: the last year that had one
                    pass
                said = said and replace(said, year=moment.year)
        if moment is None:
            return None
        return _timed(text, moment, period, said, latest, now_ms)


def _weekday_of(word: str) -> int:
    """0 (Monday) to 6 of a weekday's name or its abbreviation ("Fri", "Tues", "Thurs")."""
    return [day[:3] for day in _WEEKDAYS.split("|")].index(word.lower()[:3])


def _weekday_beside(query: str, date: re.Match[str]) -> tuple[str, str] | None:
    """(the words naming it, the weekday) of a weekday beside the ``date`` span: "Friday 27 November",
    "Fri, Nov 27", "27 November, a Friday", "27/11 (a Friday)"; None without one."""
    lead = _WEEKDAY_BEFORE.search(query, max(0, date.start() - _LOOKBACK), date.start())
    trail = _WEEKDAY_AFTER.match(query, date.end()) if lead is None else None
    if lead is None and trail is None:
        return None
    start, end = (lead.start(1), date.end()) if lead else (date.start(), trail.end())  # type: ignore[union-attr]
    return query[start:end], (lead or trail)[1]  # type: ignore[index]


def _with_weekday(found: TimeRange, words: str, weekday: str) -> TimeRange:
    """``found``, a date, named by ``words`` that also give its ``weekday``: the date wins where they disagree
    ("Friday 26 November" when the 26th is a Thursday reads 26 November), and ``note`` says so; of a date
    read two ways, the day that weekday fits ("Tuesday 12/01/2026": 1 December 2026, not Monday 12 January)."""
    named = _weekday_of(weekday)
    fits = [(start, end) for start, end in found.days if (start // _DAY_MS + 3) % 7 == named]  # 1970-01-01: a Thursday
    if len(fits) == 1:
        start, end = fits[0]
        return replace(found, start=start, end=end, shown_end=min(end, found.until), days=(), note=None, phrase=words)
    said = found.said
    if said is not None and said.day is not None and said.year is not None and len(said.months) == 1:
        day: datetime | None = datetime(said.year, min(said.months), said.day)
    elif found.observable and found.end - found.start <= _DAY_MS:
        day = datetime.fromtimestamp(found.start / 1000, tz=UTC).replace(tzinfo=None)
    else:
        day = None
    note = found.note
    if day is not None and day.weekday() != named:
        note = (f"{day.day} {day:%B %Y} is a {_WEEKDAYS.split('|')[day.weekday()].title()}, not a "
                f"{_WEEKDAYS.split('|')[named].title()}: read as the date")
    return replace(found, phrase=words, note=note)


def _digit_days(text: str) -> str:
    """``text`` with each day of the month written as an ordinal word in digits ("twentieth" → "20th")."""
    def digits(found: re.Match[str]) -> str:
        word = re.sub(r"[-\s]+", "", found.group(0).lower())
        tens = 20 if word.startswith("twenty") else 30 if word.startswith("thirty") else 0
        word = word[6:] if tens else word
        day = tens + (20 if word == "twentieth" else 30 if word == "thirtieth" else _DAY_WORDS.index(word) + 1)
        return f"{day}{'th' if 10 <= day % 100 < 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(day % 10, 'th')}"

    return _DAY_WORD_TEXT.sub(digits, text)


def _weekday_day(text: str, base: datetime, latest: int, now_ms: int, past: bool,
                 ahead: bool = False) -> TimeRange | None:
    """The day a weekday with a day of the month names ("Friday the 20th", "the 20th (a Friday)"): of the
    days that are that day of their month and that weekday, from ``_WEEKDAY_BACK_MONTHS`` back to three
    months ahead, the latest up to today (``past``: asked in the past tense), the next one (``ahead``), else
    the nearest; with none, the latest such day of the month, the date winning (``note`` says so)."""
    found = _MONTHDAY.fullmatch(text)
    if found is None:
        return None
    weekday, day = _weekday_of(found[1] or found[4]), int(found[2] or found[3])
    today = base.replace(hour=0, minute=0, second=0, microsecond=0)
    months = [divmod(base.year * 12 + base.month - 1 - back, 12) for back in range(-3, _WEEKDAY_BACK_MONTHS + 1)]
    days = [datetime(year, month + 1, day) for year, month in months if _a_day(year, month + 1, day, strict=True)]
    fits = [d for d in days if d.weekday() == weekday and (d <= today if past else d > today if ahead else True)]
    note = None
    if fits:
        moment = max(fits) if past else min(fits, key=lambda d: abs(d - today))
    else:
        gone = [d for d in days if d <= today]
        if not gone:
            return None
        moment = max(gone)
        note = (f"no {day} of a month was a {_WEEKDAYS.split('|')[weekday].title()} lately: read as "
                f"{moment.day} {moment:%B %Y}")
    said = Said(frozenset({moment.month}), moment.year, moment.day)
    named = _timed(f"{moment.day} {moment:%B %Y}", moment, "day", said, latest, now_ms)
    return None if named is None else replace(named, phrase=text, note=note)


def _timed(text: str, moment: datetime, period: str, said: Said | None, latest: int, now_ms: int,
           end: int | None = None) -> TimeRange | None:
    """The range of the ``period`` holding ``moment`` (to ``end`` when given), named by ``text``; none
    observed yet, only a memory saying it (``said``), or None."""
    start, period_end = period_range(moment, period)
    end = period_end if end is None else end
    if start >= latest:  # nothing is observed then; a memory may say it
        said = said or _whole_year(text)
        return None if said is None else TimeRange(0, 0, text, said=said)
    if said is not None:  # a past March is that year's; a past Monday, one day no text names
        said = None if said.weekday is not None else replace(said, year=said.year or moment.year)
    elif period == "year":
        said = _whole_year(text, past=True)
    end = min(end, latest)
    return TimeRange(start, end, text, said=said, shown_end=min(end, now_ms))


def _either(text: str, read: list[tuple[datetime, str, Said | None]], latest: int, now_ms: int) -> TimeRange | None:
    """The time ``text`` names, of its readings ``read`` (:func:`_in_digits`): the one, or for a date read two
    ways ("12/01/2026": 12 January or 1 December 2026) both, as the days of them observed yet (``days``), with
    a note saying so (none observed: only ahead, and no text says it); None without one."""
    if len(read) < 2:
        return _timed(text, *read[0], latest, now_ms) if read else None
    ranges = [_timed(text, moment, period, None, latest, now_ms) for moment, period, _ in read]
    days = tuple(sorted((r.start, r.end) for r in ranges if r is not None and r.observable))
    named = [f"{moment.day} {moment:%B %Y}" for moment, _, _ in read]
    past = [name for name, r in zip(named, ranges, strict=True) if r is not None and r.observable]
    note = f"{text} may be " + " or ".join(named) + (
        ": read as both" if len(past) != 1 else f": read as {past[0]}, the other is ahead")
    if not days:
        return TimeRange(0, 0, text, note=note)
    return TimeRange(days[0][0], days[-1][1], text, shown_end=min(days[-1][1], now_ms), days=days, note=note)


def _holiday(text: str, base: datetime, latest: int, now_ms: int, past: bool, ahead: bool) -> TimeRange | None:
    """The day the named day ``text`` names ("Black Friday", "Good Friday 2024"): that year's, else this
    year's, the latest before ``base`` asked in the past tense, the next asked ahead; None for one of no
    fixed rule (with a year, that year)."""
    written = _YEAR.search(text)
    rule = _HOLIDAYS[" ".join(text[:written.start() if written else len(text)].lower().replace(",", " ").split())]
    year = int(written.group(0)) if written else base.year
    if rule is None:
        return None if written is None else _timed(text, datetime(year, 1, 1), "year", None, latest, now_ms)

    def day(year: int) -> datetime:
        if rule[0] == "easter":
            from dateutil.easter import easter

            return datetime.combine(easter(year), datetime.min.time()) + timedelta(days=rule[1])
        november = datetime(year, 11, 1)  # Thanksgiving: the fourth Thursday
        return november + timedelta(days=(3 - november.weekday()) % 7 + 21 + rule[1])

    moment = day(year)
    if not written and (past or ahead) and (moment > base) == past:
        moment = day(year - 1 if past else year + 1)
    return _timed(text, moment, "day", Said(frozenset({moment.month}), moment.year, moment.day), latest, now_ms)


def _direction(head: re.Match[str]) -> str:
    """What the ``_DIRECTION`` match ``head`` reads as: "before", "until", "after" or "since"."""
    direction = _DIRECTIONS.get(head[2].split()[0].lower(), "before")
    return _TURNED[direction] if head[1] else direction


def _part(part: re.Match[str] | None) -> tuple[str, int]:
    """The part of a time the ``_PART_OF`` match ``part`` names: ("week", n) for the n-th week of it
    (-1: the last), ("week", 0) for the week of a day, ("third", n) for its n-th third; ("", 0) for none."""
    if part is None:
        return "", 0
    if part[1]:
        word = part[1].lower()
        return "week", -1 if word == "last" else (_ORDINALS.index(word) + 1 if word in _ORDINALS else int(word[0]))
    return ("week", 0) if part[3] else ("third", _THIRDS[(part[2] or part[4]).lower()])


def _part_of(found: TimeRange, part: tuple[str, int], text: str, now_ms: int) -> TimeRange | None:
    """The ``part`` (:func:`_part`) of the whole time ``found``, named by ``text``, up to now: a week of a
    month or longer (days 1-7, 8-14 ..., or its last seven), the calendar week of a day, a third of its
    days (ahead: only a memory saying ``found`` covers it); None when the part does not fit it ("the week of
    November")."""
    days = (found.end - found.start) // _DAY_MS
    unit, number = part
    if not (days == 1 if part == ("week", 0) else days >= (28 if unit == "week" else 3)):
        return None
    if part == ("week", 0):
        start, end = period_range(datetime.fromtimestamp(found.start / 1000, tz=UTC).replace(tzinfo=None), "week")
    elif unit == "week":
        start = found.end - 7 * _DAY_MS if number < 0 else found.start + 7 * (number - 1) * _DAY_MS
        end = min(start + 7 * _DAY_MS, found.end)
    else:
        start, end = (found.start + days * n // 3 * _DAY_MS for n in (number, number + 1))
        end = found.end if number == 2 else end
    end = min(end, now_ms + limits.FUTURE_TOLERANCE_MS)
    if start >= min(end, now_ms):
        return TimeRange(0, 0, text, said=found.said, written=False)
    return TimeRange(start, end, text, said=found.said if unit == "third" else None, shown_end=min(end, now_ms),
                     written=False)


def _beyond(found: TimeRange, direction: str, text: str, now_ms: int) -> TimeRange | None:
    """The time before or after ``found`` that ``direction`` (:func:`_direction`) names, named by ``text``:
    "before", from the epoch to its start; "until", to its end; "after", from its end up to now; "since",
    from its start; of a date read two ways, before or after either day. None when none of it is past, or
    ``found`` lies ahead (nothing observed)."""
    latest = now_ms + limits.FUTURE_TOLERANCE_MS
    last_start, first_end = (found.days[-1][0], found.days[0][1]) if found.days else (found.start, found.end)
    start, end = {"before": (0, last_start), "until": (0, found.end), "after": (first_end, latest),
                  "since": (found.start, latest)}[direction]
    end = min(end, latest)
    if not found.observable or start >= min(end, now_ms):
        return None
    return TimeRange(start, end, text, said=found.said if direction == "since" else None, shown_end=min(end, now_ms),
                     written=direction == "since", note=found.note)


def _combined(text: str, base: datetime) -> tuple[datetime, str, Said]:
    """``(moment, period, said)`` of a ``_COMBINED`` ``text`` read at ``base``: the month or quarter of
    the year, the weekday of the week, that the relative word names ("March last year", "Tuesday
    next week"); "last March" is the latest March before this month, "this March" this year's."""
    parts: dict[str, str] = {}
    for found in _COMBINED_PARTS.finditer(text):
        parts.update({name: value.lower() for name, value in found.groupdict().items() if value})
    offset = {"last": -1, "previous": -1, "this": 0, "next": 1}[parts["relative"]]
    if parts.get("unit") == "week":
        day = base - timedelta(days=base.weekday() - 7 * offset) + timedelta(
            days=_WEEKDAYS.split("|").index(parts["weekday"]))
        return day, "day", Said(frozenset({day.month}), day.year, day.day)
    first = _month(parts["month"]) if "month" in parts else 3 * int(parts["quarter"][1]) - 2
    months = frozenset({first}) if "month" in parts else frozenset(range(first, first + 3))
    if "unit" in parts:
        year = base.year + offset
    else:  # "this March", "last March"
        year = base.year if offset == 0 or first < base.month else base.year - 1
    return datetime(year, first, 1), "month" if "month" in parts else "quarter", Said(months, year)


def _in_digits(text: str, base: datetime, past: bool = False,
               order: int | None = None) -> list[tuple[datetime, str, Said | None]]:
    """The readings ``(moment, period, said)`` of a ``_DIGITS`` ``text``, none when it names no time: an
    ISO 8601 date-time is the UTC day holding its moment (memories' days are UTC days); a date with its
    year first is year, month, day ("2026/11/13"); with its year last, day first with dots ("1.12.2026",
    as in Europe), else read both ways: "13-11-2026" and "11/13/2026" name one day, "12/01/2026" two, and
    both are its readings (docs/how-recall-works.md#dates-in-digits). Without a year ("11/27"), the day of
    ``base``'s year, or (``past``) the latest before ``base``. "Week 48" is that ISO week of ``base``'s
    year (the year before when it is ahead); "the 1st" the latest 1st up to ``base``. ``order`` 0 or 1 keeps
    only the day-first or the month-first reading of a date read both ways."""
    week = _ISO_WEEK.fullmatch(text)
    if week:
        year, number = int(week[2]) if week[2] else base.year, int(week[1])
        monday = _iso_monday(year, number)
        if not week[2] and (monday is None or monday > base):
            monday = _iso_monday(year - 1, number)
        if monday is None:
            return []
        iso_year, iso_week, _ = monday.isocalendar()
        return [(monday, "week", Said(year=iso_year, week=iso_week))]
    alone = _DAY_ALONE.fullmatch(text)
    if alone:
        day, months = int(alone[1]), base.year * 12 + base.month - 1
        while not _a_day(months // 12, months % 12 + 1, day, strict=True) or datetime(
                months // 12, months % 12 + 1, day) > base:
            months -= 1
        moment = datetime(months // 12, months % 12 + 1, day)
        return [(moment, "day", Said(frozenset({moment.month}), moment.year, day))]
    if _ISO_DATE_TIME.match(text):
        try:
            ms = parse_iso("question", text.replace(",", "."))
        except InvalidInput:
            return []
        moment = datetime.fromtimestamp(ms / 1000, tz=UTC).replace(tzinfo=None)
        return [(moment, "day", Said(frozenset({moment.month}), moment.year, moment.day))]
    short = _SHORT_DATE.fullmatch(text)
    numeric = _NUMERIC_DATE.fullmatch(text)
    if short:  # (year, month, day): day first, then month first
        first, second = int(short[1]), int(short[2])
        readings: list[tuple[int | None, int, int]] = [(None, second, first), (None, first, second)]
    elif numeric:
        first, separator, middle, last = int(numeric[1]), numeric[2], int(numeric[3]), int(numeric[4])
        if len(numeric[1]) < 4 and len(numeric[4]) == 2:  # "12/1/26": POSIX's century (69-99 are 19..)
            last = datetime.strptime(numeric[4], "%y").year
        if len(numeric[1]) == 4:
            readings = [(first, middle, last)]
        else:
            readings = [(last, middle, first)] if separator == "." else [(last, middle, first), (last, first, middle)]
    else:
        return []
    if order is not None and len(readings) == 2:
        readings = readings[order:order + 1]
    days = []
    for year, month, day in dict.fromkeys(readings):
        if year is None:  # "11/27": this year's, or asked in the past tense the latest before today
            year = base.year - 1 if past and (month, day) > (base.month, base.day) else base.year
            while _a_day(year, month, day) and not _a_day(year, month, day, strict=True):
                year -= 1  # 29 February: the last year that had one
        if _a_day(year, month, day, strict=True):
            days.append((datetime(year, month, day), "day", Said(frozenset({month}), year, day)))
    return sorted(days, key=lambda reading: reading[0])


def _run(query: str, listed: list[_Listed]) -> list[_Listed]:
    """The longest run of the times ``listed`` (in ``query``'s order) that ``query`` lists one after the other
    (``LIST_JOIN`` between each two; spaces alone only between two dates), at most ``LISTED_MAX`` and not led by
    "between" or "from" (a range, ``_pair``, or a year said once); [] for none."""
    best: list[_Listed] = []
    run: list[_Listed] = []
    for item in listed:
        if run:
            gap = query[run[-1][1]:item[0]]
            joined = LIST_JOIN.fullmatch(gap) is not None or item[0] > run[-1][1] and not gap.strip() \
                and {run[-1][2], item[2]} <= {"date", "digits"}
            run = [*run, item] if joined else [item]
        else:
            run = [item]
        best = run if len(run) > len(best) else best
    return best if 1 < len(best) <= LISTED_MAX and best[0][5] not in _RANGE_LEAD else []  # "between A and B 2023"


def _one_month(texts: list[str], base: datetime) -> list[str]:
    """``texts``, times listed; when each is a day of the month alone, in order ("the 3rd, the 5th and the 9th"),
    as those days of the latest month holding them all up to ``base`` ("3 November 2026", asked on 6 December)."""
    found = [_DAY_ALONE.fullmatch(text) for text in texts]
    days = [int(f[1]) for f in found if f]
    if not days or len(days) < len(texts) or days != sorted(days):  # "the 31st and the 1st": each the latest
        return texts
    months = base.year * 12 + base.month - 1
    while not all(_a_day(months // 12, months % 12 + 1, day, strict=True) for day in days) or datetime(
            months // 12, months % 12 + 1, max(days)) > base:
        months -= 1
    return [f"{day} {MONTH_NAMES[months % 12].title()} {months // 12}" for day in days]


def _together(text: str, read: list[TimeRange], now_ms: int) -> TimeRange:
    """The times ``read`` of a list named by ``text`` as one range whose ``days`` are theirs (overlapping or
    touching ones merged: "Monday and Tuesday" is one range), with their notes."""
    days: list[tuple[int, int]] = []
    for start, end in sorted(day for r in read for day in (r.days or ((r.start, r.end),))):
        if days and start <= days[-1][1]:
            days[-1] = (days[-1][0], max(days[-1][1], end))
        else:
            days.append((start, end))
    notes = "; ".join(r.note for r in read if r.note)
    end = days[-1][1]
    return TimeRange(days[0][0], end, text, shown_end=min(end, now_ms), days=tuple(days) if len(days) > 1 else (),
                     note=notes or None)


def _read_alike(phrase: str, first: str, last: str, base: datetime, now_ms: int) -> TimeRange | None:
    """The range ``phrase`` names from the date in digits ``first`` to ``last``, both read day first or both
    month first ("between 12/01/2026 and 12/02/2026": 12 January to 12 February, or 1 to 2 December, as its
    ``days``; never 12 January to 2 December), with a note saying so; None when none of it is past."""
    latest, spans, said = now_ms + limits.FUTURE_TOLERANCE_MS, [], []
    for order in (0, 1):
        starts, ends = (_in_digits(text, base, order=order) for text in (first, last))
        if starts and ends:
            start, end = period_range(*starts[0][:2])[0], min(period_range(*ends[-1][:2])[1], latest)
            if start < min(end, now_ms) and (start, end) not in spans:
                spans.append((start, end))
                said.append(f"{starts[0][0]:%-d %B %Y} to {ends[-1][0]:%-d %B %Y}")
    if not spans:
        return None
    spans, end = sorted(spans), max(end for _, end in spans)
    note = f"{phrase} may be " + " or ".join(said) + ": read as both" if len(spans) > 1 else None
    return TimeRange(spans[0][0], end, phrase, shown_end=min(end, now_ms), days=tuple(spans) if note else (),
                     note=note)


def _iso_monday(year: int, week: int) -> datetime | None:
    """The Monday of ISO 8601 ``week`` of ``year``, or None when that year has no such week."""
    try:
        return datetime.fromisocalendar(year, week, 1)
    except ValueError:
        return None


def _a_day(year: int, month: int, day: int, strict: bool = False) -> bool:
    """Whether ``month`` and ``day`` name a day of ``year`` (29 February of any, unless ``strict``)."""
    if not 1 <= month <= 12:
        return False
    last = calendar.monthrange(year, month)[1] if strict or month != 2 else 29
    return 1 <= day <= last


# Words naming an amount, after which a number is one ("the timeout of 1990", "port 2020", "max 2000"),
# and units after a number ("after 2000 requests", "in 2048 MB").
_MEASURES = frozenset(
    "timeout timeouts limit limits port ports size sizes max maximum min minimum cap caps capacity quota threshold"
    " ttl length count total batch buffer pool retries interval delay latency rate width height depth number"
    " price cost fee amount value id ticket ratio ratios score scores rating share fraction odds".split())
_UNIT = re.compile(
    r"\s*(?:%|(?:ms|s|secs?|seconds?|minutes?|mins?|hours?|hrs?|bytes?|[kmgt]i?b|rows?|requests?|reqs?|rps|qps"
    r"|users?|seats?|items?|records?|connections?|tokens?|px|characters?|chars?|lines?|words?|entries|messages?"
    r"|calls?|retries|points?|eur|usd|gbp|euros?|dollars?)\b)", re.IGNORECASE)


def _measured(query: str, year: re.Match[str], before: re.Match[str] | None) -> bool:
    """Whether the bare year ``year`` found in ``query`` is a number: a unit follows it, or one of
    ``_MEASURES`` is the word before it or before the "of" leading to it."""
    if _UNIT.match(query, year.end()):
        return True
    if before is None:
        return False
    word = before.group(1).lower()
    if word == "of":
        before = _word_before(query, before.start(1))
        word = before.group(1).lower() if before else ""
    return word in _MEASURES


def _pair(query: str, matches: list[re.Match[str]]) -> tuple[str, str, str] | None:
    """``(phrase, first, last)`` for two times ``query`` joins as one range ("between November 10 and
    November 20", "from Monday to Wednesday", "from 2026-11-10 - 2026-11-20", "between the 3rd November and
    9th November"), or None."""
    for a, b in zip(matches, matches[1:]):
        found = _word_before(query, a.start())
        if found and found.group(1).lower() == "the":
            found = _word_before(query, found.start(1))
        if found and found.group(1).lower() in _RANGE_LEAD and _RANGE_JOIN.fullmatch(query, a.end(), b.start()):
            return query[found.start(1):b.end()], a.group(0), b.group(0)
    return None


def recent(query: str, now_ms: int) -> TimeRange | None:
    """The vague recent time ``query`` names ("recently", "the past few days") up to a day
    after ``now_ms`` (``limits.FUTURE_TOLERANCE_MS``), or None."""
    found = _RECENT.search(query)
    if found is None:
        return None
    days = RECENT_DAYS.get((found.group("recent") or found.group("few") or "").lower(), RECENT_DEFAULT_DAYS)
    return TimeRange(now_ms - days * _DAY_MS, now_ms + limits.FUTURE_TOLERANCE_MS, found.group(0), vague=True,
                     shown_end=now_ms)


def _count(number: str | None) -> int:
    """The count a ``_NUMBER`` writes ("3", "two", "a"); 1 when None ("the past week")."""
    if number is None:
        return 1
    word = number.lower()
    if word.isdigit():
        return _ROLLING_MAX if len(word) > 5 else min(int(word), _ROLLING_MAX)
    return max(1, _NUMBER_WORDS.index("a" if word == "an" else word))


def _back(moment: datetime, count: int, unit: str) -> datetime:
    """``moment`` ``count`` days, weeks, months or years earlier (a month's day kept, or its last),
    never before the epoch."""
    if unit == "hour":
        return max(_EPOCH, moment - timedelta(hours=min(count, 24 * ((moment - _EPOCH).days + 1))))
    if unit in ("day", "week"):
        days = count * (7 if unit == "week" else 1)
        return max(_EPOCH, moment - timedelta(days=min(days, (moment - _EPOCH).days + 1)))
    months = moment.year * 12 + moment.month - 1 - count * (12 if unit == "year" else 1)
    year, month = months // 12, months % 12 + 1
    if year < _EPOCH.year:
        return _EPOCH
    return moment.replace(year=year, month=month, day=min(moment.day, calendar.monthrange(year, month)[1]))


# A time a statement is dated by that names no range ("next sprint", "the following week", "FY27", "effective
# immediately"): read by :func:`time_end` beside the times above.
_STATEMENT_TIME = re.compile(
    rf"(?:(?:{_RELATIVE}|{'|'.join(sorted(_AHEAD_WORDS))}|following)\s+(?:{'|'.join(sorted(_UNITS | _SEASONS.keys()))}"
    r"|sprint|release|cycle|iteration|semester|term|season)|h[12]|fy\d\d|immediately)(?![\w-])", re.IGNORECASE)
_WORD_START = re.compile(r"\b\w")
_ONE_OF_TWO = re.compile(rf"{_RANGE_JOIN.pattern}|\s+or\s+", re.IGNORECASE)  # "Monday to Friday", "May or June"


def time_end(text: str, start: int) -> int | None:
    """Where the time named at ``start`` of ``text`` ends ("1 November", "next sprint", "the end of Q3",
    "mid-March", "next March"): one a question names (``_SPAN``), a memory (``_DAYS_SAID``) or a statement
    (``_STATEMENT_TIME``), perhaps after a part of it (``_PART_OF``) or a word of ``_AHEAD_WORDS``; None when
    there is none, or it is one of two ("Monday to Friday", "Monday or Tuesday")."""
    for word in _WORD_START.finditer(text, start, start + _LOOKBACK):
        at, lead = word.start(), text[start:word.start()].split()
        if at > start and _PART_OF.fullmatch(text, start, at) is None \
                and not (len(lead) == 1 and lead[0].lower() in _AHEAD_WORDS):
            continue
        found = [m.end() for m in (_SPAN.match(text, at), _DAYS_SAID.match(text, at), _STATEMENT_TIME.match(text, at))
                 if m is not None]
        if found:
            return None if _ONE_OF_TWO.match(text, max(found)) else max(found)
    return None
