"""The memory tools as plain functions over a :class:`Store` and the :class:`Caller` (tenant and scope
from the server, never from arguments), returning the models of ``schemas``; errors are ``storage.errors``.
"""

from __future__ import annotations

import base64
import hashlib
import dataclasses
import json

from memvault.storage import history, literal
from memvault.storage import strength as strengths
from memvault.storage import validate
from memvault.storage.errors import InvalidInput, shown
from memvault.storage.limits import CURSOR_MAX_CHARS, ID_SHAPE
from memvault.storage.outcomes import RememberOutcome, SupersedeOutcome
from memvault.storage.ranking import ANSWER_CONFIDENCE, SURE_CONFIDENCE  # noqa: F401 (tools read them here)
from memvault.storage.hits import Hit, RecallOutcome
from memvault.storage.hits import Signals as RecordSignals
from memvault.storage.records import Memory
from memvault.storage.runs import RunSummary
from memvault.storage.store import Store
from memvault.storage.timefmt import format_ms, now_ms
from memvault.storage.timewords import TimeRange

from .search import within_budget
from .caller import Caller  # here too: the tools and their callers import it from handlers
from .schemas import (
    ConfirmResult,
    ForgetResult,
    MemoryOut,
    NamedTime,
    RecallResult,
    RememberResult,
    RunsOut,
    ScopeMatches,
    Signals,
    SupersedeResult,
    TimeSpan,
)

OTHER_SCOPES_MAX = 10  # other scopes (the largest) searched when nothing sure is found
_FILTERS = ("kinds", "tags", "since", "until")


def memory_out(
    memory: Memory, score: float = 0.0, signals: Signals | None = None, confidence: float = 0.0,
    short_id: str | None = None, now: int | None = None, runs: RunSummary | None = None, **marks: str | None,
) -> MemoryOut:
    """Shape a stored memory for the wire (times as ISO-8601 UTC), with its strength at ``now`` (ms; None:
    the real clock), for a procedure its ``runs``, and ``marks`` (fields of ``MemoryOut`` a recall sets)."""
    now = now_ms() if now is None else now
    fields = {name: getattr(memory, name) for name in MemoryOut.model_fields if hasattr(memory, name)}
    times = {name: format_ms(fields[name]) for name in ("observed_at", "recorded_at", "expires_at", "last_confirmed_at")}
    review = memory.superseded_by is None and strengths.needs_review(memory, now)
    held = {"strength": strengths.strength(memory, now), "needs_review": review,
            "runs": runs_out(runs) if memory.kind == "procedure" else None}
    return MemoryOut(**{**fields, **times, **held, "content": memory.content or "", "tags": list(memory.tags),
                        "score": score, "confidence": confidence, "signals": signals or Signals(), "short_id": short_id,
                        **marks})


def runs_out(runs: RunSummary | None) -> RunsOut:
    """A procedure's run summary for the wire (no runs yet: zero of them)."""
    if runs is None:
        return RunsOut(runs=0, successes=0)
    return RunsOut(runs=runs.runs, successes=runs.successes, success_rate=runs.success_rate,
                   last_run_at=format_ms(runs.last_run_at), last_outcome=runs.last_outcome,
                   failure_streak=runs.failure_streak, failure_modes=list(runs.failure_modes),
                   flagged=runs.flagged)


def _ended_successors(store: Store, caller: Caller, memories: list[Memory], now: int) -> dict[str, str]:
    """Of the memories replacing one of ``memories`` (history recalled), those that ended since, by id:
    ``history.ended``'s words. Reads none when every memory is current."""
    shown = {m.id for m in memories}
    replacing = {m.superseded_by for m in memories if m.superseded_by is not None} - shown
    ended = {i: history.ended(store.get(tenant=caller.tenant, id=i), now) for i in sorted(replacing)}
    return {i: words for i, words in ended.items() if words is not None}


_SIGNAL_DIGITS = {"keyword_score": 6, "vector_similarity": 4, "coverage": 4}  # decimals each is shown with


