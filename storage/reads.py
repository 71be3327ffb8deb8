"""The read side of ``Store``, above any backend: one memory, its history, recall
(handed to ``retrieval``), the ranked lists of evaluation baselines, listings and
counts, short ids and the sections of the boot context. Nothing here writes.
"""

from __future__ import annotations

from collections.abc import Callable

from . import history, validate
from .backend import Backend
from .query import Filters
from .records import Memory, RecallOutcome
from .retrieval import Retriever, checked_filters


class Reads:
    """Reads (a part of ``Store``, whose constructor makes ``_retriever``)."""

    backend: Backend
    clock: Callable[[], int]
    _retriever: Retriever

    def get(self, *, tenant: str, id: str) -> Memory:
        """The memory ``id`` (any letter case, or a unique prefix of 8+ characters) of ``tenant``.

        A forgotten memory is a tombstone; an expired one is shown the same way
        (no content, source or tags; ``expires_at`` in the past).

        Raises:
            NotFound: no such memory in this tenant.
            InvalidInput: an ambiguous prefix.
        """
        with self.backend.read(tenant) as tx:
            return history.visible(history.resolve(tx, tenant, id), self.clock())

    def history(self, *, tenant: str, id: str) -> list[Memory]:
        """The supersession chain through ``id``, oldest first, expired members
        without content (as :meth:`get`). Raises NotFound or InvalidInput as :meth:`get`."""
        with self.backend.read(tenant) as tx:
            now = self.clock()
            return [history.visible(m, now) for m in history.chain(tx, history.resolve(tx, tenant, id))]

    def recall(
        self,
        *,
        tenant: str,
        query: str,
        scopes: list[str],
        limit: int | None = None,
        kinds: list[str] | None = None,
        tags: list[str] | None = None,
        since: str | None = None,
        until: str | None = None,
        include_history: bool = False,
    ) -> RecallOutcome:
        """Hybrid search (keyword + vector cosine, fused in ``ranking``) over current memories.

        Only memories of ``tenant`` in ``scopes`` that pass every filter are
        candidates; ``tags`` must all be present; ``since``/``until`` bound
        ``observed_at``. Text is never parsed as query syntax (see
        ``query.query_chunks``). Returns at most ``limit`` hits, or none
        with ``abstained`` True when nothing is relevant enough. Writes nothing.

        Raises:
            InvalidInput: a bad limit, kind, tag or date.
        """
        query = validate.nfc(validate.query(query))
        filters = checked_filters(tenant, scopes, self.clock(), kinds, tags, since, until, include_history)
        return self._retriever.recall(filters, query, validate.limit(limit))

    def ranked_lists(self, *, tenant: str, query: str, scopes: list[str], k: int) -> tuple[list[str], list[str]]:
        """The keyword-only and vector-only (cosine) top-``k`` ids, for evaluation baselines."""
        filters = Filters(tenant=tenant, scopes=scopes, now=self.clock())
        ranked = self._retriever.ranking(filters, validate.query(query), k, rank=False)
        if ranked is None:
            return [], []
        found = ranked[0]
        return [found.rows[s].id for s, _, _ in found.keyword], [found.rows[s].id for s, _ in found.vector]

    # -- listing and display helpers (no ranking) ------------------------------------

    def list_memories(
        self,
        *,
        tenant: str,
        scopes: list[str],
        limit: int | None = None,
        kinds: list[str] | None = None,
        tags: list[str] | None = None,
        since: str | None = None,
        until: str | None = None,
        include_history: bool = False,
        offset: int | None = None,
    ) -> list[Memory]:
        """The memories of ``tenant`` in ``scopes`` that pass every filter, newest
        observed first (no query, no ranking, no abstention); at most ``limit``, after
        skipping the ``offset`` newest (a page: :meth:`count_memories` gives the total).

        Filters mean what they mean for :meth:`recall`. Writes nothing.

        Raises:
            InvalidInput: a bad limit, offset, kind, tag or date.
        """
        filters = checked_filters(tenant, scopes, self.clock(), kinds, tags, since, until, include_history)
        size, skip = validate.limit(limit), validate.offset(offset)
        with self.backend.read(tenant) as tx:
            return tx.memories(filters, "observed", size, skip)

    def count_memories(
        self,
        *,
        tenant: str,
        scopes: list[str],
        kinds: list[str] | None = None,
        tags: list[str] | None = None,
        since: str | None = None,
        until: str | None = None,
        include_history: bool = False,
    ) -> int:
        """How many memories :meth:`list_memories` has to show under the same filters
        (its ``limit`` and ``offset`` aside). Writes nothing.

        Raises:
            InvalidInput: a bad kind, tag or date.
        """
        filters = checked_filters(tenant, scopes, self.clock(), kinds, tags, since, until, include_history)
        with self.backend.read(tenant) as tx:
            return tx.count(filters)

    def scope_counts(self, *, tenant: str) -> dict[str, int]:
        """How many current (not superseded, forgotten or expired) memories each
        scope of ``tenant`` holds, largest first."""
        with self.backend.read(tenant) as tx:
            return tx.scope_counts(tenant, self.clock())

    def short_ids(self, *, tenant: str, ids: list[str]) -> dict[str, str]:
        """The shortest unique prefix of each id among ``tenant``'s memories (see ``history.short_ids``)."""
        with self.backend.read(tenant) as tx:
            return history.short_ids(tx, tenant, ids)

    def boot_section(
        self, *, tenant: str, scopes: list[str], kinds: list[str], newest_first: bool, max_rows: int
    ) -> tuple[list[Memory], int]:
        """Current, unexpired memories of ``kinds`` for one section of the boot
        context, and how many there are in all.

        Order: most recent first when ``newest_first``, else most important, then
        most recent. At most ``max_rows`` are returned: the caller picks a number
        that its token budget could never show (``count`` stays exact).
        """
        filters = Filters(
            tenant=tenant, scopes=list(dict.fromkeys(scopes)), now=self.clock(), kinds=validate.kinds(kinds)
        )
        with self.backend.read(tenant) as tx:
            total = tx.count(filters)
            return tx.memories(filters, "observed" if newest_first else "importance", max_rows), total
