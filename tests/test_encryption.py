"""Encryption at rest of the SQLite file (issue 30): no memory text or vector in clear in the db,
-wal or -shm, before and after forget; the key from a private file or the OS keyring, never shown;
wrong, missing and unwanted keys refused with nothing written; encrypt/decrypt survive SIGKILL."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import keyring
import keyring.backend
import keyring.backends.fail
import keyring.errors
import pytest
from conftest import REPO, file_bytes
from fakes import FakeEmbedder

from memvault.server import cli
from memvault.storage import maintenance, transfer
from memvault.storage.errors import StorageUnavailable, StoreError
from memvault.storage.sqlite import convert, crypto
from memvault.storage.sqlite.vector_cache import quantise
from memvault.storage.store import Store

pytestmark = pytest.mark.sqlite_only
MARKS = ("quokkamark4417 prefers green tea", "wombatmark9921 lives in Tromso", "dingomark3318 fears heights")
KEY = b"correct horse battery staple 7731"
RUNNER = Path(__file__).with_name("encrypt_runner.py")


def key_file(folder: Path, secret: bytes = KEY, mode: int = 0o600) -> Path:
    path = folder / f"key-{hashlib.sha256(secret).hexdigest()[:8]}"
    path.write_bytes(secret + b"\n")
    path.chmod(mode)
    return path


def fill(db: Path) -> tuple[Store, list[str]]:
    store = Store(db, FakeEmbedder())  # type: ignore[arg-type]
    return store, [store.remember(tenant="t", scope="s", content=text).id for text in MARKS]


def in_clear(db: Path) -> list[str]:
    """Which marked texts, their vectors (float32 bytes, and the int8 codes the search keeps in memory) and
    the key appear in the db, -wal and -shm."""
    data = file_bytes(db)
    vectors = FakeEmbedder().embed(list(MARKS))
    found = [text for text in MARKS if text.split()[0].encode() in data]
    found += [f"vector {i}" for i, v in enumerate(vectors) if v.tobytes() in data]
    codes = quantise(list(range(len(MARKS))), [v.tobytes() for v in vectors]).codes  # the search's int8 copy
    found += [f"int8 vector {i}" for i, c in enumerate(codes) if c.tobytes() in data]
    return found + [k for k in ("key", "hex key") if (KEY if k == "key" else KEY.hex().encode()) in data]


@pytest.mark.parametrize("encrypted", [False, True], ids=["plain", "encrypted"])
def test_no_text_vector_or_key_in_the_files_of_an_encrypted_store(tmp_path, monkeypatch, encrypted):
    if encrypted:
        monkeypatch.setenv(crypto.KEY_FILE, str(key_file(tmp_path)))
    db = tmp_path / "memvault.db"
    store, ids = fill(db)
    try:
        assert Path(f"{db}-wal").stat().st_size > 0  # the writes sit in the WAL too
        # The plain store shows the search finds what is there.
        assert in_clear(db) == ([] if encrypted else [*MARKS, "vector 0", "vector 1", "vector 2"])
        store.forget(tenant="t", id=ids[0])
        assert store.upkeep.scrub()
        assert MARKS[0].split()[0].encode() not in file_bytes(db)
        assert in_clear(db) == ([] if encrypted else [*MARKS[1:], "vector 1", "vector 2"])
        hits = store.recall(tenant="t", query="wombatmark9921 lives in Tromso", scopes=["s"], limit=1).hits
        assert [hit.memory.id for hit in hits] == [ids[1]]
        assert maintenance.stats(store)["encrypted"] is encrypted  # `memvault stats` says which
    finally:
        store.close()


def test_a_wrong_missing_or_unwanted_key_is_refused_naming_it_and_nothing_is_written(tmp_path, monkeypatch):
    db = tmp_path / "memvault.db"
    monkeypatch.setenv(crypto.KEY_FILE, str(key_file(tmp_path)))
    store, _ = fill(db)
    store.close()
    before = file_bytes(db)
    wrong = b"another key 0451"
    monkeypatch.setenv(crypto.KEY_FILE, str(key_file(tmp_path, wrong)))
    says = r"the key from MEMVAULT_KEY_FILE \(.*\) does not decrypt"
    with pytest.raises(StoreError, match=says) as refused:
        Store(db, FakeEmbedder())  # type: ignore[arg-type]
    assert not any(k in str(refused.value) for k in (wrong.decode(), wrong.hex(), KEY.decode(), KEY.hex()))
    monkeypatch.delenv(crypto.KEY_FILE)
    with pytest.raises(StoreError, match="is encrypted .* and no key is configured: set MEMVAULT_KEY_FILE"):
        Store(db, FakeEmbedder())  # type: ignore[arg-type]
    assert file_bytes(db) == before
    plain = tmp_path / "plain.db"
    Store(plain, FakeEmbedder()).close()  # type: ignore[arg-type]
    plain_before = file_bytes(plain)
    monkeypatch.setenv(crypto.KEY_FILE, str(key_file(tmp_path)))
    with pytest.raises(StoreError, match=r"is a plain \(unencrypted\) database, and a key is configured .*"
                                         "`memvault encrypt`"):
        Store(plain, FakeEmbedder())  # type: ignore[arg-type]
    assert file_bytes(plain) == plain_before


def test_a_key_file_others_may_read_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv(crypto.KEY_FILE, str(key_file(tmp_path, mode=0o640)))
    with pytest.raises(StoreError, match=r"has mode 640, readable by others than its owner: `chmod 600"):
        Store(tmp_path / "memvault.db", FakeEmbedder())  # type: ignore[arg-type]
    assert not (tmp_path / "memvault.db").exists()
    monkeypatch.setenv(crypto.KEY_FILE, str(tmp_path / "missing"))
    assert cli.main(["stats", "--db", str(tmp_path / "memvault.db")]) == 2


def test_a_build_without_ciphers_is_refused_naming_the_fix(tmp_path, monkeypatch):
    monkeypatch.setenv(crypto.KEY_FILE, str(key_file(tmp_path)))
    monkeypatch.setattr(crypto, "has_ciphers", lambda: False)
    with pytest.raises(StoreError, match=r"apsw module installed here has no ciphers.*pip install "
                                         "--force-reinstall --no-deps apsw-sqlite3mc"):
        Store(tmp_path / "memvault.db", FakeEmbedder())  # type: ignore[arg-type]


def test_the_key_settings_are_documented_and_no_command_takes_a_key():
    from memvault.server import config

    table = (REPO / "docs" / "configuration.md").read_text(encoding="utf-8")
    assert all(f"| `{name}` | none (never a flag) |" in table for name in config.ENV_ONLY)
    flags = [flag for _, flags in cli.COMMANDS.values() for flag in flags]
    assert not [flag for flag in flags if "key" in flag]


def test_a_client_entry_written_by_setup_names_the_key_file_never_the_key(tmp_path, monkeypatch):
    from memvault.server import config, setup

    monkeypatch.setenv(crypto.KEY_FILE, str(key_file(tmp_path)))
    entry = setup.for_client("cursor", config.load(db=str(tmp_path / "memvault.db"))).entry
    assert entry["env"][crypto.KEY_FILE] == str(key_file(tmp_path))  # type: ignore[index]
    assert KEY.decode() not in str(entry)


class MemoryKeyring(keyring.backend.KeyringBackend):
    """A keyring in this process's memory (no file, no OS service)."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.entries: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.entries.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.entries[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        del self.entries[(service, username)]


