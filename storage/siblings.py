"""Near misses: a memory about a sibling of what the question names ("the Q1 audit deadline" for
"when is the Q2 audit deadline?", "the Berlin office wifi" for "the Paris office wifi?"). Such a
memory matches every other word of the question, so its similarity and its lead over the rest are
high, and recall was sure of it (trial 50: 28 of about 60 questions, 0.51-0.93). Read on words,
no model: docs/retrieval-tuning.md#siblings."""

from __future__ import annotations

import re
import unicodedata

from .contradiction import stem
from .query import GENERIC_WORDS, STOP_WORDS
from .textindex import FOLDED_LETTERS

_TOKEN = re.compile(r"\w(?:[\w.:+-]*\w)?")  # a time with its offset is one word: "09:00+01:00"
_PARTS = re.compile(r"[-_.]")
_SHAPE = re.compile(r"([a-z])[a-z]*|([0-9])[0-9]*")
MONTHS = frozenset("january february march april may june july august september october november december".split())
WEEKDAYS = frozenset("monday tuesday wednesday thursday friday saturday sunday".split())
# Where software runs: one of them in place of another is another system ("production" for "staging");
# a short name is its long one.
ENVIRONMENTS = {"production": "production", "prod": "production", "staging": "staging", "stage": "staging",
                "stg": "staging", "development": "development", "dev": "development", "test": "testing",
                "testing": "testing", "qa": "qa", "sandbox": "sandbox", "preview": "preview"}

# Closed sets of alternatives written as common words: one in place of another is another thing
# ("the web app" for "the mobile app", "the pro plan" for "the free plan", "gold" for "silver").
ALTERNATIVES = {
    **dict.fromkeys(("web", "mobile", "ios", "android", "desktop", "macos", "windows", "linux"), "platform"),
    **dict.fromkeys(("free", "pro", "premium", "enterprise", "starter"), "tier"),
    **dict.fromkeys(("bronze", "silver", "gold", "platinum"), "level"),
}


def sibling(question: str, content: str) -> tuple[str, str] | None:
    """``(question word, memory word)``: a word of ``question`` that ``content`` lacks and a word of
    ``content`` of the same type (:func:`_type`: a name, a code with digits of one form, a month, a
    weekday, an environment, a platform, a tier, a level), not in the question, in its place: both followed by the same word
    ("Q2 security" / "Q1 security", "Paris office" / "Berlin office", "Maria prefer" / "Kenji
    prefers") or after the same word, stop words aside ("account for production" / "account for
    staging"), or codes sharing their first or last part ("es-logs-01" / "es-logs-02"); None when
    there is none. Words compare without case or accents ("Soren" is "Søren"). Linear in the words."""
    asked, said = _words(question), _words(content)
    have, wanted = {stem(w) for w, _ in said}, {stem(w) for w, _ in asked}
    beside: dict[tuple[str, str, str], str] = {}  # (type, "after" or "before", the stem there) of typed words
    codes: list[str] = []
    for at, (word, kind) in enumerate(said):
        if kind is None or stem(word) in wanted:
            continue
        for side, other in _neighbours(said, at):
            beside.setdefault((kind, side, other), word)
        if kind.startswith("code"):
            codes.append(word)
    for at, (word, kind) in enumerate(asked):
        if kind is None or word in STOP_WORDS or word in GENERIC_WORDS or stem(word) in have:
            continue
        for side, other in _neighbours(asked, at):
            if other in have and (kind, side, other) in beside:
                return word, beside[(kind, side, other)]
        for other in codes:
            if _type_of(other) == kind and _shared_part(word, other):
                return word, other
    return None


def _neighbours(words: list[tuple[str, str | None]], at: int) -> list[tuple[str, str]]:
    """("after", the stem of the word right after ``at``) unless it is a stop word, and ("before", the
    stem of the nearest word before it that is none)."""
    out = []
    if at + 1 < len(words) and words[at + 1][0] not in STOP_WORDS:
        out.append(("after", stem(words[at + 1][0])))
    before = next((w for w, _ in reversed(words[:at]) if w not in STOP_WORDS), None)
    if before is not None:
        out.append(("before", stem(before)))
    return out


def _words(text: str) -> list[tuple[str, str | None]]:
    """Each word of ``text``, lowercased without accents, with its type (:func:`_type`)."""
    return [(_folded(w), _type(w)) for w in _TOKEN.findall(text)]


def _folded(word: str) -> str:
    lower = "".join(c for c in unicodedata.normalize("NFKD", word.lower().translate(FOLDED_LETTERS))
                    if not unicodedata.combining(c))
    return ENVIRONMENTS.get(lower, lower)


def _type(word: str) -> str | None:
    """"month", "weekday", "environment", a set of ``ALTERNATIVES`` ("platform", "tier", "level"), "code:<form>" (a digit or an inner "-", "_" or "." in it:
    "Q2" and "Q7" share the form "a9", "es-logs-01" "a-a-9", "search-api" "a-a"), "name" (capitalized, not all capitals of three or more), or None."""
    lower = _folded(word)
    if lower in MONTHS:
        return "month"
    if lower in WEEKDAYS:
        return "weekday"
    if lower in ENVIRONMENTS:
        return "environment"
    if lower in ALTERNATIVES:
        return ALTERNATIVES[lower]
    if any(c.isdigit() for c in word) or _PARTS.search(word.strip("._-")):
        return _type_of(lower)
    if word[:1].isupper() and lower not in STOP_WORDS and not (len(word) > 2 and word.isupper()):
        return "name"
    return None


def _type_of(code: str) -> str:
    return "code:" + _SHAPE.sub(lambda m: "a" if m.group(1) else "9", code)


def _shared_part(a: str, b: str) -> bool:
    """Codes of more than one part sharing their first or last part ("es-logs-01", "es-logs-02")."""
    parts_a, parts_b = _PARTS.split(a), _PARTS.split(b)
    return len(parts_a) > 1 and (parts_a[0] == parts_b[0] or parts_a[-1] == parts_b[-1])
