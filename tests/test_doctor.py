"""``memvault doctor`` finds each kind of damage, and ``--repair`` mends the derived indexes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import server_env
from fakes import FakeEmbedder

from memvault.storage import maintenance
from memvault.storage.sqlite.schema import VECTOR_TABLE
from memvault.storage.store import Store
import sqlite_raw


@pytest.fixture
def doctor(cli_here):  # type: ignore[no-untyped-def]
    """``doctor(db, *flags)``: ``memvault doctor`` on ``db`` (conftest's ``cli_here``: what it finds and mends, not
    how a process starts)."""
    return lambda db, *flags: cli_here(["doctor", *flags], server_env(db))


@pytest.fixture
def filled(db_path):
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    ids = [store.remember(tenant="t", scope="s", content=f"fact number {i} about the staging cluster").id
           for i in range(5)]
    yield store, ids
    store.close()


DAMAGE = {
    "fts": "INSERT INTO memories_fts_1(memories_fts_1, rowid, content, context) "  # tenant t's index
           "SELECT 'delete', seq, content, NULL FROM memories WHERE seq = 1",
    "vector": f"DELETE FROM {VECTOR_TABLE} WHERE rowid = 2",
    "link": "UPDATE memories SET superseded_by = (SELECT id FROM memories WHERE seq = 4) WHERE seq = 3",
    "tombstone": "UPDATE memories SET forgotten_at = 1, content = NULL, content_hash = NULL WHERE seq = 5",
    "tombstone-source": "UPDATE memories SET forgotten_at = 1, content = NULL, content_hash = NULL,"
                        " source = 'kept' WHERE seq = 5",
}
FOUND = {
    "fts": "FTS5: 1 memories of tenant 't' lack an entry, 0 entries have no memory",
    "vector": "vectors: 1 memories marked embedded have none, 0 vectors belong to no live memory",
    "link": "1 supersession links are one-sided",
    "tombstone": "vectors: 0 memories marked embedded have none, 1 vectors belong to no live memory",
    "tombstone-source": "1 forgotten memories still hold content, source or tags",
}


def test_check_reports_memories_without_vectors(filled):
    store, ids = filled
    with sqlite_raw.writing(store) as conn:
        conn.execute(f"DELETE FROM {VECTOR_TABLE} WHERE rowid IN (1, 2)")
        conn.execute("UPDATE memories SET vector_pending = 1 WHERE seq IN (1, 2)")
    assert any("2 memories have no vector yet" in p for p in maintenance.check(store))


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_check_reports_each_kind_of_damage(filled, damage):
    store, _ = filled
    assert maintenance.check(store) == []
    with sqlite_raw.writing(store) as conn:
        conn.execute(DAMAGE[damage])
    assert FOUND[damage] in maintenance.check(store)


def test_doctor_exit_code_and_repair(filled, db_path, doctor):
    store, _ = filled
    with sqlite_raw.writing(store) as conn:
        conn.execute(DAMAGE["fts"])
        conn.execute(DAMAGE["vector"])
    store.close()
    broken = doctor(db_path, "--json")
    assert broken.returncode == 1 and json.loads(broken.stdout)["ok"] is False
    # The fake vectors came from another model: --repair rebuilds them with the real one.
    repaired = doctor(db_path, "--repair", "--json")
    assert repaired.returncode == 0, repaired.stderr
    report = json.loads(repaired.stdout)  # one document
    assert report["ok"] is True and report["current"] == 5
    assert report["repaired"] == {"reindexed": 5, "scrub_pending": False, "made_private": []}
    human = doctor(db_path, "--repair")
    assert human.returncode == 0 and human.stdout.splitlines() == [
        "repaired: keyword index rebuilt, 5 vectors made, scrub of forgotten content none pending", "ok: no problems found"
    ]


@pytest.mark.parametrize(("wal", "shm"), [(0o644, 0o644), (0o640, 0o604)])
def test_doctor_flags_readable_wal_and_shm_files_and_repair_makes_them_private(filled, db_path, wal, shm, doctor):
    store, _ = filled  # open: its -wal and -shm files exist, as beside a running server
    side = {Path(f"{db_path}-wal"): wal, Path(f"{db_path}-shm"): shm}
    for path, mode in side.items():
        path.chmod(mode)
    found = doctor(db_path, "--json")
    problems = json.loads(found.stdout)["problems"]
    assert found.returncode == 1
    for path, mode in side.items():
        assert f"{path} has mode {mode:o}: others can read it (chmod go-rwx, or doctor --repair)" in problems
    assert not any(f"{db_path} has mode" in p for p in problems)
    repaired = doctor(db_path, "--repair", "--json")
    report = json.loads(repaired.stdout)
    assert repaired.returncode == 0 and report["ok"] is True, report["problems"]
    assert report["repaired"]["made_private"] == [str(p) for p in side]
    assert all(path.stat().st_mode & 0o777 == 0o600 for path in side) and db_path.stat().st_mode & 0o777 == 0o600
    assert store.get(tenant="t", id=filled[1][0]).content.startswith("fact number 0")  # the data is still there



@pytest.mark.parametrize("folder", ["a#b", "a?b", "a%20b"])
def test_the_damage_check_reads_a_file_whose_path_holds_uri_characters(tmp_path, folder):
    """The check doctor and every open that failed run opened ``file:{path}?mode=ro`` unquoted: "#" or
    "?" cut the path short, "%20" named another file: "SQLite cannot open the file" for a sound one."""
    from memvault.storage.sqlite import health

    db = tmp_path / folder / "memvault.db"
    db.parent.mkdir()
    store = Store(db, FakeEmbedder())  # type: ignore[arg-type]
    try:
        store.remember(tenant="t", scope="s", content="fact about the staging cluster")
    finally:
        store.close()
    assert health.damage(db) == []
