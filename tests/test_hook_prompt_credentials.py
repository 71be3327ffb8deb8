"""A prompt holding a credential still finds its answer: the UserPromptSubmit hook searches the prompt redacted,
without the credential's marker and without the words that named it ("my key is", "secret="), which kept a
sure answer under the bar (trial79 S10). What it prints holds no credential, and it stores nothing."""

from __future__ import annotations

import random
import string

import pytest

from memvault.server import hooks
from memvault.storage.store import Store

MEMORIES = ["NFS uses port 2049", "Redis listens on port 6379",
            "Deploys go out from the release branch every Tuesday",
            "The staging database is backed up nightly to the cold bucket"]
_random = random.Random(79)
KEY40 = "".join(_random.choice(string.ascii_letters + string.digits) for _ in range(40))
GITHUB = "ghp_" + "".join(_random.choice(string.ascii_letters + string.digits) for _ in range(36))
AWS = "AKIA" + "".join(_random.choice(string.ascii_uppercase + string.digits) for _ in range(16))
SLACK = "xoxb-" + "1234567890-1234567890123-" + "".join(_random.choice(string.ascii_letters) for _ in range(24))
PASSWORD = "Tr0ub4dor&3xyz" + str(_random.randint(100, 999))
SECRETS = [KEY40, GITHUB, AWS, SLACK, PASSWORD]


@pytest.fixture
def db(tmp_path, real_embedder, monkeypatch):  # type: ignore[no-untyped-def]
    from memvault.storage import embeddings

    path = tmp_path / "m.db"
    store = Store(path, real_embedder)
    try:
        for content in MEMORIES:
            store.remember(tenant="default", scope="default", kind="fact", content=content)
    finally:
        store.close()
    monkeypatch.setattr(embeddings, "Embedder", lambda model_dir: real_embedder)
    return path


def _said(db, prompt: str) -> str | None:  # type: ignore[no-untyped-def]
    """What the hook prints for ``prompt`` (its added context; None: nothing), having stored nothing."""
    from memvault.server.config import Config

    document = hooks.run(Config(db=db), "claude-code", "UserPromptSubmit",
                         {"session_id": "s1", "prompt": prompt, "cwd": "/tmp"})
    store = Store(db, None)
    try:
        assert store.scope_counts(tenant="default") == {"default": len(MEMORIES)}
        assert store.episodes.sessions(tenant="default", scopes=["default"], limit=10) == []
    finally:
        store.close()
    return None if document is None else document["hookSpecificOutput"]["additionalContext"]


def _memories(said: str | None) -> list[str]:
    """The stored contents the printed context quotes, in order."""
    return [m for line in (said or "").splitlines() for m in MEMORIES if f'"{m}"' in line]


@pytest.mark.parametrize("prompt, answer", [
    (f"secret={KEY40} which port does NFS use?", MEMORIES[0]),
    (f"my key is {GITHUB}, which port does NFS use?", MEMORIES[0]),
    (f"password: {PASSWORD}, which port does NFS use?", MEMORIES[0]),
    (f"the api token is {SLACK}; which port does Redis listen on?", MEMORIES[1]),
    (f"export AWS_ACCESS_KEY_ID={AWS}\nwhich port does Redis listen on?", MEMORIES[1]),
    (f"Authorization: Bearer {GITHUB}\nWhich day do deploys go out?", MEMORIES[2]),
    (f"Which port does NFS use? My password is {PASSWORD}", MEMORIES[0]),
    (f"I pasted {AWS} by mistake. Where is the staging database backed up?", MEMORIES[3]),
])
def test_a_prompt_holding_a_credential_still_prints_the_memory_that_answers_it(db, prompt, answer):
    said = _said(db, prompt)
    assert answer in _memories(said)
    assert not any(secret in (said or "") for secret in SECRETS)


@pytest.mark.parametrize("prompt, answer", [
    ("which port does NFS use?", MEMORIES[0]),
    ("which port does Redis listen on?", MEMORIES[1]),
    ("Which day do deploys go out?", MEMORIES[2]),
])
def test_the_same_prompt_without_the_credential_prints_the_same_memory(db, prompt, answer):
    assert answer in _memories(_said(db, prompt))


@pytest.mark.parametrize("prompt", [
    f"my key is {GITHUB}",
    f"secret={KEY40}",
    f"password: {PASSWORD}",
    "what is the capital of Mongolia?",
])
def test_a_prompt_no_memory_answers_prints_nothing_with_or_without_a_credential(db, prompt):
    assert _said(db, prompt) is None


@pytest.mark.parametrize("text, kinds, bare, named", [
    ("my key is [GitHub token], which port?", ("GitHub token",), "my key is  , which port?", " , which port?"),
    ("secret=[secret key] which port?", ("secret key",), "secret=  which port?", "  which port?"),
    ("which port? my password is [password]", ("password",), "which port? my password is  ", "which port? "),
    ("a [password] b. c [GitHub token] d", ("GitHub token", "password"), "a   b. c   d", "  b.  d"),
    ("no marker here, which port?", (), "no marker here, which port?", "no marker here, which port?"),
    ("[password in a URL] and [password]", ("password", "password in a URL"), "  and  ", "  "),
])
def test_unmarked_takes_out_each_marker_and_with_named_the_words_before_it_in_its_clause(text, kinds, bare, named):
    assert hooks.unmarked(text, kinds, named=False) == bare
    assert hooks.unmarked(text, kinds, named=True) == named
