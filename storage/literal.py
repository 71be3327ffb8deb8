"""How stored text is shown to a model (a JSON string literal), and its size there in the
bundled MiniLM tokenizer's tokens."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any
import json
import unicodedata

from .embeddings import TokenCounter


# Scripts whose spelling uses U+200C ZERO WIDTH NON-JOINER and U+200D ZERO WIDTH JOINER between two of
# their letters or marks (The Unicode Standard, 23.2 "Layout Controls"): Persian "می\u200cخواهم", Hindi
# "क्\u200dष". Between Latin letters ("pass\u200dword") or at a word's edge a joiner only hides a break.
_JOINING_SCRIPTS = ("Arab", "Syrc", "Nkoo", "Mand", "Mong", "Deva", "Beng", "Guru", "Gujr", "Orya", "Taml",
                    "Telu", "Knda", "Mlym", "Sinh", "Tibt", "Mymr", "Khmr")
_TAG_SPEC = r"[\U000E0030-\U000E0039\U000E0061-\U000E007A]"  # tag digits and small letters
# What an invisible character joins, each match one that is kept (UTS #51 for the emoji sequences):
_JOINED = "|".join([
    *(rf"(?<=[\p{{scx={s}}}&&[\p{{L}}\p{{M}}]])[\u200c\u200d](?=[\p{{scx={s}}}&&[\p{{L}}\p{{M}}]])"
      for s in _JOINING_SCRIPTS),
    # after a virama (IDNA's CONTEXTJ rule, RFC 5892 A.1, A.2): Malayalam's chillu "ന്\u200d" ends a word
    r"(?<=\p{ccc=9})[\u200c\u200d]",
    # an emoji ZWJ sequence: 🧑\u200d🚀, 👨🏽\u200d💻, 🏳\ufe0f\u200d🌈
    r"(?<=\p{Extended_Pictographic}[\p{Emoji_Modifier}\ufe0f]?)\u200d(?=\p{Extended_Pictographic})",
    # a subdivision flag's tags after U+1F3F4 (🏴 g b s c t CANCEL TAG): ISO 3166-2, 3 to 6 characters
    rf"(?<=\U0001F3F4{_TAG_SPEC}{{0,5}}){_TAG_SPEC}(?={_TAG_SPEC}{{0,5}}\U000E007F)"
    rf"|(?<=\U0001F3F4{_TAG_SPEC}{{3,6}})\U000E007F",
    # one variation selector after a character it varies (❤\ufe0f, 1\ufe0f\u20e3, 葛\U000E0100); not
    # after another (a run of them carries hidden bytes), an ASCII letter, a mark or a space
    r"(?<=[^\p{C}\p{M}\p{Z}\p{ASCII}]|[0-9#*])\p{Variation_Selector}",
])


@functools.cache
def _joined_pattern() -> Any:
    # imported on first use: text with no invisible character (a hook's, mostly) never needs `regex`
    import regex

    return regex.compile(_JOINED, regex.V1)


# Letters and marks that show nothing (Default_Ignorable_Code_Point, UAX #44, but not Cf): the Hangul fillers
# (U+3164 between ASCII letters reads as nothing), COMBINING GRAPHEME JOINER, the Khmer inherent vowels.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u034f\u17b4\u17b5")


def _hidden(char: str) -> bool:
    """Whether ``char`` shows nothing or steers what is shown: a control or format character (Unicode Cc,
    Cf: bidi overrides, zero-width, tags; Boucher & Anderson, "Trojan Source", 2021), a variation
    selector (Mn, but 256 of them spell any byte after one visible character) or a blank letter or mark
    (``_BLANK_LETTERS``)."""
    code = ord(char)
    return (unicodedata.category(char) in ("Cc", "Cf") or 0xFE00 <= code <= 0xFE0F
            or 0xE0100 <= code <= 0xE01EF or 0x180B <= code <= 0x180F or char in _BLANK_LETTERS)


def _escaped(text: str, kept: str = "") -> str:
    """``text`` with each character :func:`_hidden` but those of ``kept`` written as ``\\uXXXX`` (a
    surrogate pair past U+FFFF, as in JSON), but where it joins (``_JOINED``): ZWJ and ZWNJ between two letters
    of a script spelled with them, inside an emoji or flag sequence, one variation selector after its
    character. The one rule for everything a model or a person reads."""
    hidden = [i for i, c in enumerate(text) if c not in kept and _hidden(c)]
    if not hidden:
        return text
    joined = {m.start() for m in _joined_pattern().finditer(text)} if any(
        ord(text[i]) in (0x200C, 0x200D) or ord(text[i]) > 0xFDFF for i in hidden) else set()
    chars = list(text)
    for i in hidden:
        if i not in joined:
            code = ord(text[i])  # past U+FFFF as JSON writes it, a surrogate pair
            chars[i] = f"\\u{code:04x}" if code <= 0xFFFF else \
                f"\\u{0xD800 + ((code - 0x10000) >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return "".join(chars)


def quoted(text: str | None) -> str:
    """``text`` as a JSON string literal, non-ASCII kept but the characters that hide text (control and
    format characters, variation selectors: :func:`_escaped`) escaped, with the control characters JSON
    leaves raw (DEL and the C1 controls: U+009B and U+009D open escape sequences in xterm and VTE). A
    joiner in a Persian or Hindi word or an emoji sequence stays as it is."""
    literal = json.dumps(text or "", ensure_ascii=False)
    if literal.isascii() and "\x7f" not in literal:  # no format character is ASCII
        return literal
    return _escaped(literal)


def printable(text: str) -> str:
    """``text`` for a terminal or a page: line breaks and tabs kept, every other control character (an
    ANSI or OSC escape sequence begins with one), format character and variation selector escaped as
    by :func:`quoted`, the joiners of Persian and Indic words and emoji sequences kept."""
    return _escaped(text, "\n\t")


def document(value: Any) -> str:
    """``value`` as indented JSON a model reads (a resource), hidden characters escaped in its strings as
    by :func:`quoted`: ``json.loads`` of it is ``value``."""
    return _escaped(json.dumps(value, ensure_ascii=False, indent=2), "\n")


@functools.cache
def counter() -> TokenCounter:
    """The bundled tokenizer that budgets count with (loaded on first use, then shared)."""
    return TokenCounter()


def literal_tokens(contents: list[str | None]) -> list[int | None]:
    """Tokens of each ``quoted(content)`` (no floor) as ``memories.tokens`` keeps them; None for None."""
    counts = iter(counter().lengths([quoted(c) for c in contents if c is not None]))
    return [None if c is None else next(counts) for c in contents]


def fill_tokens(rows_after: Callable[[int], list[Any]], update: Callable[[list[tuple[int, int]]], object]) -> None:
    """A migration's counts, in pages of ``rows_after(seq)`` rows ``(seq, content)``, stored by
    ``update`` as ``(tokens, seq)`` pairs."""
    after = 0
    while rows := rows_after(after):
        update(list(zip(literal_tokens([c for _, c in rows]), [seq for seq, _ in rows])))  # type: ignore[arg-type]
        after = rows[-1][0]
