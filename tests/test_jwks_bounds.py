"""What one reading of the issuer's key set may cost, and a kid the set lists twice (trial 75 M1, L6, L1,
L7): read from a loopback issuer (test_oauth.Issuer) by server.auth.KeySet on a fake clock, and by a real
team server."""

from __future__ import annotations

import gzip
import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from httpwire import PING, HttpServer, refused
from test_jwks import COOLDOWN_S, MAX_AGE_S, Clock, issuer, clock, keys_of  # noqa: F401 - fixtures
from test_oauth import JWKS_MAX_AGE_S, KID, Issuer, _claims, _served, _token

from memvault.server.auth import JWKS_MAX_BYTES, JWKS_MAX_KEYS, JWKS_TIMEOUT_S, NESTING_MAX, IssuerUnreachable, KeyRefused, \
    KeySet

LOGGER = "memvault.server.auth"


def _jwk(key: rsa.RSAPrivateKey, kid: str) -> dict[str, str]:
    return {**json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key())), "kid": kid, "use": "sig"}


def _huge(size: int) -> bytes:
    return b'{"keys": [' + b" " * size


@pytest.mark.parametrize("case", ["64 MB sent as fast as read", "64 MB in 62 KB of gzip", "just over the limit",
                                  "200,000 levels deep", "one level too deep"])
def test_an_answer_too_large_or_too_deep_is_not_read_past_the_limit(issuer, clock, caplog, case) -> None:
    """The whole answer was read, then decoded: 300 MB sent quickly took memory from 323 MB to 1.89 GB and
    held requests 7.6 to 11.4 s. Now the reading stops past JWKS_MAX_BYTES, decoded bytes counted."""
    deep = {"200,000 levels deep": 200_000, "one level too deep": NESTING_MAX - 1}.get(case, 0)  # and 2 around
    issuer.body = {"64 MB sent as fast as read": _huge(64_000_000), "64 MB in 62 KB of gzip": gzip.compress(
        _huge(64_000_000)), "just over the limit": _huge(JWKS_MAX_BYTES - 9)}.get(
        case, b'{"keys": [' + b"[" * deep + b"]" * deep + b"]}")
    said = (f"it nests more than {NESTING_MAX} levels of arrays and objects (NESTING_MAX)" if deep else
            f"it is over {JWKS_MAX_BYTES:,} bytes (JWKS_MAX_BYTES), the most read")
    keys, body, issuer.body = keys_of(issuer, clock), issuer.body, None
    assert keys.key(KID).key_id == KID
    issuer.body, issuer.gzip = body, "gzip" in case
    clock.now += MAX_AGE_S / 2
    caplog.set_level(logging.WARNING, logger=LOGGER)
    began = time.monotonic()
    assert keys.key(KID).key_id == KID and keys.idle(30)  # the set in hand is still trusted
    assert time.monotonic() - began < JWKS_TIMEOUT_S
    assert issuer.sent < 32_000_000  # stopped early: what was sent is at most the socket buffers beyond the limit
    assert [m for m in caplog.messages if "could not read" in m] == [f"could not read the issuer's JWKS: {said}"]


def test_a_set_of_exactly_the_most_bytes_is_read(issuer, clock) -> None:
    text = json.dumps({"keys": [_jwk(issuer.key, KID)]}).encode()
    issuer.body = text[:-1] + b" " * (JWKS_MAX_BYTES - len(text)) + b"}"
    assert keys_of(issuer, clock).key(KID).key_id == KID


def test_a_set_of_more_keys_than_the_limit_is_not_read_and_one_at_the_limit_is(issuer, clock, caplog) -> None:
    """10,000 keys cost 2.2 s a reading (each loaded by PyJWT): the set is refused past JWKS_MAX_KEYS."""
    other = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    keys = keys_of(issuer, clock)
    caplog.set_level(logging.WARNING, logger=LOGGER)
    issuer.extra = [_jwk(other, f"x{i}") for i in range(JWKS_MAX_KEYS)]  # with the issuer's own: one too many
    clock.now += COOLDOWN_S
    with pytest.raises(IssuerUnreachable):  # the first reading failed
        keys.key(KID)
    assert caplog.messages == [f"could not read the issuer's JWKS: it lists {JWKS_MAX_KEYS + 1:,} keys, over the "
                               f"{JWKS_MAX_KEYS} read (JWKS_MAX_KEYS)"]
    issuer.extra = issuer.extra[1:]  # exactly the limit
    clock.now += COOLDOWN_S
    assert keys.key(KID).key_id == KID and keys.key(f"x{JWKS_MAX_KEYS - 1}").key_id == f"x{JWKS_MAX_KEYS - 1}"


