"""``memvault export`` and ``memvault import``: the export format read back into any
backend, minimal lines with remember's defaults, idempotence, bad lines reported with
their field while good ones land, paging, batches that survive Ctrl-C."""

from __future__ import annotations

import io
import json
import sys
import threading

import pytest
from fakes import Clock, FakeEmbedder

from memvault.server import cli
from memvault.storage import transfer
from memvault.storage.store import Store
from memvault.storage.timefmt import format_ms
from memvault.storage.transfer import import_lines

pytestmark = pytest.mark.contract  # storage tests run on every backend; the CLI's on SQLite files

UUID = "0190f3a2-7b1c-7def-8abc-0123456789ab"
AWS_KEY = "AKIAQYLPMN5HFIQR7BZX"  # shaped like a real key (test_privacy.TOKENS)
HF_TOKEN = "hf_kRtQwLmVpXcZbJdFgYsUaEiKoNhGbTyPlMnA"


def export(store: Store, tenant: str = "t") -> list[str]:
    return list(transfer.export_lines(store, tenant))


def fill(store: Store, clock: Clock) -> None:
    """Memories of every shape: kinds, tags, sources, times, a confirmation, a
    supersession with its reason, an expiry to come, and a forgotten memory."""
    store.remember(tenant="t", scope="s", content="The staging DB is db-stg-03", tags=["ops", "DB"],
                   source="runbook", importance=8, observed_at="2025-03-01T10:00:00Z")
    clock.advance(60)
    store.remember(tenant="t", scope="s", content="Prefer dark mode", kind="preference")
    store.remember(tenant="t", scope="s", content="Prefer dark mode")  # one confirmation
    old = store.remember(tenant="t", scope="other", content="Deploys go out on Tuesdays", kind="decision")
    clock.advance(60)
    newer = store.supersede(tenant="t", id=old.id, content="Deploys go out on Thursdays", reason="team moved")
    store.supersede(tenant="t", id=newer.id, content="Deploys go out on Thursdays", importance=9)  # same text
    store.remember(tenant="t", scope="s", content="Asked about the migration", kind="episode",
                   expires_at="2099-01-01T00:00:00Z")
    gone = store.remember(tenant="t", scope="s", content="A memory to forget")
    store.forget(tenant="t", id=gone.id)
    store.remember(tenant="other", scope="s", content="Another tenant's memory")