def test_the_key_from_the_os_keyring_is_looked_up_by_the_database_path(tmp_path, monkeypatch):
    previous = keyring.get_keyring()
    ring = MemoryKeyring()
    keyring.set_keyring(ring)
    try:
        db = tmp_path / "memvault.db"
        monkeypatch.setenv(crypto.KEYRING, "1")
        with pytest.raises(StoreError, match=rf"no key for service 'memvault', name '{db}': `keyring set"):
            Store(db, FakeEmbedder())  # type: ignore[arg-type]
        ring.set_password("memvault", str(db), KEY.decode())
        store, ids = fill(db)
        store.close()
        assert in_clear(db) == []
        (tmp_path / "link").symlink_to(tmp_path, target_is_directory=True)
        for spelled in (tmp_path / "link" / "memvault.db", tmp_path / "link" / ".." / tmp_path.name / "memvault.db"):
            again = Store(spelled, FakeEmbedder())  # type: ignore[arg-type]  # one name, however spelled
            assert len(again.list_memories(tenant="t", scopes=["s"], limit=10)) == len(ids)
            again.close()
        ring.set_password("memvault", str(db), "not the key")
        with pytest.raises(StoreError, match=r"the key from the OS keyring .* does not decrypt"):
            Store(db, FakeEmbedder())  # type: ignore[arg-type]
        ring.set_password("memvault", str(db), KEY.decode())
        monkeypatch.setenv(crypto.KEY_FILE, str(key_file(tmp_path)))  # the same key, but two sources
        with pytest.raises(StoreError, match="both MEMVAULT_KEY_FILE and MEMVAULT_KEYRING are set"):
            Store(db, FakeEmbedder())  # type: ignore[arg-type]
        monkeypatch.delenv(crypto.KEY_FILE)
        store = Store(db, FakeEmbedder())  # type: ignore[arg-type]
        assert [m.id for m in store.list_memories(tenant="t", scopes=["s"], limit=10)] == ids[::-1]
        store.close()
    finally:
        keyring.set_keyring(previous)


