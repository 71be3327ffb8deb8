"""The credential detectors besides the named-credential one (``secret_named``): detect-secrets'
pattern plugins with their patterns run by RE2 (``secret_re2``), its JWT plugin, the key formats of
``secret_formats.tsv``, the unnamed secret half of a key pair on its id's line (``secret_pairs.tsv``), a
password in a URL and a Bitcoin private key in base58check (its checksum checked).

detect-secrets' plugins are not imported to scan: their patterns, as ``secret_re2.linear_source``
rewrites them, are kept in ``detect_secrets_patterns.json`` (:func:`builtin_detectors`; a test checks it
against the installed detect-secrets). Importing the plugins imports ``requests`` and detect-secrets'
whole scanner, in every hook and CLI command (docs/hooks.md#speed). Its JWT check and its
sequence filter are imported when a value is found. Each detector's ``secret_type`` is what a refusal
calls the credential (``secrets.LABELS`` names detect-secrets' own).
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Iterator
from typing import Any

from .installed import version
from .regex_cover import holding
from .secret_re2 import TABLE_OPTIONS, Detector, compile_linear, utf8
from .secret_tables import KeyFormat, key_formats, packaged, packaged_covers

def builtin_detectors() -> list[Detector]:
    """detect-secrets' pattern plugins memvault runs, from ``detect_secrets_patterns.json``: each a
    :class:`Detector` named as its plugin class, with the plugin's ``secret_type`` and patterns
    (``secret_re2.linear_source``). Read from detect-secrets itself when the installed version is not the
    file's (never a stale copy)."""
    kept = json.loads(packaged("detect_secrets_patterns.json"))
    if kept["detect_secrets"] != version("detect-secrets", "detect_secrets", "__version__.py", "VERSION"):
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


_HOLDS = {"a": re.compile("[a-z]"), "A": re.compile("[A-Z]"), "1": re.compile("[0-9]")}


def _row_source(row: KeyFormat, value: str) -> str:
    """A row's pattern: for a row whose regex opens with a vendor's prefix (:func:`prefixed`:
    "sk-proj-", "github_pat_", "npm_"), ``value`` (the row's regex, as a group or not) anywhere, glued
    to letters before or after ("prodsk-proj-...", "npm_..._ci"); else its context words and up to 40
    characters of its line, or the start of a word (after no letter or digit: a key joined to a name
    by ``_`` or ``-``, "bravo_sk_...", is found), then ``value`` where its alphabet ends."""
    if not row.context and prefixed(row.regex):
        return value
    before = f"(?i:{row.context})[^\\n]{{0,40}}?[^A-Za-z0-9_-]" if row.context else "(?:^|[^A-Za-z0-9])"
    return before + value + r"(?:[^A-Za-z0-9_-]|$)"


# A regex's opening literal: letters and digits then a separator ("sk-", "github_pat_", "dt0c01\\."),
# then literal alternatives ("(?:proj|svcacct|admin)"), counted by the shortest.
_OPENING = re.compile(r"((?:[A-Za-z0-9]{2,}(?:[_-]|\\\.))+)(?:\(\?:([A-Za-z0-9|]+)\))?")
PREFIX_MIN_CHARS = 4  # "mvk_", "npm_": no word ends in a letter glued to one; "sk-", "hf_" too short


def prefixed(regex: str) -> bool:
    """Whether each alternative of ``regex`` opens with a vendor's prefix of ``PREFIX_MIN_CHARS`` or more
    (its shortest spelling): a key of it glued after letters is still that key (when it looks generated:
    :meth:`KeyFormatDetector.values`) (a vendor chose the prefix to be
    found: github.blog, "Behind GitHub's new authentication token formats", 2021)."""
    return all(_prefix_chars(alternative) >= PREFIX_MIN_CHARS for alternative in _alternatives(regex))


def _alternatives(regex: str) -> list[str]:
    """``regex``'s alternatives at its top level ("sq0atp-...|EAAA...": both)."""
    out, depth, at = [], 0, 0
    for i, c in enumerate(regex):
        if c == "\\" or (i and regex[i - 1] == "\\"):
            continue
        depth += {"(": 1, ")": -1}.get(c, 0)
        if c == "|" and depth == 0:
            out.append(regex[at:i])
            at = i + 1
    return [*out, regex[at:]]


