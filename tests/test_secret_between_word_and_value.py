"""What stands between a credential's word and its value (fixcred12). A format character (Unicode Cf: U+200B,
U+2060, U+FEFF, U+00AD ...) between the word and its verb or ":" ("password\\u200bis X", "password\\u2060: X"), or inside
the word, is read as a space and as nothing (``secrets._spaced_formats``, ``validate.bare``): the value is refused
and a turn loses the value only.
Prose with the same characters is stored."""

from __future__ import annotations

import pytest

from memvault.storage.errors import InvalidInput
from memvault.storage.records import NewTurn
from memvault.storage.secrets import find_secrets, redact

V = "Zt5pQ9xw"
FORMATS = ["\u200b", "\u2060", "\ufeff", "\u00ad", "\u200e", "\u2062", "\u061c", "\u180e", "\u200c", "\u200d"]
# {0}: the format character; each text's value is V
BETWEEN = ["password{0}is {V}", "password{0}: {V}", "password {0}is {V}", "my password{0}{0}is {V} ok",
           "the{0}password{0}for{0}the{0}router{0}is{0}{V}", "password is{0}{V}", "Passwort{0}ist {V}",
           "API{0}key{0}= {V}", "mot de passe{0}: {V}", "parola mea{0}este {V}", "token{0}={0}{V}a1b2c3d4e5f6g7"]
INSIDE = ["pass{0}word is {V}", "pass{0}word: {V}", "pass{0}word{0}is {V}", "pass{0}wd{0}: {V}"]


@pytest.mark.parametrize("shape", BETWEEN)
@pytest.mark.parametrize("char", FORMATS)
def test_a_format_character_between_the_word_and_the_value_reads_as_a_space(shape: str, char: str) -> None:
    text = shape.format(char, V=V)
    assert find_secrets(text) != [[]], text
    redacted, kinds = redact(text)
    assert V not in redacted and kinds
    if "is{0}{V}" not in shape:  # (read as nothing there, "is" and the value are one word: "isZt5pQ9xw")
        assert redacted.startswith(text[:text.index(V)]), redacted  # what stands before the value stays


@pytest.mark.parametrize("shape", INSIDE)
@pytest.mark.parametrize("char", FORMATS)
def test_a_format_character_inside_the_word_reads_as_nothing(shape: str, char: str) -> None:
    text = shape.format(char, V=V)
    assert find_secrets(text) != [[]], text
    redacted, kinds = redact(text)
    assert V not in redacted and kinds
    if shape.count("{0}") == 1:  # one reading finds it: only the value goes
        assert redacted == text.replace(V, f"[{kinds[0]}]"), redacted


@pytest.mark.parametrize("text", [
    "the password\u200bis strict", "password\u2060: see the vault", "reset\ufeffthe password\u200bis done",
    "👨\u200d👩\u200d👧 family password policy", "کلمه\u200cها", "pass\u200bword\u200bis hashed with Argon2id",
    "the router\u00adpassword is on the sticker", "token\u200b=\u200bsee docs", "\ufeffpassword reset steps: 1. open",
])
def test_prose_with_format_characters_is_stored(text: str) -> None:
    assert find_secrets(text) == [[]] and redact(text) == (text, ())


def test_remember_refuses_it_and_a_turn_keeps_all_but_the_value(store) -> None:
    text = f"the wifi password\u200bis {V} for guests"
    with pytest.raises(InvalidInput, match=r"looks like it contains a credential \(password\)"):
        store.remember(tenant="t", scope="s", content=text)
    store.episodes.append(tenant="t", scope="s", session_id="s-1", turns=[NewTurn(role="user", text=text)])
    assert store.episodes.turns(tenant="t", session_id="s-1")[-1].text == "the wifi password\u200bis [password] for guests"
