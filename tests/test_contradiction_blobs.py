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
