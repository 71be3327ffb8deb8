"""A server warms the credential check up at start in small steps (``secret_warm.steps``, run by
``Upkeep.start_warm_up`` in turns on the worker): a cold process's first ``remember`` paid RE2's compilation of
the largest programs, about 2 s (trial 60 #14); a warm-up in one piece held the worker for seconds, so the
contradiction notes a remember queues there waited past a review read's wait. Behaviour, not timing: the worker
serves its queue between two steps, stops between two when it closes, and a remember gets the same result
during the warm-up as without one."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest
from fakes import FakeEmbedder

from memvault.storage import secret_warm
from memvault.storage.store import Store

WAIT_S = 60.0  # for what must happen: generous, a loaded machine is slow
STEPS = secret_warm.steps  # the real steps (the tests wrap them)


def _until(done) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + WAIT_S
    while not done() and time.monotonic() < deadline:
        time.sleep(0.01)
    return bool(done())


def _recorded(events: list[str], at: int | None = None, during=None) -> Iterator[str]:  # type: ignore[no-untyped-def]
    """The real steps, each recorded in ``events`` once done; ``during(events)`` called inside step ``at``."""
    for number, name in enumerate(STEPS()):
        if number == at:
            during(events)
        events.append(f"step {number}")
        yield name
    events.append("ended")


@pytest.fixture
def bare_store(db_path):  # type: ignore[no-untyped-def]
    """A store without upkeep of its own (only the jobs a test queues run on its worker)."""
    store = Store(str(db_path), FakeEmbedder(), upkeep=False)  # type: ignore[arg-type]
    yield store
    store.close()


@pytest.mark.parametrize("at", [0, 1, 2, 7, 40])
def test_a_job_queued_during_a_step_runs_before_the_next_step(bare_store, monkeypatch, at) -> None:
    """A job (e.g. a scrub after a forget) queued while a step runs waits for that step only."""
    events: list[str] = []

    def queue_note(events: list[str]) -> None:
        bare_store.worker.submit(None, lambda: events.append("note"))

    monkeypatch.setattr(secret_warm, "steps", lambda: _recorded(events, at, queue_note))
    bare_store.upkeep.start_warm_up()
    assert _until(lambda: "ended" in events)
    assert events.index("note") == events.index(f"step {at}") + 1


@pytest.mark.parametrize("at", [0, 1, 2, 7, 40])
def test_closing_during_the_warm_up_stops_it_after_the_step_under_way(db_path, monkeypatch, at) -> None:
    store = Store(str(db_path), FakeEmbedder(), upkeep=False)  # type: ignore[arg-type]
    events: list[str] = []
    release, closing = threading.Event(), threading.Thread(target=store.close)

    def close_now(events: list[str]) -> None:  # the step under way when the server is asked to stop
        closing.start()
        assert _until(lambda: store.worker.closing)
        release.set()

    monkeypatch.setattr(secret_warm, "steps", lambda: _recorded(events, at, close_now))
    store.upkeep.start_warm_up()
    assert release.wait(WAIT_S)
    closing.join(WAIT_S)
    assert not closing.is_alive()
    assert events == [f"step {n}" for n in range(at + 1)]


def test_no_warm_up_of_the_check_when_secrets_are_allowed(db_path, monkeypatch) -> None:
    monkeypatch.setattr(secret_warm, "steps", lambda: pytest.fail("the check was warmed up"))
    store = Store(str(db_path), FakeEmbedder(), allow_secrets=True)  # type: ignore[arg-type]
    store.upkeep.start_warm_up()
    store.close()


# Texts a first remember may bring: credentials the largest programs find (prose, misspelled, another language,
# a document's key, a key format, a URL's password) and prose that must be stored whole.
TEXTS = [
    "The staging database password is Xk29slQpz1",
    "the pasword for the vpn is Tr0ub4dor&3",
    "Das Passwort für den Server ist Xk29slQpz1",
    "db:\n  host: db.internal\n  password: Xk29slQpz1\n",
    "export GITHUB_TOKEN=ghp_Xk29slQpz1Xk29slQpz1Xk29slQpz1Xk29",
    "connect with postgres://admin:Xk29slQpz1@db.internal:5432/app",
    "We deploy the billing service on Fridays after the standup.",
    "The password policy asks for 12 characters; rotate it every 90 days.",
    "Rotate the API key from the vault before Friday's release.",
    "Le mot de passe du wifi est affiché dans la cuisine.",
]

PROBE = """
import json, sys
from memvault.storage.errors import InvalidInput
from memvault.storage.store import Store
store = Store(sys.argv[1], None)
if sys.argv[2] == "warm":
    store.upkeep.start_warm_up()
