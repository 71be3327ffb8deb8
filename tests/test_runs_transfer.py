"""A procedure's runs in ``memvault export`` and ``memvault import`` (issue 27): carried with their
times, outcomes and notes, checked on import as ``confirm`` checks them, never imported twice."""

from __future__ import annotations

import json

import pytest
from fakes import Clock, FakeEmbedder

from memvault.storage import transfer
from memvault.storage.store import Store
from memvault.storage.transfer import import_lines

pytestmark = pytest.mark.contract
AWS_KEY = "AKIAQYLPMN5HFIQR7BZX"  # shaped like a real key (test_privacy.TOKENS)


@pytest.fixture
def target(new_db, clock: Clock):
    s = Store(new_db(), FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    yield s
    s.close()


def test_runs_travel_with_their_procedure_and_a_second_import_adds_none(
    store: Store, target: Store, clock: Clock
):
    memory_id = store.remember(tenant="t", scope="s", kind="procedure", content="To deploy: make ship").id
    plain = store.remember(tenant="t", scope="s", content="The deploy host is web-2").id
    store.confirm(tenant="t", id=memory_id, outcome="failure", note="ssh: connection refused")
    clock.advance(60)
    store.confirm(tenant="t", id=memory_id, outcome="success")
    store.confirm(tenant="t", id=plain)
    lines = list(transfer.export_lines(store, "t"))
    records = {r["id"]: r for r in map(json.loads, lines)}
    assert records[memory_id]["runs"] == [
        {"at": "2026-01-01T00:00:00.000Z", "outcome": "failure", "note": "ssh: connection refused"},
        {"at": "2026-01-01T00:01:00.000Z", "outcome": "success", "note": None},
    ]
    assert "runs" not in records[plain]
    for _ in range(2):
        import_lines(target, lines, tenant="t", scope="default")
    assert list(transfer.export_lines(target, "t")) == lines
    summary = target.run_summaries(tenant="t", ids=[memory_id])[memory_id]
    assert (summary.runs, summary.successes, summary.failure_modes) == (2, 1, ("ssh: connection refused",))


@pytest.mark.parametrize(
    ("runs", "kind", "field", "says"),
    [
        ([{"at": "2026-01-01T00:00:00Z", "outcome": "success"}], "fact", "runs", "only a procedure has runs"),
        ([{"at": "2026-01-01T00:00:00Z", "outcome": "maybe"}], "procedure", "runs[0].outcome", "'maybe'"),
        ([{"outcome": "failure"}], "procedure", "runs[0].at", "required"),
        (
            [{"at": "2026-01-01T00:00:00Z", "outcome": "success", "note": "quick"}],
            "procedure",
            "runs[0].note",
            "only a failure",
        ),
        (
            [{"at": "2026-01-01T00:00:00Z", "outcome": "failure", "note": f"key {AWS_KEY} refused"}],
            "procedure",
            "runs[0].note",
            "AWS",
        ),
        ("often", "procedure", "runs", "must be a list"),
    ],
)
def test_a_bad_run_fails_its_line_naming_the_field(target: Store, runs, kind, field, says):
    line = json.dumps({"content": "To restart: systemctl restart app", "kind": kind, "runs": runs})
    report = import_lines(target, [line], tenant="t", scope="s")
    assert report.imported == 0 and [(e.field, says in e.message) for e in report.failed] == [
        (field, True)
    ], report.failed