def _hit_out(hit: Hit, short_id: str, now: int, runs: RunSummary | None,
             ended: dict[str, str] | None = None) -> MemoryOut:
    """A recall hit for the wire: one ``MemoryOut`` built once, its signals rounded."""
    given = {name: getattr(hit.signals, name) for name in Signals.model_fields}
    signals = Signals(**{k: v if v is None or k not in _SIGNAL_DIGITS else round(v, _SIGNAL_DIGITS[k])
                         for k, v in given.items()})
    successor = hit.memory.superseded_by
    ended_words = (ended or {}).get(successor) if successor else None
    return memory_out(hit.memory, score=round(hit.score, 6), confidence=hit.confidence, signals=signals,
                      short_id=short_id, now=now, runs=runs, possibly_outdated_by=hit.outdated_by or None,
                      superseded_by_ended=ended_words or None)


def _procedure_runs(store: Store, caller: Caller, memories: list[Memory]) -> dict[str, RunSummary]:
    """The run summaries of the procedures among ``memories`` (one read; none without a procedure)."""
    ids = [m.id for m in memories if m.kind == "procedure"]
    return store.run_summaries(tenant=caller.tenant, ids=ids) if ids else {}


def remember(store: Store, caller: Caller, **args: object) -> RememberResult:
    """Store a memory (see ``Store.remember``); ``scope`` defaults to the caller's."""
    scope = args.pop("scope", None)
    scope = caller.scope if scope is None else scope
    outcome = store.remember(tenant=caller.tenant, scope=scope, **args)  # type: ignore[arg-type]
    fields = {k: v for k, v in dataclasses.asdict(outcome).items() if k not in ("newer", "other_scopes")}
    return RememberResult.model_validate({**fields, "contradicts": _contradictions(outcome),
                                          "outdated_by": _outdated_by(store, caller, outcome)})


def _outdated_by(store: Store, caller: Caller, outcome: RememberOutcome) -> str | None:
    """For a repeat of a stored memory that is the older of a contradicting pair waiting for review, the
    newest newer memory's id (``Store.outdating``, as recall marks it); else None. A repeat is one more
    confirmation, which settles no pair."""
    if outcome.duplicate_of is None:
        return None
    memory = store.get(tenant=caller.tenant, id=outcome.duplicate_of)
    return store.outdating(caller.tenant, [memory.scope], [memory]).get(memory.id)


def _contradictions(outcome: RememberOutcome | SupersedeOutcome) -> list[dict[str, object]]:
    """``contradicts`` as the tools show it: {id, reason, newer, other_scope} of each memory a new one disagrees
    with, ``other_scope`` naming the scope of one of another (``global``), which `by` cannot replace
    (``Store.supersede_by``)."""
    elsewhere = dict(outcome.other_scopes)
    return [{"id": memory_id, "reason": reason, "newer": memory_id in outcome.newer,
             "other_scope": elsewhere.get(memory_id)} for memory_id, reason in outcome.contradicts]


def recall(
    store: Store, caller: Caller, *, query: str = "", scope: str | None = None, turns: object = False,
    session_id: object = None, **args: object,
) -> RecallResult:
    """Search memories (``Store.recall``) in the caller's scopes; an empty ``query`` with a filter lists
    them newest first. Hits are kept while their content adds up to ``RECALL_MAX_CONTENT_CHARS``
    (``truncated`` otherwise); when nothing answers surely, ``other_scopes`` names surer scopes.
    ``turns`` true: the sessions' turns instead (``sessions.search_turns``), of ``session_id`` only if given.

    Raises:
        InvalidInput: a bad filter, or an empty query without any filter.
    """
    if not isinstance(turns, bool):
        raise InvalidInput("turns", f"must be true or false; got {shown(turns)}")
    if turns:
        from .sessions import search_turns  # it imports this module

        return search_turns(store, caller, query, scope, session_id, args)
    if session_id is not None:
        raise InvalidInput("session_id", "is taken with `turns` (true) only: it names the session whose turns "
                                         "are searched")
    # a query of zero-width spaces is as empty as one of spaces; its private spans are never searched
    query = validate.query(query)
    listing = not query.strip()
    cursor = args.pop("cursor", None)
    if cursor is not None and not listing:
        raise InvalidInput("cursor", "pages a listing only: give it with an empty `query` and the same filters")
    if listing and scope is None and not any(args.get(f) for f in _FILTERS):
        raise InvalidInput(
            "query",
            "is empty: give words to search for, or a filter (`kinds`, `tags`, `since`, `until`, `scope`) to list "
            "memories",
        )
    return _recall_result(store, caller, query, _scopes(store, caller, scope), args, cursor)


