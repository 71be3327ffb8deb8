"""A password's change written after the word with no change's verb (issue 25 §8, new-user trial T1, T2, T4): a value
holding a digit or a symbol and an arrow whatever words stand before the word ("router admin password hunter22 → Y"),
a left arrow pointing at the value ("wifi password ← Y", "<-", "<="), the old and the new value's labels of every
language around such an old value, their marks optional ("wifi password: old X, new Y", "password (old: X, new: Y)");
and a short word naming a network's key needs a typed value ("Wifi guest key fz81marker" is a label). Talk about
passwords, arrows and labels stays stored."""

from __future__ import annotations

import pytest
from secret_wire import refuses_and_stores

from memvault.storage.secrets import find_secrets, redact

# (text, the new value): a typed old value and an arrow after the word, whatever stands before it
ARROWED = [
    ('router admin password hunter22 → Blu3Sky!77', 'Blu3Sky!77'),
    ('admin password hunter22 -> Blu3Sky!77', 'Blu3Sky!77'),
    ('router password hunter22 → Blu3Sky!77', 'Blu3Sky!77'),
    ('the nas root password Tulip#4 => Orchid#5x', 'Orchid#5x'),
    ('office printer password 4455 ➜ Kx93lampQ', 'Kx93lampQ'),
    ('my old laptop password walrus8 --> Narwhal9!', 'Narwhal9!'),
    ('camera admin password cam2023 → Cam2024!x', 'Cam2024!x'),
    ('staging db password pg-pass1 -> Pg7pass!2', 'Pg7pass!2'),
    ('guest vpn password spring24 ⇒ Summer25!q', 'Summer25!q'),
    ('Router-Passwort geheim1 → Geheim2!x', 'Geheim2!x'),
    ('mot de passe du routeur soleil1 → Lune2!xyz', 'Lune2!xyz'),
    ('contraseña del router perro12 -> Gato34!xy', 'Gato34!xy'),
    ('hasło kot123 → Pies456!x', 'Pies456!x'),
    ('service account password svc_01 → Svc_02!zz', 'Svc_02!zz'),
    ('home alarm password 1234 → Alarm99!x', 'Alarm99!x'),
    ('password "hunter22" → "Blu3Sky!77"', 'Blu3Sky!77'),
]
# (text, the new value): a left arrow pointing at the value
LEFT = [
    ('wifi password ← Blu3Sky!77', 'Blu3Sky!77'),
    ('wifi password <- Blu3Sky!77', 'Blu3Sky!77'),
    ('wifi password <= Blu3Sky!77', 'Blu3Sky!77'),
    ('router password ← Kx93lampQ', 'Kx93lampQ'),
    ('admin password <-- Narwhal9!', 'Narwhal9!'),
    ('vpn password <== Summer25!q', 'Summer25!q'),
    ('the db password ⟵ Pg7pass!2', 'Pg7pass!2'),
    ('root password ⇐ Orchid#5x', 'Orchid#5x'),
    ('smtp password ⬅ Mail2024!x', 'Mail2024!x'),
    ('password ← Tulip99xz!', 'Tulip99xz!'),
    ('Passwort ← Geheim2!x', 'Geheim2!x'),
    ('mot de passe ← Lune2!xyz', 'Lune2!xyz'),
    ('contraseña <- Gato34!xy', 'Gato34!xy'),
    ('hasło ← Pies456!x', 'Pies456!x'),
    ('wachtwoord <- Peer34!xy', 'Peer34!xy'),
    ('senha ← Lua2024!x', 'Lua2024!x'),
]
# (text, the new value): the old and the new value's labels, their marks optional, with no change's verb
LABELS = [
    ('wifi password: old hunter22, new Blu3Sky!77', 'Blu3Sky!77'),
    ('wifi password: old hunter22; new Blu3Sky!77', 'Blu3Sky!77'),
    ('wifi password (old: hunter22, new: Blu3Sky!77)', 'Blu3Sky!77'),
    ('wifi password old hunter22 new Blu3Sky!77', 'Blu3Sky!77'),
    ('router password: previous cam2023, new Cam2024!x', 'Cam2024!x'),
    ('vpn password (former spring24 / new Summer25!q)', 'Summer25!q'),
    ('admin password: current walrus8, new Narwhal9!', 'Narwhal9!'),
    ('Passwort: alt geheim1, neu Geheim2!x', 'Geheim2!x'),
    ('WLAN-Passwort (alt: geheim1, neu: Geheim2!x)', 'Geheim2!x'),
    ('mot de passe : ancien soleil1, nouveau Lune2!xyz', 'Lune2!xyz'),
    ('contraseña (antigua: perro12, nueva: Gato34!xy)', 'Gato34!xy'),
    ('password: vecchia gatto11, nuova Cane22!xy', 'Cane22!xy'),
    ('senha: antiga gato11, nova Rato22!xy', 'Rato22!xy'),
    ('wachtwoord: oud appel12, nieuw Peer34!xy', 'Peer34!xy'),
    ('hasło: stare kot123, nowe Pies456!x', 'Pies456!x'),
    ('пароль: старый кошка11, новый Собака22!', 'Собака22!'),
]
# a network's key named by a short word in a run of words: a typed value (``secret_values.typed``: there a word and
# digits is one), or any value where punctuation parts the network from the word
NETWORK_KEYS = [
    'Wifi guest key Fz81marker',
    'wifi guest key fz81marker!x',
    'router lab key Rack12Shelf',
    'wifi kitchen key tag77#blue',
    'hotspot van code Camper2023', 'wifi: guest, key fz81marker', 'wifi guest, key camper2023',
    'router: lab; key rack12shelf',
    'wlan gast / key badge4711x',
    'wifi attic, key hook9left',
    'hotspot demo: code booth42ax',
    'wifi guest key Sunflower88',
    'router spare key drawer2B!',
    'wireless lab key Locker19x',
    'wifi test, code marker2025',
    'router lab key Rk12#shelf',
    'wifi guest key Zk9x2mQ7Lp',
]
STORED = [
    'Wifi guest key fz81marker',
    'wifi guest key card12345',
    'router key handover23 on Monday',
    'wifi office key lanyard2024',
    'hotspot van code camper2023',
    'router lab key rack12shelf',
    'wifi kitchen key tag77blue',
    'wlan gast key badge4711',
    'router spare key drawer2b', 'wifi attic key hook9left', 'hotspot demo code booth42a', 'wifi guest code sticker01',
    'router closet key bin3top', 'wireless lab key locker19', 'wifi test key marker2025',
    'passwords are hashed with argon2id',
    'the wifi password was changed yesterday',
    'the old password expired',
    'new passwords need 12 characters',
    'build → test → deploy',
    'if password <= limit return',
    'password reset → email → login',
    'password reset -> login page',
    'Settings -> Password -> Change',
    'password: old policy, new policy applies next week',
    'password old and new must differ',
    'the password field <- user input',
    'password policy v2 → v3 next quarter',
    'wifi password: old one expired, new one is on the fridge',
    'the password of old accounts and new accounts differ',
    'login flow: password → 2FA → dashboard',
]


@pytest.mark.parametrize(("text", "value"), ARROWED + LEFT + LABELS)
def test_a_change_after_the_word_with_no_verb_is_refused_and_its_new_value_redacted(text: str, value: str) -> None:
    assert find_secrets(text) != [[]], text
    redacted, kinds = redact(text)
    assert kinds == ("password",) and value not in redacted, (text, redacted)


@pytest.mark.parametrize("text", NETWORK_KEYS)
def test_a_network_key_typed_or_parted_by_punctuation_is_refused(text: str) -> None:
    assert find_secrets(text) != [[]] and redact(text)[1] == ("password",), text


@pytest.mark.parametrize("text", STORED)
def test_talk_about_passwords_arrows_labels_and_network_keys_is_stored(text: str) -> None:
    assert find_secrets(text) == [[]] and redact(text) == (text, ()), text


@pytest.mark.asyncio
@pytest.mark.usefixtures("one_model")
async def test_remember_refuses_them_naming_the_field_and_stores_the_talk(db_path) -> None:
    await refuses_and_stores(db_path, [(t, [v]) for t, v in (ARROWED + LEFT + LABELS)[::5]], STORED[::4])
