"""Secrets made of words (issue 25 §1.8): a passphrase of several words after the word naming it, and a
wallet's seed phrase (12 to 24 words of BIP39's list, with or without a label) are refused and redacted;
sentences about a password and prose of common words are stored."""

from __future__ import annotations

import random

import pytest

from memvault.storage.secret_phrases import SEED_WORDS_MIN, bip39_words
from memvault.storage.secrets import find_secrets, redact

_RANDOM = random.Random(39)
_WORDS = sorted(bip39_words())


def _seed(n: int) -> str:
    return " ".join(_RANDOM.choice(_WORDS) for _ in range(n))


SEEDS = {n: _seed(n) for n in (12, 15, 18, 21, 24)}

PASSPHRASES = [
    ("my gpg passphrase is correct horse battery staple", "correct horse battery staple"),
    ("The password is correct horse battery staple. Keep it safe.", "correct horse battery staple"),
    ("passphrase: orbit-velvet-canyon-tulip-maple", "orbit-velvet-canyon-tulip-maple"),
    ("wifi password: purple monkey dishwasher lantern", "purple monkey dishwasher lantern"),
    ("the vault passphrase was changed to glacier pencil mango thunder ribbon", "glacier pencil mango thunder ribbon"),
]


@pytest.mark.parametrize(("text", "phrase"), PASSPHRASES)
def test_a_passphrase_of_words_after_its_word_is_refused_and_redacted(text: str, phrase: str) -> None:
    assert find_secrets(text)[0]
    redacted, kinds = redact(text)
    assert phrase not in redacted and "password" in kinds


@pytest.mark.parametrize("n", sorted(SEEDS))
@pytest.mark.parametrize("shape", ["{}", "recovery phrase: {}", "my seed words are {}, write them down",
                                   "Secret Recovery Phrase\n{}", "numbered", "commas", "lines"])
def test_a_seed_phrase_of_bip39_words_is_refused_and_redacted(n: int, shape: str) -> None:
    words = SEEDS[n].split()
    if shape == "numbered":
        text = "Seed phrase:\n" + "\n".join(f"{i}. {w}" for i, w in enumerate(words, start=1))
    elif shape == "commas":
        text = "seed: " + ", ".join(words)
    elif shape == "lines":
        text = "Recovery words:\n" + "\n".join(words)
    else:
        text = shape.format(SEEDS[n])
    assert "wallet seed phrase" in [kind for kind, _ in find_secrets(text)[0]]
    redacted, kinds = redact(text)
    assert "wallet seed phrase" in kinds
    assert sum(w in redacted.split() for w in words) < 3  # (a list's numbers stay; no run of the words does)


def test_eleven_bip39_words_are_not_a_seed_phrase() -> None:
    assert find_secrets(_seed(SEED_WORDS_MIN - 1)) == [[]]


@pytest.mark.parametrize("n", sorted(SEEDS))
@pytest.mark.parametrize("shape", ["Trezor\n{lines}", "{lines}", "Ledger backup\n{numbered}", "{numbered}",
                                   "Wallet 2 (old phone):\n{parenthesised}", "notes\n\n{lines}\n\nthat is all"])
def test_bip39_words_one_a_line_or_numbered_as_many_as_a_seed_s_are_a_seed_phrase_whatever_the_label(
        n: int, shape: str) -> None:
    words = SEEDS[n].split()
    text = shape.format(lines="\n".join(words), numbered=" ".join(f"{i}. {w}" for i, w in enumerate(words, start=1)),
                        parenthesised="\n".join(f"{i}) {w}" for i, w in enumerate(words, start=1)))
    assert "wallet seed phrase" in [kind for kind, _ in find_secrets(text)[0]]
    redacted, kinds = redact(text)
    assert "wallet seed phrase" in kinds and sum(w in redacted.split() for w in words) < 3