def list_memories(
    store: Store, caller: Caller, *, scope: str | None = None, cursor: str | None = None, **filters: object
) -> RecallResult:
    """``memvault list``: the memories passing ``filters``, newest first, after ``offset`` or ``cursor``."""
    return _recall_result(store, caller, "", _scopes(store, caller, scope), filters, cursor)


def count_memories(store: Store, caller: Caller, *, scope: str | None = None, **filters: object) -> int:
    """How many memories :func:`list_memories` pages through under the same ``filters``."""
    return store.count_memories(tenant=caller.tenant, scopes=_scopes(store, caller, scope), **filters)  # type: ignore[arg-type]


def _scopes(store: Store, caller: Caller, scope: str | None) -> list[str]:
    """``caller.scopes(scope)``, a scope stored before the name rules read too (``validate.scope``)."""
    return caller.scopes(scope, lambda: store.scope_counts(tenant=caller.tenant))


def _recall_result(
    store: Store, caller: Caller, query: str, scopes: list[str], args: dict[str, object], cursor: object = None
) -> RecallResult:
    listing = not query.strip()
    outcome, follows = _search(store, caller, query, scopes, args, cursor)
    hits = outcome.hits
    shown = within_budget(hits)
    short = store.short_ids(tenant=caller.tenant, ids=[h.memory.id for h in shown])
    now, runs = store.clock(), _procedure_runs(store, caller, [h.memory for h in shown])
    ended = _ended_successors(store, caller, [h.memory for h in shown], now)
    return RecallResult(
        memories=[_hit_out(h, short[h.memory.id], now, runs.get(h.memory.id), ended) for h in shown],
        next_cursor=_next_cursor(scopes, args, shown, follows or len(shown) < len(hits)) if listing else None,
        listing=listing,
        scopes=scopes,
        other_scopes=_other_scopes(store, caller, query, scopes, args, hits, listing),
        abstained=outcome.abstained,
        time=None if outcome.time is None else _named_time(outcome.time, shown),
        degraded=_degraded(outcome.degraded, store.backend.damaged),
        truncated=len(shown) < len(hits),
    )


def _degraded(search: str | None, damaged: str | None) -> str | None:
    """A recall's ``degraded``: why part of the search did not run, and that the file is damaged."""
    said = [search, damaged and f"memories in damaged pages are not found: {damaged}"]
    return "; ".join(s for s in said if s) or None


def _listing(scopes: list[str], args: dict[str, object]) -> str:
    """8 hex digits naming a listing's scopes and filters (what a cursor must be used with)."""
    filters = {k: v for k, v in args.items() if k not in ("limit", "offset", "cursor") and v is not None}
    return hashlib.sha256(json.dumps([scopes, filters], sort_keys=True, default=str).encode()).hexdigest()[:8]


def _cursor(memory_id: str, listing: str) -> str:
    """A listing's opaque cursor: the last id shown, its listing's :func:`_listing` and a check of
    both (:func:`_check`), base64url."""
    body = f"{memory_id}.{listing}"
    return base64.urlsafe_b64encode(f"{body}.{_check(body)}".encode()).decode().rstrip("=")


def _check(body: str) -> str:
    """8 hex digits of a cursor's content: a cursor changed or cut (not only one of another listing) is told."""
    return hashlib.sha256(f"memvault cursor {body}".encode()).hexdigest()[:8]


def _after(cursor: object, listing: str) -> str:
    """The memory id a :func:`_cursor` of the same ``listing`` stands for. Raises InvalidInput for
    anything else: a cursor this server did not give, or one changed or cut, said as such; one of a
    listing with other scopes or filters (it would page the wrong rows), said as that."""
    problem = ("is not a cursor a listing gave (a listing's cursor carries a check of itself), or it was changed "
               "or cut: give it exactly as the listing returned it, or start again without it")
    if not isinstance(cursor, str) or not 0 < len(cursor) <= CURSOR_MAX_CHARS:
        raise InvalidInput("cursor", f"must be a cursor a listing gave, at most {CURSOR_MAX_CHARS} characters")
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("ascii")
    except (ValueError, UnicodeDecodeError) as exc:
        raise InvalidInput("cursor", problem) from exc
    body, _, check = text.rpartition(".")
    memory_id, _, made_for = body.rpartition(".")
    # Base64 decoding skips characters outside its alphabet and a last character's spare bits: only the
    # cursor as encoded is one.
    if not memory_id or check != _check(body) or _cursor(memory_id, made_for) != cursor:
        raise InvalidInput("cursor", problem)
    if made_for != listing:
        raise InvalidInput("cursor", "was given by a listing with other filters or scopes: page with the same "
                                     "`kinds`, `tags`, `since`, `until` and `scope`, or start again without it")
    return memory_id


