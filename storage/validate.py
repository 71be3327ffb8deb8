"""Checking and normalising the fields of a memory before anything is written.

Each function returns the normalised value or raises :class:`InvalidInput` naming
the field and its limit. Nothing here touches the database.

Every text comes out in Unicode Normalization Form C (UAX #15), so the same
words typed with precomposed or combining characters (``é`` vs ``e`` + U+0301,
Hangul syllables vs conjoining jamo) hash, compare and match alike. Tags are
also case-folded (``str.casefold``: ``STRASSE`` and ``straße`` are one tag),
following the Unicode caseless matching of chapter 3.13, ``NFC(casefold(NFD(t)))``.
"""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata
from collections.abc import Callable, Collection, Iterable
from typing import Any

from . import limits, unicode_windows
from .errors import NOT_UNICODE, InvalidInput, credentials_in, encodable, shown
from .timefmt import format_ms, parse_iso

# A quoted span of a line, kept whole, or a run of spaces, folded to one (``content_hash``): linear, as
# a quote with no closing one on its line means no later one of its kind there to start a scan.
_QUOTED_OR_SPACES = re.compile(r"""'[^'\n]*'|"[^"\n]*"|`[^`\n]*`|[^\S\t]+""")
_FINAL_STOP = re.compile(r"(?:[.。!！]|…|\.\.\.)\Z")  # a restatement ending in a stop is the same
_INLINE_CODE_MARK = re.compile(r"(?<!`)`(?!`)")  # `npm ci` and npm ci alike; a fence (```) stays
_LEADING_BLANK_LINES = re.compile(r"\A\s*\n")  # up to the last line break before the first character
_HEX = re.compile(r"[0-9a-f]+")
_ID_GROUPS = (0, 8, 12, 16, 20, 32)  # where a UUID's groups of hex digits start and end
_ID_DIGITS = _ID_GROUPS[-1]
# Characters that show nothing and mean nothing inside running text: zero-width space,
# word joiner, zero-width no-break space (the byte-order mark) and soft hyphen. Text
# pasted from web pages, PDFs and Windows editors carries them ("pass\u200bword", a BOM
# before the first word), so the same words would hash as new content, and a text made
# only of them would be stored as a memory that shows nothing. Content keeps them as
# given (the boot text shows them escaped); its hash, its emptiness check, tags and
# queries ignore them. Zero-width joiner and non-joiner are not among them: they join
# emoji sequences and shape Persian and Indic words.
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u2060\ufeff\u00ad"))
# Every code point that renders as nothing or steers rendering (Unicode's
# Default_Ignorable_Code_Point: zero-width and format characters, variation selectors, tag
# characters, Hangul fillers, the Mongolian vowel separator, the combining grapheme joiner),
# every format (Cf) and control (Cc) character but tab and the line breaks: a credential
# split by one of them reads whole (:func:`bare`).
_IGNORABLE = r"[[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Cc}]--[\t\n\r]]"
# What a name (scope, tenant, tag, key name) may not hold: the above, tab and line breaks,
# private-use characters and white space other than the plain space (no-break, thin, ideographic).
# Blank symbols (U+2800 BRAILLE PATTERN BLANK, U+1D159 MUSICAL SYMBOL NULL NOTEHEAD) too, and a combining mark with no letter before it.
_NOT_IN_NAMES = (
    r"[[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Cc}\p{Co}\p{Zl}\p{Zp}\p{Zs}\p{White_Space}\u2800\U0001D159]--[\x20]]"
    r"|(?:^|(?<=[^\p{L}\p{M}]))\p{M}")
# What joins a credential split by a character a reader may not notice: combining marks (Mc too: Unicode
# 16 made U+1171E one), white space but the plain space, line and paragraph separators, blank symbols.
_SPLITTERS = r"[[\p{M}\p{Zl}\p{Zp}\p{Zs}\u2800\U0001D159]--[\x20]]"
# The same three on ASCII text, where each is a set of control characters (no ASCII code point is
# default-ignorable, a format character, a mark, private-use or a separator but the plain space):
# ASCII text, most of what a hook scans, needs no `regex` (0.015-0.02 s to import: docs/hooks.md#speed).
_ASCII_IGNORABLE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# Dashes a reader takes for "-", and lines for "_", that NFKC leaves as they are (U+2011 becomes U+2010):
# a key written with one of them reads as the key.
_DASHES = str.maketrans({**dict.fromkeys("\u02d7\u2010\u2011\u2012\u2013\u2014\u2015\u2043\u2212\u2796\u2e3a\u2e3b\u301c", "-"),
                         "\u2017": "_"})
