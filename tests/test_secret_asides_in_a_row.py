"""Asides between a password's word and its verb, read through however many stand in a row and however long each is
(its brackets, commas or dashes bound it, never a count of characters; an aside between commas or dashes ends at its
sentence's end), and a relative clause opened by its subject with no relative word in Swedish, Danish and Norwegian,
which leave out an object's "som" as English leaves out "that". Talk about passwords with such asides stays stored,
and the scan stays linear."""

from __future__ import annotations

import pytest
from secret_wire import refuses_and_stores

from memvault.storage.secrets import find_secrets, redact

LONG = ("the one on the sticker under the router in the hallway, which nobody should ever change without asking "
        "Tom or Priya first, because the printer and the doorbell use it too")
# (text, its value)
REFUSED = [
    # two asides or more in a row, of every kind and order
    ("the wifi password (the new one), as Tom said, is Fz81marker!", "Fz81marker"),
    ("the db password — set last week — (for prod) is X9k#pl2v", "X9k#pl2v"),
    ("the db password (for prod) — set last week — is X9k#pl2v", "X9k#pl2v"),
    ("the db password, set last week, (for prod) is X9k#pl2v", "X9k#pl2v"),
    ("the db password [prod] (rotated monthly) is X9k#pl2v", "X9k#pl2v"),
    ("the password for the NAS, as Tom said, (the new one) -- since Monday -- is Kx7#mPq2", "Kx7#mPq2"),
    ("the vpn password, as of release 3.2, (for the whole team), is: Sv7@kLp02", "Sv7@kLp02"),
    ("das WLAN-Passwort (das neue), wie Tom sagte, ist Kx7#mPq2", "Kx7#mPq2"),
    ("le mot de passe du NAS (le nouveau) — depuis lundi — est Kx7#mPq2", "Kx7#mPq2"),
    ("la contraseña del router, la nueva, (la de Bob) es Kx7#mPq2", "Kx7#mPq2"),
    # one aside longer than 120 characters, in brackets, between commas or between dashes
    (f"the wifi password ({LONG}) is Kx7#mPq2", "Kx7#mPq2"),
    (f"the wifi password, {LONG.replace(',', '')}, is Kx7#mPq2", "Kx7#mPq2"),
    (f"the wifi password — {LONG} — is Kx7#mPq2", "Kx7#mPq2"),
    (f"das Passwort ({LONG}) lautet Kx7#mPq2", "Kx7#mPq2"),
    # a relative clause with no relative word, opened by a pronoun or a determiner and its noun
    ("lösenordet han satte är Kx7#mPq2", "Kx7#mPq2"),
    ("lösenordet vi valde igår är Kx7#mPq2", "Kx7#mPq2"),
    ("wifi-lösenordet min chef gav oss är Kx7#mPq2", "Kx7#mPq2"),
    ("adgangskoden hun valgte er Kx7#mPq2", "Kx7#mPq2"),
    ("adgangskoden vi satte i går er Kx7#mPq2", "Kx7#mPq2"),
    ("passordet hun valgte er Kx7#mPq2", "Kx7#mPq2"),
    ("passordet min sjef ga oss er Kx7#mPq2", "Kx7#mPq2"),
    ("passordet noen satte er Kx7#mPq2", "Kx7#mPq2"),
]
STORED = [
    "the password (the new one), as Tom said, is on the fridge",
    "the db password — set last week — (for prod) is in the vault",
    f"the wifi password ({LONG}) is long",
    f"the wifi password — {LONG} — is in 1Password",
    "the password policy, which IT wrote, (see the wiki) is strict",
    # an aside between commas or dashes does not run past its sentence's end
    "I reset the password, ask Tom. The staging box, is Kx7mPq2z now",
    "the password — see the wiki. Tom's box — is Kx7mPq2z",
    "lösenordet han valde är långt",
    "passordet vi valgte er for kort",
    "adgangskoden hun satte er 12 tegn lang",
    "lösenordet du väljer är hemligt",
    "the password (see above), as Tom said, is rotated every 90 days",
]


@pytest.mark.parametrize(("text", "value"), REFUSED)
def test_asides_in_a_row_of_any_length_and_a_clause_opened_by_its_subject_are_read_through(text: str,
                                                                                         value: str) -> None:
    redacted, kinds = redact(text)
    assert find_secrets(text) != [[]] and kinds == ("password",) and value not in redacted, (text, redacted)


@pytest.mark.parametrize("text", STORED)
def test_talk_about_passwords_with_such_asides_is_stored(text: str) -> None:
    assert find_secrets(text) == [[]] and redact(text) == (text, ()), text


@pytest.mark.asyncio
@pytest.mark.usefixtures("one_model")
async def test_remember_refuses_them_naming_the_field_and_stores_the_talk(db_path) -> None:
    await refuses_and_stores(db_path, [(t, [v]) for t, v in REFUSED[::3]], STORED[::3])
