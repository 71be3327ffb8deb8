"""The UserPromptSubmit hook's lines are the recall tool's: ``text.hit_line`` of a hit (no wire model)
against ``text.memory_line`` of what ``handlers.recall`` returns for it, and the hook process imports
neither pydantic nor numpy.ma nor, for a question without a time, dateparser (docs/hooks.md#speed)."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import pytest
from conftest import server_env

from memvault.storage.store import Store
from memvault.tools import handlers, search, text
from memvault.tools.caller import Caller

CALLER = Caller(tenant="default", scope="default")
HOOK = [sys.executable, "-m", "memvault.server", "hook", "claude-code", "UserPromptSubmit"]
SESSION = "5d0c7a51-2f3e-4b8a-9c1d-0e6f7a8b9c01"


@pytest.fixture
def store(db_path, real_embedder):  # type: ignore[no-untyped-def]
    store = Store(db_path, real_embedder)
    procedure = store.remember(tenant="default", scope="default", kind="procedure",
                               content="To release: tag the commit, then run make publish.")
    store.confirm(tenant="default", id=procedure.id, outcome="failure", note="make publish timed out")
    store.confirm(tenant="default", id=procedure.id, outcome="success")
    old = store.remember(tenant="default", scope="default", kind="fact", observed_at="2026-01-05",
                         content="The staging database listens on port 5433.")
    store.supersede(tenant="default", id=old.id, content="The staging database listens on port 6432.",
                    reason="moved behind pgbouncer")
    store.remember(tenant="default", scope="global", kind="preference",
                   content="Prefer pytest fixtures over setUp methods in every repository.")
    store.remember(tenant="default", scope="default", kind="fact", observed_at="2026-01-05",
                   content="Shop: the shop's checkout rounds the cart total once, after all discounts.")
    store.remember(tenant="default", scope="default", kind="fact", observed_at="2026-03-05",
                   content="The shop's checkout rounds the cart total after each discount.")
    yield store
    store.close()


@pytest.mark.parametrize("query, history", [
    ("how do we release?", False),
    ("which port does the staging database listen on?", False),
    ("which port does the staging database listen on?", True),
    ("pytest fixtures or setUp?", False),
    ("how does the checkout round the cart total?", False),
    ("how is the total rounded at checkout", False),
    ("shop", False),
])
def test_a_hits_line_is_the_line_recall_shows_for_it(store, query, history):
    result = handlers.recall(store, CALLER, query=query, limit=5, include_history=history)
    outcome, shown = search.recall(store, CALLER, query, limit=5, include_history=history)
    assert [h.memory.id for h in shown] == [m.id for m in result.memories]
    runs = store.run_summaries(tenant="default", ids=[h.memory.id for h in shown])
    short = store.short_ids(tenant="default", ids=[h.memory.id for h in shown])
    now = store.clock()
    lines = [text.hit_line(h, short[h.memory.id], now, runs.get(h.memory.id)) for h in shown]
    assert lines == [text.memory_line(m, ranked=True) for m in result.memories]
    assert outcome.degraded == result.degraded


def test_the_lines_show_runs_a_supersede_and_an_outdated_memory(store):
    """The cases the comparison above must cover are there: a procedure's runs, a superseded version; and
    a hit marked possibly outdated (set here: which hit ranking marks depends on the model) reads the same."""
    seen = []
    for query, history in (("how do we release?", False), ("staging database port", True), ("shop", False)):
        _, shown = search.recall(store, CALLER, query, limit=5, include_history=history)
        runs = store.run_summaries(tenant="default", ids=[h.memory.id for h in shown])
        short = store.short_ids(tenant="default", ids=[h.memory.id for h in shown])
        seen += [text.hit_line(h, short[h.memory.id], store.clock(), runs.get(h.memory.id)) for h in shown]
    joined = "\n".join(seen)
    assert "2 runs, 1 succeeded" in joined and "superseded by" in joined
    hit = dataclasses.replace(shown[-1], outdated_by=shown[0].memory.id)
    line = text.hit_line(hit, "abc", store.clock(), None)
    assert line == text.memory_line(handlers._hit_out(hit, "abc", store.clock(), None), ranked=True)
    assert line.endswith(f"possibly outdated by the newer {shown[0].memory.id}")


def test_the_prompt_hook_imports_no_pydantic_no_numpy_ma_and_no_dateparser(tmp_path, real_embedder):
    db = tmp_path / "m.db"
    store = Store(db, real_embedder)
    try:
        store.remember(tenant="default", scope="default", kind="fact",
                       content="The staging database listens on port 5433, not the default 5432.")
    finally:
        store.close()
    env = server_env(db, HOME=str(tmp_path), XDG_STATE_HOME=str(tmp_path / "state"))
    payload = {"session_id": SESSION, "hook_event_name": "UserPromptSubmit", "cwd": str(tmp_path),
               "prompt": "Which port does the staging database listen on?"}
    done = subprocess.run([sys.executable, "-X", "importtime", *HOOK[1:]], input=json.dumps(payload), env=env,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    loaded = {line.split("|")[2].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "onnxruntime" in loaded
    assert {"pydantic", "numpy.ma", "memvault.tools.handlers"} & loaded == set()
    assert {name for name in loaded if name.split(".")[0] == "dateparser"} == set()
    context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "listens on port 5433" in context
