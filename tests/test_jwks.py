"""The issuer's key set as memvault holds it (server.auth.KeySet): read from a loopback
issuer (test_oauth.Issuer, counting its reads) on a fake clock."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import jwt
import pytest
from test_oauth import KID, Issuer

from memvault.server.auth import IssuerUnreachable, KeyRefused, KeySet

MAX_AGE_S, COOLDOWN_S = 60, 10


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def issuer() -> Iterator[Issuer]:
    served = Issuer()
    yield served
    served.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


def wait_until(condition: Callable[[], bool], timeout_s: float = 30.0) -> None:
    """Poll ``condition`` until true; fail the test after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "the issuer never reached the state waited for"
        time.sleep(0.01)


def keys_of(issuer: Issuer, clock: Clock) -> KeySet:
    return KeySet(issuer.jwks_url, MAX_AGE_S, COOLDOWN_S, timeout_s=20, clock=clock)


def test_a_set_past_its_max_age_is_never_trusted_while_the_issuer_is_down(issuer, clock) -> None:
    keys = keys_of(issuer, clock)
    assert keys.key(KID).key_id == KID and issuer.requests == 1
    issuer.down = True
    clock.now += MAX_AGE_S / 2  # due: read again behind the request, the set in hand still trusted
    assert keys.key(KID).key_id == KID and keys.idle(30) and issuer.requests == 2
    clock.now += MAX_AGE_S / 2  # past the max age of the one good reading; the last attempt is 30 s old
    with pytest.raises(IssuerUnreachable) as refused:
        keys.key(KID)
    assert issuer.requests == 3 and refused.value.retry_s == COOLDOWN_S
    for step in range(1, COOLDOWN_S):  # no reading within the cooldown after a failed one
        clock.now += 0.99
        with pytest.raises(IssuerUnreachable):
            keys.key(KID)
        with pytest.raises(IssuerUnreachable):
            keys.key(f"unknown-{step}")
    assert issuer.requests == 3
    issuer.down = False
    clock.now += 1.2  # the cooldown is over
    assert keys.key(KID).key_id == KID and issuer.requests == 4


def test_unknown_kids_read_the_set_at_most_once_per_cooldown_whether_the_issuer_answers_or_not(issuer, clock) -> None:
    keys = keys_of(issuer, clock)
    keys.key(KID)
    for down in (False, True):
        issuer.down = down
        clock.now += COOLDOWN_S
        before = issuer.requests
        for i in range(50):
            with pytest.raises(jwt.PyJWKClientError):  # 401: the set in hand is younger than its max age
                keys.key(f"unknown-{down}-{i}")
            clock.now += COOLDOWN_S / 100
        assert issuer.requests == before + 1
        assert keys.key(KID).key_id == KID


def test_a_new_key_is_found_by_the_reading_its_kid_causes(issuer, clock) -> None:
    keys = keys_of(issuer, clock)
    keys.key(KID)
    issuer.published["rotated"] = issuer.key
    clock.now += COOLDOWN_S
    assert keys.key("rotated").key_id == "rotated"
    del issuer.published["rotated"]
    clock.now += MAX_AGE_S / 2  # withdrawn: refused from the next reading, due at half the max age
    assert keys.key("rotated").key_id == "rotated"  # the set in hand answers; the reading runs behind it
    assert keys.idle(30)
    with pytest.raises(jwt.PyJWKClientError):
        keys.key("rotated")
    assert issuer.requests == 3


@pytest.mark.parametrize("stale", [False, True])
def test_a_request_during_a_reading_is_answered_without_waiting_for_it(issuer, clock, stale: bool) -> None:
    keys = keys_of(issuer, clock)
    keys.key(KID)
    # The client has the set before the issuer's handler has counted itself out: wait for that.
    wait_until(lambda: issuer.reading == 0)
    issuer.down = True
    issuer.gate.clear()  # the next reading hangs until the gate opens
    clock.now += MAX_AGE_S if stale else MAX_AGE_S / 2
    reading = threading.Thread(target=lambda: pytest.raises(Exception, keys.key, "unknown-first") if stale
                               else keys.key(KID))
    reading.start()
    try:
        wait_until(lambda: issuer.requests == 2)  # the second reading has begun, and hangs
        if stale:
            with pytest.raises(IssuerUnreachable):
                keys.key(KID)
        else:
            assert keys.key(KID).key_id == KID
        with pytest.raises(IssuerUnreachable if stale else jwt.PyJWKClientError):
            keys.key("unknown-meanwhile")
        assert issuer.reading == 1 and issuer.requests == 2  # answered while the one reading hangs
    finally:
        issuer.gate.set()
        reading.join()
    assert issuer.most_at_once == 1


