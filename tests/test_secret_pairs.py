"""The secret half of a key pair printed without a name after its key id (``secret_pairs.tsv``: an AWS
access key id and its secret access key in an accessKeys.csv row, ``aws iam create-access-key --output
text``, a table row, a message; a Twilio Account SID and its auth token), and a PuTTY private key's
block to its ``Private-MAC:`` line (adversarial pass 52, findings 1 and 2): refused, redacted whole in
a captured turn, and what only resembles them stored."""

from __future__ import annotations

import base64
import random
import string

import pytest

from memvault.storage.errors import InvalidInput
from memvault.storage.records import NewTurn
from memvault.storage.secrets import find_secrets, redact

_RANDOM = random.Random(52)


def _draw(n: int, alphabet: str) -> str:
    return "".join(_RANDOM.choice(alphabet) for _ in range(n))


AWS_ID = "AKIA" + _draw(16, string.ascii_uppercase + "234567")
AWS_SECRET = "Xb/iufMdI8X2Y4rUmer+BH3M1XS0DRdJuPnBIKpi"
TWILIO_SID = "AC" + _draw(32, "0123456789abcdef")
TWILIO_TOKEN = "9f2c4e" + _draw(26, "0123456789abcdef")
ALIBABA_ID, ALIBABA_SECRET = "LTAI5tQ8" + _draw(16, string.ascii_letters), "Zk3" + _draw(27, string.ascii_letters)

PAIRED = [
    (f"Access key ID,Secret access key\n{AWS_ID},{AWS_SECRET}\n", AWS_SECRET),
    (f"$ aws iam create-access-key --user-name ci --output text\n"
     f"ACCESSKEY\t{AWS_ID}\t2026-12-04T10:00:00Z\t{AWS_SECRET}\tActive\tci\n", AWS_SECRET),
    (f"| ci | {AWS_ID} | {AWS_SECRET} |", AWS_SECRET),
    (f"new creds for CI: {AWS_ID} {AWS_SECRET} (rotate monthly)", AWS_SECRET),
    (f"{AWS_ID} / {AWS_SECRET}", AWS_SECRET),
    (f"{AWS_ID}:{AWS_SECRET}", AWS_SECRET),
    (f"{TWILIO_SID} / {TWILIO_TOKEN}", TWILIO_TOKEN),
    (f"curl -u {TWILIO_SID}:{TWILIO_TOKEN} https://api.twilio.com/2010-04-01/Accounts.json", TWILIO_TOKEN),
    (f"{ALIBABA_ID},{ALIBABA_SECRET}", ALIBABA_SECRET),
]


@pytest.mark.parametrize(("text", "secret"), PAIRED)
def test_the_secret_after_its_key_id_is_refused_and_redacted(text: str, secret: str) -> None:
    found = [kind for kind, _ in find_secrets(text)[0]]
    assert any("secret" in kind or "token" in kind for kind in found), found
    redacted, kinds = redact(text)
    # the id is redacted too when it is a key itself (AWS's, Alibaba's); a Twilio Account SID, an identifier, stays
    assert secret not in redacted and len(kinds) == (1 if TWILIO_SID in text else 2), (redacted, kinds)
    assert (TWILIO_SID in redacted) == (TWILIO_SID in text)
    assert find_secrets(redacted) == [[]]


# the secret half written before its id on the line (issue 25 §1.8: "secret X for AKIA...")
SECRET_FIRST = [
    (f"secret {AWS_SECRET} for {AWS_ID}", AWS_SECRET),
    (f"{AWS_SECRET} {AWS_ID}", AWS_SECRET),
    (f"Secret access key,Access key ID\n{AWS_SECRET},{AWS_ID}\n", AWS_SECRET),
    (f"| {AWS_SECRET} | {AWS_ID} | ci |", AWS_SECRET),
    (f"new creds: {AWS_SECRET} (id {AWS_ID})", AWS_SECRET),
    (f"{TWILIO_TOKEN} is the auth token of {TWILIO_SID}", TWILIO_TOKEN),
    (f"{ALIBABA_SECRET} / {ALIBABA_ID}", ALIBABA_SECRET),
]


@pytest.mark.parametrize(("text", "secret"), SECRET_FIRST)
def test_the_secret_before_its_key_id_is_refused_and_redacted(text: str, secret: str) -> None:
    found = [kind for kind, _ in find_secrets(text)[0]]
    assert any(kind.endswith(("secret access key", "auth token", "access key secret")) for kind in found), found
    redacted, kinds = redact(text)
    # the id is redacted too when it is a key itself (AWS's, Alibaba's); a Twilio Account SID, an identifier, stays
    assert secret not in redacted and len(kinds) == (1 if TWILIO_SID in text else 2), (redacted, kinds)
    assert (TWILIO_SID in redacted) == (TWILIO_SID in text)
    assert find_secrets(redacted) == [[]]


