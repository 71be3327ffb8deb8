"""The memory tools as plain functions over a :class:`Store`.

Each takes the store and the caller's :class:`Caller` (tenant and default scope,
from server configuration, never from tool arguments), calls storage (which
validates) and shapes the result into the models of ``schemas``. Errors are
``memvault.storage.errors`` exceptions; the MCP layer turns them into ``isError``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from memvault.storage import validate
from memvault.storage.limits import GLOBAL_SCOPE, RECALL_MAX_CONTENT_CHARS
from memvault.storage.records import Hit, Memory
from memvault.storage.store import Store
from memvault.storage.timefmt import format_ms

from .schemas import ForgetResult, MemoryOut, RecallResult, RememberResult, Signals, SupersedeResult


@dataclass(frozen=True)
class Caller:
    """Who is calling: ``tenant`` (hard isolation) and ``scope`` (default grouping)."""

    tenant: str
    scope: str

    def scopes(self, scope: str | None) -> list[str]:
        """The scopes searched: ``scope`` alone if given, else the default plus ``global``.

        Raises:
            InvalidInput: ``scope`` is empty or too long.
        """
        if scope is not None:
            return [validate.scope(scope, self.scope)]
        return [self.scope, GLOBAL_SCOPE]


def memory_out(memory: Memory, score: float = 0.0, signals: Signals | None = None) -> MemoryOut:
    """Shape a stored memory for the wire (times as ISO-8601 UTC)."""
    return MemoryOut(
        id=memory.id,
        content=memory.content or "",
        kind=memory.kind,
        tags=list(memory.tags),
        importance=memory.importance,
        scope=memory.scope,
        source=memory.source,
        observed_at=format_ms(memory.observed_at) or "",
        recorded_at=format_ms(memory.recorded_at) or "",
        expires_at=format_ms(memory.expires_at),
        supersedes=memory.supersedes,
        superseded_by=memory.superseded_by,
        confirmations=memory.confirmations,
        last_confirmed_at=format_ms(memory.last_confirmed_at),
        score=score,
        signals=signals or Signals(),
    )


def _hit_out(hit: Hit) -> MemoryOut:
    s = hit.signals
    return memory_out(
        hit.memory,
        score=round(hit.score, 6),
        signals=Signals(
            keyword_rank=s.keyword_rank,
            keyword_score=None if s.keyword_score is None else round(s.keyword_score, 6),
            vector_rank=s.vector_rank,
            vector_similarity=None if s.vector_similarity is None else round(s.vector_similarity, 4),
        ),
    )


def remember(store: Store, caller: Caller, **args: object) -> RememberResult:
    """Store a memory (see ``Store.remember``); ``scope`` defaults to the caller's."""
    scope = args.pop("scope", None)
    scope = caller.scope if scope is None else scope
    outcome = store.remember(tenant=caller.tenant, scope=scope, **args)  # type: ignore[arg-type]
    return RememberResult(
        id=outcome.id,
        created=outcome.created,
        duplicate_of=outcome.duplicate_of,
        degraded=outcome.degraded,
        not_applied=list(outcome.not_applied),
    )


def recall(store: Store, caller: Caller, *, scope: str | None = None, **args: object) -> RecallResult:
    """Search memories (see ``Store.recall``) in the caller's scopes.

    The best memories are kept while their content adds up to at most
    ``RECALL_MAX_CONTENT_CHARS`` (the first is always kept: it is at most 8,000);
    ``truncated`` says when some were left out.
    """
    outcome = store.recall(tenant=caller.tenant, scopes=caller.scopes(scope), **args)  # type: ignore[arg-type]
    shown, used = [], 0
    for hit in outcome.hits:
        used += len(hit.memory.content or "")
        if used > RECALL_MAX_CONTENT_CHARS and shown:
            break
        shown.append(_hit_out(hit))
    return RecallResult(
        memories=shown,
        abstained=outcome.abstained,
        degraded=outcome.degraded,
        truncated=len(shown) < len(outcome.hits),
    )


def supersede(store: Store, caller: Caller, **args: object) -> SupersedeResult:
    """Replace a memory by a corrected one (see ``Store.supersede``)."""
    outcome = store.supersede(tenant=caller.tenant, **args)  # type: ignore[arg-type]
    return SupersedeResult(id=outcome.id, superseded_id=outcome.superseded_id, degraded=outcome.degraded)


def forget(store: Store, caller: Caller, **args: object) -> ForgetResult:
    """Delete a memory's content for real (see ``Store.forget``)."""
    outcome = store.forget(tenant=caller.tenant, **args)  # type: ignore[arg-type]
    return ForgetResult(
        id=outcome.id,
        forgotten=True,
        already_forgotten=outcome.already_forgotten,
        forgotten_ids=outcome.forgotten_ids,
        scrubbed=outcome.scrubbed,
    )


def memory_document(store: Store, caller: Caller, memory_id: str) -> str:
    """JSON for ``memory://memories/{id}``: the memory and its supersession chain.

    ``memory_id`` may be in any letter case or a unique prefix of 8+ characters.
    Shape: ``{"memory": {...}, "history": [{...}, ...]}`` with the chain oldest
    first; forgotten members appear as tombstones (``forgotten_at``, no content),
    expired ones as ``{"id", "expired_at"}``, without content.
    """
    memory = store.get(tenant=caller.tenant, id=memory_id)
    chain = store.history(tenant=caller.tenant, id=memory.id)
    now = store.clock()

    def doc(m: Memory) -> dict[str, object]:
        if m.forgotten_at is not None:
            return {"id": m.id, "forgotten_at": format_ms(m.forgotten_at), "forget_reason": m.forget_reason}
        if m.expires_at is not None and m.expires_at <= now:
            return {"id": m.id, "expired_at": format_ms(m.expires_at)}
        out = memory_out(m).model_dump(exclude={"score", "signals"})
        out["supersede_reason"] = m.supersede_reason
        return out

    target = next(m for m in chain if m.id == memory.id)
    return json.dumps({"memory": doc(target), "history": [doc(m) for m in chain]}, ensure_ascii=False, indent=2)
