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


LOCKS = ["front door", "back door", "gate", "safe", "garage", "building", "apartment", "storage locker", "shed", "lockbox"]
LOCK_REFUSED = [
    *((shape.format(lock=lock, code=code), code) for i, (lock, code) in enumerate(zip(LOCKS, [
        "4471", "5813", "2468", "7391", "8024", "1357", "9173", "6042", "3195", "7720"], strict=True))
      for shape in ["code to the {lock} is {code}#", "the code for the {lock}: {code}", "Code to our {lock} - {code}",
                    "{code}# is the code to the {lock}", "{code} is the {lock} code", "the {lock} opens with {code}",
                    "the code for my {lock} was changed to {code}"]),
    ("the entry code is 5813", "5813"), ("buzzer code 5813", "5813"), ("intercom code: 5813#", "5813"),
    ("The alarm code is 9021", "9021"), ("the front door unlocks with code 4471", "4471"),
]


@pytest.mark.parametrize(("text", "code"), LOCK_REFUSED)
def test_a_locks_code_after_code_to_the_door_or_before_its_words_is_refused(text: str, code: str) -> None:
    _refused(text, code)


@pytest.mark.parametrize("text", [
    "code of the house 2024 renovation was approved", "the building code is 2021 edition",
    "the code for the building was updated in 2021", "the code to the front door is in the drawer",
    "2024 is the year we fixed the door code screen", "the code for the door widget is 3 lines",
    "ask Ana for the code to the gate", "the gate opens at 0800 daily", "the door opens with a card",
    "1234 is the gate code placeholder"])
def test_prose_about_a_locks_code_without_one_is_stored(text: str) -> None:
    _stored(text)
