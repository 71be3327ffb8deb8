"""A password's change in the word orders a trial stored (issue 25 §8): a change's verb before the word, a phrase
saying whose, then "from X to Y" in every language with change forms ("Cambié la contraseña del wifi de X a Y",
"Сменил пароль от wifi с X на Y", "das WLAN-Passwort von X zu Y geändert"), one word naming whose after the word
where a modifier follows its noun ("mot de passe wifi changé de X à Y"); what it was, then what it is now ("was X,
now Y", "antes X, ahora Y", "było X, teraz Y"); "the new one" after a password named on its line and a double dash
("vpn password -- X"); a passcode or an unlock code, a PIN by another name. Talk about passwords, a change with no
value and a lock code's rules stay stored."""

from __future__ import annotations

import pytest
from secret_wire import refuses_and_stores

from memvault.storage.secrets import find_secrets, redact

# (text, every password it holds): a change's verb before the word, a phrase saying whose, "from X to Y"
WORD_ORDER = [
    ('Cambié la contraseña del wifi de Perro11 a Gato22', ['Perro11', 'Gato22']),
    ('Ho cambiato la password del wifi da Gatto11 a Cane22', ['Gatto11', 'Cane22']),
    ('Ich habe das WLAN-Passwort von Alt123 zu Neu456 geändert', ['Alt123', 'Neu456']),
    ('Zmieniłem hasło do wifi z Kot111 na Pies222', ['Kot111', 'Pies222']),
    ('Сменил пароль от wifi с Кошка11 на Собака22', ['Кошка11', 'Собака22']),
    ('Mot de passe wifi changé de Soleil11 à Lune22', ['Soleil11', 'Lune22']),
    ('le mot de passe wifi est passé de Soleil11 à Lune22', ['Soleil11', 'Lune22']),
    ('cambiamos la contraseña del router de limon44 a fresa55', ['limon44', 'fresa55']),
    ('actualicé la contraseña de la base de datos de roble12 a pino34', ['roble12', 'pino34']),
    ('cambiaron la clave del servidor de Azul2020 a Rojo2021', ['Azul2020', 'Rojo2021']),
    ('ho modificato la password del server da fiume88 a lago99', ['fiume88', 'lago99']),
    ('abbiamo cambiato la password di admin da sole12 a luna34', ['sole12', 'luna34']),
    ('ich habe das Passwort vom Router von Tanne12 auf Fichte34 geändert', ['Tanne12', 'Fichte34']),
    ('wir haben das Passwort für den Server von Igel77 zu Dachs88 geändert', ['Igel77', 'Dachs88']),
    ('hab das Kennwort von Ahorn5x zu Buche6y geändert', ['Ahorn5x', 'Buche6y']),
    ('Zmieniliśmy hasło do routera z lipa12x na dąb34y', ['lipa12x', 'dąb34y']),
    ('zmieniłam hasło do poczty z Maj2023 na Czerwiec2024', ['Maj2023', 'Czerwiec2024']),
    ('ustawiłem hasło do serwera z kret55 na jeż66', ['kret55', 'jeż66']),
    ('Изменил пароль от почты с берёза12 на осина34', ['берёза12', 'осина34']),
    ('поменяли пароль для сервера с Зима2023 на Лето2024', ['Зима2023', 'Лето2024']),
    ('обновил пароль к роутеру с волк11 на лиса22', ['волк11', 'лиса22']),
    ("j'ai changé le mot de passe du wifi de Chat11 à Chien22", ['Chat11', 'Chien22']),
    ('nous avons modifié le mot de passe du serveur de rouge12 en bleu34', ['rouge12', 'bleu34']),
    ('mudei a senha do wifi de gato11 para cachorro22', ['gato11', 'cachorro22']),
    ('alteramos a senha do servidor de Sol2023 para Lua2024', ['Sol2023', 'Lua2024']),
    ('ik heb het wachtwoord van de router van appel12 naar peer34 gewijzigd', ['appel12', 'peer34']),
    ('Změnil jsem heslo k wifi z kocka11 na pes22', ['kocka11', 'pes22']),
    ('we changed the wifi password for the office from bluefish7 to greenfrog9', ['bluefish7', 'greenfrog9']),
    ('I rotated the root password on the NAS from walrus-8 to narwhal-9', ['walrus-8', 'narwhal-9']),
    ('la contraseña wifi cambió de Perro11 a Gato22', ['Perro11', 'Gato22']),
    ('la password wifi è passata da Gatto11 a Cane22', ['Gatto11', 'Cane22']),
    ('a senha wifi mudou de gato11 para rato22', ['gato11', 'rato22']),
    ('das Passwort wurde von Kirsche7 zu Pflaume8 geändert', ['Kirsche7', 'Pflaume8']),
]

