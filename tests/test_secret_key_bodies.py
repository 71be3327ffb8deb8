"""A private key's base64 body pasted without its BEGIN and END lines (adversarial pass 52 finding 5,
trial 52 finding 2): PKCS#8, PKCS#1, SEC1 and OpenSSH bodies open with characters their format fixes
(``secret_formats.tsv``, "private key body"), so each is refused and redacted over all its lines; a
public key's body (SubjectPublicKeyInfo, PKCS#1 public, an OpenSSH public key line) and other base64
are stored."""

from __future__ import annotations

import base64
import functools
import random
from collections.abc import Iterator

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

from memvault.storage.errors import InvalidInput
from memvault.storage.records import NewTurn
from memvault.storage.secrets import find_secrets, redact

_PRIVATE = {"PKCS#8": serialization.PrivateFormat.PKCS8,
            "traditional": serialization.PrivateFormat.TraditionalOpenSSL,
            "OpenSSH": serialization.PrivateFormat.OpenSSH}


@functools.cache
def _keys() -> dict[str, object]:
    return {"RSA 2048": rsa.generate_private_key(65537, 2048), "EC P-256": ec.generate_private_key(ec.SECP256R1()),
            "EC P-384": ec.generate_private_key(ec.SECP384R1()), "Ed25519": ed25519.Ed25519PrivateKey.generate()}


def _body(pem: bytes) -> str:
    return "\n".join(pem.decode().splitlines()[1:-1])


def _private_body(key: str, form: str) -> str:
    return _body(_keys()[key].private_bytes(serialization.Encoding.PEM, _PRIVATE[form],  # type: ignore[attr-defined]
                                             serialization.NoEncryption()))


BODIES = [(key, form) for key in ("RSA 2048", "EC P-256", "EC P-384", "Ed25519") for form in _PRIVATE
          if not (key == "Ed25519" and form == "traditional")]


@pytest.mark.parametrize(("key", "form"), BODIES)
@pytest.mark.parametrize("around", ["{}", "here is the key:\n{}\nthat's all", 'key = "{}"', "```\n{}\n```"])
def test_a_private_key_body_without_its_lines_is_refused_and_each_line_redacted(key: str, form: str,
                                                                                 around: str) -> None:
    body = _private_body(key, form)
    text = around.format(body if '"' not in around else body.replace("\n", ""))
    assert "private key body" in [kind for kind, _ in find_secrets(text)[0]]
    redacted, kinds = redact(text)
    assert kinds  # "key = ..." is a named credential too: one marker stands for both
    assert not any(line in redacted for line in body.splitlines()), redacted


@pytest.mark.parametrize("key", ["RSA 2048", "EC P-256", "EC P-384", "Ed25519"])
def test_a_public_key_body_or_line_is_stored(key: str) -> None:
    public = _keys()[key].public_key()  # type: ignore[attr-defined]
    spki = _body(public.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    openssh = public.public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH).decode()
    for text in (spki, f"add this to authorized_keys: {openssh}"):
        assert find_secrets(text) == [[]] and redact(text) == (text, ())


def test_a_pkcs1_public_key_and_other_base64_are_stored() -> None:
    public = _keys()["RSA 2048"].public_key()  # type: ignore[attr-defined]
    pkcs1 = _body(public.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.PKCS1))
    texts = [pkcs1, base64.b64encode(b"openssh is a suite of tools, not a key " * 3).decode(),
             "the body starts with MIIEvQIBADANBgkqhkiG9w0BAQEFAASC for an RSA PKCS#8 key",
             "b3BlbnNzaC1rZXktdjE is base64 for openssh-key-v1"]
    for text in texts:
        assert find_secrets(text) == [[]], text


@pytest.mark.contract
def test_remember_refuses_and_a_captured_turn_keeps_no_line_of_a_key_body(store) -> None:
    body = _private_body("RSA 2048", "traditional")
    with pytest.raises(InvalidInput):
        store.remember(tenant="t", scope="s", content=f"the deploy key:\n{body}")
    store.episodes.append(tenant="t", scope="s", session_id="s-1",
                          turns=[NewTurn(role="user", text=f"why is this rejected?\n{body}\nthanks")])
    stored = store.episodes.turns(tenant="t", session_id="s-1")[-1].text
    assert stored == "why is this rejected?\n[private key body]\nthanks"



def _public_pem(rng: random.Random, number: int) -> str:
    """The ``number``-th of RSA 2048 and 4096 (PKCS#1 and SPKI), EC P-256 and P-384 and Ed25519 public keys in PEM:
    RSA ones from a random odd modulus (their lines are as random as a generated key's; generating 120 would take
    a minute), the others generated."""
    kind = number % 5
    if kind < 2:
        bits = 2048 * (kind + 1)
        key = rsa.RSAPublicNumbers(65537, rng.getrandbits(bits) | 1 << bits - 1 | 1).public_key()
        form = (serialization.PublicFormat.PKCS1, serialization.PublicFormat.SubjectPublicKeyInfo)[number // 5 % 2]
        return key.public_bytes(serialization.Encoding.PEM, form).decode()
    key = (ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP384R1()),
           ed25519.Ed25519PrivateKey.generate())[kind - 2]
    return key.public_key().public_bytes(serialization.Encoding.PEM,  # type: ignore[attr-defined]
                                         serialization.PublicFormat.SubjectPublicKeyInfo).decode()


def _random_runs(rng: random.Random) -> Iterator[str]:
    """Random bytes of varied lengths as base64, base64url, hex, a JWT-like dotted run and a data: URI."""
    raw = [rng.randbytes(rng.randint(6, 72)) for _ in range(3)]
    yield from (base64.b64encode(raw[0]).decode(), base64.urlsafe_b64encode(raw[1]).decode().rstrip("="), raw[2].hex())
    yield ".".join(base64.urlsafe_b64encode(part).decode().rstrip("=") for part in raw)
    yield "data:application/octet-stream;base64," + base64.b64encode(raw[1]).decode()


def test_random_public_keys_and_base64_runs_are_stored_and_kept_whole() -> None:
    """A word for a credential met by chance inside a base64 run ("KRdm/wwIlgOeA71u+...": "ww" is Dutch for
    password) is no password joined to its word (adv56 F1's first fix refused about one RSA key in 40): 300 public
    keys, and 500 random runs bare, in prose and in a path."""
    rng = random.Random(56)
    pems = [_public_pem(rng, number) for number in range(300)]
    for text in ("".join(pems[i:i + 50]) for i in range(0, 300, 50)):
        assert find_secrets(text) == [[]] and redact(text) == (text, ()), text
    for run in (run for _ in range(100) for run in _random_runs(rng)):
        assert redact(run) == (run, ()), run
        for text in (f"the cached blob {run} expired", f"/var/cache/{run}/index"):
            assert find_secrets(text) == [[]], text