def _prefix_chars(regex: str) -> int:
    """The length of ``regex``'s opening literal (:data:`_OPENING`, its shortest spelling), 0 without one."""
    opening = _OPENING.match(regex)
    if opening is None:
        return 0
    alternatives = opening.group(2)
    return len(opening.group(1).replace("\\", "")) + (min(map(len, alternatives.split("|"))) if alternatives else 0)


class KeyFormatDetector(Detector):
    """Key formats from the table ``secret_formats.tsv`` (:func:`key_formats`), each found as
    its row's regex at a word boundary, or after its row's context words on the same line
    (within 40 characters), and labelled by its row's name.

    One RE2 pattern for the rows a text can hold, without groups, finds where a value is; the row that matched there is
    then told apart by its own pattern (:func:`_row_pattern`, compiled when a match first needs it), so the groups of a
    hundred rows are never computed over a long match (docs/storage-tuning.md#the-credential-scans-regular-expressions).
    The rows a text can hold (:meth:`patterns`) are those whose regex's cover and context's cover (``regex_cover``) the
    text casefolded holds: a row left out matches nowhere in the text, so the one pattern of the others finds the same
    values, and compiles sooner (docs/hooks.md#speed)."""

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
        # Python, slow on a text of "-": Mailgun's "-" then a hex digit)
        held, rows = holding(text.casefold(), _key_format_covers(), math.inf, follow=False), len(self._rows)
        return tuple(number for number in range(rows) if number in held and rows + number in held)

    def values(self, match: Any) -> Iterator[tuple[str | None, str]]:
        """``(label, value)`` of a match: the first row (of those the text can hold: a row left out
        matches nowhere in it) whose pattern matches where it starts and whose value holds what the row
        asks. The rows run on the text's UTF-8 (:func:`utf8`)."""
        from .secret_values import key_shaped

        encoded, offsets = utf8(match.string)
        start = match.start() if offsets is None else offsets[match.start()]
        for number in self._kept(match.string):
            row = self._rows[number]
            found = _row_pattern(row).match(encoded, start)
            value = found and found.group(1).decode()
            # a vendor prefix after a letter or digit (:func:`prefixed`): a generated key only
            glued = bool(found) and prefixed(row.regex) and encoded[found.start(1) - 1:found.start(1)].isalnum()
            if value and all(_HOLDS[c].search(value) for c in row.holds) and not (glued and not key_shaped(value)):
                yield row.name, value
                return


# Patterns of sets of rows kept (the whole table's, and those of the few sets a session's texts need).
TABLE_PATTERNS_KEPT = 16


@functools.lru_cache(maxsize=TABLE_PATTERNS_KEPT)
def _table_pattern(rows: tuple[int, ...]) -> Any:
    """One RE2 pattern of the rows numbered ``rows`` of :func:`key_formats`, in the table's order."""
    table = key_formats()
    source = "|".join(_row_source(table[i], f"(?:{table[i].regex})") for i in rows)
    return compile_linear(source, TABLE_OPTIONS)


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
    """A key format row's own pattern, its value a group. Compiled when first needed: most texts match
    no key format (docs/hooks.md#speed)."""
    return compile_linear(_row_source(row, f"({row.regex})"))


# A key character, for where a partner secret (``secret_pairs.tsv``) starts and ends: its run is whole.
_PAIR_EDGE = "[^A-Za-z0-9+/=_-]"


def pair_detectors() -> list[Detector]:
    """One detector a row of ``secret_pairs.tsv``: the secret half of a key pair, a whole run of key
    characters of the row's regex after the row's key id on the same line (a CSV or table row, a command's
    output, "id secret") or before it ("secret X for id"), holding what the row asks; labelled by the row's
    name."""
    from .secret_tables import tsv_rows

    detectors: list[Detector] = []
    for name, _source, id_regex, holds, regex in tsv_rows("secret_pairs.tsv"):
        source = (f"(?:^|[^A-Za-z0-9])(?:{id_regex})[^\\n]*?{_PAIR_EDGE}({regex})(?:{_PAIR_EDGE}|$)")
        # the secret written first, its id later on the line ("secret X for AKIA...", "X AKIA...")
        before = f"(?:^|{_PAIR_EDGE})({regex}){_PAIR_EDGE}(?:[^\\n]*[^A-Za-z0-9])?(?:{id_regex})(?:[^A-Za-z0-9]|$)"
        tests = [_HOLDS[c] for c in holds]
        detectors.append(type("PairedSecretDetector", (Detector,), {
            "secret_type": name, "denylist": [compile_linear(source), compile_linear(before)],
            # the secret alone, where it stands (a match opening with it would otherwise end at the id's end)
            "values": lambda self, match: iter(((None, match.group(1)),)),
            "is_formally_valid": staticmethod(lambda value, tests=tests: all(t.search(value) for t in tests))})())
    return detectors


