"""The credential detectors memvault runs, all in linear time: detect-secrets' pattern
plugins with their patterns run by RE2, and memvault's own for what they miss.

detect-secrets' patterns are written for Python's backtracking ``re``, and several take
quadratic or cubic time on text an attacker chooses (its keyword plugin on
``"PASSWORD" * 200``, the npm plugin on a run of ``/``, the assignment patterns of the
Cloudant and IBM plugins on a run of spaces). RE2 (google-re2) matches any pattern in
time linear in the text, so :func:`linear_source` rewrites each plugin's patterns for it;
RE2 has no look-around, so the few look-aheads of those patterns are rewritten to
consume the character they looked at, outside any group. The keyword plugin, whose
patterns need back-references, is replaced by :class:`NamedCredentialDetector`.

detect-secrets' plugins are not imported to scan: their patterns, as :func:`linear_source` rewrites
them, are kept in ``detect_secrets_patterns.json`` (:func:`builtin_detectors`; a test checks it against
the installed detect-secrets). Importing the plugins imports ``requests`` and detect-secrets' whole
scanner, 0.08-0.1 s of every hook and CLI command (docs/hooks.md#speed). Its JWT check and its
sequence filter are imported when a value is found.

memvault's own detectors read two tables: ``secret_formats.tsv`` (key formats, a row a format
and its source) and ``secret_words.tsv`` (the words naming a credential, by language). Each
detector's ``secret_type`` is what a refusal calls the credential (``secrets.LABELS`` names
detect-secrets' own), except :class:`NamedCredentialDetector`'s (:func:`named_kind`).
"""

from __future__ import annotations

import bisect
import functools
import itertools
import json
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import re2

from .regex_cover import cover, holding, indexed

_OPTIONS = re2.Options()
_OPTIONS.log_errors = False  # a pattern RE2 refuses raises; nothing is written to stderr
# The key format table's one pattern, and the prose grammar's, outgrow RE2's default 8 MiB of DFA
# memory on a long run of key characters, and RE2 then falls back to its NFA, 40 times slower (4 s
# on 256 KiB): 32 MiB for those patterns alone (the DFA grows to it only on such input).
_TABLE_OPTIONS = re2.Options()
_TABLE_OPTIONS.log_errors, _TABLE_OPTIONS.max_mem = False, 32 << 20


def compile_linear(source: str, options: Any = _OPTIONS) -> Any:
    """``source`` compiled by RE2 (linear time in the text searched), ``^`` and ``$`` at
    each line's ends: a text is searched whole, not line by line."""
    return re2.compile("(?m)" + source, options)


# detect-secrets' look-arounds: ``(?!\w)`` / ``(?![...])``, perhaps closing a group, and
# build_assignment_regex's ``(?:(?<=\W)|(?<=^))``.
_LOOKAHEAD = re.compile(r"\(\?!(\\w|\[[^\]]*\])\)(\))?")
_LOOKBEHIND = "(?:(?<=\\W)|(?<=^))"
_LONG_REPEAT = re.compile(r"\{(\d+),\d{4,}\}")  # RE2 repeats at most 1,000 times


def linear_source(pattern: re.Pattern[str]) -> str:
    """A detect-secrets pattern's source for RE2 (:func:`compile_linear`): each look-ahead becomes the
    class it refused or the end of the line, consumed outside the group it closed (so a value found is
    the same), the look-behind the start of the line or a non-word character, and a repeat of more
    than 1,000 open-ended."""

    def ahead(match: re.Match[str]) -> str:
        refused = match.group(1)
        allowed = "\\W" if refused == "\\w" else "[^" + refused[1:]
        return (match.group(2) or "") + f"(?:{allowed}|$)"

    source = _LONG_REPEAT.sub(r"{\1,}", _LOOKAHEAD.sub(ahead, pattern.pattern.replace(_LOOKBEHIND, "(?:^|\\W)")))
    flags = ("i" if pattern.flags & re.IGNORECASE else "") + ("s" if pattern.flags & re.DOTALL else "")
    return f"(?{flags}){source}" if flags else source


class Detector:
    """A credential detector: what a refusal calls what it finds (``secret_type``, see
    ``secrets.LABELS``) and its RE2 patterns (``denylist``), each run over a whole text by :func:`find`."""

    secret_type: ClassVar[str]
    denylist: list[Any]


def _packaged(name: str) -> str:
    """The text of the data file ``name`` installed beside this module (as ``embeddings`` finds the
    tokenizer: ``importlib.resources`` took 0.01-0.02 s to import in every hook, docs/hooks.md#speed)."""
    return Path(__file__).with_name(name).read_text(encoding="utf-8")


def _detect_secrets_version() -> str:
    """The installed detect-secrets' version, from its ``__version__.py`` read as text: importing the
    package brings its whole scanner, and ``importlib.metadata`` the email package (0.05 s in every hook,
    docs/hooks.md#speed). From ``importlib.metadata`` when that file does not say it."""
    import importlib.util

    spec = importlib.util.find_spec("detect_secrets")
    for folder in (spec and spec.submodule_search_locations) or ():
        path = f"{folder}/__version__.py"
        try:
            with open(path, encoding="utf-8") as fh:
                found = re.search(r"""^VERSION\s*=\s*['"]([^'"]+)['"]""", fh.read(), re.MULTILINE)
        except OSError:
            found = None
        if found:
            return found.group(1)
    from importlib.metadata import version

    return version("detect-secrets")


def builtin_detectors() -> list[Detector]:
    """detect-secrets' pattern plugins memvault runs, from ``detect_secrets_patterns.json``: each a
    :class:`Detector` named as its plugin class, with the plugin's ``secret_type`` and patterns
    (:func:`linear_source`). Read from detect-secrets itself when the installed version is not the
    file's (never a stale copy)."""
    kept = json.loads(_packaged("detect_secrets_patterns.json"))
    if kept["detect_secrets"] != _detect_secrets_version():
        from .secrets import detect_secrets_patterns

        kept = detect_secrets_patterns()
    rows = kept["plugins"]
    return [type(row["plugin"], (Detector,), {"secret_type": row["secret_type"],
                                              "denylist": [compile_linear(p) for p in row["patterns"]]})()
            for row in rows]


class JwtDetector(Detector):
    """detect-secrets' JWT plugin with a header of 16 characters or more (``{"alg":"none"}``
    is 19 in base64url): each candidate is decoded to check it (the plugin's own
    ``is_formally_valid``), so candidates too short to be a JWT are not made."""

    secret_type = "JSON Web Token"
    denylist = [compile_linear(r"eyJ[A-Za-z0-9_=-]{16,}\.[A-Za-z0-9_=-]+\.?")]

    @staticmethod
    def is_formally_valid(token: str) -> bool:
        """Whether ``token``'s parts decode, the first two as JSON (detect-secrets' check)."""
        from detect_secrets.plugins.jwt import JwtTokenDetector

        return bool(JwtTokenDetector.is_formally_valid(token))


@dataclass(frozen=True)
class KeyFormat:
    """One row of ``secret_formats.tsv`` (its header comment says what each column holds)."""

    name: str
    source: str
    context: str
    holds: str
    regex: str


@functools.cache
def _table(name: str) -> tuple[tuple[str, ...], ...]:
    """The rows of the tab-separated table ``name`` packaged beside this module, without its
    comments and its header line; read once (the word grammar asks for it some 150 times)."""
    text = _packaged(name)
    rows = (tuple(line.split("\t")) for line in text.splitlines() if line and not line.startswith("#"))
    return tuple(rows)[1:]


@functools.cache
def key_formats() -> tuple[KeyFormat, ...]:
    """The rows of ``secret_formats.tsv``, in order."""
    return tuple(KeyFormat(*row) for row in _table("secret_formats.tsv"))


@functools.cache
def words(role: str, language: str | None = None) -> str:
    """The words of ``role`` in ``secret_words.tsv`` (the word for password, the verbs and
    prepositions around it), of ``language`` or of every language, as one regex alternation."""
    return "|".join(f"(?:{alternatives})" for lang, alternatives in _words_of(role)
                    if language in (None, lang))


@functools.cache
def _words_of(role: str) -> tuple[tuple[str, str], ...]:
    """``(language, alternatives)`` of each row of ``role`` in ``secret_words.tsv``, in order: the grammar
    asks :func:`words` some 150 times, by role and language (reading every row each time took 0.003 s)."""
    return tuple((lang, alternatives) for lang, row_role, alternatives, *_ in _table("secret_words.tsv")
                 if row_role == role)


@functools.cache
def lookalikes() -> dict[int, str]:
    """``secret_lookalikes.tsv`` as a ``str.translate`` table: each letter of another script that reads
    as one ASCII letter, to that letter."""
    return {ord(letter): ascii_letter for letter, ascii_letter, *_ in _table("secret_lookalikes.tsv")}


