"""The text the keyword index sees: CJK runs split into overlapping character bigrams.
More: docs/storage-tuning.md#textindex."""

from __future__ import annotations

import functools
import re
import unicodedata

# Han, Hiragana, Katakana and Hangul: written without spaces (Korean: particles attached).
_CJK_SOURCE = ("[\u1100-\u11ff\u3040-\u309f\u30a0-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff"
               "\uac00-\ud7af\uf900-\ufaff]{2,}")
SQL_FUNCTION = "memvault_index_text"
# Latin letters Unicode does not decompose ("Søren" typed "Soren" matches only folded).
# Letters without a decomposition that search reads as plain Latin ones ("Søren" is "Soren").
FOLDED_LETTERS = str.maketrans({"ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ß": "ss", "æ": "ae",
                       "Æ": "AE", "œ": "oe", "Œ": "OE", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th", "ı": "i"})
_SYMBOL_SOURCE = "[\u200d\ufe0e\ufe0f\u2100-\u2bff\u3297\u3299\U0001f000-\U0001faff]"
_DROPPED = frozenset({"\ufe0e", "\ufe0f", "\u200d", *map(chr, range(0x1F3FB, 0x1F400))})


@functools.cache
def _non_ascii() -> tuple[re.Pattern[str], re.Pattern[str], dict[int, str | None]]:
    """The CJK run and symbol patterns, and a table removing the marks of the Hebrew and Arabic
    blocks (and Arabic Extended-A's) and the tatweel and folding Greek and Cyrillic accents: made for
    the first text that is not ASCII (none of them is ASCII; compiling the two patterns took
    0.002-0.004 s in every hook, docs/hooks.md#speed)."""
    marks = {cp: None for cp in (*range(0x0591, 0x0700), *range(0x08D3, 0x0900))
             if unicodedata.category(chr(cp)) == "Mn"} | {0x0640: None}
    return re.compile(_CJK_SOURCE), re.compile(_SYMBOL_SOURCE), marks | accents_folded()


@functools.cache
def accents_folded() -> dict[int, str]:
    """Greek and Cyrillic letters with marks, each to its letter without them ("ά" to "α", "ё" to
    "е"): FTS5's ``remove_diacritics`` folds Latin letters only, and Greek is often typed without
    its accents. PostgreSQL's index removes every mark already (``postgres.sql.index_words``): the
    two backends read these words alike."""
    folded: dict[int, str] = {}
    for cp in (*range(0x0370, 0x0500), *range(0x1F00, 0x2000)):
        parts = unicodedata.normalize("NFD", chr(cp))
        if len(parts) > 1 and all(unicodedata.combining(c) for c in parts[1:]):
            folded[cp] = parts[0]
    return folded


def _symbol(match: re.Match[str]) -> str:
    ch = match.group(0)
    if ch in _DROPPED:
        return " "
    return f" sym{ord(ch):x} " if unicodedata.category(ch) == "So" else ch


def _bigrams(match: re.Match[str]) -> str:
    run = match.group(0)
    return " " + " ".join(run[i : i + 2] for i in range(len(run) - 1)) + " "


def is_cjk(word: str) -> bool:
    """Whether ``word`` (a token of :func:`index_text`) is a CJK bigram or run."""
    return not word.isascii() and _non_ascii()[0].fullmatch(word) is not None


_SPELLED = re.compile(r"sym([0-9a-f]{4,5})")


def is_symbol(word: str) -> bool:
    """Whether ``word`` (a token of :func:`index_text`) spells a symbol (``sym1f680``: 🚀)."""
    spelled = _SPELLED.fullmatch(word)
    if spelled is None:
        return False
    ch = chr(int(spelled.group(1), 16))
    return _non_ascii()[1].fullmatch(ch) is not None and ch not in _DROPPED and unicodedata.category(ch) == "So"


def index_text(text: str | None) -> str | None:
    """``text`` with CJK runs as bigrams, ``FOLDED_LETTERS`` folded, Arabic and Hebrew marks removed,
    Greek and Cyrillic accents folded (:func:`accents_folded`) and each symbol spelled as a word.
    More: docs/storage-tuning.md#textindex-index-text."""
    if text is None or text.isascii():  # nothing of the above is ASCII
        return text
    cjk, symbol, marks = _non_ascii()
    return cjk.sub(_bigrams, symbol.sub(_symbol, text.translate(FOLDED_LETTERS).translate(marks)))
