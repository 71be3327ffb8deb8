"""A password written as plain words (trial 60 findings 6 and 7): "the admin password is letmein", "Das Passwort ist
sonnenblume", "The passphrase is: purple monkey dishwasher", "our shared login is ops / summer". A word of letters
right after a word for password and its verb or ":" (or a user and "/" or "pass"), ending its sentence or line, is
one unless it says something about the password (:func:`plain_password`); so is one assigned to an upper-case name
for a credential in an environment or configuration line, "DB_PASSWORD=sunshine" (:func:`plain_assigned`).
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

import re2

from .secret_phrases import prose_word
from .secret_re2 import OPTIONS, compile_linear
from .secret_tables import languages_of, words

# One word of Latin, Cyrillic or Greek letters (the scripts of the languages whose ``predicate`` words the table
# holds), perhaps then a few digits ("kiwi7"); a word of another script is judged as before (a letter and a digit).
_WORD = re.compile(r"(?:[A-Za-zßÀ-ÖØ-öø-ɏḀ-ỿ]+|[Ѐ-ӿ]+|[Ͱ-Ͽἀ-῿]+)[0-9]{0,4}")
_LATIN = re.compile(r"[A-Za-zßÀ-ÖØ-öø-ɏḀ-ỿ]")
_FOREIGN = re.compile(r"[Ѐ-ӿͰ-Ͽἀ-῿]")  # a Cyrillic or Greek letter
# Russian's and Ukrainian's adjectives' endings ("пароль: неверный", "новая"), Greek's participles' ("αλλαγμένος"):
# a word saying something about the password.
_INFLECTED = re.compile(r"\w+(?:ый|ий|ій|ой|ая|яя|ое|ее|ые|ие)|\w+μ[εέ]ν(?:ος|ο|η|οι|α)")
# What ends the value's clause right after it, whatever follows: ",", ";", ")" or "(" ("is bluemoon, don't share it",
# "is letmein (temporary)"), a dash between spaces ("is letmein - do not share"), a word opening another clause ("is
# letmein so keep it safe", "and the user is root"; "und", "et", "y", "e", "en" ... in the table's other languages),
# ".", "!", "?" (perhaps a closing quote or bracket) then a space or the end, a line break, the end (verify 61 N2).
_CLAUSE_END = re.compile(r"[ \t]*(?:[,;()]|[.!?…]+[\"'”’)\]]?(?:[ \t]|\r?\n|$)|\r?\n|$)|[ \t]+(?:-{1,2}|[–—])(?:[ \t]|$)"
                         r"|[ \t]+(?:and|or|but|so|because|since|though|although|while|unless|until|which|then|und|oder"
                         r"|aber|weil|et|ou|mais|donc|y|o|pero|porque|e|ma|quindi|en|maar|dus|omdat|mas)(?![\w'’-])")
# The value ends its line, perhaps before a comment ("X=sunshine # prod").
_VALUE_END = re.compile(r"[ \t]*(?:#|\r?\n|$)")
# English words of the model's vocabulary ending as an adjective or a participle does ("the password is
# compromised", "is missing", "is guessable", "is ambiguous", "is useless"): no password; a made-up one
# ("letmeinfixed") is no word of the vocabulary. An "-ing" word is a participle only when its verb is a word of the
# vocabulary too ("missing": "miss"; "lightning", "king" and "spring" are nouns).
_ADJECTIVE_END = re.compile(r"\w+(?:ed|ing|able|ible|ous|ful|less)")
_PARTICIPLE = re.compile(r"(\w{3,}?)(\w?)ing")  # its verb: "miss", "hid(d)", "mak(e)"
# Words a setting takes that are no password ("ALLOW_EMPTY_PASSWORD=yes", "the password is false"), and metasyntactic
# placeholders ("password: foo").
_SETTING = frozenset("true false yes no on off null nil foo bar baz qux foobar".split())
# What a text writes where a password goes (:func:`placeholder`). For every detector: a word in capitals saying what
# goes there (PASSWORD, DB_PASS, YOUR_TOKEN, CHANGEME), a run of x, * or dots, the bare word password/passwd/pass/
# pwd/secret/token, or the name of the 1Password manager ("パスワードは1Passwordにあります": where it is kept); any
# other capitals are a password ("postgres://app:CORRECTHORSEBATTERY@db"). RE2: Python's ``re`` took quadratic time
# on a run of PASS (0.6 s on 8,000 characters).
_PLACEHOLDER_ANY = re2.compile(
    r"(?:[A-Z_]*(?:PASS|PWD|SECRET|TOKEN|KEY|CHANGE_?ME|REDACTED|PLACEHOLDER|HIDDEN|XXX)[A-Z_]*)|[xX*.#-]+"
    r"|(?i:pass(?:word|wd)?|pwd|secret|token|1password)", OPTIONS)
# For a plain word, also in lower or mixed case ("password: changeme", "the password is YourPasswordHere",
# "mypassword", a variable's name "refreshToken"; "none", "empty", "default" are ``predicate`` words).
_PLACEHOLDER = re.compile(
    r"(?i:(?:please)?change(?:me|it|this)(?:now|later|please)?|(?:your|my|the|enter|insert|new|db|database|admin|user"
    r"|root|app|api|example|sample|dummy|fake|default|test|temp|some)?(?:pass(?:word|wd|phrase|code)?|pwd|secret|token"
    r"|key|credentials?)(?:here|goeshere)?|placeholder|hidden|todo|tb[dac]|blah|ditto|fixme|example|sample|dummy"
    r"|admin(?:istrator)?"
    r"|root|guest|notset)"
    r"|[A-Za-z]*[a-z](?:Pass(?:word|wd|phrase|code)?|Pwd|Secret|Token|Key|Credentials?)(?:Here)?")
# A capitalised word's parts ("GitHubActions": "Git", "Hub", "Actions"; "PostgreSQL": "Postgre", "SQL").
_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+")
ACRONYM_CHARS_MAX = 5  # "SSO", "USB", "LDAP": capitals this short name a thing, not a password chosen
PASSPHRASE_WORDS_MAX = 5  # "purple monkey dishwasher"; after ":" or "passphrase", 2 to 5 words


def placeholder(value: str, plain: bool = False) -> bool:
    """Whether ``value`` is what a text writes where a password goes (``_PLACEHOLDER_ANY``), or, when ``plain``
    (a plain word: :func:`_says_something`), also a placeholder in lower or mixed case (``_PLACEHOLDER``)."""
    return bool(_PLACEHOLDER_ANY.fullmatch(value)) or plain and bool(_PLACEHOLDER.fullmatch(value))


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
    (:func:`placeholder`), a setting's word (``_SETTING``), a function word (``secret_phrases.prose_word``), an acronym
    (``ACRONYM_CHARS_MAX``), a service's
    or product's name (:func:`_named`), a Russian, Ukrainian or Greek adjective's ending (``_INFLECTED``), an English
    adjective or participle of the model's vocabulary (``_ADJECTIVE_END``, :func:`_participle`)."""
    folded = word.casefold()
    if _predicates().fullmatch(folded) or placeholder(word, plain=True) or folded in _SETTING or prose_word(folded):
        return True
    if word.isupper() and len(word) <= ACRONYM_CHARS_MAX:  # an acronym names a thing: "the password is SSO"
        return True
    return _named(word) or bool(_INFLECTED.fullmatch(folded)) or bool(_ADJECTIVE_END.fullmatch(folded)) and \
        folded in model_words() and _participle(folded)