def _next_cursor(scopes: list[str], args: dict[str, object], shown: list[Hit], follows: bool) -> str | None:
    """The cursor of the listing's page after ``shown``, None when no memory ``follows`` them."""
    return _cursor(shown[-1].memory.id, _listing(scopes, args)) if shown and follows else None


def _search(
    store: Store, caller: Caller, query: str, scopes: list[str], args: dict[str, object], cursor: object = None
) -> tuple[RecallOutcome, bool]:
    """A ranked recall, or a listing (never abstained) when ``query`` is empty; and whether memories
    follow the listing's page (one more row read by the same statement, not a second one)."""
    if not query.strip():
        after = None if cursor is None else _after(cursor, _listing(scopes, args))
        listed = store.list_memories(tenant=caller.tenant, scopes=scopes, after=after, one_more=True, **args)  # type: ignore[arg-type]
        size = validate.limit(args.get("limit"))  # type: ignore[arg-type]
        hits = [Hit(memory=m, score=0.0, signals=RecordSignals()) for m in listed[:size]]
        return RecallOutcome(hits=hits, abstained=False), len(listed) > size
    return store.recall(tenant=caller.tenant, query=query, scopes=scopes, **args), False  # type: ignore[arg-type]


def _other_scopes(
    store: Store, caller: Caller, query: str, searched: list[str], args: dict[str, object], hits: list[Hit],
    listing: bool,
) -> list[ScopeMatches]:
    """The caller's other scopes where the same search finds a surer answer than ``hits`` (none when a
    hit reaches ``SURE_CONFIDENCE``; for a listing, when there is any)."""
    best = max((h.confidence for h in hits), default=0.0)
    if (bool(hits) if listing else best >= SURE_CONFIDENCE):
        return []
    others = [s for s in store.scope_counts(tenant=caller.tenant) if s not in searched][:OTHER_SCOPES_MAX]
    if not others:
        return []
    if listing:  # a listing reads no model: scope by scope, so the newest of one never hide another's
        found = {other: _search(store, caller, query, [other], args)[0].hits for other in others}
    else:  # one search over them all, not one per scope: this runs on every unsure recall
        found = {other: [] for other in others}
        for hit in _search(store, caller, query, others, args)[0].hits:
            found[hit.memory.scope].append(hit)
    return [ScopeMatches(scope=other, matches=len(there)) for other, there in found.items()
            if _answers(there, listing) and (listing or max(h.confidence for h in there) > best)]


def _named_time(time: TimeRange, shown: list[Hit]) -> NamedTime:
    """``time`` as shown: its since and until, or for a time of several ranges (``TimeRange.days``) each range."""
    ranges = [TimeSpan(since=format_ms(start), until=format_ms(min(end, time.until))) for start, end in time.days
              if len(time.days) > 1]
    # " ".join: the spaces of a particle dropped ("3月3日と3月11日" is read as "March 3   March 11")
    return NamedTime(text=" ".join((time.phrase or time.text).split()), since=None if ranges else format_ms(time.start),
                     until=None if ranges else format_ms(time.until), ranges=ranges or None,
                     memories_in_it=sum(time.holds(h.memory.observed_at) for h in shown), note=time.note)


def _answers(hits: list[Hit], listing: bool) -> bool:
    """Any memory for a listing; for a search, a hit of at least ``ANSWER_CONFIDENCE``."""
    return bool(hits) if listing else any(h.confidence >= ANSWER_CONFIDENCE for h in hits)


