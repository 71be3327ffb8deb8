"""A password's change in other forms (issue 25 §8): a change's auxiliary, "from X" and "to" or an arrow ("went from X
=> Y", "moved from X to Y"), the old value between labels ("(old) X, (new) Y", "old: X new: Y"), a change's verb and
":" before an arrow ("updated: X → Y"), in every language with change forms and in Russian, Polish and Czech ("Пароль
изменён с X на Y", "Hasło zmieniono z X na Y"), a label after the word ("El password nuevo de la base es X"); a
clause between commas or dashes before the verb ("the password, as of Monday, is X", "the password — the one Bob set
— is X"). Talk about how passwords are hashed or what a policy asks, a change of something else, and a clause before
what is no password stay stored."""

from __future__ import annotations

import pytest
from secret_wire import refuses_and_stores

from memvault.storage.secrets import find_secrets, redact

# (text, every password it holds): a change's forms
CHANGES = [
    ('db password went from hunter2 => Tr0ub4dor&3', ['hunter2', 'Tr0ub4dor&3']),
    ('The wifi password moved from bluefish7 to greenfrog9', ['bluefish7', 'greenfrog9']),
    ('the root password went from lobster5 to walrus8', ['lobster5', 'walrus8']),
    ('the vpn password went from cobalt3 -> indigo4', ['cobalt3', 'indigo4']),
    ('the admin password moved from juniper1 → cypress2', ['juniper1', 'cypress2']),
    ('the smtp password has gone from maple77 to birch88', ['maple77', 'birch88']),
    ('the nas password jumped from otter12 to badger34', ['otter12', 'badger34']),
    ('the db password switched from ember5 => cinder6', ['ember5', 'cinder6']),
    ('the ssh passphrase was rotated from plum-tree-4 -> pear-tree-5', ['plum-tree-4', 'pear-tree-5']),
    ('router pw got set from falcon1 to hawk2', ['falcon1', 'hawk2']),
    ('the passphrase changed from quartz7 => mica8', ['quartz7', 'mica8']),
    ('password (old) bluefish7, (new) greenfrog9', ['bluefish7', 'greenfrog9']),
    ('wifi password (old) tulip44 (new) lily55', ['tulip44', 'lily55']),
    ('db password: (old) heron9, (new) egret10', ['heron9', 'egret10']),
    ('the admin password old: lynx42 new: puma43', ['lynx42', 'puma43']),
    ('root password - old: sable8, new: marten9', ['sable8', 'marten9']),
    ('vpn pw old=garnet1 new=ruby22', ['garnet1', 'ruby22']),
    ('wifi password updated: bluefish7 → greenfrog9', ['bluefish7', 'greenfrog9']),
    ('db password changed: hunter2 -> swordfish9', ['hunter2', 'swordfish9']),
    ('admin pw rotated: kiwi11 => mango22', ['kiwi11', 'mango22']),
    ('the smtp password, updated: apricot5 ➜ damson6', ['apricot5', 'damson6']),
    ('Пароль изменён с bluefish7 на greenfrog9', ['bluefish7', 'greenfrog9']),
    ('пароль от роутера сменили с кедр12 на сосна34', ['кедр12', 'сосна34']),
    ('пароль изменен на ромашка55', ['ромашка55']),
    ('пароль поменяли на василек77', ['василек77']),
    ('Hasło zmieniono z bluefish7 na greenfrog9', ['bluefish7', 'greenfrog9']),
    ('hasło do wifi zostało zmienione na jabłko55', ['jabłko55']),
    ('hasło zmieniłem na gruszka12', ['gruszka12']),
    ('heslo bylo změněno z lipa12 na dub34', ['lipa12', 'dub34']),
    ('heslo změněno na javor56', ['javor56']),
    ('El password nuevo de la base es greenfrog9', ['greenfrog9']),
    ('la contraseña nueva del router es mariposa8', ['mariposa8']),
    ('la contraseña antigua era girasol3', ['girasol3']),
    ('Das Passwort wurde von Apfel → Birne geändert', ['Apfel', 'Birne']),
    ('das Passwort wurde von Kirsche7 -> Pflaume8 gesetzt', ['Kirsche7', 'Pflaume8']),
    ('le mot de passe est passé de papillon7 → libellule8', ['papillon7', 'libellule8']),
    ('la senha mudou de caju12 → manga34', ['caju12', 'manga34']),
    ('the git password went from raccoon4 to possum5', ['raccoon4', 'possum5']),
    ('the mail password goes from tiger88 to lion99 on Monday', ['tiger88', 'lion99']),
    ('the ftp password moved from sparrow3 -> finch4', ['sparrow3', 'finch4']),
    ('the ldap password shifted from larch2 to spruce3', ['larch2', 'spruce3']),
    ("the kiosk password went from 'kumquat7' to 'lychee8'", ['kumquat7', 'lychee8']),
    ('the printer password was updated: coral12 -> reef13', ['coral12', 'reef13']),
    ('wifi pw switched: orchid5 → violet6', ['orchid5', 'violet6']),
    ('alarm panel password reset: hazel21 ➜ rowan22', ['hazel21', 'rowan22']),
    ('the jenkins password (old) walnut8 (new) almond9', ['walnut8', 'almond9']),
    ('the jira password: old: cactus31, new: agave32', ['cactus31', 'agave32']),
    ('the staging password old = nebula5 / new = quasar6', ['nebula5', 'quasar6']),
    ('passphrase (previous) amber-fox-3, (new) silver-owl-4', ['amber-fox-3', 'silver-owl-4']),
    ('Passwort alt: Tanne12, neu: Fichte34', ['Tanne12', 'Fichte34']),
    ('mot de passe ancien : cerise12, nouveau : prune34', ['cerise12', 'prune34']),
    ('contraseña antigua: limon12, nueva: naranja34', ['limon12', 'naranja34']),
    ('la contraseña pasó de limon5 → naranja6', ['limon5', 'naranja6']),
    ('la password è passata da mela12 → pera34', ['mela12', 'pera34']),
    ('het wachtwoord is gewijzigd van appel12 → peer34', ['appel12', 'peer34']),
    ('пароль был изменён с ясень12 на клён34', ['ясень12', 'клён34']),
    ('пароль от почты обновлен на сирень56', ['сирень56']),
    ('hasło zostało zmienione z lipa12 na grab34', ['lipa12', 'grab34']),
    ('hasło do routera ustawiono na wierzba78', ['wierzba78']),
    ('heslo bylo nastaveno na bříza90', ['bříza90']),
    ('пароль: старый: дуб12, новый: бук34', ['дуб12', 'бук34']),
]

