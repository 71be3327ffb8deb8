"""OAuth edges checked in process against a loopback issuer (test_oauth.Issuer): the issuer and the
resource published exactly as configured, ``iss`` compared exactly, and a token whose ``alg`` does not
fit its key refused naming that check (adversarial review 41, faults 14 and the minor wording)."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from typing import Any

import anyio
import httpx2
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from test_oauth import KID, Issuer, _unsigned

from memvault.server.auth import JWT_ALGORITHMS, JwtVerifier, TokenRefused, fits
from memvault.server.config import Config, HttpConfig
from memvault.server.http import build_app

BARE = "https://issuer.test"  # a bare origin: pydantic's URL writes it "https://issuer.test/"
RESOURCE = "https://memory.test"
EC_KID = "ec-p256"


@pytest.fixture(scope="module")
def issuer() -> Iterator[Issuer]:
    served = Issuer()
    served.ec = ec.generate_private_key(ec.SECP256R1())  # type: ignore[attr-defined]
    public = served.ec.public_key()  # type: ignore[attr-defined]
    served.extra = [{**json.loads(jwt.algorithms.ECAlgorithm.to_jwk(public)), "kid": EC_KID, "use": "sig"}]
    yield served
    served.close()


def _http(issuer: Issuer, name: str = BARE) -> HttpConfig:
    return HttpConfig(auth="oauth", issuer=name, resource=RESOURCE, jwks_url=issuer.jwks_url)


def _claims(**overrides: Any) -> dict[str, Any]:
    now = int(time.time())
    return {"iss": BARE, "aud": RESOURCE, "sub": "u", "iat": now, "exp": now + 300, "tenant": "acme",
            "scope": "memvault:read", **overrides}


def _verify(http: HttpConfig, token: str) -> Any:
    return anyio.run(JwtVerifier(http).verify_token, token)


@pytest.mark.parametrize("name", [BARE, "http://127.0.0.1:18790", "https://id.test/realms/team/",
                                  "https://ID.test:443/tenant"])
def test_the_metadata_names_the_issuer_and_the_resource_exactly_as_configured(issuer, tmp_path, name) -> None:
    """The SDK's route published pydantic URLs: "https://issuer.test" became "https://issuer.test/",
    an issuer identifier no token carries (RFC 8414 §3.3 and RFC 9728 §3.3 compare exactly)."""
    app = build_app(Config(db=tmp_path / "m.db"), _http(issuer, name))

    async def get() -> httpx2.Response:
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            return await c.get("/.well-known/oauth-protected-resource")

    response = anyio.run(get)
    assert response.status_code == 200, response.text
    assert response.json() == {"resource": RESOURCE, "authorization_servers": [name],
                               "scopes_supported": ["memvault:read", "memvault:write"],
                               "bearer_methods_supported": ["header"]}


def test_iss_is_compared_with_the_issuer_exactly_as_configured(issuer) -> None:
    token = jwt.encode(_claims(), issuer.key, algorithm="RS256", headers={"kid": KID})
    assert _verify(_http(issuer), token).claims["memvault_tenant"] == "acme"
    slashed = jwt.encode(_claims(iss=BARE + "/"), issuer.key, algorithm="RS256", headers={"kid": KID})
    with pytest.raises(TokenRefused, match=f"^wrong issuer: tokens must come from {BARE}$"):
        _verify(_http(issuer), slashed)
    assert _verify(_http(issuer, BARE + "/"), slashed).claims["memvault_tenant"] == "acme"


@pytest.mark.parametrize(("alg", "kid"), [("ES256", KID), ("ES384", KID), ("EdDSA", KID), ("RS256", EC_KID),
                                          ("PS256", EC_KID), ("ES512", EC_KID), ("ES384", EC_KID)])
def test_an_alg_that_does_not_fit_the_key_is_refused_naming_that_check(issuer, caplog, alg, kid) -> None:
    """PyJWT raises TypeError or InvalidKeyError there: the client read "invalid token (TypeError)"."""
    token = _unsigned({"alg": alg, "kid": kid}, _claims(), lambda data: b"\x01" * 64)
    caplog.set_level(logging.WARNING, logger="memvault.server.auth")
    with pytest.raises(TokenRefused) as refused:
        _verify(_http(issuer), token)
    check = "the signature algorithm (alg) does not fit the type or curve of the key of its kid"
    assert refused.value.description == check
    assert caplog.messages == [f"refused a JWT: {check}"]


def test_a_token_signed_with_an_ec_key_of_the_issuer_is_accepted(issuer) -> None:
    token = jwt.encode(_claims(), issuer.ec, algorithm="ES256", headers={"kid": EC_KID})
    assert _verify(_http(issuer), token).claims["memvault_tenant"] == "acme"


def test_fits_pairs_each_allowed_algorithm_with_its_key_type_and_curve() -> None:
    keys = {"rsa": rsa.generate_private_key(public_exponent=65537, key_size=2048).public_key(),
            "P-256": ec.generate_private_key(ec.SECP256R1()).public_key(),
            "P-384": ec.generate_private_key(ec.SECP384R1()).public_key(),
            "P-521": ec.generate_private_key(ec.SECP521R1()).public_key(),
            "ed25519": ed25519.Ed25519PrivateKey.generate().public_key()}
    expected = {**{f"{family}{bits}": "rsa" for family in ("RS", "PS") for bits in (256, 384, 512)},
                "ES256": "P-256", "ES384": "P-384", "ES512": "P-521", "EdDSA": "ed25519"}
    assert set(expected) == set(JWT_ALGORITHMS)
    for alg in JWT_ALGORITHMS:
        assert [name for name, key in keys.items() if fits(alg, key)] == [expected[alg]], alg


@pytest.mark.parametrize(("make", "alg", "weak"), [
    (lambda: rsa.generate_private_key(public_exponent=65537, key_size=1024), None, "it is a 1024-bit RSA key"),
    (lambda: rsa.generate_private_key(public_exponent=65537, key_size=2040), "PS512", "it is a 2040-bit RSA key"),
    (lambda: rsa.generate_private_key(public_exponent=65537, key_size=2048), "RS256", None),
    (lambda: rsa.generate_private_key(public_exponent=65537, key_size=3072), "PS384", None),
    (lambda: ec.generate_private_key(ec.SECP256R1()), "ES256", None),
    (lambda: ec.generate_private_key(ec.SECP256R1()), None, None),  # the token's alg is checked by fits()
    (lambda: ec.generate_private_key(ec.SECP521R1()), "ES512", None),
    (lambda: ec.generate_private_key(ec.SECP384R1()), "ES256", "it is an EC key on P-384, and its JWK's alg ES256"),
    (lambda: ec.generate_private_key(ec.SECP521R1()), "ES384", "it is an EC key on P-521, and its JWK's alg ES384"),
    (lambda: ec.generate_private_key(ec.SECP256K1()), None, "it is an EC key on secp256k1, a curve no algorithm"),
    (lambda: ec.generate_private_key(ec.SECP224R1()), None, "it is an EC key on secp224r1, a curve no algorithm"),
    (lambda: ed25519.Ed25519PrivateKey.generate(), "EdDSA", None),
])
def test_a_key_too_weak_for_what_it_would_verify_is_named_by_its_kind(make, alg, weak) -> None:
    """RFC 7518 §3.3-3.5: RSA keys of 2048 bits or more, an EC key on the curve its alg names."""
    from memvault.server.auth import weak_key

    found = weak_key(make().public_key(), alg)
    assert (found is None) if weak is None else (found is not None and found.startswith(weak)), found