@pytest.mark.usefixtures("one_model")
def test_export_import_doctor_and_reindex_work_on_an_encrypted_store(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(crypto.KEY_FILE, str(key_file(tmp_path)))
    db, copy = tmp_path / "memvault.db", tmp_path / "copy.db"
    store, ids = fill(db)
    lines = list(transfer.export_lines(store, "t"))
    assert maintenance.check(store) == []
    store.close()
    exported = tmp_path / "out.jsonl"
    assert cli.main(["export", "--db", str(db), "--tenant", "t", "-o", str(exported)]) == 0
    assert exported.read_text().splitlines() == lines
    assert cli.main(["import", str(exported), "--db", str(copy), "--tenant", "t", "--scope", "s"]) == 0
    assert cli.main(["reindex", "--db", str(copy)]) == 0
    assert cli.main(["consolidate", "--db", str(copy)]) == 0
    assert cli.main(["doctor", "--db", str(copy), "--json"]) == 0
    assert '"ok": true' in capsys.readouterr().out
    assert in_clear(copy) == [] and crypto.is_plain(copy) is False
    monkeypatch.delenv(crypto.KEY_FILE)
    assert cli.main(["doctor", "--db", str(copy)]) == 2
    assert "no key is configured" in capsys.readouterr().err


def test_encrypt_and_decrypt_keep_every_memory_and_leave_no_copy(tmp_path, monkeypatch, capsys):
    db = tmp_path / "memvault.db"
    store, ids = fill(db)
    store.close()
    monkeypatch.setenv(crypto.KEY_FILE, str(key_file(tmp_path)))
    assert cli.main(["encrypt", "--db", str(db)]) == 0
    err = capsys.readouterr().err
    assert "encrypted" in err and KEY.decode() not in err and KEY.hex() not in err
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("memvault")) == ["memvault.db"]
    assert in_clear(db) == []
    assert cli.main(["encrypt", "--db", str(db)]) == 1
    assert "already encrypted with this key" in capsys.readouterr().err
    other = tmp_path / "other"
    other.mkdir()
    monkeypatch.setenv(crypto.KEY_FILE, str(key_file(other, b"another key entirely")))
    assert cli.main(["encrypt", "--db", str(db)]) == 1  # not "already encrypted": not with that key
    assert "does not decrypt" in capsys.readouterr().err
    monkeypatch.setenv(crypto.KEY_FILE, str(key_file(tmp_path)))
    store = Store(db, FakeEmbedder())  # type: ignore[arg-type]
    assert sorted(m.id for m in store.list_memories(tenant="t", scopes=["s"], limit=10)) == sorted(ids)
    hits = store.recall(tenant="t", query="dingomark3318 fears heights", scopes=["s"], limit=1).hits
    assert [hit.memory.id for hit in hits] == [ids[2]] and maintenance.check(store) == []
    store.close()
    assert cli.main(["decrypt", "--db", str(db)]) == 0
    assert "Unset the key setting" in capsys.readouterr().err
    monkeypatch.delenv(crypto.KEY_FILE)
    assert crypto.is_plain(db) and MARKS[0].split()[0].encode() in file_bytes(db)
    store = Store(db, FakeEmbedder())  # type: ignore[arg-type]
    assert sorted(m.id for m in store.list_memories(tenant="t", scopes=["s"], limit=10)) == sorted(ids)
    store.close()
    assert cli.main(["encrypt", "--db", str(db)]) == 2
    assert "no key is configured" in capsys.readouterr().err


