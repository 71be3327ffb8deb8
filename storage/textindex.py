"""The text the keyword index sees: CJK runs split into overlapping character bigrams.

FTS5's ``unicode61`` tokenizer splits on spaces and punctuation, so a run of Chinese,
Japanese or Korean characters without spaces (``用户身份验证失败时``) is one token and a
query for a word inside it (``身份验证``) never matches. Indexing every run as its
overlapping bigrams (``用户 户身 身份 …``) and querying a run as the phrase of its
bigrams finds any substring of two or more characters: the standard CJK bigram
indexing of search engines (Lucene's ``CJKBigramFilter``; Kwok, "Comparing
representations in Chinese information retrieval", SIGIR 1997). A few Latin letters
without a Unicode decomposition (ø, ł, ß, …) are folded as ASCII-folding filters do.
Arabic and Hebrew vowel and cantillation marks (harakat, niqqud) and the Arabic tatweel
are removed, as Lucene's ``ArabicNormalizer`` does: a word is written with or without
them, and FTS5 splits a word at each mark. Each symbol (emoji, ✅, ™: Unicode category So
in the symbol and emoji blocks) becomes a word of its own, ``sym`` and its code point in hex (🚀:
``sym1f680``), for FTS5 drops symbols; skin-tone modifiers and variation selectors go.
Other text is left exactly as it is.

``index_text`` is registered as the SQL function ``memvault_index_text`` on every
connection (``db.open_connection``); the FTS5 content view and triggers call it, and
queries go through the same function, so both sides always agree.
"""

from __future__ import annotations

import re
import unicodedata

# Han (CJK Unified Ideographs, Extension A, Compatibility), Hiragana, Katakana, Hangul
# syllables and jamo: scripts written without spaces between words (Korean: with spaces,
# but with particles attached to the word).
_CJK_RUN = re.compile(
    "[\u1100-\u11ff\u3040-\u309f\u30a0-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff"
    "\uac00-\ud7af\uf900-\ufaff]{2,}"
)
SQL_FUNCTION = "memvault_index_text"
# Latin letters that Unicode does not decompose into a base letter and a mark, so
# FTS5's remove_diacritics leaves them alone: "Søren" and "Łukasz" typed as "Soren"
# and "Lukasz" match only when the index folds them like this.
_FOLD = str.maketrans({"ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ß": "ss", "æ": "ae",
                       "Æ": "AE", "œ": "oe", "Œ": "OE", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th", "ı": "i"})

# Marks of the Hebrew and Arabic blocks (and Arabic Extended-A's) and the tatweel: removed.
_MARKS = {cp: None for cp in (*range(0x0591, 0x0700), *range(0x08D3, 0x0900))
          if unicodedata.category(chr(cp)) == "Mn"} | {0x0640: None}
_SYMBOL = re.compile("[\u200d\ufe0e\ufe0f\u2100-\u2bff\u3297\u3299\U0001f000-\U0001faff]")
_DROPPED = frozenset({"\ufe0e", "\ufe0f", "\u200d", *map(chr, range(0x1F3FB, 0x1F400))})


def _symbol(match: re.Match[str]) -> str:
    ch = match.group(0)
    if ch in _DROPPED:
        return " "
    return f" sym{ord(ch):x} " if unicodedata.category(ch) == "So" else ch


def _bigrams(match: re.Match[str]) -> str:
    run = match.group(0)
    return " " + " ".join(run[i : i + 2] for i in range(len(run) - 1)) + " "


def index_text(text: str | None) -> str | None:
    """``text`` with every CJK run of 2+ characters replaced by its overlapping bigrams,
    the Latin letters of ``_FOLD`` folded, Arabic and Hebrew marks removed and each symbol
    spelled as a word (see the module doc).

    None stays None (a forgotten memory). Deterministic: the FTS5 'delete' of a row
    must repeat exactly what was indexed.
    """
    if text is None:
        return None
    return _CJK_RUN.sub(_bigrams, _SYMBOL.sub(_symbol, text.translate(_FOLD).translate(_MARKS)))