# (text, every password it holds): what it was, then what it is now
WAS_NOW = [
    ('wifi password: was Sunflower88, now Tulip99x', ['Sunflower88', 'Tulip99x']),
    ('contraseña del wifi: antes Perro11, ahora Gato22', ['Perro11', 'Gato22']),
    ('Hasło do wifi: było Kot111, teraz Pies222', ['Kot111', 'Pies222']),
    ('WLAN-Passwort: vorher Alt123, jetzt Neu456', ['Alt123', 'Neu456']),
    ('mot de passe du wifi : avant Soleil11, maintenant Lune22', ['Soleil11', 'Lune22']),
    ('password del wifi: prima Gatto11, ora Cane22', ['Gatto11', 'Cane22']),
    ('senha do wifi: antes gato11, agora rato22', ['gato11', 'rato22']),
    ('wachtwoord van de wifi: eerst appel12, nu peer34', ['appel12', 'peer34']),
    ('пароль от wifi: было Кошка11, теперь Собака22', ['Кошка11', 'Собака22']),
    ('heslo k wifi: bylo kocka11, teď pes22', ['kocka11', 'pes22']),
    ('the vpn password was hunter22, now swordfish9', ['hunter22', 'swordfish9']),
    ('db password: was Kx93-lamp, now Qz71-desk', ['Kx93-lamp', 'Qz71-desk']),
    ('root password — was marigold7, now thistle8', ['marigold7', 'thistle8']),
    ('the admin password was tiger88 now lion99', ['tiger88', 'lion99']),
    ('wifi password: was Sunflower88; now Tulip99x', ['Sunflower88', 'Tulip99x']),
    ('la contraseña del router: antes limon44, ahora fresa55', ['limon44', 'fresa55']),
    ('la clave era Azul2020, ahora Rojo2021', ['Azul2020', 'Rojo2021']),
    ('hasło do poczty było Maj2023, teraz Czerwiec2024', ['Maj2023', 'Czerwiec2024']),
    ('Passwort für den Server: bisher Igel77, jetzt Dachs88', ['Igel77', 'Dachs88']),
    ('das Passwort war Tanne12, jetzt Fichte34', ['Tanne12', 'Fichte34']),
    ('le mot de passe était rouge12, maintenant bleu34', ['rouge12', 'bleu34']),
    ('la password era fiume88, ora lago99', ['fiume88', 'lago99']),
    ('a senha era Sol2023, agora Lua2024', ['Sol2023', 'Lua2024']),
    ('het wachtwoord was eik12, nu beuk34', ['eik12', 'beuk34']),
    ('пароль был Зима2023, теперь Лето2024', ['Зима2023', 'Лето2024']),
    ('пароль для почты: раньше берёза12, сейчас осина34', ['берёза12', 'осина34']),
    ('the smtp password used to be maple77, now birch88', ['maple77', 'birch88']),
    ('jira password: was cactus31, now agave32', ['cactus31', 'agave32']),
    ("mot de passe de l'admin : avant Chat11, désormais Chien22", ['Chat11', 'Chien22']),
    ('password di admin: prima sole12, adesso luna34', ['sole12', 'luna34']),
    ('heslo: dřív lipa12, nyní dub34', ['lipa12', 'dub34']),
]

# (text, every password it holds): "the new one" after a password named on its line; a double dash
NEW_ONE = [
    ('we rotated the vpn password; new one: Tulip99x', ['Tulip99x']),
    ('we changed the vpn password. The new one is Tulip99x', ['Tulip99x']),
    ('I reset the wifi password, the new one is kiwi-lamp-33', ['kiwi-lamp-33']),
    ('the db password expired; the new one: Qz71-desk', ['Qz71-desk']),
    ('rotated the root password again. New one - marigold77', ['marigold77']),
    ('the admin password leaked, the new one is thistle-8-owl', ['thistle-8-owl']),
    ('Forgot the jira password; the new one is cactus31', ['cactus31']),
    ('the smtp password changed. The new one will be birch88x', ['birch88x']),
    ('cambié la contraseña del wifi. La nueva: Gato22x', ['Gato22x']),
    ('la contraseña del router caducó; la nueva: fresa55', ['fresa55']),
    ('ich habe das Passwort geändert; das neue: Zitrone77', ['Zitrone77']),
    ('das WLAN-Passwort ist abgelaufen. Das neue ist Fichte34', ['Fichte34']),
    ("j'ai changé le mot de passe ; le nouveau : bleu34x", ['bleu34x']),
    ('le mot de passe a expiré, la nouvelle est rouge12x', ['rouge12x']),
    ('ho cambiato la password; la nuova è lago99x', ['lago99x']),
    ('mudei a senha; a nova é Lua2024', ['Lua2024']),
    ('het wachtwoord is verlopen; het nieuwe is peer34x', ['peer34x']),
    ('zmieniłem hasło; nowe: Pies222', ['Pies222']),
    ('сменил пароль; новый: Собака22', ['Собака22']),
    ('změnil jsem heslo; nové: pes22x', ['pes22x']),
    ('vpn password -- Tulip99x', ['Tulip99x']),
    ('the db password -- Qz71-desk', ['Qz71-desk']),
    ('root password -- marigold77', ['marigold77']),
    ('wifi password -- kiwi-lamp-33', ['kiwi-lamp-33']),
    ('Passwort -- Zitrone77', ['Zitrone77']),
    ('mot de passe -- Chien22x', ['Chien22x']),
    ('contraseña -- Gato22x', ['Gato22x']),
    ('hasło -- Pies222', ['Pies222']),
    ('пароль -- Собака22', ['Собака22']),
    ('the nas password -- "walrus-8"', ['walrus-8']),
]

