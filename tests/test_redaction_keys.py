"""Private keys in a captured turn, in the encodings text carries them in: each is replaced up to its
END line or, without one, to the end of the string, line or paragraph holding it, and what follows is
stored as it was. And the cut of a long turn never splits a redaction's marker. Asserted on the store."""

from __future__ import annotations

import json

import pytest

from memvault.storage.limits import TURN_MAX_CHARS
from memvault.storage.records import NewTurn

BODY = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7" + "Xk9aB3dQ7pLmN2vR8sT1uW4yZ6" * 30
LINES = [BODY[i:i + 64] for i in range(0, len(BODY), 64)]
SAMPLES = [line for line in LINES[1:-1:5]]  # pieces of the body: none may be stored


def _pem(label: str = "PRIVATE KEY", end: bool = True, indent: str = "", headers: tuple[str, ...] = ()) -> str:
    lines = [f"-----BEGIN {label}-----", *headers, *([""] if headers else []), *LINES]
    lines += [f"-----END {label}-----"] if end else []
    return "\n".join(indent + line if line else line for line in lines) + "\n"


def _gcp(pem: str, indent: int | None) -> str:
    return json.dumps({"type": "service_account", "project_id": "demo-proj",
                       "private_key_id": "3f1e2d4c5b6a79880f1e2d3c4b5a69788f7e6d5c", "private_key": pem,
                       "client_email": "svc@demo-proj.iam.gserviceaccount.com", "client_id": "1234567890"},
                      indent=indent)


def _stored(store, text: str) -> str:
    store.episodes.append(tenant="default", scope="default", session_id="s1",
                          turns=[NewTurn(role="tool", text=text, tool="Bash")])
    return store.episodes.turns(tenant="default", session_id="s1")[-1].text


KEPT_AFTER = "client_email is svc@demo-proj; deploy went on."

CASES = {
    # the trial's case: a service-account file, one line and indented
    "gcp-json-one-line": ("cat key.json\n" + _gcp(_pem(), None) + "\n" + KEPT_AFTER,
                          ['"client_email": "svc@demo-proj.iam.gserviceaccount.com", "client_id": "1234567890"}',
                           '"private_key": "[private key]", "client_email"']),
    "gcp-json-indented": (_gcp(_pem(), 2) + "\n" + KEPT_AFTER,
                          ['  "private_key": "[private key]",\n  "client_email": "svc@demo-proj.iam.gserviceaccount.com"',
                           '"client_id": "1234567890"\n}']),
    "json-no-end": (_gcp(_pem(end=False)[:900], None) + "\n" + KEPT_AFTER,  # a key cut short in its string
                    ['"private_key": "[private key]", "client_email": "svc@demo-proj.iam.gserviceaccount.com"']),
    "python-single-quoted": ("KEY = '" + _pem("RSA PRIVATE KEY").replace("\n", "\\n") + "'  # from vault\n"
                             + KEPT_AFTER, ["KEY = '[private key]'  # from vault"]),
    "yaml-block": ("credentials:\n  private_key: |\n" + _pem(indent="    ") + "  client_email: svc@demo-proj\n"
                   + KEPT_AFTER, ["  client_email: svc@demo-proj\n"]),
    "yaml-block-no-end": ("credentials:\n  private_key: |\n" + _pem(indent="    ", end=False) + "\n"
                          "  client_email: svc@demo-proj\n" + KEPT_AFTER, ["  client_email: svc@demo-proj\n"]),
    "one-line-with-spaces": ("key: -----BEGIN RSA PRIVATE KEY----- " + " ".join(LINES)
                             + " -----END RSA PRIVATE KEY----- (rotated)\n" + KEPT_AFTER, ["(rotated)"]),
    "one-line-no-end": ("key: -----BEGIN EC PRIVATE KEY----- " + " ".join(LINES) + "\n" + KEPT_AFTER, []),
    "raw-no-end-then-paragraph": ("here it is:\n" + _pem(end=False) + "\n" + KEPT_AFTER, ["here it is:\n"]),
    "openssh": (_pem("OPENSSH PRIVATE KEY") + KEPT_AFTER, []),
    "ec": ("before\n" + _pem("EC PRIVATE KEY") + KEPT_AFTER, ["before\n"]),
    "encrypted-rsa": (_pem("RSA PRIVATE KEY", headers=("Proc-Type: 4,ENCRYPTED",
                                                        "DEK-Info: AES-128-CBC,3F17F5316E2BAC89")) + KEPT_AFTER, []),
    "ssh2-encrypted": (_pem("SSH2 ENCRYPTED PRIVATE KEY", headers=("Comment: rsa-key",)) + KEPT_AFTER, []),
    "pgp-no-end": ("before\n" + _pem("PGP PRIVATE KEY BLOCK", end=False, headers=("Version: GnuPG v2",)) + "\n"
                   + KEPT_AFTER, ["before\n"]),
    "pgp": ("gpg --export-secret-keys\n" + _pem("PGP PRIVATE KEY BLOCK", headers=("Version: GnuPG v2",))
            + KEPT_AFTER, ["gpg --export-secret-keys\n"]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_private_key_is_replaced_to_its_end_and_the_rest_of_the_turn_is_kept(store, name):
    text, kept = CASES[name]
    stored = _stored(store, text)
    assert "[private key]" in stored
    assert not any(sample in stored for sample in SAMPLES), stored
    assert "DEK-Info" not in stored and "Version: GnuPG" not in stored
    assert stored.rstrip().endswith(KEPT_AFTER), stored
    for piece in kept:
        assert piece in stored, (piece, stored)


def test_two_keys_in_one_file_are_each_replaced_and_the_text_between_is_kept(store):
    text = _gcp(_pem(end=False)[:700], None) + "\nbetween the two\n" + _pem("EC PRIVATE KEY") + KEPT_AFTER
    stored = _stored(store, text)
    assert stored.count("[private key]") >= 2 and "between the two" in stored and KEPT_AFTER in stored
    assert not any(sample in stored for sample in SAMPLES)


TOKEN = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A"
MARKER = "[GitHub token]"


@pytest.mark.parametrize("before_cut", [1, 5, 9, len(MARKER) - 1, 0, len(MARKER), 200])
def test_the_cut_of_a_long_turn_never_splits_a_marker(store, before_cut):
    """The marker starts ``before_cut`` characters before the 20,000th (once redacted)."""
    start = TURN_MAX_CHARS - before_cut
    text = "a" * (start - 1) + " " + TOKEN + " " + "b" * 30_000
    stored = _stored(store, text)
    assert TOKEN[:8] not in stored and "[GitHub t" not in stored.replace(MARKER, "")
    head, said = stored.rsplit("\n[cut: ", 1)
    assert len(head) <= TURN_MAX_CHARS and said.startswith("the turn had")
    whole = before_cut >= len(MARKER)  # the marker ends before the cut: kept
    if whole:
        assert head[start:start + len(MARKER)] == MARKER
    else:
        assert head == "a" * (start - 1) + " " and said.endswith(f"{len(head):,} kept]")
