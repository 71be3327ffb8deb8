"""A tenant or scope that differs from an existing one only by letter case or compatibility form
(``ACME`` beside ``acme``) would be a second, empty memory: a key's tenant is refused, a new scope is
said in ``remember``'s result (trial 59 #8)."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from fakes import FakeEmbedder
from mcp import Client
from test_oauth import Issuer, _token

from memvault.server import cli
from memvault.server.app import build_server
from memvault.server.auth import JwtVerifier, TokenRefused
from memvault.server.config import Config, HttpConfig
from memvault.storage import keys, tenants, validate
from memvault.storage.errors import InvalidInput
from memvault.storage.store import Store


@pytest.mark.parametrize(("value", "existing", "alike"), [
    ("ACME", ["acme"], "acme"), ("Acme", ["acme", "globex"], "acme"), ("acme", ["ACME"], "ACME"),
    ("STRASSE", ["straße"], "straße"), ("Work", ["work"], "work"), ("ｗork", ["Work"], "Work"),
    ("acme", ["acme", "ACME"], None), ("ACME", ["acme", "ACME"], None),  # it exists as written
    ("acme2", ["acme"], None), ("Москва", ["москва"], "москва"), ("proj", [], None),
    # of several alike, the one spelled as folded (trial verify62 N8), else the first sorted
    ("DEFAULT", ["Default", "default"], "default"), ("Default", ["DEFAULT", "default"], "default"),
    ("ｄｅｆａｕｌｔ", ["Default", "default", "DeFault"], "default"), ("DEFAULT", ["Default", "dEfault"], "Default"),
    ("STRASSE", ["straße", "strasse"], "strasse"), ("Work", ["WORK", "work", "wORK"], "work"),
])
def test_a_name_alike_is_one_differing_only_by_case_or_compatibility_form(value, existing, alike):
    assert validate.lookalike(value, existing) == alike


@pytest.mark.contract
@pytest.mark.parametrize(("claim", "alike"), [
    ("ACME", "acme"), ("GLOBEX", "globex"), ("INITECH", None), ("acme", None), ("globex", None), ("hooli", None),
    ("Hooli", None),  # no tenant holds "hooli": nothing to be alike
])
def test_the_tenant_check_reads_the_tenants_holding_current_memories_or_keys(store, claim, alike):
    store.remember(tenant="acme", scope="proj", content="The payroll vendor is Gusto")
    keys.create(store, "globex")
    gone = store.remember(tenant="initech", scope="proj", content="The office is in Austin")
    store.forget(tenant="initech", id=gone.id)  # a tenant whose memories are all forgotten holds none
    assert tenants.lookalike(store, claim) == alike


@pytest.mark.contract
@pytest.mark.parametrize("tenant", ["ACME", "Acme", "aCmE"])
def test_a_key_for_a_tenant_differing_only_by_case_from_one_with_keys_is_refused(store, tenant):
    keys.create(store, "acme")
    with pytest.raises(InvalidInput) as caught:
        keys.create(store, tenant)
    assert caught.value.field == "tenant" and "existing tenant 'acme' only by letter case" in str(caught.value)
    assert [k.tenant for k in keys.list_keys(store)] == ["acme"]


@pytest.mark.contract
def test_a_key_for_a_tenant_differing_only_by_case_from_one_with_memories_is_refused(store):
    store.remember(tenant="Globex", scope="proj", content="The payroll vendor is Gusto")
    with pytest.raises(InvalidInput, match="existing tenant 'Globex'"):
        keys.create(store, "globex")
    assert keys.create(store, "Globex")[0].tenant == "Globex"  # as written: the same tenant
    assert keys.create(store, "globex-eu")[0].tenant == "globex-eu"  # another name


@pytest.mark.contract
@pytest.mark.parametrize("scope", ["Work", "WORK", "wOrK"])  # (full-width: refused as any name)
def test_a_key_for_a_scope_differing_only_by_case_from_one_of_its_tenant_is_refused(store, scope):
    """verify59 N5: `keys create --scope Work` beside the tenant's "work" was made silently; its writes
    went beside "work"."""
    store.remember(tenant="acme", scope="work", content="The deploy window is Tuesday")
    keys.create(store, "acme", scope="home")
    for existing in ("work", "Home"):  # a scope with memories, and one only a key names
        with pytest.raises(InvalidInput) as caught:
            keys.create(store, "acme", scope=scope if existing == "work" else existing)
        assert caught.value.field == "scope" and "only by letter case" in str(caught.value)
    assert [k.scope for k in keys.list_keys(store)] == ["home"]
    assert keys.create(store, "acme", scope="work")[0].scope == "work"  # as written: the same scope
    assert keys.create(store, "globex", scope=scope)[0].scope == scope  # another tenant's scopes are not its


@pytest.mark.contract
def test_tenants_differing_by_case_made_before_the_rule_each_take_keys_as_written(store):
    store.remember(tenant="acme", scope="proj", content="one")
    store.remember(tenant="ACME", scope="proj", content="two")
    assert {keys.create(store, t)[0].tenant for t in ("acme", "ACME")} == {"acme", "ACME"}
    with pytest.raises(InvalidInput, match="existing tenant 'acme'"):  # the one spelled as folded
        keys.create(store, "Acme")


def test_keys_create_refuses_a_tenant_differing_by_case_and_names_the_existing_one(db_path, capsys):
    assert cli.main(["keys", "create", "--tenant", "acme", "--db", str(db_path)]) == 0
    capsys.readouterr()
    code = cli.main(["keys", "create", "--tenant", "ACME", "--db", str(db_path)])
    out, err = capsys.readouterr()
    assert code != 0 and "mvk_" not in out and "existing tenant 'acme'" in err and "name the tenant 'acme'" in err, err
    cli.main(["keys", "list", "--db", str(db_path)])
    listed = capsys.readouterr().out
    assert "tenant=acme" in listed and "tenant=ACME" not in listed


@pytest.mark.contract
def test_the_first_memory_of_a_scope_differing_only_by_case_names_the_existing_scope(store):
    store.remember(tenant="t", scope="work", content="The deploy window is Tuesday")
    first = store.remember(tenant="t", scope="Work", content="The standup is at 9:30")
    assert first.created and first.lookalike_scope == "work"
    assert store.remember(tenant="t", scope="Work", content="Lunch is at noon").lookalike_scope is None  # no longer new
    assert store.remember(tenant="t", scope="work", content="Reviews are on Fridays").lookalike_scope is None
    assert store.remember(tenant="t", scope="home", content="The cat is Miso").lookalike_scope is None
    assert store.remember(tenant="u", scope="WORK", content="Another tenant's scopes are not its").lookalike_scope is None


# Each step: a remember in a scope ("-" then the scope: forget that scope's last memory; "~": it expires).
STEPS = [
    ["work", "Work", "Work", "WORK", "work", "home", "Home", "-Home", "Home", "-work", "Work"],
    ["~Work", "work", "+1h", "Work", "work"],
    ["proj", "proj-a", "PROJ-A", "projA", "Proj", "στοά", "ΣΤΟΆ", "straße", "STRASSE", "Straße"],
]


@pytest.mark.contract
@pytest.mark.parametrize("steps", STEPS)
def test_the_scope_note_is_the_look_alike_among_the_scopes_holding_memories_before_it(store, clock, steps):
    """``lookalike_scope`` as it was defined when computed on every remember: the look-alike of the
    scope among those holding current memories just before, None when the scope is one of them."""
    last: dict[str, str] = {}
    for n, step in enumerate(steps):
        if step == "+1h":
            clock.advance(3_600)
            continue
        if step.startswith("-"):
            store.forget(tenant="t", id=last[step[1:]])
            continue
        scope, expires = step.lstrip("~"), "2026-01-01T00:30:00Z" if step.startswith("~") else None
        held = set(store.scope_counts(tenant="t"))
        outcome = store.remember(tenant="t", scope=scope, content=f"Note {n} of the deploy", expires_at=expires)
        assert outcome.lookalike_scope == validate.lookalike(scope, held), (n, step, held)
        last[scope] = outcome.id


@pytest.mark.asyncio
async def test_remember_says_the_existing_scope_in_its_result_and_text(db_path):
    async with Client(build_server(Config(db=db_path, scope="work"))) as c:
        await c.call_tool("remember", {"content": "The deploy window is Tuesday"})
        r = await c.call_tool("remember", {"content": "The standup is at 9:30", "scope": "Work"})
        again = await c.call_tool("remember", {"content": "The standup is at 9:30", "scope": "Work"})
    assert r.structured_content["created"] and r.structured_content["lookalike_scope"] == "work"
    assert 'Note: this is the first memory of its scope, and the scope "work"' in r.content[0].text
    assert again.structured_content.get("lookalike_scope") is None and "Note:" not in again.content[0].text


def test_memvault_remember_prints_the_note(db_path, capsys):
    db = ["--db", str(db_path)]
    assert cli.main(["remember", "The deploy window is Tuesday", "--scope", "work", *db]) == 0
    capsys.readouterr()
    assert cli.main(["remember", "The standup is at 9:30", "--scope", "Work", *db]) == 0
    assert 'the scope "work", which holds memories, differs from it only by letter case' in capsys.readouterr().out


@pytest.fixture(scope="module")
def issuer() -> Iterator[Issuer]:
    served = Issuer()
    yield served
    served.close()


class _Runtime:  # the one thing the verifier asks of the server's runtime
    def __init__(self, store: Store) -> None:
        self._store = store

    def store(self) -> Store:
        return self._store


def verifier(issuer: Issuer, store: Store, claim: str) -> tuple[Any, str]:
    """``(verify_token, token)``: a JwtVerifier of ``issuer``'s tokens over ``store`` and a token of ``issuer``
    claiming tenant ``claim`` with write scope."""
    http = HttpConfig(auth="oauth", issuer="https://issuer.test", resource="https://memory.test",
                      jwks_url=issuer.jwks_url)
    now = int(time.time())
    token = _token(issuer, {"iss": "https://issuer.test", "aud": "https://memory.test", "sub": "u", "iat": now,
                            "exp": now + 300, "tenant": claim, "scope": "memvault:write"})
    return JwtVerifier(http, _Runtime(store)).verify_token, token  # type: ignore[arg-type]


@pytest.mark.parametrize(("claim", "refused"), [("ACME", True), ("Acme", True), ("acme", False), ("globex", False)])
def test_an_oauth_tenant_claim_differing_only_by_case_from_a_tenant_is_refused_naming_no_tenant(
        issuer, db_path, caplog, claim, refused):
    store = Store(str(db_path), FakeEmbedder())  # type: ignore[arg-type]
    store.remember(tenant="acme", scope="default", content="The payroll vendor is Gusto")
    verify, token = verifier(issuer, store, claim)
    try:
        with caplog.at_level(logging.WARNING, logger="memvault.server.auth"):
            if refused:
                with pytest.raises(TokenRefused) as caught:
                    anyio.run(verify, token)
                said = str(caught.value)
                assert said.startswith("claim tenant: differs from an existing tenant only by letter case"), said
                assert "acme" not in said.lower() and "'acme'" in caplog.text
            else:
                assert anyio.run(verify, token).claims["memvault_tenant"] == claim
    finally:
        store.close()
