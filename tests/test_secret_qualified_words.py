"""A credential's word, one or two bare words saying whose or which ("prod", "root", "staging",
"администратора"), then ":" or "=" and the value (issue 25 §1.8): refused in every language of
``secret_words.tsv`` as "password for root:" and "Password (prod):" are, redacted, and refused in the
reason of a supersede or a forget; prose about a credential after such words, and placeholders, are stored."""

from __future__ import annotations

import pytest

from memvault.storage.errors import InvalidInput
from memvault.storage.secrets import find_secrets, redact

VALUE = "Zk9x2mQ7Lp4R"

QUALIFIED = [
    "Password prod: {}", "password root: {}", "API key prod: {}", "secret staging: {}",
    "db password staging = {}", "DB Password prod admin: {}", "password root := {}", "passwd web01: {}",
    "token github prod: {}", "Stripe key live: {}", "access token staging = {}", "pwd srv-db.internal: {}",
    "The password root: {}", "notes: wifi password guest: {}",
    # other languages of secret_words.tsv
    "пароль администратора: {}", "пароль root = {}", "mot de passe admin : {}", "Passwort root: {}",
    "Kennwort Produktion: {}", "contraseña producción: {}", "senha admin: {}", "hasło serwera: {}",
    "wachtwoord productie: {}", "parola admin: {}", "lösenord prod: {}",
    # the value on the next line
    "Password prod:\n{}",
]


@pytest.mark.parametrize("template", QUALIFIED)
def test_a_credential_after_its_word_and_a_bare_qualifier_is_refused_and_redacted(template: str) -> None:
    text = template.format(VALUE)
    assert find_secrets(text)[0]
    redacted, kinds = redact(text)
    assert VALUE not in redacted and kinds


STORED = [
    "Password reset: use the link", "password policy: 12 characters", "API key rotation: every 90 days",
    "secret santa: Bob", "password prod: <your-key>", "password prod: changeme", "password root: xxxx",
    "password prod: ${DB_PASSWORD}", "api key staging = <your-key>", "password hash: 5f4dcc3b5aa765d61d8327deb882cf99",
    "password expiry date: 2024-03-01", "token limit: 128k", "password manager setup: see the wiki",
    "secret rotation schedule: quarterly", "пароль администратора: смените его", "mot de passe admin : oublié",
    "Passwort Richtlinie: 12 Zeichen", "token budget per run: 4000", "API key prod: ask Dana",
    "password prod: $PROD_DB_PASSWORD", "password root = os.environ['ROOT_PW']",
    # what identifies or describes a credential, a flag's "id=", a table's cells
    "encryption key id: alias/app-2024", "API key name: ci-deploy-2024", "secret arn: arn:aws:secretsmanager:x1",
    "token type: Bearer2", "docker build --secret id=npmrc2,src=.npmrc .", "secret version = v2024a",
    "ACCESSKEY\tci\t2026-12-04T10:00:00Z\tActive",
]


@pytest.mark.parametrize("text", STORED)
def test_prose_and_placeholders_after_a_credential_word_and_a_qualifier_are_stored(text: str) -> None:
    assert find_secrets(text) == [[]]
    assert redact(text) == (text, ())


@pytest.mark.parametrize("template", ["Password prod: {}", "пароль администратора: {}", "secret staging = {}"])
def test_a_qualified_credential_is_refused_in_the_reason_of_supersede_and_forget(store, template: str) -> None:
    kept = store.remember(tenant="a", scope="s", content="harmless content")
    reason = "rotated: " + template.format(VALUE)
    with pytest.raises(InvalidInput) as err:
        store.supersede(tenant="a", id=kept.id, content="new content", reason=reason)
    assert err.value.field == "reason" and VALUE not in str(err.value)
    with pytest.raises(InvalidInput) as err:
        store.forget(tenant="a", id=kept.id, reason=reason)
    assert err.value.field == "reason"
    assert store.get(tenant="a", id=kept.id).content == "harmless content"
