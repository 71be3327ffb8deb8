"""A forgotten session's words leave SQLite's turn index itself, not only its search: after the
forget and the scrub no byte of them is in the database, its -wal or -shm (FTS5 is given each turn's
indexed text to remove), whether the tenant has other sessions in several index segments or none,
and whether the turns leave the index one by one or by a rewrite of the whole index;
and a database whose index kept the words of a session forgotten before loses them on upgrade."""

from __future__ import annotations

import pytest
from conftest import file_bytes

import raw
from memvault.storage.records import NewTurn
from memvault.storage.sqlite import schema, sessions
from memvault.storage.store import Store

# Words the stemmer keeps as they are, sharing no first letters with the other turns' words.
MARKERS = ("qxvorpalzz", "jwombatkk", "yzeppelinvv")
GONE_TEXT = "we talked about " + " and ".join(MARKERS)


def markers_in(db: str) -> list[str]:
    data = file_bytes(db)  # type: ignore[arg-type]
    return [m for m in MARKERS if m.encode() in data]


@pytest.mark.parametrize("share", [0, 10 ** 12], ids=["one by one", "whole index rewritten"])
@pytest.mark.parametrize("others", [0, 20])
def test_a_forgotten_sessions_words_leave_the_turn_index_bytes(tmp_path, monkeypatch, others: int, share: int):
    monkeypatch.setattr(sessions, "WHOLE_REWRITE_SHARE", share)
    db = str(tmp_path / "m.db")
    store = Store(db, None)
    try:
        for k in range(others):  # one append each: several segments, merged along the way
            store.episodes.append(tenant="a", scope="proj", session_id="keep", turns=[
                NewTurn("user", f"ordinary kafka consumer lag note {k} {i}") for i in range(50)])
            if k == others // 2:
                store.episodes.append(tenant="a", scope="proj", session_id="gone", turns=[
                    NewTurn("user", GONE_TEXT), NewTurn("assistant", f"noted: {MARKERS[0]}")])
        if not others:  # the tenant's only session
            store.episodes.append(tenant="a", scope="proj", session_id="gone", turns=[
                NewTurn("user", GONE_TEXT), NewTurn("assistant", f"noted: {MARKERS[0]}")])
        store.episodes.append(tenant="b", scope="proj", session_id="gone", turns=[
            NewTurn("user", "bravo's own kafka consumer")])
        assert len(store.episodes.search(tenant="a", query=MARKERS[1], scopes=None)) == 1
        assert markers_in(db) == list(MARKERS)
        assert store.episodes.forget(tenant="a", session_id="gone").turns_deleted == 2
        assert store.upkeep.scrub()
        assert store.episodes.search(tenant="a", query=" ".join(MARKERS), scopes=None) == []
        # The owner's other sessions, and the other tenant's session of the same id, are still found.
        kept = store.episodes.search(tenant="a", query="kafka consumer lag", scopes=None, limit=50)
        assert len(kept) == min(others * 50, 50) and {h.turn.session_id for h in kept} <= {"keep"}
        other = store.episodes.search(tenant="b", query="kafka", scopes=None)
        assert [h.turn.session_id for h in other] == ["gone"]
    finally:
        store.close()
    assert markers_in(db) == []


def test_an_index_that_kept_a_forgotten_sessions_words_loses_them_on_upgrade(tmp_path):
    db = str(tmp_path / "m.db")
    store = Store(db, None)
    store.episodes.append(tenant="a", scope="proj", session_id="keep", turns=[
        NewTurn("user", f"harbour crane schedule {i}") for i in range(20)])
    store.close()
    # The index as schema 14 made it (contentless_delete), a session forgotten by its rowid alone.
    ((number,),) = raw.execute(db, "SELECT number FROM turn_index_tenants")
    table, gone = schema.turn_index_table(number), (7 << 32) | 1
    raw.execute(db, f"DROP TABLE {table}")
    raw.execute(db, f"CREATE VIRTUAL TABLE {table} USING fts5(text, content='', contentless_delete=1,"
                    f" tokenize='{schema.KEYWORD_TOKENIZER}')")
    raw.execute(db, f"INSERT INTO {table}(rowid, text) SELECT (session_seq << 32) | seq, text FROM turns")
    raw.execute(db, f"INSERT INTO {table}(rowid, text) VALUES (?, ?)", gone, GONE_TEXT)
    raw.execute(db, f"DELETE FROM {table} WHERE rowid = ?", gone)
    raw.execute(db, f"PRAGMA user_version = {schema.MIGRATIONS.index(schema._v15_turn_index_deletes)}")
    assert markers_in(db) == list(MARKERS)
    store = Store(db, None)
    try:
        assert len(store.episodes.search(tenant="a", query="harbour crane", scopes=None, limit=50)) == 20
        assert store.upkeep.scrub()
    finally:
        store.close()
    assert markers_in(db) == []


def test_doctor_names_a_lost_turn_index_and_repair_rebuilds_it(tmp_path, capsys, one_model):
    """A turn index dropped or emptied is said by doctor, and ``doctor --repair`` makes it anew from the turns."""
    import json

    from memvault.server import cli

    db = tmp_path / "m.db"
    store = Store(db, None)
    try:
        for n in range(2):
            store.episodes.append(tenant="default", scope="default", session_id=f"s-{n}",
                                  turns=[NewTurn(role="user", text=f"the heron migration plan {n}")])
    finally:
        store.close()
    (number,), = raw.execute(db, "SELECT number FROM turn_index_tenants")
    raw.execute(db, f"DROP TABLE {schema.turn_index_table(number)}")
    assert cli.main(["doctor", "--db", str(db)]) == 1
    assert "the turn index of tenant 'default' is missing" in capsys.readouterr().out
    assert cli.main(["doctor", "--repair", "--db", str(db)]) == 0
    capsys.readouterr()
    assert cli.main(["recall", "heron", "--turns", "--json", "--db", str(db)]) == 0
    assert len(json.loads(capsys.readouterr().out)["turns"]) == 2