_HOLDS = {"a": re.compile("[a-z]"), "A": re.compile("[A-Z]"), "1": re.compile("[0-9]")}


def _row_source(row: KeyFormat, value: str) -> str:
    """A row's pattern: its context words and up to 40 characters of its line, or a word
    boundary, then ``value`` (the row's regex, as a group or not), where its alphabet ends."""
    before = f"(?i:{row.context})[^\\n]{{0,40}}?[^A-Za-z0-9_-]" if row.context else "(?:^|[^A-Za-z0-9_-])"
    return before + value + r"(?:[^A-Za-z0-9_-]|$)"


class KeyFormatDetector(Detector):
    """Key formats from the table ``secret_formats.tsv`` (:func:`key_formats`), each found as
    its row's regex at a word boundary, or after its row's context words on the same line
    (within 40 characters), and labelled by its row's name.

    One RE2 pattern for the rows a text can hold, without groups, finds where a value is; the row
    that matched there is then told apart by its own pattern (:func:`_row_pattern`, compiled when
    a match first needs it), so the groups of a hundred rows are never computed over a long match
    (that took 0.5 s on 256 KiB of one key). The rows a text can hold (:meth:`patterns`) are those
    whose regex's cover and context's cover (``regex_cover``) the text casefolded holds: a row left out
    matches nowhere in the text, so the one pattern of the others finds the same values. RE2 took
    0.02-0.03 s to compile the whole table's pattern, in every hook (docs/hooks.md#speed)."""

    secret_type = "key format"  # each finding is labelled by its format

    def __init__(self) -> None:
        self._rows = key_formats()

    @property
    def denylist(self) -> list[Any]:  # type: ignore[override]  # built from the table, not a class constant
        return [_table_pattern(tuple(range(len(self._rows))))]

    def patterns(self, text: str) -> list[Any]:
        """The pattern of the rows ``text`` can hold (none when it can hold none)."""
        kept = self._kept(text)
        return [_table_pattern(kept)] if kept else []

    @functools.lru_cache(maxsize=4)  # noqa: B019  # the detectors live as long as the process
    def _kept(self, text: str) -> tuple[int, ...]:
        """The numbers of the rows ``text`` can hold, for :meth:`patterns` and then :meth:`values`."""
        # a look at each string, however long the text, and not at what follows each place it is (a loop in
        # Python): a text of "-" (Mailgun's "-" then a hex digit) would take 0.2 s, every row 0.5 s at 64 KiB
        held, rows = holding(text.casefold(), _key_format_covers(), math.inf, follow=False), len(self._rows)
        return tuple(number for number in range(rows) if number in held and rows + number in held)

    def values(self, match: Any) -> Iterator[tuple[str | None, str]]:
        """``(label, value)`` of a match: the first row (of those the text can hold: a row left out
        matches nowhere in it) whose pattern matches where it starts and whose value holds what the row
        asks. The rows run on the text's UTF-8 (:func:`_utf8`)."""
        encoded, offsets = _utf8(match.string)
        start = match.start() if offsets is None else offsets[match.start()]
        for number in self._kept(match.string):
            row = self._rows[number]
            found = _row_pattern(row).match(encoded, start)
            value = found and found.group(1).decode()
            if value and all(_HOLDS[c].search(value) for c in row.holds):
                yield row.name, value
                return


@functools.lru_cache(maxsize=4)
def _utf8(text: str) -> tuple[bytes, list[int] | None]:
    """``text`` in UTF-8, and the byte offset of each of its characters (None: ASCII, the same). RE2's
    wrapper encodes a ``str`` whole, and counts up to the offset asked, at every call: a row matched at
    each of many matches of a long text took quadratic time (23 s on 32,000 characters)."""
    if text.isascii():
        return text.encode(), None
    widths = (1 if c < "\x80" else 2 if c < "\u0800" else 3 if c < "\U00010000" else 4 for c in text)
    return text.encode("utf-8", "surrogatepass"), [0, *itertools.accumulate(widths)]


# Patterns of sets of rows kept (the whole table's, and those of the few sets a session's texts need).
TABLE_PATTERNS_KEPT = 16


@functools.lru_cache(maxsize=TABLE_PATTERNS_KEPT)
def _table_pattern(rows: tuple[int, ...]) -> Any:
    """One RE2 pattern of the rows numbered ``rows`` of :func:`key_formats`, in the table's order."""
    table = key_formats()
    source = "|".join(_row_source(table[i], f"(?:{table[i].regex})") for i in rows)
    return compile_linear(source, _TABLE_OPTIONS)


def key_format_sources() -> list[str]:
    """The regexes whose covers say which rows of :func:`key_formats` a text can hold: each row's regex,
    then each row's context words ("" for none: any text holds them)."""
    rows = key_formats()
    return [row.regex for row in rows] + [f"(?i:{row.context})" if row.context else "" for row in rows]


@functools.cache
def _key_format_covers() -> dict[str, Any]:
    return packaged_covers("key_format_covers.json", key_format_sources())


@functools.cache
def _row_pattern(row: KeyFormat) -> Any:
    """A key format row's own pattern, its value a group. Compiled when first needed: the hundred of
    them take 0.03-0.05 s, and most texts match no key format (docs/hooks.md#speed)."""
    return compile_linear(_row_source(row, f"({row.regex})"))


class UrlPasswordDetector(Detector):
    """A password in a URL's user information, ``scheme://user:password@host``, written with
    characters detect-secrets' Basic Auth plugin leaves out: RFC 3986 (section 3.2.1) lets
    user information hold its sub-delimiters (``! $ & ' ( ) * + , ; =``), and generated
    passwords hold them and ``#`` written raw. A password ends at white space, ``/``, ``?``
    or ``@``, so ``http://host:8080/a@b`` and ``http://host:8080?to=a@b`` are not taken."""

    secret_type = "password in a URL"
    denylist = [compile_linear(r"://[^\s:/?#\[\]@]*:([^\s/?@]+)@")]


# A credential's value as people write it after its word: 6 characters or more without white space
# or quotes, not ending in sentence punctuation; it must hold a letter and a digit (:func:`_is_value`),
# so "is rotated", "is 12 characters" and "is JWT-based" are not values.
_VALUE = r"[^\s\"'`]{5,}[^\s\"'`.,;:!?)\]]"
# The same after a word for password written without spaces around it (Chinese, Japanese, ...):
# printable ASCII, so the sentence that goes on after it is not taken for the value. Case-sensitive:
# under (?i) the class would also leave out k and s (U+212A KELVIN SIGN folds to k, U+017F to s).
_ASCII_VALUE = r"(?-i:([^\s\"'`\x{80}-\x{10FFFF}]{5,}[^\s\"'`.,;:!?)\]\x{80}-\x{10FFFF}]))"
# A password after its user ("admin:X", "admin / X"): not a path or a URL's rest ("login: https://x/y2").
_PAIRED = r"[^\s\"'`/][^\s\"'`]{4,}[^\s\"'`.,;:!?)\]]"
# What digits after a word for password count when they are no password ("2024年", "8位", "4桁").
_COUNTERS = "年月日桁位個个回号號時时分秒件人字円元歳岁%"
# A value in quotes of any kind is a value whatever it holds ("correct horse battery staple").
_QUOTE = "[\"'`“‘«„‹「『]"
_QUOTED = _QUOTE + "(?P<whole>[^\n]{4,200}?)[\"'`”’“»›」』]"
# detect-secrets' keyword plugin's words (plugins/keyword.py DENYLIST), for quoted values.
_CODE_WORDS = (r"api_?key|auth_?key|service_?key|account_?key|db_?key|database_?key|priv_?key|private_?key"
               r"|client_?key|db_?pass|database_?pass|key_?pass|password|passwd|passphrase|pwd|secret|token"
               r"|contrase[ñn]a")
