"""A key given to a command that logs in (``wandb login KEY``, ``snyk auth TOKEN``, ``ngrok config
add-authtoken TOKEN``) or printed by one (``heroku auth:token``) is refused and redacted; the commands
without a key, and prose about logging in, are stored (issue 25 §1.8)."""

from __future__ import annotations

import random
import string

import pytest

from memvault.storage.secrets import find_secrets, redact

_RANDOM = random.Random(8)


def _draw(n: int, alphabet: str) -> str:
    return "".join(_RANDOM.choice(alphabet) for _ in range(n))


HEX40 = _draw(40, "0123456789abcdef")
MIXED = _draw(32, string.ascii_letters + string.digits)
UUID = "3b9e1c7a-5f2d-4e8b-9a6c-0d1f2e3a4b5c"

GIVEN = [
    (f"wandb login {HEX40}", HEX40),
    (f"$ wandb login --relogin {HEX40}", HEX40),
    (f"!wandb login '{HEX40}'", HEX40),
    (f"snyk auth {UUID}", UUID),
    (f"ngrok config add-authtoken {MIXED}", MIXED),
    (f"ngrok authtoken {MIXED}", MIXED),
    (f"doctl auth init -t {MIXED}", MIXED),
    (f"$ heroku auth:token\n ›   Warning: token will expire 12/04/2027\n{UUID}\n$ ls", UUID),
    (f"gcloud auth print-identity-token\n{MIXED}", MIXED),
    # handled before, by the flag's or the setting's name: still refused
    (f"npm config set //registry.npmjs.org/:_authToken {MIXED}", MIXED),
    (f"docker login -u me -p {MIXED}", MIXED),
    (f"gh auth login --with-token {MIXED}", MIXED),
    (f"export X_TOKEN={MIXED}", MIXED),
]


@pytest.mark.parametrize(("text", "key"), GIVEN)
def test_a_key_given_to_or_printed_by_a_login_command_is_refused_and_redacted(text: str, key: str) -> None:
    assert find_secrets(text)[0]
    redacted, kinds = redact(text)
    assert key not in redacted and kinds


@pytest.mark.parametrize("text", [
    "wandb login", "run wandb login and paste the key from the settings page", "npm login --registry=https://npm.pkg.github.com",
    f"after login {UUID} was the session id", "login with your company account", "snyk auth",
    "I will login tomorrow_and_then_the_day_after", "the auth service moved to auth.example.com",
    "heroku auth:token prints the token; never paste it here", "ngrok authtoken <your-authtoken>",
    "wandb login xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
])
def test_login_commands_without_a_key_and_prose_are_stored(text: str) -> None:
    assert find_secrets(text) == [[]]
