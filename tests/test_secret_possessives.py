"""A password named with a possessive after its word and a phrase saying what it is for ("parola mea pentru router este
X", "kata sandi saya X", "passordet mitt er X"), and Italian "codice di accesso", Indonesian "sandi" and Malay "kata
laluan" (fixcred12). The shape "<word> <for the router> <verb> X" is tried in every language of the word table, with
each of its prepositions; prose using the same words is stored."""

from __future__ import annotations

import re
from re import _parser as sre_parse  # type: ignore[attr-defined]  # (sre_parse is deprecated; the same module)
from re._constants import (  # type: ignore[attr-defined]
    ANY,
    AT,
    BRANCH,
    CATEGORY,
    IN,
    LITERAL,
    MAX_REPEAT,
    MIN_REPEAT,
    NEGATE,
    NOT_LITERAL,
    RANGE,
    SUBPATTERN,
)

import pytest

from memvault.storage.errors import InvalidInput
from memvault.storage.records import NewTurn
from memvault.storage.secret_tables import tsv_rows
from memvault.storage.secrets import find_secrets, redact

V = "Zt5pQ9xw"


def _example(source: str, items: list | None = None) -> str:  # type: ignore[type-arg]
    """One text the table's regex ``source`` matches (read from ``items``, a branch of it, when given): each first branch, an optional single character taken
    ("parol[aăe]?" gives "parola"), other repeats as few as they may be."""
    def walk(items) -> str:  # type: ignore[no-untyped-def]
        out = []
        for op, av in items:
            if op is LITERAL:
                out.append(chr(av))
            elif op is NOT_LITERAL:
                out.append("x")
            elif op is IN:
                kind, first = av[0]
                out.append(chr(first) if kind is LITERAL else chr(first[0]) if kind is RANGE
                           else " " if kind is CATEGORY else "x" if kind is NEGATE else "x")
            elif op is BRANCH:
                out.append(walk(av[1][0]))
            elif op is SUBPATTERN:
                out.append(walk(av[-1]))
            elif op in (MAX_REPEAT, MIN_REPEAT):
                low, high, sub = av
                one = walk(sub)
                out.append(one * (1 if low == 0 and high == 1 and len(one) == 1 else low))
            elif op is ANY:
                out.append("x")
            elif op is not AT:
                raise ValueError(source)
        return "".join(out)

    text = walk(sre_parse.parse(source, re.IGNORECASE) if items is None else items)
    assert re.fullmatch(source, text, re.IGNORECASE), (source, text)
    return text


def _alternatives(language: str, role: str) -> list[str]:
    """An example of each top-level alternative of ``language``'s rows of ``role``."""
    found = []
    for lang, of, row, *_ in tsv_rows("secret_words.tsv"):
        if (lang, of) == (language, role):
            tree = sre_parse.parse(row, re.IGNORECASE)
            branches = tree[0][1][1] if len(tree) == 1 and tree[0][0] is BRANCH else [tree]
            found += [_example(row, list(branch)) for branch in branches]
    return found


_LANGUAGES = list(dict.fromkeys(lang for lang, *_ in tsv_rows("secret_words.tsv")))


def _shapes() -> list[tuple[str, str]]:
    """``(language, text)``: each word for password of each language that has a verb, before "<preposition> router
    <verb> X" with each of its prepositions, and after a possessive ("<word> <possessive> <preposition> router
    <verb> X", "<word> <possessive> X")."""
    shapes = []
    for lang in _LANGUAGES:
        verbs = _alternatives(lang, "verb")[:1]
        for role in ("password", "password-tail", "password-strict"):
            for word in _alternatives(lang, role):
                for verb in verbs:
                    shapes += [(lang, f"{word} {verb} {V}")]
                    shapes += [(lang, f"{word} {whose} router {verb} {V}") for whose in _alternatives(lang, "whose")]
                    for mine in _alternatives(lang, "possessive"):
                        shapes += [(lang, f"{word} {mine} {verb} {V}"), (lang, f"{word} {mine}: {V}")]
                        shapes += [(lang, f"{word} {mine} {whose} router {verb} {V}")
                                   for whose in _alternatives(lang, "whose")]
                        if role != "password-strict":
                            shapes += [(lang, f"{word} {mine} {V}")]
    return shapes


SHAPES = _shapes()


def test_the_shapes_cover_every_language_with_a_verb_and_each_possessive() -> None:
    languages = {lang for lang, _ in SHAPES}
    assert {"ro", "id", "ms", "it", "no", "sv", "da", "is", "el", "bg", "mk", "sq", "sw", "de", "fr"} <= languages
    assert len(SHAPES) > 400