def test_an_issuer_dripping_its_answer_holds_no_reading_past_the_timeout(issuer, clock) -> None:
    """PyJWKClient timed each socket read only: a JWKS sent one byte a second held the one
    reading (and every login) for as long as the drip lasted. A reading now has one deadline."""

    keys = KeySet(issuer.jwks_url, MAX_AGE_S, COOLDOWN_S, timeout_s=2, clock=clock)
    issuer.drip = True  # about 500 bytes: some 8 minutes
    start = time.monotonic()
    with pytest.raises(IssuerUnreachable):
        keys.key(KID)
    assert time.monotonic() - start < 60 and issuer.requests == 1
    issuer.drip = False
    clock.now += COOLDOWN_S  # the next reading is allowed, and the issuer answers again
    assert keys.key(KID).key_id == KID and issuer.requests == 2


@pytest.mark.parametrize("withdrawn", [
    {"published": {}},  # {"keys": []}
    {"uses": {KID: "enc"}},  # the key is listed for encryption only
    {"published": {}, "extra": [{"kty": "oct", "k": "c2VjcmV0"}, {"kty": "XYZ", "kid": KID}, "not a key",
                                {"kty": "RSA", "kid": KID, "n": 5, "e": "AQAB"}]},  # no key PyJWT can use
])
def test_a_set_without_a_signing_key_is_a_reading_and_refuses_every_kid(issuer, clock, withdrawn) -> None:
    """An issuer withdrawing every signing key was not believed (PyJWKSet refuses a set without a
    usable key, read as a failed reading): the withdrawn key kept working up to the max age, then
    every token got 503 "could not be read" forever, never 401."""
    keys = keys_of(issuer, clock)
    assert keys.key(KID).key_id == KID
    for name, value in withdrawn.items():
        setattr(issuer, name, value)
    clock.now += MAX_AGE_S / 2  # the next reading is due: it runs behind the request the set in hand answers
    assert keys.key(KID).key_id == KID and keys.idle(30)
    for step in range(3):  # refused by the reading, and by each reading after it: never IssuerUnreachable
        with pytest.raises((jwt.PyJWKClientError, KeyRefused)) as refused:  # no kid, or one no key verifies with
            keys.key(KID)
        assert isinstance(refused.value, KeyRefused) == bool(withdrawn.get("uses") or withdrawn.get("extra"))
        clock.now += MAX_AGE_S
    assert issuer.requests == 4
    issuer.published, issuer.uses, issuer.extra = {KID: issuer.key}, {}, []
    clock.now += COOLDOWN_S
    assert keys.key(KID).key_id == KID  # listed again: found by the reading its kid causes


@pytest.mark.parametrize("document", [{}, {"keys": "k1"}, ["keys"]])
def test_a_document_that_is_no_jwks_is_a_failed_reading_not_an_empty_set(issuer, clock, document) -> None:
    """RFC 7517 §5: a JWKS is an object with a "keys" list; anything else was not read, and the
    set in hand keeps its trust until its max age, as when the issuer is down."""
    keys = keys_of(issuer, clock)
    assert keys.key(KID).key_id == KID
    issuer.document = document
    clock.now += MAX_AGE_S / 2
    assert keys.key(KID).key_id == KID and keys.idle(30)
    assert keys.key(KID).key_id == KID and issuer.requests == 2  # not read: the set in hand is still trusted
    clock.now += MAX_AGE_S / 2
    with pytest.raises(IssuerUnreachable):
        keys.key(KID)
