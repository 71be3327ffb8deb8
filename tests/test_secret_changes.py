"""A password's change written in prose (trial verify64 N8, ``storage/secret_changes.py``): every change's verb,
arrow and word for the new value after a word for password, in English, French, German, Spanish, Italian,
Portuguese and Dutch, puts a password there ("got bumped to X", "password --> X", "a été changé en X", "wurde auf X
geändert", "se cambió a X", "cambié la contraseña a X"), and "from X to Y" puts two, as do "changed X ➜ Y", "pw: X →
Y" and "from old: X to new: Y" (trial verify66 N1); so do "the password, which I changed, is X" and "now" in Polish,
Russian, Ukrainian, Czech, Swedish, Turkish, Japanese, Chinese and Korean. Talk about a password's policy ("the
password's lockout threshold is 5 attempts") and ordinary change talk stay stored."""

from __future__ import annotations

import pytest
from mcp import Client

from memvault.server.app import build_server
from memvault.server.config import Config
from memvault.storage.secrets import find_secrets, redact

# (text, every password it holds)
REFUSED = [
    # English: a change's verb and "to", "from X to Y", arrows, a verb and a determiner before the word
    ("the password was changed from old123 to kiwi2026", ["old123", "kiwi2026"]),
    ("the wifi password was changed from old123 to kiwi2026", ["old123", "kiwi2026"]),
    ("the admin password was changed from tamarind to pelican", ["tamarind", "pelican"]),
    ("the password was changed from hunter2 to something stronger", ["hunter2"]),
    ("the password changed from letmein to quokka", ["letmein", "quokka"]),
    ("the password went from hunter2 to kiwi2026", ["hunter2", "kiwi2026"]),
    ("password --> quokka", ["quokka"]),
    ("Password ==> toucan", ["toucan"]),
    ("the vpn password ⟶ heron", ["heron"]),
    ("the wifi password got bumped to hunter22", ["hunter22"]),
    ("the admin password got bumped to parsnip", ["parsnip"]),
    ("the db password was modified to marzipan", ["marzipan"]),
    ("the root password has been swapped to kumquat", ["kumquat"]),
    ("our password got rolled over to wombat last night", ["wombat"]),
    ("the password was reverted to sunflower", ["sunflower"]),
    ("the password's been bumped to kestrel", ["kestrel"]),
    ("we bumped the wifi password to tamarind", ["tamarind"]),
    ("I modified the admin password to gingersnap", ["gingersnap"]),
    # French
    ("Le mot de passe a été changé en papillon", ["papillon"]),
    ("le mot de passe a été modifié en tournesol", ["tournesol"]),
    ("Le mot de passe du wifi a été réinitialisé à coquelicot", ["coquelicot"]),
    ("mot de passe changé en libellule hier soir", ["libellule"]),
    ("le mot de passe est passé de papillon à libellule", ["papillon", "libellule"]),
    ("j'ai changé le mot de passe en grenouille", ["grenouille"]),
    ("le mot de passe est maintenant coquelicot", ["coquelicot"]),
    ("mot de passe : papillon", ["papillon"]),
    # German: the participle after the value too
    ("Das Passwort wurde auf Zitrone geändert", ["Zitrone"]),
    ("das WLAN-Passwort wurde auf Pfirsich gesetzt", ["Pfirsich"]),
    ("Das Passwort wurde geändert auf Himbeere", ["Himbeere"]),
    ("Das Passwort wurde von Apfel auf Zitrone geändert", ["Apfel", "Zitrone"]),
    ("ich habe das Passwort auf Sonnenblume geändert", ["Sonnenblume"]),
    ("Passwort auf Kirschbaum zurückgesetzt", ["Kirschbaum"]),
    ("Das Passwort ist jetzt Zitrone", ["Zitrone"]),
    ("Das Passwort lautet Zitrone", ["Zitrone"]),
    # Spanish
    ("La contraseña se cambió a mango", ["mango"]),
    ("la contraseña fue cambiada a girasol", ["girasol"]),
    ("la contraseña del router se restableció a mariposa", ["mariposa"]),
    ("cambié la contraseña a tortuga", ["tortuga"]),
    ("la contraseña se cambió de mango a girasol", ["mango", "girasol"]),
    ("la contraseña ahora es mariposa", ["mariposa"]),
    ("contraseña nueva: mariposa", ["mariposa"]),
    # Italian
    ("la password è stata cambiata in girasole", ["girasole"]),
    ("ho cambiato la password in farfalla", ["farfalla"]),
    ("la password è stata reimpostata a tartaruga", ["tartaruga"]),
    ("la password è girasole", ["girasole"]),
    # Portuguese
    ("a senha foi alterada para girassol", ["girassol"]),
    ("a senha mudou para borboleta", ["borboleta"]),
    ("mudei a senha para tartaruga", ["tartaruga"]),
    ("a senha do wifi foi redefinida para jabuticaba", ["jabuticaba"]),
    ("a senha é girassol", ["girassol"]),
    # Dutch
    ("het wachtwoord is gewijzigd naar zonnebloem", ["zonnebloem"]),
    ("het wachtwoord is naar zonnebloem gewijzigd", ["zonnebloem"]),
    # a change's verb (perhaps after ":"), perhaps "from", X and an arrow; a word for password, ":", X and an arrow
    # (trial verify66 N1)
    ("password: changed from apple7 --> banana8", ["apple7", "banana8"]),
    ("wifi password: changed from maple3 -> cedar4", ["maple3", "cedar4"]),
    ("admin password: updated from raven1 --> crow22", ["raven1", "crow22"]),
    ("the db password changed from otter9 => beaver7", ["otter9", "beaver7"]),
    ("router password changed hazel ➜ willow", ["hazel", "willow"]),
    ("vpn password changed lotus ⇒ orchid", ["lotus", "orchid"]),
    ("server password rotated quince ➔ medlar", ["quince", "medlar"]),
    ("the nas password changed fennel ➡ sorrel", ["fennel", "sorrel"]),
    ("pw: mango → papaya", ["mango", "papaya"]),
    ("das Passwort wurde geändert Apfel → Birne", ["Apfel", "Birne"]),
    ("le mot de passe a été changé de papillon → libellule", ["papillon", "libellule"]),
    ("la contraseña se cambió de mango → girasol", ["mango", "girasol"]),
    ("pw: basil → thyme", ["basil", "thyme"]),
    ("password: juniper ⟹ spruce", ["juniper", "spruce"]),
    ("pwd: acorn ↦ chestnut", ["acorn", "chestnut"]),
    ("passwd: tulip » daisy", ["tulip", "daisy"]),
    ('password: "quince" → "medlar"', ["quince", "medlar"]),
    ("pwd changed to rosemary9", ["rosemary9"]),
    ("passwd was reset to marigold", ["marigold"]),
    # labels of the old and the new value inside "from X to Y", a quoted old value
    ("The root password was updated from old: lynx to new: ocelot", ["lynx", "ocelot"]),
    ("The wifi password was changed from old: falcon to new: eagle", ["falcon", "eagle"]),
    ("the admin password changed from old: pecan to new: walnut", ["pecan", "walnut"]),
    ("the db password was rotated from old - ember to new - cinder", ["ember", "cinder"]),
    ("the root password was changed from old: 'garnet' to new: 'topaz'", ["garnet", "topaz"]),
    ("the root password was changed from 'garnet' to 'topaz'", ["garnet", "topaz"]),
    ("password updated from old=quill7 to new=inkwell8", ["quill7", "inkwell8"]),
    # a clause between commas before the verb
    ("the vault master password, which I changed yesterday, is cardamom5", ["cardamom5"]),
    ("the wifi password, which we rotated last week, is marmalade7", ["marmalade7"]),
    ("the admin password, which Tom set on Monday, is pumpernickel", ["pumpernickel"]),
    ("the router password, which I reset this morning, is nectarine42", ["nectarine42"]),
    ("our vpn password, that we changed yesterday, is tangerine", ["tangerine"]),
    ("the NAS password, which nobody knows, is cobblestone", ["cobblestone"]),
    # "now" in languages with no change forms: Polish, Russian, Ukrainian, Czech, Swedish, Turkish, Japanese, Chinese,
    # Korean
    ("hasło to teraz sosna77", ["sosna77"]),
    ("hasło jest teraz świerk42", ["świerk42"]),
    ("Hasło do routera to teraz jodła9", ["jodła9"]),
    ("hasło teraz to modrzew31", ["modrzew31"]),
    ("пароль теперь береза12", ["береза12"]),
    ("пароль сейчас кедр77", ["кедр77"]),
    ("пароль от роутера теперь сосна55", ["сосна55"]),
    ("пароль тепер ясен44", ["ясен44"]),
    ("пароль до wifi тепер дуб123", ["дуб123"]),
    ("heslo je teď javor66", ["javor66"]),
    ("heslo je nyní buk21", ["buk21"]),
    ("lösenordet är numera ek42", ["ek42"]),
    ("şifre artık çınar55", ["çınar55"]),
    ("şifre şimdi ladin88", ["ladin88"]),
    ("パスワードは今 sakura77", ["sakura77"]),
    ("密码现在是 songshu88", ["songshu88"]),
    ("비밀번호는 이제 sonamu99", ["sonamu99"]),
]