# The words of English prose that names a credential after its value.
# An attribute naming a credential: key="DbPassword", name='api_key'.
_NAMED_ATTRIBUTE = f"\\b(?:key|name)[ \\t]*=[ \\t]*[\"'][^\"'\\n]*(?:{_CODE_WORDS})[^\"'\\n]*[\"']"
_PROSE_WORDS = r"password|passphrase|passcode|passwd|pwd|api[ _-]?key|secret[ _-]?key|access[ _-]?token|token"
_AFTER = r"(?:^|[^\pL])"  # a word starts after a non-letter
# A list of users and their secrets under a header naming credentials (issue 25): the header ("password
# list", "user table", "accounts", "users", "passwords (prod)", "Passwortliste", "список паролей"), perhaps
# quoted, then ":", "=", " - " or a verb, perhaps "{", blank lines, a Markdown table's head; or the header
# alone on its line ("Logins", "## Accounts", "**Users:**", issue 25 §1.8); then pairs ("admin:X",
# "'bob': 'Y'", "eve=Z", "root -> W", "| svc | V |", "admin X"), parted by commas, "|", "and", spaces or
# line breaks (each line perhaps a bullet). Taken whole, so every pair goes (:func:`_listed_secrets`).
_CRED_NOUN = r"(?:passwords?|passwd|pwds?|creds|credentials?|logins?|logons?|users?|accounts?|user[ _-]?names?)"
_LIST_HEADER = (_CRED_NOUN + r"[ \t]+(?:list|table|dump|file|sheet|set|entries|pairs|combos?)s?"
                r"|passwords|pwds|creds|credentials|logins|logons|accounts|users|user[ _-]?names"
                r"|passwortliste|kennwortliste|passw[öo]rter|kennw[öo]rter|zugangsdaten"
                r"|(?:liste[ \t]+des[ \t]+)?mots[ \t]+de[ \t]+passe|(?:lista[ \t]+de[ \t]+)?contrase[ñn]as"
                r"|(?:lista[ \t]+de[ \t]+)?senhas|(?:elenco|lista)[ \t]+(?:delle[ \t]+)?password"
                r"|(?:список[ \t]+)?паролей|пароли|wachtwoorden|has[łl]a")
_LIST_USER = r"""["'`]?[^\s:/%"'`,;=|(){}\[\]<>→-][^\s:/%"'`,;=|(){}\[\]<>→]{0,63}["'`]?"""
_LIST_QUOTED = r"""["'`]({0}[^"'`\n]{{4,200}})["'`]"""  # {0}: "" for a group, "?:" for none
_LIST_BARE = r"""({0}[^\s"'`/|,;{{}}\[\]][^\s"'`|,;{{}}]{{4,}}[^\s"'`.,;:!?)\]|{{}}])"""
_LIST_JOIN = r"[ \t]*(?:[:=/%|→]|->|=>|[—–])[ \t]*|[ \t]+-[ \t]+|[ \t]+"
# One pair, its secret a group (quoted, or not), to judge each secret (:func:`_listed_secrets`).
_LIST_PAIR_PARTS = f"(?:{_LIST_USER})({_LIST_JOIN})(?:{_LIST_QUOTED.format('')}|{_LIST_BARE.format('')})"
_LIST_PAIR = f"(?:{_LIST_USER})(?:{_LIST_JOIN})(?:{_LIST_QUOTED.format('?:')}|{_LIST_BARE.format('?:')})"
_LIST_BULLET = r"(?:[-*•+][ \t]+|\d{1,3}[.)][ \t]+|\|[ \t]*)?"
_LIST_NEXT = (r"[ \t]*[,;|][ \t]*(?:and[ \t]+)?|[ \t]+(?:(?:and|&)[ \t]+)?"
              r"|[ \t]*[,;]?[ \t]*\|?[ \t]*(?:\r?\n[ \t]*){1,2}" + _LIST_BULLET)
_LIST_TABLE_HEAD = r"(?:\|[^\n]*\r?\n[ \t]*\|[ \t:|-]*-[ \t:|-]*\r?\n[ \t]*)?"
_LIST_NOTE = r"[ \t]*(?:[(\[][^()\[\]\n]{1,40}[)\]][ \t]*)?"
_PAIR_LIST = (f"(?i)(?:{_AFTER}[\"']?(?:{_LIST_HEADER})[\"']?{_LIST_NOTE}"
              r"(?:[:=]|[ \t]-|[ \t]+(?:are|is|were|was))[ \t]*[{\[]?(?:[ \t]*\r?\n){0,3}[ \t]*"
              # the header alone on its line, perhaps a Markdown heading or bold: the pairs start the next
              f"|^[ \\t]*(?:#{{1,6}}[ \\t]+|[*_]{{1,2}})?[\"']?(?:{_LIST_HEADER})[\"']?{_LIST_NOTE}(?:[*_]{{1,2}})?"
              r"[ \t]*:?[ \t]*(?:[*_]{1,2})?[ \t]*\r?\n(?:[ \t]*\r?\n){0,2}[ \t]*)"
              f"{_LIST_TABLE_HEAD}{_LIST_BULLET}"
              f"(?P<pair_list>{_LIST_PAIR}(?:(?:{_LIST_NEXT}){_LIST_PAIR})*)")
# A list's header up to its first pair ("login list: "), where a pair after "login" is read.
_LIST_NAMED = re.compile(r"(?i)[^\w]*\w+[ \t]+(?:list|table|dump|file|sheet|set|entries|pairs|combos?)s?[ \t]*[:=]")
# A date or a time is no password ("login list: alice:2024-01-03").
_DATE = re.compile(r"\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?)?")


@functools.cache
def _list_pair_parts() -> Any:
    return compile_linear(_LIST_PAIR_PARTS)


def _listed_secrets(pairs: str) -> bool:
    """Whether a list of pairs (``_PAIR_LIST``'s) holds a secret: one holding a letter and a digit, no date.
    A user and a secret parted by a space alone count in a list of two pairs or more: one is prose ("creds:
    in 1Password", "the password list is in 1Password")."""
    # over UTF-8: RE2's wrapper reads a ``str``'s offsets again at each match (a list of 20,000 pairs took 1 s)
    found = list(_list_pair_parts().finditer(pairs.encode("utf-8", "surrogatepass")))
    return any((pair.group(1).strip(b" \t") or len(found) > 1)
               and _is_value(secret := (pair.group(2) or pair.group(3)).decode("utf-8", "surrogatepass"))
               and not _DATE.fullmatch(secret) for pair in found)


# A Markdown table (or CSV, TSV) with a column for passwords (issue 25 §1.8): its head names the column
# ("| user | pass |", "| Benutzer | Passwort |", "| db password (prod) |"; a word for password, perhaps after
# two words and before a note, alone in its cell: not "password hint"), its delimiter row, then its rows,
# taken whole when a cell of that column is a value (:func:`_table_secrets`, :func:`_csv_secrets`).
@functools.cache
def _column_words() -> str:
    return ("pass(?:word|wd|phrase|code)?s?|pwds?|pw|secrets?|(?:api|access|secret|auth)[ _-]?(?:keys?|tokens?)"
            "|tokens?|" + "|".join(words(role) for role in ("password", "password-strict", "password-tail",
                                                              "password-unspaced")))


_CELL_WORDS = r"(?:[\w.-]+[ \t]+){0,2}"  # a Markdown cell's words before the word for password ("db password")
_CSV_BEFORE = r"(?:[\w.-]*[_.-])?"  # in CSV a name's prefix ("db_"), no words: "Reset the password, then" is prose


def _column(before: str, after: str) -> str:
    """A table head's cell naming a password column (RE2): ``before`` the word, a compound ending in a word of
    ``password-tail`` ("Serverpasswort"), then ``after`` it (the rest of the line: each alternative ends with
    it, so the prefilter's cover reads which characters follow the word, ``regex_cover``)."""
    rest = r"[*_`\"']{0,2}(?:[ \t]*[(\[][^()\[\]|\n]{1,40}[)\]])?[ \t]*" + after
    return (r"[ \t]*[*_`\"']{0,2}(?:" + before + "(?:" + _column_words() + ")" + rest
            + r"|[\w.-]*(?:" + words("password-tail") + ")" + rest + ")")


def _table_source() -> str:
    return (r"(?i)^[ \t]*(?:\|?[^|\n]*\|)*?" + _column(_CELL_WORDS, r"(?:\|[^\n]*)?\r?\n")
            + r"[ \t]*\|?(?:[ \t]*:?-+:?[ \t]*\|)+(?:[ \t]*:?-+:?)?[ \t]*\r?\n"
            r"(?P<table_rows>[^\n]*\|[^\n]*(?:\r?\n[^\n]*\|[^\n]*)*)")


def _csv_source() -> str:
    """The same in CSV or TSV: a head of cells parted by ",", ";" or a tab, then rows (:func:`_csv_secrets`)."""
    return (r"(?i)^(?:[^,;\t\n]*[,;\t])*?" + _column(_CSV_BEFORE, r"(?:[,;\t][^\n]*)?\r?\n")
            + r"(?P<csv_rows>[^\n]*[,;\t][^\n]*(?:\r?\n[^\n]*[,;\t][^\n]*)*)")


@functools.cache
def _column_cell(before: str = _CELL_WORDS) -> Any:
    return compile_linear(f"(?i)^{_column(before, '$')}")


def _cells(row: str) -> list[str]:
    """The cells of a Markdown table's row, without the pipes at its ends."""
    row = row.strip()
    return row[row.startswith("|"):len(row) - row.endswith("|")].split("|")


