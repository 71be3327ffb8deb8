"""The key format detector runs, for each text, only the rows whose regex's cover and context's cover
(``regex_cover``) the text holds: it must find what the whole table's pattern finds."""

from __future__ import annotations

import pytest

from memvault.storage.regex_cover import cover
from memvault.storage.secret_plugins import KeyFormatDetector

from test_secret_scan import FORMATS


@pytest.mark.parametrize(("regex", "strings"), [
    (r"sk-ant-[a-z]+\d{2}-[A-Za-z0-9_-]{32,}", [("sk-ant-", "abcdefghijklmnopqrstuvwxyz")]),
    (r"(?:pub)?key-[a-f0-9]{32}", [("key-", "0123456789abcdef"), ("pubkey-", "0123456789abcdef")]),
    (r"ab?cd", [("abcd", ""), ("acd", "")]),  # b is optional: "acd" matches
    (r"abc+d", [("ab", "c")]),  # a repeated character ends the string, and follows it
    (r"sbp_[a-f0-9]{4}|sb_secret_[0-9]{4}", [("sb_secret_", "0123456789"), ("sbp_", "0123456789abcdef")]),
    (r"x[|]y|z", [("x|y", ""), ("z", "")]),  # a bar in a class is a member, not an alternative
    (r"[]a]bc", [("]bc", ""), ("abc", "")]),  # a bracket first in a class is a member
    (r"\$2[ab]?\$[0-9]", [("$2$", "0123456789"), ("$2a$", "0123456789"), ("$2b$", "0123456789")]),
    (r"[A-Za-z0-9]{24}", None),  # no string: always run
    (r"ab\x{41}cd", [("ab", "")]),  # an escape it does not spell out is any character
])
def test_a_key_formats_cover_is_read_from_its_regex(regex: str, strings: list[tuple[str, str]] | None):
    found = cover(regex)
    assert (None if found is None else sorted((s, "".join(sorted(f or ()))) for s, f in found)) == strings


def test_each_format_sample_keeps_its_row() -> None:
    """The samples each match their row, so each holds what the row needs."""
    detector = KeyFormatDetector()
    missing = [row.name for number, row in enumerate(detector._rows) if number not in detector._kept(FORMATS[row.name])]
    assert missing == []


def _spans(patterns: list, text: str) -> list[tuple[int, int]]:
    return [match.span() for pattern in patterns for match in pattern.finditer(text)]


TEXTS = [*(f"for the build use {sample} please" for sample in FORMATS.values()),
         "\n".join(FORMATS.values()),  # every row at once
         # the Kelvin sign, which (?i) matches for k
         "o\u212ata api token = 00Xq7Lm2Np9Rt4Vw8Yz3Bc6Df1Gh5Jk0Ms12345678",
         "command: pytest -q tests/test_1.py", "1 passed in 0.4s", "", "okta"]
# each also in capitals, and with the Kelvin sign for k and the long s for s (RE2's (?i) matches both)
TEXTS += [t.upper() for t in TEXTS] + [t.replace("k", "\u212a").replace("s", "\u017f") for t in TEXTS]


@pytest.mark.parametrize("text", TEXTS)
def test_the_rows_a_text_needs_find_what_the_whole_table_finds(text: str) -> None:
    detector = KeyFormatDetector()
    assert _spans(detector.patterns(text), text) == _spans(detector.denylist, text)


def test_a_text_without_any_rows_literal_compiles_no_pattern() -> None:
    assert KeyFormatDetector().patterns("12 passed in 4s") == []
