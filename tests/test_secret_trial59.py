"""Credentials trial 59 found stored (finding 5): a word for password borrowed from English before another language's
verb or possessor ("Ang password ay X", Tagalog), a word misspelled or spelled out, a value typed to unlock or log in
with no word naming it, and a lock's code after "code to the ... door". Each is refused and redacted; prose of the same
words without a value is stored."""

from __future__ import annotations

import re

import pytest

from memvault.storage.errors import InvalidInput
from memvault.storage.records import NewTurn
from memvault.storage.secret_named import _ENGLISH_HOMOGRAPHS, _alternatives
from memvault.storage.secret_tables import tsv_rows, words
from memvault.storage.secrets import find_secrets, redact

V = "Manila#2024q"
PLAIN = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")  # a verb written as one word, not a regex


def _refused(text: str, value: str) -> None:
    assert find_secrets(text) != [[]], text
    redacted, kinds = redact(text)
    assert value not in redacted and kinds, (text, redacted)


def _stored(text: str) -> None:
    assert find_secrets(text) == [[]] and redact(text) == (text, ()), text


LOAN_VERBS = sorted({(lang, verb) for lang, role, *_ in tsv_rows("secret_words.tsv") if role == "verb" and lang != "en"
                     for verb in _alternatives(words("verb", lang)) if PLAIN.fullmatch(verb)
                     and verb not in _ENGLISH_HOMOGRAPHS})


@pytest.mark.parametrize(("lang", "verb"), LOAN_VERBS)
def test_the_borrowed_english_word_before_any_languages_verb_is_refused(lang: str, verb: str) -> None:
    _refused(f"password {verb} {V}", V)
    _refused(f"the {lang} admin password {verb}: {V}", V)


@pytest.mark.parametrize("text", [
    f"Ang password ay {V}", f"ang password ko ay {V}", f"Ang password ng server ay {V}", f"Ang password ni Juan ay {V}",
    f"Ang password para sa wifi ng opisina ay {V}", f"Password ni Juan: {V}", f"password server adalah {V}",
    f"password wifi kantor adalah {V}", f"hasło do serwera jest {V}", f"password do serwera jest {V}",
    f"password för servern är {V}", f"password là {V}", f"passwd ay {V}"])
def test_tagalog_and_other_copulas_and_possessors_after_the_borrowed_word_are_refused(text: str) -> None:
    _refused(text, V)


@pytest.mark.parametrize("text", [
    "Ang password ay madali tandaan", "Ang password ko ay nasa vault", "the password on Server2024 was reset",
    "reset the password for alice on Host2024", "password ay", "Palitan ang password ni Juan bukas",
    "the password era is over", "password er ikke satt"])
def test_prose_with_the_borrowed_word_and_no_value_is_stored(text: str) -> None:
    _stored(text)