STORED = [
    # a password policy's attribute, then a number or a word that is no password
    "the password's lockout threshold is 5 attempts", "the password's expiry is 90 days",
    "the password's minimum length is 12 characters", "the password's rotation period is 90 days",
    "the password's history depth is 5 passwords", "the password's complexity rules are in the wiki",
    "the password's lockout is 10 attempts", "the password's maximum age is 60 days",
    "the password lockout threshold is 5 attempts", "password expiry was changed to 60 days",
    "the password got bumped to 16 characters", "the password was changed from 8 to 12 characters",
    "the password changed from monthly to quarterly", "the password changed to quarterly rotation",
    # ordinary change talk
    "we changed the password policy to 12 characters", "password reset flow moved to the new page",
    "the password manager changed to 1Password", "changed from Slack to Teams", "we changed from Slack to Teams",
    "the password policy changed from 8 to 12 characters", "the password requirements were updated to require symbols",
    "the password was changed from weak to strong", "the password was changed from the default to a random one",
    "we switched the password manager from LastPass to Bitwarden", "the password's owner changed to Maria",
    "the password was changed to the one in the vault", "We switched the wifi password to WPA3",
    "I changed my password to a longer one", "Reset the password to something only you know",
    "password -> see the vault", "password updated to match the new policy",
    # other languages: why, when, how or where a change was made
    "Das Passwort wurde auf Wunsch geändert", "Das Passwort wurde auf Anfrage zurückgesetzt",
    "das Passwort ist in Ordnung", "Passwort wurde auf 12 Zeichen geändert", "Das Passwort wird zu oft geändert",
    "Das Passwort wurde in der Nacht geändert", "le mot de passe a été changé en urgence",
    "le mot de passe a été changé en 2024", "le mot de passe est passé à 12 caractères",
    "la contraseña se cambió por seguridad", "la contraseña se cambió a las 10", "la contraseña se cambió a mediodía",
    "la password è stata cambiata in fretta", "a senha foi alterada por segurança", "a senha foi alterada em março",
    "het wachtwoord is op maandag gewijzigd", "het wachtwoord is gewijzigd in de instellingen",
    # arrows in ordinary text, a change of a policy by an arrow, labels before words that are no password
    "password rotation moved to quarterly", "Settings → Password → Change", "Menu » Settings » Password",
    "password: see the vault → Infra", "the password changed → notify the team", "password: policy → 12 characters",
    "the password policy changed from 8 → 12 characters", "password: changed from monthly --> quarterly",
    "the password rotation changed from monthly ➜ quarterly", "old password → new password", "pw -> see vault",
    "status changed open → closed", "the password hint changed from blue → green", "password changed: see → vault",
    "the version changed from 3.11 → 3.12",
    "le « mot de passe » est obligatoire", "Le champ « mot de passe » doit contenir 12 caractères",
    "the password changed from old: weak to new: strong", "the password was changed from old: default to new: random",
    # a clause between commas, then what is no password
    "the router, which I rebooted yesterday, is fine now", "the router, which I changed yesterday, is fine now",
    "the password, which is required, is missing", "the password, which I changed yesterday, is in the vault",
    "the password, which expires monthly, is stored in the vault",
    # "now" before what is no password, and ordinary "now" sentences
    "teraz to jest ważne", "serwer jest teraz wyłączony", "hasło jest teraz wymagane", "пароль теперь обязателен",
    "пароль теперь нужен", "теперь всё работает", "сейчас идёт дождь", "heslo je teď povinné",
    "lösenordet är nu ändrat", "şifre artık gerekli", "パスワードは今必要です",
]


