"""The team server's last low findings under OAuth (issue 25), each over a real server and a loopback
issuer (test_oauth.Issuer): signing keys too weak for the algorithms taken (RFC 7518 §3.3-3.5), the
waits a slow issuer's key set causes, and ``sub`` claims spelled several ways as several callers."""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
import jwt
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from httpwire import PING, HttpServer, free_port, refused
from test_oauth import ISSUER, JWKS_MAX_AGE_S, KID, Issuer, _call, _claims, _served, _stored, _token, _unsigned

from memvault.server.auth import JWKS_TIMEOUT_S

pytestmark = pytest.mark.slow
CANNOT = "the issuer's key with this token's kid cannot verify it: "


def _kid_hash(kid: str) -> str:
    return "sha256:" + hashlib.sha256(kid.encode()).hexdigest()[:12]


def _rsa_signer(key: rsa.RSAPrivateKey, alg: str) -> Any:
    """Signs as PyJWT would, without PyJWT (which warns of a key under 2048 bits)."""
    digest = {"256": hashes.SHA256, "384": hashes.SHA384, "512": hashes.SHA512}[alg[2:]]
    pad = padding.PKCS1v15() if alg.startswith("RS") else padding.PSS(padding.MGF1(digest()), digest.digest_size)
    return lambda data: key.sign(data, pad, digest())


def _ec_signer(key: ec.EllipticCurvePrivateKey, digest: Any, size: int) -> Any:
    """JWS's ECDSA signature (RFC 7518 §3.4: R and S, each ``size`` bytes) with any curve and hash."""
    def sign(data: bytes) -> bytes:
        r, s = decode_dss_signature(key.sign(data, ec.ECDSA(digest())))
        return r.to_bytes(size, "big") + s.to_bytes(size, "big")
    return sign


def _jwk(public: Any, kid: str, **members: Any) -> dict[str, Any]:
    family = jwt.algorithms.RSAAlgorithm if isinstance(public, rsa.RSAPublicKey) else jwt.algorithms.ECAlgorithm
    return {**json.loads(family.to_jwk(public)), "kid": kid, "use": "sig", **members}


def _weak_keys() -> list[tuple[str, dict[str, Any], str, Any, str]]:
    """``(kid, JWK, token alg, signer, why it is not used)`` for keys too weak for what they sign."""
    rsa_bits = "-bit RSA key; RFC 7518 §3.3 asks 2048 bits or more"
    cases = []
    for bits, alg, listed in ((1024, "RS256", "RS256"), (1024, "PS256", None), (1536, "RS512", "RS512"),
                              (2040, "PS384", "PS384"), (1024, "RS256", None)):
        key = rsa.generate_private_key(public_exponent=65537, key_size=bits)
        kid = f"rsa-{bits}-{alg}-{listed}-{uuid.uuid4().hex[:4]}"
        cases.append((kid, _jwk(key.public_key(), kid, **({"alg": listed} if listed else {})), alg,
                      _rsa_signer(key, alg), f"it is a {bits}{rsa_bits}"))
    p384 = ec.generate_private_key(ec.SECP384R1())  # listed as ES256, which names P-256
    cases.append(("ec-p384-as-es256", _jwk(p384.public_key(), "ec-p384-as-es256", alg="ES256"), "ES256",
                  _ec_signer(p384, hashes.SHA256, 48),
                  "it is an EC key on P-384, and its JWK's alg ES256 names P-256 (RFC 7518 §3.4)"))
    p256 = ec.generate_private_key(ec.SECP256R1())  # listed as ES512, which names P-521
    cases.append(("ec-p256-as-es512", _jwk(p256.public_key(), "ec-p256-as-es512", alg="ES512"), "ES512",
                  _ec_signer(p256, hashes.SHA512, 32),
                  "it is an EC key on P-256, and its JWK's alg ES512 names P-521 (RFC 7518 §3.4)"))
    k1 = ec.generate_private_key(ec.SECP256K1())  # no ES algorithm names secp256k1
    cases.append(("ec-secp256k1", _jwk(k1.public_key(), "ec-secp256k1"), "ES256", _ec_signer(k1, hashes.SHA256, 32),
                  ("it is an EC key on secp256k1, a curve no algorithm taken here names (ES256 P-256, ES384 P-384, "
                   "ES512 P-521: RFC 7518 §3.4)")))
    return cases


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[HttpServer, Issuer, str, Path]]:
    """One server for the tests of weak keys (its set at most JWKS_MAX_AGE_S old): each writes under a tenant
    of its own, changes the issuer's set and puts it back (:func:`_listing`)."""
    with _served(tmp_path_factory.mktemp("weak")) as served:
        deadline = time.monotonic() + 60  # its warm-up beside the first readings made them time out under load
        while httpx2.get(f"{served[0].base}/healthz", timeout=10).json()["model"] == "loading" \
                and time.monotonic() < deadline:
            time.sleep(0.2)
        yield served


