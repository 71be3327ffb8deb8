"""The UserPromptSubmit hook redacts what it prints from the store (memories, a degraded search's reason),
never its own intro: the intro's words alone made the credential detectors run (and compile, 0.2 s in every
prompt that printed a memory) their largest patterns (issue 28, docs/hooks.md#speed). What is printed is
still redacted: a credential a memory was allowed to keep is printed as its kind."""

from __future__ import annotations

import pytest
from fakes import FakeEmbedder

from memvault.server import hooks
from memvault.storage import secret_named
from memvault.storage.ranking import SURE_CONFIDENCE
from memvault.storage.store import Store
from memvault.tools.caller import Caller

CALLER = Caller(tenant="default", scope="default")
INTRO = hooks.PROMPT_INTRO.format(SURE_CONFIDENCE)
TOKENS = [("ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A", "[GitHub token]"),
          ("xoxb-" + "1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "[Slack token]"),
          ("AKIA" + "QW7ZK3LMN8PRT2VX", "[AWS access key]")]


def _said(tmp_path, monkeypatch, contents: list[str], prompt: str) -> tuple[str | None, set[int]]:
    """The context the hook prints for ``prompt`` over a store of ``contents`` (credentials allowed in; the
    fake embedder), and the numbers of the named-credential patterns run meanwhile."""
    from memvault.server.config import Config
    from memvault.storage import embeddings

    store = Store(tmp_path / "m.db", FakeEmbedder(), allow_secrets=True)  # type: ignore[arg-type]
    try:
        for content in contents:
            store.remember(tenant="default", scope="default", content=content)
    finally:
        store.close()
    ran: set[int] = set()
    pattern = secret_named.named_pattern
    monkeypatch.setattr(secret_named, "named_pattern", lambda number: ran.add(number) or pattern(number))
    monkeypatch.setattr(embeddings, "Embedder", lambda model_dir: FakeEmbedder())
    document = hooks.run(Config(db=tmp_path / "m.db"), "claude-code", "UserPromptSubmit",
                         {"session_id": "s1", "prompt": prompt, "cwd": "/tmp"})
    return (None if document is None else document["hookSpecificOutput"]["additionalContext"]), ran


@pytest.mark.parametrize("contents, prompt", [
    (["The api listens on port 8443"], "what port does the api use?"),
    (["The staging database listens on port 5433, not 5432"], "staging database port?"),
    (["Deploys go out from the release branch every Tuesday"], "which branch do deploys go out from"),
    (["The nightly backup job writes to the cold bucket", "The cold bucket keeps backups ninety days"],
     "where does the nightly backup job write"),
    (["Lint runs ruff then mypy in CI"], "what does lint run in CI"),
])
def test_the_prompt_hook_runs_no_credential_pattern_for_its_own_intro(tmp_path, monkeypatch, contents, prompt):
    said, ran = _said(tmp_path, monkeypatch, contents, prompt)
    assert said is not None and said.startswith(INTRO + "\n- [")
    needed = set(secret_named.needed(prompt)).union(*(secret_named.needed(c) for c in contents),
                                                    secret_named.needed(said[len(INTRO):]))
    assert set(secret_named.needed(INTRO)) - needed  # the intro alone needs patterns none of the rest does
    assert ran <= needed


@pytest.mark.parametrize("token, label", TOKENS)
def test_the_prompt_hook_prints_a_memorys_credential_by_its_kind(tmp_path, monkeypatch, token, label):
    said, _ = _said(tmp_path, monkeypatch, [f"The deploy bot token is {token}"], "what is the deploy bot token")
    assert said is not None and said.startswith(INTRO + "\n- [")
    assert token not in said and label in said


def test_the_prompt_hook_still_says_a_degraded_search_after_its_intro(tmp_path, monkeypatch):
    import dataclasses

    from memvault.tools import search

    recall = search.recall

    def degraded(*args, **kwargs):  # type: ignore[no-untyped-def]
        outcome, shown = recall(*args, **kwargs)
        return dataclasses.replace(outcome, degraded=f"model unavailable ({TOKENS[0][0]})"), shown

    monkeypatch.setattr(search, "recall", degraded)
    said, _ = _said(tmp_path, monkeypatch, ["The api listens on port 8443"], "what port does the api use?")
    assert said is not None and said.startswith(INTRO + " Degraded: model unavailable ([GitHub token]).\n- [")
