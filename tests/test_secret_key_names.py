"""A generated key under a document's name ``key`` alone (kaggle.json, a TOML table, YAML), or under a name
ending in ``Key`` or ``_key`` (``jwtSigningKey``), is refused and redacted; a key name holding a word, a path,
a short id, a hash under a compound name, a UUID, a public key or a placeholder is stored (issue 25 §1.8)."""

from __future__ import annotations

import random
import string

import pytest

from memvault.storage.secrets import find_secrets, redact

_RANDOM = random.Random(25)


def _draw(n: int, alphabet: str) -> str:
    return "".join(_RANDOM.choice(alphabet) for _ in range(n))


HEX = [_draw(32, "0123456789abcdef") for _ in range(3)]
# lower-case letters and digits: about 1 in 10 random ones reads as words and passes (docs/limits.md)
BASE36 = ["a8f3k2m9q7x4l1p6r8s2t5v", "k7w2p9zt4m1xq8r3v6n0", "t4k9m2x7q1z8w3p6v5r0s2k8j4n7m1q9x3c6b2"]
MIXED = [_draw(n, string.ascii_letters + string.digits) for n in (18, 22, 32)]

BARE = [
    *(f'{{"username":"jdoe","key":"{v}"}}' for v in HEX),
    *(f'[api]\nkey = "{v}"' for v in BASE36),
    *(f"key: {v}" for v in MIXED),
    f"- name: prod\n  key: {HEX[0]}",
    f"KEY={BASE36[1]}",
    f'{{"key": "{MIXED[0]}", "user": "jdoe"}}',
]
COMPOUND = [f"{name}{sep}{v}" for name, sep, v in (
    ("jwtSigningKey", ": ", MIXED[1]), ("hmacKey", " = ", MIXED[2]), ("JWT_SIGNING_KEY", "=", MIXED[0]),
    ("jwt_signing_key", ": ", MIXED[1]), ('"encryptionKey"', ": ", f'"{MIXED[2]}"'),
    ("sessionCookieKey", ": ", MIXED[0]))]
# clientSecret / signingSecret / webhookToken were refused before: they stay so
OTHER_NAMES = [f"clientSecret: {MIXED[0]}", f'signingSecret = "{MIXED[1]}"', f"webhookToken: {MIXED[2]}"]


@pytest.mark.parametrize("text", [*BARE, *COMPOUND, *OTHER_NAMES])
def test_a_generated_key_under_a_name_for_a_key_is_refused(text: str) -> None:
    assert find_secrets(text)[0]


@pytest.mark.parametrize("text", [*BARE, *COMPOUND])
def test_a_generated_key_under_a_name_for_a_key_is_redacted(text: str) -> None:
    redacted, kinds = redact(text)
    assert kinds
    assert not any(v in redacted for v in (*HEX, *BASE36, *MIXED))


@pytest.mark.parametrize("text", [
    "key: value", "sort key: created_at", "primary key = id", "the key point is this", "press the key twice",
    '"key": "user_profile_cache"', "key: photos/2024/img_0042.jpg", "key: abc123", "key: v1-deps-2024",
    "key: 550e8400-e29b-41d4-a716-446655440000", 'key = "<your-key>"', "key: xxxxxxxxxxxxxxxxxxxxxxxx",
    "key: changeme", "key: aaaa1111bbbb2222", "primaryKey: userId", "partitionKey: tenant_42_2024_shard7",
    f"cacheKey: {HEX[0]}", f"etag_key: {HEX[1]}", "publicKey: MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEq3",
    f"siteKey: 6Lc{MIXED[2]}", f"vapidPublicKey: {MIXED[1]}", f"verifyKey: {MIXED[0]}",
    "the cache key is 5d41402abc4b2a76b9719d911017c592", "commit 5d41402abc4b2a76b9719d911017c592ab12cd34",
    # type annotations: a type's name is no key
    "self, msg: str | bytes, key: Ed25519PrivateKey | Ed448PrivateKey", "[key: Ed25519PrivateKey]",
    "@dataclass\nclass Signer:\n    key: Ed25519PrivateKey\n    sessionKey: Curve25519KeyPair\n",
])
def test_a_key_name_holding_no_generated_secret_is_stored(text: str) -> None:
    assert find_secrets(text) == [[]]


@pytest.mark.parametrize("unit", ['{"key":"', "key: a1b2c3d4e5f6g7h8", "jwtSigningKey: ", "aKey=", "wandb login ",
                                  "heroku auth:token\n", "login --x " + "a1" * 12 + " "])
def test_the_key_name_readings_take_linear_time(unit: str) -> None:
    from test_secret_scan import LARGE, _grows_linearly

    assert _grows_linearly(lambda size: unit * (size // len(unit)), large=LARGE) is None
    assert _grows_linearly(lambda size: unit * (size // len(unit)), redact, large=LARGE) is None
