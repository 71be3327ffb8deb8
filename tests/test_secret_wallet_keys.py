"""A Bitcoin private key written in base58check is refused and redacted without a word naming it (issue 25
§1.8): a WIF key (compressed or not, mainnet or testnet) and an extended private key (BIP 32 ``xprv``,
``tprv``; SLIP-132 ``zprv``), kept only when its checksum holds and its version says a private key, so
random base58 text, an address and an extended public key are stored."""

from __future__ import annotations

import hashlib
import random

import pytest

from memvault.storage.secrets import find_secrets, redact

BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def base58check(payload: bytes) -> str:
    """``payload`` and its checksum in base58 (en.bitcoin.it/wiki/Base58Check_encoding)."""
    raw = payload + hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    number, out = int.from_bytes(raw, "big"), ""
    while number:
        number, digit = divmod(number, 58)
        out = BASE58[digit] + out
    return "1" * (len(raw) - len(raw.lstrip(b"\0"))) + out


def _secret(seed: int) -> bytes:
    return random.Random(seed).randbytes(32)


def _extended(version: str, seed: int) -> str:
    rng = random.Random(seed)
    return base58check(bytes.fromhex(version) + bytes(9) + rng.randbytes(32) + b"\0" + rng.randbytes(32))


WIF = [base58check(b"\x80" + _secret(n) + b"\x01") for n in range(4)] + [  # compressed: K or L
    base58check(b"\x80" + _secret(10)), base58check(b"\xef" + _secret(11) + b"\x01"),  # 5..., c...
    base58check(b"\xef" + _secret(12)),  # testnet uncompressed: 9...
    "KwdMAjGmerYanjeui5SHS7JkmpZvVipYvB2LJGU1ZxJwYvP98617",  # issue 25's
    "5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ",  # en.bitcoin.it/wiki/Wallet_import_format's
]
EXTENDED = [_extended(version, n) for n, version in enumerate(("0488ade4", "04358394", "04b2430c", "049d7878"))]


@pytest.mark.parametrize("key", WIF)
@pytest.mark.parametrize("template", ["{}", "backup of the wallet: {}", "import {} into electrum", "`{}`"])
def test_a_wif_key_is_refused_and_redacted_without_a_name(key: str, template: str) -> None:
    text = template.format(key)
    assert [kind for kind, _ in find_secrets(text)[0]] == ["Bitcoin private key"]
    redacted, kinds = redact(text)
    assert key not in redacted and kinds == ("Bitcoin private key",)


@pytest.mark.parametrize("key", EXTENDED)
def test_an_extended_private_key_is_refused_and_redacted(key: str) -> None:
    text = f"the wallet's master key {key} stays offline"
    assert [kind for kind, _ in find_secrets(text)[0]] == ["extended private key"]
    assert key not in redact(text)[0]


def _broken(key: str) -> str:
    """``key`` with one character changed: its checksum no longer holds."""
    return key[:20] + ("2" if key[20] != "2" else "3") + key[21:]


@pytest.mark.parametrize("text", [
    *(_broken(key) for key in WIF[:3] + EXTENDED[:2]),
    "".join(random.Random(5).choice(BASE58) for _ in range(52)).replace("1", "K", 1),
    "K" + "".join(random.Random(6).choice(BASE58) for _ in range(51)),
    "5" + "".join(random.Random(7).choice(BASE58) for _ in range(50)),
    base58check(b"\x00" + _secret(20)[:20]),  # a Bitcoin address (P2PKH)
    "send it to 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2 or bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
    _extended("0488b21e", 30),  # an xpub: a public key
    "age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p",
    "commit 3f786850e387550fdab836ed7e6dc881de23001b and uuid 123e4567-e89b-12d3-a456-426614174000",
    "a WIF key starts with 5, K or L and an xprv with xprv; paste <your-wif-key> here",
])
def test_base58_text_that_is_no_private_key_is_stored(text: str) -> None:
    assert find_secrets(text) == [[]]
