"""The packaged model's two variants: the integer one for new stores, the de-quantised one
kept by stores it made until `memvault reindex`, and the derived file's cache."""

from __future__ import annotations

import numpy as np
import pytest

from memvault.storage import int8model, maintenance
from memvault.storage.embeddings import DEQUANTISED, INTEGER, VARIANT_NAMES, Embedder
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


def test_a_damaged_derived_file_is_built_again(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    embedder = Embedder()
    embedder.load()
    derived = int8model.cached(*_source())
    assert derived.is_relative_to(tmp_path)
    reference = embedder.embed(TEXTS[:2])
    derived.write_bytes(derived.read_bytes()[: 1000])  # a half-written file
    again = Embedder()
    assert np.allclose(again.embed(TEXTS[:2]), reference, atol=1e-6)
    assert int8model._intact(derived)


def test_an_unwritable_cache_builds_the_model_for_this_run(tmp_path, monkeypatch, caplog):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    embedder = Embedder()
    with caplog.at_level("WARNING"):
        embedder.load()
    assert embedder.variant == INTEGER and embedder.embed(["hello"]).shape == (1, 384)
    assert "cannot write the derived model" in caplog.text


def _source():
    """The packaged model file and its sha256."""
    from memvault.storage.embeddings import MODEL_SHA256

    path, _ = Embedder()._paths()
    return path, MODEL_SHA256