def _table_secrets(head: str, rows: str) -> bool:
    """Whether the rows of a table (``_table_source``'s) whose ``head`` names password columns hold a secret:
    a cell of such a column holding a letter and a digit, without white space, no date."""
    columns = [i for i, cell in enumerate(_cells(head)) if _column_cell().search(cell)]
    return any(_is_secret_cell(cells[i]) for row in rows.split("\n") for cells in [_cells(row)]
               for i in columns if i < len(cells))


def _csv_secrets(head: str, rows: str) -> bool:
    """:func:`_table_secrets` for CSV or TSV (``_csv_source``): the separator is the first of a tab, ";" and ","
    that parts the head into cells naming a password column; a row counts when it has as many cells (prose
    with commas has not)."""
    for separator in ("\t", ";", ","):
        heads = head.split(separator)
        columns = [i for i, cell in enumerate(heads) if len(heads) > 1 and _column_cell(_CSV_BEFORE).search(cell)]
        if columns:
            return any(_is_secret_cell(cells[i]) for row in rows.split("\n")
                       if len(cells := row.split(separator)) == len(heads) for i in columns)
    return False


def _is_secret_cell(cell: str) -> bool:
    """Whether a table's cell holds a value: a letter and a digit, no white space, no date."""
    cell = cell.strip(" \t*_`\"'")
    return _is_value(cell) and not any(c.isspace() for c in cell) and not _DATE.fullmatch(cell)


# Code that passes a user and a password to a call or a keyword named for authentication (issue 25 §1.8):
# ``auth=('alice', 'X')``, ``HTTPBasicAuth("alice", "X")``, ``new PasswordAuthentication("alice", "X".toCharArray())``,
# ``new NetworkCredential("alice", "X")``, ``Credentials.basic("alice", "X")``, ``smtp.login("me@x.org", "X")``.
# Two string literals: the second whatever it holds (as ``password = "X"``); a name then a literal: a literal
# holding a letter and a digit.
_STRING = r"""(?:"[^"\n]{0,100}"|'[^'\n]{0,100}'|`[^`\n]{0,100}`)"""
_AUTH_CALL = (r"(?i)(?:auth(?:entication|enticate|orization)?(?:token)?|credentials?(?:\.basic)?|creds|log_?in"
              r"|sign_?in)[\"']?"
              r"[ \t]*(?::|=>?)?[ \t]*(?:new[ \t]+[\w.$]+[ \t]*)?[(\[][ \t]*"
              f"(?:{_STRING}[ \\t]*,[ \\t]*[\"'`](?P<whole_auth>[^\"'`\\n]{{1,200}})"
              r"|[\w.$]+(?:\[[^\]\n]{0,40}\])?[ \t]*,[ \t]*[\"'`](?P<auth_value>[^\"'`\n]{4,200}))"
              r"[\"'`][ \t]*(?:[)\],]|\.\w)")
# Prose: "login with alice:X", "log in using alice / X", "sign in with the account bob:X" (issue 25 §1.8);
# after "/" (a service's pair, "sign in with Google/Microsoft365") only a value mixing cases and digits that
# is no word and digits.
_LOGIN_WITH = (f"(?i){_AFTER}(?:log(?:s|ged|ging)?[ -]?(?:in|on)|sign(?:s|ed|ing)?[ -]?(?:in|on)"
               r"|authenticat(?:e|es|ed|ing))[ \t]+(?:with|using|via|as)[ \t]+"
               r"(?:(?:the|my|your|our|this)[ \t]+)?(?:(?:credentials?|creds|account|user(?:name)?)[ \t]*:?[ \t]+)?"
               r"[\"'`]?[^\s:/\"'`]+"
               f"(?::(?P<login_pair>{_PAIRED})|[ \\t]*/[ \\t]*(?P<spaced_login>{_PAIRED}))")
# Several passwords named by a plural word: "the passwords are hunter2!, Tr0ub4dor&3 and correcthorse#99",
# "API keys: X, Y" (issue 25 §1.8). Taken whole when one of them is a value (:func:`_listed_values`).
_PLURAL = (r"passwords|passwds|pwds|passphrases|passcodes|(?:api|access|secret|auth)[ _-]?(?:keys|tokens)"
           r"|passw[öo]rter|kennw[öo]rter|mots[ \t]+de[ \t]+passe|contrase[ñn]as|senhas|пароли|wachtwoorden"
           r"|has[łl]a")
_ITEM = r"""[“‘"'`]?[^\s"'`,;“”‘’]{4,200}[”’"'`]?"""
_ITEM_NEXT = r"[ \t]*[,;][ \t]*(?:(?:and|or|&)[ \t]+)?|[ \t]+(?:and|or|&)[ \t]+"
_VALUE_LIST = (f"(?i){_AFTER}(?:{_PLURAL})"
               r"(?:[ \t]+(?:for|of|on|to|in)[ \t]+[^\s:=,]+(?:[ \t]+[^\s:=,]+){0,3}?)?"
               r"[ \t]*(?:[(\[][^()\[\]\n]{1,40}[)\]][ \t]*)?(?:[:=]|[ \t]+(?:are|were)(?:[ \t]*:)?)[ \t]*"
               f"(?P<value_list>{_ITEM}(?:(?:{_ITEM_NEXT}){_ITEM})+)")


@functools.cache
def _list_items() -> Any:
    return compile_linear(f"(?i){_ITEM_NEXT}")


def _listed_values(values: str) -> bool:
    """Whether a list of values (``_VALUE_LIST``'s) holds a secret: one of 6 characters or more holding a
    letter and a digit, no date. Split by RE2: Python's ``re`` took quadratic time on a run of spaces."""
    at, items = 0, []
    for separator in _list_items().finditer(values):
        items.append(values[at:separator.start()])
        at = separator.end()
    items.append(values[at:])
    return any(len(item := piece.strip("“”‘’\"'`.!?")) >= 6 and _is_value(item) and not _DATE.fullmatch(item)
               for piece in items)


_ENDS = r"[ \t]*(?:$|[,;)]|[.!?](?:[ \t]|$))"  # a value that ends its line, clause or sentence
_NEXT_LINE = r"(?:\r?\n[ \t]*)?"  # a value may start the next line ("password:", then the value below)


@functools.cache
def key_words() -> str:
    """The words for a key or token (``key`` in ``secret_words.tsv``) and a service's name (``provider``)
    before key, secret or token, "api" perhaps between: "the Stripe key", "OpenAI API key", "GitHub token"."""
    return f"{words('key')}|(?:{words('provider')})[ _-]?(?:api[ _-]?)?(?:keys?|secret|token)"


@functools.cache
def said(role: str) -> str:
    """The grammar of a credential named in prose (``secret_words.tsv``): a word of ``role``,
    perhaps a note in brackets or after a comma ("password, prod: X"), or a phrase saying whose (a
    preposition or a relative word, "that", "we", "used", and up to six words), then a verb (perhaps
    then ``:``; English's "was changed to", "will be", "has been reset to"), ``'s`` (not after a word
    for a key: "the token's scope2 field"), or ``:``, ``=``, ``:=``, an arrow, a dash (after a verb,
    ``:`` or ``=``, the value may start the next line); the prepositions and verbs of English and of
    the languages that have a word of ``role``."""
    langs = dict.fromkeys(["en"] + [lang for lang, of, *_ in _table("secret_words.tsv") if of == role])
    whose, verb = ("|".join(filter(None, (words(r, lang) for lang in langs))) for r in ("whose", "verb"))
    # "my password's X"; not after a word for a key: "the token's scope2 field"
    owned = "|['’]s(?:[ \\t]+(?:now|still))?[ \\t]+" if role != "key" else ""
    named = key_words() if role == "key" else words(role)
    return (f"(?:{named})(?:[ \\t]+(?:{whose})" r"(?:[ \t]+[^\s:=]+){1,6}?"
            r"|[ \t]*[(\[][^()\[\]\n]{1,40}[)\]]|[ \t]*,[ \t]*[^\s,:=()\[\]][^,:=\n]{0,30}?)?"
            f"(?:[ \\t]+(?:{verb})(?:[ \\t]*[:=][ \\t]*{_NEXT_LINE}|[ \\t]*\\r?\\n[ \\t]*|[ \\t]+){owned}"
            f"|[ \\t]*(?::=|[:=—–→⇒]|->|=>)[ \\t]*{_NEXT_LINE}|[ \\t]+-[ \\t]+)")


