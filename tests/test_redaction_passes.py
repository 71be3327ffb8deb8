"""``redact`` reads a text it leaves as it was once, not twice: a second reading of the same text finds the
same (trial79 S9: SessionStart read its whole boot text twice, 0.05-0.1 s of matching in every session). A
text it changes is read again, until it redacts to itself, as before."""

from __future__ import annotations

import pytest

from memvault.storage import secrets

CLEAN = [
    "The NFS service listens on port 2049",
    "/work/proj",
    # a session digest as stored: markers where credentials stood, read as written
    'Asked: "Deploy with token [GitHub token] please, password=[password]"\nTools: Bash x1.',
    'use [AWS access key] with secret [AWS secret access key] and aws_secret_access_key=[secret key]',
    "May prefers dark mode in every editor\nSunday backups run at 03:00\n",
]
HELD = [
    "Deploy with token ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A please",
    "password: Tr0ub4dor&3xyz42, which port?",
    "secret=Xk9fQ2mT7vLp3RzW8nYb4HcJ6sDg1AeUo5KiM0qZ which port does NFS use?",
]


def _readings(monkeypatch) -> list[str]:  # type: ignore[no-untyped-def]
    read: list[str] = []
    once = secrets._redact_once
    monkeypatch.setattr(secrets, "_redact_once", lambda text: read.append(text) or once(text))
    return read


@pytest.mark.parametrize("text", CLEAN)
def test_a_text_redact_leaves_as_it_was_is_read_once(monkeypatch, text):
    read = _readings(monkeypatch)
    redacted, kinds = secrets.redact(text)
    assert (redacted, kinds) == (text, ())
    assert read == [text.rstrip("\n")]


@pytest.mark.parametrize("text", HELD)
def test_a_text_redact_changes_is_read_again_and_redacts_to_itself(monkeypatch, text):
    read = _readings(monkeypatch)
    redacted, kinds = secrets.redact(text)
    assert kinds and redacted != text and len(read) >= 2 and read[1] == redacted
    assert secrets.redact(redacted)[0] == redacted