@pytest.mark.parametrize(("text", "values"), REFUSED)
def test_a_password_a_change_puts_or_replaces_is_refused_and_every_one_redacted(text: str, values: list[str]) -> None:
    assert find_secrets(text) != [[]], text
    redacted, kinds = redact(text)
    assert kinds == ("password",) and not any(value in redacted for value in values), (text, redacted)


@pytest.mark.parametrize("text", STORED)
def test_policy_and_ordinary_change_talk_is_stored(text: str) -> None:
    assert find_secrets(text) == [[]] and redact(text) == (text, ()), text


@pytest.mark.asyncio
@pytest.mark.usefixtures("one_model")
@pytest.mark.parametrize(("text", "values"), REFUSED)
async def test_remember_refuses_it_naming_the_field_and_stores_nothing(db_path, text: str, values: list[str]) -> None:
    async with Client(build_server(Config(db=db_path))) as c:
        fields = [({"content": text}, "content"), ({"content": "Router notes", "tags": [text]}, "tags[0]")]
        for args, field in fields[:1 if len(text) > 64 else 2]:  # (a tag's limit is 64 characters)
            refused = await c.call_tool("remember", args)
            said = refused.content[0].text
            assert refused.is_error and said.startswith(f"{field}: ") and "password" in said, said
            assert not any(value in said for value in values), said
        listed = await c.call_tool("recall", {"query": "", "scope": "default"})
    assert listed.structured_content["memories"] == []


