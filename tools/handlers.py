"""The memory tools as plain functions over a :class:`Store`.

Each takes the store and the caller's :class:`Caller` (tenant and default scope,
from server configuration, never from tool arguments), calls storage (which
validates) and shapes the result into the models of ``schemas``. Errors are
``memvault.storage.errors`` exceptions; the MCP layer turns them into ``isError``.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass

from memvault.storage import validate
from memvault.storage.errors import InvalidInput
from memvault.storage.limits import CURSOR_MAX_CHARS, GLOBAL_SCOPE, RECALL_MAX_CONTENT_CHARS
from memvault.storage.records import Hit, Memory, RecallOutcome
from memvault.storage.records import Signals as RecordSignals
from memvault.storage.store import Store
from memvault.storage.timefmt import format_ms
from memvault.storage.timewords import TimeRange

from .schemas import (
    ForgetResult,
    MemoryOut,
    NamedTime,
    RecallResult,
    RememberResult,
    ScopeMatches,
    Signals,
    SupersedeResult,
)

# When nothing sure is found, at most this many other scopes (the largest) are searched for the hint.
OTHER_SCOPES_MAX = 10
# A hit under this confidence is a weak lead, not an answer: on the evaluation sets 4-10 % of
# such hits were relevant (README, "Confidence"); a first hit is hardly ever this low (ranking
# first, it was relevant 19-50 % of the time even at 0.2-0.4). Only weak leads here: other
# scopes are searched.
ANSWER_CONFIDENCE = 0.2
# Under this best confidence (hits of 0.4-0.6 were relevant 38-75 % of the time) other scopes are
# searched too, and named when they hold a surer answer (new-user trial: "when does the hiking
# club meet?" got a 0.23 hit on "fewer meetings" and no hint of the "personal" scope that held
# the answer).
SURE_CONFIDENCE = 0.5
_FILTERS = ("kinds", "tags", "since", "until")


@dataclass(frozen=True)
class Caller:
    """Who is calling: ``tenant`` (hard isolation) and ``scope`` (default grouping)."""

    tenant: str
    scope: str

    def scopes(self, scope: str | None) -> list[str]:
        """The scopes searched: ``scope`` alone if given, else the default plus ``global``.

        Raises:
            InvalidInput: ``scope`` is empty or too long, or looks like a credential
                (``validate.scope``: the result names the scopes searched).
        """
        if scope is not None:
            return [validate.scope(scope, self.scope, reading=True)]
        return [self.scope, GLOBAL_SCOPE]


def memory_out(
    memory: Memory, score: float = 0.0, signals: Signals | None = None, confidence: float = 0.0
) -> MemoryOut:
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
        supersede_reason=memory.supersede_reason,
        confirmations=memory.confirmations,
        last_confirmed_at=format_ms(memory.last_confirmed_at),
        score=score,
        confidence=confidence,
        signals=signals or Signals(),
    )


def _hit_out(hit: Hit) -> MemoryOut:
    s = hit.signals
    return memory_out(
        hit.memory,
        score=round(hit.score, 6),
        confidence=hit.confidence,
        signals=Signals(
            keyword_rank=s.keyword_rank,
            keyword_score=None if s.keyword_score is None else round(s.keyword_score, 6),
            vector_rank=s.vector_rank,
            vector_similarity=None if s.vector_similarity is None else round(s.vector_similarity, 4),
            coverage=None if s.coverage is None else round(s.coverage, 4),
            through=s.through,
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
        similar=list(outcome.similar),
    )


def recall(store: Store, caller: Caller, *, query: str = "", scope: str | None = None, **args: object) -> RecallResult:
    """Search memories (see ``Store.recall``) in the caller's scopes, or list them.

    An empty ``query`` with at least one filter (kinds, tags, since, until or
    scope) lists the memories that pass the filters, newest first (``limit``
    applies, nothing abstains). The best memories are kept while their content
    adds up to at most ``RECALL_MAX_CONTENT_CHARS`` (the first is always kept: it
    is at most 8,000); ``truncated`` says when some were left out. When nothing found
    answers surely (:func:`_other_scopes`), the caller's other scopes are searched the
    same way and ``other_scopes`` names those holding a surer answer.

    Raises:
        InvalidInput: a bad filter, or an empty query without any filter.
    """
    query = validate.visible(query)  # a query of zero-width spaces is as empty as one of spaces
    listing = not query.strip()
    cursor = args.pop("cursor", None)
    if cursor is not None and not listing:
        raise InvalidInput("cursor", "pages a listing only: give it with an empty query and the same filters")
    if listing and scope is None and not any(args.get(f) for f in _FILTERS):
        raise InvalidInput(
            "query",
            "is empty: give words to search for, or a filter (kinds, tags, since, until, scope) to list memories",
        )
    return _recall_result(store, caller, query, caller.scopes(scope), args, cursor)


def list_memories(
    store: Store, caller: Caller, *, scope: str | None = None, cursor: str | None = None, **filters: object
) -> RecallResult:
    """The memories of the caller's scopes that pass ``filters``, newest first, ``limit``
    of them after the ``offset`` newest or after ``cursor`` (``memvault list``)."""
    return _recall_result(store, caller, "", caller.scopes(scope), filters, cursor)


def count_memories(store: Store, caller: Caller, *, scope: str | None = None, **filters: object) -> int:
    """How many memories :func:`list_memories` pages through under the same ``filters``."""
    return store.count_memories(tenant=caller.tenant, scopes=caller.scopes(scope), **filters)  # type: ignore[arg-type]


def _recall_result(
    store: Store, caller: Caller, query: str, scopes: list[str], args: dict[str, object], cursor: object = None
) -> RecallResult:
    listing = not query.strip()
    outcome = _search(store, caller, query, scopes, args, cursor)
    hits = outcome.hits
    shown, used = [], 0
    for hit in hits:
        used += len(hit.memory.content or "")
        if used > RECALL_MAX_CONTENT_CHARS and shown:
            break
        shown.append(hit)
    short = store.short_ids(tenant=caller.tenant, ids=[h.memory.id for h in shown])
    return RecallResult(
        memories=[_hit_out(h).model_copy(update={"short_id": short[h.memory.id]}) for h in shown],
        next_cursor=_next_cursor(store, caller, scopes, args, shown, len(shown) < len(hits)) if listing else None,
        listing=listing,
        scopes=scopes,
        other_scopes=_other_scopes(store, caller, query, scopes, args, hits, listing),
        abstained=outcome.abstained,
        time=None if outcome.time is None else _named_time(outcome.time, shown),
        degraded=outcome.degraded,
        truncated=len(shown) < len(hits),
    )


def _cursor(memory_id: str) -> str:
    """A listing's opaque cursor: the id of the last memory shown, encoded."""
    return base64.urlsafe_b64encode(memory_id.encode()).decode().rstrip("=")


