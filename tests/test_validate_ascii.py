"""ASCII text is checked without the ``regex`` package (docs/hooks.md#speed): on ASCII, each of
``validate``'s Unicode classes is a set of control characters, matched by ``re``. These tests hold the
ASCII patterns to the Unicode ones, character by character, and check that ``regex`` stays unloaded."""

from __future__ import annotations

import random
import subprocess
import sys
import unicodedata

import pytest

from memvault.storage import validate
from memvault.storage.errors import InvalidInput

ASCII = [chr(c) for c in range(128)]


def _spans(pattern, text: str) -> list[tuple[int, int]]:
    return [m.span() for m in pattern.finditer(text)]


def _texts() -> list[str]:
    """Each ASCII character alone, between letters, doubled, after a space and at the end; and 300
    random ASCII strings weighted towards control characters and spaces."""
    rng = random.Random(26)
    fixed = [t for c in ASCII for t in (c, f"a{c}b", c * 2, f" {c}", f"key{c}")]
    pool = ASCII + [chr(c) for c in range(32)] * 3 + [" "] * 20
    return fixed + ["".join(rng.choice(pool) for _ in range(rng.randint(1, 40))) for _ in range(300)]


@pytest.mark.parametrize("source, ascii_pattern", [
    (validate._IGNORABLE, validate._ASCII_IGNORABLE),
    (validate._NOT_IN_NAMES, validate._ASCII_NOT_IN_NAMES),
])
def test_the_ascii_pattern_matches_what_the_unicode_pattern_matches_in_ascii_text(source, ascii_pattern):
    full = validate.unicode_pattern(source)
    for text in _texts():
        assert _spans(ascii_pattern, text) == _spans(full, text), repr(text)


def test_no_ascii_character_joins_a_split_credential():
    splitters = validate.unicode_pattern(validate._SPLITTERS)
    assert [c for c in ASCII if splitters.search(f"a{c}b")] == []


def test_bare_and_joined_read_ascii_text_as_the_unicode_patterns_do():
    ignorable = validate.unicode_pattern(validate._IGNORABLE)
    splitters = validate.unicode_pattern(validate._SPLITTERS)
    # The last ones are not ASCII but are after NFKC (full-width letters): the ASCII pattern then applies.
    for text in [*_texts(), "\uff47\uff48\uff50\uff3f\x0bAbc", "\u212a\x1fey\x7f", "\ufb01le\x0c"]:
        expected = ignorable.sub("", unicodedata.normalize("NFKC", text))
        assert validate.bare(text) == expected, repr(text)
        assert validate.joined(text) == ignorable.sub("", unicodedata.normalize("NFKC", splitters.sub("", text)))


@pytest.mark.parametrize("char", [c for c in ASCII if c != "\x00"])
def test_an_ascii_name_is_refused_for_the_same_characters_as_before(char):
    text = f"team{char}a"
    refused = validate.unicode_pattern(validate._NOT_IN_NAMES).search(text) is not None
    try:
        validate.name("scope", text, 64)
    except InvalidInput as exc:
        assert refused == ("U+" in str(exc)), str(exc)
    else:
        assert not refused


def test_ascii_names_and_text_are_checked_without_the_regex_package_and_others_with_it():
    code = (
        "import sys\n"
        "from memvault.storage import secrets, validate\n"
        "validate.name('scope', 'my project', 64)\n"
        "assert secrets.find_secrets('pytest -q tests/test_cart.py\\x0b', '12 passed in 0.4s') == [[], []]\n"
        "assert 'regex' not in sys.modules, 'ASCII'\n"
        "assert validate.bare('pass\\u200bword') == 'password'\n"
        "assert validate.joined('ghp\\u0301_x') == 'ghp_x'\n"
        "assert 'regex' in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
