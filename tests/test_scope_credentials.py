"""A scope holding a credential is refused by its own check (``validate.scope``), named as the
field "scope", before ``remember`` scans the content: nothing is stored, and an ordinary scope
beside it stores its memory."""

from __future__ import annotations

import pytest
from fakes import FakeEmbedder

from memvault.storage import maintenance
from memvault.storage.errors import InvalidInput
from memvault.storage.store import Store

SCOPES = ["ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A", "AKIA" + "QYLPMN5HFIQR7BZX",
          "xoxb-" + "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "password: Tr0ub4dor3x"]


@pytest.mark.parametrize("scope", SCOPES)
@pytest.mark.parametrize("content", ["The deploy runs on Fridays", "The VPN key is AKIAQYLPMN5HFIQR7BZX"])
def test_a_scope_holding_a_credential_is_refused_as_the_scope(tmp_path, scope, content) -> None:
    store = Store(str(tmp_path / "s.db"), FakeEmbedder())  # type: ignore[arg-type]
    try:
        with pytest.raises(InvalidInput, match="memvault stores no secrets") as refused:
            store.remember(tenant="a", scope=scope, content=content)
        assert refused.value.field == "scope"
        assert scope not in str(refused.value)
        kept = store.remember(tenant="a", scope="ops", content="The deploy runs on Fridays")
        assert kept.created
        assert maintenance.stats(store)["by_scope"] == {"a": {"ops": 1}}  # type: ignore[comparison-overlap]
        assert [m.id for m in store.list_memories(tenant="a", scopes=["ops"])] == [kept.id]
    finally:
        store.close()
