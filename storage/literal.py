"""How stored text is shown to a model (a JSON string literal), and its size there in the
bundled MiniLM tokenizer's tokens."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any
import json
import unicodedata

from .embeddings import TokenCounter


def quoted(text: str | None) -> str:
    """``text`` as a JSON string literal, non-ASCII kept but format characters (Unicode Cf: bidi
    overrides, zero-width; Boucher & Anderson, "Trojan Source", 2021) and the control characters JSON
    leaves raw (DEL and the C1 controls: U+009B and U+009D open escape sequences in xterm and VTE)
    escaped."""
    literal = json.dumps(text or "", ensure_ascii=False)
    if literal.isascii() and "\x7f" not in literal:  # no format character is ASCII
        return literal
    return "".join(f"\\u{ord(c):04x}" if unicodedata.category(c) in ("Cf", "Cc") else c for c in literal)


def printable(text: str) -> str:
    """``text`` for a terminal or a page: line breaks and tabs kept, every other control character (an
    ANSI or OSC escape sequence begins with one) and every format character (bidi overrides, zero-width
    characters: "Trojan Source", as ``quoted``) written as ``\\uXXXX``, but the zero-width joiner and
    non-joiner, which shape emoji and Persian and Indic words."""
    return "".join(c if c in "\n\t\u200c\u200d" or unicodedata.category(c) not in ("Cc", "Cf")
                   else f"\\u{ord(c):04x}" for c in text)


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