def _participle(word: str) -> bool:
    """Whether ``word``, a word of the vocabulary with an adjective's ending, is an adjective or a participle: one
    ending in "ing" only when its verb ("miss", "make", "run": ``_PARTICIPLE``) is a word of the vocabulary too."""
    if not word.endswith("ing"):
        return True
    verb = _PARTICIPLE.fullmatch(word)
    if verb is None:  # "king", "thing"
        return False
    stem, last = verb.groups()
    vocabulary = model_words()
    return any(form in vocabulary for form in (stem + last, stem + last + "e", stem if last == stem[-1] else ""))


@functools.cache
def _predicated() -> Any:
    """The words for password of the languages with ``predicate`` words (``secret_words.tsv``), before which a word of
    Cyrillic or Greek letters may be a password ("пароль: ромашка"): another language's ("лозинка") is not judged."""
    return compile_linear("(?i)" + "|".join(f"(?:{words(role, lang)})" for lang in languages_of("predicate")
                                            for role in ("password", "password-tail") if words(role, lang)), OPTIONS)


@functools.cache
def _to_verbed() -> Any:
    """The words for password of the languages whose verb is "to" (Polish "hasło to X"; not English's "set to")."""
    langs = [lang for lang in languages_of("verb")
             if lang != "en" and "to" in re.split(r"[|()?:]+", words("verb", lang))]
    return compile_linear("(?i)" + "|".join(f"(?:{words('password', lang)})" for lang in langs), OPTIONS)