def test_encrypt_is_refused_while_another_process_has_the_store_open(tmp_path, monkeypatch):
    db = tmp_path / "memvault.db"
    fill(db)[0].close()
    # A store as a server holds it: open, idle between calls after a write and a read.
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from memvault.storage.store import Store; s = Store(sys.argv[1], None); "
         "s.remember(tenant='t', scope='s', content='held open'); s.recall(tenant='t', query='held', scopes=['s']); "
         "print('open', flush=True); sys.stdin.read(); s.close()",
         str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "open\n"
        before = file_bytes(db)
        with pytest.raises(StoreError, match="another process has .* open .*: stop it and run this again"):
            convert.convert(db, crypto.Key(KEY, "a test"), encrypt=True)
        assert crypto.is_plain(db) and not Path(f"{db}{convert.SUFFIX}").exists()
        assert file_bytes(db) == before
    finally:
        holder.communicate("")


# Where the conversions are killed: before the copy, in the middle of it, after it before the rename,
# after the rename before the folder is flushed, and when all is done.
STAGES = ("locked", "created", "copying", "written", "checked", "renamed", "replaced")
KILLS = [(direction, stage) for direction in ("encrypt", "decrypt") for stage in STAGES]
REMOVED = "the unfinished copy of a `memvault encrypt` or `decrypt` that was stopped"


def clear_elsewhere(folder: Path, db: Path, plain: bool) -> list[str]:
    """Files of ``folder`` that hold a marked text in clear (the database itself, when plain, aside)."""
    own = {db.name, f"{db.name}-wal", f"{db.name}-shm"} if plain else set()
    return [p.name for p in folder.iterdir() if p.name not in own and MARKS[0].split()[0].encode() in p.read_bytes()]