@pytest.fixture
def target(new_db, clock: Clock):
    s = Store(new_db(), FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    yield s
    s.close()


def test_a_round_trip_gives_an_equal_export(store, target, clock):
    fill(store, clock)
    lines = export(store)
    assert len(lines) == 6  # the forgotten memory and the other tenant's are left out
    clock.advance(3600)
    report = import_lines(target, lines, tenant="t", scope="default")
    assert report == transfer.ImportReport(read=6, imported=6, skipped_existing=0, failed=(), vectors_pending=0)
    assert export(target) == lines
    rows = {r["content"]: r for r in map(json.loads, export(target))}
    assert rows["Prefer dark mode"]["confirmations"] == 1
    assert rows["Deploys go out on Tuesdays"]["supersede_reason"] == "team moved"
    chain = [m.id for m in target.history(tenant="t", id=rows["Deploys go out on Tuesdays"]["id"])]
    assert [m.id for m in target.history(tenant="t", id=chain[-1])] == chain and len(chain) == 3
    assert rows["Deploys go out on Tuesdays"]["superseded_by"] == chain[1]
    assert [h.memory.id for h in target.recall(tenant="t", query="staging database", scopes=["s"]).hits][:1] == [
        rows["The staging DB is db-stg-03"]["id"]
    ]


def test_sqlite_to_each_backend_and_back_to_sqlite_gives_equal_exports(tmp_path, new_db, clock):
    stores = [Store(where, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
              for where in (tmp_path / "first.db", new_db(), tmp_path / "last.db")]
    try:
        fill(stores[0], clock)
        lines = export(stores[0])
        for store in stores[1:]:
            assert import_lines(store, lines, tenant="t", scope="default").imported == len(lines)
            assert export(store) == lines
    finally:
        for store in stores:
            store.close()


def test_importing_twice_adds_nothing(store, target, clock):
    fill(store, clock)
    lines = export(store) + [json.dumps({"content": "A note from elsewhere"})] * 2
    first = import_lines(target, lines, tenant="t", scope="s")
    assert (first.imported, first.skipped_existing) == (7, 1)  # the repeated note is a duplicate
    before = export(target)
    again = import_lines(target, lines, tenant="t", scope="s")
    assert (again.read, again.imported, again.skipped_existing, again.failed) == (8, 0, 8, ())
    assert export(target) == before  # nothing added, no confirmation counted


def test_minimal_lines_get_the_defaults_of_remember(target, new_db, clock):
    report = import_lines(target, [json.dumps({"content": "  Léa owns the billing exports  "})],
                          tenant="t", scope="team")
    assert report.imported == 1
    imported = json.loads(export(target)[0])
    reference = Store(new_db(), FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        made = reference.remember(tenant="t", scope="team", content="  Léa owns the billing exports  ")
        remembered = json.loads(export(reference)[0])
    finally:
        reference.close()
    assert imported["id"] != made.id
    assert {k: v for k, v in imported.items() if k != "id"} == {k: v for k, v in remembered.items() if k != "id"}
    assert imported["kind"] == "fact" and imported["importance"] == 5 and imported["observed_at"] == format_ms(clock.now)


BAD_LINES = [
    ({"kind": "fact"}, "content"),
    ({"content": "   "}, "content"),
    ({"content": "x", "kind": "rumour"}, "kind"),
    ({"content": f"the deploy key is {AWS_KEY}"}, "content"),
    ({"content": "x", "tags": ["ok", HF_TOKEN]}, "tags[1]"),
    ({"content": "x", "tenant": "someone-else"}, "tenant"),
    ({"content": "x", "id": "not-a-uuid"}, "id"),
    ({"content": "x", "supersedes": 42}, "supersedes"),
    ({"content": "x", "observed_at": "last tuesday"}, "observed_at"),
    ({"content": "x", "expires_at": "2001-01-01T00:00:00Z"}, "expires_at"),
    ({"content": "x", "tags": "ops"}, "tags"),
    ({"content": "x", "importance": 11}, "importance"),
    ({"content": "x", "importance": "9.5"}, "importance"),
    ({"content": "x", "importance": "nine"}, "importance"),
    ({"content": "x", "confirmations": "1.5"}, "confirmations"),
    ({"content": "x", "confirmations": -1}, "confirmations"),
    ({"content": "x", "colour": "red"}, "colour"),  # the unknown field itself (was "line")
    ('{"content": "unterminated', "line"),
    ('["content", "in a list"]', "line"),
]


@pytest.mark.parametrize(("bad", "field"), BAD_LINES)
def test_a_bad_line_fails_with_its_field_and_the_good_ones_land(target, bad, field):
    text = bad if isinstance(bad, str) else json.dumps({**bad, "source": "MARKER-bad-line"})
    lines = [json.dumps({"content": "first good line"}), text, "", json.dumps({"content": "second good line"})]
    report = import_lines(target, lines, tenant="t", scope="s", batch=2)
    assert report.imported == 2 and report.read == 3
    assert [(e.line, e.field) for e in report.failed] == [(2, field)]
    assert "MARKER" not in "".join(export(target))
    assert [json.loads(line)["content"] for line in export(target)] == ["first good line", "second good line"]


def test_a_value_of_the_wrong_type_is_shown_in_the_report(target):
    report = import_lines(target, [json.dumps({"content": "x", "importance": "9.5"})], tenant="t", scope="s")
    assert [(e.line, e.field, e.message) for e in report.failed] == [(1, "importance", "must be an integer from 1 to 10; got '9.5'")]


@pytest.mark.parametrize("line", [
    '{"content": "first value", "content": "second value"}',
    '{"content": "a note", "tags": ["x"], "tags": ["y"]}',
    '{"content": "ran it", "runs": [{"at": "2026-12-01T10:00:00Z", "outcome": "success", "outcome": "failure"}]}',
])
def test_a_line_giving_a_key_twice_is_refused_naming_it_and_nothing_of_it_lands(target, line):
    """RFC 8259 §4 leaves which of two keys counts undefined: an import took the last (trial 51), where
    the tools over stdio and HTTP refuse the message."""
    report = import_lines(target, [line, json.dumps({"content": "a fine line"})], tenant="t", scope="s")
    [failed] = report.failed
    assert (failed.line, failed.field) == (1, "line") and "more than once in one object" in failed.message
    assert [m.content for m in target.list_memories(tenant="t", scopes=["s"])] == ["a fine line"]


@pytest.mark.sqlite_only
@pytest.mark.usefixtures("one_model")
@pytest.mark.parametrize("given", [9, 9.0, "9", " 9 ", "9.0", "9.5", 9.5, "nine", "", True, "true", "[9]", [9], "11",
                                   '"9"', "0x9", "1e1", "10", {"n": 9}])
def test_import_reads_an_importance_as_the_tools_do(db_path, given):
    """`memvault import` refused "importance": "9", which the tools accept: one coercion rule
    (docs/tools.md); a refused value names its line and field, and nothing of its line lands."""
    import anyio
    from mcp import Client

    from memvault.server.app import build_server
    from memvault.server.config import Config

    async def by_tool() -> bool:
        async with Client(build_server(Config(db=db_path, tenant="t", scope="s"))) as c:
            return not (await c.call_tool("remember", {"content": "written by the tool", "importance": given})).is_error

    tool_wrote = anyio.run(by_tool)
    store = Store(db_path)
    try:
        lines = [json.dumps({"content": "written by import", "importance": given}), json.dumps({"content": "next"})]
        report = import_lines(store, lines, tenant="t", scope="s")
        stored = {m["content"]: m["importance"] for m in map(json.loads, export(store))}
    finally:
        store.close()
    assert ("written by import" in stored) == tool_wrote
    assert stored.get("written by import") == stored.get("written by the tool") and "next" in stored
    assert [(e.line, e.field) for e in report.failed] == ([] if tool_wrote else [(1, "importance")])


OTHER_UUID = "0190f3a2-7b1c-7def-8abc-0123456789ac"


@pytest.mark.parametrize("batch", [1, 100])
def test_an_id_of_another_tenant_is_answered_as_an_unknown_one(store, clock, batch):
    """Adversarial pass 57 F6: a line with another tenant's memory id was refused "a memory with id ... exists
    already", while a made-up id was imported. Both are imported, each with what names it (a supersession,
    runs) following; the other tenant's id, global, goes to a new id; the other tenant's memory is untouched."""
    store.remember(tenant="other", scope="s", content="theirs")
    taken = json.loads(export(store, "other")[0])["id"]
    reports, contents = [], []
    for first in (taken, OTHER_UUID):
        tenant = "t" if first == taken else "u"
        lines = [json.dumps({"content": f"first of {tenant}", "id": first, "kind": "procedure", "runs": [
                     {"at": "2024-05-01T10:00:00Z", "outcome": "failure"}]}),
                 json.dumps({"content": f"second of {tenant}", "supersedes": first, "kind": "procedure"})]
        report = import_lines(store, lines, tenant=tenant, scope="s", batch=batch)
        reports.append((report.read, report.imported, report.skipped_existing, report.failed))
        rows = [json.loads(line) for line in export(store, tenant)]
        contents.append(sorted((r["content"], r.get("superseded_by") is not None, len(r.get("runs", [])))
                               for r in rows))
        assert taken not in {r["id"] for r in rows} or tenant == "u"
    assert reports[0] == reports[1] == (2, 2, 0, ())
    assert [[(c.replace(" of t", "").replace(" of u", ""), *rest) for c, *rest in one] for one in contents] == [
        [("first", True, 1), ("second", False, 0)]] * 2
    assert [json.loads(line)["content"] for line in export(store, "other")] == ["theirs"]
    again = import_lines(store, [json.dumps({"content": "first of t", "id": taken, "kind": "procedure"})],
                         tenant="t", scope="s")
    assert (again.imported, again.skipped_existing, again.failed) == (0, 1, ())  # a rerun adds nothing


def test_export_reads_page_by_page(store, monkeypatch):
    for i in range(5):
        store.remember(tenant="t", scope="s", content=f"memory number {i}")
    reads = []
    original = store.backend.read

    def counting(tenant):
        reads.append(tenant)
        return original(tenant)

    monkeypatch.setattr(store.backend, "read", counting)
    lines = list(transfer.export_lines(store, "t", page=2))
    assert [json.loads(line)["content"] for line in lines] == [f"memory number {i}" for i in range(5)]
    assert reads == ["t", "t", "t", "t"]  # three pages of memories, then the sessions (none)


def test_without_a_model_memories_are_imported_with_vectors_pending_and_the_report_says_so(new_db, clock):
    keyword_only = Store(new_db(), None, clock=clock)
    try:
        report = import_lines(keyword_only, [json.dumps({"content": f"note {i}"}) for i in range(3)],
                              tenant="t", scope="s")
        assert (report.imported, report.vectors_pending) == (3, 3)
        assert "no embedding model" in (report.degraded or "")
        assert keyword_only.get(tenant="t", id=json.loads(export(keyword_only)[0])["id"]).vector_pending
    finally:
        keyword_only.close()


def test_an_interrupted_import_keeps_whole_batches_and_a_rerun_finishes_it(target):
    lines = [json.dumps({"content": f"line number {i}"}) for i in range(10)]

    def stop(done: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        import_lines(target, lines, tenant="t", scope="s", batch=4, progress=stop)
    assert len(export(target)) == 4
    report = import_lines(target, lines, tenant="t", scope="s", batch=4)
    assert (report.imported, report.skipped_existing) == (6, 4)
    assert [json.loads(line)["content"] for line in export(target)] == [f"line number {i}" for i in range(10)]


def test_a_resumed_import_still_links_a_history_split_across_runs(store, target, clock):
    first = store.remember(tenant="t", scope="s", content="The office is in Lyon")
    store.supersede(tenant="t", id=first.id, content="The office is in Paris", reason="moved in May")
    lines = export(store)

    def stop(done: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        import_lines(target, lines, tenant="t", scope="s", batch=1, progress=stop)
    assert target.get(tenant="t", id=first.id).superseded_by is None  # stored current until its successor comes
    report = import_lines(target, lines, tenant="t", scope="s", batch=1)
    assert (report.imported, report.skipped_existing) == (1, 1)
    assert export(target) == lines


def test_a_successor_whose_predecessor_is_missing_fails(target):
    line = json.dumps({"content": "The office is in Paris", "supersedes": UUID})
    report = import_lines(target, [line], tenant="t", scope="s")
    assert [(e.line, e.field) for e in report.failed] == [(1, "supersedes")] and export(target) == []


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.sqlite_only
def test_cli_export_then_import_moves_memories_and_reports_failures(store, clock, tmp_path, capsys):
    fill(store, clock)
    store.close()
    source, dump, target = tmp_path / "memvault.db", tmp_path / "m.jsonl", tmp_path / "new.db"
    assert run(capsys, "export", "--db", str(source), "--tenant", "t", "-o", str(dump))[0] == 0
    code, out, err = run(capsys, "import", "--db", str(target), "--tenant", "t", str(dump))
    assert code == 0 and out == ""
    assert "imported 6 of 6 memory lines (blank lines skipped): 0 already there" in err and "failed" not in err
    with dump.open("a") as fh:
        fh.write(json.dumps({"content": "x", "kind": "rumour"}) + "\n")
    code, out, err = run(capsys, "import", "--db", str(target), "--tenant", "t", str(dump), "--json")
    assert code == 1 and "line 7: kind: 'rumour' is not one of" in err
    assert "imported 0 of 7 memory lines (blank lines skipped): 6 already there" in err
    assert "1 line failed (memory or session lines, named above)" in err
    report = json.loads(out)
    assert report["skipped_existing"] == 6 and report["failed"][0]["line"] == 7
    assert run(capsys, "export", "--db", str(target), "--tenant", "t")[1].splitlines() == dump.read_text().splitlines()[:6]


def test_cli_import_reads_stdin_with_a_dash(tmp_path, capsys, monkeypatch):
    data = json.dumps({"content": "from a pipe", "tags": ["piped"]}).encode() + b"\n\xff not utf-8\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    db = tmp_path / "piped.db"
    code, out, err = run(capsys, "import", "--db", str(db), "--scope", "inbox", "-", "--json")
    report = json.loads(out)
    assert code == 1 and report["imported"] == 1 and report["failed"][0]["line"] == 2
    code, out, _ = run(capsys, "list", "--db", str(db), "--scope", "inbox", "--json")
    assert [m["content"] for m in json.loads(out)["memories"]] == ["from a pipe"]



def test_history_whose_newest_version_is_gone_stays_history_after_export_and_import(store, target, clock):
    # A: v1 -> v2, and v2 forgotten: v1 is history without a current version.
    a1 = store.remember(tenant="t", scope="s", content="The build uses make").id
    a2 = store.supersede(tenant="t", id=a1, content="The build uses ninja", reason="switched").id
    store.forget(tenant="t", id=a2)
    # B: v1 -> v2 that expires; then v1's text stored again as a new current memory.
    b1 = store.remember(tenant="t", scope="s", content="Standup is at 9:15").id
    store.supersede(tenant="t", id=b1, content="Standup is at 9:30 this week",
                    expires_at=format_ms(clock() + 20_000))
    clock.advance(30)
    b3 = store.remember(tenant="t", scope="s", content="Standup is at 9:15").id
    # C: v1 -> v2 -> v3 with the middle version forgotten: v1 stays v3's history.
    c1 = store.remember(tenant="t", scope="s", content="Deploy window is Monday").id
    c2 = store.supersede(tenant="t", id=c1, content="Deploy window is Tuesday").id
    c3 = store.supersede(tenant="t", id=c2, content="Deploy window is Wednesday").id
    store.forget(tenant="t", id=c2)
    left_out: list[str] = []
    lines = list(transfer.export_lines(store, "t", left_out=left_out))
    assert sorted(left_out) == sorted([a1, b1])
    report = import_lines(target, lines, tenant="t", scope="s")
    assert (report.imported, report.failed) == (3, ())
    current = {m.id for m in target.list_memories(tenant="t", scopes=["s"])}
    assert current == {b3, c3} == {m.id for m in store.list_memories(tenant="t", scopes=["s"])}
    assert target.get(tenant="t", id=c1).superseded_by == c3
    assert target.get(tenant="t", id=c3).supersedes == c1


def test_the_next_batch_is_embedded_while_one_is_written(new_db, clock):
    """The import embeds a batch while the one before is written, so it runs at about
    the model's rate: batch 1's write is reported only once batch 2's embedding began."""
    started: list[int] = []
    second_started = threading.Event()

    class Recording(FakeEmbedder):
        def embed(self, texts: list[str]):  # type: ignore[no-untyped-def]
            started.append(len(texts))
            if len(started) == 2:
                second_started.set()
            return super().embed(texts)

    def written(line: int) -> None:
        if line == 4:  # the first batch is in: the second must be embedding (or done) by now
            assert second_started.wait(10), "the second batch was not embedded while the first was written"

    store = Store(new_db(), Recording(), clock=clock)  # type: ignore[arg-type]
    lines = [json.dumps({"content": f"line number {i}"}) for i in range(10)]
    report = import_lines(store, lines, tenant="t", scope="s", batch=4, progress=written)
    assert (report.imported, started) == (10, [4, 4, 2])
    assert [json.loads(line)["content"] for line in export(store)] == [f"line number {i}" for i in range(10)]
    store.close()


def test_a_batch_is_written_in_short_transactions_that_other_writers_wait_for_one_at_a_time(target, monkeypatch):
    """An import's batch is embedded together but written ``WRITE_BATCH`` lines per
    transaction, so another writer waits for one of them, not for the whole batch."""
    writes: list[int] = []
    real_write = transfer._Import._write

    def counted(self, rows, now):  # type: ignore[no-untyped-def]
        writes.append(len(rows))
        return real_write(self, rows, now)

    monkeypatch.setattr(transfer._Import, "_write", counted)
    lines = [json.dumps({"content": f"note {i} about the harbour"}) for i in range(40)]
    report = import_lines(target, lines, tenant="t", scope="s")
    assert report.imported == 40
    assert writes == [transfer.WRITE_BATCH, transfer.WRITE_BATCH, 40 - 2 * transfer.WRITE_BATCH]
    assert target.count_memories(tenant="t", scopes=["s"]) == 40


def test_failed_lines_are_reported_in_the_order_of_the_file(target):
    """Lines fail at different steps (read, the credential check, the write): the report lists them
    by line whatever step refused each (the trial saw line 6 after line 8)."""
    bad = [text if isinstance(text, str) else json.dumps(text) for text, _ in BAD_LINES]
    lines = [json.dumps({"content": f"good line {n}"}) if n % 2 else bad[n // 2 % len(bad)]
             for n in range(2 * len(bad))]
    report = import_lines(target, lines, tenant="t", scope="s", batch=3)
    numbers = [e.line for e in report.failed]
    assert len(numbers) == len(bad) and numbers == sorted(numbers)