@pytest.mark.parametrize("twins", [2, 3])
def test_a_kid_two_signing_keys_share_verifies_nothing_and_other_kids_still_do(issuer, clock, caplog, twins) -> None:
    """The first key of the kid was used and the other's tokens got "bad signature", nothing logged."""
    others = [rsa.generate_private_key(public_exponent=65537, key_size=2048) for _ in range(twins)]
    issuer.extra = [_jwk(key, KID) for key in others[1:]] + [_jwk(others[0], "alone"),
                                                             {**_jwk(others[0], KID), "use": "enc"}]
    keys = keys_of(issuer, clock)
    caplog.set_level(logging.WARNING, logger=LOGGER)
    with pytest.raises(KeyRefused, match=f"^the issuer publishes {twins} signing keys under this token's kid, and "
                       r"which one signed it cannot be told \(RFC 7517 §4.5"):
        keys.key(KID)
    assert keys.key("alone").key_id == "alone"
    said = [m for m in caplog.messages if f"{twins} signing keys of the set have its kid" in m]
    assert len(said) == twins and KID not in " ".join(caplog.messages)
    clock.now += MAX_AGE_S  # read again, the same set: said once, as a change
    with pytest.raises(KeyRefused):
        keys.key(KID)
    assert len([m for m in caplog.messages if "have its kid" in m]) == twins and issuer.requests == 2
    issuer.extra = issuer.extra[twins - 1:]  # the issuer fixes its set: one key of the kid again
    clock.now += MAX_AGE_S
    assert keys.key(KID).key_id == KID


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[HttpServer, Issuer, str, Path]]:
    """One team server (test_oauth._served, its set at most JWKS_MAX_AGE_S old) for the tests below: each
    changes the issuer, waits the set in hand out so that its first request reads the changed one, and puts
    the issuer back, its set read again, before it ends."""
    with _served(tmp_path_factory.mktemp("bounds")) as served:
        server, issuer, _, _ = served
        # Nothing read yet, the server is ready: the first token reads the set.
        assert httpx2.get(f"{server.base}/healthz", timeout=10).status_code == 200 and issuer.requests == 0
        yield served


def test_two_keys_of_one_kid_over_http_refuse_both_tokens_in_words(served) -> None:
    server, issuer, resource, _ = served
    twin = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    issuer.extra = [_jwk(twin, KID)]
    try:
        time.sleep(JWKS_MAX_AGE_S + 0.5)  # the set in hand is too old: the next request reads the twins
        for key in (issuer.key, twin):
            token = jwt.encode(_claims(resource, scope="memvault:read"), key, algorithm="RS256", headers={"kid": KID})
            assert refused(server.post(token, PING), 401, "invalid_token").startswith(
                "the issuer publishes 2 signing keys under this token's kid")
    finally:
        issuer.extra = []
    time.sleep(JWKS_MAX_AGE_S + 0.5)
    assert server.post(_token(issuer, _claims(resource, scope="memvault:read")), PING).status_code == 200
    assert server.log().count("signing keys of the set have its kid") == 2


def test_a_huge_jwks_answer_holds_no_request_past_the_documented_wait(served) -> None:
    server, issuer, resource, _ = served
    token = _token(issuer, _claims(resource, scope="memvault:read"))
    issuer.body = _huge(64_000_000)
    try:
        time.sleep(JWKS_MAX_AGE_S + 0.5)  # the set in hand is too old: the next request waits for a reading
        began = time.monotonic()
        response = server.post(token, PING)
        assert refused(response, 503, "temporarily_unavailable") and time.monotonic() - began < JWKS_TIMEOUT_S
        assert f"could not read the issuer's JWKS: it is over {JWKS_MAX_BYTES:,} bytes" in server.log()
    finally:
        issuer.body = None
    time.sleep(JWKS_MAX_AGE_S / 2 + 0.5)  # the cooldown after a failed reading (half the max age)
    assert server.post(token, PING).status_code == 200


def test_healthz_is_not_ready_while_no_token_can_be_checked_and_ready_again_with_the_issuer(served) -> None:
    """/healthz answered 200 ok while every token got 503 (the key set past its max age, unreadable). It now
    says 503, and comes back by itself once the issuer answers, whether tokens come or not."""
    server, issuer, resource, _ = served
    health = f"{server.base}/healthz"
    token = _token(issuer, _claims(resource, scope="memvault:read"))
    assert server.post(token, PING).status_code == 200 and httpx2.get(health, timeout=10).status_code == 200
    issuer.down = True
    issuer.gate.clear()
    try:
        time.sleep(JWKS_MAX_AGE_S + 0.5)  # past the max age
        assert refused(server.post(token, PING), 503, "temporarily_unavailable")
        answer = httpx2.get(health, timeout=10)
        assert answer.status_code == 503 and answer.json() == {
            "status": "error", "database": "ready", "model": answer.json()["model"],
            "reason": "issuer keys unreadable"}
    finally:
        issuer.down = False
        issuer.gate.set()
    deadline = time.monotonic() + 20
    while (answer := httpx2.get(health, timeout=10)).status_code != 200 and time.monotonic() < deadline:
        time.sleep(0.3)
    assert answer.json()["status"] == "ok" and server.post(token, PING).status_code == 200


def test_an_api_key_server_never_reports_the_issuer(tmp_path: Path) -> None:
    server = HttpServer(tmp_path / "m.db")
    try:
        assert httpx2.get(f"{server.base}/healthz", timeout=10).json()["status"] == "ok"
    finally:
        server.close()


def test_a_keyset_never_read_is_usable_until_a_reading_is_tried(issuer: Issuer, clock: Clock) -> None:
    keys = KeySet(issuer.jwks_url, MAX_AGE_S, COOLDOWN_S, timeout_s=20, clock=clock)
    assert keys.usable() and issuer.requests == 0  # /healthz reads nothing at the start
    issuer.down = True
    with pytest.raises(IssuerUnreachable):
        keys.key(KID)
    assert not keys.usable() and issuer.requests == 1  # within the cooldown: no reading started
    issuer.down = False
    clock.now += COOLDOWN_S
    assert not keys.usable() and keys.idle(30) and issuer.requests == 2  # one reading, behind the caller
    assert keys.usable()
