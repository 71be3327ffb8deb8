"""Key formats an adversarial pass stored (issue 25 §1.8, kind 3): Mailgun's older private keys (``key-`` and 32
lower-case letters and digits, base 36) and a Nostr private key (NIP-19 ``nsec1``, bech32) are refused and redacted
alone or in prose; words and public keys shaped near them are stored."""

from __future__ import annotations

import pytest

from memvault.storage.secrets import find_secrets, redact

NSEC = "vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5"
REFUSED = [
    ("key-3ax6xnjp29jd6fds4gc373sgvjxteol0", "3ax6xnjp29jd6fds4gc373sgvjxteol0"),
    ("the mailgun key is key-9bx7pqz2lm4kd8wn3rc5ty6hu0jf1sae, rotate it", "9bx7pqz2lm4kd8wn3rc5ty6hu0jf1sae"),
    ("mg.send(api='key-0p1o2i3u4y5t6r7e8w9q0a1s2d3f4g5h')", "0p1o2i3u4y5t6r7e8w9q0a1s2d3f4g5h"),
    (f"nsec1{NSEC}", NSEC),
    (f"my nostr identity: nsec1{NSEC} (backup)", NSEC),
]


@pytest.mark.parametrize(("text", "value"), REFUSED)
def test_a_key_of_a_newly_listed_format_is_refused_and_redacted(text: str, value: str) -> None:
    assert find_secrets(text)[0]
    redacted, kinds = redact(text)
    assert value not in redacted and kinds


STORED = [
    "key-management-for-the-whole-team", "key-value-store", "key-abcdefghijklmnopqrstuvwxyzabcdef",
    "npub1sg6plzptd64u62a878hep2kev88swjh3tw00gjsfl8f237lmu63q0uf63m",
    "nsec1 keys are bech32 (NIP-19)", "the nsec1 prefix marks a Nostr private key",
]


@pytest.mark.parametrize("text", STORED)
def test_words_and_public_keys_near_the_new_formats_are_stored(text: str) -> None:
    assert find_secrets(text) == [[]]
    assert redact(text) == (text, ())
