"""Shared fixtures: stores on temporary files, a fake and the real embedder, helpers."""

from __future__ import annotations

import glob
import hashlib
import os
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from memvault.storage.embeddings import Embedder
from memvault.storage.store import Store

REPO = Path(__file__).resolve().parent.parent
LOCOMO = REPO.parent / "shared" / "eval" / "locomo"


class FakeEmbedder:
    """Deterministic bag-of-words vectors (hashed words, 64 dims) for fast unit tests.

    Same interface as :class:`Embedder`; texts sharing words get similar vectors.
    """

    model_id = "fake-bow@1"
    dim = 64
    error = None

    def load(self) -> None:
        return None

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                out[i, int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dim] += 1.0
            norm = np.linalg.norm(out[i])
            out[i] = out[i] / norm if norm else out[i]
            if not norm:
                out[i, 0] = 1.0
        return out

    def count_tokens(self, text: str) -> int:
        return len(re.findall(r"\w+|[^\w\s]", text))


class Clock:
    """An injectable clock in ms since the epoch; ``advance`` moves it."""

    def __init__(self, start_ms: int = 1_767_225_600_000) -> None:  # 2026-01-01T00:00:00Z
        self.now = start_ms

    def __call__(self) -> int:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += int(seconds * 1000)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "memvault.db"


@pytest.fixture
def store(db_path: Path, clock: Clock):
    s = Store(db_path, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    yield s
    s.close()


@pytest.fixture(scope="session")
def real_embedder() -> Embedder:
    embedder = Embedder()
    embedder.load()
    return embedder


@pytest.fixture
def real_store(db_path: Path, real_embedder: Embedder):
    s = Store(db_path, real_embedder)
    yield s
    s.close()


def file_bytes(db: Path) -> bytes:
    """The bytes of the database and its -wal and -shm files, concatenated."""
    return b"".join(Path(p).read_bytes() for p in sorted(glob.glob(f"{db}*")))


def server_env(db: Path, **extra: str) -> dict[str, str]:
    """Environment for a memvault subprocess on ``db``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMVAULT_")}
    env["MEMVAULT_DB"] = str(db)
    env.update(extra)
    return env


SERVE = [sys.executable, "-m", "memvault.server", "serve"]
