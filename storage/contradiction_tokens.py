"""One text read into tokens and values, in one pass (no pattern that can backtrack): tokens with their sentence
and clause marks (``_tokens``), a value's type and normal form ("9.15 am" = "09:15", "1,000" = "1000", "v3.9" =
"3.9"), a date's parts, key bodies, and which capitalised words opening a sentence are names (``_names_at``)."""

from __future__ import annotations

import re
from functools import lru_cache

from .contradiction_ending import _BE, _LOWER_WORD, _lower_name, _predicate, may_end
from .contradiction_words import (ABBREVIATIONS, ALIGNED, CLAUSE_WORDS, GERMAN_ARTICLES, HEADS, NAME_VERBS,
                                  NOT_NAMES, NUMBER_WORDS, ONWARD, SHORT, STOP, _BEFORE_VERB, Tokens, holding)
from .timefmt import MONTH_NAMES, MONTH_SHORT, WEEKDAY_NAMES, YEAR

# Days in the other languages whose words the test reads (French, German, Spanish), as English's.
_DAY_WORDS = dict(zip("""lundi mardi mercredi jeudi vendredi samedi dimanche montag dienstag mittwoch donnerstag freitag
samstag sonntag lunes martes miércoles jueves viernes sábado domingo""".split(), WEEKDAY_NAMES * 3))
_ORDINAL = frozenset({"st", "nd", "rd", "th"})
_DATED_BY = frozenset("on since until till by from before after".split())
_YEAR_BY = _DATED_BY | {"in"}  # "due in 2027", "by 2028": a year alone
NAME_PARTICLES = frozenset("de da di del della der den van von la le du dos das ter ten bin ibn al".split())
# One character class repeated: linear in the text's length.
_TOKEN = re.compile(r"[^\s;()\[\]{}\"“”!?]+|[;!?]")
_EDGE = ".,:'’\"*`…™®~"  # "ArgoCD…", "ArgoCD™" name "ArgoCD"
_CLOCK = re.compile(r"(\d{1,2})(?:[:.](\d{2}))?(am|pm|a\.m|p\.m)?")
_HOUR = re.compile(r"(\d{1,2})h(\d{2})?")
_DATE = re.compile(r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}/\d{2,4}|\d{4}/\d{1,2}/\d{1,2}"
                   rf"|(?:0?[1-9]|[12]\d|3[01])\.(?:0?[1-9]|1[0-2])\.{YEAR}")  # "20.12.2026", "2026/12/20"
_NUMBER = re.compile(r"v?(\d{1,3}(?:,\d{3})+|\d+)((?:\.\d+)*)(%?)([a-z]{0,3})")
_DIGIT = re.compile(r"\d")
# A base64 run (a key's or a certificate's body, a random token) or an armour checksum ("=+6Im"): no word
# or value whose swap is a change, when of mixed case with digits (lowercase hex stays a value: a commit id).
_BLOB = re.compile(r"=[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{20,}={0,2}")
_BASE64 = re.compile(r"[A-Za-z0-9+/]+={0,2}")
# An OpenSSH key's type ("ssh-ed25519", "ecdsa-sha2-nistp256", "sk-ssh-ed25519@openssh.com").
_KEY_TYPE = re.compile(r"(?i)(?:sk-)?(?:(?:ssh-)?(?:rsa|dss|ed25519|ed448)|ecdsa-sha2-nistp\d{3}|rsa-sha2-\d{3})"
                       r"(?:-cert-v0\d)?(?:@openssh\.com)?")
_LETTER = re.compile(r"[^\W\d_]")
_MERIDIEM = {"am": "am", "pm": "pm", "a.m": "am", "p.m": "pm"}
_DAY_MONTH = re.compile(r"(\d{1,2})[/.-](\d{1,2})")  # "20/12", "12/20", "12-20": a day and month
_CURRENCY = "$€£¥"
_NE = re.compile(r"[nN]['’][^\W\d_]")  # the French negation joined to its verb: "n'envoyons"
_OF_NAME = re.compile(r"[dD]['’][A-Z]")  # French "de" joined to a name: "d'OVH"
# A list marker opening a line: "-", "*", "•", "1.", "2)".
_BULLET = re.compile(r"[-*•·–—+>]|\d{1,3}[.)]")


