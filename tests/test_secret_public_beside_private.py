"""A public key on the line before a private key is no credential (issue 25 §1.8): the two lines are not
read as one key wrapped across them when the second opens with a key of a known format, so a refusal
names only the private key's line and redaction keeps the public key."""

from __future__ import annotations

import pytest

from memvault.storage.secrets import find_secrets, redact

AGE_PUBLIC = "age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p"
AGE_SECRET = "AGE-SECRET-KEY-1" + "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L" * 2
SSH_PUBLIC = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"


@pytest.mark.parametrize(("text", "kind"), [
    (f"# created: 2024-01-01T00:00:00Z\n# public key: {AGE_PUBLIC}\n{AGE_SECRET[:74]}", "age secret key"),
    (f"public key: {AGE_PUBLIC}\nsk-proj-abcdEFGH1234ijklMNOP5678qrstUVWX9012yzAB", "OpenAI project key"),
    (f"recipient key {AGE_PUBLIC}\nghp_u8jzPde0IgxLkeWQvXzA2b7fR3nM9tY1pK4s", "GitHub token"),
    (f"key: {SSH_PUBLIC}\n{AGE_SECRET[:74]}", "age secret key"),
])
def test_only_the_private_keys_line_is_named_and_redacted(text: str, kind: str) -> None:
    last = text.count("\n") + 1
    assert find_secrets(text)[0] == [(kind, last)]
    redacted, kinds = redact(text)
    assert redacted.split("\n")[:-1] == text.split("\n")[:-1] and kinds == (kind,)


@pytest.mark.parametrize("text", [f"# public key: {AGE_PUBLIC}", f"key: {SSH_PUBLIC}", f"recipient key {AGE_PUBLIC}"])
def test_a_public_key_alone_is_stored(text: str) -> None:
    assert find_secrets(text) == [[]]


def test_a_key_wrapped_across_lines_is_still_found_whole() -> None:
    text = "the token: ghp_u8jzPde0IgxLkeWQ\nvXzA2b7fR3nM9tY1pK4s\nthanks"
    assert find_secrets(text)[0] and "vXzA2b7fR3nM9tY1pK4s" not in redact(text)[0]
