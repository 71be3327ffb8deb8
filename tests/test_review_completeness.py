"""Review's completeness (issue 27's review): the decayed list reads on past its first page until it
fills or the store ends (``more`` when cut), a memory whose vector was pending when a scan ran is
compared once it has one, ``memvault consolidate --json`` says ``more`` and answers a missing
database in JSON, the boot context says when only ``more`` is known, an import cannot confirm a
memory in the future, and the ``consolidate`` prompt's advice for a newer right memory works as
written. State tests on both backends."""

from __future__ import annotations

import json

import pytest
from fakes import FakeEmbedder
from memvault.server import cli
from memvault.storage import consolidate as consolidation
from memvault.storage import maintenance, strength
from memvault.storage import review as reviewing
from memvault.storage.consolidate import consolidate
from memvault.storage.errors import Conflict, ModelUnavailable
from memvault.storage.store import Store
from memvault.storage.timefmt import format_ms
from memvault.storage.transfer import import_lines
from memvault.tools import prompts
from memvault.tools.boot import boot_context
from memvault.tools.handlers import Caller

pytestmark = pytest.mark.contract
DAY_S = 86_400


class NoModel(FakeEmbedder):
    def load(self) -> None:
        raise ModelUnavailable("no model here")


def facts(store: Store, confirmed: int, unconfirmed: int) -> list[str]:
    """``confirmed`` facts stored twice (once confirmed), then ``unconfirmed`` ones; the latter's ids."""
    for n in range(confirmed):
        for _ in range(2):
            store.remember(tenant="a", scope="proj", content=f"Service {n} is owned by the platform team.",
                           kind="fact")
    return [store.remember(tenant="a", scope="proj", content=f"Queue {n} drains into bucket {n}.",
                           kind="fact").id for n in range(unconfirmed)]


def test_the_decayed_list_reads_on_past_its_first_page_until_it_fills(store, clock, monkeypatch):
    monkeypatch.setattr(reviewing, "DECAYED_READ", 5)
    monkeypatch.setattr(reviewing, "DECAYED_LISTED", 3)
    weak = facts(store, confirmed=12, unconfirmed=3)  # the weak ones are read on the third page
    clock.advance((strength.HALF_LIFE_DAYS["fact"] + 1) * DAY_S)
    review = store.review("a", ["proj"])
    assert sorted(m.id for m in review.decayed) == sorted(weak) and review.more  # filled: more may wait
    monkeypatch.setattr(reviewing, "DECAYED_LISTED", 10)
    review = store.review("a", ["proj"])
    assert sorted(m.id for m in review.decayed) == sorted(weak) and not review.more  # the store ended
    monkeypatch.setattr(reviewing, "DECAYED_PAGES", 2)
    review = store.review("a", ["proj"])
    assert review.decayed == [] and review.more  # bounded per call, and says so


def test_the_boot_context_says_when_only_more_is_known(store, clock, monkeypatch):
    monkeypatch.setattr(reviewing, "DECAYED_READ", 2)
    monkeypatch.setattr(reviewing, "DECAYED_PAGES", 1)
    facts(store, confirmed=3, unconfirmed=0)
    clock.advance((strength.HALF_LIFE_DAYS["fact"] + 1) * DAY_S)
    assert store.review("a", ["proj"]).waiting == 0
    boot = boot_context(store, Caller(tenant="a", scope="proj"), 2_000)
    assert "Memories may wait (more than one read holds) for review: read memory://review" in boot


def test_a_memory_whose_vector_was_pending_is_compared_once_it_has_one(db, clock, monkeypatch):
    monkeypatch.setattr(consolidation, "PENDING_KEPT", 1)
    healthy = Store(db, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    old = [healthy.remember(tenant="a", scope="proj", content=f"The {name} service listens on port 8000.",
                            kind="fact").id for name in ("billing", "search")]
    assert consolidate(healthy).compared == 2
    healthy.close()
    broken = Store(db, NoModel(), clock=clock)  # type: ignore[arg-type]
    new = [broken.remember(tenant="a", scope="proj", content=f"The {name} service listens on port 9000.",
                           kind="fact").id for name in ("billing", "search")]
    run = consolidate(broken)
    assert (run.compared, run.contradictions) == (0, 0)
    broken.close()
    healthy = Store(db, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        assert maintenance.fill_pending(healthy) == 2
        run = consolidate(healthy)
        assert (run.compared, run.contradictions) == (2, 2)  # the one kept aside and the one the mark stopped at
        pairs = {(o, n) for o, n, _ in healthy.review("a", ["proj"]).contradictions}
        assert pairs == set(zip(old, new, strict=True))
        assert consolidate(healthy).compared == 0
    finally:
        healthy.close()


def test_consolidate_json_says_more_and_answers_a_missing_database_in_json(db_path, tmp_path, capsys, one_model):
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    store.remember(tenant="default", scope="default", content="The build runs on ci-4.", kind="fact")
    store.close()
    assert cli.main(["consolidate", "--json", "--db", str(db_path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["waiting"]["default"]["more"] is False
    missing = tmp_path / "nothing-here.db"
    assert cli.main(["consolidate", "--json", "--db", str(missing)]) == 1
    captured = capsys.readouterr()
    error = json.loads(captured.out)["error"]
    assert error["field"] == "db" and str(missing) in error["message"] and "no database" in captured.err
    assert not missing.exists()


@pytest.mark.parametrize("field", ["last_confirmed_at", "recorded_at"])
def test_an_import_refuses_a_time_that_has_not_happened(db_path, clock, field):
    """Checked before any backend is asked: SQLite only."""
    store = Store(db_path, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        ahead = format_ms(clock() + 2 * DAY_S * 1000)
        line = {"content": "The VPN gateway is vpn4.", "confirmations": 2, field: ahead}
        report = import_lines(store, [json.dumps(line)], tenant="a", scope="proj")
        assert report.imported == 0 and [(e.line, e.field) for e in report.failed] == [(1, field)]
        assert "ahead of the server's clock" in report.failed[0].message
        near = format_ms(clock() + 3_600_000)  # within the clock skew allowed
        assert import_lines(store, [json.dumps({**line, field: near})], tenant="a", scope="proj").imported == 1
    finally:
        store.close()


def test_the_prompts_advice_for_a_newer_right_memory_works_as_written(store):
    """Prompt: supersede the older with by: the newer's id."""
    advice = prompts.consolidate()
    assert "supersede with the older's id, by: the newer's id" in advice and "forget the older" not in advice
    older = store.remember(tenant="a", scope="proj", content="Standup is at 9:15.", kind="fact").id
    newer = store.remember(tenant="a", scope="proj", content="Standup is at 10:30.", kind="fact")
    with pytest.raises(Conflict, match=f"supersede {older} with `by` {newer.id}"):
        store.supersede(tenant="a", id=older, content="Standup is at 10:30.")  # the refusal says how
    done = store.supersede_by(tenant="a", id=older, by=newer.id, reason="moved (review)")
    chain = store.get(tenant="a", id=older)
    assert chain.superseded_by == done.id == newer.id and store.get(tenant="a", id=done.id).supersedes == older
    hits = store.recall(tenant="a", query="standup", scopes=["proj"]).hits
    assert [h.memory.content for h in hits] == ["Standup is at 10:30."]
