"""Consolidation (issue 27, items 4-6): old episodes compacted into digests per scope and week,
every source reachable and kept until forgotten, idempotent, crash-safe; review of contradicting
pairs and decayed memories. State tests on both backends."""

from __future__ import annotations

import logging
import re
import signal
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from fakes import FakeEmbedder

from memvault.storage import consolidate as consolidation
from memvault.storage import maintenance, strength
from memvault.storage import review as reviewing
from memvault.storage.consolidate import COMPACT_AFTER_DAYS, DIGEST_TAG, consolidate
from memvault.storage.limits import CONTENT_MAX_CHARS
from memvault.storage.query import Filters
from memvault.storage.records import Memory
from memvault.storage.store import Store
from memvault.storage.timefmt import format_ms
from memvault.tools.handlers import Caller
from memvault.tools.review import review_document

pytestmark = pytest.mark.contract
DAY_MS = 86_400_000
WRITER = Path(__file__).with_name("consolidate_writer.py")


def episode(store: Store, content: str, days_ago: float, scope: str = "proj", importance: int = 3,
            tenant: str = "a") -> str:
    observed = format_ms(store.clock() - int(days_ago * DAY_MS))
    return store.remember(tenant=tenant, scope=scope, content=content, kind="episode", importance=importance,
                          observed_at=observed).id


def every_memory(store: Store, tenant: str = "a") -> dict[str, Memory]:
    """Every memory of ``tenant``, any state, by id."""
    every = Filters(tenant=tenant, scopes=None, now=0, include_history=True)
    with store.backend.read(tenant) as tx:
        return {m.id: m for m in tx.memories(tenant, filters=every, order="seq").values()}


def digests(store: Store, tenant: str = "a") -> list[Memory]:
    return [m for m in every_memory(store, tenant).values() if DIGEST_TAG in m.tags]


def listed(digest: Memory) -> list[str]:
    """The short ids a digest's lines name."""
    return re.findall(r"^- \[([0-9a-f-]+)\]", digest.content or "", re.MULTILINE)


def test_old_unimportant_episodes_become_one_digest_per_scope_and_week(store, clock):
    # Clock: Thursday 2026-01-01. 40 and 41 days back share a week; 47 days back is the week before.
    week_a = [episode(store, f"Deployed build {n} to staging. Then lunch.", 40 + n / 10) for n in range(3)]
    week_b = [episode(store, "Paired on the flaky login test. It passed after a retry.", 47),
              episode(store, "Cleaned up the staging buckets.", 47.2)]
    other_scope = [episode(store, "Wrote the quarterly report draft.", 40, scope="ops"),
                   episode(store, "Sent the report to finance.", 40.1, scope="ops")]
    kept = [
        episode(store, "Alone in its week: a digest of one episode would only reword it.", 54),
        episode(store, "Fixed the outage in the payment service.", 40, importance=5),  # important
        episode(store, "Reviewed the caching pull request.", COMPACT_AFTER_DAYS - 1),  # recent
        store.remember(tenant="a", scope="proj", content="Staging runs on host db2.", kind="fact",
                       observed_at=format_ms(clock() - 60 * DAY_MS)).id,
    ]
    report = consolidate(store)

    assert len(report.compacted) == 3 and report.skipped == 0
    by_sources = {frozenset(c.sources): c for c in report.compacted}
    assert set(by_sources) == {frozenset(week_a), frozenset(week_b), frozenset(other_scope)}
    rows = every_memory(store)
    for sources, done in by_sources.items():
        digest = rows[done.digest_id]
        assert (digest.kind, digest.importance, digest.tags) == ("episode", 5, (DIGEST_TAG,))
        assert digest.scope == done.scope
        assert digest.superseded_by is None and len(digest.content or "") <= CONTENT_MAX_CHARS
        assert digest.observed_at == max(rows[s].observed_at for s in sources)
        prefixes = listed(digest)
        assert len(prefixes) == len(sources)
        for source in sources:
            assert rows[source].superseded_by == digest.id
            assert rows[source].supersede_reason == f"compacted into {digest.id}"
            assert any(source.startswith(p) for p in prefixes)
            assert rows[source].content is not None  # kept for history and export
    text_a = rows[by_sources[frozenset(week_a)].digest_id].content or ""
    assert "Deployed build 0 to staging." in text_a and "Then lunch" not in text_a  # first sentence only
    assert by_sources[frozenset(week_a)].week == "2025-W47"
    for memory_id in kept:
        assert rows[memory_id].superseded_by is None
    assert maintenance.own(store).check() == []  # compaction links count as whole


def test_a_second_run_changes_nothing(store):
    for n in range(6):
        episode(store, f"Standup number {n} went fine.", 40 + 3 * n)
    first = consolidate(store)
    before = every_memory(store)
    second = consolidate(store)
    assert first.compacted and second.compacted == [] and second.skipped == 0
    assert every_memory(store) == before


