"""A plain-word password refused whatever follows it (verify 61 item 4, findings N2 and N9; ``storage/secret_plain.py``):
after a word for password and its verb, a clause, punctuation, a dash, "and ...", "so ...", a parenthesis; after the word
and only a space ("admin password letmein", a tag "pass hunter2"); after "=" in an environment line ("set
DB_PASSWORD=sunshine in prod"); in every free-text field. Words about a password stay stored whatever follows them."""

from __future__ import annotations

import pytest

from memvault.storage.errors import InvalidInput
from memvault.storage.secrets import find_secrets, redact

# A word for password and its verb, in languages of the word table.
SAID = ["The admin password is {w}", "the VPN password is {w}", "Das Passwort ist {w}", "le mot de passe est {w}",
        "la contraseña es {w}", "het wachtwoord is {w}", "la password è {w}", "Password: {w}"]
PLAIN = ["letmein", "bluemoon", "sonnenblume", "zorbaklint"]
# What follows the word: a clause after punctuation, a dash, a parenthesis, a word opening another clause, a line.
TRAILING = [", don't share it", "; rotate it monthly", " (temporary)", " - do not share",
            " -- do not share", " — do not share", " so keep it safe", " and the user is root", " but change it soon",
            " because Bob chose it", " which Bob chose", ". Ask Bob.", "! Really.", "\nthe user is root", ""]


def _refused_and_redacted(text: str, word: str) -> None:
    assert find_secrets(text) != [[]], text
    redacted, kinds = redact(text)
    assert word not in redacted and kinds, (text, redacted)


@pytest.mark.parametrize("trailing", TRAILING)
@pytest.mark.parametrize("word", PLAIN)
@pytest.mark.parametrize("said", SAID)
def test_a_plain_word_after_a_word_for_password_and_its_verb_is_refused_whatever_follows(said: str, word: str,
                                                                                          trailing: str) -> None:
    text = said.format(w=word) + trailing
    _refused_and_redacted(text, word)
    assert trailing.lstrip(" .!").rstrip() in redact(text)[0]  # what follows stays (the sentence's "." may go)


# The word and only a space (English), then a made-up word or a word and digits alone on its line.
UNVERBED = [("admin password {w}", "letmein"), ("password {w}", "letmein"), ("root pwd {w}", "bluemoon"),
            ("the wifi pw {w}", "zorbaklint"), ("pass {w}", "hunter2"), ("password {w}", "hunter2"),
            ("Password {w}", "kiwi77"), ("pass {w}", "Summer7")]


@pytest.mark.parametrize("trailing", [", don't share it", " (temporary)", " - do not share", " so keep it safe",
                                      " and the user is root", ". Ask Bob.", ""])
@pytest.mark.parametrize(("said", "word"), UNVERBED)
def test_a_plain_word_after_a_word_for_password_and_a_space_is_refused(said: str, word: str, trailing: str) -> None:
    if not word.isalpha() and trailing:  # a word and digits: only alone on its line, as a label's value
        return
    _refused_and_redacted(said.format(w=word) + trailing, word)


ASSIGNED = [("set DB_PASSWORD=sunshine in prod", "sunshine"), ("DB_PASSWORD=sunshine ./run.sh", "sunshine"),
            ("export SMTP_PASS=letmein && deploy", "letmein"), ("JWT_SECRET=marmalade for staging", "marmalade")]


@pytest.mark.parametrize(("text", "word"), ASSIGNED)
def test_a_plain_word_assigned_with_equals_is_refused_whatever_follows(text: str, word: str) -> None:
    _refused_and_redacted(text, word)


STORED = [
    "the password is expired and must be reset", "password rotation is monthly", "the password is stored in Vault",
    "password is required for login", "the password is being changed tomorrow", "password managers are allowed",
    "the password is case-sensitive", "the password is in 1Password", "the password is usually long",
    "the password is probably expired", "the password is taken from the environment",
    "the password is somewhere in the wiki", "the password is hidden, ask IT", "the password is written on a sticker",
    "the password is something else", "the password is correct, the user is wrong", "the password is too short",
    "the password is different, so reset it", "the password is shared and rotated", "the password is never logged",
    "the password is generated and stored", "the password is available, ask Maria", "the password is part of it",
    "the password is inside the envelope", "the password is whatever you set",
    "Das Passwort ist abgelaufen und muss erneuert werden", "le mot de passe est obligatoire et secret",
    "la contraseña es obligatoria - pregunta a IT", "het wachtwoord is verlopen en moet opnieuw",
    # a word for password then a noun, a hash's name, a version; "pass" as a verb or a ticket
    "password reset", "Password Managers", "password policy", "password hint", "password sha256", "password bcrypt",
    "password v2", "the password manager, keychain and vault", "Password reset, then log in",
    "you shall not pass Gandalf2.", "pass userId2 to the handler", "pass level3 first", "pass the test",
    "boarding pass LX1234", "password rotation, monthly",
    # code and a redacted line read again
    "f(DB_PASSWORD=sunshine)", "API_TOKEN: access token", "ALLOW_EMPTY_PASSWORD=yes in dev",
    "DB_PASSWORD=changeme in prod",
]


@pytest.mark.parametrize("text", STORED)
def test_words_about_a_password_are_stored_whatever_follows_them(text: str) -> None:
    assert find_secrets(text) == [[]] and redact(text) == (text, ()), text


# Every free-text field a memory's write takes: remember's content, tags, source and key, supersede's reason.
FIELDS = ["content", "tags", "source", "idempotency_key", "reason"]
SECRETS = [("the admin password is letmein (temporary)", "letmein"), ("pass hunter2", "hunter2"),
           ("password letmein", "letmein"), ("the VPN password is bluemoon - do not share", "bluemoon")]


@pytest.mark.parametrize(("text", "word"), SECRETS)
@pytest.mark.parametrize("field", FIELDS)
def test_every_free_text_field_refuses_it_naming_the_field_and_stores_nothing(one_store, field: str, text: str,
                                                                               word: str) -> None:
    tenant = f"t-{field}-{len(text)}-{word}"
    with pytest.raises(InvalidInput) as refused:
        if field == "reason":
            old = one_store.remember(tenant=tenant, scope="s", content="The router sits in the hall").id
            one_store.supersede(tenant=tenant, id=old, content="The router sits in the attic", reason=text)
        else:
            value: str | list[str] = [text] if field == "tags" else text
            fields = {"content": "Router notes"} | {field: value}
            one_store.remember(tenant=tenant, scope="s", **fields)
    assert refused.value.field.removesuffix("[0]") == field and word not in str(refused.value)
    assert one_store.scope_counts(tenant=tenant) == ({"s": 1} if field == "reason" else {})
