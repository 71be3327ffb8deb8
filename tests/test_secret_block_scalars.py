"""A YAML block scalar named as a credential, followed by what is no YAML (a note's list: ``* rotate``,
``1. rotate``, ``- item``; adversarial pass 52 finding 4): its indented lines are its key's value, never a
label or a list's name (``secret_documents.block_scalar_lines``), so the value is refused and redacted;
a block scalar of anything else followed by a list is stored."""

from __future__ import annotations

import pytest

from memvault.storage.errors import InvalidInput
from memvault.storage.records import NewTurn
from memvault.storage.secrets import find_secrets, redact

VALUE = "zGx93JxiQskS14qbd87x"
DOCUMENTS = ["Prod DB settings:\ndb:\n  user: app\n  password: |\n    {v}\n", "db:\n  token: >-\n    {v}\n",
             "api:\n  secret_key: |2\n    {v}\n", "password: |\n  {v}\n"]
AFTER = ["\n* rotate\n", "\n1. rotate\n", "\n- item\n", "* rotate monthly\n- and tell ops\n", "\nNotes:\n- rotate"]


@pytest.mark.parametrize("document", DOCUMENTS)
@pytest.mark.parametrize("after", AFTER)
def test_a_credential_block_scalar_before_a_list_is_refused_and_redacted(document: str, after: str) -> None:
    text = document.format(v=VALUE) + after
    assert find_secrets(text) != [[]], text
    redacted, kinds = redact(text)
    assert VALUE not in redacted and kinds
    assert redacted.endswith(after.rstrip("\n") + "\n" * after.endswith("\n"))  # the list stays


@pytest.mark.parametrize("text", [
    "script: |\n  make build2\n\n* rotate\n", "description: >\n  Deploys the app to prod2 servers\n\n- item one\n- item two",
    "notes: |\n  Xk29slQpz1Vb is the build id\n\n1. ship it", "run: |\n  echo done\n* zGx93JxiQskS14qbd87x",
])
def test_a_block_scalar_of_anything_else_before_a_list_is_stored(text: str) -> None:
    assert find_secrets(text) == [[]] and redact(text) == (text, ())


@pytest.mark.contract
def test_remember_refuses_and_a_turn_redacts_a_password_block_before_a_list(store) -> None:
    text = DOCUMENTS[0].format(v=VALUE) + AFTER[0]
    with pytest.raises(InvalidInput):
        store.remember(tenant="t", scope="s", content=text)
    store.episodes.append(tenant="t", scope="s", session_id="s-1", turns=[NewTurn(role="user", text=text)])
    assert VALUE not in store.episodes.turns(tenant="t", session_id="s-1")[-1].text


# A node's properties before a block scalar's indicator (YAML 1.2 §6.9): an anchor, a tag, both in either order.
PROPERTIES = ["&db", "&a1-b", "!!str", "!secret", "!", "!<tag:yaml.org,2002:str>", "&db !!str", "!!str &db"]
INDICATORS = ["|", ">", "|-", ">-", "|+", ">+", "|2", ">2-", "|-2"]
NAMES = ["password", "db_password", "pass", "api_key", "token", "secret"]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("properties", PROPERTIES)
@pytest.mark.parametrize("indicator", INDICATORS)
def test_a_block_scalar_after_an_anchor_or_a_tag_is_refused_and_redacted(name: str, properties: str,
                                                                          indicator: str) -> None:
    for text in (f"{name}: {properties} {indicator}\n  {VALUE}\n",
                 f"db:\n  user: shop\n  {name}: {properties} {indicator}\n    {VALUE}\n  port: 5432\n",
                 f"{name}: {properties} {indicator}\n  {VALUE}\nreplica: *db\n" if "&db" in properties else ""):
        if text:
            assert find_secrets(text) != [[]], text
            redacted, kinds = redact(text)
            assert VALUE not in redacted and kinds, redacted
            # the value's line alone (a verbatim tag holding digits is itself read as a value after "password:")
            assert f"{name}: {properties} {indicator}\n" in redacted or "!<" in properties, redacted


@pytest.mark.parametrize("text", [
    "description: &d |\n  Build 2 of the db layer\n", "name: &n >-\n  zGx93JxiQskS14qbd87x\n",
    "password: &db |\n  see the vault\n", "pass: &trail |\n  Take the north trail\n  and wait.\n",
    "base: &base\n  host: db\nprod:\n  <<: *base\n  note: !!str |\n    v2 rollout\n", "a: &n |\n  v2 of it\npassword: *n\n",
    "note: &n |\n  zGx93JxiQskS14qbd87x\nother: *n\n", "password: !!str &p >-\n  rotated monthly by ops\n",
])
def test_an_anchor_or_a_tag_before_a_block_of_anything_else_is_stored(text: str) -> None:
    assert find_secrets(text) == [[]] and redact(text) == (text, ())


def test_an_aliased_block_scalar_is_read_under_its_own_name_too() -> None:
    text = f"password: &pw |\n  {VALUE}\nreplica_password: *pw\n"
    assert find_secrets(text) == [[("password", 2)]]
    assert redact(text) == ("password: &pw |\n[password]\nreplica_password: *pw\n", ("password",))