results = []
for text in json.loads(sys.argv[3]):
    try:
        store.remember(tenant="t", scope="s", content=text)
        results.append(None)
    except InvalidInput as exc:
        results.append(str(exc))
stored = sorted(m.content for m in store.list_memories(tenant="t", scopes=["s"], limit=50))
store.close()
print(json.dumps({"refusals": results, "stored": stored}))
"""


def test_a_remember_during_the_warm_up_gets_what_it_gets_without(tmp_path) -> None:
    """In new processes (their caches empty): the remembers begin as the warm-up does, and race it."""
    seen = {}
    for mode in ("warm", "cold"):
        done = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path / f"{mode}.db"), mode, json.dumps(TEXTS)],
                              capture_output=True, text=True, timeout=600, check=True)
        seen[mode] = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["warm"] == seen["cold"]
    assert [r is not None for r in seen["cold"]["refusals"]] == [True] * 6 + [False] * 4
    assert len(seen["cold"]["stored"]) == 4


# Prose a memory often is: "is a", "as", "up a", "p a" start the strings of thousands of spaced-out spellings of
# credential words ("p a s s w o r d"), which made the check of any such text compile every program (trial verify61 #5)
PROSE = ["The team lead is Maria", "Releases ship on Tuesdays after the standup", "Deploys go out via a pipeline",
         "Maria is a backend engineer", "Set up a new runner for the ARM builds", "Keep a copy of the map as a PDF",
         "We deploy the billing service on Fridays after the standup."]
LARGEST = (0, 3)  # the prose grammar and the misspelled words' grammar: a second or more each to compile


@pytest.mark.parametrize("text", PROSE)
def test_the_check_of_prose_needs_neither_of_the_largest_programs(text) -> None:
    from memvault.storage.secret_named import needed

    assert not set(needed(text)) & set(LARGEST), needed(text)


@pytest.mark.parametrize("text", ["The admin password is letmein", "p a s s w o r d: hunter2", "Passwort: Sonnenschein",
                                  "Maria is a dev; the wifi password is bluebird", "s a l a s a n a: Xk29slQpz1"])
def test_a_text_naming_a_password_beside_such_prose_is_still_found(text) -> None:
    from memvault.storage.secrets import find_secrets

    assert find_secrets(text)


def test_the_warm_up_compiles_what_prose_needs_first_and_the_largest_program_last() -> None:
    from memvault.storage.secret_named import needed

    compiled = [int(step.split()[2]) for step in STEPS() if step.endswith(" compiled")]
    assert sorted(compiled) == list(range(len(compiled)))
    for text in PROSE:
        assert set(needed(text)) <= set(compiled[:len(compiled) // 4]), text
    assert compiled[-1] == 3  # the misspelled words' grammar, which only a text naming a credential needs


def test_a_remember_does_not_wait_for_a_warm_up_step_it_does_not_need(db_path, monkeypatch) -> None:
    """A step held (as RE2 holds a thread compiling a large program): a remember of prose is served meanwhile."""
    held, release = threading.Event(), threading.Event()

    def blocking() -> Iterator[str]:
        yield "a step"
        held.set()
        release.wait(WAIT_S)
        yield "the held step"

    monkeypatch.setattr(secret_warm, "steps", blocking)
    store = Store(str(db_path), FakeEmbedder())  # type: ignore[arg-type]
    try:
        store.upkeep.start_warm_up()
        assert held.wait(WAIT_S)
        outcome = store.remember(tenant="t", scope="s", content=PROSE[1])
        assert not release.is_set() and outcome.created
        assert [m.content for m in store.list_memories(tenant="t", scopes=["s"], limit=5)] == [PROSE[1]]
    finally:
        release.set()
        store.close()