# (text, every password it holds): a clause between the word and its verb
CLAUSES = [
    ('The staging password — the one Bob set — is pumpkin42', ['pumpkin42']),
    ('The vpn password, as of Monday, is kettle-drum-77', ['kettle-drum-77']),
    ('the wifi password (the new one) is marigold8', ['marigold8']),
    ('the db password -- as of today -- is saffron31', ['saffron31']),
    ('the root password, since yesterday, is barley77', ['barley77']),
    ('the admin password – set by Ana – is clover19', ['clover19']),
    ('the router password, after the reset, is thistle5', ['thistle5']),
    ('our vpn password, effective today, is granite-ox-12', ['granite-ox-12']),
    ('the guest wifi password, for now, is lemonade4', ['lemonade4']),
    ('the prod db password, as of 3 March, is harbor-light-9', ['harbor-light-9']),
    ('the staging password — as agreed — is papaya71', ['papaya71']),
    ('the wifi password (for guests) is sunflower88', ['sunflower88']),
    ('the db password -- the prod one -- is ledger-stone-4', ['ledger-stone-4']),
    ('the vpn password, as of last week, is ocelot-22', ['ocelot-22']),
    ('the NAS password, starting tomorrow, is cobalt-fern-8', ['cobalt-fern-8']),
    ('the root password, per Alice, is mistral77', ['mistral77']),
    ('the admin password, I think, is walrus-hat-3', ['walrus-hat-3']),
    ("the printer password — don't laugh — is pancake42", ['pancake42']),
    ('the camera password – the default one – is admin12345', ['admin12345']),
    ('the jira password, until Friday, is quokka-19', ['quokka-19']),
    ('the ssh passphrase, as of this morning, is velvet-rain-6', ['velvet-rain-6']),
    ('our wifi password, after the upgrade, was lagoon2024', ['lagoon2024']),
    ('the staging db password — rotated yesterday — is tundra-91', ['tundra-91']),
    ('the backup password, for the record, is falcon-ridge-5', ['falcon-ridge-5']),
    ('the router password, btw, is kiwi-lamp-33', ['kiwi-lamp-33']),
    ('Das Passwort, seit Montag, ist Zitrone77', ['Zitrone77']),
    ('le mot de passe, depuis lundi, est papillon42', ['papillon42']),
    ('la contraseña, desde el lunes, es girasol42', ['girasol42']),
    ('the password — as of Monday — is toucan-9', ['toucan-9']),
    ("the wiki password, to be clear, is porcupine12", ['porcupine12']),
    ('the mail password -- the shared one -- is seagull-404', ['seagull-404']),
    ('the guest password, since the move, is cormorant73', ['cormorant73']),
]

