"""Forget tells the truth about the file bytes, and a pending scrub survives a crash;
no credential is stored in any free-text field (issue 7, items 16 and 17)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import apsw
import pytest
from conftest import REPO, file_bytes
from fakes import FakeEmbedder

from memvault.storage import maintenance
from memvault.storage.sqlite import db
from memvault.storage.sqlite import backend as sqlite_backend
from memvault.storage.errors import InvalidInput
from memvault.storage.secrets import find_secrets
from memvault.storage.store import Store

MARKER = "plumcrate6621"


@pytest.fixture
def quick_store(db_path, monkeypatch):
    """A store whose busy waits are short, that gives up a blocked scrub soon and retries it at every write."""
    monkeypatch.setattr(db, "BUSY_TIMEOUT_MS", 200)
    monkeypatch.setattr(maintenance, "SCRUB_RETRY_S", 0.0)
    monkeypatch.setattr(sqlite_backend, "SCRUB_ATTEMPTS", 2)  # each blocked try waits for the held lock
    s = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    yield s
    s.close()


def scrub_due(path: Path) -> str | None:
    """The pending-scrub record, read through a plain connection (test helper)."""
    conn = apsw.Connection(str(path))
    try:
        row = conn.execute("SELECT value FROM settings WHERE key = 'scrub_due'").fetchone()
        return row[0] if row else None
    finally:
        conn.close()


class Holder:
    """Another connection that takes the write lock (or a read snapshot) when told to."""

    def __init__(self, path: Path, sql: str) -> None:
        self.conn = apsw.Connection(str(path))
        self.sql = sql

    def take(self) -> None:
        self.conn.execute(self.sql)
        self.conn.execute("SELECT count(*) FROM memories").fetchall()

    def release(self) -> None:
        self.conn.execute("COMMIT")
        self.conn.close()


@pytest.mark.parametrize("lock", ["BEGIN IMMEDIATE", "BEGIN"])  # a writer or a reader of an older snapshot
def test_forget_succeeds_and_says_unscrubbed_when_another_connection_holds_the_file(quick_store, db_path, monkeypatch, lock):
    out = quick_store.remember(tenant="a", scope="s", content=f"The gate code is {MARKER}")
    other = Holder(db_path, lock)
    real_scrub = sqlite_backend.scrub

    def scrub_after_the_lock_is_taken(conn, *args):
        other.take()  # the lock arrives between the commit and the scrub
        monkeypatch.setattr(sqlite_backend, "scrub", real_scrub)
        return real_scrub(conn, *args)

    monkeypatch.setattr(sqlite_backend, "scrub", scrub_after_the_lock_is_taken)
    result = quick_store.forget(tenant="a", id=out.id)
    assert result.forgotten_ids == [out.id] and result.scrubbed is False
    assert quick_store.upkeep.scrub() is False  # (waits for the background try, and tries once more)
    assert quick_store.get(tenant="a", id=out.id).content is None
    assert MARKER.encode() in file_bytes(db_path)  # which is what scrubbed: false said
    assert maintenance.stats(quick_store)["scrub_pending"] is True
    assert any("scrub" in p for p in maintenance.check(quick_store))
    if lock == "BEGIN":  # (a held write lock stops the retry's own transaction: busy, as it should)
        retry = quick_store.forget(tenant="a", id=out.id)  # still held: must not claim success
        assert retry.already_forgotten and retry.scrubbed is False
        assert quick_store.upkeep.scrub() is False
    other.release()
    assert quick_store.upkeep.scrub() is True and MARKER.encode() not in file_bytes(db_path)
    assert scrub_due(db_path) is None and maintenance.check(quick_store) == []


def test_a_pending_scrub_is_finished_after_the_next_write(quick_store, db_path):
    out = quick_store.remember(tenant="a", scope="s", content=f"Locker {MARKER}")
    other = Holder(db_path, "BEGIN")
    other.take()
    assert quick_store.forget(tenant="a", id=out.id).scrubbed is False
    assert quick_store.upkeep.scrub() is False  # the reader's snapshot keeps the -wal
    other.release()
    assert MARKER.encode() in file_bytes(db_path)
    quick_store.remember(tenant="a", scope="s", content="An unrelated later memory")
    quick_store.close()  # waits for the background scrub that the write started
    assert MARKER.encode() not in file_bytes(db_path) and scrub_due(db_path) is None


CRASH_IN_SCRUB = textwrap.dedent(
    """
    import os, signal, sys
    sys.path.insert(0, sys.argv[2])
    from fakes import FakeEmbedder
    from memvault.storage import store as store_module
    from memvault.storage.sqlite import backend as sqlite_backend
    store = store_module.Store(sys.argv[1], FakeEmbedder())
    out = store.remember(tenant="a", scope="s", content="The alarm code is {marker}")
    sqlite_backend.scrub = lambda *args: os.kill(os.getpid(), signal.SIGKILL)
    store.forget(tenant="a", id=out.id)
    store.close()  # waits for the background scrub, which is killed
    """
).format(marker=MARKER)


@pytest.mark.slow
def test_a_crash_between_forget_and_scrub_leaves_the_duty_and_start_up_finishes_it(db_path):
    crashed = subprocess.run([sys.executable, "-c", CRASH_IN_SCRUB, str(db_path), str(REPO / "tests")],
                             capture_output=True, text=True, timeout=120)
    assert crashed.returncode == -9, crashed.stderr
    assert MARKER.encode() in file_bytes(db_path)  # left in the -wal by the crash
    assert scrub_due(db_path) is not None  # (closing this helper connection checkpoints the -wal)
    Store(db_path, FakeEmbedder()).close()  # type: ignore[arg-type]  # (close waits for the scrub opening started)
    assert MARKER.encode() not in file_bytes(db_path) and scrub_due(db_path) is None
    reopened = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    try:
        assert maintenance.check(reopened) == [] and maintenance.stats(reopened)["forgotten"] == 1
        assert reopened.upkeep.run_due().scrub_pending is False
    finally:
        reopened.close()


# -- 17: credentials in any stored field -------------------------------------------------------------

# Made-up values in each provider's published format (prefix, alphabet, length).
TOKENS = {
    "AWS access key": "AKIAQYLPMN5HFIQR7BZX",
    "Anthropic API key": "sk-ant-api03-" + "Jq7xT2mN9vLp4Rk8Wd3Yh6Bc1Zf5Gs0Ua" * 2 + "x9Pq2Rr8Lw-AA",
    "OpenAI project key": "sk-proj-" + "Hk4nR8tQ2wLm6Vp9Xc3Zb7Jd1Fg5Ys0Ua8Ei4Ko" * 3,
    "Google API key": "AIzaSyD4kR9tQ2wLm6Vp9Xc3Zb7Jd1Fg5Ys0Ua8",
    "Hugging Face token": "hf_kRtQwLmVpXcZbJdFgYsUaEiKoNhGbTyPlMnA",
    "npm access token": "npm_4kR9tQ2wLm6Vp9Xc3Zb7Jd1Fg5Ys0Ua8Ei4K",
    "GitHub fine-grained token": "github_pat_11AQZK7LI0" + "k4R9tQ2wLm6V" + "_" + "p9Xc3Zb7Jd1Fg5Ys0Ua8Ei4KoNhGbTyPlMnAq2Ws8Ed6Rf4Tg7Yh1Uj3Ik5Ol9P",
}


@pytest.mark.parametrize("kind", sorted(TOKENS))
def test_each_key_format_is_detected(kind):
    assert [t for t, _ in find_secrets(f"use {TOKENS[kind]} for the build")[0]] == [kind]


def remember_call(token: str) -> list[tuple[str, dict[str, object]]]:
    base = {"tenant": "a", "scope": "s", "content": "harmless content"}
    return [
        ("content", {**base, "content": f"the key is {token}"}),
        ("tags[1]", {**base, "tags": ["ok", token]}),
        ("scope", {**base, "scope": token}),
        ("source", {**base, "source": f"pasted {token}"}),
        ("idempotency_key", {**base, "idempotency_key": token}),
    ]


@pytest.mark.parametrize("kind", sorted(TOKENS))
def test_a_credential_is_refused_in_every_stored_field(store, kind):
    token = TOKENS[kind]
    for field, kwargs in remember_call(token):
        with pytest.raises(InvalidInput) as err:
            store.remember(**kwargs)
        assert err.value.field == field and token not in str(err.value)
    kept = store.remember(tenant="a", scope="s", content="harmless content")
    with pytest.raises(InvalidInput) as err:
        store.supersede(tenant="a", id=kept.id, content="new content", reason=f"rotated {token}")
    assert err.value.field == "reason"
    with pytest.raises(InvalidInput) as err:
        store.forget(tenant="a", id=kept.id, reason=f"leaked {token}")
    assert err.value.field == "reason"
    assert store.get(tenant="a", id=kept.id).content == "harmless content"  # nothing forgotten
    assert maintenance.stats(store)["current"] == 1 and maintenance.stats(store)["forgotten"] == 0


def test_a_key_stored_as_a_tag_is_scanned_before_lower_casing(store):
    for tag in ("AKIAQYLPMN5HFIQR7BZX", "AIzaSyD4kR9tQ2wLm6Vp9Xc3Zb7Jd1Fg5Ys0Ua8"):
        as_sent, lower_cased = find_secrets(tag, tag.lower())
        assert as_sent and not lower_cased
        with pytest.raises(InvalidInput, match=r"tags\[0\]"):
            store.remember(tenant="a", scope="s", content="tagged", tags=[tag])


@pytest.mark.parametrize(
    "text",
    [
        "Connect with postgres://USER:PASSWORD@HOST/DB",
        "mysql://root:PASSWORD@localhost:3306/app is the template",
        "the URL shape is redis://user:password@cache:6379/0",
        "amqp://guest:xxxxx@rabbit/vhost in the docs",
        "set password = DB_PASSWORD in the env file",
    ],
)
def test_placeholders_are_not_credentials(store, text):
    assert store.remember(tenant="a", scope="s", content=text).created


@pytest.mark.parametrize(
    "text", ["postgres://admin:Tr0ub4dor3x@db.example.com/app", "mysql://root:hunter2@10.0.0.5/app", 'password = "s3cr3t-v4lue"']
)
def test_real_passwords_in_the_same_shapes_are_still_refused(store, text):
    with pytest.raises(InvalidInput, match="credential"):
        store.remember(tenant="a", scope="s", content=text)


def test_the_scanner_configures_again_after_another_user_of_detect_secrets():
    """memvault's detect-secrets settings stay applied between scans; a library that
    replaces them (here with every default plugin, which flags hashes) does not change
    what memvault finds next."""
    from detect_secrets.settings import default_settings

    commit = "the fix is in commit 3f786850e387550fdab836ed7e6dc881de23001b"
    assert find_secrets(commit, f"use {TOKENS['Hugging Face token']}") == [[], [("Hugging Face token", 1)]]
    with default_settings():
        from detect_secrets.core.scan import scan_line

        assert list(scan_line(commit))  # the generic high-entropy plugin memvault leaves out
    assert find_secrets(commit, f"use {TOKENS['Hugging Face token']}") == [[], [("Hugging Face token", 1)]]