@contextmanager
def _listing(served: tuple[HttpServer, Issuer, str, Path], published: dict[str, Any],
             extra: list[dict[str, Any]]) -> Iterator[None]:
    """The issuer publishes ``published`` and ``extra`` (test_oauth.Issuer) inside, the server's set read
    after; its own key alone again after, read again by the next request."""
    server, issuer, resource, _ = served
    issuer.published, issuer.extra = published, extra
    time.sleep(JWKS_MAX_AGE_S + 0.5)  # the set in hand is past its max age: the next request reads it
    probe = _token(issuer, _claims(resource, org=f"p-{uuid.uuid4().hex[:6]}", scope="memvault:read"))
    deadline = time.monotonic() + 30  # a reading may time out (503) on a loaded machine: the next one is tried
    while server.post(probe, PING).status_code == 503 and time.monotonic() < deadline:
        time.sleep(0.5)
    try:
        yield
    finally:
        issuer.published, issuer.extra = {KID: issuer.key}, []
        time.sleep(JWKS_MAX_AGE_S + 0.5)


def test_a_key_too_weak_for_its_algorithm_verifies_no_token_and_the_log_names_its_kind(served) -> None:
    """A 1024-bit RSA key in the JWKS verified tokens (PyJWT only warns). Now each weak key is not
    used: its tokens get 401 naming why, nothing is written, the log names each by its place in the
    set and a hash of its kid (never the issuer's text); a sound key beside them still writes."""
    weak = _weak_keys()
    forged_kid = "weak\nrefused nothing FORGED"
    bad = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    server, issuer, resource, db = served
    with _listing(served, {KID: issuer.key}, [jwk for _, jwk, _, _, _ in weak] + [
            _jwk(bad.public_key(), forged_kid, alg="RS256")]):
        tenant = f"w-{uuid.uuid4().hex[:6]}"
        for kid, _, alg, sign, why in [*weak, (forged_kid, None, "RS256", _rsa_signer(bad, "RS256"),
                                               "it is a 1024-bit RSA key; RFC 7518 §3.3 asks 2048 bits or more")]:
            token = _unsigned({"alg": alg, "typ": "JWT", "kid": kid},
                              _claims(resource, org=tenant, scope="memvault:write"), sign)
            response = server.post(token, _call("remember", {"content": "Written with a weak key."}))
            assert response.status_code == 401, (kid, response.text)
            assert refused(response, 401, "invalid_token") == CANNOT + why, kid
            assert 'error="invalid_token"' in response.headers["www-authenticate"]
        sound = _token(issuer, _claims(resource, org=tenant, scope="memvault:write"))
        response = server.post(sound, _call("remember", {"content": "Written with the issuer's sound key."}))
        assert response.status_code == 200 and not response.json()["result"]["isError"], response.text
        log = server.log()
    assert _stored(db, tenant) == ["Written with the issuer's sound key."]
    for index, (kid, _, _, _, why) in enumerate([*weak, (forged_kid, None, None, None, "it is a 1024-bit RSA key")],
                                                start=1):  # the issuer's own key is #0
        assert f"the issuer's JWKS key #{index} (kid {_kid_hash(kid)}) is not used: {why}" in log, (kid, log)
        assert kid not in log
    assert "FORGED" not in log and "Traceback" not in log
    assert log.count(f"(kid {_kid_hash(weak[0][0])}) is not used") == 1  # said once, not at every reading


