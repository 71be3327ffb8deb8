"""A private key's base64 body pasted without its BEGIN and END lines (adversarial pass 52 finding 5,
trial 52 finding 2): PKCS#8, PKCS#1, SEC1 and OpenSSH bodies open with characters their format fixes
(``secret_formats.tsv``, "private key body"), so each is refused and redacted over all its lines; a
public key's body (SubjectPublicKeyInfo, PKCS#1 public, an OpenSSH public key line) and other base64
are stored."""

from __future__ import annotations

import base64
import functools

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