def plain_password(value: str, text: str, start: int, at: int, paired: bool = False) -> bool:
    """Whether ``value``, a word of Latin, Cyrillic or Greek letters (perhaps then digits; ``_WORD``) found at ``at``
    of ``text`` by a match starting at ``start``, is a password written as a plain word: right after a verb, ":" or a
    dash on its line (not after "to" unless it is a language's verb, Polish "hasło to X": :func:`_to_verbed`; not
    after "=" or an arrow; when ``paired``, after a user, anywhere on the line), ending its clause (``_CLAUSE_END``:
    whatever follows then), a word
    of Cyrillic or Greek letters after a word for password of a language with ``predicate`` words
    (:func:`_predicated`), and no word saying something about a password (:func:`_says_something`). Reads at most
    256 characters before it."""
    if not _WORD.fullmatch(value) or not _CLAUSE_END.match(text, at + len(value)):
        return False
    before = text[max(start, at - 256):at].lstrip("\r\n")  # (a match may open on the line break before its word)
    if not _LATIN.match(value) and not _predicated().search(before):
        return False
    # (a short word of Cyrillic or Greek letters all alike Latin ones is read Latin too, "паролата е горе": "rope")
    if _LATIN.match(value) and len(value) < 6 and _FOREIGN.search(before):
        return False
    tail = before.rstrip(" \t")
    # after a verb (a word, "'s"; not "to", as in "set to expire"), ":" or a dash (Russian's "пароль — X")
    to = tail.lower() == "to" or tail[-3:].lower() in (" to", "\tto")
    if "\n" in before or to and not _to_verbed().search(before) or not (
            paired or tail.endswith((":", "—", "–")) or tail[-1:].isalpha()):
        return False
    return not _says_something(value.rstrip("0123456789"))


# An environment or configuration line's name for a credential, ending in its word ("DB_PASSWORD", "SMTP_PASS",
# "export ADMIN_PASSWORD", "POSTGRES_PASSWORD:" in YAML), then "=" unspaced or ":" (code writes "password = pw" and
# passes "password=pw" in lower case; a name ending in another word says something about one: "PASSWORD_HASHER"; a
# variable read is none: "$PASS", "%DB_PASS%", "${X.PASS}").
_ASSIGNMENT = re.compile(r"(?:^|[^\w$%{.-])[A-Z0-9_]*(?:PASSWORD|PASSWD|PASS|PWD|PASSPHRASE|SECRET|TOKEN|API_?KEY"
                         r"|ACCESS_?KEY|PRIVATE_?KEY)(?:=|:[ \t]*)$")


def plain_assigned(value: str, text: str, at: int) -> bool:
    """Whether ``value``, a word of letters (perhaps then digits) found at ``at`` of ``text``, is a password assigned in
    an environment or configuration line: right after an upper-case name ending in a word for a credential and "="
    or ":" (``_ASSIGNMENT``: "DB_PASSWORD=sunshine", "POSTGRES_PASSWORD: tulips"), after "=" whatever follows ("set
    DB_PASSWORD=sunshine in prod"), after ":" ending its line (perhaps before a comment), and no word saying
    something about a password or a setting's word ("ALLOW_EMPTY_PASSWORD=yes",
    :func:`_says_something`). Reads at most 128 characters before it."""
    if not _WORD.fullmatch(value):
        return False
    line = text[max(0, at - 128):at]
    assigned = _ASSIGNMENT.search(line[line.rfind("\n") + 1:])
    # after ":" only a value ending its line: a document's reading of a redacted line, "API_TOKEN=[access token]",
    # reads "API_TOKEN: access token"; after "=", whatever follows ("set DB_PASSWORD=sunshine in prod", verify 61)
    ends = assigned is not None and (assigned.group(0).endswith("=") and text[at + len(value):at + len(value) + 1]
                                     in ("", " ", "\t") or bool(_VALUE_END.match(text, at + len(value))))
    return ends and not _says_something(value.rstrip("0123456789"))


_LABEL = re.compile(r"[ \t]*[\w-]+[ \t]+")  # a word for password opening its line, then a space: "pass hunter2"
_LINE_END = re.compile(r"[ \t]*(?:\r?\n|$)")


def plain_unverbed(value: str, text: str, start: int, at: int) -> bool:
    """Whether ``value``, found at ``at`` of ``text`` by a match starting at ``start`` right after a word for password
    and a space, no verb nor ":" between ("admin password letmein", "pass hunter2"), is a password: a word of
    letters ending its clause (``_CLAUSE_END``) that is no word of the model's vocabulary (:func:`model_words`:
    "password rotation", "password managers" are nouns), or a word of 3 letters or more then digits alone on its
    line after the word opening it, as after "password:"; neither saying something about a password
    (:func:`_says_something`). Reads at most 256 characters before it."""
    if not _WORD.fullmatch(value) or not _CLAUSE_END.match(text, at + len(value)):
        return False
    letters = value.rstrip("0123456789")
    if _says_something(letters) or "\n" in text[max(start, at - 256):at].lstrip("\r\n"):
        return False
    if letters == value:
        return letters.casefold() not in model_words()
    line = text.rfind("\n", max(0, at - 256), at) + 1
    return len(letters) >= 3 and bool(_LABEL.fullmatch(text, line, at)) and bool(
        _LINE_END.match(text, at + len(value)))


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