# (text, the code): a passcode or an unlock code, a PIN by another name
LOCK_CODES = [
    'passcode for the door: 4711',
    'the passcode is 4711',
    'unlock code: 8822',
    'my iphone passcode is 739104',
    'the passcode for the alarm is 2580',
    'the unlock code for the gate is 9911',
    'Passcode: 5830',
    'the unlock code is 60217',
    'passcode to the front door is 4471',
    'the ipad passcode: 918273',
    'the phone unlock code is 3141',
    'unlock-code 7294',
    'door passcode: 4711',
    'the alarm passcode is 8264',
    'garage passcode: 3917',
    'the passcode for the safe is 902184',
    'unlock codes: 4711',
    'the laptop unlock code is 55013',
    'passcode for the building: 2846',
    'the passcode for the lockbox is 7351',
    'the shed passcode is 6082',
    'the padlock unlock code is 3927',
    'keypad passcode: 8153',
    'the passcode of the gate is 4096',
    'the tablet passcode is 271828',
    'unlock_code: 9051',
    'the passcode is now 7730',
    'the gate code is 4711',
    'the alarm code is 2580',
    'the entry passcode: 1859',
]

# talk about passwords and codes, a change with no value
TALK = [
    'passwords are hashed with argon2id',
    'passwords are rotated every 90 days',
    'reset your password via the portal',
    'Das Passwort ist abgelaufen',
    'the Stripe key is kept in AWS Secrets Manager',
    'Ich habe das Passwort geändert',
    'Cambié la contraseña ayer',
    'Das Passwort wird zu oft geändert',
    'the password hint changed: blue → green',
    'the password -- as agreed -- is in the vault',
    'the wifi password -- see the fridge',
    'the passcode must be 6 digits',
    'the passcode expires in 30 days',
    'passcode: 1234',
    'the unlock code is sent by SMS',
    'the password manager was replaced; the new one is Bitwarden',
    'the password policy changed. The new one is stricter',
    'the password reset link expired; the new one is on its way',
    'we changed the password policy, the new one is 12 characters',
    'the password expired. The new one is required',
    'my password stopped working; the new one is in the vault',
    'the password was weak, now strong',
    'the password was 8 chars, now 12 chars',
    'password length: was 8, now 12',
    'la contraseña era débil, ahora fuerte',
    'hasło było słabe, teraz silne',
    'Zmieniłem hasło wczoraj',
    'Сменил пароль вчера',
    'Сменил пароль на более надёжный',
    'ho cambiato la password ieri',
    'j\'ai changé le mot de passe ce matin',
    'mudei a senha ontem',
    'ich habe das Passwort von Hand geändert',
    'we changed the password from the wiki to the vault',
    'Cambié la contraseña del wifi de nuevo',
    'the laptop was slow, now fast',
    'Zmieniłem hasło do wifi na silniejsze',
]


@pytest.mark.parametrize(("text", "values"), WORD_ORDER + WAS_NOW + NEW_ONE)
def test_a_password_in_another_word_order_is_refused_and_every_one_redacted(text: str, values: list[str]) -> None:
    assert find_secrets(text) != [[]], text
    redacted, kinds = redact(text)
    assert kinds == ("password",) and not any(value in redacted for value in values), (text, redacted)


@pytest.mark.parametrize("text", LOCK_CODES)
def test_a_passcode_or_an_unlock_code_is_refused_as_a_pin(text: str) -> None:
    redacted, kinds = redact(text)
    assert kinds == ("PIN",) and not any(c.isdigit() for c in redacted.split(":")[-1].split(" is ")[-1]), (text, redacted)


@pytest.mark.parametrize("text", TALK)
def test_talk_about_passwords_and_codes_and_a_change_with_no_value_is_stored(text: str) -> None:
    assert find_secrets(text) == [[]] and redact(text) == (text, ()), text


@pytest.mark.asyncio
@pytest.mark.usefixtures("one_model")
async def test_remember_refuses_them_naming_the_field_and_stores_only_the_talk(db_path) -> None:
    await refuses_and_stores(db_path, (WORD_ORDER + WAS_NOW + NEW_ONE)[::5], TALK[::4])