_ASCII_NOT_IN_NAMES = re.compile(r"[\x00-\x1f\x7f]")


@functools.cache
def unicode_pattern(source: str) -> Any:
    """``source`` (``_IGNORABLE``, ``_NOT_IN_NAMES``, ``_SPLITTERS``) compiled by the ``regex`` package
    (Unicode properties and set difference, which ``re`` lacks), on first use."""
    import regex

    return regex.compile(source, regex.V1)


# A name mixes no two scripts (Unicode Scripts.txt, by the confusable-homoglyphs package's data)
# but those TR39's "highly restrictive" level allows together: Latin with Han and the Japanese
# or Korean scripts.
_TOGETHER = ({"Latin", "Han", "Hiragana", "Katakana"}, {"Latin", "Han", "Bopomofo"}, {"Latin", "Han", "Hangul"})


def _check_text(field: str, value: str) -> str:
    if not isinstance(value, str):
        raise InvalidInput(field, f"must be a string; got {shown(value)}")
    if "\x00" in value:
        raise InvalidInput(field, "must not contain NUL characters")
    if not encodable(value):
        raise InvalidInput(field, NOT_UNICODE)
    return value


def nfc(text: str) -> str:
    """``text`` in Unicode Normalization Form C (in windows: ``unicode_windows``)."""
    return unicode_windows.normalize("NFC", text)


def visible(text: str) -> str:
    """``text`` without the invisible characters of ``_INVISIBLE``."""
    return unicode_windows.translate(text, _INVISIBLE)


def joined(text: str) -> str:
    """:func:`bare` of ``text`` without combining marks, white space other than the plain space
    and blank symbols (``_SPLITTERS``): a credential split by U+0301, U+00A0 or U+2800 reads
    whole. Scanned for credentials only; linear in the text's length."""
    if text.isascii():  # nothing in it is a splitter
        return bare(text)
    return bare(unicode_windows.sliced(functools.partial(unicode_pattern(_SPLITTERS).sub, ""), text))


def _mixed_scripts(text: str) -> tuple[str, str, int] | None:
    """``(first script, other script, index of the first letter of the other)`` when ``text``'s
    letters mix scripts that are not allowed together (``_TOGETHER``); else None."""
    if text.isascii():  # its letters are all Latin (and the import below costs a hook 0.03-0.07 s)
        return None
    from confusable_homoglyphs import categories

    seen: dict[str, int] = {}
    for i, char in enumerate(text):
        if char.isalpha():
            script = categories.alias(char).replace("_", " ").title()
            if script not in ("Common", "Inherited"):
                seen.setdefault(script, i)
    if len(seen) < 2 or any(set(seen) <= allowed for allowed in _TOGETHER):
        return None
    first, *others = sorted(seen, key=seen.__getitem__)
    other = next(o for o in others if not any({first, o} <= a for a in _TOGETHER))
    return first, other, seen[other]


def _passes_for_latin(text: str) -> tuple[str, str] | None:
    """``(script, Latin reading)`` when every letter of ``text`` is of a script other than
    Latin and reads as an ASCII letter ("рау", all Cyrillic, reads "pay"): Unicode TR39's
    whole-script confusables, by its data in the confusable-homoglyphs package, limited to
    readings a person could type as a name. None for a name with a Latin letter, no letter, or
    a letter with no ASCII look-alike ("проект"; "Москва", which TR39 reads "Mocĸʙa")."""
    if text.isascii():  # a Latin letter or none
        return None
    from confusable_homoglyphs import categories, confusables

    letters = [char for char in text if char.isalpha()]
    if not letters or any(categories.alias(char) == "LATIN" for char in letters):
        return None
    reading = {found["character"]: glyph  # an ASCII look-alike first: "a" before "ɑ"
               for found in confusables.is_confusable("".join(letters), greedy=True, preferred_aliases=["latin"]) or []
               for glyph in sorted((g["c"] for g in found["homoglyphs"] if categories.unique_aliases(g["c"]) == {"LATIN"}),
                                   key=lambda g: not g.isascii())[:1]}
    if set(reading) != set(letters) or not all(glyph.isascii() for glyph in reading.values()):
        return None
    return categories.alias(letters[0]).title(), "".join(reading.get(char, char) for char in text)


