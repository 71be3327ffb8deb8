"""Product code says what and why; the trials, adversarial passes and issues that found a case, and the
figures measured, belong in docs/ and bench/ (STYLE.md, "Docstrings")."""

from __future__ import annotations

import io
import re
import tokenize

import pytest
from conftest import REPO

PRODUCT = sorted(p for d in ("server", "tools", "storage") for p in (REPO / d).rglob("*.py"))

# What a lab note cites: "trial verify64 N5", "trial 59 #8", "trials 51 and 52", "trial of stop 47",
# "verify59 N4", "adversarial pass 53 F3", "adversarial pass of stop 44", "issue 25 §1.8", "issue 9's".
NOTE = re.compile(r"\b(?:trials? (?:verify\d|\d|of stop)|verify\d+ N\d|adversarial pass\b|issue \d)", re.IGNORECASE)


def _notes(source: str) -> list[str]:
    """The comments and string literals of ``source`` (docstrings are strings) that cite a lab note."""
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in (tokenize.COMMENT, tokenize.STRING) and NOTE.search(token.string):
            found.append(f"line {token.start[0]}: {token.string[:120]}")
    return found


@pytest.mark.parametrize("text", [
    "# a case (trial verify64 N5)", "# seen in trial 59 #8", '"""Found by trials 51 and 52."""',
    "# (trial of stop 47)", "# ends the sentence (verify59 N4)", "# (adversarial pass 53 F3: 387 refused)",
    "# the team (adversarial pass of stop 44).", '"""Turn search (issue 26)."""', "# below issue 9's bound",
])
def test_a_comment_or_docstring_citing_a_trial_or_issue_is_found(text):
    assert _notes(text + "\n")


@pytest.mark.parametrize("text", [
    '# "free", "pro", "trial": a tier', "# a trial's question abstained", "# an issue with the file",
    '"""Raises on every issue found."""', "x = 1  # the tiers: trial, pro", "# verify the signature",
])
def test_ordinary_words_are_no_lab_note(text):
    assert not _notes(text + "\n")


@pytest.mark.parametrize("path", PRODUCT, ids=lambda p: str(p.relative_to(REPO)))
def test_product_code_cites_no_trial_adversarial_pass_or_issue(path):
    assert not _notes(path.read_text(encoding="utf-8"))
