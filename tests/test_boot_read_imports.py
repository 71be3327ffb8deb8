"""The boot context's first read in a fresh process (a new session's server or SessionStart hook) imports only what
it reads: not the contradiction reading, ranking or the credential check, which the first write or recall
imports. A new process each; the boot context read holds the memory written."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import server_env

pytestmark = pytest.mark.slow

HEAVY = ("memvault.storage.contradiction", "memvault.storage.ranking", "memvault.storage.secrets",
         "memvault.storage.consolidate", "memvault.storage.timewords")

RUN = """
import json, sys
from memvault.storage.store import Store
from memvault.tools.boot import boot_context
from memvault.tools.caller import Caller
store = Store(sys.argv[1], None, upkeep=False)
text = boot_context(store, Caller(tenant="default", scope="default"), 1500)
if sys.argv[2] == "recall":
    store.recall(tenant="default", query="which port does the API listen on", scopes=["default"])
heavy = {heavy!r}
print(json.dumps([text, sorted(m for m in heavy if m in sys.modules)]))
store.close()
""".replace("{heavy!r}", repr(HEAVY))


@pytest.fixture
def db(tmp_path):
    from memvault.storage.store import Store

    path = tmp_path / "m.db"
    store = Store(path, None, upkeep=False)
    store.remember(tenant="default", content="The API listens on port 8080.", kind="fact", scope="default")
    store.close()
    return path


def run(db, then: str) -> tuple[str, list[str]]:
    done = subprocess.run([sys.executable, "-c", RUN, str(db), then], env=server_env(db), stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    text, imported = json.loads(done.stdout.splitlines()[-1])
    return text, imported


def test_the_first_boot_read_imports_none_of_the_search_or_the_credential_check(db) -> None:
    text, imported = run(db, "boot")
    assert "The API listens on port 8080." in text
    assert imported == [], imported


def test_a_recall_after_it_imports_the_search(db) -> None:
    """The check itself: the modules named are the ones a recall needs."""
    _, imported = run(db, "recall")
    assert {"memvault.storage.contradiction", "memvault.storage.ranking"} <= set(imported), imported
