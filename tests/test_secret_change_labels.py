"""A password's change with its old and new values labelled, or an arrow between them, after a change's verb (issue 25
§8, trial T1): "Passwort geändert: Alt X → Neu Y", "password changed: old X new Y", "hasło zmienione: stare X, nowe Y",
in every language with change forms, and "Passwort: alt X → neu Y" after the word alone; a Wi-Fi network or a router
whose key a short word names on its line (trial T2): "wifi: SSID HomeNet, key X", "The wifi network HomeNet uses key
X", "WLAN HomeNet, Schlüssel X". Talk about passwords, keys, networks and arrows in other text stays stored."""

from __future__ import annotations

import pytest
from secret_wire import refuses_and_stores

from memvault.storage.secrets import find_secrets, redact

# (text, every password it holds): labels of the old and the new value, or an arrow between them, after a change
LABELLED = [
    ('Passwort geändert: Alt Geheim123 → Neu Geheim456', ['Geheim123', 'Geheim456']),
    ('Passwort geändert: alt Tanne12, neu Fichte34', ['Tanne12', 'Fichte34']),
    ('WLAN-Passwort geändert: alt Igel77 -> neu Dachs88', ['Igel77', 'Dachs88']),
    ('das Passwort wurde geändert: vorherige Ahorn5x => neue Buche6y', ['Ahorn5x', 'Buche6y']),
    ('Passwort: alt Kirsche7 → neu Pflaume8', ['Kirsche7', 'Pflaume8']),
    ('password changed: old hunter22 new swordfish9', ['hunter22', 'swordfish9']),
    ('password changed: old: Kx93-lamp -> new: Qz71-desk', ['Kx93-lamp', 'Qz71-desk']),
    ('vpn password updated: previous marigold7, new thistle8', ['marigold7', 'thistle8']),
    ('the root password was reset: old walrus-8 → new narwhal-9', ['walrus-8', 'narwhal-9']),
    ('wifi password: old Tulip88x → new Daisy99y', ['Tulip88x', 'Daisy99y']),
    ('db password rotated: former cactus31 => new agave32', ['cactus31', 'agave32']),
    ('mot de passe changé : ancien Soleil11 → nouveau Lune22', ['Soleil11', 'Lune22']),
    ('mot de passe modifié : ancien rouge12, nouveau bleu34', ['rouge12', 'bleu34']),
    ('mot de passe : ancien Chat11 -> nouveau Chien22', ['Chat11', 'Chien22']),
    ('contraseña cambiada: antiguo Perro11 → nuevo Gato22', ['Perro11', 'Gato22']),
    ('la contraseña se cambió: anterior limon44, nueva fresa55', ['limon44', 'fresa55']),
    ('contraseña: vieja roble12 → nueva pino34', ['roble12', 'pino34']),
    ('password cambiata: vecchia Gatto11 → nuova Cane22', ['Gatto11', 'Cane22']),
    ('la password è stata modificata: precedente fiume88, nuova lago99', ['fiume88', 'lago99']),
    ('senha alterada: antiga gato11 → nova rato22', ['gato11', 'rato22']),
    ('senha trocada: anterior Sol2023, nova Lua2024', ['Sol2023', 'Lua2024']),
    ('wachtwoord gewijzigd: oud appel12 → nieuw peer34', ['appel12', 'peer34']),
    ('wachtwoord aangepast: vorige eik12, nieuwe beuk34', ['eik12', 'beuk34']),
    ('hasło zmienione: stare Kot111 → nowe Pies222', ['Kot111', 'Pies222']),
    ('hasło do poczty zmieniono: poprzednie Maj2023, nowe Czerwiec2024', ['Maj2023', 'Czerwiec2024']),
    ('пароль изменён: старый Кошка11 → новый Собака22', ['Кошка11', 'Собака22']),
    ('пароль от почты обновлён: прежний берёза12, новый осина34', ['берёза12', 'осина34']),
    ('heslo změněno: staré kocka11 → nové pes22x', ['kocka11', 'pes22x']),
    ('heslo k wifi změněno: původní lipa12, nové dub34', ['lipa12', 'dub34']),
    ('Kennwort aktualisiert: bisherige Zitrone77 => neues Limette88', ['Zitrone77', 'Limette88']),
    ('admin password changed: current Jaguar2023 -> new Panther2024', ['Jaguar2023', 'Panther2024']),
    ('the smtp password changed: old "maple77" → new "birch88"', ['maple77', 'birch88']),
]

