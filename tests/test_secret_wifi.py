"""A Wi-Fi QR code's payload (``WIFI:T:WPA;S:<network>;P:<password>;;``, ZXing's format; trial 52 finding 2)
holds the network's password: refused and redacted in any field order; a payload of an open network (no
``P:``) or with an empty password is stored."""

from __future__ import annotations

import pytest

from memvault.storage.errors import InvalidInput
from memvault.storage.records import NewTurn
from memvault.storage.secrets import find_secrets, redact


@pytest.mark.parametrize("text", [
    "WIFI:S:Guest;T:WPA2;P:Zebra9Crossing;;", "scan this: WIFI:T:WPA;P:hunter;S:Cafe;H:false;;",
    "qrencode 'WIFI:T:WPA;S:Office 3F;P:purple monkey dishwasher;;'", "WIFI:P:Xk29slQp;S:Home;;",
])
def test_a_wifi_payload_with_a_password_is_refused_and_its_password_redacted(text: str) -> None:
    assert [kind for kind, _ in find_secrets(text)[0]] == ["Wi-Fi network password"]
    redacted, kinds = redact(text)
    password = text.split("P:")[1].split(";")[0]
    assert password not in redacted and kinds == ("Wi-Fi network password",)


@pytest.mark.parametrize("text", ["WIFI:S:Lobby;T:nopass;;", "WIFI:S:Guest;T:WPA;P:;;",
                                  "the QR code says WIFI: then the fields", "P: is the password field of a WIFI: code"])
def test_an_open_network_or_prose_is_stored(text: str) -> None:
    assert find_secrets(text) == [[]]


@pytest.mark.contract
def test_remember_refuses_and_a_turn_redacts_a_wifi_payload(store) -> None:
    text = "guest network QR: WIFI:S:Guest;T:WPA2;P:Zebra9Crossing;;"
    with pytest.raises(InvalidInput):
        store.remember(tenant="t", scope="s", content=text)
    store.episodes.append(tenant="t", scope="s", session_id="s-1", turns=[NewTurn(role="user", text=text)])
    assert "Zebra9Crossing" not in store.episodes.turns(tenant="t", session_id="s-1")[-1].text