class NamedCredentialDetector(Detector):
    """A credential after the word naming it:

    - prose, in English and some 70 other languages and scripts (``secret_words.tsv``, :func:`said`):
      the word (password, pwd, API key, token, Passwort, пароль, a compound such as Serverpasswort),
      perhaps "(prod)" or a phrase saying whose, then its verb, ``:``, ``=`` or a dash and the
      value: "my password is hunter2", "the staging DB password for admin is Xk29slQpz",
      "Passwort für den Server lautet Zq81kk", "password (prod) = Zq81kk", "密码是Zq81kk". After only
      a space: a value after the word for password in other languages ("мой пароль Zq81kk"), one
      mixing cases and digits after an English one ("root password Zq81kkLm", not "password
      sha256"), a key-like one of 20 characters or more ("AWS secret access key wJalrXUtnF...").
      A value holds a letter and a digit (after a word written without spaces, printable ASCII),
      or is quoted after a word for password; a word that qualifies another noun ("password
      hint", "token budget") is not followed by a value;
    - a PIN (``pin`` words): "card PIN: 4821", "PIN ist 4821", 4 to 8 digits; 6 digits or more after
      the prose grammar ("my password is 19871203"), 4 to 12 after a word written without spaces
      ("暗証番号は4821です", not "2024年");
    - the word alone on its line, the value alone on the next ("Password", then "Xk29slQpz");
    - command lines: ``mysql -pX``, ``sshpass -p X``, ``docker login -p X``, ``redis-cli -a X``,
      ``--password X`` (``--db-password=X``), ``curl -u user:X``, ``-pass pass:X``, ``zip -P X``,
      ``7z -pX``, ``smbclient -U user%X``, ``net user NAME X``, ``htpasswd -b FILE USER X``,
      ``echo X | sudo -S``, ``ldapsearch -w X``, ``xfreerdp /p:X``, and a ``.pgpass`` line;
    - markup (``<password>X</password>``, not a plain word), a .NET ``<add key="…Password"
      value="X"/>``, ``pass: X``, ``creds: user:X``, ``login: user / X``, "login with user:X";
    - lists: user/secret pairs under a header ("Logins", "password list:"), a Markdown table's rows
      under a head naming a password column (``| user | pass |``), several values after a plural
      word ("the passwords are X, Y and Z"), each taken whole;
    - code passing a user and a password to a call or keyword for authentication (``auth=("u", "X")``,
      ``HTTPBasicAuth("u", "X")``), and ``-p'X'`` / ``-u USER -pX`` without a command's name;
    - ``.env`` and shell lines: an upper-case name holding PASSWORD, PASS, PWD, SECRET, TOKEN,
      API_KEY, ACCESS_KEY or PRIVATE_KEY, ``=`` or ``:``, the value (a letter and a digit);
    - HTTP ``Authorization: Bearer <token>`` (RFC 6750 section 2.1), 16 characters or more with a
      digit, and a ``.netrc`` entry's password;
    - whole, whatever the value: ``Authorization: Basic <base64>`` (RFC 7617; without the colon,
      a value that is not a plain word), a Docker ``config.json`` ``"auth": "<base64>"``, and
      code and configuration: a name holding one of detect-secrets' keyword plugin's words, an
      assignment or comparison and a quoted value (``password = "bar"``, ``"api_key": "..."``).

    Refusals name what was found by its word (:func:`named_kind`), never by this type.
    """

    secret_type = "Named credential"

    def __init__(self) -> None:
        self._names: dict[str, dict[int, str]] = {}  # each pattern's group names by number, read when it matches

    @property
    def denylist(self) -> list[Any]:  # type: ignore[override]  # built from the word table, not a class constant
        return _named_patterns()

    def patterns(self, text: str) -> list[Any]:
        """The patterns that can match in ``text``, in order: those whose cover (``regex_cover``, the
        words naming a credential and what may follow them) ``text`` casefolded holds, compiled when first
        needed. A pattern left out matches nowhere in ``text``, so the others find the same values. RE2
        took 0.04-0.2 s to compile all of them, in every hook (docs/hooks.md#speed)."""
        kept = holding(text.casefold(), _named_covers())
        return [_named_pattern(i) for i in sorted(kept)]

    def values(self, match: Any) -> Iterator[tuple[str | None, str]]:
        """The value of a match (labelled by :func:`named_kind`): a ``whole`` group's as it is, a
        ``mixed`` one's when it holds a digit and letters of both cases (a ``spaced`` one's also when it is no
        word and digits, ``_WORDLIKE``), a ``markup`` one's when it is
        not a plain word, a ``said`` one's also when it is 6 digits or more, another's when it holds a
        letter and a digit; but not a compound that describes one (``_DESCRIBED``), nor after ``=`` (or
        ``pass:``) code that names one (``_CODE``)."""
        value = match.group(match.lastindex)  # no group holds another: the last is the one that matched
        names = self._names.get(match.re.pattern)
        if names is None:
            names = self._names[match.re.pattern] = {i: name for name, i in match.re.groupindex.items()}
        name = names.get(match.lastindex, "")
        if name.startswith("whole"):
            yield ("password" if name == "whole_auth" else None), value  # a pair's second: its password
            return
        if name == "pair_list":  # taken whole when one of its secrets is a value; named by its header
            if _listed_secrets(value):
                before = match.string[match.start():match.start(match.lastindex)]
                yield (named_kind(before) if "\n" in before else None), value
            return
        if name in ("table_rows", "csv_rows", "value_list"):  # taken whole when one of its secrets is a value
            before = match.string[match.start():match.start(match.lastindex)]
            judged = {"table_rows": _table_secrets, "csv_rows": _csv_secrets}.get(name)
            if judged(before.split("\n", 1)[0], value) if judged else _listed_values(value):
                yield named_kind(before), value
            return
        if name == "pair" and _LIST_NAMED.match(match.string, match.start(), match.start(match.lastindex)):
            return  # "login list: alice:2024-01-03" is a list's first pair, judged as a list's (``_PAIR_LIST``)
        mixed = value.lower() != value != value.upper()
        if name == "markup":
            kept = not _WORD.fullmatch(value)
        elif name.startswith("spaced"):  # after only a space: 8 mixed, not a word and digits ("Gandalf2")
            kept = mixed and len(value) >= 8 and _is_value(value) and not _WORDLIKE.fullmatch(value)
        elif name == "said" and value.isdigit():
            kept = len(value) >= 6  # "my password is 19871203"; shorter digits are a count ("is 12")
        else:
            kept = _is_value(value) and (name != "mixed" or mixed)
        at = match.start(match.lastindex)
        assigned = _ASSIGNED.search(match.string[max(match.start(), at - 4):at]) or name == "pass"
        short = len(value) <= FILTERED_MAX_CHARS  # a longer value is no code and no description
        code = assigned and short and (_CODE.fullmatch(value) or bool(_CAMEL.fullmatch(value)) and _declared(
            match.string, match.start()))
        if kept and not code and not (short and _DESCRIBED.fullmatch(value)):
            before = match.string[match.start():at]  # its word on the line above: named from there
            paired = name.startswith(("cmd", "auth", "login", "spaced_login"))  # a password by where it stands
            kind = "password" if paired else named_kind(before) if "\n" in before else None
            yield kind, value


def _named_patterns() -> list[Any]:
    """:class:`NamedCredentialDetector`'s patterns, each compiled once; a group's name says how its value is
    checked (:meth:`NamedCredentialDetector.values`)."""
    return [_named_pattern(i) for i in range(len(named_sources()))]


@functools.cache
def _named_pattern(number: int) -> Any:
    # the prose grammar's pattern (the first) outgrows RE2's default DFA memory, as the key format table's
    return compile_linear(named_sources()[number], _TABLE_OPTIONS if number == 0 else _OPTIONS)


def covers(sources: list[str]) -> dict[str, Any]:
    """What a packaged covers file holds (:func:`packaged_covers`): a check of the regexes ``sources`` and
    the index of their covers (``regex_cover.indexed``). Write the file again when the patterns or the
    tables change (``tests/test_secret_named_prefilter.py`` says how): computing the named-credential
    patterns' covers takes 0.05-0.3 s, the key format table's 0.02 s."""
    return {"sources": _sources_digest(sources), **indexed([cover(source) for source in sources])}


def packaged_covers(name: str, sources: list[str]) -> dict[str, Any]:
    """:func:`covers` of ``sources``, from the packaged file ``name`` when it was written for them, else
    computed (never a stale copy)."""
    try:
        kept: dict[str, Any] = json.loads(_packaged(name))
    except FileNotFoundError:
        kept = {"sources": None}
    return kept if kept["sources"] == _sources_digest(sources) else covers(sources)


def _sources_digest(sources: list[str]) -> str:
    """A check of the sources (CRC-32 and length: ``hashlib`` took 0.004 s to import in every hook)."""
    import zlib

    joined = "\0".join(sources).encode()
    return f"{zlib.crc32(joined):08x}-{len(joined)}"


