"""Refusing credentials: content is scanned with Yelp's detect-secrets before it is stored.

A memory store keeps text for a long time, copies it into indexes and shows it to
models, so a pasted API key would leak far beyond where it was typed. The
detector's pattern plugins (cloud keys, tokens, private keys, passwords in
connection strings, JWTs) are used, run by RE2 in linear time (``secret_re2``), with memvault's
own detectors for newer key formats (``secret_plugins``), seed phrases (``secret_phrases``), payment cards and
Social Security numbers (``secret_cards``) and named
credentials (``secret_named``, ``secret_marks``,
``secret_documents``, ``secret_lists``, ``secret_kinds``) and filters of the values found (``secret_values``); see
``_EXCLUDED`` for the plugins left out.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from . import regex_windows, unicode_windows
from .errors import InvalidInput
from .secret_marks import unmarked
from .secret_re2 import compile_linear, find, unmatched
from .secret_values import is_filtered, masked

# detect-secrets' plugins left out: the generic high-entropy ones and the public-IP one
# (ordinary memories carry commit hashes, UUIDs and addresses), and the keyword plugin,
# whose back-referencing patterns RE2 cannot run (NamedCredentialDetector replaces it).
_EXCLUDED = {"Base64HighEntropyString", "HexHighEntropyString", "IPPublicDetector", "KeywordDetector",
             "JwtTokenDetector"}  # replaced by secret_plugins.JwtDetector
# Patterns of the kept plugins left out: Twilio's Account SID ("AC" and 32 hex digits) is the account's
# identifier, which its documentation prints beside the auth token (the token is ``secret_pairs.tsv``'s).
_EXCLUDED_PATTERNS = {"AC[a-z0-9]{32}"}
# What a refusal calls the credential each of detect-secrets' own plugins finds (its
# secret_type names some by how they were found: "Basic Auth Credentials" is a password
# in a URL). memvault's detectors' types are their labels already.
LABELS = {
    "Artifactory Credentials": "Artifactory token", "AWS Access Key": "AWS access key",
    "Azure Storage Account access key": "Azure Storage account key", "Basic Auth Credentials": "password in a URL",
    "Cloudant Credentials": "Cloudant password or API key", "Discord Bot Token": "Discord bot token",
    "GitHub Token": "GitHub token", "GitLab Token": "GitLab token", "IBM Cloud IAM Key": "IBM Cloud API key",
    "IBM COS HMAC Credentials": "IBM Cloud Object Storage HMAC key", "JSON Web Token": "JSON Web Token",
    "Mailchimp Access Key": "Mailchimp API key", "NPM tokens": "npm access token", "OpenAI Token": "OpenAI API key",
    "Private Key": "private key", "PyPI Token": "PyPI API token", "SendGrid API Key": "SendGrid API key",
    "Slack Token": "Slack token", "SoftLayer Credentials": "SoftLayer API key",
    "Square OAuth Secret": "Square OAuth secret", "Stripe Access Key": "Stripe API key",
    "Telegram Bot Token": "Telegram bot token", "Twilio API Key": "Twilio API key",
}


@functools.cache
def detectors() -> tuple[Any, ...]:
    """The detectors, built once (``secret_plugins``, ``secret_named``): detect-secrets' pattern plugins run
    by RE2, then memvault's. Each is stateless, so scans run side by side without a lock."""
    from . import secret_plugins as own
    from .secret_cards import PaymentCardDetector, SocialSecurityNumberDetector
    from .secret_named import NamedCredentialDetector
    from .secret_phrases import SeedPhraseDetector

    return (*own.builtin_detectors(), own.JwtDetector(), own.KeyFormatDetector(), own.Base58CheckKeyDetector(),
            *own.pair_detectors(), own.UrlPasswordDetector(), NamedCredentialDetector(), SeedPhraseDetector(),
            PaymentCardDetector(), SocialSecurityNumberDetector())


def detect_secrets_patterns() -> dict[str, Any]:
    """What ``detect_secrets_patterns.json`` holds, from the installed detect-secrets: its version and
    its pattern plugins but ``_EXCLUDED``, each ``{"plugin", "secret_type", "patterns"}`` (for RE2:
    ``secret_re2.linear_source``). Write it again when detect-secrets changes (the test says how)."""
    from importlib.metadata import version

    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.plugins.base import RegexBasedDetector

    from .secret_re2 import linear_source

    plugins = [{"plugin": cls.__name__, "secret_type": cls.secret_type,
                "patterns": [linear_source(p) for p in cls.denylist if linear_source(p) not in _EXCLUDED_PATTERNS]}
               for cls in get_mapping_from_secret_type_to_class().values()
               if cls.__name__ not in _EXCLUDED and cls.__module__.startswith("detect_secrets.")
               and issubclass(cls, RegexBasedDetector)]
    return {"detect_secrets": version("detect-secrets"), "plugins": plugins}


def label(secret_type: str, line: str, value: str | None, at: int | None = None) -> str:
    """What a refusal calls a credential of ``secret_type`` found as ``value`` in ``line`` (at offset
    ``at`` of it when given: else where ``value`` first is) (see ``LABELS``; a named credential by the
    word naming it, among the 200 characters before it: ``secret_kinds.named_kind``)."""
    from .secret_kinds import named_kind
    from .secret_named import NamedCredentialDetector

    if secret_type == NamedCredentialDetector.secret_type:
        if at is None:
            at = line.find(value) if value else -1
        return named_kind(line if at < 0 else line[:at])
    return LABELS.get(secret_type, secret_type)


# The values each detector reports from one text, at most: a text made of credentials is
# refused whatever the rest holds, and its refusal names at most a few of them.
MOST_FOUND = 8


# What parts two string literals a program reads as one ('"sk-" + `proj-...`'): a closing quote (', " or `), then
# white space and at most four of: an operator joining strings ("+", Lua's "..", PHP's and Perl's ".", SQL's "||",
# VB's "&", D's "~", JavaScript's and Java's ".concat("), a line break perhaps after a shell's "\\" or a comment
# ("#", "//" or "--", 100 characters at most), a "/* */" comment on one line; then an opening quote ('"\\"' is one
# literal: a backslash alone joins nothing).
# A literal inside a template's or an f-string's interpolation is one piece too: its "}" and the next "${", "{" or
# "#{" join ("`${'sk-'}${'proj-...'}`", "`${'sk-'}` + 'proj-...'"), and either stands between it and the template's
# own text ("`key=${'sk-'}proj-...`", "`key=sk-${'proj-...'}`", f"key={'sk-'}proj-...").
_QUOTE = "[\"'`]"
_JOINER = (r"(?:\+|\.(?:\.|concat\()?|\)\.concat\(|\|\||&|~|(?:\\[ \t]*|(?:#|//|--)[^\n]{0,100}+)?\n|/\*[^\n]{0,100}?\*/"
           r"|\}(?:[ \t]*`)?|(?:`[ \t]*)?\$\{|#?\{)")