def _after(cursor: object) -> str:
    """The memory id a cursor of :func:`_cursor` stands for.

    Raises:
        InvalidInput: not a string of at most ``CURSOR_MAX_CHARS`` that decodes to one.
    """
    problem = "is not one a listing gave (its next_cursor, as given): start again without it"
    if not isinstance(cursor, str) or not 0 < len(cursor) <= CURSOR_MAX_CHARS:
        raise InvalidInput("cursor", f"must be a listing's next_cursor, at most {CURSOR_MAX_CHARS} characters")
    try:
        return base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("ascii")
    except (ValueError, UnicodeDecodeError) as exc:
        raise InvalidInput("cursor", problem) from exc


def _next_cursor(
    store: Store, caller: Caller, scopes: list[str], args: dict[str, object], shown: list[Hit], cut: bool
) -> str | None:
    """The cursor of the page after ``shown`` (a listing's), None when no memory follows:
    ``cut`` (some found were left out for size) or one more read of a single row."""
    if not shown:
        return None
    last = shown[-1].memory.id
    if not cut and len(shown) < validate.limit(args.get("limit")):  # type: ignore[arg-type]
        return None
    rest = {k: v for k, v in args.items() if k not in ("limit", "offset")}
    more = cut or store.list_memories(tenant=caller.tenant, scopes=scopes, limit=1, after=last, **rest)  # type: ignore[arg-type]
    return _cursor(last) if more else None


