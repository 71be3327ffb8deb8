"""A hit about a sibling of what the question names: the question says "billing service", the hit
"payments service". More: docs/retrieval-tuning.md#rival-words."""

from __future__ import annotations

import re

from .candidates import spelled_out
from .contradiction import stem
from .query import STOP_WORDS, subject_words

_TOKEN = re.compile(r"[^\W_][\w'’-]*")
_POSSESSIVE = re.compile(r"['’]s?$")
_NAME = re.compile(r"\w[\w'-]*")
FAMILY_PREFIX = 4  # letters that words of one family share (``_kin``)
_LETTERED = re.compile(r"[^\W\d_][^\W\d_'’-]*(?:[-'’][^\W\d_]+)*")  # a word, no number or host ("files-01")


def _words(text: str) -> list[str]:
    return [_POSSESSIVE.sub("", w.lower()) for w in _TOKEN.findall(text)]


def says_rival(question: str, text: str) -> bool:
    """Whether ``text`` lacks a word of ``question``'s subject that stands right before another word
    of the question ("billing" of "billing service port") and, before that same word, says a word the
    question does not ("payments service"): the slot the question fills, filled by another. Not
    when an acronym of one is spelled out in the other ("DR drill", "disaster recovery drill")."""
    if spelled_out(_NAME.findall(question), text):
        return False
    asked = _words(question)
    said = _words(text)
    asked_keys = {stem(w) for w in asked}
    said_keys = {stem(w) for w in said}
    distinguishing = set(subject_words(asked))
    for word, head in zip(asked, asked[1:]):
        if word not in distinguishing or stem(word) in said_keys or head in STOP_WORDS:
            continue
        for before, after in zip(said, said[1:]):
            if (stem(after) == stem(head) and _LETTERED.fullmatch(before) and before not in STOP_WORDS
                    and stem(before) not in asked_keys and not _kin(before, word)):
                return True
    return False


def _kin(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` open alike, as a word and its short form or its kin do ("prod" and
    "production", "server" and "service"): no sibling of each other."""
    return a[:FAMILY_PREFIX] == b[:FAMILY_PREFIX]
