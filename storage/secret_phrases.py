"""Secrets made of words: a wallet's seed (recovery) phrase, 12 or more words of BIP39's English list in a row
(:class:`SeedPhraseDetector`), and a passphrase of several words after the word naming it (:func:`passphrase`,
judged for ``secret_named``'s pattern): "my gpg passphrase is correct horse battery staple".
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

from .secret_re2 import Detector, compile_linear

# BIP39's shortest mnemonic: 12 words (128 bits of entropy; 15, 18, 21 and 24 hold more). A run of 12 of its
# words is none of prose's: the evaluation sets' longest is 7 (docs/limits.md).
SEED_WORDS_MIN = 12
# Of a seed phrase's words, at least this many differ: 12 words drawn from 2,048 repeat one at most in ~3 % of
# phrases, while "word word word ..." or a chorus repeats a few (a test's filler text was refused).
SEED_DISTINCT_MIN = 9
_TOKEN = re.compile(r"[A-Za-z]+")


@functools.cache
def bip39_words() -> frozenset[str]:
    """BIP39's English word list (2,048 words of 3 to 8 letters), from trezor's ``mnemonic`` package, the
    reference implementation of BIP39 (github.com/bitcoin/bips/blob/master/bip-0039.mediawiki)."""
    from mnemonic import Mnemonic

    return frozenset(Mnemonic("english").wordlist)


_SPACED = re.compile(r"[A-Za-z]+(?:[ \t]+[A-Za-z]+)*")  # words parted by spaces on one line
# A seed phrase's lengths (BIP39: 128 to 256 bits of entropy, a word for each 11 bits with the checksum's).
SEED_LENGTHS = frozenset({12, 15, 18, 21, 24})
_ITEM_BREAK = re.compile(r"\n|\d[.):]")  # what parts a list's items: a line break or an item's number
_ITEM_START = re.compile(r"(?:^|\n|\d[.):])[ \t]*$")
_LINE_END = re.compile(r"[ \t\r]*(?:\n|$)")
# What names a seed phrase: BIP39's "mnemonic", wallets' "seed phrase", "recovery phrase", "backup phrase",
# "secret phrase", "seed words", "recovery words".
_LABEL = re.compile(r"(?i)mnemonic|seed|(?:recovery|backup|secret|wallet)[ \t_-]*(?:phrase|words|key)")
LABEL_REACH = 200  # characters before a seed phrase where its label may be


class SeedPhraseDetector(Detector):
    """A wallet's seed phrase: ``SEED_WORDS_MIN`` or more words of BIP39's list in a row (``SEED_DISTINCT_MIN``
    of them different), parted by spaces, or
    after its label by line breaks, commas or a list's numbers ("1. abandon 2. ability ..."), or, whatever the label,
    as many as a seed's words each alone on its line or after its number (:func:`_listed`). The
    pattern finds runs of words of 3 to 8 letters; :meth:`values` keeps the runs of BIP39's words in them."""

    secret_type = "wallet seed phrase"
    denylist = [compile_linear(r"(?i)(?:^|[^\pL\pN'’-])([a-z]{3,8}(?:(?:[ \t]*,)?\s+(?:\d{1,2}[.):][ \t]*)?"
                               r"[a-z]{3,8}){11,})(?:[^\pL\pN'’-]|$)")]

    def values(self, match: Any) -> Iterator[tuple[str | None, str]]:
        """Each run of ``SEED_WORDS_MIN`` or more BIP39 words in the match, as written (its separators kept): one
        of words parted by spaces, or by line breaks, commas or numbers after a word naming a seed phrase
        (``_LABEL``) in the ``LABEL_REACH`` characters before it or on its first line, or without one the words
        of a list's items as many as a seed's (:func:`_listed`: a list of 14 groceries, one a line, is none)."""
        run, words = match.group(1), bip39_words()
        labelled: bool | None = None
        first = last = None
        count = 0
        seen: set[str] = set()
        for token in [*_TOKEN.finditer(run), None]:
            if token is not None and token.group().lower() in words:
                first = token if count == 0 else first
                last, count = token, count + 1
                seen.add(token.group().lower())
                continue
            distinct, seen = len(seen), set()
            if count >= SEED_WORDS_MIN and distinct >= SEED_DISTINCT_MIN and first is not None and last is not None:
                phrase = run[first.start():last.end()]
                if not _SPACED.fullmatch(phrase):
                    if labelled is None:
                        # to the end of the phrase's first line: a label's last words may be BIP39's ("Secret
                        # Recovery Phrase", then the words on the lines below)
                        at, line_end = match.start(1) + first.start(), phrase.find("\n")
                        labelled = bool(_LABEL.search(match.string, max(0, at - LABEL_REACH),
                                                      at + (len(phrase) if line_end < 0 else line_end)))
                    listed = None if labelled else _listed(match.string, match.start(1) + first.start(), phrase)
                    if not labelled and listed is None:
                        count = 0
                        continue
                    phrase = phrase if listed is None else phrase[listed[0]:listed[1]]
                yield None, phrase
            count = 0


