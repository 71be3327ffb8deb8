"""A key of any row of the key format table with a fixed opening, parted once by a space anywhere (inside its opening
too) and written in a sentence, is refused and its line redacted (issue 25: "The maps key is AIzaC3J2 7XDCG2Lml…"
was stored, as were "hf_" tokens and dashed keys parted more than 16 characters in): ``secret_parted``. Prose, ids,
hashes and words that open like a vendor's prefix stay stored."""

from __future__ import annotations

import pytest
from test_secret_scan import FORMATS

from memvault.storage.errors import InvalidInput
from memvault.storage.secret_parted import openings
from memvault.storage.secret_tables import key_formats
from memvault.storage.secrets import find_secrets, redact

_ROWS = sorted({number for numbers in openings().values() for number in numbers})
SENTENCES = ["The maps key is {} in the web app.", "Use {} for the deploy", "{}", "prod:\n  token {}, rotated"]


def _at(key: str) -> list[int]:
    return sorted({1, 2, 5, len(key) // 3, len(key) // 2, len(key) - 2})


def test_the_rows_read_parted_are_every_row_with_a_fixed_opening() -> None:
    names = {key_formats()[n].name for n in _ROWS}
    assert {"Google API key", "Hugging Face token", "Anthropic API key", "Databricks token", "Alibaba Cloud access key",
            "Tencent Cloud SecretId", "Bitbucket app password", "Octopus Deploy API key"} <= names
    assert len(names) >= 100
    assert "Atlassian API token (legacy)" not in names  # its context word comes first: a row of no opening


@pytest.mark.parametrize("name", [key_formats()[n].name for n in _ROWS])
def test_a_key_parted_once_anywhere_is_refused_and_redacted(name: str) -> None:
    key = FORMATS[name]
    for at in _at(key):
        for sentence in SENTENCES:
            text = sentence.format(f"{key[:at]} {key[at:]}")
            assert find_secrets(text)[0], text
            redacted, kinds = redact(text)
            # (a first part that is a whole key of its own format is redacted as it stands)
            assert kinds and key not in redacted.replace(" ", ""), (text, redacted)


@pytest.mark.parametrize("at", range(1, 39))
def test_the_issues_google_key_is_refused_at_every_split(at: int) -> None:
    key = "AIzaC3J27XDCG2LmlZGEONYlgCtjfIZ4SOcMz9C"
    text = f"The maps key is {key[:at]} {key[at:]} in the web app."
    assert "Google API key" in [kind for kind, _ in find_secrets(text)[0]]


@pytest.mark.parametrize("text", [
    "AIzawa Tokyo Japan 2024 Hotel Booking Reference is confirmed", "the AI za pizza place opened in 2023 on Main St",
    "hf_transfer is Enabled by default in the HF Hub 2024 release notes", "dapi is the Databricks prefix, see Doc 12",
    "LTAI and AKID are Alibaba and Tencent prefixes per the Docs of 2024", "do you Know 3 ways to Deploy it Today",
    "pat the Dog 3 times Before the Walk every Morning", "sk- prefixes Mark OpenAI keys since 2023 in Our docs",
    "request id 9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f Trace 4bf92f3577b34da6a3ce929d0e0e4736 span 00f067aa0ba902b7",
    "commit 4b1d9f0a7c3e2b1d9f0a7c3e2b1d9f0a7c3e2b1d merged Into Main 2024",
    "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 of the Empty File",
    "base64 of the note: VGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVy IHRoZSBsYXp5IGRvZw==",
    "UUIDs 123e4567-e89b-12d3-a456-426614174000 and 550e8400-e29b-41d4-a716-446655440000 Are Ids",
    "API- docs for the new Release 2024 are out", "s. Johnson 2024 Report Chapter 3 Section Four",
    "re_ Run the Build 2 times then Ship", "key- Value Store 3 is Redis Cluster for Sessions",
])
def test_prose_ids_and_words_opening_like_a_prefix_stay_stored(text: str) -> None:
    assert find_secrets(text) == [[]] and redact(text) == (text, ())


@pytest.mark.contract
def test_remember_refuses_a_parted_key_and_stores_prose_opening_like_one(store) -> None:
    key = FORMATS["Google API key"]
    with pytest.raises(InvalidInput):
        store.remember(tenant="t", scope="s", content=f"The maps key is {key[:8]} {key[8:]} in the web app.")
    assert store.list_memories(tenant="t", scopes=["s"], limit=5) == []
    kept = store.remember(tenant="t", scope="s", content="AIzawa Tokyo Japan 2024 Hotel Booking Reference is confirmed")
    assert [m.id for m in store.list_memories(tenant="t", scopes=["s"], limit=5)] == [kept.id]


@pytest.mark.parametrize("unit", ["AIza ", "A Iza", "AIzaC3J2 ", "hf_a1B2 ", "do a1B2 ", "https ", "sk-ant-a1B "])
def test_reading_parted_keys_takes_linear_time(unit: str) -> None:
    """Each opening reads a bounded window after it: 8 times the text costs about 8 times the CPU (never 64)."""
    from test_secret_scan import _grows_linearly, _text

    from memvault.storage.secret_parted import parted_keys

    assert _grows_linearly(lambda size: _text(unit, size), scan=lambda text: list(parted_keys(text))) is None