def supersede(store: Store, caller: Caller, *, by: str | None = None, **args: object) -> SupersedeResult:
    """Replace a memory by a corrected one (``Store.supersede``), or by one stored before (``by``:
    ``Store.supersede_by``). Raises InvalidInput when neither content nor ``by`` is given, or both."""
    if by is None and args.get("content") is None:
        raise InvalidInput("content", "is required: give the corrected memory, or `by`, the id of a memory "
                                      "already stored that replaces this one")
    if by is not None:
        extra = [name for name, value in args.items() if value is not None and name not in ("id", "reason")]
        if extra:
            raise InvalidInput(extra[0], "is not taken with `by`: the memory `by` names keeps its own content "
                                         "and fields")
        outcome = store.supersede_by(tenant=caller.tenant, id=args["id"], by=by,  # type: ignore[arg-type]
                                     reason=args.get("reason"))  # type: ignore[arg-type]
        return SupersedeResult.model_validate(outcome, from_attributes=True)
    outcome = store.supersede(tenant=caller.tenant, **args)  # type: ignore[arg-type]
    fields = {k: v for k, v in dataclasses.asdict(outcome).items() if k not in ("newer", "other_scopes")}
    return SupersedeResult.model_validate({**fields, "contradicts": _contradictions(outcome)})


def confirm(store: Store, caller: Caller, **args: object) -> ConfirmResult:
    """Confirm a memory still holds, or record a procedure's run (see ``Store.confirm``)."""
    outcome = store.confirm(tenant=caller.tenant, **args)  # type: ignore[arg-type]
    memory, now = outcome.memory, store.clock()
    return ConfirmResult(
        id=memory.id, outcome=outcome.outcome, confirmations=memory.confirmations,
        strength=strengths.strength(memory, now), needs_review=strengths.needs_review(memory, now),
        runs=None if outcome.runs is None else runs_out(outcome.runs), beside=outcome.beside, paired=outcome.paired,
        redacted=list(outcome.redacted),
    )


def forget(store: Store, caller: Caller, *, session_id: str | None = None, **args: object) -> ForgetResult:
    """Delete a memory's content for real (``Store.forget``), or a whole session (``session_id``:
    ``Episodes.forget``). Raises InvalidInput when neither id nor session_id is given, or both."""
    if session_id is not None:
        extra = [name for name in ("id", "reason") if args.get(name) is not None] + \
            (["include_history"] if args.get("include_history") else [])
        if extra:
            raise InvalidInput(extra[0], "is not taken with `session_id`: a session is forgotten whole, turns "
                                         "and digest")
        outcome = store.episodes.forget(tenant=caller.tenant, session_id=session_id)
        return ForgetResult(forgotten=True, **dataclasses.asdict(outcome))
    if args.get("id") is None:
        raise InvalidInput("id", f"is required: {ID_SHAPE}; or give `session_id`, the id of a session to "
                                 "forget whole")
    outcome = store.forget(tenant=caller.tenant, **args)  # type: ignore[arg-type]
    return ForgetResult(forgotten=True, **dataclasses.asdict(outcome))


def memory_view(store: Store, caller: Caller, memory_id: str) -> dict[str, object]:
    """``{"memory": {...}, "history": [...oldest first]}`` for an id or unique 8+ character prefix;
    forgotten members as tombstones (``forgotten_at``), expired ones as ``{"id", "expired_at"}`` (and
    ``forgotten_at`` when forgotten after it expired).
    Raises NotFound."""
    memory = store.get(tenant=caller.tenant, id=memory_id)
    chain = store.history(tenant=caller.tenant, id=memory.id)
    now, runs = store.clock(), _procedure_runs(store, caller, chain)

    def doc(m: Memory) -> dict[str, object]:
        forgotten = {} if m.forgotten_at is None else {"forgotten_at": format_ms(m.forgotten_at),
                                                        "forget_reason": m.forget_reason}
        if history.expired(m, m.forgotten_at or now):
            # erased for its expiry, its reason is ``ended``'s words; a forget after it says its own
            return {"id": m.id, "expired_at": format_ms(m.expires_at),  # type: ignore[arg-type]
                    **(forgotten if m.forget_reason != history.ended(m, now) else {})}
        if forgotten:
            return {"id": m.id, **forgotten}
        return memory_out(m, now=now, runs=runs.get(m.id)).model_dump(
            exclude={"score", "confidence", "signals", "short_id", "superseded_by_ended"})

    target = next(m for m in chain if m.id == memory.id)
    return {"memory": doc(target), "history": [doc(m) for m in chain]}


def memory_document(store: Store, caller: Caller, memory_id: str) -> str:
    """JSON for ``memory://memories/{id}`` (see :func:`memory_view`), hidden characters escaped as in
    the text of ``recall`` (``literal.document``)."""
    return literal.document(memory_view(store, caller, memory_id))