@functools.cache
def _named_covers() -> dict[str, Any]:
    return packaged_covers("named_credential_covers.json", named_sources())


@functools.cache
def named_sources() -> list[str]:
    """The sources of :class:`NamedCredentialDetector`'s patterns (for :func:`compile_linear`)."""
    named = f"{_AFTER}(?:{said('password')}|{said('password-strict')})|{said('password-tail')}"
    spaced, key = f"{_AFTER}(?:{words('password')})|{words('password-tail')}", r"[A-Za-z0-9/+_=.~-]{20,}"
    unspaced = f"(?:{words('password-unspaced')})(?:[ \\t]*(?:{words('verb-unspaced')}|[:=])[ \\t]*|[ \\t]+)?"
    return [
        f"(?i)(?:{named})(?:{_QUOTED}|{_QUOTE}?(?P<said>{_VALUE}))"
                 f"|(?:{spaced})[ \\t]+{_QUOTE}?({_VALUE})"
                 f"|{_AFTER}(?:(?:{said('key')}){_QUOTE}?({_VALUE})"
                 f"|(?:{key_words()}|{words('password-strict')})[ \\t]+({key})"
                 f"|(?:{words('password-strict')})[ \\t]+(?P<mixed>{_VALUE}))",
        f"(?i){unspaced}{_QUOTE}?{_ASCII_VALUE}",
        # digits after a word for password written without spaces ("暗証番号は4821です"), not a count of
        # something ("パスワードを2024年に変更", "密码至少8位")
        f"(?i){unspaced}(?P<whole>\\d{{4,12}})(?:[^\\pN{_COUNTERS}]|$)",
        # the word alone on its line, its value alone on the next ("Password", then "Xk29slQpz")
        f"(?i)^[ \\t]*(?:[\\w-]+[ \\t]+){{0,2}}"
                 f"(?:{spaced}|{words('password-strict')}|{key_words()})[ \\t]*\\r?\\n"
                 f"[ \\t]*{_QUOTE}?({_VALUE}){_QUOTE}?[ \\t]*$",
        # English prose with the value first: "Xk29slQpz is the root password", "use Xk29slQpz as my
        # password for staging"; and between commas: "the DB password, Xk29slQpz, rotates monthly"
        f"(?i)(?:^|[ \\t(])({_VALUE})[ \\t]+(?:is|was|as)[ \\t]+(?:(?:my|the|our|your|his|her|their"
                 r"|a|an)[ \t]+)?(?:[\w-]+[ \t]+){0,3}?" f"(?:{_PROSE_WORDS})s?"
                 r"(?:[ \t]*$|[ \t]*[.,;:!?)]|[ \t]+(?:for|of|on|to|in|at)\b)"
                 f"|(?:{_PROSE_WORDS})[ \\t]*,[ \\t]*({_VALUE})[ \\t]*,",
        f"(?i){_AFTER}(?:{said('pin')}|(?:{words('pin')})[ \\t]+)[\"'`]?(?P<whole>\\d{{4,8}})"
                 r"(?:[^\pL\pN]|$)",
        # command lines: mysql's -ppassword, sshpass's and docker login's -p password, redis-cli's -a
        # password, --password password (--http-password, --db-password), curl's -u user:password
        r"(?i)(?:\b(?:mysql(?:dump|admin|import|check|sh)?|mariadb(?:-?(?:dump|admin|import|check))?)\b"
                 r"[^\n]*?[ \t]-p"
                 # mysql's style without its name: -u USER -pX
                 r"|(?:^|[ \t])-u[ \t]*[\"']?[^\s\"'-][^\s\"']*[\"']?[ \t]+-p|\b(?:sshpass|(?:docker|podman|nerdctl)"
                 r"[ \t]+login)\b[^\n]*?[ \t]-p[ \t]*|\bredis-cli\b[^\n]*?[ \t]-a[ \t]*"
                 r"|[ \t]--[\w-]*pass(?:word|wd)?(?:=|[ \t]+)|\bcurl\b[^\n]*?[ \t](?:-u|--user)[ \t]*"
                 r"[\"']?[^\s:\"']+:"
                 # openssl's -pass pass:X, zip's -P X, 7z's and rar's -pX, Samba's -U user%X, net
                 # user's password, htpasswd -b's (after the file and the user), ldapsearch's -w X,
                 # xfreerdp's /p:X
                 r"|[ \t]-pass(?:in|out|word)?[ \t]+pass:"
                 r"|\b(?:un)?zip(?:cloak)?\b[^\n]*?[ \t](?-i:-P)[ \t]*"
                 r"|\b(?:7z[arz]?|7zz|rar|unrar)\b[^\n]*?[ \t]-p"
                 r"|[ \t](?:-U|--user(?:name)?=?)[ \t]*[\"']?[^\s%\"']+%"
                 r"|\bnet[ \t]+user[ \t]+[\"']?[^\s/\"']+[\"']?[ \t]+"
                 r"|\bhtpasswd\b[^\n]*?[ \t]-[a-z]*b[a-z]*(?:[ \t]+-[a-z]+)*(?:[ \t]+[^\s-]\S*){1,2}"
                 r"[ \t]+"
                 r"|\bldap\w*\b[^\n]*?[ \t]-w[ \t]*|\b[xw]freerdp\b[^\n]*?[ \t]/p:"
                 # mongo's, PsExec's, az login's -p X, sqlcmd's -P X, ssh-keygen's -N/-P X, keytool's
                 # -storepass X, gpg's --passphrase X, rabbitmqctl add_user U X, net use SHARE X
                 r"|\b(?:mongo(?:sh|dump|restore|import|export)?|psexec(?:64)?|az[ \t]+login)\b[^\n]*?"
                 r"[ \t]-p[ \t]+|\b(?:sqlcmd|bcp|osql)\b[^\n]*?[ \t](?-i:-P)[ \t]*"
                 r"|\bssh-keygen\b[^\n]*?[ \t](?-i:-[NP])[ \t]+"
                 r"|[ \t]-(?:src|dest|new)?(?:store|key)pass[ \t]+|[ \t]--passphrase[ \t=]+"
                 r"|\brabbitmqctl[ \t]+(?:add_user|change_password)[ \t]+\S+[ \t]+"
                 r"|\bnet[ \t]+use[ \t]+(?:[A-Za-z]:[ \t]+)?\\\\\S+[ \t]+)"
                 r"[\"']?(?P<cmd>[^\s\"'*/-][^\s\"']{3,})"
                 # a password quoted right after -p, whatever the command: -p'X', -p"X"
                 r"|(?:^|[ \t])-p[\"'](?P<cmd_quoted>[^\s\"'*/-][^\s\"']{3,})[\"']"
                 # a password piped to sudo -S: echo X | sudo -S
                 r"|\b(?:echo|printf)[ \t]+[\"']?(?P<cmd_sudo>[^\s\"'|$-][^\s\"'|]{3,})[\"']?[ \t]*\|"
                 r"[ \t]*sudo\b"
                 r"[^\n|]*?"
                 r"[ \t]-[a-zA-Z]*(?-i:S)"
                 # chpasswd: echo user:X | chpasswd
                 r"|\b(?:echo|printf)[ \t]+[\"']?[^\s:\"'|]+:(?P<cmd_chpasswd>[^\s\"'|]{4,})[\"']?"
                 r"[ \t]*\|[ \t]*(?:sudo[ \t]+)?chpasswd\b",
        r"(?m)^[^\s:]+:(?:\d{2,5}|\*):[^\s:]+:[^\s:]+:(\S{4,})$",  # a .pgpass line
        r"(?:^|[^A-Za-z0-9])[A-Z0-9_]*(?:PASSWORD|P[A4@][S5$][S5$]W[O0]RD|PASSWD|PASS|PWD|SECRET"
                 r"|TOKEN|API_?KEY"
                 r"|ACCESS_?KEY|PRIVATE_?KEY)[A-Z0-9_]*[ \t]*[=:][ \t]*[\"'`]?" f"({_VALUE})",
        # after "Authorization:" whatever it holds (RFC 6750 section 2.1); in prose, with a letter and a
        # digit
        r"(?i)\bauthorization[\"']?[ \t]*[:=][ \t]*[\"']?bearer[ \t]+"
                 r"(?P<whole>[\w.~+/-]{16,}=*)"
                 r"|\bbearer[ \t]*:?[ \t]+(?:token[ \t]+)?([\w.~+/-]{16,}=*)",
        r"(?i)(?:^|\s)machine[ \t]+\S+\s+login[ \t]+\S+\s+password[ \t]+(\S+)",
        # an HTTP session cookie (RFC 6265): "Cookie: session=...", "Set-Cookie: sid=...; HttpOnly"
        r"(?i)\b(?:set-)?cookie[\"']?[ \t]*:[ \t]*(?:[^\s;=]+=[^\s;]*;[ \t]*){0,8}"
                 r"[\w.-]*(?:sess(?:ion)?|sid|token|auth|jwt|remember)[\w.-]*=[\"']?([^\s;\"',]{16,})",
        r"(?i)\bauthorization[\"']?[ \t]*(?:[:=][ \t]*[\"']?basic[ \t]+"
                 r"(?P<whole>[A-Za-z0-9+/]{8,}={0,2})|basic[ \t]+"  # no colon: not a plain word
                 r"(?P<whole_b>(?-i:[A-Za-z0-9+/]*(?:[0-9+/]|[a-z][A-Z])[A-Za-z0-9+/]*)={0,2}))",
        r"(?i)\"(?:auth|identitytoken)\"[ \t]*:[ \t]*\"(?P<whole>[A-Za-z0-9+/]{12,}={0,2})\"",
        f"(?i)(?:{_CODE_WORDS})" r"\w*[\]\"']{0,2}[ \t]*(?::=|=>|={1,3}|!==?|:)[ \t]*@?"
                 + _QUOTED,
        # markup: <password>X</password>, <db:apiKey id="1">X</db:apiKey>, <entry key="password">X</entry>;
        # a setting's value: <add key="DbPassword" value="X"/>, <property name="password" value="X"/>
        f"(?i)(?:<[\\w:.-]*(?:{_CODE_WORDS})(?:[_.-]?(?:key|value|text))?(?:[ \\t][^<>\\n]*)?>"
                 f"|<[\\w:.-]+[ \\t][^<>\\n]*?{_NAMED_ATTRIBUTE}[^<>\\n]*>)"
                 f"[ \\t]*(?:<!\\[CDATA\\[)?(?P<markup>[^<>\\s\\]]{{4,200}})(?:\\]\\]>)?[ \\t]*</"
                 f"|(?:{_NAMED_ATTRIBUTE}[ \\t]+|<[\\w:.-]*(?:{_CODE_WORDS})[ \\t][^<>\\n]*?\\b)"
                 f"value[ \\t]*=[ \\t]*{_QUOTED}",
        # abbreviations and pairs: "pass: X", "creds: admin:X", "creds are admin/X", "login: admin / X",
        # "user/pass: admin/X"; with only a space, a value that ends its sentence: "pass X", "login: admin X";
        # a list of pairs
        f"(?i){_AFTER}pass[ \\t]*[:=][ \\t]*{_QUOTE}?(?P<pass>{_VALUE})"
                 f"|{_AFTER}pass[ \\t]+{_QUOTE}?(?P<spaced>{_VALUE}){_QUOTE}?{_ENDS}"
                 f"|{_AFTER}(?:creds|credentials|logins?|logons?)[ \\t]*"
                 f"(?:[:=]|[ \\t]-|[ \\t]+(?:are|is|were|was))?"
                 f"[ \\t]+[\"']?[^\\s:/%\"']+[\"']?[ \\t]*[:/%][ \\t]*(?P<pair>{_PAIRED})"
                 f"|{_AFTER}(?:creds|credentials|logins?|logons?)[ \\t]*[:=][ \\t]*"
                 f"[\"']?[^\\s:/%\"'=]+[\"']?[ \\t]+{_QUOTE}?(?P<spaced_pair>{_PAIRED}){_QUOTE}?{_ENDS}"
                 # "log in as admin with X", "sign in as root using X"
                 f"|{_AFTER}(?:log[ -]?in|logon|sign[ -]?in)[ \\t]+as[ \\t]+[^\\s\"']+[ \\t]+(?:with|using)"
                 f"[ \\t]+{_QUOTE}?(?P<spaced_as>{_VALUE})",
        _PAIR_LIST,
        _table_source(),
        _csv_source(),
        _AUTH_CALL,
        _LOGIN_WITH,
        _VALUE_LIST,
    ]


