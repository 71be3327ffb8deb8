"""One rule says whether a value reads as typed, a password someone made up rather than a name, a label or a
product (``secret_values.typed``), wherever nothing but its place names it: a value typed to log in ("use X to log
in"), "my pass is X", a login's user and "and" ("sign in with ci-bot and X"), and a network's key named by a short
word in a run of words ("wifi guest key X"). The same value gets the same answer in each of the first three: before,
they stored a symbol among lower case ("tag77#blue") that the network key's rule refused. Right after a network's key
word the place asks less of it: a capital and a word and digits ("Sunflower88", "Rack12Shelf", "Pixel8-tether") is the
key there, in every network's word and every language's key word; the same in lower case, and talk, stay stored."""

from __future__ import annotations

import pytest

from memvault.storage.secret_values import typed
from memvault.storage.secrets import find_secrets, redact

# Values typed: mixed cases or a typed symbol, a letter and a digit, 8 characters or more, and no name: a symbol
# parting words makes them a made-up password ("Kangaroo!Jump55", "tag77#blue")
TYPED = ["tag77#blue", "fz81marker!x", "Kangaroo!Jump55", "Xq7mR2pLw9kZ", "tR7#qLm2Wx", "Blu3Sky!77", "hook9#left",
         "Zk9x2mQ7Lp", "river42&stone", "Qp4$Wn8Zr2", "mx3^lk9pq2", "Hq7Lm2Np9R"]
# Names, labels and products, but a network's key right after its key word: a word and digits, camelCase, mostly
# words ("Fz81marker")
WORDY = ["Fz81marker", "Sunflower88", "Camper2023", "Rack12Shelf", "Locker19x", "GoogleSSO2", "Windows11",
         "Admin2024", "nextToken2", "drawer2B", "Pixel8-tether", "CamperVan2023"]
# Names or labels in every place: one case and no typed symbol, or under 8 characters
NAMED = ["fz81marker", "tag77blue", "card12345", "camper2023", "RACK12SHELF", "Tg7#qL2", "Ab#12cd", "Pixel8"]
PLACES = ["use {v} to log in", "my pass is {v}", "sign in with ci-bot and {v}"]
NETWORK_KEY = "wifi guest key {v}"

# (text, the key): a network's word, a few words, a short word naming its key and a word and digits, in the network
# words and key words of every language that has one (``secret_words.tsv``, ``network-key``)
NETWORK_KEYS = [
    ('Wifi guest key Fz81marker', 'Fz81marker'),
    ('router lab key Rack12Shelf', 'Rack12Shelf'),
    ('wifi guest key Sunflower88', 'Sunflower88'),
    ('hotspot van code Camper2023', 'Camper2023'),
    ('hotspot MyPhone code Sunflower88', 'Sunflower88'),
    ('the hotspot on my phone uses code Pixel8-tether', 'Pixel8-tether'),
    ('wlan gast key Badge4711x', 'Badge4711x'),
    ('wireless lab passphrase Harbor2024', 'Harbor2024'),
    ('router admin pw Gateway77', 'Gateway77'),
    ('hotspot van psk Campfire2023', 'Campfire2023'),
    ('ssid HomeNet pass Garden2024', 'Garden2024'),
    ('wi-fi cabin key Lakeside99', 'Lakeside99'),
    ('the router in the attic has key Rafter77beam', 'Rafter77beam'),
    ('the guest wifi uses the code Welcome2024', 'Welcome2024'),
    ('wifi guest key tRoUbAdOuRxQ', 'tRoUbAdOuRxQ'),
    ('WLAN Büro Schlüssel Sonnenblume88', 'Sonnenblume88'),
    ('wifi maison clé Tournesol88', 'Tournesol88'),
    ('wifi casa clave Girasol2023', 'Girasol2023'),
    ('wifi casa chiave Girasole88', 'Girasole88'),
    ('wifi casa chave Girassol88', 'Girassol88'),
    ('wifi thuis sleutel Zonnebloem88', 'Zonnebloem88'),
    ('wifi dom klucz Slonecznik88', 'Slonecznik88'),
    ('wifi doma klíč Slunecnice88', 'Slunecnice88'),
    ('wifi дом ключ Подсолнух88', 'Подсолнух88'),
    ('wifi дача код Ромашка2023', 'Ромашка2023'),
]
# talk about a network's key, and labels in lower case or under 8 characters after its word
NETWORK_TALK = [
    'the wifi key is on the fridge', 'hotspot code changes weekly', 'router key rotation is monthly',
    'WLAN Schlüssel wechselt monatlich', 'wifi clé changée chaque mois', 'the router key feature is mesh',
    'the wifi code expires at Midnight', 'the router uses code from GitHub', 'wifi key rotation in Q3 2024',
    'the hotspot code name is Falcon', 'router key handover23 on Monday', 'wifi guest key Windows',
    'hotspot code Pixel8', 'router key Rack12', 'wlan gast key badge4711', 'hotspot van code camper2023',
    'router spare key ZzTopGarage', 'the router has key features like WiFi6E support',
]


@pytest.mark.parametrize("value", TYPED)
def test_a_typed_value_reads_as_typed_in_every_place(value: str) -> None:
    assert typed(value) and typed(value, after_network_key=True)


@pytest.mark.parametrize("value", WORDY)
def test_a_word_and_digits_reads_as_typed_only_after_a_network_key(value: str) -> None:
    assert not typed(value) and typed(value, after_network_key=True)


@pytest.mark.parametrize("value", NAMED)
def test_a_label_in_one_case_or_a_short_value_reads_as_typed_nowhere(value: str) -> None:
    assert not typed(value) and not typed(value, after_network_key=True)


def _refused(text: str, value: str) -> None:
    redacted, kinds = redact(text)
    assert find_secrets(text) != [[]] and kinds == ("password",) and value not in redacted, (text, redacted)


def _stored(text: str) -> None:
    assert find_secrets(text) == [[]] and redact(text) == (text, ()), text


@pytest.mark.parametrize("place", [*PLACES, NETWORK_KEY])
@pytest.mark.parametrize("value", TYPED)
def test_a_typed_value_is_refused_in_every_place_that_asks_for_one(place: str, value: str) -> None:
    _refused(place.format(v=value), value)


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("value", WORDY + NAMED)
def test_a_name_or_label_is_stored_in_every_place_that_asks_for_a_typed_value(place: str, value: str) -> None:
    _stored(place.format(v=value))


@pytest.mark.parametrize("value", WORDY)
def test_a_word_and_digits_after_a_network_key_word_is_refused(value: str) -> None:
    _refused(NETWORK_KEY.format(v=value), value)


@pytest.mark.parametrize(("text", "value"), NETWORK_KEYS)
def test_a_network_key_after_any_network_word_and_key_word_is_refused(text: str, value: str) -> None:
    _refused(text, value)


@pytest.mark.parametrize("text", NETWORK_TALK + [NETWORK_KEY.format(v=value) for value in NAMED])
def test_talk_about_a_network_key_and_a_label_after_its_word_are_stored(text: str) -> None:
    _stored(text)