def _clock(token: str, meridiem: str | None) -> str | None:
    """``token`` as a time "HH:MM" (``meridiem`` "am"/"pm" from the next word), else None."""
    match = _CLOCK.fullmatch(token)
    hour = _HOUR.fullmatch(token)  # French "14h", "9h30"
    if hour is not None and int(hour[1]) <= 23 and int(hour[2] or 0) <= 59:
        return f"{int(hour[1]):02d}:{hour[2] or '00'}"
    if match is None:
        return None
    hours, minutes, suffix = int(match[1]), match[2], _MERIDIEM.get(match[3] or "") or meridiem
    if suffix is None and (minutes is None or ":" not in token):
        return None  # "9.15" or "9" alone: a number
    if hours > 23 or (suffix and not 1 <= hours <= 12) or int(minutes or 0) > 59:
        return None
    if suffix:
        hours = hours % 12 + (12 if suffix == "pm" else 0)
    return f"{hours:02d}:{minutes or '00'}"


_CLOCK_WORDS = {"midnight": "00:00", "noon": "12:00", "midday": "12:00"}


def _value(raw: str, lower: str, meridiem: str | None, initial: bool) -> tuple[str, str, str | None] | None:
    """(type, normal form, unit word) of a token that states a value, else None."""
    if lower in NUMBER_WORDS:
        return "number", NUMBER_WORDS[lower], None
    if lower in _CLOCK_WORDS:  # "at midnight" / "at 2am": two times
        return "time", _CLOCK_WORDS[lower], None
    if raw.isalpha():
        return _word_value(raw, lower, initial)
    if "-" in lower and lower.count("-") == 1 and ":" in lower:
        parts = [_clock(p, meridiem) for p in lower.split("-")]
        if all(parts):
            return "time", "-".join(parts), None  # type: ignore[arg-type]
    time = _clock(lower, meridiem)
    if time is not None:
        return "time", time, None
    if _DATE.fullmatch(lower):
        return "date", lower, None
    number = _NUMBER.fullmatch(lower.strip(_CURRENCY)) if lower[:1] in _CURRENCY or lower[-1:] in _CURRENCY \
        else _NUMBER.fullmatch(lower)  # "$20", "20€": an amount, as "20 euros" is
    if number is not None and (not number[4] or not number[2]):
        return "number", number[1].replace(",", "") + number[2] + number[3], number[4] or None
    if lower.startswith(("/", "~/", "./")) or "://" in lower or lower.count("/") >= 2:
        return "path", lower, None
    if _KEY_TYPE.fullmatch(lower):  # "ssh-rsa" → "ssh-ed25519": no host or name
        return "key", lower, None
    named = _word_value(raw, lower, initial)
    if named is not None:
        return named
    if _DIGIT.search(lower) or ("." in lower.strip(".") and _LETTER.search(lower)):
        return "ident", lower, None
    return None


def _blob(raw: str, after_one: bool) -> bool:
    """Whether ``raw`` is a base64 run or an armour checksum (``_BLOB``), or, ``after_one``, the short
    last line of a key's body ("YyrU0b6hPJiPrVrM")."""
    if after_one and _BASE64.fullmatch(raw):
        return not raw.isalpha() or len(raw) >= 8 and raw[1:] != raw[1:].lower()
    return _BLOB.fullmatch(raw) is not None and (raw[0] == "=" or bool(_DIGIT.search(raw))
                                                 and raw.upper() != raw != raw.lower())


# Where a sentence ends for ``_keys`` (not at ":": "Deploy key for web-01: ssh-ed25519 AAAA..." is one).
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n")


