"""Credentials trial 59 found stored (finding 5): a word for password borrowed from English before another language's
verb or possessor ("Ang password ay X", Tagalog), a word misspelled or spelled out, a value typed to unlock or log in
with no word naming it, and a lock's code after "code to the ... door". Each is refused and redacted; prose of the same
words without a value is stored."""

from __future__ import annotations

import re

import pytest

from memvault.storage.errors import InvalidInput
from memvault.storage.records import NewTurn
from memvault.storage.secret_named import ENGLISH_HOMOGRAPHS, alternatives
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
                     for verb in alternatives(words("verb", lang)) if PLAIN.fullmatch(verb)
                     and verb not in ENGLISH_HOMOGRAPHS})


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


TYPED_VALUES = ["Kangaroo!Jump55", "Xq7mR2pLw9kZ", "tR7#qLm2Wx"]
TYPED_SHAPES = [
    "To unlock the laptop type {v}", "to log into the VPN, enter {v}", "To unlock my phone, just type {v}",
    "to sign in to the VPN key in {v}", "To get into the NAS you type {v}", "{v} is what I type to unlock the laptop",
    "{v} is what I use when I log in", "{v} was the code we entered to sign in", "enter {v} at the login prompt",
    "type {v} on the lock screen", "type {v} when prompted", "punch in {v} at the BIOS password prompt",
    "the laptop unlocks with {v}", "unlock the laptop with {v}.", "log into Jira with {v}", "use {v} to log in",
    "type {v} to unlock it", "I sign in to the router using {v}"]


@pytest.mark.parametrize("text", [shape.format(v=v) for shape in TYPED_SHAPES for v in TYPED_VALUES])
def test_a_value_typed_to_unlock_or_log_in_is_refused_without_a_word_naming_it(text: str) -> None:
    _refused(text, next(v for v in TYPED_VALUES if v in text))


@pytest.mark.parametrize("text", [
    "type your name to unlock the next level", "to unlock the achievement type IDDQD2 in the console",
    "type Windows11 at the boot screen", "to access the dashboard use the Admin2024 account",
    "sign in with Google and GitHub", "to log in use GoogleSSO2", "the laptop unlocks with Face ID",
    "To unlock the laptop type your PIN", "log in with YubiKey5NFC", "Python3.11 is what I use to access the cluster",
    "to log in, enter your email and the code we send", "unlock the door with the blue key", "log in with SSO",
    "To unlock the feature type /upgrade in chat", "enter Q3 numbers at the login page review"])
def test_typing_words_names_or_tools_to_unlock_is_stored(text: str) -> None:
    _stored(text)


def test_the_typo_table_is_what_the_word_table_generates() -> None:
    """Write it again with ``python -c "from memvault.storage.secret_typos import typo_table as t;
    open('storage/secret_typos.tsv', 'w', encoding='utf-8').write(t())"``, then the covers file."""
    from pathlib import Path

    from memvault.storage import secret_typos

    packaged = Path(secret_typos.__file__).with_name("secret_typos.tsv").read_text(encoding="utf-8")
    assert packaged == secret_typos.typo_table()


def _typo_cases() -> list[str]:
    from memvault.storage.secret_typos import real_words, typos

    real = real_words()
    cases = sorted(typos("password") - real)  # every one of "password"'s: 60-odd
    for word in ("passwort", "kennwort", "contraseña", "wachtwoord", "salasana", "lösenord", "passphrase", "лозинка"):
        cases += sorted(typos(word) - real)[::7]  # a seventh of the others'
    return cases


TYPO_SHAPES = ["{w}: {v}", "my {w} is {v}", "the {w} for the server is {v}", "{w} = {v}", "{W} {v}"]


@pytest.mark.parametrize("text", [TYPO_SHAPES[i % len(TYPO_SHAPES)].format(w=w, W=w.capitalize(), v=V)
                                  for i, w in enumerate(_typo_cases())])
def test_a_misspelled_word_for_password_before_a_typed_value_is_refused(text: str) -> None:
    _refused(text, V)


