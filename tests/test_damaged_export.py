"""`memvault export` of a file whose memories' pages are damaged saves every memory that can still be
read (around the damaged pages), says how many could not be and why, and exits 1: never a complete export
(issue 25, §5: the keyset reads stopped at the first bad page and saved nothing)."""

from __future__ import annotations

import functools
import json
import re
import shutil
from pathlib import Path

import apsw
import pytest
from conftest import server_env
from fakes import FakeEmbedder

from memvault.server import cli
from memvault.storage import transfer
from memvault.storage.sqlite import crypto
from memvault.storage.store import Store

PAGE = 4096
COUNT = 40


def filled(db: Path) -> dict[str, dict]:
    """``COUNT`` tagged memories of tenant default and one of another tenant; the export of the
    undamaged file, by id."""
    store = Store(db, FakeEmbedder())  # type: ignore[arg-type]
    try:
        for i in range(COUNT):
            store.remember(tenant="default", scope="default", content=f"memory {i}: " + "words " * 60, tags=[f"t{i}"])
        store.remember(tenant="other", scope="default", content="memory of another tenant: " + "words " * 60)
        return {line["id"]: line for line in map(json.loads, transfer.export_lines(store, "default"))}
    finally:
        store.close()


def overwrite(db: Path, offsets: list[int]) -> None:
    with open(db, "r+b") as fh:
        for offset in offsets:
            fh.seek(offset)
            fh.write(b"\xa5" * PAGE)


def page_of(db: Path, text: str) -> int:
    """The offset of the page holding ``text`` (a plain file)."""
    return db.read_bytes().index(text.encode()) // PAGE * PAGE


@pytest.fixture
def exported(cli_here):  # type: ignore[no-untyped-def]
    """``exported(db, out, **env)``: ``memvault export -o OUT`` of ``db`` (conftest's ``cli_here``): its exit code,
    stderr and the lines it wrote."""
    def export(db: Path, out: Path, **env: str) -> tuple[int, str, list[dict]]:
        done = cli_here(["export", "-o", str(out)], server_env(db, **env))
        lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()] if out.exists() else []
        return done.returncode, done.stderr, lines

    return export


def said_counts(stderr: str) -> tuple[int, int | None]:
    saved = int(re.search(r"Saved (\d+) memor", stderr).group(1))  # type: ignore[union-attr]
    lost = re.search(r"(?:at least )?(\d+) stored memor(?:y|ies) \(of any tenant\) could not be read", stderr)
    return saved, int(lost.group(1)) if lost else None


def lost_as_said(stderr: str, saved: int, lost: int | None) -> bool:
    """Whether the memories said lost fit the truth: ``COUNT`` of tenant default and one other's
    (exactly, or a lower bound when said "at least")."""
    truth = (COUNT - saved, COUNT + 1 - saved)  # the other tenant's may have been read or not
    if lost is None:
        return False
    return lost <= truth[1] if "at least" in stderr else truth[0] <= lost <= truth[1]


def damage_every(db: Path, every: int) -> None:
    overwrite(db, list(range(2 * PAGE, db.stat().st_size, every * PAGE)))


@pytest.mark.parametrize("damage", ["one memory's page", "two memories' pages", "every 2nd page", "every 3rd page",
                                    "every page but two"])
def test_export_saves_every_memory_read_around_damaged_pages_and_says_how_many_were_lost(tmp_path, damage, exported):
    db = tmp_path / "m.db"
    before = filled(db)
    if damage == "one memory's page":
        overwrite(db, [page_of(db, "memory 20: ")])
    elif damage == "two memories' pages":
        overwrite(db, [page_of(db, "memory 3: "), page_of(db, "memory 33: ")])
    else:
        damage_every(db, {"every 2nd page": 2, "every 3rd page": 3, "every page but two": 1}[damage])
    code, stderr, lines = exported(db, tmp_path / "saved.jsonl")
    assert code == 1 and "Traceback" not in stderr, stderr
    assert "export is incomplete: the database file is damaged" in stderr and "restore a backup" in stderr
    saved, lost = said_counts(stderr)
    assert saved == len(lines) and len({line["id"] for line in lines}) == len(lines)
    # Every field as the undamaged export wrote it, or the tags said to be incomplete.
    differ = [line for line in lines if line != before[line["id"]]]
    assert all({**line, "tags": []} == {**before[line["id"]], "tags": []} for line in differ)
    assert not differ or "could not all be read (their pages are damaged)" in stderr
    assert all(line["tenant"] == "default" for line in lines)
    if damage == "every page but two":
        assert lines == [] and "no memory could be read" in stderr
    else:
        assert 0 < saved < COUNT and lost_as_said(stderr, saved, lost)
    # What was saved imports into a new file whole.
    store = Store(tmp_path / "new.db", FakeEmbedder())  # type: ignore[arg-type]
    try:
        report = transfer.import_lines(store, (tmp_path / "saved.jsonl").read_text(encoding="utf-8").splitlines(),
                                       tenant="default", scope="default")
        assert report.imported == len(lines) and not report.failed
        listed = store.list_memories(tenant="default", scopes=["default"], limit=50)
        assert {(m.id, m.content, m.tags) for m in listed} == {
            (line["id"], line["content"], tuple(line["tags"])) for line in lines}
    finally:
        store.close()