def test_a_sigkill_at_any_stage_of_encrypt_or_decrypt_leaves_one_whole_store(tmp_path, monkeypatch, caplog):
    """Each conversion is killed where ``convert.reached`` is called (all in one process tree); the next
    open removes what it left, saying so, and the store opens, with every memory, with the key (after the
    rename for encrypt, before it for decrypt) and not without it, or the reverse; no file holds a
    marked text in clear but a plain database itself."""
    secret = key_file(tmp_path)
    cases = {}
    for direction, stage in KILLS:
        db = tmp_path / f"{direction}-{stage}" / "memvault.db"
        db.parent.mkdir()
        if direction == "decrypt":
            monkeypatch.setenv(crypto.KEY_FILE, str(secret))
        store, ids = fill(db)
        store.close()
        monkeypatch.delenv(crypto.KEY_FILE, raising=False)
        cases[str(db)] = (direction, stage, ids)
    runner = subprocess.Popen([sys.executable, str(RUNNER), *(f"{db}:{d}:{s}" for db, (d, s, _) in cases.items())],
                              env={**os.environ, crypto.KEY_FILE: str(secret)}, cwd=REPO,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for _ in cases:
        line = runner.stdout.readline()
        pid, stage, db = line.split(" ", 2)
        assert stage == cases[db.split()[0]][1], line  # not "done" or "error ..."
        os.kill(int(pid), signal.SIGKILL)
    _, err = runner.communicate(timeout=60)
    assert KEY.decode() not in err and KEY.hex() not in err
    left = {}
    for name, (direction, stage, ids) in cases.items():
        db = Path(name)
        converted = stage in ("renamed", "replaced")
        encrypted = converted if direction == "encrypt" else not converted
        assert crypto.is_plain(db) is not encrypted, (direction, stage)
        left[name] = sorted(p.name for p in db.parent.iterdir() if p.name.startswith(db.name + convert.SUFFIX))
        assert bool(left[name]) == (stage in ("created", "copying", "written", "checked")), (direction, stage)
        if direction == "decrypt" and stage in ("written", "checked"):  # the kill left a plain copy...
            assert clear_elsewhere(db.parent, db, not encrypted) == [f"{db.name}{convert.SUFFIX}"]
    for name, (direction, stage, ids) in cases.items():
        db = Path(name)
        encrypted = crypto.is_plain(db) is False
        monkeypatch.setenv(crypto.KEY_FILE, str(secret)) if not encrypted else monkeypatch.delenv(crypto.KEY_FILE)
        caplog.clear()
        with pytest.raises(StoreError, match="and no key is configured" if encrypted else "is a plain"):
            Store(db, FakeEmbedder())  # type: ignore[arg-type]
        assert not [p for p in db.parent.iterdir() if p.name.startswith(db.name + convert.SUFFIX)]
        assert (REMOVED in caplog.text) is bool(left[name]), (direction, stage)
        monkeypatch.setenv(crypto.KEY_FILE, str(secret)) if encrypted else monkeypatch.delenv(crypto.KEY_FILE)
        caplog.clear()
        store = Store(db, FakeEmbedder())  # type: ignore[arg-type]
        listed = sorted(m.id for m in store.list_memories(tenant="t", scopes=["s"], limit=10))
        store.close()
        assert listed == sorted(ids), (direction, stage)
        assert (REMOVED in caplog.text) is False  # ... removed by the first open, the refused one
        assert clear_elsewhere(db.parent, db, not encrypted) == [], (direction, stage)
        # The conversion's own journal (header zeroed: never played back) goes with the first open that reads.
        assert sorted(p.name for p in db.parent.iterdir()) == ["memvault.db"], (direction, stage)
        if stage not in ("renamed", "replaced"):  # a second run finishes the job
            monkeypatch.setenv(crypto.KEY_FILE, str(secret))
            key = crypto.configured(db)
            assert key is not None
            convert.convert(db, key, encrypt=direction == "encrypt")
            assert crypto.is_plain(db) is (direction == "decrypt")
            assert sorted(p.name for p in db.parent.iterdir()) == ["memvault.db"]


def test_the_next_command_removes_a_stopped_decrypts_plain_copy_and_says_so(tmp_path, monkeypatch):
    """A killed ``decrypt``'s plain copy, removed by the next command in another process (on stderr); the
    copy of a conversion still running is left alone."""
    secret = key_file(tmp_path)
    db = tmp_path / "store" / "memvault.db"
    db.parent.mkdir()
    monkeypatch.setenv(crypto.KEY_FILE, str(secret))
    fill(db)[0].close()
    runner = subprocess.Popen([sys.executable, str(RUNNER), f"{db}:decrypt:checked"], cwd=REPO,
                              env={**os.environ, crypto.KEY_FILE: str(secret)}, stdout=subprocess.PIPE, text=True)
    pid, stage, _ = runner.stdout.readline().split(" ", 2)
    convert.remove_leftover(db)  # while the conversion runs, its copy stays
    assert stage == "checked" and Path(f"{db}{convert.SUFFIX}").exists()
    os.kill(int(pid), signal.SIGKILL)
    runner.communicate(timeout=60)
    assert clear_elsewhere(db.parent, db, False) == [f"memvault.db{convert.SUFFIX}"]
    done = subprocess.run([sys.executable, "-m", "memvault.server", "stats", "--db", str(db)], cwd=REPO,
                          env={**os.environ, crypto.KEY_FILE: str(secret)}, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert f"removed {db}{convert.SUFFIX}" in done.stderr and REMOVED in done.stderr
    assert KEY.decode() not in done.stderr + done.stdout and KEY.hex() not in done.stderr + done.stdout
    assert sorted(p.name for p in db.parent.iterdir()) == ["memvault.db"] and crypto.is_plain(db) is False


@pytest.mark.parametrize("mine", [b"my own notes, not memvault's\n", b"x" * 1000])
@pytest.mark.parametrize("suffix", [convert.SUFFIX, f"{convert.SUFFIX}-journal"])
def test_a_file_only_named_like_the_copy_is_left_alone_and_encrypt_says_so(tmp_path, monkeypatch, caplog, mine,
                                                                           suffix):
    db = tmp_path / "memvault.db"
    fill(db)[0].close()
    theirs = Path(f"{db}{suffix}")
    theirs.write_bytes(mine)
    Store(db, FakeEmbedder()).close()  # type: ignore[arg-type]
    assert theirs.read_bytes() == mine and "left" in caplog.text and "alone" in caplog.text
    monkeypatch.setenv(crypto.KEY_FILE, str(key_file(tmp_path)))
    with pytest.raises(StoreError, match="exists and is not a stopped conversion's copy"):
        convert.convert(db, crypto.configured(db), encrypt=True)  # type: ignore[arg-type]
    assert theirs.read_bytes() == mine and crypto.is_plain(db) is True


def test_a_store_replaced_while_opening_is_refused(tmp_path, monkeypatch):
    """A process that opened the old file while encrypt ran never serves the replaced file."""
    db = tmp_path / "memvault.db"
    fill(db)[0].close()
    from memvault.storage.sqlite import db as sqlite_db

    real = sqlite_db.Connection

    def then_replaced(*args, **kwargs):  # type: ignore[no-untyped-def]
        conn = real(*args, **kwargs)
        (tmp_path / "other.db").write_bytes(db.read_bytes())
        os.replace(tmp_path / "other.db", db)
        return conn

    monkeypatch.setattr(sqlite_db, "Connection", then_replaced)
    with pytest.raises(StorageUnavailable, match="was replaced by another file while being opened"):
        sqlite_db.open_connection(db)


def test_the_team_server_serves_an_encrypted_store(tmp_path, monkeypatch, real_embedder):
    """Reads and a forget over HTTP once /healthz says the encrypted database is open (the memories
    are stored here with the same model; the server's own model is not waited for)."""
    import anyio
    from httpwire import HttpServer, client, new_key

    secret = key_file(tmp_path)
    monkeypatch.setenv(crypto.KEY_FILE, str(secret))
    db = tmp_path / "memvault.db"
    store = Store(db, real_embedder)
    ids = [store.remember(tenant="t", scope="default", content=text).id for text in MARKS]
    store.close()
    api_key = new_key(db, "t")
    server = HttpServer(db, MEMVAULT_KEY_FILE=str(secret))
    try:
        async def run() -> str:
            async with client(server.url, api_key) as c:
                shown = (await c.read_resource(f"memory://memories/{ids[1]}")).contents[0].text
                forgotten = await c.call_tool("forget", {"id": ids[0]})
                assert not forgotten.is_error, forgotten
                return shown

        assert "wombatmark9921" in anyio.run(run)
        assert server.post(api_key, {"jsonrpc": "2.0", "id": 1, "method": "ping"}).status_code == 200
        assert in_clear(db) == [] and KEY.decode() not in server.log()
    finally:
        server.close()
    store = Store(db, real_embedder)
    assert sorted(m.id for m in store.list_memories(tenant="t", scopes=["default"])) == sorted(ids[1:])
    store.close()


def test_memvault_ui_refuses_a_wrong_key_and_a_bad_port_before_it_serves(tmp_path, monkeypatch, capsys):
    db = tmp_path / "memvault.db"
    monkeypatch.setenv(crypto.KEY_FILE, str(key_file(tmp_path)))
    fill(db)[0].close()
    before = file_bytes(db)
    monkeypatch.setenv(crypto.KEY_FILE, str(key_file(tmp_path, b"another key 0451")))
    assert cli.main(["ui", "--no-browser", "--db", str(db)]) == 1
    assert "does not decrypt" in capsys.readouterr().err and file_bytes(db) == before
    assert cli.main(["ui", "--no-browser", "--port", "99999", "--db", str(db)]) == 2
    assert "--port: 99999 is not a port" in capsys.readouterr().err


STATES = ("no key", "wrong", "plain")


def mismatched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, state: str) -> tuple[Path, str]:
    """A store, and the environment set, for ``state``; the message :func:`crypto.mismatch` makes for it."""
    db = tmp_path / f"{state.replace(' ', '-')}.db"
    monkeypatch.delenv(crypto.KEY_FILE, raising=False)
    if state != "plain":
        monkeypatch.setenv(crypto.KEY_FILE, str(key_file(tmp_path)))
    fill(db)[0].close()
    monkeypatch.delenv(crypto.KEY_FILE, raising=False)
    if state != "no key":
        monkeypatch.setenv(crypto.KEY_FILE, str(key_file(tmp_path, b"another key 0451" if state == "wrong" else KEY)))
    return db, str(crypto.mismatch(db, state, crypto.configured(db)))


# Every command that opens a store (encrypt and decrypt where the state is not theirs to refuse otherwise).
COMMAND_LINES = [["keys", "list"], ["remember", "a new note"], ["recall", "green tea"], ["list"], ["show", "0123abcd"],
                 ["forget", "0123abcd"], ["supersede", "0123abcd", "new text"], ["stats"], ["reindex"], ["consolidate"],
                 ["doctor"], ["export"], ["import", "-"], ["ui", "--no-browser"]]
ONLY = {"no key": [["encrypt"], ["decrypt"]], "wrong": [["decrypt"]], "plain": []}


@pytest.mark.parametrize("state", STATES)
def test_every_command_and_hook_says_a_key_mismatch_in_the_one_wording(tmp_path, monkeypatch, capsys, state):
    """The message is :func:`crypto.mismatch`'s, whole, on stderr; exit 1 or 2; the file unchanged."""
    import io

    db, says = mismatched(tmp_path, monkeypatch, state)
    before = file_bytes(db)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    for line in COMMAND_LINES + ONLY[state]:
        assert cli.main([*line, "--db", str(db)]) in (1, 2), line
        err = capsys.readouterr().err
        assert says in err, (line, err)
        assert KEY.decode() not in err and KEY.hex() not in err
    for event in ("SessionStart", "PostToolUse"):
        hook_input = json.dumps({"session_id": "s1", "transcript_path": str(tmp_path / "t.jsonl"), "cwd": "/x"})
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(hook_input.encode())))
        assert cli.main(["hook", "claude-code", event, "--db", str(db)]) == 1
        captured = capsys.readouterr()
        assert says in captured.err and captured.out == "", (event, captured)
    assert file_bytes(db) == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(db.name)) == [db.name]