def find(detector: Any, text: str) -> Iterator[tuple[int, str | None, str, int]]:
    """``(offset, label or None, value, end)`` of each value ``detector`` finds in ``text``, each pattern
    (its ``denylist``, or those its ``patterns(text)`` gives for this text: :class:`KeyFormatDetector`)
    run once over the whole text (a generator: the caller stops when it has enough). A value is
    what the plugin's own ``analyze_string`` would yield (every group that matched, or the whole
    match), kept when the plugin's own check of it (a JWT's ``is_formally_valid``) passes. ``end``:
    where the credential ends, the match's end when the value starts it (GitHub's pattern
    captures only the token's prefix), else (and for a named credential) the value's."""
    values = getattr(detector, "values", None)
    valid = getattr(detector, "is_formally_valid", None)
    kept = getattr(detector, "patterns", None)
    encoded, offsets = _utf8(text)
    chars = None if offsets is None else _char_offsets(text)
    for pattern in detector.denylist if kept is None else kept(text):
        for found_bytes in pattern.finditer(encoded):
            match = _TextMatch(found_bytes, text, chars)
            found = values(match) if values else ((None, v) for v in (match.groups() or (match.group(0),)) if v)
            for label, value in found:
                if valid is None or valid(value):  # at the value: a match may start at the line break before it
                    at = match.start() + match.group(0).find(value)
                    whole_match = values is None and at == match.start()  # named values are whole
                    yield at, label, value, match.end() if whole_match else at + len(value)


class _TextMatch:
    """An RE2 match over a text's UTF-8 (:func:`_utf8`) read as a match over the text: offsets in
    characters, groups as ``str``. RE2's wrapper decodes every offset of every match of a ``str`` (its
    own ``finditer`` took 2-3 times as long per match; decoys such as "pwd='" repeated match every few
    characters: issue 25)."""

    __slots__ = ("_match", "_chars", "string", "re", "_last")

    def __init__(self, match: Any, text: str, chars: list[int] | None) -> None:
        self._match, self._chars, self.string, self.re, self._last = match, chars, text, match.re, 0

    @property
    def lastindex(self) -> int | None:
        if self._last == 0:  # the wrapper reads every group's span each time it is asked
            self._last = self._match.lastindex
        return self._last

    def start(self, group: int = 0) -> int:
        at: int = self._match.start(group)
        return at if self._chars is None or at < 0 else self._chars[at]

    def end(self, group: int = 0) -> int:
        at: int = self._match.end(group)
        return at if self._chars is None or at < 0 else self._chars[at]

    def group(self, group: int = 0) -> str | None:
        raw = self._match.group(group)
        return None if raw is None else raw.decode("utf-8", "surrogatepass")

    def groups(self) -> tuple[str | None, ...]:
        return tuple(None if raw is None else raw.decode("utf-8", "surrogatepass") for raw in self._match.groups())


@functools.lru_cache(maxsize=4)
def _char_offsets(text: str) -> list[int]:
    """The character offset of each byte offset of ``text``'s UTF-8 that starts a character (and of its
    end); only those are read (RE2 matches a UTF-8 text at characters' starts)."""
    encoded, offsets = _utf8(text)
    chars = [0] * (len(encoded) + 1)
    for number, at in enumerate(offsets or range(len(text) + 1)):
        chars[at] = number
    return chars


# Values longer than this are no placeholder, reference, code or description: the filters that say so
# (``_PLACEHOLDER``, ``_CODE``, ``_DESCRIBED``, ``secrets._reference``) never read more of a value than
# this, whatever length a detector found (each is linear, and a detector's value is unbounded).
FILTERED_MAX_CHARS = 256
_LETTER, _DIGIT = re.compile(r"[^\W\d_]"), re.compile(r"\d")
# A plain word between tags is no value ("<password>required</password>"): one with a digit, a symbol or
# mixed cases is.
_WORD = re.compile(r"[A-Za-z][a-z]*")
# A word and digits, or a camelCase name: no password after only a space ("pass Gandalf2", "pass userId2").
_WORDLIKE = re.compile(r"[A-Za-z][a-z]+[0-9]{1,4}|[a-z]+(?:[A-Z][a-z]+)+[0-9]{0,4}")
# Words that describe a credential rather than being one: "the id token is RS256-signed", "base64url-encoded".
# Python's re (Unicode's \w), linear: the repeat before "-" cannot take a "-", so one split is tried.
_DESCRIBED = re.compile(r"[\w.]+-(?:[a-z]+(?:ed|ing)|based|only|like|style|wide|safe|free|less|aware|ready"
                       r"|compatible)")
