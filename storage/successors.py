"""A question's evidence on a superseded memory, credited to the memory that replaced it.
More: docs/storage-tuning.md#successors."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from .backend import Reader
from .query import Filters
from .records import Memory


def heads(
    tx: Reader, filters: Filters, older: dict[int, Memory], admits: Callable[[Filters, Memory], bool]
) -> dict[int, tuple[int, Memory]]:
    """For each superseded memory of ``older``, ``(seq, memory)`` of its chain's current head
    when that passes ``filters`` (``admits``); a cycle credits nothing."""
    current = replace(filters, include_history=False)
    found: dict[int, tuple[int, Memory]] = {}
    for seq, memory in older.items():
        if memory.superseded_by is None:
            continue
        seen = {memory.id}
        head: tuple[int, Memory] | None = (seq, memory)
        while head is not None and head[1].superseded_by is not None and head[1].superseded_by not in seen:
            head = next(iter(tx.memories(filters.tenant, ids=[head[1].superseded_by]).items()), None)
            if head is not None:
                seen.add(head[1].id)
        if head is not None and head[1].superseded_by is None and admits(current, head[1]):
            found[seq] = head
    return found

