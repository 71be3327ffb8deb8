"""Procedures that learn (issue 27): ``confirm`` with an outcome records a run; a procedure shows its
runs, success rate, last run and failure modes; two failures in a row flag it and a success clears
the flag; a forget erases its runs' notes. On both backends, with a fake clock."""

from __future__ import annotations

import pytest
import raw
from conftest import names_field
from fakes import Clock, FakeEmbedder

from memvault.storage.errors import InvalidInput
from memvault.storage.store import Store
from memvault.tools import handlers, text
from memvault.tools.boot import boot_context

pytestmark = pytest.mark.contract
CALLER = handlers.Caller(tenant="t", scope="proj")
GITHUB_TOKEN = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A"


def procedure(store: Store, content: str = "To release: tag the commit, then run make publish") -> str:
    return store.remember(tenant="t", scope="proj", kind="procedure", content=content).id


def test_two_failures_in_a_row_flag_a_procedure_and_a_success_clears_it(store: Store, clock: Clock):
    memory_id = procedure(store)
    other = procedure(store, "To rotate the logs: run logrotate -f on web-1")
    first = store.confirm(tenant="t", id=memory_id, outcome="failure", note="make publish timed out")
    assert (first.runs.runs, first.runs.failure_streak, first.runs.flagged) == (1, 1, False)
    assert first.memory.confirmations == 0  # a failure confirms nothing
    clock.advance(3_600)
    second = store.confirm(tenant="t", id=memory_id, outcome="failure", note="the tag already existed")
    assert second.runs.flagged and second.runs.failure_modes == (
        "the tag already existed",
        "make publish timed out",
    )
    store.confirm(tenant="t", id=other, outcome="failure", note="permission denied")
    assert [m.id for m in store.failing_procedures("t", ["proj"])] == [memory_id]
    clock.advance(3_600)
    third = store.confirm(tenant="t", id=memory_id, outcome="success")
    assert (third.runs.runs, third.runs.successes, third.runs.success_rate) == (3, 1, 0.33)
    assert (third.runs.last_outcome, third.runs.last_run_at, third.runs.flagged) == (
        "success",
        clock(),
        False,
    )
    assert third.memory.confirmations == 1 and store.failing_procedures("t", ["proj"]) == []
    assert store.failing_procedures("t", ["elsewhere"]) == []


def test_a_procedure_hit_and_its_boot_line_show_its_runs(store: Store, clock: Clock):
    memory_id = procedure(store)
    for note in ("make publish timed out", "make publish timed out"):
        store.confirm(tenant="t", id=memory_id, outcome="failure", note=note)
    hit = handlers.recall(store, CALLER, query="how to release").memories[0]
    assert hit.id == memory_id and hit.runs is not None
    assert hit.runs.model_dump() == {
        "runs": 2,
        "successes": 0,
        "success_rate": 0.0,
        "last_run_at": "2026-01-01T00:00:00.000Z",
        "last_outcome": "failure",
        "failure_streak": 2,
        "failure_modes": ["make publish timed out"],
        "flagged": True,
    }
    line = text.memory_line(hit)
    assert line.endswith(
        '"To release: tag the commit, then run make publish" — strength 0.60; 2 runs, 0 succeeded, '
        'last 2026-01-01 failed (flagged: the last two runs failed); failures: "make publish timed out"'
    )
    boot = boot_context(store, CALLER, 2000)
    assert (
        "## Procedures\n- [" in boot
        and 'publish" — 2 runs, 0 succeeded, last 2026-01-01 failed (flagged' in boot
    )
    fresh = procedure(store, "To restart the queue: systemctl restart rq on worker-2")
    assert handlers.recall(store, CALLER, query="restart the queue").memories[0].runs.runs == 0
    assert '"To restart the queue: systemctl restart rq on worker-2"\n' in boot_context(
        store, CALLER, 2000
    )
    view = handlers.memory_view(store, CALLER, fresh)
    assert view["memory"]["runs"]["runs"] == 0 and "runs:        no runs recorded" in text.memory_view_text(
        view
    )


def test_an_outcome_is_refused_for_a_memory_that_is_not_a_procedure(store: Store):
    memory_id = store.remember(tenant="t", scope="proj", content="The release branch is main").id
    with pytest.raises(InvalidInput) as caught:
        store.confirm(tenant="t", id=memory_id, outcome="success")
    assert names_field(str(caught.value), "outcome") and "is of kind fact" in str(caught.value)
    assert store.get(tenant="t", id=memory_id).confirmations == 0
    assert store.run_summaries(tenant="t", ids=[memory_id]) == {}


def test_a_failure_note_holding_a_credential_or_too_long_is_refused_and_nothing_is_recorded(store: Store):
    memory_id = procedure(store)
    for note, says in ((f"push failed with token {GITHUB_TOKEN}", "GitHub"), ("x" * 501, "the limit is 500")):
        with pytest.raises(InvalidInput) as caught:
            store.confirm(tenant="t", id=memory_id, outcome="failure", note=note)
        assert names_field(str(caught.value), "note") and says in str(caught.value), caught.value
    assert store.run_summaries(tenant="t", ids=[memory_id]) == {}


def test_forgetting_a_procedure_erases_its_runs_notes_in_the_same_transaction(store: Store, db: str):
    memory_id = procedure(store)
    kept = procedure(store, "To rotate the logs: run logrotate -f on web-1")
    for target in (memory_id, kept):
        store.confirm(tenant="t", id=target, outcome="failure", note=f"disk full on {target[-4:]}")
    store.forget(tenant="t", id=memory_id)
    notes = raw.execute(
        db, "SELECT m.id, r.outcome, r.note FROM runs r JOIN memories m ON m.seq = r.memory_seq"
    )
    assert sorted(notes) == sorted(
        [(memory_id, "failure", None), (kept, "failure", f"disk full on {kept[-4:]}")]
    )


def test_runs_of_one_tenant_are_not_read_by_another(store: Store):
    memory_id = procedure(store)
    store.confirm(tenant="t", id=memory_id, outcome="success")
    assert store.run_summaries(tenant="other", ids=[memory_id]) == {}
    assert store.failing_procedures("other", ["proj"]) == []


def test_a_database_from_before_runs_keeps_its_memories_and_gains_runs(db: str, clock: Clock):
    from memvault.storage.postgres import schema as pg_schema
    from memvault.storage.sqlite import schema as sqlite_schema

    store = Store(db, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        memory_id = procedure(store)
        before = raw.execute(db, "SELECT id, tenant, content, confirmations FROM memories ORDER BY id")
    finally:
        store.close()
    raw.execute(db, "DROP TABLE runs")
    raw.rewind(db, sqlite_schema._V13_RUNS, pg_schema._v_runs)
    store = Store(db, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        assert (
            raw.execute(db, "SELECT id, tenant, content, confirmations FROM memories ORDER BY id") == before
        )
        assert store.confirm(tenant="t", id=memory_id, outcome="success").runs.runs == 1
    finally:
        store.close()