# Code on the right of "=" that names a value instead of being one: a call or a subscript
# (``get_key(env2)``, ``Token.objects.get(id=k2)``, ``tokens[i]``), an attribute (``self.secret_v2``,
# ``form.password2``), a snake_case or CONSTANT_CASE name (``next_token2``, ``API_KEY_2``), a word for a
# credential and one digit (``password2``, ``token2``). Another name without "_" or "." ("hunter22",
# "Zq81kkLm", "secret123") is a value.
_ASSIGNED = re.compile(r"=|\bto\s*$")  # "token = next_token2", "pass the token to next_handler2"
# Python's re (Unicode's \w), linear: adjacent repeats take disjoint characters (".", "_" and a bracket
# part them), so a failing match gives back each character once; values over FILTERED_MAX_CHARS skip it.
_CODE = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*[(\[].*|[a-z_]\w*(?:\.[A-Za-z_]\w*)+"
                   r"|_*[a-z][a-z0-9]*(?:_+[a-z0-9]+)+_*|_*[A-Z][A-Z0-9]*(?:_+[A-Z0-9]+)+_*"
                   r"|(?:password|passwd|pwd|pw|token|secret|key)[0-9]")


# A camelCase or PascalCase name of words, perhaps numbered: on the right of "=" it names a value in code
# only, where the name assigned is declared or an attribute (``const authToken = refreshToken2;``,
# ``let accessToken = NextPageToken``, ``this.token = nextToken2``). Elsewhere it is how a password is
# written down (``password = secretGarden1``, ``pwd=superSecret1``, ``--password=PassWord1``,
# ``API_KEY=nextToken2``): the same text reads both ways, and a credential stored is the worse mistake.
# Digits inside ("Zq81kkLm", "myApp2Secret") or a one-letter part ("aB3xY9") make a value anyway.
_CAMEL = re.compile(r"[a-z]{2,}(?:[A-Z][a-z]{2,})+[0-9]{0,3}|(?:[A-Z][a-z]{2,}){2,}[0-9]{0,3}")
# Before the name assigned, on its line: a declaration's word, or an object whose attribute it is.
_DECLARATION = re.compile(r"(?:^|[\s;{(])(?:const|let|var|val|final|auto|static|private|public|protected)\s+"
                          r"(?:[A-Za-z_$][\w$<>\[\]]*\s+)?$|(?:^|[^\w.])(?:this|self)\.$")


def _declared(text: str, start: int) -> bool:
    """Whether the name assigned at ``start`` of ``text`` is declared or an attribute there (``_DECLARATION``)."""
    head = text[max(0, start - 120):start + 8]  # bounded: a scan calls this once per value
    at = min(start, 120)
    while at < len(head) and not (head[at].isalnum() or head[at] in "_$"):  # a match opens on a boundary
        at += 1
    while at and (head[at - 1].isalnum() or head[at - 1] in "_$"):  # the whole name ("authToken")
        at -= 1
    return bool(_DECLARATION.search(head[head.rfind("\n", 0, at) + 1:at]))


def _is_value(text: str) -> bool:
    return bool(_LETTER.search(text) and _DIGIT.search(text))


# The words naming a credential, by kind. Checked in this order at each position, so
# "SECRET_ACCESS_KEY" is a secret key, not an access key. RE2: Python's ``re`` took 0.3-0.5 ms per value
# to try every word at each of 200 characters (a text of many values took seconds to redact).
def _kind_source() -> str:
    return (r"(?i)(?P<bearer>bearer)|(?P<basic>basic|\"auth\")|(?P<pin>" + words("pin") + ")"
            r"|(?P<password>pass(?:word|wd|phrase|code)?|pwd|pw|"
            + "|".join(words(role) for role in ("password", "password-strict", "password-tail",
                                                "password-unspaced"))
            + r")|(?P<secret>secret(?:[ _-]?(?:access[ _-]?)?key)?)|(?P<private>private[ _-]?key)"
            r"|(?P<api>(?:api|access|auth)[ _-]?key|(?:" + words("provider") + r")[ _-]?(?:api[ _-]?)?keys?)"
            r"|(?P<token>(?:(?:api|access|auth|private)[ _-]?)?token)")


@functools.cache
def _kind_words() -> Any:
    return compile_linear(_kind_source(), _TABLE_OPTIONS)


@functools.cache
def _kind_spots() -> Any:
    """``_kind_words`` without its groups: where the words are, by RE2's DFA alone (a match with groups
    cost 0.03-0.1 ms, and a line of decoys ("pwd='" repeated) holds a word every few characters)."""
    return compile_linear(re.sub(r"\(\?P<\w+>", "(?:", _kind_source()), _TABLE_OPTIONS)


_KIND_NAMES = {"bearer": "bearer token", "basic": "Basic authentication credential", "pin": "PIN",
              "password": "password", "secret": "secret key", "private": "private key", "api": "API key",
              "token": "access token"}


def own_labels() -> set[str]:
    """Every label memvault's own detectors give a credential (:func:`named_kind`'s, each key format's,
    the JWT's, a URL's password), as ``redact`` writes them in its markers."""
    return {*_KIND_NAMES.values(), *(f.name for f in key_formats()), JwtDetector.secret_type,
            UrlPasswordDetector.secret_type, "credential"}


def named_kind(before: str) -> str:
    """What a credential found after the word naming it is ("password", "PIN", "API key", "secret
    key", "private key", "access token", "bearer token"), by the last such word in ``before`` (the
    line up to the value) starting within ``KIND_REACH`` characters of its end: ``DB_PASSWORD=`` holds a
    password, ``Authorization: Bearer`` a bearer token. "credential" when no word names it."""
    before = before[-2 * KIND_REACH:]  # the words near the value read as in its whole line
    return kinds_before(before)(len(before))


KIND_REACH = 200  # characters before a value where the word naming it may start


def kinds_before(line: str) -> Callable[[int], str]:
    """:func:`named_kind` of ``line[:at]`` for each offset ``at`` of ``line``, the words of ``line`` found
    once (a line of many values, each read again from 200 characters before it, took 0.1 ms a character
    to redact: issue 25). The words are those one scan of the line finds (a word cut at the value, as
    the value's start reads it); their kinds are read when asked."""
    words_ = _kind_spots().finditer(line)
    spots: list[tuple[int, int]] = []
    starts: list[int] = []

    def kind(at: int) -> str:
        while not starts or starts[-1] < at:  # the line read as far as asked (a scan wants the first few)
            word = next(words_, None)
            if word is None:
                break
            spots.append((word.start(), word.end()))
            starts.append(word.start())
        i = bisect.bisect_left(starts, at)  # the words before ``i`` start before the value
        if i and spots[i - 1][1] > at:  # a word the value cuts: read as the text up to the value reads it
            cut = _last_kind(line[spots[i - 1][0]:at])
            if cut is not None:
                return cut
            i -= 1
        if not i or spots[i - 1][0] < at - KIND_REACH:
            return "credential"
        return _last_kind(line[spots[i - 1][0]:spots[i - 1][1]]) or "credential"

    return kind


@functools.lru_cache(maxsize=1024)
def _last_kind(words_: str) -> str | None:
    """The kind of the last word naming a credential in the short text ``words_`` (None: no word).
    Kept by its text: a match of ``_kind_words``' groups cost 0.03 ms, and decoys repeat one word."""
    found = list(_kind_words().finditer(words_))
    return _KIND_NAMES[found[-1].lastgroup or ""] if found else None


# A placeholder is a word that says what goes there (PASSWORD, DB_PASS, YOUR_TOKEN,
# CHANGEME), a run of x, * or dots, the bare word password/passwd/pass/pwd/secret/token, or the name
# of the 1Password manager ("パスワードは1Passwordにあります": where it is kept);
# any other capitals are a password ("postgres://app:CORRECTHORSEBATTERY@db").
# RE2: Python's ``re`` took quadratic time on a run of PASS (0.6 s on 8,000 characters).
_PLACEHOLDER = re2.compile(
    r"(?:[A-Z_]*(?:PASS|PWD|SECRET|TOKEN|KEY|CHANGE_?ME|REDACTED|PLACEHOLDER|HIDDEN|XXX)[A-Z_]*)|[xX*.#-]+"
    r"|(?i:pass(?:word|wd)?|pwd|secret|token|1password)", _OPTIONS)
# Only the detectors that read a password out of free text; key formats are never placeholders.
PASSWORD_DETECTORS = ("BasicAuthDetector", "UrlPasswordDetector", "NamedCredentialDetector")


def is_placeholder(secret: str, plugin: Detector) -> bool:
    """True for a password value that stands for a credential instead of being one, found
    by a detector of :data:`PASSWORD_DETECTORS`: see ``_PLACEHOLDER``; one over
    :data:`FILTERED_MAX_CHARS` never is."""
    return (type(plugin).__name__ in PASSWORD_DETECTORS and len(secret) <= FILTERED_MAX_CHARS
            and bool(_PLACEHOLDER.fullmatch(secret)))