def test_a_jwks_of_weak_keys_only_is_said_at_its_first_reading(served) -> None:
    server, issuer, resource, db = served
    tenant = f"o-{uuid.uuid4().hex[:6]}"
    key = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    with _listing(served, {}, [_jwk(key.public_key(), KID, alg="RS256")]):
        token = _unsigned({"alg": "RS256", "typ": "JWT", "kid": KID},
                          _claims(resource, org=tenant, scope="memvault:write"), _rsa_signer(key, "RS256"))
        response = server.post(token, _call("remember", {"content": "Written while only a weak key is listed."}))
        assert response.status_code == 401, response.text
        assert response.json()["error"]["message"] == (
            CANNOT + "it is a 1024-bit RSA key; RFC 7518 §3.3 asks 2048 bits or more")
        log = server.log()
    assert (f"the issuer's JWKS key #0 (kid {_kid_hash(KID)}) is not used: it is a 1024-bit RSA key" in log
            and "the issuer's JWKS lists no signing key memvault can use (1 listed): every token is refused" in log)
    assert _stored(db, tenant) == []


# ---------------------------------------------------------------- waits for a slow issuer


def test_a_slow_issuer_holds_no_request_the_set_in_hand_answers_and_fails_closed_at_its_max_age(
        tmp_path: Path) -> None:
    """With the issuer's JWKS endpoint hanging, the request that came once the set was half its max
    age waited the whole reading (5 s; every cooldown) though the set in hand verified it. Now a
    reading the set in hand does not need runs behind the requests: every tenant is answered at once
    until the max age, then 503 temporarily_unavailable with Retry-After (fail closed), no request
    waiting longer than one reading; back to 200 once the issuer answers."""
    max_age_s = 16  # cooldown min(10, 8) = 8 s; a reading started before 16 - 5 = 11 s runs behind
    with _served(tmp_path, max_age_s) as (server, issuer, resource, db), ThreadPoolExecutor(4) as pool:
        tokens = {t: _token(issuer, _claims(resource, org=t, scope="memvault:write")) for t in ("alpha", "bravo")}
        for tenant in tokens:  # warm the model and the credential check (a first remember took 7 s under load)
            assert server.post(tokens[tenant], _call("remember", {"content": f"Warm-up of {tenant}."})).status_code == 200
        start = issuer.read_at  # the set in hand was asked for then: its max age ends by start + max_age_s
        issuer.down = True
        issuer.gate.clear()  # a reading now hangs (the issuer answers nothing for 20 s)
        time.sleep(max(0.0, start + max_age_s / 2 + 0.5 - time.monotonic()))  # the next reading is due

        def timed(tenant: str, body: dict[str, Any] = PING) -> tuple[int, float, httpx2.Response]:
            began = time.monotonic()
            response = server.post(tokens[tenant], body)
            return response.status_code, time.monotonic() - began, response

        before = issuer.requests
        first = timed("alpha")  # starts the reading the set in hand does not need
        quick = JWKS_TIMEOUT_S - 1.5  # the whole reading was JWKS_TIMEOUT_S; a request takes 0.1 s unloaded
        assert first[0] == 200 and first[1] < quick, first[:2]
        during = list(pool.map(lambda n: timed("bravo" if n % 2 else "alpha", _call(
            "remember", {"content": f"Written during the slow reading, {n}."})), range(6)))
        while issuer.requests == before and time.monotonic() - start < max_age_s / 2 + JWKS_TIMEOUT_S:
            time.sleep(0.05)
        assert issuer.requests == before + 1 and issuer.reading == 1  # one reading, still hanging
        assert [code for code, _, _ in during] == [200] * 6 and max(s for _, s, _ in during) < quick, during
        time.sleep(max(0.0, start + max_age_s + 0.5 - time.monotonic()))  # past the max age: fail closed
        after = [timed(t) for t in ("alpha", "bravo", "alpha")]
        for code, seconds, response in after:
            assert code == 503 and refused(response, 503, "temporarily_unavailable")
            assert int(response.headers["retry-after"]) >= 1 and seconds < JWKS_TIMEOUT_S + 2.5, seconds
        issuer.down = False
        issuer.gate.set()
        deadline = time.monotonic() + 30
        while (code := timed("bravo")[0]) != 200 and time.monotonic() < deadline:  # the next reading restores it
            assert code == 503
            time.sleep(0.5)
        assert code == 200
        log = server.log()
    assert sorted(c for c in _stored(db, "alpha") + _stored(db, "bravo") if c) == sorted(
        [f"Written during the slow reading, {n}." for n in range(6)] + [f"Warm-up of {t}." for t in tokens])
    assert "could not read the issuer's JWKS" in log and "Traceback" not in log


