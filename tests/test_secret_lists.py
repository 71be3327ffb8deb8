"""Lists of users and their passwords (issue 25, re-check; issue 26): a header naming credentials, then
user/secret pairs in any common layout. ``remember`` refuses the list, naming the kind, and a captured
turn's ``redact`` takes every pair out, keeping the header and the text around it."""

from __future__ import annotations

import re

import pytest

from memvault.storage.errors import InvalidInput
from memvault.storage.secrets import find_secrets, redact
from test_secret_kinds import _cases  # the cases' ids

A, B = "Tr0ub4dor", "Sunshine22"  # the two users' secrets of every list below

LISTS = {
    "separated by a space or 'and' (the re-check's)": [
        f"password list: admin:{A} bob:{B}", f"password list: admin:{A} and bob:{B}",
        f"password list: admin:{A}\tbob:{B}", f"password list: admin:{A} & bob:{B}",
    ],
    "other words for the list": [
        f"user list: admin:{A}, bob:{B}", f"accounts: admin:{A}, bob:{B}", f"account list: admin:{A}, bob:{B}",
        f"credentials: admin:{A}, bob:{B}", f"Login Table = admin:{A}; bob:{B}", f"passwords are root:{A}, bob:{B}",
        f"username list - admin:{A}, bob:{B}",
    ],
    "bullets and numbered lines": [
        f"password list:\n- admin: {A}\n- bob: {B}", f"password list:\n* admin:{A}\n* bob:{B}",
        f"password list:\n  • admin: {A}\n  • bob: {B}", f"password list:\n1. admin: {A}\n2. bob: {B}",
        f"password list:\n\n- admin: {A}\n\n- bob: {B}",
    ],
    "other separators between a user and a secret": [
        f"password list: admin={A}, bob={B}", f"password list: admin -> {A}, bob -> {B}",
        f"password list: admin | {A}, bob | {B}", f"password list: admin {A}, bob {B}",
        f"password list: admin\t{A}\nbob\t{B}", f"password list: admin => {A}; bob => {B}",
        f"password list: admin / {A}, bob / {B}", f"passwords: root={A}, admin={B}",
    ],
    "a note in brackets, a blank line after the header": [
        f"password list (prod): admin:{A}, bob:{B}", f"password list [staging]: admin:{A}, bob:{B}",
        f"password list:\n\nadmin:{A}\nbob:{B}", f"password list:\n\n\nadmin: {A}\nbob: {B}",
    ],
    "quoted pairs": [
        f"password list: 'admin':'{A}', 'bob':'{B}'", f'password list: "admin": "{A}", "bob": "{B}"',
        f"passwords: `admin`=`{A}` `bob`=`{B}`",
    ],
    "a Markdown table": [
        f"password table:\n| user | password |\n|---|---|\n| admin | {A} |\n| bob | {B} |",
        f"password table:\n\n| user | password |\n| :--- | :--- |\n| admin | {A} |\n| bob | {B} |",
        f"password table:\n| admin | {A} |\n| bob | {B} |",
    ],
    "YAML and JSON maps": [
        f"passwords:\n  admin: {A}\n  bob: {B}", f"credentials:\n  admin: \"{A}\"\n  bob: \"{B}\"",
        f'passwords: {{"admin": "{A}", "bob": "{B}"}}', f'"passwords": {{\n  "admin": "{A}",\n  "bob": "{B}"\n}}',
        f"credentials = {{'admin': '{A}', 'bob': '{B}'}}",
    ],
    "other languages": [
        f"Passwortliste: admin:{A}, bob:{B}", f"Passwörter: admin:{A}, bob:{B}",
        f"liste des mots de passe : admin:{A}, bob:{B}", f"lista de contraseñas: admin:{A}, bob:{B}",
        f"список паролей: admin:{A}, bob:{B}", f"Zugangsdaten:\n- admin: {A}\n- bob: {B}",
        f"lista de senhas: admin:{A}, bob:{B}",
    ],
}