# (text, every password it holds): a value shaped like a hash's name, or beside talk about hashing
NEAR_HASHES = [
    ('the password is sha256rocks9', ['sha256rocks9']),
    ('the db password is bcrypt-Kx93', ['bcrypt-Kx93']),
    ('passwords are hashed with argon2id; the admin password is walnut-77', ['walnut-77']),
    ('the md5 of the file is fine; the password went from kiwi-22 to hunter22', ['kiwi-22', 'hunter22']),
    ('password: argon2id-Lq7z', ['argon2id-Lq7z']),
    ('the vpn password is md5isdead42', ['md5isdead42']),
    ('passwords are hashed with bcrypt, and the root password is tamarind88', ['tamarind88']),
    ('the wifi password is sha1mple2024', ['sha1mple2024']),
    ('passwords must be rotated every 90 days; the current password is kiwi-cloud-31', ['kiwi-cloud-31']),
    ('the password is scrypted9', ['scrypted9']),
]

# a change of a policy, a place or a word saying something about a password
CHANGE_TALK = [
    'the password policy went from 8 to 12 characters',
    'the password reset page moved from /auth to /account',
    'password rotation went from monthly to quarterly',
    'the password manager moved from LastPass → Bitwarden',
    'password storage updated: plaintext → hashed',
    'the password prompt (old) login page, (new) modal',
    'password field old: optional new: required',
    'password: old: see vault, new: see vault',
    'the password went from the wiki to the vault',
    'password expiry moved from 30 to 90 days',
    'the password hint changed: blue → green',
    'Пароль изменён вчера вечером',
    'пароль сменили на более надёжный',
    'пароль изменён с понедельника',
    'hasło zmieniono na silniejsze',
    'hasło zostało zmienione wczoraj',
    'hasło zmieniono z powodu wycieku',
    'heslo bylo změněno na silnější',
    'Das Passwort wurde von Hand geändert',
    'Das Passwort wurde von IT → Sicherheit gemeldet',
    'la contraseña nueva es obligatoria',
    'El password nuevo debe tener 12 caracteres',
    'le nouveau mot de passe est obligatoire',
    'the new password is required',
    'the old password is wrong',
    'we moved from Okta to Entra',
    'the build went from 3 minutes to 2',
    'the service moved from us-east-1 to eu-west-1',
    'the password length went from 8 → 12',
    'password reuse went from allowed to blocked',
]

# a clause between the word and its verb, then what is no password
CLAUSE_TALK = [
    'the password, as of Monday, is required',
    'the password — the one Bob set — is in 1Password',
    'the password, since yesterday, is expired',
    'the password (the new one) is in the vault',
    'the wifi password, for guests, is on the fridge',
    'the password, as discussed, is not shared',
    'the password — for now — is unchanged',
    'the password, per policy, is 16 characters',
    'the password, I think, is wrong',
    'the router, as of Monday, is back online',
    'the server — the old one — is down',
    'the meeting, as of Monday, is at 10',
    'the password, after the reset, is temporary',
    'the password, for the record, is stored hashed',
    'the password -- as agreed -- is in the vault',
    'Das Passwort, seit Montag, ist falsch',
    'la contraseña, desde el lunes, es obligatoria',
    'the password, which is required, is missing',
    'the password, as of Monday, is no longer shared',
    'the password — set by Bob — is too short',
    'the password, since the audit, is 16 characters',
    'the password, for now, is fine',
    'the password -- per IT -- is not to be written down',
    'the password, as of v2, is hashed with argon2id',
    'the password, frankly, is weak',
    'the password — the new one — is stronger',
    'the password, in short, is compromised',
    'the deploy, as of Monday, is automatic',
    'the token count, as of today, is 12000',
    'the password, unlike the PIN, is required',
]

