"""Recall over any backend: the checked filters, the question split into its time
expression and its words, the query embedded while the keyword side runs, the
candidates of one read transaction (``candidates.gather``) and their ranking
(``ranking.rank``).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from . import ranking as ranking_rules
from . import validate
from .backend import Backend, Reader
from .candidates import Candidates, gather
from .embeddings import Embedder
from .errors import InvalidInput
from .query import CANDIDATES_MIN, Filters, names_no_subject, query_chunks
from .records import Hit, RecallOutcome, Signals
from .timewords import TimeParser


def checked_filters(
    tenant: str, scopes: list[str], now: int, kinds: list[str] | None = None, tags: list[str] | None = None,
    since: str | None = None, until: str | None = None, include_history: bool = False,
) -> Filters:
    """The filters of a recall or a listing, each checked (ISO-8601 ``since``/``until``).

    Raises:
        InvalidInput: a bad kind, tag or date, or ``until`` not later than ``since``.
    """
    since_ms, until_ms = validate.timestamp("since", since), validate.timestamp("until", until)
    if since_ms is not None and until_ms is not None and since_ms >= until_ms:
        raise InvalidInput("until", f"must be later than since ({since}); nothing can be observed in between")
    return Filters(
        tenant=tenant,
        scopes=list(dict.fromkeys(scopes)),
        now=now,
        kinds=validate.kinds(kinds),
        tags=validate.tags(tags) or None,
        since=since_ms,
        until=until_ms,
        include_history=bool(include_history),
    )


class Retriever:
    """Runs recalls against ``backend``.

    ``embedder`` embeds questions (None: keyword only); ``model_problem()`` (outside
    transactions) and ``recorded_model_problem(tx)`` return None when vectors can be
    searched, else why not (the result says so).
    """

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
                signals=Signals(s.keyword_rank, s.keyword_score, s.vector_rank, s.similarity, s.coverage),
            )
            for s in ranking.hits[:size]
        ]
        degraded = candidates.degraded
        pending = sum(h.memory.vector_pending for h in hits)
        if degraded is None and pending:
            degraded = f"{pending} matching memories have no vector yet"
        return RecallOutcome(hits=hits, abstained=ranking.abstained, degraded=degraded, time=candidates.when)

    def ranking(
        self, filters: Filters, query: str, pool: int, rank: bool = True
    ) -> tuple[Candidates, ranking_rules.Ranking | None] | None:
        """Candidates for ``query`` (``pool`` from each side) and, with ``rank``, their
        ranking, from one read transaction; None when the query has no words."""
        if not query_chunks(query):
            return None
        when = self.time.find(query, filters.until or filters.now)
        words_query = when.remove_from(query) if when else query
        if when is not None and when.vague and not names_no_subject(words_query):
            # "recently" in a question with a subject of its own is relative to that subject's
            # story ("What did Melanie paint recently?"), not to the store's clock: LoCoMo R@5
            # on its 28 such questions 0.762, 0.458 reading them as the last 30 days.
            when, words_query = None, query
        degraded = self.model_problem()
        with self.backend.read(filters.tenant) as tx:
            # The query is embedded on a worker thread while the keyword search runs.
            degraded = degraded or self.recorded_model_problem(tx)
            embedding = self._pool.submit(self.embedder.embed, [query]) if self.embedder and degraded is None else None

            def query_vector() -> np.ndarray | None:
                return None if embedding is None else embedding.result()[0]

            found = gather(tx, filters, words_query, query_vector, when, pool, degraded)
            if not rank:
                return found, None
            return found, ranking_rules.rank(found, filters.now, found.unknown_names, tx.pair_similarity)