# (text, the key): a Wi-Fi network or a router, then a short word naming its key on the same line
NETWORK_KEYS = [
    ('wifi: SSID HomeNet, key Sunflower!88', 'Sunflower!88'),
    ('The wifi network HomeNet uses key Sunflower!88', 'Sunflower!88'),
    ('wifi HomeNet key Kx93lampQ', 'Kx93lampQ'),
    ('wifi: HomeNet / key Tulip99xz', 'Tulip99xz'),
    ('guest wifi: SSID Cafe-Guest, key coffee2024!', 'coffee2024!'),
    ('Office wifi - SSID ACME-5G, key: Zq81kkLm3', 'Zq81kkLm3'),
    ('the wifi is called Moonbase and uses key Orbit-4471', 'Orbit-4471'),
    ('wi-fi network "Lighthouse", key "Beacon#2049"', 'Beacon#2049'),
    ('SSID HomeNet, key Sunflower!88', 'Sunflower!88'),
    ('ssid: Attic-AP; key = Rafter77beam', 'Rafter77beam'),
    ('wireless: network TP-Link_4F2A, key 73914826Xq', '73914826Xq'),
    ('hotspot MyPhone code Sunflower88', 'Sunflower88'),
    ('the hotspot on my phone uses code Pixel8-tether', 'Pixel8-tether'),
    ('wifi at grandma\'s: SSID Rosegarden, code Petal2023x', 'Petal2023x'),
    ('WLAN: SSID HomeNet, Schlüssel Sonne!8888', 'Sonne!8888'),
    ('WLAN im Büro: Netz ACME, Schlüssel Zitrone77!', 'Zitrone77!'),
    ('wifi : réseau HomeNet, clé Soleil!888', 'Soleil!888'),
    ('wifi del bar: red CafeSol, clave Perro1122', 'Perro1122'),
    ('wifi dell\'ufficio: rete Ufficio5G, chiave Gatto1122', 'Gatto1122'),
    ('wifi da casa: rede CasaNet, chave gato11rato', 'gato11rato'),
    ('wifi thuis: netwerk Huis5G, sleutel appel12peer', 'appel12peer'),
    ('wifi w domu: sieć Dom5G, klucz Kot111Pies', 'Kot111Pies'),
    ('wifi doma: síť Doma5G, klíč kocka11pes', 'kocka11pes'),
    ('wifi дома: сеть Dom5G, ключ Кошка11Собака', 'Кошка11Собака'),
    ('router: SSID Netgear42, pw Granite!77', 'Granite!77'),
    ('router admin: user admin, pass Hunter2!x', 'Hunter2!x'),
    ('router admin panel with pass Hunter2!xy', 'Hunter2!xy'),
    ('router login admin, pw Quartz-5512', 'Quartz-5512'),
    ('the router at 192.168.1.1 uses code Bastion-8812', 'Bastion-8812'),
    ('wifi HomeNet and key Willow-2291', 'Willow-2291'),
    ('hotspot: SSID Van-Life, passphrase Campfire2023!', 'Campfire2023!'),
    ('wifi: SSID HomeNet, psk Sunflower!88', 'Sunflower!88'),
]

# talk about passwords, keys, networks and arrows
STORED = [
    'the wifi key is on the fridge',
    'passwords are rotated every 90 days',
    'Passwort geändert',
    'Passwort geändert: siehe Vault',
    'the key rotation runs nightly',
    'SSID HomeNet is the guest network',
    'the API key is kept in Vault',
    'build → test → deploy',
    'Python 3.11 → 3.12',
    'node 18 -> 20 in CI',
    'the password hint changed: blue → green',
    'password policy: 8 → 12 chars',
    'password changed: old one expired, new one in the vault',
    'password changed: old policy → new policy',
    'Passwort geändert: alt → neu',
    'mot de passe changé : ancien → nouveau',
    'hasło zmienione: stare → nowe',
    'the router config changed: old firmware → new firmware',
    'wifi: SSID HomeNet, key on the router label',
    'the wifi code is written on the back of the router',
    'the wifi network HomeNet uses WPA3',
    'wifi: SSID HomeNet, key in 1Password',
    'router: the key feature is mesh support',
    'the router uses code from the vendor SDK',
    'the hotspot code expires at midnight',
    'wifi key rotation happens every quarter',
    'SSID HomeNet, key unchanged since 2023',
    'the router admin page is at 192.168.1.1',
    'wifi HomeNet has key management via RADIUS',
    'the wireless keyboard uses AA batteries',
    'router: SSID HomeNet, channel 11',
    'wifi: 5 GHz band, code name Falcon',
    'the password -> hashed with argon2id',
    'password changed: old: see wiki, new: see vault',
    'key changed: old → new format',
    'WLAN: SSID HomeNet, Schlüssel liegt im Tresor',
]


@pytest.mark.parametrize(("text", "values"), LABELLED)
def test_a_change_with_labelled_values_or_an_arrow_is_refused_and_both_values_redacted(
        text: str, values: list[str]) -> None:
    assert find_secrets(text) != [[]], text
    redacted, kinds = redact(text)
    assert kinds == ("password",) and not any(value in redacted for value in values), (text, redacted)


@pytest.mark.parametrize(("text", "value"), NETWORK_KEYS)
def test_a_network_key_named_by_a_short_word_is_refused_as_a_password(text: str, value: str | None) -> None:
    assert find_secrets(text) != [[]], text
    redacted, kinds = redact(text)
    assert kinds == ("password",) and (value is None or value not in redacted), (text, redacted)


@pytest.mark.parametrize("text", STORED)
def test_talk_about_passwords_keys_networks_and_arrows_is_stored(text: str) -> None:
    assert find_secrets(text) == [[]] and redact(text) == (text, ()), text


@pytest.mark.asyncio
@pytest.mark.usefixtures("one_model")
async def test_remember_refuses_them_naming_the_field_and_stores_the_talk(db_path) -> None:
    await refuses_and_stores(db_path, LABELLED[::6] + [(t, [v]) for t, v in NETWORK_KEYS[::6] if v], STORED[::6])
