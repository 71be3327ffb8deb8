"""Keys of different types may share a kid (RFC 7517 §4.5): the token's alg picks the one that verifies it;
two keys of one type under a kid still verify nothing. A JWKS that is not UTF-8 JSON is logged by what is
wrong, where and how long, never by its text. Read from a loopback issuer (test_oauth.Issuer) by
server.auth.KeySet on a fake clock, and by a real team server."""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from httpwire import PING, refused
from test_jwks import MAX_AGE_S, issuer, clock, keys_of  # noqa: F401 - fixtures
from test_oauth import KID, _claims, _served

from memvault.server.auth import IssuerUnreachable, KeyRefused

LOGGER = "memvault.server.auth"


def _jwk(key: object, kid: str, **members: str) -> dict[str, str]:
    """The public JWK of ``key`` (an EC or Ed25519 private key) under ``kid``, for signing."""
    family = jwt.algorithms.OKPAlgorithm if isinstance(key, ed25519.Ed25519PrivateKey) else jwt.algorithms.ECAlgorithm
    public = key.public_key()  # type: ignore[attr-defined]
    return {**json.loads(family.to_jwk(public)), "kid": kid, "use": "sig", **members}


def _ec() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


@pytest.mark.parametrize("listed_first", [False, True])
def test_keys_of_two_types_under_one_kid_are_each_chosen_by_the_token_s_alg(issuer, clock, listed_first) -> None:
    curve, edwards = _ec(), ed25519.Ed25519PrivateKey.generate()
    others = [_jwk(curve, KID, alg="ES256"), _jwk(edwards, KID)]
    if listed_first:  # the issuer's RSA key (test_oauth.Issuer) listed after them
        issuer.document = {"keys": [*others, {**json.loads(
            jwt.algorithms.RSAAlgorithm.to_jwk(issuer.key.public_key())), "kid": KID, "use": "sig", "alg": "RS256"}]}
    else:
        issuer.extra = others
    keys = keys_of(issuer, clock)
    assert keys.key(KID, "RS256").kty == "RSA" and keys.key(KID, "PS256").kty == "RSA"
    assert keys.key(KID, "ES256").key.public_numbers() == curve.public_key().public_numbers()
    assert keys.key(KID, "EdDSA").kty == "OKP"


def test_two_keys_of_one_type_under_a_kid_still_verify_nothing_beside_a_key_of_another_type(issuer, clock,
                                                                                             caplog) -> None:
    issuer.extra = [_jwk(_ec(), KID), _jwk(_ec(), KID)]
    keys = keys_of(issuer, clock)
    caplog.set_level(logging.WARNING, logger=LOGGER)
    assert keys.key(KID, "RS256").kty == "RSA"
    with pytest.raises(KeyRefused, match="^the issuer publishes 2 signing keys under this token's kid"):
        keys.key(KID, "ES256")  # no EC key is kept, and the token is told why, not that its alg fits the RSA key
    assert len([m for m in caplog.messages if "2 signing keys of the set have its kid" in m]) == 2
    issuer.published = {}  # the EC twins alone
    clock.now += MAX_AGE_S
    with pytest.raises(KeyRefused, match="^the issuer publishes 2 signing keys under this token's kid"):
        keys.key(KID, "ES256")
    issuer.extra.append(_jwk(ed25519.Ed25519PrivateKey.generate(), KID))
    clock.now += MAX_AGE_S
    assert keys.key(KID, "EdDSA").kty == "OKP"
    for alg in ("ES256", "ES384"):
        with pytest.raises(KeyRefused, match="^the issuer publishes 2 signing keys"):
            keys.key(KID, alg)  # still no EC key kept


def _rsa_jwk(kid: str, **members: str) -> dict[str, str]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048).public_key()
    return {**json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key)), "kid": kid, "use": "sig", **members}


@pytest.mark.parametrize(("extra", "alg", "says"), [
    ([_rsa_jwk(KID)], "RS256", "^the issuer publishes 2 signing keys under this token's kid"),  # + the issuer's
    ([_rsa_jwk(KID), _rsa_jwk(KID)], "PS256", "^the issuer publishes 3 signing keys under this token's kid"),
    ([_rsa_jwk(KID)], "RS512", "^the issuer publishes 2 signing keys"),
])
def test_twins_of_the_token_s_type_beside_a_key_of_another_type_are_named_as_twins(issuer, clock, extra, alg,
                                                                                   says) -> None:
    curve = _ec()
    issuer.extra = [*extra, _jwk(curve, KID, alg="ES256")]
    keys = keys_of(issuer, clock)
    with pytest.raises(KeyRefused, match=says):
        keys.key(KID, alg)
    assert keys.key(KID, "ES256").key.public_numbers() == curve.public_key().public_numbers()  # the EC key serves


