"""Recall over any backend: the question split into its time and its words, embedded while
the keyword side runs, candidates of one read transaction (``candidates.gather``) ranked
(``ranking.rank``)."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, TypedDict


from . import ranking as ranking_rules
from . import validate
from .backend import Backend, Reader, Search
from .candidates import Candidates, admits, gather, names
from .review import kept_newer
from .embeddings import Embedder
from .errors import InvalidInput, shown
from .query import CANDIDATES_MIN, Filters, named_kinds, names_no_subject, query_chunks, symbols_only
from .hits import Hit, RecallOutcome, Signals
from .newer_hits import window
from .records import Memory
from .timeforeign import in_english
from .timelists import each_day_dated
from .timewords import TimeParser

if TYPE_CHECKING:
    import numpy as np  # annotations; numpy is imported where vectors are used (docs/hooks.md#speed)


class FilterArgs(TypedDict, total=False):
    """The filters ``Store.recall``, ``list_memories`` and ``count_memories`` share: ``kinds``;
    ``tags``, all present; ``since``/``until`` (ISO-8601) bound ``observed_at``;
    ``include_history`` admits superseded memories."""

    kinds: list[str] | None
    tags: list[str] | None
    since: str | None
    until: str | None
    include_history: bool


def checked_filters(
    tenant: str, scopes: list[str], now: int, kinds: list[str] | None = None, tags: list[str] | None = None,
    since: str | None = None, until: str | None = None, include_history: bool = False,
) -> Filters:
    """The filters of a recall or a listing (:class:`FilterArgs`), each checked.

    Raises:
        InvalidInput: a bad kind, tag or date, or ``until`` not later than ``since``.
    """
    since_ms, until_ms = validate.timestamp("since", since), validate.timestamp("until", until)
    if since_ms is not None and until_ms is not None and since_ms >= until_ms:
        raise InvalidInput("until", f"must be later than `since` ({shown(since)}) for anything to be observed in "
                                    f"between; got {shown(until)}")
    return Filters(
        tenant=tenant,
        scopes=list(dict.fromkeys(scopes)),
        now=now,
        kinds=validate.kinds(kinds),
        tags=validate.tags(tags, reading=True) or None,
        since=since_ms,
        until=until_ms,
        include_history=bool(include_history),
    )


class Retriever:
    """Runs recalls against ``backend``; ``model_problem()`` and ``recorded_model_problem(tx)``
    say why vectors cannot be searched (None: they can)."""

    def __init__(
        self, backend: Backend, embedder: Embedder | None, model_problem: Callable[[], str | None],
        recorded_model_problem: Callable[[Reader], str | None],
    ) -> None:
        self.backend = backend
        self.embedder = embedder
        self.model_problem = model_problem
        self.recorded_model_problem = recorded_model_problem
        self.time = TimeParser()
        self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="memvault-embed")

    def close(self) -> None:
        """Wait for queries being embedded; the retriever cannot be used afterwards."""
        self._pool.shutdown(wait=True)

    def recall(self, filters: Filters, query: str, size: int) -> RecallOutcome:
        """At most ``size`` hits for ``query`` among the memories passing ``filters``, or
        none with ``abstained`` True when nothing is relevant enough. Writes nothing."""
        found = self.ranking(filters, query, max(CANDIDATES_MIN, 4 * size))
        if found is None:
            return RecallOutcome(hits=[], abstained=True)
        candidates, ranking = found
        assert ranking is not None
        hits = [
            Hit(
                memory=s.memory,
                score=s.score,
                confidence=s.confidence,
                signals=Signals(s.keyword_rank, s.keyword_score, s.vector_rank, s.similarity, s.coverage, s.through,
                                s.newer_of),
                outdated_by=s.outdated_by,
            )
            for s in window(ranking.hits, size)
        ]
        degraded = candidates.degraded
        pending = sum(h.memory.vector_pending for h in hits)
        if degraded is None and pending:
            degraded = ("1 matching memory has no vector yet" if pending == 1
                        else f"{pending} matching memories have no vector yet")
        when = candidates.when if candidates.when is not None and candidates.when.observable else None
        return RecallOutcome(hits=hits, abstained=ranking.abstained, degraded=degraded, time=when)

    def ranking(
        self, filters: Filters, query: str, pool: int, rank: bool = True
    ) -> tuple[Candidates, ranking_rules.Ranking | None] | None:
        """Candidates for ``query`` (``pool`` from each side) and, with ``rank``, their ranking
        (without, no superseded memory's match is credited); None when the query has no words."""
        if not query_chunks(query):
            return None
        # "letzten Dienstag", "le 1er décembre", "November 3, 5 and 9": read as the times they name
        written, query = query, each_day_dated(in_english(query))
        when = self.time.find(query, filters.until or filters.now)
        words_query = when.remove_from(query) if when else query
        if when is not None and when.vague and not names_no_subject(words_query):
            # "recently" with a subject is relative to its story (docs/retrieval-tuning.md#time).
            when = None
        if when is None:  # the rewrite serves reading a time: a question naming none is searched as written
            query = words_query = written  # ("Nous déployons le vendredi" is no "we déployons on Friday")
        named = named_kinds(words_query)
        degraded = self.model_problem()
        # A question of symbols alone is answered by the memories holding them, never by a vector's
        # nearest (docs/how-recall-works.md#symbols-alone).
        vectors = not symbols_only(query_chunks(words_query))
        with self.backend.read(filters.tenant) as tx:
            degraded = degraded or self.recorded_model_problem(tx)
            # The question is embedded on a worker thread while the keyword side runs here; without a time
            # no memory's text says as such ("2 days ago", "on Wednesday": the time's own search answers it;
            # "what did legal pause 2 days ago?" raised someone else's pause from 0.48 to 0.57) when it
            # names a subject besides; with a month or date a text may say ("moves to October"), or when the
            # time is all it names ("what changed during November?").
            meant = words_query if when is not None and when.said is None and not names_no_subject(words_query) \
                else query
            side: Future[np.ndarray] | None = None
            if self.embedder is not None and degraded is None and vectors:
                side = self._pool.submit(lambda: self.embedder.embed([meant])[0])  # type: ignore[union-attr]

            def nearest() -> np.ndarray | None:
                return None if side is None else side.result()

            # A time still named once the time is out ("March 5" of "on March 3, or possibly even March 5") is no
            # name that no memory holds.
            timed = self.time.words_of_times(words_query, filters.until or filters.now) \
                if when is not None and names(words_query) else set()
            found = gather(tx, filters, words_query, named, nearest, when, pool, degraded, credit=rank, timed=timed)
            if not rank:
                return found, None

            def cosines(seqs: list[int]) -> dict[tuple[int, int], float]:
                return tx.search(Search(filters, pairs=seqs)).pairs

            def kept(seqs: list[int]) -> dict[int, tuple[int, Memory]]:
                older = {found.rows[seq].id: seq for seq in seqs}
                if filters.scopes is None or not older:
                    return {}
                newer = kept_newer(tx, filters.tenant, {i: found.rows[seq] for i, seq in older.items()},
                                   filters.now, filters.scopes)
                return {older[i]: row for i, row in newer.items()}

            return found, ranking_rules.rank(found, filters.now, found.unknown_names, cosines, words_query, query,
                                             kept, lambda memory: admits(filters, memory),
                                             lambda ids: tx.dismissed(filters.tenant, ids))
