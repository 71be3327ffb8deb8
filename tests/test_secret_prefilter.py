"""The key format detector runs, for each text, only the rows whose literals the text holds
(``secret_plugins.required_literals``): it must find what the whole table's pattern finds."""

from __future__ import annotations

import pytest

from memvault.storage.regex_literals import required_literals
from memvault.storage.secret_plugins import KeyFormatDetector, key_formats

from test_secret_scan import FORMATS


@pytest.mark.parametrize(("regex", "literals"), [
    (r"sk-ant-[a-z]+\d{2}-[A-Za-z0-9_-]{32,}", ("sk-ant-",)),
    (r"(?:pub)?key-[a-f0-9]{32}", ("key-",)),  # an optional group is no part of a run
    (r"ab?cd", ("cd",)),  # b is optional: "acd" matches
    (r"abc+d", ("ab",)),  # a repeated character ends the run
    (r"ya29\.[A-Za-z0-9_-]{30,}", ("ya29.",)),  # an escaped character is itself
    (r"sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_-]{30,}", ("sbp_", "sb_secret_")),  # one an alternative
    (r"x[|]y|z", ("x", "z")),  # a bar in a class is a member, not an alternative
    (r"[]a]bc", ("bc",)),  # a bracket first in a class is a member
    (r"\$2[aby]?\$[0-9]{2}\$", ("$2",)),
    (r"[A-Za-z0-9]{24}", None),  # no literal: always run
    (r"abc|[0-9]+", None),  # one alternative without one
    (r"(?i)abc", None),  # a flag: not taken apart
    (r"(?P<v>abc)", None),  # a named group
    (r"ab\pLcd", None),
    (r"ab\x{41}cd", None),
    (r"ab(cd", None),  # not closed
])
def test_the_literals_a_match_needs_are_read_from_a_pattern(regex: str, literals: tuple[str, ...] | None):
    assert required_literals(regex) == literals


def test_each_format_sample_holds_one_of_its_rows_literals() -> None:
    """The samples each match their row, so each holds what the row needs."""
    detector = KeyFormatDetector()
    missing = []
    for row, (context, value) in zip(key_formats(), detector._needs, strict=True):
        sample = FORMATS[row.name]
        if value is not None and not any(literal in sample for literal in value):
            missing.append(row.name)
        if context is not None and not any(literal in sample.casefold() for literal in context):
            missing.append(row.name)
    assert missing == []


def _spans(patterns: list, text: str) -> list[tuple[int, int]]:
    return [match.span() for pattern in patterns for match in pattern.finditer(text)]


TEXTS = [*(f"for the build use {sample} please" for sample in FORMATS.values()),
         "\n".join(FORMATS.values()),  # every row at once
         # the Kelvin sign, which (?i) matches for k
         "o\u212ata api token = 00Xq7Lm2Np9Rt4Vw8Yz3Bc6Df1Gh5Jk0Ms12345678",
         "command: pytest -q tests/test_1.py", "1 passed in 0.4s", "", "okta"]


@pytest.mark.parametrize("text", TEXTS)
def test_the_rows_a_text_needs_find_what_the_whole_table_finds(text: str) -> None:
    detector = KeyFormatDetector()
    assert _spans(detector.patterns(text), text) == _spans(detector.denylist, text)


def test_a_text_without_any_rows_literal_compiles_no_pattern() -> None:
    assert KeyFormatDetector().patterns("12 passed in 4s") == []