def _listed(text: str, at: int, phrase: str) -> tuple[int, int] | None:
    """Where in ``phrase`` (at ``at`` of ``text``, BIP39's words) the first of its runs of words written as a list's
    items starts and ends (each word alone on its line or after an item's number, "1. legal 2. winner ...",
    ``_ITEM_BREAK``) whose words are as many as a seed phrase's (``SEED_LENGTHS``); else None."""
    tokens = list(_TOKEN.finditer(phrase))
    breaks = [bool(_ITEM_BREAK.search(phrase, one.end(), two.start())) for one, two in zip(tokens, tokens[1:])]
    ends = [*breaks, bool(_LINE_END.match(text, at + len(phrase)))]
    starts = [bool(_ITEM_START.search(text, max(0, at - 32), at)), *breaks]  # (a bounded look: linear)
    run: list[Any] = []
    for token, item in zip([*tokens, None], [*(a and b for a, b in zip(starts, ends)), False]):
        if item:
            run.append(token)
            continue
        if len(run) in SEED_LENGTHS and len({word.group().lower() for word in run}) >= SEED_DISTINCT_MIN:
            return run[0].start(), run[-1].end()
        run = []
    return None


# Words that make a sentence about a password rather than a passphrase: English's function words, the words
# that describe one and those that say where it is kept ("the password is stored in the vault", "the passphrase
# is four random words", "password: see team vault entry").
_PROSE = frozenset("""
a an the and or but nor so yet if as than then that this these those there here it its which who whom whose what
when where why how all any each every some such same other another no not never also still just only very too now
of to in on at by for from with without within about into onto over under after before during until since via per
is are was were be been being am do does did done has have had will would shall should can could may might must
i me my mine we us our you your he him his she her they them their one two three four five six seven eight nine ten
password passwords passphrase passphrases passcode word words character characters letter letters digit digits
number numbers symbol symbols long longer short shorter random strong stronger weak secure insecure unique required
optional different hashed encrypted stored saved kept changed rotated reset expired empty blank missing wrong
invalid incorrect valid set unset known unknown shared private secret generated managed easy hard simple complex
case sensitive enough least most more less again always already sent written typed given used needed same
see ask check use read find get look call contact refer follow type enter paste copy change please whatever
vault manager keychain keeper bitwarden lastpass keepass onepassword env environment file entry label note sticker
wiki docs doc slack email ticket confluence notion team admin account printed router fridge box
""".split())
PASSPHRASE_WORDS_MIN = 4  # "correct horse battery staple"; three words are too often a description


def passphrase(value: str) -> bool:
    """Whether ``value``, words of letters parted by single spaces or hyphens after a word for password, is a
    passphrase: ``PASSPHRASE_WORDS_MIN`` words or more, none of them a function word or one describing a
    password (``_PROSE``: "stored in the vault", "four random words"). Linear."""
    words = re.split(r"[ -]", value.lower())
    return len(words) >= PASSPHRASE_WORDS_MIN and not any(word in _PROSE for word in words)


def prose_word(word: str) -> bool:
    """Whether ``word`` is one of ``_PROSE``'s: a function word or one describing a password."""
    return word.lower() in _PROSE
