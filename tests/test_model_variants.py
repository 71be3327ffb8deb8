"""The packaged model's two variants: the integer one for new stores, the de-quantised one
kept by stores it made until `memvault reindex`, and the derived file's cache."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np
import pytest

from memvault.storage import int8model, maintenance
from memvault.storage.embeddings import DEQUANTISED, INTEGER, MODEL_SHA256, VARIANT_NAMES, Embedder
from memvault.storage.store import Store

pytestmark = pytest.mark.slow
TEXTS = [
    "The staging deploy failed because the TLS certificate had expired.",
    "I prefer tabs over spaces in Go code.",
    "Dana owns the billing service; page her for invoices.",
    "vim",
    "The nightly backup job writes to s3://acme-backups and keeps 30 days of snapshots. " * 6,
]
QUESTION = "why did the rollout to the test environment break"


def dequantised() -> Embedder:
    embedder = Embedder()
    embedder.follow(f"{VARIANT_NAMES[DEQUANTISED]}@anything")
    return embedder


def test_integer_variant_embeds_like_the_packaged_model(real_embedder):
    assert real_embedder.variant == INTEGER
    old = dequantised()
    fast, slow = real_embedder.embed(TEXTS), old.embed(TEXTS)
    assert fast.shape == slow.shape == (len(TEXTS), 384)
    assert np.allclose(np.linalg.norm(fast, axis=1), 1.0, atol=1e-5)
    assert (fast * slow).sum(axis=1).min() >= 0.97
    assert real_embedder.model_id != old.model_id
    assert real_embedder.model_id.split("@")[1] == old.model_id.split("@")[1]  # one packaged file


@pytest.mark.parametrize("variant", [INTEGER, DEQUANTISED])
def test_a_text_gets_the_same_vector_alone_and_among_others(variant):
    embedder = Embedder()
    embedder.follow(f"{VARIANT_NAMES[variant]}@anything")
    alone = np.stack([embedder.embed([text])[0] for text in TEXTS])
    together = embedder.embed(TEXTS)
    assert (alone * together).sum(axis=1).min() >= 0.99999


def test_a_reindex_with_the_same_model_gives_the_same_similarities(db_path):
    store = Store(db_path, Embedder())
    try:
        for text in TEXTS:  # one by one, as remember embeds them
            store.remember(tenant="t", scope="s", content=text)

        questions = [QUESTION, "which editor settings do I like", "who handles invoices", "where do backups go"]

        def similarities() -> dict[tuple[str, str], float]:
            return {(q, h.memory.id): h.signals.vector_similarity  # type: ignore[misc]
                    for q in questions for h in store.recall(tenant="t", query=q, scopes=["s"], limit=10).hits}

        before = similarities()
        assert maintenance.reindex(store) == len(TEXTS)  # all of them again, in batches
        after = similarities()
        assert before.keys() == after.keys() and len(before) >= len(questions)
        assert all(abs(before[k] - after[k]) < 1e-5 for k in before)
    finally:
        store.close()


def test_a_store_keeps_the_variant_that_made_its_vectors_until_reindex(db_path):
    made = Store(db_path, dequantised())
    try:
        ids = [made.remember(tenant="t", scope="s", content=text).id for text in TEXTS[:3]]
    finally:
        made.close()
    reopened = Store(db_path, Embedder())  # a new process: the integer variant by default
    try:
        assert reopened.embedder.variant == DEQUANTISED and reopened.vector_status() is None
        hits = reopened.recall(tenant="t", query=QUESTION, scopes=["s"]).hits
        assert hits and hits[0].memory.id == ids[0] and hits[0].signals.vector_rank == 1
        assert maintenance.reindex(reopened) == 3
        stats = maintenance.stats(reopened)
        assert stats["model_id"].startswith(VARIANT_NAMES[INTEGER] + "@") and stats["vectors_pending"] == 0
        hits = reopened.recall(tenant="t", query=QUESTION, scopes=["s"]).hits
        assert hits[0].memory.id == ids[0] and hits[0].signals.vector_rank == 1
    finally:
        reopened.close()
    again = Store(db_path, Embedder())
    try:
        assert again.embedder.variant == INTEGER and again.vector_status() is None
    finally:
        again.close()


def test_a_running_store_follows_a_reindex_made_by_another_process(db_path):
    running = Store(db_path, dequantised())
    try:
        first = running.remember(tenant="t", scope="s", content=TEXTS[0]).id
        other = Store(db_path, Embedder())  # `memvault reindex` in another process
        try:
            assert maintenance.reindex(other) == 1
        finally:
            other.close()
        switching = running.recall(tenant="t", query=QUESTION, scopes=["s"])
        assert "switches to it" in (switching.degraded or "")
        after = running.recall(tenant="t", query=QUESTION, scopes=["s"])
        assert after.degraded is None and after.hits[0].memory.id == first and after.hits[0].signals.vector_rank == 1
        added = running.remember(tenant="t", scope="s", content=TEXTS[1])
        assert added.degraded is None
        stats = maintenance.stats(running)
        assert stats["model_id"].startswith(VARIANT_NAMES[INTEGER] + "@") and stats["vectors_pending"] == 0
    finally:
        running.close()


def test_vectors_made_before_a_switch_are_never_stored_under_the_new_model(db_path):
    old = dequantised()
    made = old.embed_as(TEXTS[:1])
    store = Store(db_path, Embedder())
    try:
        store.remember(tenant="t", scope="s", content=TEXTS[1])  # records the integer variant
        with store.backend.write(None) as tx:
            assert Store.writable_vectors(tx, made) is None  # left pending, filled by the current model
            assert Store.writable_vectors(tx, store.embedder.embed_as(TEXTS[:1])) is not None
    finally:
        store.close()


def test_a_damaged_derived_file_is_built_again(tmp_path, monkeypatch, real_embedder):
    reference = real_embedder.embed(TEXTS[:2])
    made = int8model.cached_path(MODEL_SHA256)  # this machine's, derived before the tests (conftest)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    derived = int8model.cached_path(MODEL_SHA256)
    derived.parent.mkdir(parents=True)
    for file in (made, made.with_name(made.name + ".sha256")):  # a copy, not a derivation of its own
        shutil.copy2(file, derived.parent / file.name)
    assert derived.is_relative_to(tmp_path) and int8model.intact(derived)
    derived.write_bytes(derived.read_bytes()[:1000])  # a half-written file
    assert np.allclose(Embedder().embed(TEXTS[:2]), reference, atol=1e-6)
    assert int8model.intact(derived)


def test_what_a_derivation_stopped_midway_left_is_removed_by_the_next(tmp_path, monkeypatch):
    """trial 48: a first start stopped while deriving left 53 MB in the cache for good. Another
    target's derivation folder (another onnxruntime version's, maybe in progress) is left alone."""
    target = tmp_path / "models" / "minilm-x-ort1.0-optimised.onnx"
    target.parent.mkdir()
    left = target.parent / (target.name + ".deriving-abc123")
    left.mkdir()
    (left / "folded.onnx").write_bytes(b"x" * 1000)
    other = target.parent / "minilm-x-ort2.0-optimised.onnx.deriving-def456"
    other.mkdir()
    derived = []

    def fake_derive(source, into):  # type: ignore[no-untyped-def]
        derived.append(sorted(p.name for p in into.parent.iterdir()))
        into.write_bytes(b"model")
        into.with_name(into.name + ".sha256").write_text(int8model.file_sha256(into) + "\n")

    monkeypatch.setattr(int8model, "derive", fake_derive)
    assert int8model.build(tmp_path / "source.onnx", target) == target
    assert not left.exists() and other.is_dir() and left.name not in derived[0]


def test_an_unwritable_cache_derives_the_model_in_memory_and_leaves_nothing(tmp_path, monkeypatch, caplog):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    embedder = Embedder()
    with caplog.at_level("WARNING"):
        embedder.load()
    assert embedder.variant == INTEGER and embedder.embed(["hello"]).shape == (1, 384)
    assert "cannot write the derived model" in caplog.text
    assert list(scratch.iterdir()) == []


def test_calls_during_the_first_derivation_do_not_wait_for_it(tmp_path, monkeypatch, db_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    store = Store(db_path, Embedder())
    try:
        loading = threading.Thread(target=store.warm_up)  # what a server starts with
        loading.start()
        deadline = time.monotonic() + 30
        while not store.embedder.preparing and time.monotonic() < deadline:
            time.sleep(0.01)
        assert store.embedder.preparing
        early = store.remember(tenant="t", scope="s", content=TEXTS[0])
        assert "being prepared" in (early.degraded or "")
        recalled = store.recall(tenant="t", query=QUESTION, scopes=["s"])
        assert "being prepared" in (recalled.degraded or "")
        loading.join()
        assert maintenance.fill_pending(store) == 1
        assert store.recall(tenant="t", query=QUESTION, scopes=["s"]).hits[0].signals.vector_rank == 1
    finally:
        store.close()


def test_processes_starting_together_derive_the_model_once(tmp_path):
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    code = "from memvault.storage.embeddings import Embedder; Embedder().load()"
    procs = [subprocess.Popen([sys.executable, "-c", code], env=env, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    logs = [p.communicate(timeout=300)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0]
    assert sum(log.count("preparing the embedding model's integer variant") for log in logs) == 1
