"""Tenants are matched exactly (case-sensitive), but a new one differing from a tenant of the database only
by letter case is refused, in either case convention: Turkish and Azerbaijani write the capital of i as İ
and the small letter of I as ı (adv68 A5), so "İstanbul", "ISTANBUL" and "ıstanbul" beside "istanbul" were
three more empty memories. A claim that Unicode NFKC changes is refused whatever the database holds."""

from __future__ import annotations


import anyio
import pytest
from fakes import FakeEmbedder
from test_lookalike_names import issuer, verifier  # noqa: F401 (issuer: a fixture)

from memvault.server.auth import TokenRefused
from memvault.storage import keys, validate
from memvault.storage.errors import InvalidInput
from memvault.storage.store import Store


@pytest.mark.parametrize(("value", "existing", "alike"), [
    ("İstanbul", ["istanbul"], "istanbul"), ("ıstanbul", ["istanbul"], "istanbul"),
    ("ISTANBUL", ["ıstanbul"], "ıstanbul"), ("istanbul", ["İstanbul"], "İstanbul"),
    ("DİYARBAKIR", ["diyarbakır"], "diyarbakır"), ("Iğdır", ["IĞDIR"], "IĞDIR"), ("ı", ["I"], "I"),
    ("İ", ["i"], "i"), ("ki\u0307m", ["kim"], "kim"),
    # no false alarms: as written, another word, nothing held
    ("İstanbul", ["İstanbul", "istanbul"], None), ("izmir", ["istanbul"], None), ("İzmir", [], None),
    ("ilk", ["ilke"], None), ("acme", ["ACME2"], None),
])
def test_dotted_and_dotless_i_are_one_letter_when_names_are_compared(value, existing, alike):
    assert validate.lookalike(value, existing) == alike


@pytest.mark.parametrize("tenant", ["İstanbul", "ISTANBUL", "ıstanbul", "Istanbul"])
def test_a_key_for_a_tenant_differing_only_by_dotted_or_dotless_i_is_refused(db_path, tenant):
    store = Store(str(db_path), FakeEmbedder())  # type: ignore[arg-type]
    try:
        keys.create(store, "istanbul")
        with pytest.raises(InvalidInput) as caught:
            keys.create(store, tenant)
        assert caught.value.field == "tenant" and "existing tenant 'istanbul' only by letter case" in str(caught.value)
        assert [k.tenant for k in keys.list_keys(store)] == ["istanbul"]
    finally:
        store.close()


# (claim, what a refusal says, or None when the claim is the caller's tenant); the database holds "istanbul"
CLAIMS = [
    ("İstanbul", "claim tenant: differs from an existing tenant only by letter case"),
    ("ıstanbul", "claim tenant: differs from an existing tenant only by letter case"),
    ("ISTANBUL", "claim tenant: differs from an existing tenant only by letter case"),
    ("ﬁrma", "claim tenant: holds U+FB01"), ("ｉｓｔａｎｂｕｌ", "claim tenant: holds U+FF49"),
    ("Ｋ", "claim tenant: holds U+FF2B"), ("ſirket", "claim tenant: holds U+017F"),
    ("istanbul", None), ("İzmir", None), ("ızgara", None),  # as held; alike nothing held: a tenant of their own
]


@pytest.mark.parametrize(("claim", "said"), CLAIMS)
def test_a_tenant_claim_alike_a_tenant_or_changed_by_nfkc_is_refused(issuer, db_path, claim, said):
    store = Store(str(db_path), FakeEmbedder())  # type: ignore[arg-type]
    store.remember(tenant="istanbul", scope="default", content="The payroll vendor is Gusto")
    verify, token = verifier(issuer, store, claim)
    try:
        if said is None:
            assert anyio.run(verify, token).claims["memvault_tenant"] == claim
        else:
            with pytest.raises(TokenRefused) as caught:
                anyio.run(verify, token)
            assert str(caught.value).startswith(said), str(caught.value)
    finally:
        store.close()
