"""Pending vectors are filled while a server runs, a failed model load is retried,
and a server filling vectors shuts down cleanly when its client goes away."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import apsw
import pytest
from conftest import SERVE, server_env
from mcp import Client

from memvault.server.app import build_server
from memvault.server.config import Config
from memvault.storage.embeddings import Embedder
from memvault.storage.errors import ModelUnavailable
from memvault.storage.maintenance import fill_pending
from memvault.storage.store import Store

pytestmark = pytest.mark.slow


def pending(db: Path) -> int:
    conn = apsw.Connection(str(db), flags=apsw.SQLITE_OPEN_READONLY)
    conn.set_busy_timeout(10_000)  # a reader may meet the server's checkpoint of the WAL (busy machine)
    try:
        return conn.execute("SELECT count(*) FROM memories WHERE vector_pending = 1").fetchone()[0]
    finally:
        conn.close()


def remember_without_model(db: Path, broken: Path, text: str) -> None:
    """Another process, whose model folder is broken, stores a memory (its vector pending)."""
    run = subprocess.run([sys.executable, "-m", "memvault.server", "remember", "--json", text],
                         env=server_env(db, MEMVAULT_MODEL_DIR=str(broken)), capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0 and '"degraded"' in run.stdout, run.stderr


async def wait_until_filled(db: Path) -> None:
    import anyio

    with anyio.fail_after(90):  # a bound, not a measurement: the server fills every 0.2 s
        while pending(db):
            await anyio.sleep(0.1)


@pytest.mark.anyio
async def test_a_running_server_fills_vectors_another_process_left_pending(db_path, tmp_path, one_model):
    broken = tmp_path / "broken-model"
    broken.mkdir()
    (broken / "model.onnx").write_bytes(b"not a model")
    (broken / "tokenizer.json").write_text("{}")
    remember_without_model(db_path, broken, "The staging database is db-stg-03 in rack 4")
    assert pending(db_path) == 1
    async with Client(build_server(Config(db=db_path, fill_interval_s=0.2))) as c:
        await wait_until_filled(db_path)  # at start-up
        remember_without_model(db_path, broken, "Quarterly invoices are archived in the fin-archive bucket")
        await wait_until_filled(db_path)  # while running, without a restart
        r = await c.call_tool("recall", {"query": "where are the quarterly invoices archived"})
        top = r.structured_content["memories"][0]
        assert "fin-archive" in top["content"] and top["signals"]["vector_similarity"] is not None
        assert r.structured_content["degraded"] is None


def test_a_model_that_failed_to_load_is_loaded_once_it_is_there(tmp_path):
    model_dir = tmp_path / "model"
    model_dir.mkdir()
    embedder = Embedder(model_dir, retry_after_s=3600)
    with pytest.raises(ModelUnavailable, match="model file missing"):
        embedder.load()
    packaged, tokenizer = Embedder()._paths()
    os.symlink(packaged, model_dir / "model.onnx")
    os.symlink(tokenizer, model_dir / "tokenizer.json")
    with pytest.raises(ModelUnavailable, match=r"model file missing.*next attempt to load it in \d+ s"):
        embedder.load()  # within the back-off: not tried again yet, and the message says when it will be
    embedder.retry_after_s = 0
    embedder.load()
    assert embedder.error is None and embedder.embed(["works"]).shape == (1, 384)


def test_a_store_whose_model_comes_back_makes_vectors_again(db_path, tmp_path):
    model_dir = tmp_path / "model"
    model_dir.mkdir()
    store = Store(db_path, Embedder(model_dir, retry_after_s=0))
    try:
        first = store.remember(tenant="t", scope="s", content="Deploys need two approvals")
        assert first.degraded and "model file missing" in first.degraded
        packaged, tokenizer = Embedder()._paths()
        os.symlink(packaged, model_dir / "model.onnx")
        os.symlink(tokenizer, model_dir / "tokenizer.json")
        second = store.remember(tenant="t", scope="s", content="Hotfixes need one approval")
        assert store.get(tenant="t", id=second.id).vector_pending is False
        # the first has no vector yet: the check of the second did not compare them, and says so
        assert second.degraded is not None and second.degraded.startswith("1 memory of this scope has no vector yet")
        fill_pending(store)
        third = store.remember(tenant="t", scope="s", content="Rollbacks need no approval")
        assert third.degraded is None
    finally:
        store.close()


def test_closing_stdin_while_vectors_are_being_filled_exits_cleanly(db_path, tmp_path):
    store = Store(db_path, None)  # no model: every memory's vector is pending
    words = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike".split()
    for i in range(1000):
        store.remember(tenant="t", scope="s", content=f"note {i}: {words[i % 13]} {words[i * 7 % 13]} {i * 31}")
    store.close()
    for attempt in range(2):
        before = pending(db_path)
        assert before > 0, "too few pending vectors left to test a shutdown mid-fill"
        log = tmp_path / f"server-{attempt}.log"
        with open(log, "w") as err:
            proc = subprocess.Popen(SERVE, env=server_env(db_path), stdin=subprocess.PIPE,
                                    stdout=subprocess.DEVNULL, stderr=err)
            deadline = time.monotonic() + 120
            while pending(db_path) == before and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)  # wait until the first batch is written: filling is under way
            assert proc.stdin is not None
            proc.stdin.close()
            code = proc.wait(timeout=60)
        text = log.read_text()
        assert code == 0, (code, text)
        assert "Traceback" not in text and "Error" not in text, text
        assert pending(db_path) < before