NOT_LISTS = [
    "login list: alice:2024-01-03, bob:2024-01-04", "login list: alice:2024-01-03T10:00Z, bob:2024-01-04",
    "password list: see the vault", "password list: 12 entries", "login list: alice, bob",
    "login table: user:alice", "accounts: 3 active, 2 locked", "user list: alice:admin, bob:viewer",
    "accounts:\n- name: admin\n  role: owner", "password list: stored in vault2024",
    "user table:\n| user | role |\n|---|---|\n| admin | owner |", "credentials: rotated every 90 days",
    "Passwörter: siehe Tresor", "accounts: see the wiki at https://wiki.example.org/x2/accounts",
]




@pytest.mark.parametrize("text", _cases(LISTS))
def test_a_list_of_passwords_is_refused_naming_the_kind(one_store, text: str) -> None:
    with pytest.raises(InvalidInput, match=r"looks like it contains a credential(?:\.| \((?:password|secret key|in its line))") as refused:
        one_store.remember(tenant="refused", scope="s", content=text)
    assert refused.value.field == "content"
    assert one_store.scope_counts(tenant="refused") == {}  # nothing stored


@pytest.mark.parametrize("text", _cases(LISTS))
def test_a_captured_list_of_passwords_loses_every_pair_and_keeps_the_rest(text: str) -> None:
    redacted, kinds = redact(f"before it\n{text}\nafter it")
    assert A not in redacted and B not in redacted
    assert "bob" not in redacted  # the list goes whole, users with their secrets
    assert redacted.startswith("before it\n") and redacted.endswith("\nafter it")
    assert kinds and find_secrets(redacted) == [[]]
    assert redact(redacted) == (redacted, ())


@pytest.mark.parametrize("text", NOT_LISTS)
def test_lists_without_passwords_are_stored_and_left_alone(one_store, text: str) -> None:
    assert one_store.remember(tenant="a", scope="s", content=text).created
    assert redact(text) == (text, ())


# Values parted by spaces alone under a plural word for keys or tokens (issue 25 §1.8, round 8): a captured list.
VALUE_RUNS = [
    "tokens: 3329085a3a6b74a5b075538c0fdf7616 c38f3b92b5758315ee8f84efd67ae013",
    f"tokens: cszYWkxBN9lUxbYxcW67kjbg 9V6rggdWVAf0g55SkPCrXRyV {A}x{B}",
    "api keys = 689d94e04eab561bbfa6eeb909491440 866dd53c4135bc998d5470ded9dbeedc",
    "secrets: KSaKX4IVa5xbes4tvQ5mNPRSLvZs XCVXgddCsCnmKLbqEiN8Jjl8AIgb",
]
NOT_RUNS = [
    "tokens: 1532 prompt 220 completion 1752 total", "secrets: db-password-2024 redis-password-2024",
    "keys: id_rsa.pub id_ed25519.pub", "tokens: ${CI_TOKEN} ${DEPLOY_TOKEN}", "tokens: v1.2.3-beta4 v1.2.4-rc1x",
    "api keys: stored-in-vault rotated-monthly",
]


@pytest.mark.parametrize("text", VALUE_RUNS)
def test_values_parted_by_spaces_under_a_plural_word_go_whole(one_store, text: str) -> None:
    with pytest.raises(InvalidInput, match=r"looks like it contains a credential"):
        one_store.remember(tenant="refused", scope="s", content=text)
    redacted, kinds = redact(f"before it\n{text}\nafter it")
    assert kinds and all(value not in redacted for value in re.split("[:=]", text, maxsplit=1)[1].split())
    assert redacted.startswith("before it\n") and redacted.endswith("\nafter it")


@pytest.mark.parametrize("text", NOT_RUNS)
def test_names_counts_and_references_parted_by_spaces_are_stored(one_store, text: str) -> None:
    assert one_store.remember(tenant="a", scope="s", content=text).created
    assert redact(text) == (text, ())