@pytest.mark.parametrize("text", [
    # a commit hash, a UUID or a build id before the id: no secret half; the documented sample pair
    f"3f2a9c1e0b7d4a6f8e2c1b0a9d8e7f6a5b4c3d2e rotated {AWS_ID}",
    f"0b7d4a6f-8e2c-1b0a-9d8e-7f6a5b4c3d2e was the ticket for {AWS_ID}",
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY for AKIAIOSFODNN7EXAMPLE",
    f"SM{_draw(32, '0123456789abcdef')} was sent by {TWILIO_SID}",
])
def test_what_only_resembles_a_secret_before_its_id_is_kept(text: str) -> None:
    kinds = [kind for kind, _ in find_secrets(text)[0]]
    assert not any(kind.endswith(("secret access key", "auth token", "access key secret")) for kind in kinds)


@pytest.mark.parametrize("text", [
    # a commit hash (no upper-case letter), a UUID, an ARN, a word of 40 letters: no secret half
    f"rotated {AWS_ID} in commit 3f2a9c1e0b7d4a6f8e2c1b0a9d8e7f6a5b4c3d2e",
    f"the old id {AWS_ID} was deleted; see ticket 0b7d4a6f-8e2c-1b0a-9d8e-7f6a5b4c3d2e",
    f"{AWS_ID} belongs to arn:aws:iam::123456789012:user/ci-deploy-bot",
    # the secret's shape on another line than the id, or longer than a secret
    f"{AWS_ID}\nXbiufMdI8X2Y4rUmerBH3M1XS0DRdJuPnBIKpi9A is a build id",
    f"{AWS_ID} {AWS_SECRET}Zq",
    f"{TWILIO_SID} sent message SM{_draw(32, '0123456789abcdef')}",
])
def test_what_only_resembles_a_secret_after_its_id_is_kept(text: str) -> None:
    redacted, _ = redact(text)
    assert AWS_ID not in redacted or TWILIO_SID not in redacted  # the id itself is a key format
    rest = text.split(" ", 2)[-1] if text.startswith(("AKIA", "AC")) else text
    for word in rest.split():
        if word not in (AWS_ID, TWILIO_SID) and len(word) >= 32:
            assert word.strip(";") in redacted


def test_a_secret_without_its_id_stays_as_before() -> None:
    assert find_secrets(f"the build artefact is {AWS_SECRET}") == [[]]


def _ppk(version: int, private_lines: int = 14) -> tuple[str, list[str]]:
    def b64() -> str:
        return base64.b64encode(bytes(_RANDOM.randrange(256) for _ in range(48))).decode()

    public, private = [b64() for _ in range(6)], [b64() for _ in range(private_lines)]
    mac = _draw(64 if version == 3 else 40, "0123456789abcdef")
    kdf = "Key-Derivation: Argon2id\nArgon2-Memory: 8192\n" if version == 3 else ""
    text = (f"PuTTY-User-Key-File-{version}: ssh-rsa\nEncryption: none\n{kdf}Comment: rsa-key-20261204\n"
            f"Public-Lines: 6\n" + "\n".join(public) + f"\nPrivate-Lines: {private_lines}\n"
            + "\n".join(private) + f"\nPrivate-MAC: {mac}\n")
    return text, [*private, mac]


@pytest.mark.parametrize("version", [2, 3])
@pytest.mark.parametrize(("before", "after"), [("why does pageant refuse this key?\n", "thanks"),
                                               ("", "\nnext paragraph stays"), ("```\n", "```\nIt fails.")])
def test_a_putty_key_goes_whole_to_its_mac_line(version: int, before: str, after: str) -> None:
    key, private = _ppk(version)
    redacted, kinds = redact(before + key + after)
    assert kinds == ("PuTTY private key",)
    assert not any(line in redacted for line in private), redacted
    assert redacted == before + "[PuTTY private key]\n" + after


def test_a_putty_key_cut_short_goes_to_its_paragraph_end_and_one_in_a_string_to_the_quote() -> None:
    key, private = _ppk(2)
    cut = key.split("Private-MAC")[0]
    assert redact(f"{cut}\nthe rest stays") == ("[PuTTY private key]\n\nthe rest stays", ("PuTTY private key",))
    quoted = 'key = "' + key.replace("\n", "\\n") + '" # loaded at boot'
    redacted, _ = redact(quoted)
    assert not any(line in redacted for line in private) and redacted.endswith('" # loaded at boot')


def test_prose_about_putty_keys_stays() -> None:
    text = "Convert it with puttygen: the Private-MAC line checks the Private-Lines.\nPublic-Lines: 6 is normal."
    assert redact(text) == (text, ())


@pytest.mark.contract
@pytest.mark.parametrize("text", [PAIRED[0][0], PAIRED[1][0], PAIRED[6][0], _ppk(3)[0]])
def test_remember_refuses_and_a_captured_turn_keeps_no_secret_half(store, text: str) -> None:
    with pytest.raises(InvalidInput):
        store.remember(tenant="t", scope="s", content=text)
    store.episodes.append(tenant="t", scope="s", session_id="s-1", turns=[NewTurn(role="user", text=text)])
    stored = store.episodes.turns(tenant="t", session_id="s-1")[-1].text
    for secret in (AWS_SECRET, TWILIO_TOKEN, *_ppk_lines(text)):
        assert secret not in stored


def _ppk_lines(text: str) -> list[str]:
    """The lines of a PuTTY key's Private-Lines and MAC in ``text`` (none when it holds no key)."""
    if "Private-Lines" not in text:
        return []
    return text.split("Private-Lines: ")[1].split("\n")[1:-1]