@lru_cache(maxsize=1024)
def _keys(text: str) -> frozenset[str]:
    """The key bodies ``text`` holds: its base64 runs (``_blob``) of 40 characters or more (a 32-byte key's is 44)."""
    return frozenset(token for token in (raw.strip(_EDGE) for raw in _TOKEN.findall(text))
                     if len(token) >= 40 and _blob(token, False))


def _word_value(raw: str, lower: str, initial: bool) -> tuple[str, str, None] | None:
    """A day, month or name (a capitalised word not opening a sentence, but "I", "I'm", "I'd"; a short
    all-capitals word, a single letter too)."""
    bare = _DAY_WORDS.get(lower) or _DAY_WORDS.get(lower.rstrip("s")) or lower.rstrip("s")
    if bare in WEEKDAY_NAMES:
        return "day", bare, None
    if lower in MONTH_NAMES and raw[0].isupper():
        return "month", lower, None
    if raw[0].isupper() and not initial and (not raw.isupper() or len(raw) <= 6 and raw.isalpha()) \
            and raw != "I" and not lower.startswith(("i'", "i’")):  # "pool A" / "pool B": a label's letter
        return "name", lower, None
    return None


@lru_cache(maxsize=2048)
def _tokens(text: str) -> Tokens:
    """(token, opens a sentence, was possessive, ends a clause, a question mark follows) in order, edge
    punctuation removed; "9,800" stays one token. A line opens a sentence, and a list marker opening
    it ("-", "*", "•", "1.") is no token. Cached: a text's names, reading and words each start here."""
    out: list[tuple[str, bool, bool, bool, bool]] = []
    initial = True
    end = 0
    found = list(_TOKEN.finditer(text))
    for at, match in enumerate(found):
        raw = match.group()
        line_start = match.start() == 0 or "\n" in text[end:match.start()]
        end = match.end()
        if line_start or raw in ";!?":
            initial = True
            if out:
                out[-1] = out[-1][:3] + (True, raw == "?")
            if raw in ";!?" or _BULLET.fullmatch(raw):
                continue  # a list marker is no token, and what follows it opens a sentence
        token = raw.strip(_EDGE)
        owner = token.endswith(("'s", "’s"))
        if owner:
            token = token[:-2]
        bare = raw.rstrip(".,:")  # "Nils' colleague": a name's possessive after its "s", no quote's end
        owner = owner or token[:1].isupper() and bare.endswith(("s'", "s’")) and not bare.startswith(("'", "‘"))
        ends = raw[-1] in ",:" or token.lower() in CLAUSE_WORDS or (
            raw[-1] == "." and raw.lower() not in ABBREVIATIONS)
        # "n'envoyons" read as "ne envoyons", as "ne déployons" is; "d'OVH vers Scaleway" as "de OVH vers ...": whence
        # a change goes (not "l'équipe paiements d'Alice": whose)
        if _NE.match(token) or _OF_NAME.match(token) and not ends and at + 1 < len(found) \
                and found[at + 1].group().lower() in ONWARD:
            out.append((token[0] + "e", initial, False, False, False))
            token, initial = token[2:], False
        parts = token.split("-")
        if len(parts) > 1 and parts[-1].lower() in HEADS and all(part.isalpha() for part in parts):
            # "Marketing-Team", "platform-team": the team of marketing, read as "marketing team" is
            out.extend((part.lower(), initial and not at, owner and at == len(parts) - 1,
                        ends and at == len(parts) - 1, False) for at, part in enumerate(parts))
        elif token:
            out.append((token, initial, owner, ends, False))
        initial = raw[-1] in ".:" and raw.lower() not in ABBREVIATIONS
    return tuple(out)


def _capitalised(token: str) -> bool:
    return token[:1].isupper() and token.isalpha()


