"""Recall's ranked search as the tools run it, without their wire models (pydantic): what the prompt hook
needs (docs/hooks.md#speed). ``handlers.recall`` shapes the same hits for the wire."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memvault.storage import validate
from memvault.storage.limits import RECALL_MAX_CONTENT_CHARS

if TYPE_CHECKING:
    from memvault.storage.hits import Hit, RecallOutcome
    from memvault.storage.store import Store

    from .caller import Caller


def within_budget(hits: list[Hit]) -> list[Hit]:
    """The first of ``hits`` whose contents add up to ``RECALL_MAX_CONTENT_CHARS`` (always the first)."""
    shown: list[Hit] = []
    used = 0
    for hit in hits:
        used += len(hit.memory.content or "")
        if used > RECALL_MAX_CONTENT_CHARS and shown:
            break
        shown.append(hit)
    return shown


def recall(store: Store, caller: Caller, query: str, **filters: object) -> tuple[RecallOutcome, list[Hit]]:
    """``handlers.recall`` of a non-empty ``query`` in the caller's scopes: the store's outcome and the hits
    it shows.

    Raises:
        InvalidInput: ``query`` is empty once invisible characters are dropped, or a filter is bad.
    """
    from memvault.storage.errors import InvalidInput

    query = validate.query(query)  # its private spans dropped, as recall's
    if not query.strip():
        raise InvalidInput("query", "is empty: give words to search for")
    outcome = store.recall(tenant=caller.tenant, query=query, scopes=caller.scopes(None), **filters)  # type: ignore[arg-type]
    return outcome, within_budget(outcome.hits)
