"""A credential written base64- or hex-encoded after the encoding's name (issue 25 §1.8): a known key format
encoded ("the key base64 is QUtJQ..."), a password encoded after its word ("db password hex 6875...") is refused
and its line redacted; encoded data that decodes to no credential (an image, a digest, a header, words) is stored."""

from __future__ import annotations

import base64

import pytest

from memvault.storage.secret_encoded import decoded
from memvault.storage.secrets import find_secrets, redact

GITHUB = "ghp_u8jzPde0IgxLq2mW7vR4tY9sK1nB3cF6hJ0a"
OPENAI = "sk-proj-Tq3vX8mK2pL9wR4sN7bY1cF6hJ0dG5aE8uZ2iO4"
AWS_ID = "AKIAQ7LS2MXR4ZPKT3WB"


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def _b64url(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


ENCODED = [
    (f"the key base64 is {_b64(AWS_ID)}", _b64(AWS_ID)),
    (f"the key base64 is {_b64(GITHUB)}", _b64(GITHUB)),
    (f"OPENAI key (b64): {_b64url(OPENAI)}", _b64url(OPENAI)),
    (f"token hex: {GITHUB.encode().hex()}", GITHUB.encode().hex()),
    (f"db password hex {'hunter2xyz9'.encode().hex()}", "hunter2xyz9".encode().hex()),
    (f"the base64 of the root password is {_b64('Xk29slQpz!')}", _b64("Xk29slQpz!")),
    (f"notes\nAPI key, hexadecimal: {OPENAI.encode().hex().upper()}\nthanks", OPENAI.encode().hex().upper()),
    # a decoding call's argument (limits of issue 25 §1.8: Buffer.from's name comes after the run)
    (f'const token = Buffer.from("{_b64(GITHUB)}", "base64").toString()', _b64(GITHUB)),
    (f"const password = Buffer.from('{_b64('Xk29slQpz!Vb7')}', 'base64').toString('utf8')", _b64("Xk29slQpz!Vb7")),
    (f'var k = Encoding.UTF8.GetString(Convert.FromBase64String("{_b64(OPENAI)}"));', _b64(OPENAI)),
    (f'String k = new String(Base64.getDecoder().decode("{_b64(AWS_ID)}"));', _b64(AWS_ID)),
]


@pytest.mark.parametrize(("text", "run"), ENCODED)
def test_a_credential_written_encoded_after_the_encodings_name_is_refused_and_redacted(text: str, run: str) -> None:
    assert find_secrets(text)[0]
    redacted, kinds = redact(text)
    assert run not in redacted and kinds


@pytest.mark.parametrize("text", [
    "the hex digest is 5d41402abc4b2a76b9719d911017c592", f"sha256 hex: {'hunter2xyz9'.encode().hex()}",
    "base64 of hello world is aGVsbG8gd29ybGQgaGVsbG8=", "the base64 header is eyJhbGciOiJIUzI1NiJ9",
    "png base64 iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    "the hex color is ffaabbcc00112233", "password hex 6d7970617373776f7264",  # "mypassword": a placeholder
    f"commit {GITHUB.encode().hex()[:40]}", "use base64 to encode the config, then hex to dump it",
    'const img = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kg'
    'AAAABJRU5ErkJggg==", "base64")',
    f'const s = Buffer.from("{_b64("Hello, world! How are you?")}", "base64").toString()',
])
def test_encoded_data_holding_no_credential_is_stored(text: str) -> None:
    assert find_secrets(text) == [[]]


def test_only_printable_text_is_decoded() -> None:
    assert decoded("hunter2xyz9".encode().hex()) == "hunter2xyz9"
    assert decoded("5d41402abc4b2a76b9719d911017c592") is None  # an MD5 digest's bytes
    assert decoded("not base64 at all!") is None


@pytest.mark.parametrize("unit", [f"base64 {_b64('Xk29slQpz!')} ", f"password hex {'hunter2xyz9'.encode().hex()}\n",
                                  "hex ", "base64 password " + "A" * 30 + " ",
                                  'Buffer.from("' + "A" * 20 + '", "base64"'])
def test_the_encoded_reading_takes_linear_time(unit: str) -> None:
    from test_secret_scan import LARGE, _grows_linearly

    assert _grows_linearly(lambda size: unit * (size // len(unit)), large=LARGE) is None
    assert _grows_linearly(lambda size: unit * (size // len(unit)), redact, large=LARGE) is None


def test_a_long_run_after_an_encodings_name_is_read_in_linear_time() -> None:
    from test_secret_scan import LARGE, _grows_linearly

    assert _grows_linearly(lambda size: "base64 " + _b64("k" * size), large=LARGE) is None
