"""Test doubles shared by the tests and by the helper processes they start."""

from __future__ import annotations

import hashlib
import re

import numpy as np

from memvault.storage.embeddings import Embedded


class FakeEmbedder:
    """Deterministic bag-of-words vectors (hashed words, 64 dims) for fast unit tests.

    Same interface as :class:`Embedder`; texts sharing words get similar vectors.
    """

    model_id = "fake-bow@1"
    dim = 64
    error = None
    preparing = False

    def load(self) -> None:
        return None

    def follow(self, model_id: str | None) -> bool:
        return False

    def embed_as(self, texts: list[str]) -> Embedded:
        return Embedded(self.model_id, self.embed(texts))

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

    def windows(self, text: str) -> list[str]:
        """Like ``Embedder.windows``, with windows of 40 words overlapping by 10."""
        words = text.split()
        return [text] + [" ".join(words[i : i + 40]) for i in range(30, len(words) - 10, 30)]


class Clock:
    """An injectable clock in ms since the epoch; ``advance`` moves it."""

    def __init__(self, start_ms: int = 1_767_225_600_000) -> None:  # 2026-01-01T00:00:00Z
        self.now = start_ms

    def __call__(self) -> int:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += int(seconds * 1000)
