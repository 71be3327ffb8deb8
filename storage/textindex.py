"""The text the keyword index sees: CJK runs split into overlapping character bigrams.

FTS5's ``unicode61`` tokenizer splits on spaces and punctuation, so a run of Chinese,
Japanese or Korean characters without spaces (``用户身份验证失败时``) is one token and a
query for a word inside it (``身份验证``) never matches. Indexing every run as its
overlapping bigrams (``用户 户身 身份 …``) and querying a run as the phrase of its
bigrams finds any substring of two or more characters: the standard CJK bigram
indexing of search engines (Lucene's ``CJKBigramFilter``; Kwok, "Comparing
representations in Chinese information retrieval", SIGIR 1997). A few Latin letters
without a Unicode decomposition (ø, ł, ß, …) are folded as ASCII-folding filters do;
other text is left exactly as it is.

``index_text`` is registered as the SQL function ``memvault_index_text`` on every
connection (``db.open_connection``); the FTS5 content view and triggers call it, and
queries go through the same function, so both sides always agree.
"""

from __future__ import annotations

import re

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


def _bigrams(match: re.Match[str]) -> str:
    run = match.group(0)
    return " " + " ".join(run[i : i + 2] for i in range(len(run) - 1)) + " "


def index_text(text: str | None) -> str | None:
    """``text`` with every CJK run of 2+ characters replaced by its overlapping bigrams
    and the Latin letters of ``_FOLD`` folded.

    None stays None (a forgotten memory). Deterministic: the FTS5 'delete' of a row
    must repeat exactly what was indexed.
    """
    if text is None:
        return None
    return _CJK_RUN.sub(_bigrams, text.translate(_FOLD))