_QUOTES = (rf"(?:{_QUOTE}[ \t]*(?:{_JOINER}[ \t]*){{0,4}}{_QUOTE}"
           rf"|{_QUOTE}[ \t]*\}}|[$#]?\{{[ \t]*{_QUOTE})")
# A line break or a tab between two runs of key characters: a key wrapped by a terminal or an email, which reads
# whole once they are taken out (:func:`_unwrapped`); the line break perhaps indented or after a shell's "\\", the
# ``_QUOTES`` between two string literals holding a key's halves ("ghp_u8jz" +\n "...hJ0a"), or a part's label
# ("ghp_u8jz... part 2: ...hJ0a", "(2/2)"), these when both runs hold a digit.
_PART = (r"[,;]?\s+(?:(?i:part|pt\.?|piece|chunk|half)[ \t]*#?\d\d?(?:[ \t]*(?:/|of)[ \t]*\d\d?)?"
         r"|\(\d\d?[ \t]*(?:/|of)[ \t]*\d\d?\))[ \t]*[:=)-]?\s*")
# (gated by the characters a match starts with, else Python's ``re`` tries the look-behind at every character:
# docs/storage-tuning.md#the-credential-scans-regular-expressions)
_WRAP = re.compile(rf"(?=[,;\s\\\"'`$#{{])(?<=[\w+/=.-]{{4}})(?:{_PART}|[ \t]*(?:\\[ \t]*)?\n[ \t]*|\t|{_QUOTES})"
                   rf"(?=[\w+/=.-]{{4}})")

_KEY_RUN_END = re.compile(r"[\w+/=.-]*$")
_KEY_RUN = re.compile(r"[\w+/=.-]*")
_DIGIT = re.compile(r"[0-9]")


def _key_halves(text: str, start: int, end: int) -> bool:
    """Whether the runs of key characters on both sides of ``text[start:end]`` (their 40 characters nearest it)
    each hold a digit: a key's halves, which an indentation, a shell's "\\" or a string's quotes may part, not a
    docstring's words ("a value" then "    both found")."""
    before = _KEY_RUN_END.search(text, max(0, start - 40), start)
    after = _KEY_RUN.match(text, end, end + 40)
    return bool(before and after and _DIGIT.search(before.group()) and _DIGIT.search(after.group()))


def _unwrapped(text: str) -> tuple[str, Callable[[int], int]] | None:
    """``text``, its line breaks made one newline each as :func:`_scan` reads it, without the line
    breaks and tabs of ``_WRAP`` (a longer wrap, an indented line or a shell's backslash, only between two
    halves of a key: :func:`_key_halves`) but those before a key of a known format
    (:func:`_format_starts`: a line that opens with a key starts it, as an age key file's secret key
    after its public key's line); and
    the 1-based line of ``text`` each offset of the result comes from. None when ``text`` has none of
    them. Linear in its length."""
    lines = text.splitlines()
    text = "\n".join(lines)
    keys: list[set[int]] = []  # where a key of a known format starts, read at the first wrap

    def read(wrap: re.Match[str]) -> str:
        if wrap.group() not in ("\n", "\t") and not _key_halves(text, wrap.start(), wrap.end()):
            return wrap.group()
        if not keys:
            keys.append(_format_starts(text))
        return wrap.group() if wrap.end() in keys[0] else ""

    rewritten = _rewritten(text, _WRAP, read)
    if rewritten is None:
        return None
    reading, starts, _ = rewritten
    line_starts = [0, *itertools.accumulate(len(line) + 1 for line in lines)]
    return reading, lambda offset: bisect.bisect_right(line_starts, starts[offset])


def _rewritten(text: str, pattern: re.Pattern[str], read: Callable[[re.Match[str]], str]
               ) -> tuple[str, list[int], list[int]] | None:
    """``text`` with each match of ``pattern`` replaced by ``read`` of it, and where each character of the
    result starts and ends in ``text`` (one read from a match: the match's start and end); None when
    ``read`` changed no match. The one map from a reading to the text it reads (:func:`_unwrapped`,
    :func:`_redact_once`). Linear."""
    pieces: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    at = 0
    for match in pattern.finditer(text):
        new = read(match)
        if new == match.group():
            continue
        start, end = match.span()
        pieces += [text[at:start], new]
        starts += [*range(at, start), *[start] * len(new)]
        ends += [*range(at + 1, start + 1), *[end] * len(new)]
        at = end
    if not pieces:
        return None
    pieces.append(text[at:])
    starts += range(at, len(text))
    ends += range(at + 1, len(text) + 1)
    return "".join(pieces), starts, ends


@functools.cache
def _format_detectors() -> tuple[Any, ...]:
    """The detectors of keys by their format: detect-secrets' pattern plugins, the key format table's and
    base58check private keys'."""
    from . import secret_plugins as own

    return (*own.builtin_detectors(), own.KeyFormatDetector(), own.Base58CheckKeyDetector())


@functools.cache
def _fixed_patterns() -> tuple[Any, ...]:
    """The patterns of the detectors that run the same patterns over every text (not those choosing theirs for
    each text: ``patterns(text)``)."""
    return tuple(p for detector in detectors() if not hasattr(detector, "patterns") for p in detector.denylist)


def _format_starts(text: str) -> set[int]:
    """The offsets of ``text`` where a key of a vendor's format starts (:func:`_format_detectors`). Linear."""
    return {offset for detector in _format_detectors() for offset, _, _, _ in find(detector, text)}


def _values(joined: str, lines: list[str], line_of: Callable[[int], int] | None = None,
            most: int | None = MOST_FOUND) -> list[tuple[int, int, str, str, int]]:
    """``(offset, 1-based line, label, value, end)`` of each value the detectors find in ``joined``
    (``lines`` joined by single newlines), in the detectors' order, at most ``most`` per detector
    (None: every one); ``line_of`` as for :func:`_scan`; ``end`` as ``secret_re2.find`` says."""
    from .secret_kinds import kinds_before
    from .secret_named import NamedCredentialDetector

    starts = [0, *itertools.accumulate(len(line) + 1 for line in lines)]
    found: list[tuple[int, int, str, str, int]] = []
    kinds: dict[int, Callable[[int], str]] = {}  # the words naming credentials of each line, read once
    skipped = unmatched(_fixed_patterns(), joined)
    for detector in detectors():
        if not hasattr(detector, "patterns") and skipped.issuperset(detector.denylist):
            continue
        kept = 0  # values the filters keep count towards ``most``, not decoys they drop
        filtered: dict[str, bool] = {}  # decoys repeat a value, and a placeholder: each is judged once
        placeholders: dict[str, bool] = {}
        for offset, kind, value, end in find(detector, joined, skipped):
            if value not in filtered:
                filtered[value] = is_filtered(value, detector)
            # a pattern's group may hold only a key's prefix ("ghp"): its placeholder is read whole
            whole = joined[offset:min(end, offset + 512)] if end - offset > len(value) else ""
            if whole and whole not in placeholders:
                placeholders[whole] = masked(whole)
            if filtered[value] or whole and placeholders[whole]:
                continue
            number = bisect.bisect_right(starts, offset) - 1
            line = number + 1 if line_of is None else line_of(offset)
            if kind is None and detector.secret_type == NamedCredentialDetector.secret_type:
                if number not in kinds:
                    kinds[number] = kinds_before(lines[number])
                kind = kinds[number](offset - starts[number])
            named = kind or label(detector.secret_type, lines[number], value, offset - starts[number])
            found.append((offset, line, named, value, end))
            kept += 1
            if most is not None and kept >= most:
                break
    return found


