"""The keyword index's text of an ASCII text is the text itself (``textindex.index_text`` returns it without
compiling its patterns): nothing it folds, removes, splits or spells is ASCII."""

from __future__ import annotations

import random

from memvault.storage import textindex
from memvault.storage.textindex import index_text, is_cjk


def _whole(text: str) -> str:
    """What ``index_text`` does to a text that is not ASCII, done to any text."""
    cjk, symbol, marks = textindex._non_ascii()
    return cjk.sub(textindex._bigrams, symbol.sub(textindex._symbol, text.translate(textindex.FOLDED_LETTERS).translate(marks)))


def test_an_ascii_text_indexes_as_itself() -> None:
    rng = random.Random(7)
    texts = ["".join(map(chr, range(128))), "", "password: hunter2 | 5 passed in 0.4s\n"]
    texts += ["".join(chr(rng.randrange(128)) for _ in range(rng.randrange(1, 80))) for _ in range(500)]
    for text in texts:
        assert index_text(text) == _whole(text) == text


def test_a_text_that_is_not_ascii_is_still_folded_split_and_spelled() -> None:
    assert index_text("Søren 東京都 ✅ ok") == _whole("Søren 東京都 ✅ ok")
    assert "Soren" in index_text("Søren") and "東京 京都" in index_text("東京都") and "sym2705" in index_text("✅")
    assert is_cjk("東京") and not is_cjk("ok") and not is_cjk("é")