@pytest.mark.parametrize("text", [
    "\n".join(SEEDS[24].split()[:11]), "\n".join(SEEDS[24].split()[:13]), "\n".join(SEEDS[24].split()[:16]),
    " ".join(f"{i}. {w}" for i, w in enumerate(SEEDS[24].split()[:14], start=1)),
    "\n".join(SEEDS[12].split()) + " and then some",
    ", ".join(SEEDS[12].split()[:6]) + "\n" + "\n".join(SEEDS[12].split()[6:]),
    "Shopping list\n" + "\n".join(f"{i}. {w}" for i, w in enumerate(
        ["2 lemons", "eggs", "bread", "olive oil", "milk", "apples", "rice", "tomatoes", "onions", "garlic", "cheese",
         "butter"], start=1)),
    "\n".join(f"{i}. {w}" for i, w in enumerate(
        "review deploy test merge release document plan design build write fix ship".split(), start=1)),
    "\n".join(["legal", "winner", "thank", "year"] * 3),
])
def test_bip39_words_listed_without_a_label_not_as_many_as_a_seed_s_or_not_one_an_item_are_stored(text: str) -> None:
    assert find_secrets(text) == [[]]


@pytest.mark.parametrize("text", [
    "the password is stored in the vault", "the passphrase is four random words", "the password is never logged",
    "the password is required for every login", "password: see team vault entry", "my password is my dog's name",
    "the wifi password is on the fridge", "the password is the same as before", "password is too short now",
    "the password policy is twelve characters minimum", "the password hash is bcrypt cost twelve rounds",
    "the key point is this", "press the key twice to confirm", "password: <your-password>", "password: changeme",
    "Andrew: Thanks! It's tough, but I guess that's just part of life, huh? How do you make sure you have enough",
    "We bought fresh bread, milk, cheese, apple juice, salad, tomato, onion, garlic, pepper, lemon, honey and rice",
    "\n".join(["milk", "bread", "cheese", "apple", "juice", "salad", "tomato", "onion", "garlic", "pepper", "lemon",
               "honey", "rice", "butter"]),
    "La password è la stessa di prima", "la contraseña es la misma que antes", "das Passwort ist das gleiche wie vorher",
    "Never give anyone your recovery phrase; the wallet app asks for twelve words only when you restore it",
])
def test_sentences_about_a_password_and_prose_of_common_words_are_stored(text: str) -> None:
    assert find_secrets(text) == [[]]


@pytest.mark.parametrize("unit", ["abandon ", "abandon,\n", "1. abandon\n", " ".join(_WORDS[:11]) + " the ",
                                  "seed: " + "zoo " * 11 + "\n", "my passphrase is apple ", "password: apple-",
                                  "passphrase is " + "horse " * 13 + ". ", ", ".join(_WORDS[:12]) + " qqq ",
                                  "\n".join(_WORDS[100:113]) + "\n. ",
                                  " ".join(f"{i}. {w}" for i, w in enumerate(_WORDS[:12]))])
def test_the_word_readings_take_linear_time(unit: str) -> None:
    from test_secret_scan import LARGE, _grows_linearly

    assert _grows_linearly(lambda size: unit * (size // len(unit)), large=LARGE) is None
    assert _grows_linearly(lambda size: unit * (size // len(unit)), redact, large=LARGE) is None


def test_a_run_of_a_few_list_words_repeated_is_no_seed_phrase():
    """CI of stop 51: a test's filler ("word " * 100) was refused as a seed phrase: a seed phrase's words
    are drawn from 2,048, and 12 of them repeat one at most in ~3 % of phrases."""
    for text in ("hello number 3 " + "word " * 100, "ten ten ten ten ten ten ten ten ten ten ten ten",
                 "sing along: " + "happy birthday to you " * 6, "abandon " * 11 + "about"):
        assert find_secrets(text) == [[]], text
    assert find_secrets("seed: legal winner thank year wave sausage worth useful legal winner thank yellow") == \
        [[("wallet seed phrase", 1)]]
