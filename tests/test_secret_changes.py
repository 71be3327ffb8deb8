"""A password's change written in prose (trial verify64 N8, ``storage/secret_changes.py``): every change's verb,
arrow and word for the new value after a word for password, in English, French, German, Spanish, Italian,
Portuguese and Dutch, puts a password there ("got bumped to X", "password --> X", "a été changé en X", "wurde auf X
geändert", "se cambió a X", "cambié la contraseña a X"), and "from X to Y" puts two. Talk about a password's policy
("the password's lockout threshold is 5 attempts") and ordinary change talk stay stored."""

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
        for args, field in (({"content": text}, "content"), ({"content": "Router notes", "tags": [text]}, "tags[0]")):
            refused = await c.call_tool("remember", args)
            said = refused.content[0].text
            assert refused.is_error and said.startswith(f"{field}: ") and "password" in said, said
            assert not any(value in said for value in values), said
        listed = await c.call_tool("recall", {"query": "", "scope": "default"})
    assert listed.structured_content["memories"] == []


@pytest.mark.asyncio
@pytest.mark.usefixtures("one_model")
async def test_remember_stores_policy_and_change_talk_as_written(db_path) -> None:
    async with Client(build_server(Config(db=db_path))) as c:
        for text in STORED:
            stored = await c.call_tool("remember", {"content": text, "check_similar": False})
            assert not stored.is_error, (text, stored.content[0].text)
        listed = await c.call_tool("recall", {"query": "", "scope": "default", "limit": 50})
    assert sorted(m["content"] for m in listed.structured_content["memories"]) == sorted(STORED)


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
