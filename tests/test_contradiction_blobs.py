"""Base64 runs (the bodies of public keys and certificates, random tokens) are no values: two unrelated
key blobs do not contradict (trial 57 #5b: a gpg public key then an X.509 certificate were "different
ident"), while a changed commit id, version, host or port about one subject still does."""

from __future__ import annotations

import base64
import random

import pytest
from memvault.storage.contradiction import disagreement


def _body(seed: int, size: int) -> str:
    return base64.b64encode(random.Random(seed).randbytes(size)).decode()


def _pem(label: str, seed: int, size: int = 600) -> str:
    body = _body(seed, size)
    return "\n".join([f"-----BEGIN {label}-----", *(body[i:i + 64] for i in range(0, len(body), 64)),
                      f"-----END {label}-----"])


def _pgp(seed: int) -> str:
    body = _body(seed, 300)
    return "\n".join(["-----BEGIN PGP PUBLIC KEY BLOCK-----", "", *(body[i:i + 64] for i in range(0, len(body), 64)),
                      "=" + _body(seed + 1, 3), "-----END PGP PUBLIC KEY BLOCK-----"])


BLOBS = [
    (_pgp(1), _pem("CERTIFICATE", 2)),
    (_pgp(3), _pgp(4)),
    (_pem("CERTIFICATE", 5), _pem("CERTIFICATE", 6)),
    (_pem("PUBLIC KEY", 7, 270), _pem("PUBLIC KEY", 8, 270)),
    (f"ssh-rsa {_body(9, 279)} ops@bastion", f"ssh-rsa {_body(10, 279)} ops@bastion"),
    (f"ssh-ed25519 {_body(11, 51)}", f"ssh-rsa {_body(12, 279)}"),
    (_pgp(13), f"ssh-ed25519 {_body(14, 51)}"),
]


@pytest.mark.parametrize(("older", "newer"), BLOBS)
def test_two_key_or_certificate_bodies_do_not_contradict(older, newer):
    assert disagreement(older, newer) is None


@pytest.mark.parametrize(("older", "newer", "kind"), [
    ("We deployed commit 3f2a9c1 to production.", "We deployed commit 8b7d0e4 to production.", "different ident"),
    ("Production runs commit 3f2a9c1e5b7d9f0a1c3e5b7d9f0a1c3e5b7d9f0a.",
     "Production runs commit 8b7d0e4a6c8e0b2d4f6a8c0e2b4d6f8a0c2e4b6d.", "different ident"),
    ("The API gateway runs Kong 3.6.", "The API gateway runs Kong 3.7.", "different number"),
    ("The staging database is db-stg-03.", "The staging database is db-stg-07.", "different ident"),
    ("The admin API listens on port 8443.", "The admin API listens on port 9443.", "different number"),
])
def test_a_changed_commit_version_host_or_port_still_contradicts(older, newer, kind):
    assert (disagreement(older, newer) or "").startswith(kind)


def test_remember_does_not_call_a_certificate_a_change_of_a_gpg_key(real_store):
    older, newer = BLOBS[0]
    real_store.remember(tenant="t", scope="p", content=older)
    assert real_store.remember(tenant="t", scope="p", content=newer).contradicts == ()


# The check of 5 December after trial 57: an OpenSSH public key's type ("ssh-ed25519") was read as an identifier,
# and with the key's body (no value) left out the host or owner labelling the key was the one value left, so two
# keys for two things, or a key then a note naming a key type, read as a changed value.
def _openssh(kind: str, seed: int) -> str:
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    rng = random.Random(seed)
    if kind == "ed25519":
        key = ed25519.Ed25519PrivateKey.from_private_bytes(rng.randbytes(32)).public_key()
    elif kind == "rsa":
        key = rsa.RSAPublicNumbers(65537, rng.getrandbits(2048) | 1 << 2047 | 1).public_key()
    else:
        key = ec.derive_private_key(rng.getrandbits(200) + 1, ec.SECP256R1()).public_key()
    return key.public_bytes(Encoding.OpenSSH, PublicFormat.OpenSSH).decode()


ED, ED2, RSA, RSA2, ECDSA, ECDSA2 = (_openssh(kind, seed) for seed, kind in enumerate(
    ["ed25519", "ed25519", "rsa", "rsa", "ecdsa", "ecdsa"]))