def bare(text: str) -> str:
    """``text`` as a reader sees it: in Unicode NFKC (full-width ``ｇｈｐ＿`` reads ``ghp_``,
    ``\u212a`` reads ``K``), dashes as ``-`` and U+2017 as ``_`` (``_DASHES``), without any code point of ``_IGNORABLE``.
    What the credential check also scans; linear in the text's length, each call in windows
    (``unicode_windows``)."""
    if text.isascii():  # NFKC leaves every ASCII character as it is
        return _ASCII_IGNORABLE.sub("", text)
    ignorable = unicode_pattern(_IGNORABLE)
    # before NFKC (which takes U+2017 apart) and after it (which makes U+FE58 an em dash)
    normal = unicode_windows.normalize("NFKC", unicode_windows.translate(text, _DASHES))
    return unicode_windows.sliced(lambda piece: ignorable.sub("", piece.translate(_DASHES)), normal)


def _character(char: str) -> str:
    """``U+200B ZERO WIDTH SPACE``."""
    return f"U+{ord(char):04X}" + (f" {unicodedata.name(char)}" if unicodedata.name(char, "") else "")


def name(field: str, value: str, max_chars: int) -> str:
    """``value`` when it is a name memvault may store (a scope, tenant, tag or API key name):
    1..``max_chars`` characters, unchanged by Unicode NFKC and by trimming, no white space but
    single spaces between words, and no control, format, invisible or private-use character
    (``_NOT_IN_NAMES``), no letters of look-alike scripts mixed, and not written wholly in
    letters of another script that each look Latin ("асме"). Two names that look alike are
    then one name. Never a credential
    (:func:`no_credential`), even where content may hold secrets: results, listings and logs
    repeat names.

    Raises:
        InvalidInput: naming the field, the first character refused (as U+XXXX) and the rule.
    """
    text = _check_text(field, value)
    if not text.strip():
        raise empty(field, value, max_chars)
    if len(text) > max_chars:
        raise InvalidInput(field, f"is {len(text):,} characters; the limit is {max_chars}")
    no_credential(field, text)  # first: the messages below quote the name
    no_private(field, text, "a name is shown whole in results, listings and logs")
    rule = ("a name holds letters, digits, punctuation and symbols, with single plain spaces (U+0020) "
            "between words, so that two names never look alike")
    bad = (_ASCII_NOT_IN_NAMES if text.isascii() else unicode_pattern(_NOT_IN_NAMES)).search(text)
    if bad is not None:
        category = unicodedata.category(bad[0])
        what = ("white space other than a plain space" if bad[0].isspace() or category[0] == "Z"
                else "a control character" if category == "Cc" else "a private-use character" if category == "Co"
                else "a combining mark with no letter before it" if category[0] == "M"
                else "an invisible, blank or format character")
        raise InvalidInput(field, f"holds {_character(bad[0])}, {what}, at character {bad.start() + 1}; {rule}")
    if text != text.strip(" ") or "  " in text:
        where = ("starts with a space" if text[0] == " " else "ends with a space" if text[-1] == " "
                 else f"has two spaces in a row at character {text.index('  ') + 1}")
        raise InvalidInput(field, f"{where} (U+0020); {rule}")
    normal = unicodedata.normalize("NFKC", text)
    if normal != text:
        at = next((i for i, c in enumerate(text) if unicodedata.normalize("NFKC", c) != c), None)
        which = f"holds {_character(text[at])}, a compatibility form of {unicodedata.normalize('NFKC', text[at])!r}" \
            if at is not None else "is not in Unicode normalization form NFKC (a letter and a separate accent)"
        raise InvalidInput(field, f"{which}; write it as {normal!r} ({rule})")
    mixed = _mixed_scripts(text)
    if mixed is not None:
        raise InvalidInput(field, f"mixes {mixed[0]} and {mixed[1]} letters ({_character(text[mixed[2]])} at "
                                  f"character {mixed[2] + 1}); a name's letters come from one script, so that two "
                                  "names never look alike")
    confusable = _passes_for_latin(text)
    if confusable is not None:
        raise InvalidInput(field, f"is written in {confusable[0]} letters that each look like a Latin one, so it passes "
                                  f"for {confusable[1]!r}; a name in another script needs a letter with no Latin "
                                  "look-alike (or write it in Latin letters), so that two names never look alike")
    return text