@pytest.mark.asyncio
@pytest.mark.usefixtures("one_model")
async def test_remember_stores_policy_and_change_talk_as_written(db_path) -> None:
    listed = []
    async with Client(build_server(Config(db=db_path))) as c:
        for at in range(0, len(STORED), 50):  # a scope for each 50, a listing's limit
            for text in STORED[at:at + 50]:
                stored = await c.call_tool("remember", {"content": text, "scope": f"s{at}", "check_similar": False})
                assert not stored.is_error, (text, stored.content[0].text)
            page = await c.call_tool("recall", {"query": "", "scope": f"s{at}", "limit": 50})
            listed += [m["content"] for m in page.structured_content["memories"]]
    assert sorted(listed) == sorted(STORED)


@pytest.mark.slow
def test_over_stdio_a_changed_password_is_refused_and_nothing_stored(db_path) -> None:
    from wire import StdioServer

    server = StdioServer(db_path)
    try:
        for text, values in REFUSED[::6]:
            answer = server.request("tools/call", {"name": "remember", "arguments": {"content": text}})
            said = answer["result"]["content"][0]["text"]
            assert answer["result"]["isError"] and said.startswith("content: ") and "password" in said, said
            assert not any(value in said for value in values), said
        kept = server.request("tools/call", {"name": "remember", "arguments": {"content": STORED[0]}})
        assert not kept["result"]["isError"], kept
        listed = server.request("tools/call", {"name": "recall", "arguments": {"query": "", "scope": "default"}})
    finally:
        server.close()
    assert [m["content"] for m in listed["result"]["structuredContent"]["memories"]] == [STORED[0]]