@lru_cache(maxsize=2048)
def _names_at(tokens: Tokens, known: frozenset[str]) -> tuple[frozenset[int], frozenset[int]]:
    """Which tokens opening a sentence are read as names, and which particles inside a name are no word of their own
    ("Anne de Vries"). A capitalised word opening a sentence is a name when it is no function word ("The", "Our",
    "Yesterday": ``NOT_NAMES``) and either it, with the capitalised words and particles after it, stands right before
    a verb of state or ownership ("Alice Martin owns", "Jonas Berg is", "Bob now leads": ``NAME_VERBS``; "Nils est
    responsable de": ``HOLDING``), is possessive ("Maya's rent", "Nils' colleague"), or is in ``known`` (written as a
    name inside a sentence of either text compared), or stands before a passive end ("Jenkins got the axe":
    ``_predicate``). Why these: see docs/how-memory-works.md#contradictions. Cached: a reading, its names and the
    test of ``known`` (``contradiction_reading._naming``) each ask it of one text."""
    named: set[int] = set()
    particles: set[int] = set()
    count = len(tokens)
    words = [t[0].lower() for t in tokens]
    for i, (raw, initial, owner, _, _) in enumerate(tokens):
        # Particles between two capitalised words, wherever they stand: "de" in "Anne de Vries"; not after a German
        # noun ("das Marketing von Frau Müller") nor between the ends of a change ("de Jenkins a GitHub Actions").
        if raw in NAME_PARTICLES and i and _capitalised(tokens[i - 1][0]) and not tokens[i - 1][3] \
                and not (i > 1 and words[i - 2] in GERMAN_ARTICLES):
            k = i
            while k < count and tokens[k][0] in NAME_PARTICLES and not tokens[k][3]:
                k += 1
            if k < count and _capitalised(tokens[k][0]) and not tokens[k][1] \
                    and not (k + 1 < count and words[k + 1] in ONWARD and not tokens[k][3]):
                particles.update(range(i, k))
        if not initial or not _capitalised(raw) or raw.lower() in NOT_NAMES:
            continue
        if owner or raw.lower() in known or not raw[1:].islower():  # "Maya's", "CircleCI runs our CI"
            named.add(i)
            continue
        j = i  # the name's last word
        while not tokens[j][3] and not tokens[j][2] and j + 1 < count:
            k = j + 1
            while k < count and tokens[k][0] in NAME_PARTICLES and not tokens[k][3]:
                k += 1
            if k < count and _capitalised(tokens[k][0]) and not tokens[k][1]:
                j = k
                continue
            break
        k = j + 1
        while k < count and tokens[k][0].lower() in _BEFORE_VERB and not tokens[k - 1][3]:
            k += 1
        if not tokens[k - 1][3] and k < count and (tokens[k][0].lower() in NAME_VERBS or holding(words, k) > k):
            named.add(i)
            continue
        m = k  # or before a passive end: "Jenkins got the axe"
        while m < count and tokens[m][0].lower() in _BE and not tokens[m][3]:
            m += 1
        if k < m < count and not tokens[k - 1][3] and _predicate([t[0].lower() for t in tokens[m:m + 4]], 0):
            named.add(i)
    return frozenset(named), frozenset(particles)


@lru_cache(maxsize=1024)
def openers(text: str) -> frozenset[str]:
    """Capitalised words opening a sentence of ``text``, lowercased."""
    return frozenset(t.lower() for t, initial, _, _, _ in _tokens(text) if initial and _capitalised(t))


@lru_cache(maxsize=1024)
def inner_names(text: str) -> frozenset[str]:
    """Words ``text`` writes as names (lowercased): capitalised inside a sentence ("Helix", "Alice"), or
    opening one where ``_names_at`` reads a name ("Jenkins was retired")."""
    tokens = _tokens(text)
    return frozenset(t.lower() for t, initial, _, _, _ in tokens if not initial and _capitalised(t)) | frozenset(
        tokens[i][0].lower() for i in _names_at(tokens, frozenset())[0])


@lru_cache(maxsize=1024)
def lower_names(text: str) -> frozenset[str]:
    """Lower-case words ``text`` reads as names where a change ends one or names what replaces it
    (``_lower_name``): "pagerduty", "opsgenie" of "We dropped pagerduty for opsgenie"."""
    tokens = _tokens(text)
    if not may_end(tokens):
        return frozenset()
    return frozenset(tokens[i][0] for i in range(len(tokens)) if _lower_name(tokens, i))


