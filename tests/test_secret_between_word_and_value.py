"""What stands between a credential's word and its value (fixcred12). A format character (Unicode Cf: U+200B,
U+2060, U+FEFF, U+00AD ...) between the word and its verb or ":" ("password\\u200bis X", "password\\u2060: X"), or inside
the word, is read as a space and as nothing (``secrets._spaced_formats``, ``validate.bare``): the value is refused
and a turn loses the value only. A value after an HTML character reference ("password&#58; X") or in a query written
escaped or without its "?" ("token%3DX%26page%3D2", "token=X&page=2") is redacted alone too, what follows it kept.
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


# An HTML character reference between the word and the value ("password&#58; X"), or a query written escaped or
# without its "?" ("token%3DX%26page%3D2", "token=X&page=2"): a turn loses the value, and what follows it stays.
REFERENCES = ["&#58; ", "&colon; ", "&#x3A; ", "&#x3a;&#32;", "&nbsp;is ", " &equals; ", "&#61;", "&#58;&nbsp;"]
WORDS = [("password", "password"), ("Passwort", "password"), ("mot de passe", "password"), ("token", "access token"),
         ("API key", "API key")]
W = "Zt5pQ9xwK2"


@pytest.mark.parametrize("reference", REFERENCES)
@pytest.mark.parametrize(("word", "kind"), WORDS)
def test_an_html_character_reference_between_the_word_and_the_value_redacts_the_value_only(reference: str, word: str,
                                                                                             kind: str) -> None:
    for text in (f"{word}{reference}{W} and more words here", f"<p>note: {word}{reference}{W}, then the rest</p>"):
        assert find_secrets(text) != [[]], text
        assert redact(text) == (text.replace(W, f"[{kind}]"), (kind,)), text


QUERIES = [
    ("?token%3D{W}%26page%3D2 and then more", "access token"), ("see token%3D{W}%26page%3D2 then", "access token"),
    ("redirect_uri=https%3A%2F%2Fx.io%2Fcb%3Ftoken%3D{W}%26page%3D2 then", "access token"),
    ("pw%3D{W}%26page%3D2 x", "password"), ("?password%3d{W}%26next%3d1 end", "password"),
    ("token={W}&page=2 x", "access token"), ("see password={W}&lang=en today", "password"),
    ("password&#61;{W}&amp;page=2 x", "password"), ("GET /api?api_key%3D{W}%26limit%3D5 HTTP/1.1", "API key"),
    ("the link ?token%3D{W}%26page%3D2%26sort%3Dasc was shared", "access token"),
]


@pytest.mark.parametrize(("shape", "kind"), QUERIES)
def test_a_query_escaped_or_without_its_question_mark_keeps_what_follows_the_value(shape: str, kind: str) -> None:
    text = shape.format(W=W)
    assert find_secrets(text) != [[]], text
    assert redact(text) == (text.replace(W, f"[{kind}]"), (kind,)), text


@pytest.mark.parametrize(("text", "value"), [("password=Ab&cd=1234 ok", "Ab&cd=1234"),
                                             ("password=hunter&x=Zt5pQ9 ok", "hunter&x=Zt5pQ9")])
def test_a_value_holding_an_ampersand_is_taken_whole_when_its_first_part_is_no_value(text: str, value: str) -> None:
    assert redact(text) == (text.replace(value, "[password]"), ("password",))


@pytest.mark.parametrize("text", [
    "Tom &amp; Jerry &#58; fine &colon; ok", "the password&colon; see the vault", "?page=2&sort=asc&token=&x=1",
    "password&nbsp;policy&#58; twelve characters", "a=1&b=2 then token%3Dsee%20docs",
])
def test_references_and_queries_without_a_credential_are_stored(text: str) -> None:
    assert find_secrets(text) == [[]] and redact(text) == (text, ())