def _scan(text: str, line_of: Callable[[int], int] | None = None,
          most: int | None = MOST_FOUND) -> list[tuple[str, int, int]]:
    """``(label, first line, last line)`` (1-based) of each credential in ``text``, first line first, at
    most ``most`` per detector (None: every one), in time linear in its length: each detector's patterns
    run once over the whole text. ``line_of``: the line an offset of ``text`` stands for in the text the
    caller was given."""
    from .secret_tables import key_formats

    lines = text.splitlines()
    joined = "\n".join(lines)  # a line break of any kind is one newline, so lines keep their numbers
    starts = [0, *itertools.accumulate(len(line) + 1 for line in lines)]
    named: list[tuple[str, int, int]] = []
    seen: set[tuple[str, int]] = set()
    on_line: dict[int, list[tuple[int, int, int]]] = {}  # line -> (index in named, value's start, end)
    formats = {row.name for row in key_formats()}
    for offset, number, kind, value, end in sorted(_values(joined, lines, line_of, most), key=lambda f: f[1]):
        stop = offset + len(value)
        last = bisect.bisect_right(starts, max(offset, end - 1)) if line_of is None else line_of(max(offset, end - 1))
        # One credential found by two detectors (the same or overlapping values) is named once: by its
        # format where one detector knows it ("key=sk_live_...": a Stripe key, not an IBM Cloud one),
        # and of two formats by the one matching more of it (a PuTTY key, not a private key).
        same = next(((i, start, stop_) for i, start, stop_ in on_line.get(number, ()) if start < stop
                     and offset < stop_), None)
        if same is not None:
            i, start, stop_ = same
            better = named[i][0] not in formats or stop - offset > stop_ - start
            if kind in formats and better and (kind, number) not in seen:
                seen.add((kind, number))
                named[i] = (kind, number, max(last, named[i][2]))
                on_line[number] = [(j, offset, stop) if j == i else (j, a, b) for j, a, b in on_line[number]]
        elif (kind, number) not in seen:
            seen.add((kind, number))
            on_line.setdefault(number, []).append((len(named), offset, stop))
            named.append((kind, number, last))
    return named


_WORD = re.compile(r"[^\W\d_]+")


def latin_lookalikes(text: str) -> str:
    """``text`` with each word written in ASCII letters and look-alikes of them (at least one, from
    ``secret_lookalikes.tsv``: Unicode's confusables) read as ASCII ("pаsswоrd" → "password"); other
    words as they are ("пароль"). Linear."""
    if text.isascii():
        return text
    from .secret_tables import lookalikes

    table = lookalikes()

    def read(word: re.Match[str]) -> str:
        latin = unicode_windows.translate(word.group(), table)  # a CJK word is long
        return latin if latin.isascii() else word.group()

    return _WORD.sub(read, text)


# U+202E RIGHT-TO-LEFT OVERRIDE shows what follows it right to left, to U+202C POP DIRECTIONAL FORMATTING or
# the end of its paragraph (Unicode UAX #9, rules X6 and X8): "\u202eGQ69...lyb_phg" shows "ghp_byl...96QG".
_OVERRIDDEN = re.compile("\u202e([^\u202c\n\r\v\f\x1c-\x1e\x85\u2028\u2029]*)\u202c?")


def displayed(text: str) -> str:
    """``text`` as it is shown: each run after a RIGHT-TO-LEFT OVERRIDE reversed, to its POP DIRECTIONAL
    FORMATTING or the line's end, the two controls left out; the same lines. Linear."""
    if "\u202e" not in text:
        return text
    return _OVERRIDDEN.sub(lambda run: run.group(1)[::-1], text)


# Groups of key characters parted by single spaces, three or more: a key written in groups to be read out
# or typed ("ghp_ u8jz Pde0 IgxL …", "sk-ant-a pi03-YgC frL1spNx …"), a character at a time ("g h p _ u 8 …");
# by dashes ("ghp_-u8jz-Pde0-…") or as a list's items ("['g', 'h', 'p', …]"). Groups are short: the run is linear.
_GROUPS = re.compile(r"[\w+/=-]{1,16}(?: [\w+/=-]{1,16}){1,}|[\w+/=]{1,16}(?:-[\w+/=]{1,16}){2,}"
                     r"|(?P<listed>[\w+/=]{1,16}(?:[\"'], ?[\"'][\w+/=]{1,16}){2,})")
_LIST_SEPARATOR = re.compile(r"[\"'], ?[\"']")
# For :func:`regex_windows.sub`: a match of ``_GROUPS`` holds a space, a dash or a quote within 16 characters of its
# start, and shows within 56 (three groups of 16 and two separators of up to 4).
_GROUP_SEPARATORS, _GROUPS_LEAD, _GROUPS_REACH = re.compile(r"[ \"'-]"), 16, 56
# A vendor's prefix joined to its key by a dash or a look-alike of one (``validate._DASHES``, U+FE63, U+FF0D) where its
# format writes "_" ("ghp-16C7...", "ghp\u201116C7..."): read with "_" when the run after it holds a digit and a capital.
_DASH = "[-\u02d7\u2010-\u2015\u2043\u2212\u2796\u2e3a\u2e3b\u301c\ufe58\ufe63\uff0d]"
_DASHED_PREFIX = re.compile(f"(?<![\\w-])([a-z]{{2,10}}(?:_[a-z]{{1,10}})?){_DASH}(?=([A-Za-z0-9]{{16,}}))")
# For :func:`regex_windows.sub`: its dash is within 21 characters of its start, and 16 key characters after it show it.
_DASHES = re.compile(_DASH)
_DASHED_LEAD, _DASHED_REACH = 21, 38
_HAS_DIGIT, _HAS_CAPITAL = re.compile(r"[0-9]"), re.compile(r"[A-Z]")
_LOWER_PREFIX = re.compile(r"(?<![a-z])[a-z]{2,10}[ -][0-9]{6,}[ -]")  # a prefix and a long number: "xoxb 2847561937 …"
# What a key found only with its groups joined may be: detect-secrets' own formats that open with a
# vendor's prefix (besides the key format table's prefixed rows, ``secret_plugins.prefixed``).
_PREFIXED_LABELS = frozenset({"GitHub token", "AWS access key", "Slack token", "Stripe API key", "npm access token",
                              "OpenAI API key", "PyPI API token", "SendGrid API key", "GitLab token"})