# how passwords are hashed or what a policy asks; Polish "to" before a noun or a pronoun
POLICY_TALK = [
    'Passwords are now hashed with argon2id instead of bcrypt',
    'passwords are hashed with bcrypt',
    'passwords are stored as bcrypt hashes',
    'passwords are hashed using pbkdf2 with 600000 iterations',
    'the password is hashed with sha256 and a salt',
    'Passwords must be rotated every 90 days',
    'passwords must be at least 12 characters',
    'the password must be at least 12 characters long',
    'passwords are now stored as argon2id hashes',
    'passwords went from md5 to bcrypt',
    'password hashing moved from sha1 to argon2id',
    'the password hash changed from md5 → sha256',
    'we moved passwords from bcrypt to argon2id',
    'password storage switched from sha1 => bcrypt',
    'passwords are salted and hashed with scrypt',
    'password hashing — as of v2 — is argon2id',
    'the password is argon2id hashed',
    'passwords are hashed with sha512 now',
    'the password hash is sha256',
    'passwords use argon2id since v3',
    'password hashing is pbkdf2 with sha256',
    'passwords are hashed as sha-256',
    'the password is stored as md5',
    'password: bcrypt',
    'the password must be rotated every 60 days',
    'passwords expire after 90 days',
    'passwords must contain 1 digit and 1 symbol',
    'the password must be changed every 3 months',
    'passwords are checked against haveibeenpwned',
    'the passphrase must be 4 words or more',
    'Passwörter werden mit argon2id gehasht',
    'les mots de passe sont hachés avec bcrypt',
    'hasło to priorytet',
    'hasło to coś, czego nie zapomnisz',
    'hasło to podstawa bezpieczeństwa',
    'hasło to klucz do sukcesu',
    'the password policy, as of Monday, is 12 characters',
    'the password — the one Bob set — is in the vault',
    'the password (old one) is in the vault',
    'the password moved from the wiki to the vault',
    'the password went from weak to strong',
    'password (old) see vault, (new) see vault',
    'password old: weak new: strong',
    'hasło zmieniono wczoraj',
    'пароль изменён вчера',
    'пароль сменили на более длинный',
    'hasło zmieniono na dłuższe',
    'El password nuevo de la base es obligatorio',
    'the password reset went from 3 steps to 1',
    'the password length went from 8 to 12',
    'password rotation moved from 30 → 90 days',
    'passwords are rotated every 90 days as of 2024',
    'password must contain at least 1 digit',
    'hasło to teraz wymagane',
]


@pytest.mark.parametrize(("text", "values"), CHANGES + CLAUSES + NEAR_HASHES)
def test_a_password_in_a_change_or_after_a_clause_is_refused_and_every_one_redacted(text: str, values: list[str]) -> None:
    assert find_secrets(text) != [[]], text
    redacted, kinds = redact(text)
    assert kinds == ("password",) and not any(value in redacted for value in values), (text, redacted)


@pytest.mark.parametrize("text", CHANGE_TALK + CLAUSE_TALK + POLICY_TALK)
def test_change_clause_hashing_and_policy_talk_is_stored(text: str) -> None:
    assert find_secrets(text) == [[]] and redact(text) == (text, ()), text


@pytest.mark.asyncio
@pytest.mark.usefixtures("one_model")
async def test_remember_refuses_them_naming_the_field_and_stores_only_the_talk(db_path) -> None:
    await refuses_and_stores(db_path, (CHANGES + CLAUSES + NEAR_HASHES)[::4], (CHANGE_TALK + CLAUSE_TALK + POLICY_TALK)[::4])