TWO_KEYS = [
    *((f"Deploy key for web-01: {a}", f"Deploy key for db-02: {b}")
      for a, b in [(ED, ED2), (RSA, RSA2), (ECDSA, ECDSA2)]),
    (f"Key for web-01: {ED}", f"Key for db-02: {RSA}"),
    (f"{ED} deploy@web-01", f"{ED2} deploy@db-02"), (f"{ECDSA} deploy@web-01", f"{ECDSA2} deploy@db-02"),
    (f"{RSA} ops@bastion", f"{RSA2} ci@runner"), (f"{ED} alice@laptop", f"{ED2} bob@desktop"),
    (f"authorized_keys on web-01: {ED} alice@laptop", f"authorized_keys on db-02: {ED2} bob@desktop"),
    (f"SSH key of Alice: {ED}", f"SSH key of Bob: {ED2}"), (f"{ED} Alice", f"{RSA} Bob"),
    (f"the deploy key for web-01 is {ED}", f"the deploy key for db-02 is {ED2}"),
    (f"Deploy key for web-01: {ED}. It is rotated yearly.", f"Deploy key for db-02: {ED2}. It is rotated yearly."),
]
KEY_THEN_NOTE = [
    (f"the bastion host key is {ECDSA}", "we use ssh-ed25519 keys for deploy users"),
    (f"the bastion host key is {ECDSA}", "Deploy keys: use ssh-ed25519, never ssh-rsa"),
    (f"the deploy key for web-01 is {ED}", "Generate deploy keys with ssh-keygen -t ed25519"),
    (f"Deploy key for web-01: {ED}", "Key type: ssh-ed25519"),
    (f"web-01: {ED}", "we use ssh-ed25519 keys for deploy users"),
    (f"{ED} deploy@web-01", "Generate deploy keys with ssh-keygen -t ed25519"),
    (f"Deploy key for web-01: {RSA}", "Deploy keys: use ssh-ed25519, never ssh-rsa"),
]


@pytest.mark.parametrize(("older", "newer"), TWO_KEYS + KEY_THEN_NOTE)
def test_two_public_keys_for_two_things_or_a_key_then_a_note_naming_a_key_type_do_not_contradict(older, newer):
    assert disagreement(older, newer) is None


@pytest.mark.parametrize(("older", "newer", "kind"), [
    ("The deploy key type is ssh-rsa", "The deploy key type is now ssh-ed25519",
     "different key: ssh-rsa → ssh-ed25519"),
    ("Deploy keys use ssh-rsa", "Deploy keys now use ssh-ed25519", "different key: ssh-rsa → ssh-ed25519"),
    (f"Server web-01 runs nginx 1.25. Host key: {ED}", f"Server web-01 runs nginx 1.27. Host key: {ED2}",
     "different number: 1.25 → 1.27"),
    (f"Host key: {ED}\nweb-01 listens on port 22", f"Host key: {ED2}\nweb-01 listens on port 2222",
     "different number: 22 → 2222"),
    (f"Deploy key for web-01: {ED}. It is rotated yearly.", f"Deploy key for db-02: {ED2}. It is rotated monthly.",
     "different word: yearly → monthly"),
])
def test_a_key_type_changed_or_a_value_changed_beside_two_keys_still_contradicts(older, newer, kind):
    assert disagreement(older, newer) == kind


def test_a_new_key_for_the_same_subject_is_judged_as_before():
    """A key's body is no value (above): a new key said of the same subject is no changed value, with or without
    "now", as before keys' types were read."""
    assert disagreement(f"the deploy key for web-01 is {ED}", f"the deploy key for web-01 is now {ED2}") is None
    assert disagreement(f"Deploy key for web-01: {ED}", f"Deploy key for web-01: {ED2}") is None


def test_remember_and_recall_keep_two_deploy_keys_for_two_hosts_current(real_store):
    for scope, older, newer, query in [
            ("hosts", f"Deploy key for web-01: {ED}", f"Deploy key for db-02: {ED2}", "the deploy key for web-01"),
            ("bastion", f"{RSA} ops@bastion", f"{RSA2} ci@runner", "ops@bastion ssh-rsa key")]:
        kept = real_store.remember(tenant="t", scope=scope, content=older).id
        assert real_store.remember(tenant="t", scope=scope, content=newer).contradicts == ()
        hits = real_store.recall(tenant="t", scopes=[scope], query=query).hits
        assert kept in [hit.memory.id for hit in hits] and all(hit.outdated_by is None for hit in hits)