@pytest.mark.parametrize("text", [
    "pasword: Kangaroo!Jump55", "passwrod is Kangaroo!Jump55", "the passowrd for the server is Xk29slQpz",
    "my pssword = Summer2024", "passwod: Xk29slQpz", "paswords: Kangaroo!Jump55", "das Pasword lautet Sommer2024!",
    "el contrseña es Manila#2024q", "wachtwood is Manila#2024q", "Ang pasword ay Manila#2024q"])
def test_the_trials_misspellings_are_refused(text: str) -> None:
    assert find_secrets(text) != [[]] and "[password]" in redact(text)[0], text


@pytest.mark.parametrize("text", [
    "I forgot my pasword again", "my pasword is hunter22", "the passwrod field takes 12 characters",
    "passport: X12345678", "passport number is K1234567", "Passwort vergessen, pasword reset needed",
    "the pasword typo in the UI is fixed in v2", "wachtwood is een typfout", "passwrod: see the vault"])
def test_a_misspelled_word_without_a_typed_value_and_real_words_are_stored(text: str) -> None:
    _stored(text)


@pytest.mark.parametrize("text", [
    "the p-a-s-s-w-o-r-d is Kangaroo!Jump55", "p a s s w o r d: Kangaroo!Jump55", "P.A.S.S.W.O.R.D: Kangaroo!Jump55",
    "P.A.S.S.W.O.R.D.: Kangaroo!Jump55", "the P A S S W O R D is Xk29slQpz", "P-A-S-S-W-O-R-T: Kangaroo!Jump55",
    "my p.a.s.s.c.o.d.e is Xk29slQpz", "w-a-c-h-t-w-o-o-r-d: Kangaroo!Jump55"])
def test_a_word_for_password_spelled_out_before_its_value_is_refused(text: str) -> None:
    assert find_secrets(text) != [[]] and "[password]" in redact(text)[0], text


@pytest.mark.parametrize("text", ["spell p-a-s-s-w-o-r-d with care", "the P.A.S.S.W.O.R.D. acronym is a joke",
                                  "p a s s w o r d: see the vault"])
def test_a_spelled_out_word_without_a_value_is_stored(text: str) -> None:
    _stored(text)


@pytest.mark.parametrize("text", [
    "The password is the reverse of drowssap: 9x!Kq2Lm", "My password is my dog's name then 1987: Rex1987",
    "The password is the reverse of drowssap: 9x!Kq2Lm. Don't share it.", "the pwd was my street and zip: Elm90210x"])
def test_a_value_after_a_description_of_the_password_and_a_colon_is_refused(text: str) -> None:
    assert find_secrets(text) != [[]] and "[password]" in redact(text)[0], text


@pytest.mark.parametrize("text", [
    "The password is stored in two places: the vault and the safe", "the password is described in the wiki: see page 12",
    "The password is required for: login", "the password is the one from the email: ChangeMe",
    "Password is set via env: DB_PASSWORD", "The password was changed on Monday: v2 rollout"])
def test_a_description_of_the_password_and_a_colon_before_no_typed_value_is_stored(text: str) -> None:
    _stored(text)


@pytest.mark.parametrize(("text", "secret"), [
    ("My password is my dog's name then 1987: Rex1987", "Rex1987"), ("my social is 536-22-7841", "536-22-7841"),
    ("pasword: Kangaroo!Jump55", "Kangaroo!Jump55"), ("Ang password ay Manila#2024q", "Manila#2024q"),
    ("To unlock the laptop type Kangaroo!Jump55", "Kangaroo!Jump55"),
    ("the p-a-s-s-w-o-r-d is Kangaroo!Jump55", "Kangaroo!Jump55"), ("code to the front door is 4471#", "4471"),
    ("My credit card number is 4111 1111 1111 1111 exp 12/28 cvv 123", "1111 1111")])
def test_remember_refuses_and_a_captured_turn_and_its_digest_keep_no_value(store, text: str, secret: str) -> None:
    with pytest.raises(InvalidInput, match="looks like it contains a credential"):
        store.remember(tenant="t", scope="s", content=text)
    store.episodes.append(tenant="t", scope="s", session_id="s-1", turns=[NewTurn(role="user", text=text)])
    kept = store.episodes.turns(tenant="t", session_id="s-1")[-1].text
    digest = store.get(tenant="t", id=store.episodes.end(tenant="t", session_id="s-1").digest_id).content
    assert secret not in kept and secret not in digest and "[" in kept
