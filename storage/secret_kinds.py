"""What a named credential is called in a refusal ("password", "PIN", "API key", "secret key",
"private key", "access token", "bearer token"): by the last word naming one before its value.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable
from typing import Any

from .secret_re2 import TABLE_OPTIONS, compile_linear
from .secret_tables import key_formats, words

# The words naming a credential, by kind. Checked in this order at each position, so
# "SECRET_ACCESS_KEY" is a secret key, not an access key. RE2: Python's ``re`` tries every word at each of
# 200 characters before every value (docs/storage-tuning.md#the-credential-scans-regular-expressions).
def _kind_source() -> str:
    return (r"(?i)(?P<bearer>bearer)|(?P<basic>basic|\"auth\")|(?P<pin>" + words("pin") + ")"
            r"|(?P<password>pass(?:word|wd|phrase|code)?|pwd|pw|"
            + "|".join(words(role) for role in ("password", "password-strict", "password-tail",
                                                "password-unspaced"))
            + r")|(?P<secret>secret(?:[ _-]?(?:access[ _-]?)?key)?)|(?P<private>private[ _-]?key)"
            r"|(?P<api>(?:api|access|auth)[ _-]?key|(?:" + words("provider") + r")[ _-]?(?:api[ _-]?)?keys?|"
            + "|".join(words("key", lang) for lang in _languages("key") if lang != "en") + "|" + words("key-unspaced")
            + r")|(?P<token>(?:(?:api|access|auth|private)[ _-]?)?token|" + words("token") + ")")


def _languages(role: str) -> list[str]:
    """The languages with words of ``role`` in ``secret_words.tsv``, in its order."""
    from .secret_tables import tsv_rows

    return list(dict.fromkeys(lang for lang, of, *_ in tsv_rows("secret_words.tsv") if of == role))


@functools.cache
def _kind_words() -> Any:
    return compile_linear(_kind_source(), TABLE_OPTIONS)


@functools.cache
def _kind_spots() -> Any:
    """``_kind_words`` without its groups: where the words are, by RE2's DFA alone (a match with groups
    costs more, and a line of decoys ("pwd='" repeated) holds a word every few characters)."""
    return compile_linear(re.sub(r"\(\?P<\w+>", "(?:", _kind_source()), TABLE_OPTIONS)


_KIND_NAMES = {"bearer": "bearer token", "basic": "Basic authentication credential", "pin": "PIN",
              "password": "password", "secret": "secret key", "private": "private key", "api": "API key",
              "token": "access token"}


def own_labels() -> set[str]:
    """Every label memvault's own detectors give a credential (:func:`named_kind`'s, each key format's,
    the JWT's, each key pair's secret, a URL's password), as ``redact`` writes them in its markers."""
    from .secret_cards import CARD_LABEL, CODE_LABEL, SSN_LABEL
    from .secret_phrases import SeedPhraseDetector
    from .secret_plugins import BASE58CHECK_LABELS, JwtDetector, UrlPasswordDetector, pair_detectors

    return {*_KIND_NAMES.values(), *(f.name for f in key_formats()), JwtDetector.secret_type,
            UrlPasswordDetector.secret_type, *BASE58CHECK_LABELS, *(d.secret_type for d in pair_detectors()),
            SeedPhraseDetector.secret_type, CARD_LABEL, CODE_LABEL, SSN_LABEL, "credential"}


def named_kind(before: str) -> str:
    """What a credential found after the word naming it is ("password", "PIN", "API key", "secret
    key", "private key", "access token", "bearer token"), by the last such word in ``before`` (the
    line up to the value) starting within ``KIND_REACH`` characters of its end: ``DB_PASSWORD=`` holds a
    password, ``Authorization: Bearer`` a bearer token. "credential" when no word names it."""
    before = before[-2 * KIND_REACH:]  # the words near the value read as in its whole line
    return kinds_before(before)(len(before))


KIND_REACH = 200  # characters before a value where the word naming it may start


def kinds_before(line: str) -> Callable[[int], str]:
    """:func:`named_kind` of ``line[:at]`` for each offset ``at`` of ``line``, the words of ``line`` found once, not
    again from 200 characters before each value (docs/storage-tuning.md#the-credential-scans-regular-expressions). The
    words are those one scan of the line finds (a word cut at the value, as the value's start reads it); their kinds are
    read when asked."""
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
    Kept by its text: a match of ``_kind_words``' groups is slow, and decoys repeat one word."""
    found = list(_kind_words().finditer(words_))
    return _KIND_NAMES[found[-1].lastgroup or ""] if found else None