@pytest.mark.parametrize(("language", "text"), SHAPES)
def test_a_password_after_its_word_a_possessive_and_a_phrase_saying_what_for_is_found(language: str, text: str) -> None:
    assert find_secrets(text) != [[]], text
    redacted, kinds = redact(text)
    assert redacted == text.replace(V, "[password]") and kinds == ("password",), redacted


REFUSED = [
    f"parola mea pentru router este {V}", f"Parola ta de la wifi e {V}", f"parola routerului este {V}",
    f"parola wifi-ului e {V}", f"parola noastră pentru serverul de test este {V}", f"parola mea: {V}",
    f"il codice di accesso è {V}", f"il codice d'accesso è {V}", f"parola contului meu este {V}",
    f"parola contului meu e {V}", f"la chiave di accesso è {V}", f"la chiave d'accesso è {V}", f"Il codice d’accesso del server è {V}",
    f"il codice di accesso al router è {V}", f"codice di accesso: {V}", f"la password per il router è {V}",
    f"kata sandi saya {V}", f"kata sandi wifi adalah {V}", f"sandi saya {V}", f"sandi wifi saya adalah {V}",
    f"kata sandi kamu adalah {V}", f"kata sandi saya untuk wifi adalah {V}", f"Kata sandi: {V}", f"sandi ialah {V}",
    f"Sandi saya {V}", f"Sandi kami untuk router adalah {V}", f"Sandinya: {V}", f"sandi: {V}",
    f"kata laluan saya {V}", f"kata laluan saya untuk router ialah {V}", f"kata laluan wifi adalah {V}",
    f"passordet mitt er {V}", f"lösenordet mitt är {V}", f"adgangskoden min er {V}", f"lykilorðið mitt er {V}",
    f"fjalëkalimi im është {V}", f"nenosiri langu ni {V}", f"ο κωδικός μου για τον router είναι {V}",
    f"паролата ми за рутера е {V}", f"лозинката ми за серверот е {V}", f"my password for the router is {V}",
    f"mein Passwort für den Router ist {V}", f"mon mot de passe pour le routeur est {V}",
]

STORED = [
    "parola contului meu este expirată", "la chiave di accesso è scaduta",
    "la chiave di accesso alla casa è sotto il vaso", "the router's password policy is strict", "kata sandi harus diganti setiap bulan", "il codice di accesso è scaduto",
    "kata sandi saya lupa", "sandi morse adalah kode lama", "parola mea pentru router este prea scurtă",
    "parola wifi este scrisă pe router", "passordet mitt er for kort", "il codice di accesso al portale è cambiato ieri",
    "kata laluan saya telah ditukar semalam", "ο κωδικός μου για τον router είναι μεγάλος", "sandi saya 2 kali salah",
    "kata sandi saya untuk wifi adalah nama kucing saya", "il codice d'accesso è nel cassetto",
    "parola mea este foarte lungă", "lösenordet mitt är för kort", "паролата ми за рутера е дълга",
    # a name, and Italian "parola" before "e" (and)
    "Sandi: v2.3.1 is deployed", "Sandi: PR-1234 merged", "Sandi (QA) = reviewer2x", "Sandi Metz wrote POODR2e",
    "la parola chiave e token2 sono campi obbligatori", "la parola magica e abc123",
]


@pytest.mark.parametrize("text", REFUSED)
def test_a_possessive_or_a_word_of_another_language_before_the_value_is_refused(text: str) -> None:
    assert find_secrets(text) != [[]], text
    redacted, kinds = redact(text)
    assert redacted == text.replace(V, "[password]") and kinds == ("password",), redacted


@pytest.mark.parametrize("text", STORED)
def test_prose_with_the_same_words_is_stored(text: str) -> None:
    assert find_secrets(text) == [[]] and redact(text) == (text, ())


@pytest.mark.parametrize("text", [f"parola mea pentru router este {V}", f"kata sandi saya {V}",
                                  f"il codice di accesso è {V}", f"parola contului meu este {V}",
                                  f"la chiave di accesso è {V}"])
def test_remember_refuses_it_and_a_turn_redacts_it(store, text: str) -> None:
    with pytest.raises(InvalidInput, match=r"looks like it contains a credential \(password\)"):
        store.remember(tenant="t", scope="s", content=text)
    store.episodes.append(tenant="t", scope="s", session_id="s-1", turns=[NewTurn(role="user", text=text)])
    assert V not in store.episodes.turns(tenant="t", session_id="s-1")[-1].text