class UrlPasswordDetector(Detector):
    """A password in a URL's user information, ``scheme://user:password@host``, written with
    characters detect-secrets' Basic Auth plugin leaves out: RFC 3986 (section 3.2.1) lets
    user information hold its sub-delimiters (``! $ & ' ( ) * + , ; =``), and generated
    passwords hold them and ``#`` written raw. A password ends at white space, ``/``, ``?``
    or ``@``, so ``http://host:8080/a@b`` and ``http://host:8080?to=a@b`` are not taken."""

    secret_type = "password in a URL"
    denylist = [compile_linear(r"://[^\s:/?#\[\]@]*:([^\s/?@]+)@")]


# Bitcoin's base58 alphabet (no 0, O, I or l): en.bitcoin.it/wiki/Base58Check_encoding.
_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
# What a base58check private key's version says it is, by its length once decoded without its checksum:
# a WIF key (en.bitcoin.it/wiki/Wallet_import_format: 0x80 mainnet, 0xef testnet, then 32 bytes and 0x01 for
# a compressed public key) and a BIP 32 extended private key (github.com/bitcoin/bips/blob/master/bip-0032.mediawiki:
# xprv, tprv; SLIP-132's yprv, zprv, uprv, vprv, Yprv, Zprv, Uprv, Vprv: 78 bytes).
_WIF_VERSIONS = {b"\x80", b"\xef"}
_EXTENDED_VERSIONS = {bytes.fromhex(v) for v in ("0488ade4", "04358394", "049d7878", "044a4e28", "04b2430c",
                                                 "045f18bc", "0295b005", "02aa7a99", "024285b5", "02575048")}


def _base58check(value: str) -> bytes | None:
    """``value``'s payload when it is base58check (its last 4 bytes the first 4 of the payload's double
    SHA-256), else None. ``value`` is at most some 112 characters (the detector's pattern)."""
    import hashlib

    number = 0
    for char in value:
        number = number * 58 + _BASE58.index(char)
    size = (number.bit_length() + 7) // 8
    raw = b"\0" * (len(value) - len(value.lstrip("1"))) + number.to_bytes(size, "big")
    payload, checksum = raw[:-4], raw[-4:]
    if len(raw) < 5 or hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4] != checksum:
        return None
    return payload


BASE58CHECK_LABELS = ("Bitcoin private key", "extended private key")  # what :class:`Base58CheckKeyDetector` finds


class Base58CheckKeyDetector(Detector):
    """A Bitcoin private key in base58check: a WIF key (51 characters opening 5 or 9, 52 opening K, L or c) or
    an extended private key (``xprv``, ``tprv`` and SLIP-132's, 111 characters), kept when its checksum
    holds and its version byte(s) say a private key (``_WIF_VERSIONS``, ``_EXTENDED_VERSIONS``): random base58
    text, an address or an extended public key (``xpub``) is not one."""

    secret_type = "Bitcoin private key"
    denylist = [compile_linear(f"(?:^|[^A-Za-z0-9])([59][{_BASE58}]{{50}}|[KLc][{_BASE58}]{{51}}"
                               f"|[xtyzuvYZUV]prv[{_BASE58}]{{107,108}})(?:[^A-Za-z0-9]|$)")]

    def values(self, match: Any) -> Iterator[tuple[str | None, str]]:
        """``(label, value)`` of a match whose checksum and version say a private key."""
        value = match.group(1)
        payload = _base58check(value)
        if payload is None:
            return
        if len(payload) in (33, 34) and payload[:1] in _WIF_VERSIONS and (len(payload) == 33 or payload[-1] == 1):
            yield BASE58CHECK_LABELS[0], value
        elif len(payload) == 78 and payload[:4] in _EXTENDED_VERSIONS:
            yield BASE58CHECK_LABELS[1], value