@functools.cache
def _groupable_kinds() -> frozenset[str]:
    """The kinds a key found with its groups joined may be (:func:`_grouped_keys`): a vendor's prefix says it."""
    from .secret_plugins import prefixed
    from .secret_tables import key_formats

    return _PREFIXED_LABELS | {row.name for row in key_formats() if prefixed(row.regex)}


def _grouped_keys(text: str, most: int | None, known: set[tuple[str, int]]) -> list[tuple[str, int, int]]:
    """``(label, line, line)`` of each key of a vendor's prefixed format (:func:`_groupable_kinds`) found only
    once the single spaces inside runs of groups of key characters (``_GROUPS``, a run holding a digit and a
    capital) are taken out, or a dash after its prefix is read as "_" (``_DASHED_PREFIX``) (not one of ``known``, the
    ``(label, line)`` found in ``text`` as it is: a key
    followed by words), and
    holding a digit and a capital (prose joined is lower-case words). A run opening with a prefix of lower-case
    letters and a long number (``_LOWER_PREFIX``) is also read with its spaces as the dashes its format writes
    between its groups ("xoxb 2847561937 5738261940 Rk3L…" for "xoxb-2847561937-…"); and a key of the key format
    table read from its row's opening (``secret_parted.parted_keys``: "The maps key is AIzaC3J2 7XDCG…"). Lines keep
    their numbers. Linear."""
    def join(run: re.Match[str], dashes: bool = False) -> str:  # prose's runs (no digit or no capital) stay
        groups = run.group()
        if not (_HAS_DIGIT.search(groups) and _HAS_CAPITAL.search(groups)):
            return groups
        if run.group("listed"):
            return _LIST_SEPARATOR.sub("", groups)
        if dashes:
            return groups.replace(" ", "-") if _LOWER_PREFIX.search(groups) else groups
        return groups.replace(" " if " " in groups else "-", "")

    def underscored(dashed: re.Match[str]) -> str:
        run = dashed.group(2)
        return dashed.group(1) + "_" if _HAS_DIGIT.search(run) and _HAS_CAPITAL.search(run) else dashed.group()

    from .secret_parted import parted_keys

    dashed = regex_windows.sub(_DASHED_PREFIX, text, underscored, _DASHED_REACH, _DASHES, _DASHED_LEAD)
    kinds = _groupable_kinds()
    found: dict[tuple[str, int], None] = {}
    for dashes in (False, True):
        joined = regex_windows.sub(_GROUPS, dashed, functools.partial(join, dashes=dashes), _GROUPS_REACH,
                                   _GROUP_SEPARATORS, _GROUPS_LEAD)
        if joined == text or (dashes and joined == dashed):
            continue
        lines = joined.split("\n")  # (``text`` is NFC with single newlines as :func:`_found` gives it)
        for offset, line, kind, value, end in _values(joined, lines, most=most):
            key = joined[offset:max(end, offset + len(value))]  # a pattern's group may hold only the prefix
            if kind in kinds and (kind, line) not in known and key not in text and _HAS_DIGIT.search(key) \
                    and _HAS_CAPITAL.search(key):
                found[kind, line] = None
    line, counted = 1, 0
    for offset, kind, _ in parted_keys(text):  # (in order: the lines are counted once)
        line, counted = line + text.count("\n", counted, offset), offset
        if (kind, line) not in known:
            found[kind, line] = None
    return [(kind, line, line) for kind, line in found]


# What formatting leaves inside a key when it is pasted from a terminal, a web page or Markdown: an ANSI
# escape sequence (a colour: ECMA-48's CSI, and OSC), an inline HTML tag ("<b>sk-proj-</b>..."), a Markdown
# backslash escape of punctuation ("ghp\\_...", CommonMark section 2.4).
_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b\n]*(?:\x07|\x1b\\)?|[@-Z\\-_])")
_INLINE_TAG = re.compile(r"(?i)</?(?:a|b|i|u|s|em|strong|code|kbd|samp|var|tt|span|mark|small|big|sub|sup|font|del"
                         r"|ins|strike|wbr)(?:[ \t][^<>\n]*)?/?>")
_MARKDOWN_ESCAPE = re.compile(r"\\([!#-/:-@\[\]^_`{-~])")
# A character written as a string literal's escape (JSON's and JavaScript's "\u0067", a UTF-16 surrogate pair,
# ES2015's and Rust's "\u{67}", Python's "\x67" and "\U00000067", "\t", "\n" and "\r") or a URL's
# percent-encoded UTF-8 ("%67").
_CODE_ESCAPE = re.compile(r"\\u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})|\\u\{([0-9a-fA-F]{1,6})\}"
                          r"|\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})|\\U([0-9a-fA-F]{8})|((?:%[0-9a-fA-F]{2})+)|\\[tnr]")


# An HTML character reference with its ";" ("&#58;", "&#x3A;", "&colon;"; HTML's legacy names without one,
# "&para", would read a URL's "&param=1" as "¶m=1").
_CHARACTER_REFERENCE = r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"
# What :func:`redact` finds a credential's span in: the escapes :func:`unformatted` reads (HTML's character
# references among them), and string literals joined where ``_QUOTES`` parts two key characters ('"sk-" "proj-..."');
# :func:`_rewritten` maps it back.
_ESCAPED_OR_JOINED = re.compile(rf"{_CODE_ESCAPE.pattern}|{_CHARACTER_REFERENCE}|(?<=[\w+/=.-]){_QUOTES}(?=[\w+/=.-])")


def _unescaped(escape: re.Match[str]) -> str:
    """The character an escape of ``_CODE_ESCAPE`` or an HTML character reference writes; a space for white space
    of any code point (a tab, a line break, U+00A0, U+2009, U+3000: the reading keeps its lines); the escape as it
    is when it writes a control character, a lone surrogate or no character; nothing for the quotes of
    ``_ESCAPED_OR_JOINED`` (and an interpolation's braces about them)."""
    if escape.group()[0] in "\"'`${#":
        return ""
    high, low, braced, four, two, eight, percent = escape.groups()
    try:
        if escape.group()[0] == "&":  # an HTML character reference (``_CHARACTER_REFERENCE``)
            import html

            read = html.unescape(escape.group())
        elif percent:
            read = bytes.fromhex(percent.replace("%", "")).decode("utf-8")
        elif high:
            read = chr(0x10000 + (int(high, 16) - 0xD800 << 10) + int(low, 16) - 0xDC00)
        else:
            read = " " if escape.group()[1] in "tnr" else chr(int(braced or four or two or eight, 16))
    except (ValueError, UnicodeDecodeError):
        return escape.group()
    read = "".join(" " if char.isspace() else char for char in read)
    # a format character (U+FEFF, U+200B) as itself: the reading drops it as it drops one written as it is
    shown = all(char.isprintable() or unicodedata.category(char) == "Cf" for char in read)
    return read if shown else escape.group()