def test_an_unusable_key_of_the_token_s_type_beside_a_usable_one_of_another_is_named(issuer, clock) -> None:
    curve = _ec()
    issuer.published = {}
    issuer.document = {"keys": [_rsa_jwk(KID, use="enc"), _jwk(curve, KID, alg="ES256")]}
    keys = keys_of(issuer, clock)
    with pytest.raises(KeyRefused, match="^the issuer's key with this token's kid cannot verify it: "):
        keys.key(KID, "RS256")
    assert keys.key(KID, "ES256").kty == "EC"
    assert keys.key(KID, "EdDSA").kty == "EC"  # nothing said of an OKP key: its alg fits none (KeyMismatch)


def test_a_token_of_either_type_under_a_shared_kid_is_accepted_over_http(tmp_path: Path) -> None:
    curve = _ec()
    with _served(tmp_path) as (server, issuer, resource, _):
        issuer.extra = [_jwk(curve, KID, alg="ES256")]
        claims = _claims(resource, scope="memvault:read")
        for key, alg in ((issuer.key, "RS256"), (curve, "ES256")):
            token = jwt.encode(claims, key, algorithm=alg, headers={"kid": KID})
            assert server.post(token, PING).status_code == 200, alg
        wrong = jwt.encode(claims, _ec(), algorithm="ES256", headers={"kid": KID})
        assert refused(server.post(wrong, PING), 401, "invalid_token") == "bad signature"
        assert "signing keys of the set have its kid" not in server.log()


SECRET = "hunter2-from-the-issuer"


@pytest.mark.parametrize(("body", "said"), [
    (f"<html>{SECRET}</html>".encode(), "it is not JSON: expecting value at byte 0 of 36"),
    (b"", "it is not JSON: expecting value at byte 0 of 0"),
    (f'{{"keys": []}} {SECRET}'.encode(), "it is not JSON: extra data at byte 13 of 36"),
    (f'{{"keys": ["{SECRET}\\q"]}}'.encode(), "it is not JSON: invalid \\escape at byte 34 of 39"),
    (f'{{"keys": [1,], "{SECRET}": 0}}'.encode(), "it is not JSON: expecting value at byte 12 of 44"),
    (f'{{"keys" [], "{SECRET}": 1}}'.encode(), "it is not JSON: expecting ':' delimiter at byte 8 of 41"),
    (f'{{"keys": "é{SECRET}'.encode(), "it is not JSON: unterminated string starting at byte 9 of 35"),
    (b"\xef\xbb\xbf" + f'{{"keys": [], "x": "{SECRET}"}}'.encode(),
     "it is not JSON: unexpected UTF-8 BOM (decode using utf-8-sig) at byte 0 of 47"),
    (f'{{"keys": ["{SECRET}'.encode() + b"\xff\xfe\"]}", "it is not UTF-8 text (RFC 8259 §8.1): byte 34 of 39"),
])
def test_a_jwks_that_is_not_json_is_logged_by_what_where_and_length_never_by_its_text(issuer, clock, caplog, body,
                                                                                       said) -> None:
    keys = keys_of(issuer, clock)
    issuer.body = body
    caplog.set_level(logging.WARNING, logger=LOGGER)
    with pytest.raises(IssuerUnreachable):
        keys.key(KID)
    assert caplog.messages == [f"could not read the issuer's JWKS: {said}"]
    assert "hunter" not in caplog.text


def test_a_served_jwks_that_is_not_json_is_logged_in_words(tmp_path: Path) -> None:
    with _served(tmp_path) as (server, issuer, resource, _):
        issuer.body = f"<html>{SECRET}</html>".encode()
        token = jwt.encode(_claims(resource, scope="memvault:read"), issuer.key, algorithm="RS256",
                           headers={"kid": KID})
        assert server.post(token, PING).status_code == 503
        time.sleep(0.5)
        log = server.log()
        assert "could not read the issuer's JWKS: it is not JSON: expecting value at byte 0 of 36" in log
        assert SECRET not in log and "JSONDecodeError" not in log