def test_memories_written_before_a_read_reaches_the_damage_are_not_written_twice(tmp_path, monkeypatch):
    """The keyset read fails on its 5th page: the lines written before it stay, the rest is read around it."""
    db = tmp_path / "m.db"
    before = filled(db)
    overwrite(db, [page_of(db, "memory 30: ")])
    monkeypatch.setenv("MEMVAULT_DB", str(db))
    monkeypatch.setattr(transfer, "export_lines", functools.partial(transfer.export_lines, page=5))
    out = tmp_path / "saved.jsonl"
    assert cli.main(["export", "-o", str(out)]) == 1
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    ids = [line["id"] for line in lines]
    assert len(ids) == len(set(ids)) and [line for line in lines if line != before[line["id"]]] == []
    contents = {line["content"].split(":")[0] for line in lines}
    assert {f"memory {i}" for i in range(5)} <= contents and "memory 30" not in contents and len(lines) >= COUNT - 10


def test_pages_still_in_the_write_ahead_log_are_read_from_it_and_a_torn_frame_ends_it(tmp_path):
    """A copy taken while a server had the file open: the newest pages are in the -wal, as far as its
    checksums hold (SQLite's rule: a frame that does not check out ends the log)."""
    from memvault.storage.sqlite import salvage

    db, copy = tmp_path / "m.db", tmp_path / "copy.db"
    store = Store(db, FakeEmbedder())  # type: ignore[arg-type]
    try:
        ids = [store.remember(tenant="default", scope="default", content=f"memory {i}: " + "words " * 60).id
               for i in range(COUNT)]
        shutil.copy(db, copy)
        shutil.copy(f"{db}-wal", f"{copy}-wal")
    finally:
        store.close()
    assert b"memory 39: " not in copy.read_bytes()  # only in the log
    read = salvage.salvage(copy, None)
    assert [m.id for m in read.memories.values()] == ids
    wal = Path(f"{copy}-wal")
    data = bytearray(wal.read_bytes())
    at = data.index(b"memory 30: ")
    data[at:at + 8] = b"\xa5" * 8
    wal.write_bytes(bytes(data))
    torn = [m.id for m in salvage.salvage(copy, None).memories.values()]
    assert 0 < len(torn) <= 30 and torn == ids[:len(torn)]


def test_an_encrypted_damaged_file_is_read_memory_by_memory(tmp_path, monkeypatch, exported):
    key = tmp_path / "key"
    key.write_bytes(b"correct horse battery staple 7731")
    key.chmod(0o600)
    env = {crypto.KEY_FILE: str(key)}
    db = tmp_path / "m.db"
    monkeypatch.setenv(crypto.KEY_FILE, str(key))
    before = filled(db)
    conn = apsw.Connection(str(db))
    try:
        crypto.configured(db).apply(conn, db)  # type: ignore[union-attr]
        leaves = [n for (n,) in conn.execute(
            "SELECT pageno FROM dbstat WHERE name = 'memories' AND pagetype = 'leaf' ORDER BY pageno")]
        tag_pages = [n for (n,) in conn.execute("SELECT pageno FROM dbstat WHERE name LIKE 'memory_tags%'")]
    finally:
        conn.close()
    overwrite(db, [(n - 1) * PAGE for n in (leaves[1], leaves[-1], *tag_pages)])  # the last: max(seq) fails too
    code, stderr, lines = exported(db, tmp_path / "saved.jsonl", **env)
    assert code == 1 and "Traceback" not in stderr, stderr
    saved, lost = said_counts(stderr)
    assert 0 < saved == len(lines) < COUNT and lost_as_said(stderr, saved, lost)
    # Their tags' index is damaged too: each is said, never dropped silently.
    assert all({**line, "tags": []} == {**before[line["id"]], "tags": []} for line in lines)
    assert "could not all be read (their pages are damaged)" in stderr


def test_an_undamaged_file_still_exports_whole_with_exit_0(tmp_path, exported):
    db = tmp_path / "m.db"
    before = filled(db)
    code, stderr, lines = exported(db, tmp_path / "saved.jsonl")
    assert code == 0 and "incomplete" not in stderr and {line["id"] for line in lines} == set(before)