def test_recall_finds_the_digest_through_a_compacted_episode_and_get_shows_the_source(store):
    source = episode(store, "Migrated the billing database to Postgres sixteen.", 45)
    other = episode(store, "Cleaned the backlog of stale tickets.", 45)
    done = consolidate(store).compacted[0]
    hits = store.recall(tenant="a", query="billing database Postgres migration", scopes=["proj"]).hits
    assert [h.memory.id for h in hits][:1] == [done.digest_id]
    assert source not in {h.memory.id for h in hits} and other not in {h.memory.id for h in hits}
    assert store.get(tenant="a", id=source).content == "Migrated the billing database to Postgres sixteen."
    # A compaction is no new version: the source's history is itself, its link says where it went.
    assert [m.id for m in store.history(tenant="a", id=source)] == [source]
    assert store.get(tenant="a", id=source).superseded_by == done.digest_id
    with_history = store.recall(tenant="a", query="billing database Postgres", scopes=["proj"],
                                include_history=True)
    assert source in {h.memory.id for h in with_history.hits}


def words_found(store: Store, words: str) -> list[str]:
    """The contents of every hit for ``words``, history included (where a forgotten sentence could hide)."""
    hits = store.recall(tenant="a", query=words, scopes=["proj"], include_history=True, limit=20).hits
    return [h.memory.content or "" for h in hits]


def test_forgetting_a_compacted_episode_empties_its_digest_and_the_others_come_back(store):
    source = episode(store, "Called the vendor Zorblatt about the overdue invoice.", 50)
    others = [episode(store, "Booked the team offsite venue.", 50), episode(store, "Wrote the retro notes.", 50)]
    done = consolidate(store).compacted[0]
    outcome = store.forget(tenant="a", id=source, reason="private")
    assert outcome.forgotten_ids == [source, done.digest_id] and sorted(outcome.restored_ids) == sorted(others)
    rows = {m: store.get(tenant="a", id=m) for m in [source, done.digest_id, *others]}
    assert rows[source].content is None and rows[done.digest_id].content is None
    assert rows[done.digest_id].forget_reason == "a memory it compacted was forgotten"
    assert all(rows[o].superseded_by is None and rows[o].supersede_reason is None for o in others)
    assert not any("Zorblatt" in text for text in words_found(store, "Zorblatt vendor invoice"))
    assert {h.memory.id for h in store.recall(tenant="a", query="offsite venue", scopes=["proj"]).hits} >= {others[0]}
    assert store.upkeep.scrub() and maintenance.check(store) == []  # (PostgreSQL: scrubbed when asked)
    (again,) = consolidate(store).compacted  # the next run compacts the others anew, without it
    assert sorted(again.sources) == sorted(others)
    assert "Zorblatt" not in (store.get(tenant="a", id=again.digest_id).content or "")


def test_forgetting_a_digest_makes_its_episodes_current_and_with_history_forgets_them(store):
    first = [episode(store, f"Swept the {n} backlog.", 60) for n in ("red", "blue")]
    second = [episode(store, f"Tuned the {n} alerts.", 45) for n in ("green", "grey")]
    one, two = sorted(consolidate(store).compacted, key=lambda c: c.week)
    outcome = store.forget(tenant="a", id=one.digest_id)
    assert outcome.forgotten_ids == [one.digest_id] and sorted(outcome.restored_ids) == sorted(first)
    assert all(store.get(tenant="a", id=m).superseded_by is None for m in first)
    outcome = store.forget(tenant="a", id=two.digest_id, include_history=True)
    assert sorted(outcome.forgotten_ids) == sorted([two.digest_id, *second]) and outcome.restored_ids == []
    assert all(store.get(tenant="a", id=m).content is None for m in second)
    assert all(store.get(tenant="a", id=m).content is not None for m in first)  # the other week: kept
    assert store.upkeep.scrub() and maintenance.check(store) == []


def test_forgetting_an_episode_with_its_history_never_reaches_its_digests_other_episodes(store):
    old = episode(store, "Drafted the onboarding guide.", 52)
    source = store.supersede(tenant="a", id=old, content="Drafted and sent the onboarding guide.",
                             observed_at=format_ms(store.clock() - 52 * DAY_MS)).id
    sibling = episode(store, "Renewed the TLS certificates.", 52)
    (done,) = consolidate(store).compacted
    assert set(done.sources) == {source, sibling}
    outcome = store.forget(tenant="a", id=source, include_history=True)
    assert sorted(outcome.forgotten_ids) == sorted([old, source, done.digest_id])
    assert outcome.restored_ids == [sibling] and store.get(tenant="a", id=sibling).content is not None


def test_a_compacted_episode_cannot_be_superseded_or_confirmed_and_the_error_names_its_digest(store):
    from memvault.storage.errors import Conflict

    source = episode(store, "Triaged the nightly failures.", 40)
    episode(store, "Reran the nightly build.", 40.1)
    (done,) = consolidate(store).compacted
    for call in (lambda: store.supersede(tenant="a", id=source, content="Triaged them all."),
                 lambda: store.confirm(tenant="a", id=source)):
        with pytest.raises(Conflict, match=f"compacted into the digest {done.digest_id}"):
            call()


def test_an_episode_with_an_expiry_is_never_compacted(store, clock):
    expiring = store.remember(tenant="a", scope="proj", content="Parking spot for the office is 4471.", kind="episode",
                              importance=2, observed_at=format_ms(clock() - 40 * DAY_MS),
                              expires_at=format_ms(clock() + 30 * DAY_MS)).id
    kept = episode(store, "Cleaned the shared drive.", 40), episode(store, "Archived old tickets.", 40.1)
    (done,) = consolidate(store).compacted
    assert sorted(done.sources) == sorted(kept) and store.get(tenant="a", id=expiring).superseded_by is None


