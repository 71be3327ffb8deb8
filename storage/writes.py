"""The part of ``Store`` that every write of a new memory shares, above any backend.

The embedding model's state: whether this process can make vectors
(:meth:`Writes.model_problem`), whether the database's recorded model lets them be
searched and stored (:meth:`Writes.recorded_model_problem`), the vectors of a new
memory and the claim of the model inside a write. Then the new memory itself: its
row (id, content hash, episode context), the refusal of credentials in what the
caller sent, and the fields a repeated memory did not apply (:func:`differences`).
``remembering`` and ``changes`` build on it; ``store`` assembles ``Store``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from . import validate
from .backend import Backend, NewRow, Reader, Writer
from .embeddings import Embedded, Embedder
from .errors import ModelUnavailable
from .ids import new_id
from .query import EPISODE_GAP_MS
from .records import Memory
from .secrets import refuse_secrets, scanned_fields


def differences(memory: Memory, given: dict[str, object]) -> tuple[str, ...]:
    """Names of the ``given`` fields (None: not given) whose value differs from ``memory``'s."""
    stored = {
        "kind": memory.kind, "tags": sorted(memory.tags), "importance": memory.importance,
        "source": memory.source, "observed_at": memory.observed_at, "expires_at": memory.expires_at,
    }
    return tuple(
        name for name, value in given.items()
        if value is not None and (sorted(value) if name == "tags" else value) != stored[name]  # type: ignore[call-overload]
    )


class Writes:
    """Model state and the making of new memories' rows and vectors (a part of ``Store``,
    whose constructor sets the attributes below)."""

    backend: Backend
    embedder: Embedder | None
    clock: Callable[[], int]
    allow_secrets: bool

    # -- the embedding model -------------------------------------------------------

    def vector_status(self) -> str | None:
        """None when vectors can be made and searched; otherwise the reason they cannot
        (the recorded model read in a read transaction of its own)."""
        problem = self.model_problem()
        if problem is not None:
            return problem
        with self.backend.read(None) as tx:
            return self.recorded_model_problem(tx)

    def model_problem(self) -> str | None:
        """Why this process cannot embed (no model, it cannot load, or another thread is
        preparing it), else None. Loads the model on first use: call it outside transactions."""
        if self.embedder is None:
            return "no embedding model configured: keyword search only"
        if self.embedder.preparing:
            return ("embedding model being prepared (the first start on this machine, about 10 s): keyword "
                    "search only, new memories get their vectors when it is ready")
        try:
            self.embedder.load()
        except ModelUnavailable as exc:
            return f"embedding model unavailable ({exc}): keyword search only, new memories wait for vectors"
        return None

    def recorded_model_problem(self, tx: Reader) -> str | None:
        """Why the database's vectors cannot be used with this process's (loaded) model, else None."""
        assert self.embedder is not None
        recorded = tx.model()
        if recorded is not None and recorded[0] != self.embedder.model_id and self.embedder.follow(recorded[0]):
            return (
                f"the database's vectors now come from model {recorded[0]} (`memvault reindex` moved them): "
                "this server switches to it; keyword search only for this call"
            )
        if recorded is not None and recorded[0] != self.embedder.model_id:
            return (
                f"the database's vectors come from model {recorded[0]} but this server runs "
                f"{self.embedder.model_id}: keyword search only until this server restarts with that model "
                "or `memvault reindex` is run"
            )
        if recorded is not None and recorded[1] != self.embedder.dim:
            return (
                f"the database's vectors have {recorded[1]} dimensions but model {recorded[0]} here makes "
                f"{self.embedder.dim}: keyword search only until `memvault reindex` is run"
            )
        return None

    def embed_memory(self, text: str, reason: str | None) -> tuple[Embedded | None, str | None]:
        """The vectors of ``text``'s windows (window 0 first), or None and why not
        (``reason``: :meth:`model_problem` or :meth:`vector_status`, read by the caller)."""
        if reason is not None:
            return None, reason
        assert self.embedder is not None
        return self.embedder.embed_as(self.embedder.windows(text)), None

    @staticmethod
    def writable_vectors(tx: Writer, made: Embedded | None) -> list[np.ndarray] | None:
        """Inside a write: ``made``'s vectors when vectors of their model may be stored
        (recording the model on first use), else None (the memory's vector stays pending)."""
        if made is None:
            return None
        return list(made.vectors) if tx.claim_model(made.model_id, len(made.vectors[0])) else None

    def _stored_vectors(
        self, tx: Writer, made: Embedded | None, degraded: str | None
    ) -> tuple[list[np.ndarray] | None, str | None]:
        """Inside a write: ``made``'s vectors when they may be stored (:meth:`writable_vectors`)
        and why not (``degraded``, or the database's other model) when they may not."""
        vectors = self.writable_vectors(tx, made)
        if made is not None and vectors is None:  # the database records another model
            degraded = self.recorded_model_problem(tx)
        return vectors, degraded

    # -- new rows --------------------------------------------------------------------

    def episode_context(
        self, tx: Reader, *, tenant: str, scope: str, kind: str, observed_at: int, supersedes: str | None
    ) -> int | None:
        """The seq of the episode a new memory continues, or None. An episode continues the
        latest current episode observed at most ``EPISODE_GAP_MS`` before it in the scope
        (its context; never the memory being superseded, whose stale words must not index
        the new one). Independent facts have none."""
        if kind != "episode":
            return None
        return tx.latest_episode(tenant, scope, observed_at - EPISODE_GAP_MS, observed_at, supersedes)

    def _new_row(
        self, tx: Writer, *, tenant: str, scope: str, kind: str, content: str, tags: list[str], importance: int,
        source: str | None, observed_at: int, expires_at: int | None, vectors: list[np.ndarray] | None,
        supersedes: str | None = None, idempotency_key: str | None = None,
    ) -> NewRow:
        """The row of a new memory (see :meth:`episode_context`); ``vectors`` from :meth:`writable_vectors`."""
        context = self.episode_context(
            tx, tenant=tenant, scope=scope, kind=kind, observed_at=observed_at, supersedes=supersedes
        )
        return NewRow(
            id=new_id(), tenant=tenant, scope=scope, kind=kind, content=content,
            content_hash=validate.content_hash(content), tags=tuple(tags), importance=importance, source=source,
            observed_at=observed_at, recorded_at=self.clock(), expires_at=expires_at, supersedes=supersedes,
            context_seq=context, idempotency_key=idempotency_key, vectors=vectors,
        )

    def _refuse_secrets(self, **fields: str | list[str] | None) -> None:
        """Scan every stored free-text field as the caller sent it, before any
        normalisation (lower-casing would hide a key's pattern), unless allowed."""
        if not self.allow_secrets:
            refuse_secrets(scanned_fields(fields))