def unformatted(text: str) -> str:
    """``text`` without ANSI escape sequences and inline HTML tags, its string literals' escapes and URLs'
    percent-encoding read (``_CODE_ESCAPE``: ``\\u0067`` and ``%67`` are ``g``), its Markdown backslash escapes read,
    and its HTML character references read when that keeps its lines (``&#95;`` is ``_``); the same lines.
    Linear."""
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    if "<" in text:
        text = _INLINE_TAG.sub("", text)
    if "\\" in text or "%" in text:
        text = _CODE_ESCAPE.sub(_unescaped, text)
    if "\\" in text:
        text = _MARKDOWN_ESCAPE.sub(r"\1", text)
    if "&" in text:
        import html

        read = html.unescape(text)
        text = read if read.count("\n") == text.count("\n") else text
    return text


# String literals written side by side or concatenated ('"sk-" "proj-..."', "'sk-' + 'proj-...'"), read joined as the
# program reads them (:func:`_literals_joined`); ``_ESCAPED_OR_JOINED``'s joins.
_JOINED_LITERALS = re.compile(rf"(?<=[\w+/=.-]){_QUOTES}(?=[\w+/=.-])")


def _literals_joined(text: str) -> tuple[str, Callable[[int], int]] | None:
    """:func:`unformatted` of ``text`` (single newlines) with its adjacent string literals joined where ``_QUOTES``
    parts two key characters, whatever the halves hold (as :func:`redact` reads them; ``_unwrapped`` joins them only
    when both halves hold a digit), and the 1-based line of ``text`` each offset of it comes from; None when no
    literals are joined. Linear."""
    if '"' not in text and "'" not in text and "`" not in text:
        return None
    read = unformatted(text)
    rewritten = _rewritten(read, _JOINED_LITERALS, lambda quotes: "")
    if rewritten is None:
        return None
    reading, starts, _ = rewritten
    line_starts = [0, *itertools.accumulate(len(line) + 1 for line in read.split("\n"))]
    return reading, lambda offset: bisect.bisect_right(line_starts, starts[offset])


def _spaced_formats(text: str, space: str = " ") -> tuple[str, list[int], list[int]] | None:
    """``text`` with each run of format characters (Unicode Cf: U+200B, U+2060, U+FEFF, U+00AD ...), which show
    nothing, read as ``space``, and where each character of it starts and ends in ``text`` (:func:`_rewritten`); None
    when it holds none. ``validate.bare`` reads them as nothing (a key split by one reads whole); read as a space they
    part the words they stand between ("password\u200bis X", "password\u2060: X"). Linear."""
    if text.isascii():  # no ASCII character is a format character
        return None
    from .validate import unicode_pattern

    return _rewritten(text, unicode_pattern(r"\p{Cf}+"), lambda run: space)


def _encoded(text: str, most: int | None) -> list[tuple[str, int, int]]:
    """``(label, line, line)`` of each credential found base64- or hex-encoded after the encoding's name
    (``secret_encoded.encoded_secrets``), ``text`` read as :func:`_scan` reads it."""
    from .secret_encoded import encoded_secrets
    from .secret_kinds import named_kind

    if "\n" in text or "\r" in text:
        text = "\n".join(text.splitlines())
    return encoded_secrets(text, lambda probe: _scan(probe, most=most), named_kind)


def find_secrets(*texts: str) -> list[list[tuple[str, int]]]:
    """Credentials found in each of ``texts``, as ``(label, 1-based line)`` pairs, no values; the
    label says what the credential is (:func:`label`: "bearer token", "password in a URL").

    Each text is searched as given, in NFC (what is stored), as a reader sees it (``validate.bare``),
    joined (``validate.joined``), with look-alike letters read as ASCII (:func:`latin_lookalikes`),
    with a run after a RIGHT-TO-LEFT OVERRIDE reversed (:func:`displayed`), without the formatting pasted
    inside a key (:func:`unformatted`: ANSI colours, inline HTML tags, Markdown escapes), with the marks of Markdown,
    HTML, YAML and JSON around a credential's name taken away and a document's structures written as
    ``name: value`` lines (``secret_marks.unmarked``, ``secret_documents``), with format characters read as
    spaces (:func:`_spaced_formats`: "password\u200bis X"), so a key split by an invisible character, a
    combining mark or an odd space, typed full-width, or a word for password written with a Cyrillic letter,
    is found; and without the line breaks and tabs
    inside runs of key characters (a key wrapped by a terminal, indented, continued by a shell's ``\\`` or
    concatenated from two string literals, :func:`_literals_joined`); and a run of base64 or hex after the
    encoding's name decoded (``secret_encoded``: "the key base64 is QUtJQ..."). A value two detectors both find on a
    line is named once, by the first. A marker :func:`redact` put where a URL's password stood is read
    blanked, so a redacted text passes. Linear time in the texts' length (every pattern runs in RE2);
    no lock.
    """
    return [[(kind, line) for kind, line, _ in _found(text)] for text in texts]


def _plain(text: str) -> str:
    """``text`` as a reader sees it (``validate.bare``) with the marks around a credential's name taken away
    and a document's structures written as ``name: value`` lines (``secret_marks.unmarked``); the same lines."""
    from .validate import bare

    return unmarked("\n".join(bare(text).splitlines()))


def _found(text: str, clean: str | None = None, most: int | None = MOST_FOUND) -> list[tuple[str, int, int]]:
    """``(label, first line, last line)`` of the credentials of one text in every reading of
    :func:`find_secrets`, at most ``most`` per detector and reading (None: every one); ``clean``: a reading
    of it known to hold none (every value the detectors find in it is filtered out), not read again."""
    from .validate import bare, joined, nfc

    found: dict[tuple[str, int], int] = {}  # (label, first line) -> last line
    text = _placed_masked(text)  # memvault's own marker where a URL's password stood is no keyword
    together = joined(text)
    # a run a RIGHT-TO-LEFT OVERRIDE reverses, as a reader sees it (:func:`displayed`)
    shown = joined(displayed(text)) if "\u202e" in text else together
    spaced = _spaced_formats(nfc(text))  # format characters as spaces, words and marks read again
    spaced_forms = (joined(spaced[0]), _plain(spaced[0])) if spaced is not None else ()
    scans = [_scan(form, most=most) for form in dict.fromkeys(
        (text, nfc(text), bare(text), together, latin_lookalikes(together), shown, _plain(text),
         joined(unformatted(text)), *spaced_forms)) if form != clean]
    unwrapped = _unwrapped(nfc(text))
    if unwrapped is not None:
        scans.append(_scan(*unwrapped, most=most))
    literals = _literals_joined("\n".join(nfc(text).splitlines()))
    if literals is not None:
        scans.append(_scan(*literals, most=most))
    scans.append(_grouped_keys(nfc(text), most, {(kind, first) for kind, first, _ in itertools.chain(*scans)}))
    scans.append(_encoded(together, most))
    for kind, first, last in itertools.chain(*scans):
        found[kind, first] = max(last, found.get((kind, first), first))
    return [(kind, first, last) for (kind, first), last in found.items()]