def test_a_compacted_episode_that_expires_empties_its_digest_when_erased(store, new_db, clock):
    """An expiry reaching a digest's episode (here brought by an import) goes the way of a forget."""
    from memvault.storage import transfer

    sources = [episode(store, f"Visited the {n} data centre.", 40) for n in ("north", "south")]
    done = consolidate(store).compacted[0]
    lines = list(transfer.export_lines(store, "a"))
    soon = format_ms(clock() + 60_000)
    lines = [line.replace('"expires_at": null', f'"expires_at": "{soon}"', 1) if sources[0] in line
             and done.digest_id in line and '"id": "' + sources[0] in line else line for line in lines]
    assert any(soon in line for line in lines)
    copy = Store(new_db(), FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        transfer.import_lines(copy, lines, tenant="a", scope="proj")
        clock.advance(3 * 86_400)
        purged = copy.upkeep.run_due().purged_ids
        assert sorted(purged) == sorted([sources[0], done.digest_id])
        assert copy.get(tenant="a", id=done.digest_id).content is None
        assert copy.get(tenant="a", id=sources[1]).superseded_by is None
        assert maintenance.own(copy).check() == []
    finally:
        copy.close()


def test_a_week_longer_than_one_memory_is_split_into_digests_within_the_limit(store):
    long_sentence = "Investigated the nightly import job " + "and its retries " * 12 + "for a while."
    sources = {episode(store, f"{long_sentence} Entry {n}.", 40) for n in range(60)}
    report = consolidate(store)
    assert len(report.compacted) >= 2
    assert set().union(*(set(c.sources) for c in report.compacted)) == sources
    assert sum(len(c.sources) for c in report.compacted) == len(sources)
    rows = every_memory(store)
    for done in report.compacted:
        assert len(rows[done.digest_id].content or "") <= CONTENT_MAX_CHARS
        assert len(listed(rows[done.digest_id])) == len(done.sources)


def test_a_source_changed_after_the_read_leaves_its_digest_to_the_next_run(store, monkeypatch):
    first = episode(store, "Rotated the on-call schedule.", 40)
    episode(store, "Renewed the TLS certificate.", 40)
    episode(store, "Updated the status page.", 40)
    embed = store.embed_memory
    changed: list[str] = []

    def superseded_meanwhile(text, reason):  # runs between the read and the write, as a concurrent writer
        if not changed:
            changed.append(text)
            store.supersede(tenant="a", id=first, content="Rotated the on-call schedule for March.")
        return embed(text, reason)

    monkeypatch.setattr(store, "embed_memory", superseded_meanwhile)
    report = consolidate(store)
    assert report.compacted == [] and report.skipped == 1
    assert digests(store) == []
    monkeypatch.undo()
    assert len(consolidate(store).compacted) == 1


def test_export_keeps_compacted_episodes_and_import_links_them_to_their_digest_again(store, new_db, clock):
    from memvault.storage import transfer

    sources = [episode(store, f"Demoed the search feature to client {n}.", 40) for n in range(3)]
    done = consolidate(store).compacted[0]
    lines = list(transfer.export_lines(store, "a"))
    assert all(any(source in line and done.digest_id in line for line in lines) for source in sources)
    copy = Store(new_db(), FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        report = transfer.import_lines(copy, lines, tenant="a", scope="proj")
        assert report.imported == 4 and not report.failed
        rows = every_memory(copy)
        assert all(rows[s].superseded_by == done.digest_id for s in sources)
        assert all(rows[s].supersede_reason == f"compacted into {done.digest_id}" for s in sources)
        assert maintenance.own(copy).check() == []
        assert consolidate(copy).compacted == []
    finally:
        copy.close()


def test_sigkill_during_consolidation_loses_nothing_and_a_rerun_completes_it(db, clock):
    setup = Store(db, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    weeks = 120
    try:
        for week in range(weeks):
            for n in range(2):
                episode(setup, f"Week {week} task {n} done.", 40 + 7 * week + n)
    finally:
        setup.close()
    proc = subprocess.Popen([sys.executable, str(WRITER), db, str(clock())], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=WRITER.parent)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready", proc.stderr.read() if proc.stderr else ""
    first = proc.stdout.readline()
    assert first.startswith("ack "), first + (proc.stderr.read() if proc.stderr else "")
    proc.send_signal(signal.SIGKILL)
    out, _ = proc.communicate()
    acknowledged = {line.split()[1] for line in (first + out).splitlines() if line.startswith("ack ")}
    assert "done" not in out  # the kill landed in the middle

    store = Store(db, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        rows = every_memory(store)
        written = digests(store)
        assert acknowledged <= {d.id for d in written}
        assert 0 < len(written) < weeks
        _assert_whole(rows, written)
        assert maintenance.own(store).check() == []
        consolidate(store)
        rows = every_memory(store)
        _assert_whole(rows, digests(store))
        sources = [m for m in rows.values() if m.kind == "episode" and DIGEST_TAG not in m.tags]
        assert all(m.superseded_by is not None for m in sources)
        assert len(digests(store)) == weeks
    finally:
        store.close()


def _assert_whole(rows: dict[str, Memory], written: list[Memory]) -> None:
    """Every compacted source points at an existing digest that lists it; each digest's sources are marked."""
    for memory in rows.values():
        if memory.superseded_by is not None:
            digest = rows[memory.superseded_by]
            assert any(memory.id.startswith(p) for p in listed(digest))
    for digest in written:
        marked = [m for m in rows.values() if m.superseded_by == digest.id]
        assert len(marked) == len(listed(digest)) > 0


# -- review ------------------------------------------------------------------------------------


def test_consolidation_lists_contradicting_pairs_for_review_until_one_is_superseded(store, clock):
    old = store.remember(tenant="a", scope="proj", content="The team standup is at 9:15 every weekday.",
                         kind="fact").id
    clock.advance(3600)
    new = store.remember(tenant="a", scope="proj", content="The team standup is at 10:30 every weekday.",
                         kind="fact").id
    unrelated = store.remember(tenant="a", scope="proj", content="Invoices are sent on the first Monday.",
                               kind="fact").id
    report = consolidate(store)
    assert report.contradictions == 1 and report.compared == 3
    review = store.review("a", ["proj"])
    assert [(o, n) for o, n, _ in review.contradictions] == [(old, new)]
    assert "9:15" in review.contradictions[0][2] and "10:30" in review.contradictions[0][2]
    assert unrelated not in {i for pair in review.contradictions for i in pair[:2]}
    assert store.review("a", ["other"]).contradictions == []

    again = consolidate(store)
    assert again.compared == 0 and again.contradictions == 0  # only what was written since is compared

    store.supersede(tenant="a", id=old, content="The team standup was at 9:15 until May.")
    assert store.review("a", ["proj"]).contradictions == []


def test_only_memories_written_since_the_last_run_are_compared(store):
    facts = ["The billing service listens on port 8000.", "Cache entries expire after 30 minutes.",
             "Backups are kept for 14 days.", "Deploys need 2 approvals.", "The VPN gateway is vpn4."]
    for content in facts:
        store.remember(tenant="a", scope="proj", content=content, kind="fact")
    first = consolidate(store)
    assert (first.compared, first.contradictions) == (5, 0)
    store.remember(tenant="a", scope="proj", content="The billing service listens on port 9000.", kind="fact")
    report = consolidate(store)
    assert report.compared == 1 and report.contradictions == 1


def test_one_run_compares_every_memory_written_since_the_last_in_steps_of_the_batch(store, monkeypatch):
    """More new memories than one step holds (``SCAN_BATCH``): the run goes on step by step to the
    last, and finds the pair at the end."""
    monkeypatch.setattr(consolidation, "SCAN_BATCH", 2)
    facts = ["The billing service listens on port 8000.", "Cache entries expire after 30 minutes.",
             "Backups are kept for 14 days.", "Deploys need 2 approvals.", "The VPN gateway is vpn4.",
             "The billing service listens on port 9000."]
    for content in facts:
        store.remember(tenant="a", scope="proj", content=content, kind="fact")
    report = consolidate(store)
    assert (report.compared, report.finished) == (6, True)
    assert len(store.review("a", ["proj"]).contradictions) == 1
    assert consolidate(store).compared == 0


def test_a_scan_told_to_stop_ends_after_the_memory_it_compares_and_the_next_run_goes_on_from_it(store):
    """A server's worker asks ``stop()`` between two memories (a call waits for one comparison, not a
    step's): told to stop after its first, each run compares one memory, saves the mark after it, and
    the runs together compare each once and find the pair at the end."""
    facts = ["The billing service listens on port 8000.", "Cache entries expire after 30 minutes.",
             "Backups are kept for 14 days.", "Deploys need 2 approvals.", "The VPN gateway is vpn4.",
             "The billing service listens on port 9000."]
    for content in facts:
        store.remember(tenant="a", scope="proj", content=content, kind="fact")
    runs = []
    while not runs or not runs[-1].finished:
        asked = iter(range(100))
        runs.append(consolidate(store, stop=lambda: next(asked) > 0))
    assert [r.compared for r in runs] == [1] * 6
    assert sum(r.contradictions for r in runs) == 1 and len(store.review("a", ["proj"]).contradictions) == 1
    assert consolidate(store).compared == 0


def test_a_tenant_with_nothing_new_takes_no_turn_from_the_next(store):
    """Told to stop after its first comparison (a server's worker under calls that never pause), a run
    goes past the tenants with nothing new without asking ``stop()`` and compares one memory of the
    next: every tenant's scan goes on, not only the first's."""
    store.remember(tenant="a", scope="proj", content="The billing service listens on port 8000.", kind="fact")
    consolidate(store)
    for content in ["Backups are kept for 14 days.", "Deploys need 2 approvals.", "The VPN gateway is vpn4."]:
        store.remember(tenant="b", scope="proj", content=content, kind="fact")
    runs = []
    while len(runs) < 10 and (not runs or not runs[-1].finished):
        asked = iter(range(100))
        runs.append(consolidate(store, stop=lambda: next(asked) > 0))
    assert [r.compared for r in runs] == [1, 1, 1]


def test_a_run_in_turns_reads_each_tenants_old_episodes_once(store, monkeypatch):
    """Compacting reads every old episode of a tenant: a run stopped after each comparison (a server's
    turns under calls) reads each tenant's once, twice when a turn stopped between the read and the
    digest's write, not again at every turn; and it still compacts them."""
    read: list[str] = []
    compact = consolidation.compact
    monkeypatch.setattr(consolidation, "compact", lambda store, tenant, *rest: (read.append(tenant),
                                                                                 compact(store, tenant, *rest)))
    for tenant in ("a", "b"):
        for topic in ("the flaky test", "the release notes"):
            episode(store, f"Paired with {tenant} on {topic}.", 40, tenant=tenant)
        for content in ["Backups are kept for 14 days.", "Deploys need 2 approvals."]:
            store.remember(tenant=tenant, scope="proj", content=content, kind="fact")
    done: set[str] = set()
    runs = []
    while len(runs) < 10 and (not runs or not runs[-1].finished):
        asked = iter(range(100))
        runs.append(consolidate(store, stop=lambda: next(asked) > 0, compacted=done))
    assert runs[-1].finished and len(runs) >= 6
    assert set(read) == {"a", "b"} and all(read.count(tenant) <= 2 for tenant in "ab")
    assert sum(len(r.compacted) for r in runs) == 2 and len(digests(store, "a")) == len(digests(store, "b")) == 1


def test_a_fact_left_unconfirmed_past_its_half_life_waits_for_review(store, clock):
    fact = store.remember(tenant="a", scope="proj", content="The build server is ci3.", kind="fact").id
    confirmed = store.remember(tenant="a", scope="proj", content="Releases ship on Tuesdays.", kind="fact").id
    store.remember(tenant="a", scope="proj", content="Releases ship on Tuesdays.", kind="fact")  # confirmed
    store.remember(tenant="a", scope="proj", content="Lunch was pizza.", kind="episode")
    assert store.review("a", ["proj"]).decayed == []
    clock.advance((strength.HALF_LIFE_DAYS["fact"] + 1) * 86_400)
    decayed = store.review("a", ["proj"]).decayed
    assert [m.id for m in decayed] == [fact]
    assert confirmed not in {m.id for m in decayed}
    assert store.review("a", ["proj"]).waiting == 1


def test_review_age_bound_never_leaves_out_a_memory_that_needs_review():
    for kind in consolidation.STATE_KINDS:
        age = reviewing._review_age(kind)
        memory = Memory(id="x", tenant="a", scope="s", kind=kind, content="c", tags=(), importance=3,
                        source=None, observed_at=0, recorded_at=0, expires_at=None, supersedes=None,
                        superseded_by=None, supersede_reason=None, forgotten_at=None, forget_reason=None,
                        confirmations=0, last_confirmed_at=None, vector_pending=False, tokens=1)
        assert not strength.needs_review(memory, age - DAY_MS)
        assert strength.needs_review(memory, age + DAY_MS)


def test_consolidation_runs_for_every_tenant_apart(store):
    for tenant in "ab":
        episode(store, f"Tenant {tenant} shipped the release.", 40, tenant=tenant)
        episode(store, f"Tenant {tenant} wrote the release notes.", 40.1, tenant=tenant)
    report = consolidate(store)
    assert sorted(c.tenant for c in report.compacted) == ["a", "b"]
    for tenant in "ab":
        (digest,) = digests(store, tenant)
        assert all(rows.tenant == tenant for rows in every_memory(store, tenant).values())
        assert f"Tenant {tenant}" in (digest.content or "")


# -- when it runs -----------------------------------------------------------------------------


def settled(store: Store, until=lambda: False) -> None:  # type: ignore[no-untyped-def]
    """Let the worker run the jobs queued, and those they queue (a consolidation goes in turns, one
    step each), until ``until()`` or 20 rounds."""
    for _ in range(20):
        store.worker.run(lambda: None)
        if until():
            return


def last_run(store: Store) -> str | None:
    with store.backend.read(None) as tx:
        return tx.settings().get(consolidation.LAST_RUN)


def test_a_store_told_to_consolidates_on_its_worker_after_n_writes_and_logs_what_it_compacted(store, caplog):
    caplog.set_level(logging.INFO, logger="memvault.storage.maintenance")
    old = [episode(store, f"Old note number {n}.", 40) for n in range(2)]
    store.upkeep.schedule_consolidation(0, 3)
    settled(store)
    assert digests(store) == [] and last_run(store) is None
    episode(store, "A third write starts it.", 1)
    settled(store, until=lambda: last_run(store) is not None)
    (digest,) = digests(store)
    assert all(every_memory(store)[i].superseded_by == digest.id for i in old)
    assert last_run(store) is not None
    logged = [r.getMessage() for r in caplog.records if r.name == "memvault.storage.maintenance"]
    assert [m for m in logged if m.startswith("consolidation: ")] == [
        f"consolidation: 2 episodes of tenant a, scope proj, week {consolidation.iso_week(digest.observed_at)} "
        f"compacted into digest {digest.id}"]
    assert not any("Old note" in m for m in logged)


def test_on_a_scheduled_store_a_contradiction_remember_reports_waits_for_review_at_once(store, clock):
    store.upkeep.schedule_consolidation(24, 500)  # as a server's store
    old = store.remember(tenant="a", scope="proj", content="The team standup is at 9:15 every weekday.",
                         kind="fact").id
    clock.advance(3600)
    new = store.remember(tenant="a", scope="proj", content="The team standup is at 10:30 every weekday.",
                         kind="fact")
    assert [c[0] for c in new.contradicts] == [old]
    assert [(o, n) for o, n, _ in store.review("a", ["proj"]).contradictions] == [(old, new.id)]  # no waiting
    assert last_run(store) is None  # kept for review, not a consolidation


def test_a_contradiction_remember_reports_starts_no_scan_of_the_backlog(store, clock):
    """What remember found is kept as it is: the memories never compared (here 300, as after an
    import) wait for the next consolidation, so the worker is not held by them."""
    for n in range(300):
        store.remember(tenant="a", scope="proj", content=f"Backlog fact {n}: build {n} passed.", kind="fact")
    store.upkeep.schedule_consolidation(24, 500)
    old = store.remember(tenant="a", scope="proj", content="The release train leaves every Tuesday.", kind="fact")
    clock.advance(3600)
    new = store.remember(tenant="a", scope="proj", content="The release train leaves every Thursday.",
                         kind="fact")
    assert [c[0] for c in new.contradicts] == [old.id]
    assert [(o, n) for o, n, _ in store.review("a", ["proj"]).contradictions] == [(old.id, new.id)]
    settled(store)
    with store.backend.read("a") as tx:
        assert consolidation._state(tx, "a")["mark"] == 0  # nothing compared by the worker


def test_without_consolidation_a_contradicting_remember_starts_no_scan(store, clock):
    store.remember(tenant="a", scope="proj", content="The team standup is at 9:15 every weekday.",
                   kind="fact")
    clock.advance(3600)
    new = store.remember(tenant="a", scope="proj", content="The team standup is at 10:30 every weekday.",
                         kind="fact")
    assert new.contradicts
    settled(store)
    assert store.review("a", ["proj"]).contradictions == []


def numbered_facts() -> list[str]:
    """60 facts about 30 numbered subjects each: ports that follow the label, and chair counts that
    repeat across rooms and share digits with other labels ("Room 12 has 12 chairs")."""
    return ([f"Service {n} listens on port {9000 + n}." for n in range(1, 31)]
            + [f"Room {n} has {(8, 10, 12, 16)[n % 4]} chairs." for n in range(1, 31)])


@pytest.mark.asyncio
async def test_a_running_server_lists_a_reported_contradiction_for_review_before_any_consolidation(
        db_path, real_embedder, one_model):
    from mcp import Client

    from memvault.server.app import build_server
    from memvault.server.config import Config

    made = Store(str(db_path), real_embedder)
    try:
        consolidate(made)  # the last whole run is now: none is due for a day
        ran = last_run(made)
    finally:
        made.close()
    async with Client(build_server(Config(db=db_path))) as c:
        numbered = [await c.call_tool("remember", {"content": text, "kind": "fact"})
                    for text in numbered_facts()]
        old = await c.call_tool("remember", {"content": "The team standup is at 9:15 every weekday.",
                                             "kind": "fact"})
        new = await c.call_tool("remember", {"content": "The team standup is at 10:30 every weekday.",
                                             "kind": "fact"})
        review = (await c.read_resource("memory://review")).contents[0].text  # read at once
    assert [r.structured_content["contradicts"] for r in numbered] == [[]] * 60
    assert [x["id"] for x in new.structured_content["contradicts"]] == [old.structured_content["id"]]
    assert "## Contradicting pairs (1)" in review  # the standup pair, none of the numbered facts
    pair = re.search(r"^- older \[(\S+)\] .*\n  newer \[(\S+)\] ", review, re.MULTILINE)
    assert pair and old.structured_content["id"].startswith(pair.group(1))
    assert new.structured_content["id"].startswith(pair.group(2))
    reader = Store(str(db_path), None)
    try:
        assert last_run(reader) == ran  # a scan, not a consolidation
    finally:
        reader.close()


def test_a_servers_round_consolidates_when_the_last_run_is_older_than_the_interval(store, clock):
    store.upkeep.schedule_consolidation(24, 0)
    store.upkeep.run_due(retry=True)
    settled(store, until=lambda: last_run(store) is not None)
    first = last_run(store)
    assert first == str(clock())
    clock.advance(23 * 3600)
    store.upkeep.run_due(retry=True)
    settled(store)
    assert last_run(store) == first
    clock.advance(3600)
    store.upkeep.run_due(retry=True)
    settled(store, until=lambda: last_run(store) != first)
    assert last_run(store) == str(clock())


def test_episodes_continuing_each_other_compact_and_forget_cleanly(store, clock):
    # Three episodes of one conversation (minutes apart: each the next one's context), the last too
    # important to compact: it loses its compacted context; the others leave recall together.
    at = clock() - 40 * DAY_MS
    ids = [store.remember(tenant="a", scope="proj", content=text, kind="episode", importance=importance,
                          observed_at=format_ms(at + n * 60_000)).id
           for n, (text, importance) in enumerate([("Opened the incident channel.", 3),
                                                   ("Paged the database on-call.", 3),
                                                   ("Restored the primary from the replica.", 8)])]
    (done,) = consolidate(store).compacted
    assert set(done.sources) == set(ids[:2])
    assert maintenance.own(store).check() == []
    hits = store.recall(tenant="a", query="incident channel database on-call", scopes=["proj"]).hits
    assert ids[0] not in {h.memory.id for h in hits} and ids[1] not in {h.memory.id for h in hits}
    for memory_id in ids:
        store.forget(tenant="a", id=memory_id)
    assert store.upkeep.scrub() and maintenance.check(store) == []  # (PostgreSQL: scrubbed when asked)


@pytest.mark.parametrize("notes", [("registry timed out", "registry timed out"), ("disk full", "registry timed out")])
def test_a_procedure_failing_twice_in_a_row_waits_for_review_until_it_succeeds(store, notes):
    deploy = store.remember(tenant="t", scope="s", content="Deploy with make release", kind="procedure").id
    store.remember(tenant="t", scope="other", content="Deploy docs with make docs", kind="procedure")
    store.confirm(tenant="t", id=deploy, outcome="failure", note=notes[0])
    assert store.review("t", ["s"]).failing == []  # one failure is no pattern
    store.confirm(tenant="t", id=deploy, outcome="failure", note=notes[1])
    assert [m.id for m in store.review("t", ["s"]).failing] == [deploy]
    shown = review_document(store, Caller(tenant="t", scope="s"))  # its runs and failure modes, as recall shows them
    modes = ", ".join(f'"{n}"' for n in dict.fromkeys(reversed(notes)))
    assert (f"\n  runs: 2 runs, 0 succeeded, last {format_ms(store.clock())[:10]} failed (flagged: the last two "
            f"runs failed); failures: {modes}\n") in shown
    assert store.review("t", ["other"]).failing == [] and store.review("u", ["s"]).failing == []
    store.confirm(tenant="t", id=deploy, outcome="success")
    assert store.review("t", ["s"]).failing == []


def test_an_edited_digest_goes_with_a_forgotten_episode_and_forgetting_it_brings_the_episodes_back(store):
    gone = episode(store, "Argued with the landlord Quibbleton about the deposit.", 50)
    kept = episode(store, "Watered the office plants.", 50)
    (done,) = consolidate(store).compacted
    edited = store.supersede(tenant="a", id=done.digest_id, content=store.get(tenant="a", id=done.digest_id).content
                             + "\n(reviewed)").id
    outcome = store.forget(tenant="a", id=gone)
    assert sorted(outcome.forgotten_ids) == sorted([gone, done.digest_id, edited]) and outcome.restored_ids == [kept]
    assert not any("Quibbleton" in text for text in words_found(store, "Quibbleton landlord deposit"))
    # Forgetting an edited digest itself brings its episodes back.
    other = [episode(store, f"Filed the {n} expense report.", 60) for n in ("March", "April")]
    (again,) = [c for c in consolidate(store).compacted if set(c.sources) == set(other)]
    edited = store.supersede(tenant="a", id=again.digest_id, content="Expense reports filed (edited).").id
    assert sorted(store.forget(tenant="a", id=edited).restored_ids) == sorted(other)
    assert all(store.get(tenant="a", id=m).superseded_by is None for m in other)


def test_pairs_kept_while_a_scan_compares_survive_its_save(store, db, clock, monkeypatch):
    """Another process keeps a pair (``note``, as remember keeps one) while a scan is between reading the review state and
    saving it: the save merges, it does not write back what it read."""
    first, second = (store.remember(tenant="a", scope="proj", content=text, kind="fact").id
                     for text in ("The office plants are watered on Mondays.", "Lunch is ordered from Nadia's."))
    real, raced = consolidation._disagreeing, []

    def racing(tx, seq, memory, now):  # type: ignore[no-untyped-def]
        if not raced:  # another process, between the scan's read of the state and its save
            raced.append(seq)
            other = Store(db, FakeEmbedder())  # type: ignore[arg-type]
            try:
                consolidation.note(other, "a", [(first, second)])
            finally:
                other.close()
        return real(tx, seq, memory, now)

    monkeypatch.setattr(consolidation, "_disagreeing", racing)
    consolidation.scan(store, "a", store.clock(), consolidation.Report())
    with store.backend.read("a") as tx:
        state, pairs = consolidation._state(tx, "a"), tx.review_pairs("a")
    assert raced and (first, second) in pairs and state["mark"] > 0


FACTS = ("The billing service listens on port 8000.", "Cache entries expire after 30 minutes.",
         "Invoices are sent on the first Monday.", "The office plants are watered on Mondays.")


def facts(store: Store, clock, tenant: str = "a") -> list[str]:  # type: ignore[no-untyped-def]
    """The ids of ``FACTS`` remembered in turn by ``tenant`` (ids sort as written)."""
    out = []
    for text in FACTS:
        out.append(store.remember(tenant=tenant, scope="proj", content=text, kind="fact").id)
        clock.advance(60)
    return out


def kept(store: Store, tenant: str = "a") -> list[tuple[str, str]]:
    with store.backend.read(tenant) as tx:
        return tx.review_pairs(tenant)


@pytest.mark.parametrize("most", [1, 2, 3, 4])
def test_review_keeps_the_pairs_of_the_newest_newer_memories_up_to_its_limit(store, clock, monkeypatch, most):
    monkeypatch.setattr(consolidation, "PAIRS_KEPT", most)
    other = facts(store, clock, "b")
    consolidation.note(store, "b", [(other[0], other[1])])
    m = facts(store, clock)
    noted = [(m[0], m[1]), (m[0], m[2]), (m[0], m[3])]
    consolidation.note(store, "a", noted)
    assert kept(store) == noted[-most:]
    # one of the same newer memory: the greater older id is the newer pair; a pair older than every kept one stays out
    consolidation.note(store, "a", [(m[1], m[2])])
    consolidation.note(store, "a", [(m[0], m[1])] if most < 3 else [])
    assert kept(store) == sorted([(m[0], m[1]), (m[0], m[2]), (m[1], m[2]), (m[0], m[3])][-most:])
    assert [(o, n) for o, n, _ in store.review("a", ["proj"]).contradictions] == kept(store)
    assert kept(store, "b") == [(other[0], other[1])]


def test_note_decides_the_pairs_joining_a_chains_ends_before_its_write(store, clock, monkeypatch):
    m = facts(store, clock)
    consolidation.note(store, "a", [(m[0], m[1])])
    writing, joined = [False], []
    real_write, real_joined = store.backend.write, consolidation.joined_ends

    @contextmanager
    def write(tenant):  # type: ignore[no-untyped-def]
        writing[0] = True
        try:
            with real_write(tenant) as tx:
                yield tx
        finally:
            writing[0] = False

    monkeypatch.setattr(store.backend, "write", write)
    monkeypatch.setattr(consolidation, "joined_ends", lambda *args: joined.append(writing[0]) or real_joined(*args))
    consolidation.note(store, "a", [(m[1], m[2])])
    assert joined == [False] and set(kept(store)) >= {(m[0], m[1]), (m[1], m[2])}


@pytest.mark.parametrize("change", ["forget the newer", "supersede the older"])
def test_a_change_between_notes_read_and_its_write_is_read_again_in_the_write(store, db, clock, monkeypatch, change):
    m = facts(store, clock)
    consolidation.note(store, "a", [(m[0], m[1])])
    real = store.backend.write

    def racing(tenant):  # type: ignore[no-untyped-def]
        other = Store(db, FakeEmbedder())  # type: ignore[arg-type]
        try:  # another process, after note's read and before its write
            if change == "forget the newer":
                other.forget(tenant="a", id=m[2])
            else:
                other.supersede(tenant="a", id=m[1], content="The billing service listens on port 9000.")
        finally:
            other.close()
        return real(tenant)

    monkeypatch.setattr(store.backend, "write", racing)
    consolidation.note(store, "a", [(m[1], m[2])])
    assert kept(store) == [(m[0], m[1])]  # the pair of a memory no longer current is not kept


def test_a_database_keeping_the_pairs_in_its_review_setting_moves_them_to_rows(backend, db, clock):
    """A database of before (SQLite 18, PostgreSQL 18: the pairs in each tenant's review setting, JSON)
    is migrated: review, recall's outdated mark and the scan's mark stay as they were."""
    import json

    import raw

    from memvault.storage.postgres import schema as pg_schema
    from memvault.storage.sqlite import schema as sqlite_schema

    store = Store(db, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        ids = {tenant: facts(store, clock, tenant) for tenant in ("a", "b")}
        consolidation.scan(store, "a", store.clock(), consolidation.Report())
        with store.backend.read("a") as tx:
            state = consolidation._state(tx, "a")
    finally:
        store.close()
    pairs = {"a": [(ids["a"][0], ids["a"][1]), (ids["a"][2], ids["a"][3])], "b": [(ids["b"][1], ids["b"][0])]}
    raw.execute(db, "DROP TABLE review_pairs")
    for tenant, listed in pairs.items():
        saved = json.dumps({"mark": state["mark"] if tenant == "a" else 0, "pairs": listed, "pending": []})
        if backend == "sqlite":
            raw.execute(db, "INSERT OR REPLACE INTO settings(key, value) VALUES (?, ?)", f"review:{tenant}", saved)
        else:
            raw.execute(db, "INSERT INTO tenant_settings VALUES (?, 'review', ?) ON CONFLICT (tenant, key)"
                            " DO UPDATE SET value = excluded.value", tenant, saved)
    raw.rewind(db, sqlite_schema._V19_REVIEW_PAIRS, pg_schema._v_review_pairs)
    store = Store(db, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        for tenant, listed in pairs.items():
            assert kept(store, tenant) == sorted(listed)
            assert [(o, n) for o, n, _ in store.review(tenant, ["proj"]).contradictions] == sorted(listed)
            with store.backend.read(tenant) as tx:
                assert consolidation._state(tx, tenant) == {"mark": state["mark"] if tenant == "a" else 0,
                                                            "pending": []}
        hits = store.recall(tenant="a", query=FACTS[0], scopes=["proj"]).hits
        assert [h.outdated_by for h in hits if h.memory.id == ids["a"][0]] == [ids["a"][1]]
    finally:
        store.close()