# ---------------------------------------------------------------- sub spelled several ways


VARIANTS = [" user-1", "user-1 ", "user-1\t", "\tuser-1", "user-1\n", "user\u200b-1", "user\u200c-1", "user\u200d-1",
            "user\u2060-1", "\ufeffuser-1", "user-1\u00ad", "user\u00a0-1", "user-1\u3000", "\uff55ser-1",
            "\ufb01le-user-1", "user  -1", "u\u0301ser-1"]
ACCEPTED = ["auth0|5f7c8ec7c33c6c004bbafe82", "alice@example.com", "Jane Doe", "김민수", "caf\u00e9-1",
            "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ", "https://id.example.com/users/7"]


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[HttpServer, Issuer, str, Path]]:
    issuer, port, db = Issuer(), free_port(), tmp_path_factory.mktemp("sub") / "memvault.db"
    resource = f"http://127.0.0.1:{port}/mcp"
    server = HttpServer(db, "--auth", "oauth", "--oauth-issuer", ISSUER, "--oauth-resource", resource,
                        "--oauth-jwks-url", issuer.jwks_url, "--oauth-tenant-claim", "org", "--rate-limit", "3",
                        port=port)
    yield server, issuer, resource, db
    server.close()
    issuer.close()


@pytest.mark.parametrize("sub", VARIANTS)
def test_a_sub_that_trimming_nfkc_or_invisible_characters_change_is_refused_naming_the_claim(limited, sub) -> None:
    """Each spelling of one subject was a rate-limit bucket of its own (the limit is per tenant and
    sub): refused as the tenant claim is, with 401 naming the claim and never its value."""
    server, issuer, resource, db = limited
    tenant = f"s-{uuid.uuid4().hex[:6]}"
    response = server.post(_token(issuer, _claims(resource, org=tenant, sub=sub, scope="memvault:write")),
                           _call("remember", {"content": "Written by a spelling of user-1."}))
    description = refused(response, 401, "invalid_token")
    assert description.startswith("claim sub: "), description
    assert "user" not in description and "user" not in response.headers["www-authenticate"]
    assert "one spelling of each" in description
    assert _stored(db, tenant) == []
    log = server.log()
    assert "refused a JWT: claim sub\n" in log and "user\u200b" not in log and "Traceback" not in log


def test_one_subject_has_one_limit_and_every_sound_spelling_its_own(limited) -> None:
    server, issuer, resource, _ = limited
    tenant = f"r-{uuid.uuid4().hex[:6]}"

    def served(sub: str, count: int) -> list[int]:
        token = _token(issuer, _claims(resource, org=tenant, sub=sub, scope="memvault:read"))
        return [server.post(token, PING).status_code for _ in range(count)]

    assert served("user-1", 4) == [200, 200, 200, 429]
    assert {code for sub in VARIANTS[:6] for code in served(sub, 1)} == {401}  # no new bucket for a variant
    for sub in ACCEPTED:  # issuers' subjects of many shapes: each its own caller
        assert served(sub, 1) == [200], sub


def test_the_refusal_of_a_sub_is_the_tenant_rule(limited) -> None:
    """The same spellings of a tenant were already refused (test_oauth): the rule is one."""
    server, issuer, resource, _ = limited
    for variant in ("user\u200b-1", " user-1", "\uff55ser-1", "u\u0301ser-1"):
        for claim in ("org", "sub"):
            claims = _claims(resource, scope="memvault:read", **{claim: variant})
            response = server.post(_token(issuer, claims), PING)
            assert response.status_code == 401, (claim, response.text)
            assert response.json()["error"]["message"].startswith(f"claim {claim}: ")

