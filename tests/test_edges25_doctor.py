"""``memvault doctor`` on a file damaged in several ways names the check that failed, how to
recover, and exits non-zero (issue 25, round 3: it said "memvault doctor says what is wrong")."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from test_damaged_file import filled

from memvault.server import cli

PAGE = 4096
pytestmark = pytest.mark.usefixtures("one_model")  # the packaged model loaded once (conftest)


def doctor(capsys, db: Path, *flags: str) -> tuple[int, str]:
    """``memvault doctor`` in this process: (exit code, stdout + stderr)."""
    code = cli.main(["doctor", "--db", str(db), *flags])
    out, err = capsys.readouterr()
    return code, out + err


@pytest.fixture(scope="module")
def healthy(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("healthy") / "memvault.db"
    filled(db, 30, 120)
    return db


def truncated(db: Path) -> None:
    os.truncate(db, os.path.getsize(db) // 2)


def header(db: Path) -> None:
    with db.open("r+b") as fh:
        fh.write(b"\xa5" * 100)


def middle(db: Path) -> None:
    with db.open("r+b") as fh:
        fh.seek((os.path.getsize(db) // PAGE // 2) * PAGE)
        fh.write(b"\xa5" * PAGE)


def tail_cut(db: Path) -> None:  # inside the last page, which held nothing SQLite reads
    os.truncate(db, os.path.getsize(db) - 1000)


def wal_lost(db: Path) -> None:
    (db.parent / f"{db.name}-shm").write_bytes(b"\0" * 32768)


DAMAGE = [  # how the file is damaged, the check doctor names, and its exit code
    (truncated, "the size check failed", 1),
    (tail_cut, "is not a whole number of 4,096-byte pages", 1),
    (header, "the header check failed", 1),  # refused before opening by every other command
    (middle, "SQLite's integrity check failed", 1),  # in the pages of ..., or reading them (by layout)
    (wal_lost, "memvault.db-shm is there without memvault.db-wal", 1),
]


@pytest.mark.parametrize("harm, check, code", DAMAGE, ids=[d[0].__name__ for d in DAMAGE])
def test_doctor_names_the_failed_check_and_how_to_recover(tmp_path, capsys, healthy, harm, check, code):
    db = tmp_path / "memvault.db"
    shutil.copy(healthy, db)
    harm(db)
    exit_code, said = doctor(capsys, db)
    assert exit_code == code, said
    assert check in said and "Traceback" not in said
    assert "says what is wrong" not in said  # no circular advice
    if harm is not wal_lost:
        assert "docs/troubleshooting.md#a-damaged-database" in said
        exported = cli.main(["export", "--db", str(db), "-o", str(tmp_path / "saved.jsonl")])
        capsys.readouterr()
        assert (exported == 0) == ("memvault export -o" in said), said  # the advice given is one that works


def test_doctor_json_gives_the_problems_and_the_recovery(tmp_path, capsys, healthy):
    db = tmp_path / "memvault.db"
    shutil.copy(healthy, db)
    middle(db)
    code = cli.main(["doctor", "--json", "--db", str(db)])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and report["ok"] is False
    assert report["problems"][0].startswith("the database file is damaged: SQLite's integrity check failed")
    assert "memvault export -o" in report["recovery"]


def test_doctor_on_a_healthy_copy_finds_no_damage(tmp_path, capsys, healthy):
    db = tmp_path / "memvault.db"
    shutil.copy(healthy, db)
    _, said = doctor(capsys, db)
    assert "damaged" not in said and "check failed" not in said and "-shm" not in said, said


def test_doctor_on_an_empty_file_says_so_and_writes_nothing(tmp_path, capsys):
    db = tmp_path / "memvault.db"
    db.touch()
    code, said = doctor(capsys, db)
    assert code == 1 and "empty (0 bytes)" in said and db.stat().st_size == 0


@pytest.mark.parametrize("size", [1, 100, 511])
def test_doctor_on_a_file_shorter_than_any_database_says_it_was_truncated(tmp_path, capsys, healthy, size):
    db = tmp_path / "memvault.db"
    db.write_bytes(healthy.read_bytes()[:size])
    code, said = doctor(capsys, db)
    assert code == 1 and "the size check failed" in said and "restore a backup" in said, said
    assert db.stat().st_size == size


@pytest.mark.parametrize("cut", [1, 1000, PAGE - 1, PAGE + 7])
def test_a_file_ending_inside_a_page_is_refused_by_every_command_and_nothing_written(tmp_path, capsys, healthy, cut):
    db = tmp_path / "memvault.db"
    shutil.copy(healthy, db)
    os.truncate(db, os.path.getsize(db) - cut)
    before = db.read_bytes()
    for command in (["remember", "written into a cut file"], ["recall", "memory"], ["list"], ["stats"], ["export"],
                    ["keys", "create", "--tenant", "t"]):
        code = cli.main([*command, "--db", str(db)])
        said = capsys.readouterr().err
        # exit 1 as for damage found by opening the file (2 is a bad argument's)
        assert code == 1 and "is not a whole number of 4,096-byte pages" in said and "Traceback" not in said, said
    assert db.read_bytes() == before and not (tmp_path / "memvault.db-wal").exists()


def test_remember_into_an_empty_file_says_it_made_a_new_database_and_recall_says_none_is_there(tmp_path, capsys):
    db = tmp_path / "memvault.db"
    db.touch()
    assert cli.main(["recall", "--db", str(db), "anything"]) == 1
    assert "no database at" in capsys.readouterr().err and db.stat().st_size == 0
    assert cli.main(["remember", "--db", str(db), "the deploy runs at noon"]) == 0
    assert "created a new database at" in capsys.readouterr().err
