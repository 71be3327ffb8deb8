"""A key written in groups parted by single spaces, as it is read out or typed from a screen ("ghp_ u8jz
Pde0 IgxL …", "sk-ant-a pi03-YgC …", "AKIA 7LQS …"; trial 52 finding 2, trial 51 findings 9 and 11): the
groups are read joined (``secrets._grouped_keys``) and a key of a vendor's prefixed format found so is
refused and its line redacted; prose, hashes and fingerprints in groups stay stored."""

from __future__ import annotations

import random
import string

import pytest

from memvault.storage.errors import InvalidInput
from memvault.storage.records import NewTurn
from memvault.storage.secrets import find_secrets, redact

_DRAW = random.Random(9)
_KEY = string.ascii_letters + string.digits


def _key(prefix: str, n: int, alphabet: str = _KEY) -> str:
    return prefix + "".join(_DRAW.choice(alphabet) for _ in range(n))


KEYS = [("GitHub token", _key("ghp_", 36)), ("Anthropic API key", _key("sk-ant-api03-", 93) + "AA"),
        ("AWS access key", _key("AKIA", 16, string.ascii_uppercase + "234567")),
        ("npm access token", _key("npm_", 36)), ("Stripe API key", _key("sk_live_", 24))]


def _grouped(key: str, size: int) -> str:
    return " ".join(key[i:i + size] for i in range(0, len(key), size))


@pytest.mark.parametrize(("kind", "key"), KEYS)
@pytest.mark.parametrize("size", [4, 5, 8])
@pytest.mark.parametrize("around", ["{}", "token: {}", "the new key is\n{}\nrotate it monthly"])
def test_a_key_in_groups_is_refused_and_its_line_redacted(kind: str, key: str, size: int, around: str) -> None:
    text = around.format(_grouped(key, size))
    assert kind in [found for found, _ in find_secrets(text)[0]], text
    redacted, kinds = redact(text)
    # ("token: npm_m8KVb …" may be named by its word first: one marker then stands for the line)
    assert kinds and not any(group in redacted for group in _grouped(key, size).split(" ")[1:])
    if "\n" in around:
        assert redacted.startswith("the new key is\n") and redacted.endswith("\nrotate it monthly")


# A key parted once, by one space, anywhere (an adversarial pass: "ghp_aB3dE5fG7hJ9 kL1m…" was stored, and so was a
# key with a <private> span between two spaces inside it, whose removal leaves one): two groups are read joined too.
@pytest.mark.parametrize(("kind", "key"), KEYS)
@pytest.mark.parametrize("at", [6, 11, 16])
@pytest.mark.parametrize("around", ["{}", "token: {}", "the new key is\n{}\nrotate it monthly"])
def test_a_key_parted_once_by_a_space_is_refused_and_its_line_redacted(kind: str, key: str, at: int,
                                                                       around: str) -> None:
    """Named by its format, or (a long key's part a pattern of its own takes first) by another kind."""
    text = around.format(f"{key[:at]} {key[at:]}")
    assert find_secrets(text)[0], text
    redacted, kinds = redact(text)
    assert kinds and key[at:][-6:] not in redacted and key[:at][-4:] not in redacted


@pytest.mark.parametrize("text", [
    "Build2024 Release3X is out", "the iPhone15 ProMax2 arrived", "v2 API migration for Team3",
    "ghp_ Prefix2 is documented", "AKIA Q7 is a part number",
])
def test_two_words_of_digits_and_capitals_stay_stored(text: str) -> None:
    assert find_secrets(text) == [[]] and redact(text) == (text, ())


@pytest.mark.contract
def test_a_private_span_inside_a_key_leaves_no_key_stored(store) -> None:
    token = KEYS[0][1]
    with pytest.raises(InvalidInput):
        store.remember(tenant="t", scope="s", content=f"CI token {token[:16]} <private>old</private> {token[16:]}")
    assert store.list_memories(tenant="t", scopes=["s"], limit=5) == []
    kept = store.remember(tenant="t", scope="s", content="CI token is in the vault <private>path</private> now")
    assert [m.id for m in store.list_memories(tenant="t", scopes=["s"], limit=5)] == [kept.id]


def _slack(prefix: str) -> str:
    return "-".join([prefix, _key("", 10, string.digits), _key("", 12, string.digits), _key("", 24)])


# Keys whose format parts its groups by dashes, written with spaces for them (an adversarial pass: "xoxb 2847561937
# 5738261940 Rk3L…" was stored): read with the spaces as the dashes.
DASHED = [("Slack token", _slack(prefix)) for prefix in ("xoxb", "xoxp", "xoxa", "xoxs", "xoxr")]


@pytest.mark.parametrize(("kind", "key"), DASHED)
@pytest.mark.parametrize("written", ["spaces", "first dash kept"])
@pytest.mark.parametrize("around", ["{}", "Ops note: {}", "slack token {} (rotate monthly)", "bot\n{}\nend"])
def test_a_key_whose_dashes_are_written_as_spaces_is_refused(kind: str, key: str, written: str, around: str) -> None:
    apart = key.replace("-", " ") if written != "first dash kept" else key.replace("-", " ").replace(" ", "-", 1)
    text = around.format(apart)
    assert kind in [found for found, _ in find_secrets(text)[0]], text
    redacted, kinds = redact(text)
    assert kinds and key.rsplit("-", 1)[1] not in redacted


@pytest.mark.parametrize("text", [
    "the Q3 2024 Plan is ready", "we met at 10 am with Bob and 3 Others", "room 12 level 3 Block B",
    "ver 2 build 1234567890 Release Candidate", "abc 1234567890 1234567890 Hello World",
    "xoxb is the prefix of a Slack bot token", "see ticket 12345 67890 Open",
])
def test_prose_with_spaced_digits_and_capitals_stays_stored(text: str) -> None:
    assert find_secrets(text) == [[]] and redact(text) == (text, ())


@pytest.mark.parametrize("text", [
    "npm_ install the package and then run the build again for everyone",
    "ghp_ is the prefix of a GitHub token and sk- of OpenAI", "I met John at 5pm on the AWS S3 EC2 IAM console",
    "SHA256 fingerprint: 3F2A 9C1E 0B7D 4A6F 8E2C 1B0A 9D8E 7F6A 3F2A 9C1E", "see commit 3f2a 9c1e 0b7d",
    "IBAN DE89 3704 0044 0532 0130 00", "serial AKIA Q7 B2 on the label is a part number",
])
def test_prose_and_grouped_numbers_stay_stored(text: str) -> None:
    assert find_secrets(text) == [[]] and redact(text) == (text, ())


@pytest.mark.contract
def test_remember_refuses_and_a_turn_redacts_a_grouped_token(store) -> None:
    token = KEYS[0][1]
    text = f"new PAT for CI: {_grouped(token, 4)}"
    with pytest.raises(InvalidInput):
        store.remember(tenant="t", scope="s", content=text)
    store.episodes.append(tenant="t", scope="s", session_id="s-1", turns=[NewTurn(role="user", text=text)])
    stored = store.episodes.turns(tenant="t", session_id="s-1")[-1].text
    assert token[8:12] not in stored and stored == "[GitHub token]"