def scanned_fields(fields: Mapping[str, str | list[str] | None]) -> dict[str, str]:
    """The free-text fields of a memory to scan, as the caller sent them (stripped, before
    any normalisation: lower-casing would hide a key's pattern), lists by index:
    ``{"content": ..., "tags[0]": ...}``. Values that are not strings are left out."""
    texts: dict[str, str] = {}
    for field, value in fields.items():
        for i, text in enumerate(value if isinstance(value, list) else [value]):
            if isinstance(text, str):
                texts[f"{field}[{i}]" if isinstance(value, list) else field] = text.strip()
    return texts


def refusals(records: list[dict[str, str]]) -> list[InvalidInput | None]:
    """For each record (``{field: text}``), the error naming its first field that holds a
    credential, with the credential type, or None; one scan for them all. In a field of
    several lines the line within the field is named (``password in its line 3``): an
    import names its own line of the file first (``line 5: content: ...``).

    The message never repeats the secret itself, nor the word "credential" (a kind no word names is not named).
    """
    texts = [(number, field, text) for number, fields in enumerate(records) for field, text in fields.items() if text]
    out: list[InvalidInput | None] = [None] * len(records)
    for (number, field, text), found in zip(texts, find_secrets(*(text for _, _, text in texts)), strict=True):
        if found and out[number] is None:
            # each kind without the word the sentence says: "(Basic authentication)", none for "credential"
            kinds = [(kind.removesuffix("credential").strip(), line) for kind, line in found[:5]]
            if "\n" in text:
                where = "; ".join(f"{kind} in its line {line}".lstrip() for kind, line in kinds)
            else:
                where = "; ".join(dict.fromkeys(kind for kind, _ in kinds if kind))
            out[number] = InvalidInput(
                field,
                f"looks like it contains a credential{f' ({where})' if where else ''}. memvault does not store secrets: "
                "remove it, or describe where the secret is kept instead (the server setting "
                "MEMVAULT_ALLOW_SECRETS=1, or --allow-secrets on the command line, turns this check off)",
            )
    return out


def refuse_secrets(fields: dict[str, str]) -> None:
    """Raise :class:`InvalidInput` naming the first field (of ``{field: text}``) that
    holds a credential, with the credential type and line (see :func:`refusals`)."""
    error = refusals([fields])[0]
    if error is not None:
        raise error


# The tags of a ``<private>`` span, with spaces or attributes inside: ``<private note=1>``, ``< /private >``.
# Linear: "/" parts the two runs of white space (``<\s*/?\s*`` took quadratic time on "<" and spaces).
_PRIVATE_TAG = re.compile(r"<\s*(?:(/)\s*)?private\b[^<>]*>", re.IGNORECASE)
_CLOSING = set("\r\n,.;:!?)]}")  # what no space left by a removed span goes before
_NOT_ASCII = re.compile(r"[^\x00-\x7f]")


def without_private(text: str) -> str:
    """``text`` without its ``<private>`` spans (full-width and split tags too: :func:`_private_tags`): nested spans go whole (to the outer closing tag), an
    unclosed one to the end of the text, and a closing tag without its opening one with all the text
    before it (the span began in an earlier block or turn of the same message). Where a span was, no
    space is left at a line's start or end or before punctuation, and one where two would meet."""
    pieces: list[str] = []  # the text between spans
    at, depth = 0, 0
    for opening, start, end in _private_tags(text):
        if opening:
            if depth == 0:
                pieces.append(text[at:start])
            depth += 1
        elif depth > 0:
            depth -= 1
        else:  # a stray closing tag: what came before it was private
            pieces = [""]
        if depth == 0:
            at = end
    pieces.append(text[at:] if depth == 0 else "")
    kept: list[str] = []  # the pieces joined so far that are not empty
    for n, piece in enumerate(pieces):
        if n and (not kept or kept[-1][-1] in " \t\r\n"):
            piece = piece.lstrip(" \t")
        if n and kept and (piece[:1] in _CLOSING if piece else n == len(pieces) - 1):
            kept[-1] = kept[-1].rstrip(" \t")
        if piece:
            kept.append(piece)
    return "".join(kept)


def _private_tags(text: str) -> Iterator[tuple[bool, int, int]]:
    """``(opening, start, end)`` of each ``<private>`` tag of ``text``, read as the credential check reads
    it (``validate.bare`` of each character: ``＜ｐｒｉｖａｔｅ＞`` and ``<pri\u200bvate>`` are tags). Linear."""
    if "<" not in text and "\uff1c" not in text and "\ufe64" not in text:  # the characters NFKC reads as "<"
        return
    if text.isascii():
        for tag in _PRIVATE_TAG.finditer(text):
            yield not tag.group(1), tag.start(), tag.end()
        return
    from .validate import bare

    read = functools.cache(bare)  # each character read once
    folded, starts, ends = _rewritten(text, _NOT_ASCII, lambda char: read(char.group())) or (
        text, range(len(text)), range(1, len(text) + 1))
    for tag in _PRIVATE_TAG.finditer(folded):
        yield not tag.group(1), starts[tag.start()], ends[tag.end() - 1]


# The detectors name a PEM private key by its first line: the block goes to its END line.
_PEM_BEGIN = compile_linear(r"BEGIN[A-Z0-9 ]* PRIVATE KEY")  # SSH2 ENCRYPTED too
REDACT_PASSES = 3  # rounds of whole-line replacement before a text still named is replaced whole
# A line break as a JSON (or YAML, Python) string writes it: "\\n", "\\r\\n".
_ESCAPED_BREAK = re.compile(r"(?:\\r)?\\n")
# A PuTTY key's first line (``secret_formats.tsv``), and its last: the MAC (formats 2 and 3) or hash (1)
# of the key, in hex (the.earth.li/~sgtatham/putty/latest/htmldoc/AppendixC.html).
_PUTTY_BEGIN = re.compile(r"PuTTY-User-Key-File-[0-9]:")
_PUTTY_END = re.compile(r"Private-(?:MAC|Hash):[ \t]*[0-9a-fA-F]*")
# The rest of a BEGIN line after the label a detector matched: " BLOCK-----".
_HEADER_REST = re.compile(r"[A-Z0-9 ]*-*[ \t\r]*")
# A line of a key's body: base64 (PEM, OpenSSH, PGP), indented as in a YAML block scalar.
_BODY_LINE = re.compile(r"[ \t]*[A-Za-z0-9+/=]{16,}[ \t\r]*")


