"""Sessions in export and import (issue 26): turns in order with their seqs and roles, an ended
session linked to its imported digest, a second import adds nothing, bad lines named; both backends."""

from __future__ import annotations

import json

import pytest
from fakes import FakeEmbedder

from memvault.storage import transfer
from memvault.storage.limits import TURNS_PER_CALL_MAX
from memvault.storage.records import NewTurn
from memvault.storage.store import Store

pytestmark = pytest.mark.contract


def test_sessions_go_through_export_and_import_whole_and_a_second_import_adds_nothing(store, new_db, clock):
    long = [NewTurn("user" if n % 2 else "assistant", f"turn {n} about the parser", tool="Bash" if n == 7 else None)
            for n in range(1, TURNS_PER_CALL_MAX + 6)]  # over one line's worth
    for start in (0, TURNS_PER_CALL_MAX):
        store.episodes.append(tenant="a", scope="proj", session_id="long-1", client="claude-code",
                              turns=long[start:start + TURNS_PER_CALL_MAX])
    ended = store.episodes.end(tenant="a", session_id="long-1")
    store.episodes.append(tenant="a", scope="ops", session_id="open-2", turns=[NewTurn("user", "still going")])
    store.remember(tenant="a", scope="proj", content="The parser rewrite landed.")
    lines = list(transfer.export_lines(store, "a"))
    session_lines = [json.loads(line) for line in lines if "session_id" in json.loads(line)]
    assert [(s["session_id"], len(s["turns"])) for s in session_lines] == [
        ("long-1", TURNS_PER_CALL_MAX), ("long-1", 5), ("open-2", 1)]
    copy = Store(new_db(), FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        report = transfer.import_lines(copy, lines, tenant="a", scope="default")
        assert (report.sessions, report.turns_added, report.turns_existing, report.failed) == (3, len(long) + 1, 0, ())
        assert report.imported == 2  # the memory and the session's digest
        got = copy.episodes.session(tenant="a", session_id="long-1")
        assert (got.scope, got.client, got.turns, got.ended_at, got.digest_id) == (
            "proj", "claude-code", len(long), ended.ended_at, ended.digest_id)
        turns = copy.episodes.turns(tenant="a", session_id="long-1")
        assert [(t.seq, t.role, t.text, t.tool) for t in turns] == [
            (n, t.role, t.text, t.tool) for n, t in enumerate(long, start=1)]
        assert copy.episodes.session(tenant="a", session_id="open-2").ended_at is None
        again = transfer.import_lines(copy, lines, tenant="a", scope="default")
        assert (again.turns_added, again.turns_existing, again.imported) == (0, len(long) + 1, 0)
        assert copy.episodes.session(tenant="a", session_id="long-1").turns == len(long)
    finally:
        copy.close()


def test_a_bad_session_line_is_named_and_writes_nothing_of_itself(store):
    good = {"session_id": "s-ok", "scope": "proj", "turns": [{"seq": 1, "role": "user", "text": "hi"}]}
    bad = [
        ({"session_id": "s-bad", "turns": [{"role": "robot", "text": "x"}]}, "turns[0].role"),
        ({"session_id": "s-bad", "turns": "nope"}, "turns"),
        ({"session_id": "has spaces!", "turns": []}, "session_id"),
        ({"session_id": "..", "turns": []}, "session_id"),  # a folder in a URL's path
        ({"session_id": ".", "turns": []}, "session_id"),
        ({"session_id": "s-bad", "turns": [{"role": "user", "text": "x", "at": "yesterday-ish"}]}, "turns[0].at"),
        ({"session_id": "s-bad", "turns": [], "ended_at": "2026-13-40"}, "ended_at"),
        ({"session_id": "s-bad", "turns": [{"role": "user", "text": "x", "redacted": "password"}]},
         "turns[0].redacted"),
        ({"session_id": "s-bad", "turns": [{"role": "user", "text": "x", "redacted": ["k"] * 33}]},
         "turns[0].redacted"),
        ({"session_id": "s-bad", "turns": [{"role": "user", "text": "x", "redacted": ["ok", 7]}]},
         "turns[0].redacted[1]"),
    ]
    lines = [json.dumps(good)] + [json.dumps(line) for line, _ in bad]
    report = transfer.import_lines(store, lines, tenant="a", scope="default")
    assert [(e.line, e.field) for e in report.failed] == [(n, field) for n, (_, field) in enumerate(bad, start=2)]
    assert [s.id for s in store.episodes.sessions(tenant="a")] == ["s-ok"]


def test_an_imported_turn_keeps_the_kinds_its_export_says_were_redacted(store, new_db, clock):
    store.episodes.append(tenant="a", scope="proj", session_id="s-1", turns=[
        NewTurn("user", "the db is postgres://admin:Xk29slQpzR7@db:5432/app"), NewTurn("user", "plain words"),
        NewTurn("user", "keep this <private>but not this</private> part")])
    before = [t.redacted for t in store.episodes.turns(tenant="a", session_id="s-1")]
    assert before[0] and before[1] == () and before[2] == ("private",)
    lines = list(transfer.export_lines(store, "a"))
    copy = Store(new_db(), FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        transfer.import_lines(copy, lines, tenant="a", scope="default")
        turns = copy.episodes.turns(tenant="a", session_id="s-1")
        assert [t.redacted for t in turns] == before and "Xk29slQpzR7" not in turns[0].text
        claim = {"session_id": "s-claim", "turns": [{"role": "user", "text": "hello, nothing secret [API key]",
                                                     "redacted": ["GitHub token", "private", "API key", "made up"]}]}
        transfer.import_lines(copy, [json.dumps(claim)], tenant="a", scope="default")
        claimed = copy.episodes.turns(tenant="a", session_id="s-claim")[0]
        assert claimed.redacted == ("API key", "private")  # what its text shows, and a span removed (no marker)
    finally:
        copy.close()