def test_the_stdio_and_http_servers_say_a_key_mismatch_in_the_one_wording(tmp_path, monkeypatch):
    """:func:`crypto.mismatch`'s message: a server given no key for an encrypted file stops at start with
    it on stderr (exit 2); over stdio a tool's error and the server's stderr carry it; over HTTP the client
    gets 503 (the team server names no path to a caller it cannot authenticate: the keys are in the
    store) and the server's log the message."""
    import anyio
    from conftest import SERVE, server_env
    from httpwire import HttpServer
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    import threading

    for state in STATES:
        (tmp_path / state).mkdir()
    stores = {state: mismatched(tmp_path / state, monkeypatch, state) for state in STATES}
    keys = {state: str(key_file(tmp_path / state, b"another key 0451" if state == "wrong" else KEY))
            for state in ("wrong", "plain")}
    monkeypatch.delenv(crypto.KEY_FILE)
    before = {state: file_bytes(db) for state, (db, _) in stores.items()}
    # All three at once (each process starts in about a second, more on a loaded machine).
    started = subprocess.Popen(SERVE, env=server_env(stores["no key"][0]), stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    servers: list[HttpServer] = []
    starting = threading.Thread(target=lambda: servers.append(
        HttpServer(stores["plain"][0], ready=False, MEMVAULT_KEY_FILE=keys["plain"])))
    starting.start()
    log_path = tmp_path / "stdio.log"

    async def over_stdio() -> tuple[bool, str]:
        params = StdioServerParameters(command=SERVE[0], args=SERVE[1:],
                                       env=server_env(stores["wrong"][0], MEMVAULT_KEY_FILE=keys["wrong"]))
        with log_path.open("w") as log:
            async with Client(stdio_client(params, errlog=log)) as c:
                result = await c.call_tool("recall", {"query": "green tea"})
        return bool(result.is_error), result.content[0].text

    try:
        is_error, text = anyio.run(over_stdio)
        out, err = started.communicate(timeout=60)
        starting.join(60)
        says = stores["wrong"][1]
        assert is_error and says in text and says in log_path.read_text()
        assert started.returncode == 2 and stores["no key"][1] in err and out == ""
        answer = servers[0].post("mv_not_a_key", {"jsonrpc": "2.0", "id": 1, "method": "ping"})
        assert answer.status_code == 503 and answer.json()["error"]["data"]["error"] == "database_unavailable"
        assert stores["plain"][1] in servers[0].log()
        logs = servers[0].log() + log_path.read_text() + err
        assert KEY.decode() not in logs and KEY.hex() not in logs
    finally:
        for server in servers:
            server.close()
    assert {state: file_bytes(db) for state, (db, _) in stores.items()} == before


def unusable_key_file(folder: Path, kind: str) -> Path:
    """A key file that cannot give a key, of ``kind``."""
    path = folder / f"key-{kind}"
    if kind == "folder":
        path.mkdir(mode=0o700)
        return path
    if kind != "missing":
        content = {"empty": b"", "a line end only": b"\n", "white space": b"  \t \r\n"}.get(kind, KEY)
        path.write_bytes(content)
        path.chmod({"group-readable": 0o640, "world-readable": 0o604, "unreadable": 0o000}.get(kind, 0o600))
    if kind == "another user's":
        os.chown(path, 4242, -1)
    return path


KEY_FILE_FAULTS = [("empty", "is empty: write the key into it"), ("a line end only", "is empty"),
                   ("white space", "holds only white space"), ("folder", "is a folder; give the file holding"),
                   ("missing", "cannot be read: No such file"), ("group-readable", "has mode 640, readable by others"),
                   ("world-readable", "has mode 604, readable by others"), ("unreadable", "cannot be read: Permission"),
                   ("another user's", "belongs to another user (uid 4242)")]


@pytest.mark.parametrize(("kind", "says"), KEY_FILE_FAULTS, ids=[kind for kind, _ in KEY_FILE_FAULTS])
def test_a_key_file_that_cannot_give_a_key_is_refused_naming_it_and_nothing_is_created(
        tmp_path, monkeypatch, capsys, kind, says):
    if kind == "unreadable" and os.geteuid() == 0:
        pytest.skip("root reads a file of mode 000")
    if kind == "another user's" and os.geteuid() != 0:
        pytest.skip("only root gives a file to another user")
    path = unusable_key_file(tmp_path, kind)
    monkeypatch.setenv(crypto.KEY_FILE, str(path))
    db = tmp_path / "memvault.db"
    with pytest.raises(StoreError) as refused:
        Store(db, FakeEmbedder())  # type: ignore[arg-type]
    assert str(refused.value).startswith(f"MEMVAULT_KEY_FILE ({path}): {says}")
    assert cli.main(["remember", "a note", "--db", str(db)]) == 2
    assert f"MEMVAULT_KEY_FILE ({path}): {says}" in capsys.readouterr().err
    assert not db.exists()


@pytest.mark.parametrize("name", [crypto.KEY_FILE, crypto.KEYRING])
def test_a_key_setting_set_but_empty_means_no_key_and_a_new_plain_store_says_so(tmp_path, monkeypatch, caplog, name):
    """An empty VAR= unsets, as in shells and compose files; a store created plain then is said on stderr."""
    monkeypatch.setenv(name, " ")
    db = tmp_path / "memvault.db"
    store, _ = fill(db)
    store.close()
    assert crypto.is_plain(db) is True
    assert f"{name} is set but empty, which means no key: the new database {db} is plain" in caplog.text
    caplog.clear()
    Store(db, FakeEmbedder()).close()  # type: ignore[arg-type]
    monkeypatch.delenv(name)
    Store(tmp_path / "other.db", FakeEmbedder()).close()  # type: ignore[arg-type]
    assert "set but empty" not in caplog.text  # said once, at creation, and only with the setting there


class FailingKeyring(MemoryKeyring):
    """A keyring whose reads fail with ``error``."""

    def __init__(self, error: Exception) -> None:
        super().__init__()
        self.error = error

    def get_password(self, service: str, username: str) -> str | None:
        raise self.error


KEYRING_FAULTS = [
    ("no backend", lambda: keyring.backends.fail.Keyring(), "no OS keyring is available here (keyring found no "
                                                            "usable backend): use MEMVAULT_KEY_FILE instead"),
    ("no entry", MemoryKeyring, "the OS keyring has no key for service 'memvault', name '{db}': `keyring set"),
    ("empty entry", lambda: entry(""), "the OS keyring's entry (service 'memvault', name '{db}') is empty"),
    ("white space entry", lambda: entry(" \n"), "the OS keyring's entry (service 'memvault', name '{db}') is empty"),
    ("locked", lambda: FailingKeyring(keyring.errors.KeyringLocked(f"locked {KEY.decode()}")),
     "the OS keyring (FailingKeyring) failed to read the key (service 'memvault', name '{db}'): KeyringLocked"),
    ("backend error", lambda: FailingKeyring(RuntimeError(f"D-Bus said {KEY.decode()}")),
     "the OS keyring (FailingKeyring) failed to read the key (service 'memvault', name '{db}'): RuntimeError"),
]
DB_FOR_KEYRING = "memvault.db"


def entry(value: str) -> MemoryKeyring:
    ring = MemoryKeyring()
    ring.entries[("memvault", DB_FOR_KEYRING)] = value
    return ring


@pytest.mark.parametrize(("fault", "ring", "says"), KEYRING_FAULTS, ids=[f for f, _, _ in KEYRING_FAULTS])
def test_a_keyring_that_cannot_give_a_key_is_refused_and_nothing_is_created(
        tmp_path, monkeypatch, capsys, fault, ring, says):
    db = tmp_path / "memvault.db"
    monkeypatch.setattr(sys.modules[__name__], "DB_FOR_KEYRING", str(db))
    previous = keyring.get_keyring()
    keyring.set_keyring(ring())
    try:
        monkeypatch.setenv(crypto.KEYRING, "1")
        with pytest.raises(StoreError) as refused:
            Store(db, FakeEmbedder())  # type: ignore[arg-type]
        assert f"MEMVAULT_KEYRING=1: {says.format(db=db)}" in str(refused.value)
        assert cli.main(["remember", "a note", "--db", str(db)]) == 2
        captured = capsys.readouterr()
        assert f"MEMVAULT_KEYRING=1: {says.format(db=db)}" in captured.err
        shown = str(refused.value) + captured.err + captured.out
        assert KEY.decode() not in shown and KEY.hex() not in shown
        assert list(tmp_path.iterdir()) == []
    finally:
        keyring.set_keyring(previous)
