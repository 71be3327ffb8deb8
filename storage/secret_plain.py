"""A password written as plain words (trial 60 findings 6 and 7): "the admin password is letmein", "Das Passwort ist
sonnenblume", "The passphrase is: purple monkey dishwasher", "our shared login is ops / summer". A word of letters
right after a word for password and its verb or ":" (or a user and "/" or "pass"), ending its sentence or line, is
one unless it says something about the password (:func:`plain_password`).
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

from .secret_phrases import prose_word
from .secret_re2 import OPTIONS, compile_linear
from .secret_tables import words

# One word of Latin letters (the languages whose ``predicate`` words the table holds write them); a word of another
# script is judged as before (a letter and a digit).
_LATIN_WORD = re.compile(r"[A-Za-zßÀ-ÖØ-öø-ɏḀ-ỿ]+")
# What ends a sentence or a line right after the value: ".", "!", "?" (perhaps a closing quote or bracket) then a
# space or the end, a line break, the end.
_SENTENCE_END = re.compile(r"[ \t]*(?:[.!?…]+[\"'”’)\]]?(?:[ \t]|\r?\n|$)|\r?\n|$)")
# English words of the model's vocabulary ending as an adjective or a participle does ("the password is
# compromised", "is missing", "is guessable", "is ambiguous", "is useless"): no password; a made-up one
# ("letmeinfixed") is no word of the vocabulary.
_ADJECTIVE_END = re.compile(r"\w+(?:ed|ing|able|ible|ous|ful|less)")
# What a text writes where a password goes, in lower or mixed case ("password: changeme", "the password is
# YourPasswordHere", "mypassword", a variable's name "refreshToken"): no chosen password (their capitals, CHANGEME and
# DB_PASS, are ``secret_values._PLACEHOLDER``'s, for every detector; "none", "empty", "default" are ``predicate``
# words).
_PLACEHOLDER = re.compile(
    r"(?i:(?:please)?change(?:me|it|this)(?:now|later|please)?|(?:your|my|the|enter|insert|new|db|database|admin|user"
    r"|root|app|api|example|sample|dummy|fake|default|test|temp|some)?(?:pass(?:word|wd|phrase|code)?|pwd|secret|token"
    r"|key|credentials?)(?:here|goeshere)?|placeholder|hidden|todo|tbd|fixme|example|sample|dummy|admin(?:istrator)?"
    r"|root|guest|notset)"
    r"|[A-Za-z]*[a-z](?:Pass(?:word|wd|phrase|code)?|Pwd|Secret|Token|Key|Credentials?)(?:Here)?")
# A capitalised word's parts ("GitHubActions": "Git", "Hub", "Actions"; "PostgreSQL": "Postgre", "SQL").
_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+")
PASSPHRASE_WORDS_MAX = 5  # "purple monkey dishwasher"; after ":" or "passphrase", 2 to 5 words


@functools.cache
def _predicates() -> Any:
    """Every language's ``predicate`` words (``secret_words.tsv``), as one pattern matching a whole word."""
    return compile_linear(f"(?i)(?:{words('predicate')})", OPTIONS)


@functools.cache
def model_words() -> frozenset[str]:
    """The whole words of the model's WordPiece vocabulary (``storage/model/tokenizer.json``)."""
    vocab = json.loads((Path(__file__).with_name("model") / "tokenizer.json").read_text(encoding="utf-8"))
    return frozenset(token for token in vocab["model"]["vocab"] if not token.startswith("##"))


@functools.cache
def _names() -> Any:
    """The services' and products' names (``provider`` and ``product`` rows of ``secret_words.tsv``), as one pattern
    matching a whole word."""
    return compile_linear(f"(?i)(?:{words('provider')}|{words('product')})", OPTIONS)


def _named(word: str) -> bool:
    """Whether ``word`` is a service's or a product's name (``_names``), or opens with one before a capital
    ("GitHubActions"): where a password lives or what it is for, not one ("the password is PostgreSQL")."""
    if _names().fullmatch(word.casefold()):
        return True
    parts = _PARTS.findall(word) if word[:1].isupper() else []
    return any(_names().fullmatch("".join(parts[:n]).casefold()) for n in range(1, len(parts)))


def _says_something(word: str) -> bool:
    """Whether ``word`` says something about a password rather than being one: a ``predicate`` word, a placeholder
    (``_PLACEHOLDER``), a service's or product's name (:func:`_named`), an English adjective or participle of the
    model's vocabulary (``_ADJECTIVE_END``)."""
    folded = word.casefold()
    return bool(_predicates().fullmatch(folded) or _PLACEHOLDER.fullmatch(word)) or _named(word) or bool(
        _ADJECTIVE_END.fullmatch(folded)) and folded in model_words()


def plain_password(value: str, text: str, start: int, at: int, paired: bool = False) -> bool:
    """Whether ``value``, a word of Latin letters found at ``at`` of ``text`` by a match starting at ``start``, is a
    password written as a plain word: right after a verb or ":" on its line (not after "to", "=" or an arrow; when
    ``paired``, after a user, anywhere on the line), ending its sentence or line, and no word saying something about
    a password (:func:`_says_something`). Reads at most 256 characters before it."""
    if not _LATIN_WORD.fullmatch(value) or not _SENTENCE_END.match(text, at + len(value)):
        return False
    before = text[max(start, at - 256):at].lstrip("\r\n")  # (a match may open on the line break before its word)
    tail = before.rstrip(" \t")
    # after a verb (a word, "'s"; not "to", as in "set to expire") or ":"
    if "\n" in before or tail.lower() == "to" or tail[-3:].lower() in (" to", "\tto") or not (
            paired or tail.endswith(":") or tail[-1:].isalpha()):
        return False
    return not _says_something(value)


def plain_phrase(value: str, text: str, start: int, at: int) -> bool:
    """Whether ``value``, 2 to ``PASSPHRASE_WORDS_MAX`` words of letters (perhaps hyphenated) parted by spaces, found
    at ``at`` of ``text``, is a passphrase: after ":" or a word for passphrase ("The passphrase is: purple monkey
    dishwasher"), not a title's words, none of them prose (``secret_phrases``) or saying something about a password."""
    parts = value.split(" ")  # (words joined by "-" are one: "self-signed", "pass-word")
    if not 2 <= len(parts) <= PASSPHRASE_WORDS_MAX or all(part[:1].isupper() for part in parts):  # a title's words
        return False
    before = text[max(start, at - 256):at].lstrip("\r\n")
    if "\n" in before or not (before.rstrip(" \t").endswith(":") or re.search(r"(?i)pass[ -]?phrase", before)):
        return False
    return not any(prose_word(part) or _says_something(part) for part in parts)