def _search(
    store: Store, caller: Caller, query: str, scopes: list[str], args: dict[str, object], cursor: object = None
) -> RecallOutcome:
    """A ranked recall, or a listing (never abstained) when ``query`` is empty."""
    if not query.strip():
        after = None if cursor is None else _after(cursor)
        listed = store.list_memories(tenant=caller.tenant, scopes=scopes, after=after, **args)  # type: ignore[arg-type]
        return RecallOutcome(hits=[Hit(memory=m, score=0.0, signals=RecordSignals()) for m in listed], abstained=False)
    return store.recall(tenant=caller.tenant, query=query, scopes=scopes, **args)  # type: ignore[arg-type]


def _other_scopes(
    store: Store, caller: Caller, query: str, searched: list[str], args: dict[str, object], hits: list[Hit],
    listing: bool,
) -> list[ScopeMatches]:
    """The caller's other scopes where the same search finds a surer answer than ``hits``
    (the results in ``searched``): none when one of those has a confidence of at least
    ``SURE_CONFIDENCE`` (a listing: when there is any)."""
    best = max((h.confidence for h in hits), default=0.0)
    if (bool(hits) if listing else best >= SURE_CONFIDENCE):
        return []
    others = [s for s in store.scope_counts(tenant=caller.tenant) if s not in searched][:OTHER_SCOPES_MAX]
    if not others:
        return []
    if listing:  # a listing reads no model: scope by scope, so the newest of one never hide another's
        found = {other: _search(store, caller, query, [other], args).hits for other in others}
    else:  # one search over them all, not one per scope: this runs on every unsure recall
        found = {other: [] for other in others}
        for hit in _search(store, caller, query, others, args).hits:
            found[hit.memory.scope].append(hit)
    return [ScopeMatches(scope=other, matches=len(there)) for other, there in found.items()
            if _answers(there, listing) and (listing or max(h.confidence for h in there) > best)]


def _named_time(time: TimeRange, shown: list[Hit]) -> NamedTime:
    """The time a question names (``RecallOutcome.time``) as the result shows it."""
    return NamedTime(text=time.text, since=format_ms(time.start), until=format_ms(time.end),  # type: ignore[arg-type]
                     memories_in_it=sum(time.holds(h.memory.observed_at) for h in shown))


def _answers(hits: list[Hit], listing: bool) -> bool:
    """Whether ``hits`` hold an answer: any memory for a listing; for a search, a hit
    with a confidence of at least ``ANSWER_CONFIDENCE`` (weak leads alone are none)."""
    return bool(hits) if listing else any(h.confidence >= ANSWER_CONFIDENCE for h in hits)


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


def memory_view(store: Store, caller: Caller, memory_id: str) -> dict[str, object]:
    """The memory and its supersession chain: ``{"memory": {...}, "history": [{...}, ...]}``,
    the chain oldest first. ``memory_id`` may be in any letter case or a unique prefix of
    8+ characters. Forgotten members appear as tombstones (``forgotten_at``, no content),
    expired ones (erased or not yet) as ``{"id", "expired_at"}``, without content. Raises NotFound."""
    memory = store.get(tenant=caller.tenant, id=memory_id)
    chain = store.history(tenant=caller.tenant, id=memory.id)
    now = store.clock()

    def doc(m: Memory) -> dict[str, object]:
        if m.expires_at is not None and m.expires_at <= (m.forgotten_at or now):
            return {"id": m.id, "expired_at": format_ms(m.expires_at)}
        if m.forgotten_at is not None:
            return {"id": m.id, "forgotten_at": format_ms(m.forgotten_at), "forget_reason": m.forget_reason}
        return memory_out(m).model_dump(exclude={"score", "confidence", "signals", "short_id"})

    target = next(m for m in chain if m.id == memory.id)
    return {"memory": doc(target), "history": [doc(m) for m in chain]}


def memory_document(store: Store, caller: Caller, memory_id: str) -> str:
    """JSON for ``memory://memories/{id}`` (see :func:`memory_view`)."""
    return json.dumps(memory_view(store, caller, memory_id), ensure_ascii=False, indent=2)