def folded(text: str) -> str:
    """``text`` as two names are compared for looking alike: NFKC of its case folding of its NFKC form
    (Unicode's NFKC_Casefold, ch. 3.13, without its removal of ignorables, which names never hold), with
    the Turkic foldings too (CaseFolding.txt status T: I to dotless ı, İ to i), so that i, I, ı and İ are
    one letter whichever convention wrote it ("İstanbul", "ISTANBUL", "ıstanbul" and "istanbul")."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold()).replace(
        "i\u0307", "i").replace("ı", "i")


def lookalike(value: str, existing: Iterable[str]) -> str | None:
    """The one of ``existing`` that differs from ``value`` only by letter case or Unicode compatibility
    form (``ACME`` and ``acme``, ``Work`` and ``work``, ``ｗork`` and ``work``): of several, the one
    spelled as folded ("default" beside "Default", as memvault's own names are), else the first sorted;
    None when ``value`` is itself one of them or none is alike."""
    names = set(existing)
    if value in names:
        return None
    key = folded(value)
    return min((name for name in names if folded(name) == key), key=lambda name: (name != key, name), default=None)


def identifier(field: str, value: str) -> str:
    """``value`` when it is an identifier another system assigned (an OAuth token's ``sub``) that memvault
    keys state on, spelled one way: the rules of :func:`name` that make two look-alike spellings one
    (unchanged by Unicode NFKC and by trimming, single plain spaces between words, no control, format,
    invisible or private-use character), without its limits of length, script and credentials, which
    an issuer's identifiers need not meet. Refused, never rewritten: an issuer compares its identifiers
    exactly (RFC 7519 §2 StringOrURI), so a rewritten one could be another's.

    Raises:
        InvalidInput: naming the field, the rule and where, never quoting the value.
    """
    text = _check_text(field, value)
    rule = ("memvault takes one spelling of each: no white space but single plain spaces between words, no "
            "invisible, format or control character, unchanged by Unicode NFKC")
    bad = (_ASCII_NOT_IN_NAMES if text.isascii() else unicode_pattern(_NOT_IN_NAMES)).search(text)
    if bad is not None:
        raise InvalidInput(field, f"holds {_character(bad[0])} at character {bad.start() + 1}; {rule}")
    if text != text.strip(" ") or "  " in text:
        where = "starts or ends with a space" if text != text.strip(" ") else "has two spaces in a row"
        raise InvalidInput(field, f"{where}; {rule}")
    if unicodedata.normalize("NFKC", text) != text:
        at = next((i for i, c in enumerate(text) if unicodedata.normalize("NFKC", c) != c), None)
        which = f"holds {_character(text[at])}, a compatibility form" if at is not None else \
            "is not in Unicode normalization form NFKC (a letter and a separate accent)"
        raise InvalidInput(field, f"{which}; {rule}")
    return text


def fold_tag(text: str) -> str:
    """A tag's stored form: case-folded and NFC (Unicode caseless matching, ch. 3.13),
    without invisible characters (``_INVISIBLE``)."""
    return nfc(unicodedata.normalize("NFD", visible(text)).casefold())


def no_credential(field: str, text: str) -> str:
    """Return ``text`` unless the secret detector finds a credential in it (a read or a
    prompt would carry it back; memvault stores none).

    Raises:
        InvalidInput: naming what the credential looks like, never quoting it.
    """
    described = credentials_in(text)
    if described is not None:
        raise InvalidInput(field, f"is {described}; memvault stores no secrets")
    return text


def empty(field: str, value: str, max_chars: int, alternative: str = "") -> InvalidInput:
    """The one wording of a text field with nothing in it (white space around a text is
    trimmed): ``content: is empty; it must be 1-8,000 characters``, ``... is only white
    space; ...``, then ``alternative`` (``", or left out"``)."""
    what = "is empty" if not value else "is only white space"
    return InvalidInput(field, f"{what}; it must be 1-{max_chars:,} characters{alternative}")


def content(value: str) -> str:
    """NFC-normalise ``value`` without its leading blank lines and trailing white space,
    and check it is 1..CONTENT_MAX_CHARS characters as sent and as stored, and not only invisible
    characters (``_INVISIBLE``). The first line keeps its indentation: in code and YAML
    it says where the lines below it stand."""
    text = _LEADING_BLANK_LINES.sub("", nfc(_check_text("content", value))).rstrip()
    if not visible(text).strip():
        raise empty("content", value, limits.CONTENT_MAX_CHARS)
    if max(len(value), len(text)) > limits.CONTENT_MAX_CHARS:  # as sent, and as stored
        raise content_too_long(max(len(value), len(text)))
    return text


def content_too_long(chars: int) -> InvalidInput:
    """The one wording of a content of ``chars`` characters, over CONTENT_MAX_CHARS."""
    return InvalidInput("content", f"is {chars:,} characters; the limit is {limits.CONTENT_MAX_CHARS:,}. "
                                   f"{limits.SPLIT_ADVICE}")


PRIVATE_REMOVED = "private"  # what a result's ``redacted`` names when ``<private>`` spans were dropped


def public_content(value: str) -> tuple[str, bool]:
    """:func:`content` of ``value`` without its ``<private>...</private>`` spans (text inside them is never
    stored; an unclosed one runs to the end: ``secrets.without_private``, as the hooks drop them), and
    whether any was dropped.

    Raises:
        InvalidInput: as :func:`content`, or nothing is left once the spans are dropped.
    """
    from .secrets import without_private

    if isinstance(value, str):
        if len(value) > limits.CONTENT_MAX_CHARS:  # counted as sent, its private spans too
            raise content_too_long(len(value))
        kept = without_private(value)
        if kept != value:
            if not visible(kept).strip():
                raise InvalidInput("content", "is empty once its <private>...</private> spans are removed (text "
                                   "inside them is never stored): give what is to be remembered outside them")
            return content(kept), True
    return content(value), False


def public(value: str | None) -> tuple[str | None, bool]:
    """A free-text field other than content (``source``, ``reason``, ``note``) without its
    ``<private>...</private>`` spans, as :func:`public_content` drops them (never stored, never
    scanned), and whether any was dropped; None stays None. Trimmed and checked later, as given."""
    if not isinstance(value, str) or ("<" not in value and value.isascii()):
        return value, False
    from .secrets import without_private

    kept = without_private(value)
    return kept, kept != value


def content_hash(text: str) -> str:
    """sha256 of the content with the white space that carries no meaning folded.

    A line break counts as one space, and so does a run of white space within a line other than a
    tab (a no-break space too: it looks like one), so rewrapped prose hashes alike, unless the line
    after the break is indented: then it keeps its line break and its indentation as given (code,
    YAML, nested lists; a snippet shifted as a whole is another snippet). Blank lines, white space
    at the ends of lines, the indentation of a text of one line, invisible characters
    (``_INVISIBLE``), the Unicode normalization form, a full stop, "!" or "…" ending the text, the backquotes
    of inline code and the case of a capitalised first word do not count. Spaces inside quotes
    (``'a  b'`` in SQL, a grep pattern in backquotes) and tabs (tab-separated columns) count as
    written, as do case elsewhere and every other character.
    """
    lines = [line for line in nfc(visible(text)).rstrip().splitlines() if line.strip()]
    pieces = []
    for line in lines:
        indent = line[: len(line) - len(line.lstrip())]
        own = indent if len(lines) > 1 else ""
        body = _QUOTED_OR_SPACES.sub(lambda m: m.group() if m.group()[0] in "'\"`" else " ",
                                     line[len(indent):].rstrip())
        pieces.append(("\n" + own if own else " ") + body)
    folded = _INLINE_CODE_MARK.sub("", _FINAL_STOP.sub("", "".join(pieces).lstrip(" ")))
    if folded[1:2].islower() and folded[:1].isupper():  # "The API ..." / "the API ...", not "US" / "us"
        folded = folded[0].lower() + folded[1:]
    return hashlib.sha256(folded.encode("utf-8")).hexdigest()


def closest(value: str, choices: list[str] | tuple[str, ...]) -> str | None:
    """The choice ``value`` (in any case) is a likely typo of: difflib's ratio at least
    :data:`limits.CLOSE_MATCH`; None when no choice is that close. A value too long to reach that
    ratio with any choice is not compared (difflib's cost grows with it: adv66 NEW-1, a 250 KB tool
    name held the GIL for every tenant)."""
    import difflib  # only a refused value is compared: a hook's start-up does without it

    lowered = value.lower()
    # ratio = 2 * matches / (len(a) + len(b)) <= 2 * len(b) / (len(a) + len(b)): below the cutoff past this
    if len(lowered) * limits.CLOSE_MATCH > max(map(len, choices), default=0) * (2 - limits.CLOSE_MATCH):
        return None
    return next(iter(difflib.get_close_matches(lowered, choices, n=1, cutoff=limits.CLOSE_MATCH)), None)


def not_one_of(field: str, value: object, choices: list[str] | tuple[str, ...]) -> InvalidInput:
    """The one wording of a value outside a vocabulary, on every path: ``kind: 'episodes' is not
    one of fact, ...; did you mean 'episode'?``, suggesting a choice only when one is close
    (:func:`closest`)."""
    close = closest(value, choices) if isinstance(value, str) else None
    hint = f"; did you mean {close!r}?" if close else ""
    return InvalidInput(field, f"{shown(value)} is not one of {', '.join(choices)}{hint}")


def kind(value: str | None) -> str:
    """Return the kind, defaulting to ``fact``; it must be one of ``limits.KINDS``."""
    if value is None:
        return limits.DEFAULT_KIND
    if value not in limits.KINDS:
        raise not_one_of("kind", value, limits.KINDS)
    return value


def kinds(values: list[str] | None) -> list[str] | None:
    """Check a list of kinds used as a filter (None: no filter)."""
    if values is None:
        return None
    for i, value in enumerate(values):
        if value not in limits.KINDS:
            raise not_one_of(f"kinds[{i}]", value, limits.KINDS)
    return sorted(set(values))


def tags(values: list[str] | None, reading: bool = False) -> list[str]:
    """Case-fold, NFC-normalise and de-duplicate tags: at most TAGS_MAX, each a :func:`name`
    of 1..TAG_MAX_CHARS characters. ``reading``: a filter naming tags already stored, which
    may predate the name rules, so only trimmed and its length."""
    if values is None:
        return []
    if len(values) > limits.TAGS_MAX:
        raise InvalidInput("tags", f"has {len(values):,} tags; the limit is {limits.TAGS_MAX}")
    out: list[str] = []
    for i, raw in enumerate(values):
        if not reading:
            name(f"tags[{i}]", raw, limits.TAG_MAX_CHARS)
        tag = fold_tag(_check_text(f"tags[{i}]", raw)).strip()
        if not tag:
            raise empty(f"tags[{i}]", raw, limits.TAG_MAX_CHARS)
        if len(tag) > limits.TAG_MAX_CHARS:
            raise InvalidInput(f"tags[{i}]", f"is {len(tag)} characters; the limit is {limits.TAG_MAX_CHARS}")
        if tag not in out:
            out.append(tag)
    return out


def out_of_range(field: str, low: int, high: int, got: object, unit: str = "") -> InvalidInput:
    """The one wording of an integer field outside ``low..high`` (or not an integer),
    used by storage, the tools' argument check and the CLI alike:
    ``importance: must be an integer from 1 to 10; got 11``. ``got`` is shown as every
    message shows the value it refuses (:func:`errors.shown`); ``unit`` follows the
    range, e.g. " days"."""
    return InvalidInput(field, f"must be an integer from {low:,} to {high:,}{unit}; got {shown(got)}")


def integer(field: str, value: object, low: int, high: int, unit: str = "") -> int:
    """``value`` when it is an integer in ``low..high`` (in ``unit``, e.g. " days");
    raises :func:`out_of_range`."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise out_of_range(field, low, high, value, unit)
    return value


def not_an_id(field: str, value: object, what: str = "memory id", shape: str = limits.ID_SHAPE) -> InvalidInput:
    """The one wording of a value that cannot be an id, on every path (tools, command line,
    import, API keys): ``id: '1.5' is not a memory id: an id is 36 hex digits ...``, the
    value quoted by :func:`errors.shown` in the notation it came in (``1.5`` for a number)."""
    article = "an" if what[:1].lower() in "aeiou" else "a"
    return InvalidInput(field, f"{shown(value)} is not {article} {what}: {shape}")


def id_text(field: str, value: object, what: str = "memory id", shape: str = limits.ID_SHAPE) -> str:
    """``value`` as an id or the start of one, trimmed and lower-case: hex digits, with hyphens where
    a UUID has them whether it was written with them or not, at least ``ID_PREFIX_MIN_CHARS``
    characters (like git's abbreviated hashes). One
    rule for memory ids and API key ids (``what``, ``shape`` name which).

    Raises:
        InvalidInput: ``value`` is not a string, is empty, holds a character no id has
            (:func:`not_an_id`), or is too short to stand for an id.
    """
    if not isinstance(value, str):
        raise not_an_id(field, value, what, shape)
    if not value.strip():
        raise InvalidInput(field, f"is empty: {shape}")
    digits = value.strip().lower().replace("-", "")
    if not _HEX.fullmatch(digits) or len(digits) > _ID_DIGITS:  # "my-note"; longer than any id
        raise not_an_id(field, value.strip(), what, shape)
    # hyphens where a UUID has them (RFC 9562 §4), however they were written: 32 digits without any stand
    # for the id as a UUID parser reads them
    wanted = "-".join(digits[a:b] for a, b in zip(_ID_GROUPS, _ID_GROUPS[1:]) if digits[a:b])
    if len(wanted) < limits.ID_PREFIX_MIN_CHARS:
        raise InvalidInput(
            field, f"{shown(value.strip())} is too short: give at least {limits.ID_PREFIX_MIN_CHARS} characters "
            "of the id"
        )
    return wanted


def ambiguous_id(field: str, value: str, what: str = "memory id") -> InvalidInput:
    """The one wording of a prefix that starts several ids."""
    return InvalidInput(field, f"{shown(value.strip())} is the start of several {what}s; give more characters or "
                               "the whole id")


def importance(value: int | None) -> int:
    """Return the importance, default 5; it must be an integer 1..10."""
    if value is None:
        return limits.DEFAULT_IMPORTANCE
    return integer("importance", value, limits.IMPORTANCE_MIN, limits.IMPORTANCE_MAX)


def no_private(field: str, text: str, why: str) -> str:
    """``text`` when it holds no ``<private>`` span (:func:`public` would drop one): for a field stored or
    shown whole (a name, a key), where dropping part of it would change what it names.

    Raises:
        InvalidInput: naming the field, with ``why`` it can have no private part.
    """
    if ("<" in text or not text.isascii()) and text != public(text)[0]:  # full-width tags too
        raise InvalidInput(field, f"holds a <private> span; {why}, so it has no private part: leave the private "
                                  "text out of it")
    return text


def short_text(field: str, value: str | None, max_chars: int) -> str | None:
    """Trim and NFC-normalise an optional free-text field of at most ``max_chars`` characters, both as
    sent (white space around it counted) and as stored; empty becomes None."""
    if value is None:
        return None
    text = nfc(_check_text(field, value).strip())
    if max(len(value), len(text)) > max_chars:
        raise InvalidInput(field, f"is {max(len(value), len(text)):,} characters; the limit is {max_chars}")
    return text or None


def scope(value: str | None, default: str, field: str = "scope",
          held: Callable[[], Collection[str]] | None = None) -> str:
    """Return the scope (``default`` when None), a :func:`name` of 1..SCOPE_MAX_CHARS characters, exactly
    as written; tenants are checked by it too. A filter passes ``held``, the scopes stored: one of them
    that the name rules refuse (stored before them, 2026-12-02) is read, never a look-alike of one.

    Raises:
        InvalidInput: naming ``field`` and the rule, in the words of a write.
    """
    if value is None:
        return default
    try:
        return name(field, value, limits.SCOPE_MAX_CHARS)
    except InvalidInput:
        if held is None or value not in held():
            raise
    return no_private(field, no_credential(field, value), "a scope is said in results")


def timestamp(field: str, value: str | None) -> int | None:
    """Parse an optional ISO-8601 value of at most TIME_MAX_CHARS characters as sent (white space
    around it counted) to ms since the epoch.

    Raises:
        InvalidInput: naming ``field``: too long, or no date-time.
    """
    if value is None:
        return None
    if isinstance(value, str):
        _check_text(field, value)
        if len(value) > limits.TIME_MAX_CHARS:
            raise InvalidInput(field, f"is {len(value):,} characters; the limit is {limits.TIME_MAX_CHARS} "
                                      "(an ISO-8601 date-time such as 2024-05-01T13:56:00Z)")
    return parse_iso(field, value)  # a number is refused there, worded as any other non-date


def times(observed_at: str | None, expires_at: str | None, now: int) -> tuple[int, int | None]:
    """A memory's ``(observed_at, expires_at)`` in ms from optional ISO-8601 values:
    ``observed_at`` defaults to ``now`` and may run ahead of it by at most
    ``FUTURE_TOLERANCE_MS`` (clock skew); ``expires_at`` must be later than both.

    Raises:
        InvalidInput: naming the field that is malformed or out of order.
    """
    observed = timestamp("observed_at", observed_at)
    if observed is not None and observed > now + limits.FUTURE_TOLERANCE_MS:
        raise InvalidInput("observed_at", f"is more than a day ahead of the server's clock ({format_ms(now)}); "
                                          "leave it out to mean now")
    observed = now if observed is None else observed
    expires = timestamp("expires_at", expires_at)
    if expires is not None and observed_at is not None and expires <= observed:
        raise InvalidInput("expires_at", f"is {format_ms(expires)}, which must be later than observed_at "
                                         f"({format_ms(observed)})")
    if expires is not None and expires <= now:
        raise InvalidInput("expires_at", f"is already past (the server's clock reads {format_ms(now)}): "
                                         "the memory would never be shown")
    return observed, expires


def limit(value: int | None) -> int:
    """Return the recall limit, default 5; an integer 1..RECALL_MAX_LIMIT."""
    if value is None:
        return limits.RECALL_DEFAULT_LIMIT
    return integer("limit", value, 1, limits.RECALL_MAX_LIMIT)


def offset(value: int | None) -> int:
    """Return a listing's offset, default 0; an integer 0..LIST_MAX_OFFSET."""
    if value is None:
        return 0
    return integer("offset", value, 0, limits.LIST_MAX_OFFSET)


def query(value: str, field: str = "query") -> str:
    """Check a recall query (or a text searched as one, named ``field``): a string of at most
    QUERY_MAX_CHARS characters, without NUL or lone surrogates, as every other text field. Other
    control characters are allowed (they are simply not words). Returns the query without its
    ``<private>`` spans (:func:`public`) and invisible characters (``_INVISIBLE``), which would split
    its words.

    Raises:
        InvalidInput: not such a string, or nothing is left once its private spans are dropped.
    """
    _check_text(field, value)
    if len(value) > limits.QUERY_MAX_CHARS:
        raise InvalidInput(field, f"is {len(value):,} characters; the limit is {limits.QUERY_MAX_CHARS:,}")
    kept, dropped = public(value)  # never searched, as a hook's prompt: the one place every search passes
    kept = visible(kept or "")
    if dropped and not kept.strip():
        raise InvalidInput(field, "is empty once its <private>...</private> spans are removed (text inside them "
                                    "is never searched): give words outside them")
    return kept


_SESSION_ID = re.compile(r"[A-Za-z0-9._:-]+")


def session_id(value: object, field: str = "session_id") -> str:
    """``value`` when it is a session id: 1..SESSION_ID_MAX_CHARS letters, digits and ``._:-``, and no
    credential (:func:`no_credential`)."""
    if not isinstance(value, str):
        raise InvalidInput(field, f"must be a string; got {shown(value)}")
    if not value:
        raise InvalidInput(field, f"is empty; a session id is 1-{limits.SESSION_ID_MAX_CHARS} letters, "
                                  "digits and ._:-")
    if len(value) > limits.SESSION_ID_MAX_CHARS:
        raise InvalidInput(field, f"is {len(value):,} characters; the limit is {limits.SESSION_ID_MAX_CHARS}")
    if set(value) == {"."}:  # "." and ".." name folders in a URL's path
        raise InvalidInput(field, f"is {value!r}; a session id needs a letter, digit or _:- besides dots")
    if not _SESSION_ID.fullmatch(value):
        bad = next(c for c in value if not _SESSION_ID.fullmatch(c))
        raise InvalidInput(field, f"holds {_character(bad)}; a session id is letters, digits and ._:- "
                                  "(a UUID)")
    return no_credential(field, value)  # it is shown wherever the session is


def role(value: object, field: str = "role") -> str:
    """``value`` when it is one of ``limits.ROLES`` (:func:`not_one_of` suggests the close one)."""
    if value not in limits.ROLES:
        raise not_one_of(field, value, limits.ROLES)
    return str(value)


def turn_text(value: object, field: str = "text") -> str:
    """A turn's text as it may be stored: a string in NFC, NUL characters and lone surrogates
    made U+FFFD (a captured turn is kept, not refused)."""
    if not isinstance(value, str):
        raise InvalidInput(field, f"must be a string; got {shown(value)}")
    text = value.replace("\x00", "\ufffd")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    return nfc(text)