@lru_cache(maxsize=1024)
def _lower_words(text: str) -> frozenset[str]:
    """The words of ``text`` written in lower case (``_LOWER_WORD``)."""
    return frozenset(t for t, _, _, _, _ in _tokens(text) if _LOWER_WORD.fullmatch(t))


def _month(raw: str) -> bool:
    lower = raw.lower().rstrip(".")
    return raw[:1].isupper() and (lower in MONTH_NAMES or lower in MONTH_SHORT)


def _calendar(tokens: Tokens, at: int, kind: str, norm: str, unit: str | None) -> bool:
    """Whether the number or identifier at ``at`` (read as ``kind``, ``norm``, ``unit``) is part of a date: a day of
    the month beside a month's name or a weekday ("20 December", "Dec 20", "Friday 20"), an ordinal day not before a
    noun ("the 20th", "on the 21st of"), a year after a month or its day ("December 2026", "Dec 20, 2026"), or a day
    and month in digits after "on", "since" ... ("on 20/12"). Read as a date, a question asking when reads the change
    as one ("20 → 21 December" is a date, not a number)."""
    def raw(j: int) -> str:
        return tokens[j][0] if 0 <= j < len(tokens) else ""

    before, after = raw(at - 1).lower(), raw(at + 1)
    last = not after or tokens[at][3]  # nothing after it in its clause
    pair = _DAY_MONTH.fullmatch(norm) if unit is None else None
    if pair is not None and "." not in norm:  # "on 20/12", "on 12-20", "is 18/12." ("a 3/4 share": a fraction);
        # "on 20.12" stays a number: "runs on 22.04" is a version
        return (before in _DATED_BY or last and "/" in norm and before not in ("a", "an", "the")) \
            and 1 <= min(int(pair[1]), int(pair[2])) <= 12 and max(int(pair[1]), int(pair[2])) <= 31
    if not norm.isdigit() or len(norm) > 4:
        return False
    value = int(norm)
    if unit is not None:
        return unit in _ORDINAL and 1 <= value <= 31 and (
            last or after.lower() in STOP or _month(after) or after.lower() in WEEKDAY_NAMES)
    if 1 <= value <= 31 and any(_month(w) or w.lower() in WEEKDAY_NAMES for w in (raw(at - 1), after)):
        return True
    return 1900 <= value <= 2099 and (_month(raw(at - 1)) or _month(raw(at - 2)) and raw(at - 1).isdigit()
                                      or before in _YEAR_BY and (last or after.lower() in STOP))  # "in 2027"


def _short_month(tokens: Tokens, at: int) -> str | None:
    """The month a capitalised short name at ``at`` stands for ("Dec 20", "4 Jan", "in Sept", "Dec 2026"),
    read beside a day or year in digits or after "in", "on", "since" ...; else None ("Jan owns the API")."""
    raw = tokens[at][0]
    short = raw.lower().rstrip(".")
    if not raw[:1].isupper() or short not in MONTH_SHORT:
        return None
    near = [tokens[j][0].rstrip(",.") for j in (at - 1, at + 1) if 0 <= j < len(tokens)]
    if at and tokens[at - 1][0].lower() in _YEAR_BY or any(w.isdigit() and 1 <= int(w) <= 2099 for w in near):
        return next(m for m in MONTH_NAMES if m.startswith(short[:3]))
    return None


def brief(text: str) -> bool:
    """Whether ``text`` is one short statement (at most ``2 * SHORT`` words), not a chat turn or a
    note: only there does a change verb lower the cosine gate (``CHANGED_SUBJECT``)."""
    return len(_words(text)) <= 2 * SHORT


@lru_cache(maxsize=1024)
def _words(text: str) -> list[str]:
    return [t[0].lower() for t in _tokens(text[:ALIGNED * 40])][:ALIGNED]