class _KeyBlocks:
    """Where each private key of one text ends (:meth:`end`). What a search finds from one key (the next
    quote, END line or paragraph end) is kept for the keys after it, which start before it: many keys
    without an END line cost one pass over the text, not one each."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._found: dict[str, tuple[int, int]] = {}  # what -> (searched from, found at: -1 none)
        self._paragraph = (-1, -1)  # (searched from, its end)

    def _next(self, what: str, at: int) -> int:
        start, found = self._found.get(what, (-1, -1))
        if not (0 <= start <= at and (found < 0 or at <= found)):
            found = self.text.find(what, at)
            self._found[what] = (at, found)
        return found

    def end(self, end: int) -> int:
        """Where a private key whose BEGIN line's label ends at ``end`` ends. A key's body holds no quote,
        so the first ``"`` or ``'`` after it closes the string that holds the key (a JSON value with
        escaped line breaks, a quoted YAML or Python string): the block ends at its END line's last
        "-----" (any label: ``END PGP PRIVATE KEY BLOCK``) before that quote, and the escaped line
        breaks right after it (``-----END PRIVATE KEY-----\\n"``), keeping the string's closing quote
        and what follows. Without an END line before it (a key cut short), the block ends where what
        holds it ends: the string (at the quote), the BEGIN line when the key goes on on that line (one
        line with spaces), else its paragraph (to the first blank line after a line of the body: a PGP
        armor's headers are followed by one before the body)."""
        text = self.text
        quotes = [i for i in (self._next('"', end), self._next("'", end)) if i >= 0]
        limit = min(quotes, default=len(text))
        closing = self._next("-----END", end)
        if 0 <= closing < limit:
            dashes = text.find("-----", closing + 8, limit)
            at = limit if dashes < 0 else dashes + 5
            while (escaped := _ESCAPED_BREAK.match(text, at, limit)) is not None:
                at = escaped.end()
            return at
        line_end = text.find("\n", end, limit)
        if line_end < 0 or not _HEADER_REST.fullmatch(text, end, line_end):  # the string or line holds the key
            return limit if line_end < 0 else line_end
        return min(self._paragraph_after(line_end), limit)

    def _paragraph_after(self, line_end: int) -> int:
        """:meth:`_paragraph_end` from ``line_end``, kept for the keys after it that start before it."""
        start, found = self._paragraph
        if not (0 <= start <= line_end < found):
            found = self._paragraph_end(line_end)
            self._paragraph = (line_end, found)
        return found

    def putty_end(self, end: int) -> int:
        """Where a PuTTY private key whose first line's label ends at ``end`` ends: a PPK file (formats 1 to
        3) closes with its ``Private-MAC:`` (``Private-Hash:`` in format 1) line, so the block ends after
        that line's hex digits, found before the first quote (a key in a string) and the paragraph's end;
        without one (a key cut short), at the first of those."""
        text = self.text
        quotes = [i for i in (self._next('"', end), self._next("'", end)) if i >= 0]
        limit = min(quotes, default=len(text))
        line_end = text.find("\n", end, limit)
        if line_end >= 0:
            limit = min(limit, self._paragraph_after(line_end))
        closing = [i for i in (self._next("Private-MAC:", end), self._next("Private-Hash:", end)) if 0 <= i < limit]
        return _PUTTY_END.match(text, min(closing)).end() if closing else limit

    def _paragraph_end(self, at: int) -> int:
        """The end of the paragraph whose line break ``at`` follows a BEGIN line: the first blank line
        after a line of the body (``_BODY_LINE``), else the text's end."""
        text, body = self.text, False
        while at < len(text):
            following = text.find("\n", at + 1)
            following = len(text) if following < 0 else following
            line = text[at + 1:following]
            if not line.strip():
                if body:
                    return at
            elif _BODY_LINE.fullmatch(line):
                body = True
            at = following
        return len(text)


def _value_end(blocks: _KeyBlocks, value: str, end: int) -> int:
    """Where the credential ``value`` ending at ``end`` of the text of ``blocks`` ends: at ``end``, or a
    private key's block: a PEM, OpenSSH or PGP one where :meth:`_KeyBlocks.end` says, a PuTTY one where
    :meth:`_KeyBlocks.putty_end` says."""
    if _PEM_BEGIN.search(value):
        return blocks.end(end)
    return blocks.putty_end(end) if _PUTTY_BEGIN.match(value) else end


# A whole line of key characters right after a credential that ends its line: the credential's
# rest, wrapped by a terminal or an editor (a line with a space, like ``exit 1``, is not).
# A line of key characters; "=" only as base64's padding at its end ("NAME=value" is a line of its own).
_CONTINUATION = re.compile(r"\n([\w+/.-]{8,}={0,2})(?=\n|\Z)")
# The rest of a key in a string literal concatenated to the one a credential ends, on its line or the next
# ("token = \"ghp_u8jz...\" +" then "\"...hJ0a\""; ``_WRAP``'s quotes) or after a part's label holding a digit,
# or on the next line after an indentation or a shell's "\\": its end.
_LITERAL_REST = re.compile(f"{_QUOTES}[\\w+/=.-]{{4,}}|{_PART}(?=[\\w+/=.-]*\\d)[\\w+/=.-]{{4,}}")
_INDENTED_REST = re.compile(r"[ \t]*(?:\\[ \t]*)?\n[ \t]+[\w+/.-]{8,}={0,2}(?=[ \t]*(?:\n|\Z))")


# "!", "?" and "." right after a value, before a space, a quote or the end: a detector ends a password at
# them (they close sentences too), but passwords end in them as often ("Tr0ub4dor&3xQ!"): replaced with it.
_TRAILING = re.compile(r"[!?.]+(?=[\s\"'`)\]]|\Z)")


def _continued(text: str, end: int) -> int:
    """``end`` moved over the marks that may end the credential ending there (``_TRAILING``), the rest of it in
    a string literal concatenated to it or on an indented line (``_LITERAL_REST``, ``_INDENTED_REST``), and over
    the lines that continue it: each a run of key characters mixing two of lower case, upper case and digits.
    Reads lines only when ``end`` ends a line."""
    marks = _TRAILING.match(text, end)
    end = marks.end() if marks else end
    while (rest := _LITERAL_REST.match(text, end) or _INDENTED_REST.match(text, end)) is not None:
        end = rest.end()
    while text.startswith("\n", end):
        line = _CONTINUATION.match(text, end)
        if line is None or sum(any(test(c) for c in line.group(1)) for test in (str.islower, str.isupper,
                                                                                  str.isdigit)) < 2:
            break
        end = line.end()
    return end


def _replaced_lines(text: str, named: dict[int, str]) -> str:
    """``text`` with each line numbered in ``named`` (1-based) replaced by ``[kind]``, a run of
    lines named for one credential by one marker."""
    lines = text.split("\n")
    out: list[str] = []
    for number, line in enumerate(lines, start=1):
        if number not in named:
            out.append(line)
        elif named.get(number - 1) != named[number]:
            out.append(f"[{named[number]}]")
    return "\n".join(out)


def _masked(text: str, kinds: set[str]) -> str:
    """``text`` with the markers ``[kind]`` of ``kinds`` and those of an earlier redaction
    (``_PLACED``) blanked to ``[----]`` (same length, so lines and offsets stay): the later
    readings must not take a marker's words ("password") for a keyword, and a document stays one
    (``[####]`` opened a YAML comment inside a flow sequence: a YAML text no longer parsed)."""
    text = _placed_masked(text)
    if not kinds:
        return text
    marker = re.compile("|".join(re.escape(f"[{kind}]") for kind in sorted(kinds, key=len, reverse=True)))
    return marker.sub(lambda m: "[" + "-" * (len(m.group(0)) - 2) + "]", text)


# A bracketed span between ":" and "@" ("admin:[password in a URL]@db"), a marker :func:`redact` wrote
# there when its words are a label (:func:`_placed_labels`). No label holds a bracket or a line break, so
# this finds every such marker; one pattern of every label took Python's ``re`` 0.01 s to compile in every
# hook (docs/hooks.md#speed).
_PLACED = re.compile(r"(?<=:)\[([^\[\]\n]*)\](?=@)")


@functools.cache
def _placed_labels() -> frozenset[str]:
    """Every label :func:`redact` can write in a marker (``LABELS``' and ``secret_kinds.own_labels``)."""
    from .secret_kinds import own_labels

    return frozenset({*LABELS.values(), *own_labels()})


def _placed_masked(text: str) -> str:
    """``text`` with each marker of an earlier redaction where a URL's password stands (``_PLACED``, its
    words a label) blanked to ``[####]`` (same length): its words are no keyword for the host and port
    after it. Anywhere else a marker's words are read as written ("[password in a URL] is X": X is a
    password)."""
    labels = _placed_labels()
    return _PLACED.sub(lambda m: f"[{'#' * len(m.group(1))}]" if m.group(1) in labels else m.group(0), text)


# The characters str.splitlines() breaks lines at ("\r\n" is one break). Stripped, not matched: a pattern of
# them at the text's end took Python's ``re`` exponential time on "\r\n" repeated, quadratic on "\n" repeated.
_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"


def redact(text: str) -> tuple[str, tuple[str, ...]]:
    """``text`` (line breaks made single newlines) without its ``<private>...</private>`` spans
    (case-insensitive, across lines; an unclosed one to the end) and with each credential
    :func:`find_secrets` finds replaced by ``[<its label>]``; and the labels replaced, sorted,
    plus "private" when a span was removed. A credential wrapped across lines takes those lines
    (a named value, the whole lines of key characters after it: :func:`_continued`),
    one found only in another reading of the text (NFKC, joined) its line; a private key (PEM,
    OpenSSH, PGP), its block to the END line, or without one to the end of the string, line or paragraph
    holding it (:meth:`_KeyBlocks.end`), a PuTTY key's to its ``Private-MAC:`` line
    (:meth:`_KeyBlocks.putty_end`), the rest kept. Read again until nothing changes
    (a marker can make a word of what followed the credential it replaced: "…[GitHub token]Password:
    X"), at most ``REDACT_PASSES`` more times, so that a redacted text redacts to itself. Linear in the
    text's length."""
    body = text.rstrip(_BREAKS)
    ends = "\n" * len(text[len(body):].splitlines())
    result, kinds = _redact_once(body)
    # A text the first reading left as it was would only be read again the same way (no pass reads a text twice)
    for _ in range(REDACT_PASSES if result != body else 0):
        again, more = _redact_once(result)
        if again == result:
            break
        result, kinds = again, kinds | more
    return result + ends, tuple(sorted(kinds))


def _redact_once(text: str) -> tuple[str, set[str]]:
    """One reading of :func:`redact`'s: ``text`` (no line break at its end) redacted, and the kinds."""
    kinds: set[str] = set()
    kept = without_private(text)
    if kept != text:
        kinds.add("private")
    joined = "\n".join(kept.splitlines())
    read = _placed_masked(joined)  # the same length: its offsets are joined's
    blocks = _KeyBlocks(joined)
    starts = [0, *itertools.accumulate(len(line) + 1 for line in read.split("\n"))]
    values = _values(read, read.split("\n"), most=None)
    # and with escapes read and string literals joined, as the check reads them, mapped back onto the text: where
    # both find a credential ("s3cret%40PW" and "s3cret@PW"), its span is what either takes, but a value whose
    # escapes read as white space ("password:%20X" takes "%20X") is the reading's
    rewritten = _rewritten(read, _ESCAPED_OR_JOINED, _unescaped)
    readings = [] if rewritten is None else [rewritten]
    # and with format characters read as spaces and as nothing, as the check reads them ("password\u200bis X",
    # "pass\u200bword is X": the value's span, not its line)
    for space in (" ", ""):
        formats = _spaced_formats(read if rewritten is None else rewritten[0], space)
        if formats is not None:
            readings.append(formats if rewritten is None else (
                formats[0], [rewritten[1][at] for at in formats[1]], [rewritten[2][end - 1] for end in formats[2]]))
    if readings:
        values = [found for found in values if sum(map(str.isspace, unformatted(found[3]))) == sum(map(
            str.isspace, found[3]))]
    for reading, at_start, at_end in readings:
        values += [(at_start[offset], line, kind, value, at_end[max(offset, end - 1)])
                   for offset, line, kind, value, end in _values(
                       reading, reading.split("\n"), lambda offset: bisect.bisect_right(starts, at_start[offset]),
                       most=None)]
    spans = [(offset, -_value_end(blocks, value, end), order, kind)
             for order, (offset, _, kind, value, end) in enumerate(values)]
    # What a document's structure makes a credential, read before anything is replaced (a replaced YAML
    # alias named "password" leaves its anchor's value unnamed): the lines of each that no span touches.
    inline = {line for _, line, _, _, _ in values}
    plain = _plain(read)
    if plain.count("\n") == read.count("\n"):  # (a flow mapping may be written over more lines)
        spans += [(starts[first - 1], 1 - starts[last], len(spans) + order, kind)
                  for order, (kind, first, last) in enumerate(_scan(plain, most=None))
                  if not inline.intersection(range(first, last + 1))]
    # a key in groups (:func:`_grouped_keys`) takes its line before a word naming it takes its first group
    spans += [(starts[line - 1], 1 - starts[line], len(spans) + order, kind)
              for order, (kind, line, _) in enumerate(_grouped_keys(read, None, {(k, n) for _, n, k, _, _ in values}))]
    spans.sort()  # longest first where two start together, then the first detector's (a key format first)
    pieces: list[str] = []
    at = 0
    for start, minus_end, _, kind in spans:
        end = -minus_end
        if start < at:  # overlaps one already replaced (two detectors): its marker stands for both
            at = max(at, end)
            continue
        pieces += [joined[at:start], f"[{kind}]"]
        kinds.add(kind)
        at = _continued(joined, end)
    result = "".join(pieces) + joined[at:]
    # Read as it stands, a text this reading left as it was holds nothing (``spans`` found nothing in it).
    clean = read if result == joined and not kinds and not readings else None
    for _ in range(REDACT_PASSES):
        # Every reading's every line at once: a line replaced can break the structure (a YAML alias's
        # anchor) that made another line's value a credential.
        found = _found(_masked(result, kinds), clean, most=None)
        if not found:
            return result, kinds
        named: dict[int, str] = {}
        for kind, first, last in found:
            for number in range(first, last + 1):
                named.setdefault(number, kind)
        kinds.update(named.values())
        result = _replaced_lines(result, named)
    found = find_secrets(_masked(result, kinds))[0]
    kinds.update(kind for kind, _ in found)
    return (f"[{found[0][0]}]" if found else result), kinds
