"""A question's evidence on a superseded memory, credited to the memory that replaced it.

A superseded memory leaves recall, and with it its words and meaning: after "Staging
database is db-stg-03 on port 5433" was superseded by "Staging database moved to
db-stg-07", the question "where is db-stg-03?" matched nothing current by its words, and
a memory about the production database came first. What the question matched is an
earlier version of a current memory, and that current memory (the head of its
supersession chain, however many supersedes later) is the answer: the keyword and vector
matches of a superseded memory count for its head, as if the head's own (``candidates.gather``
merges them, each signal the better of the head's own and its predecessor's).

A head is credited only while it is current, neither forgotten nor expired, and passes
every filter of the recall (scopes, kinds, tags, time bounds): a chain whose newest version
was forgotten has no current version and credits nothing, and a filter the head fails
is not dodged through its predecessor. The superseded memories are those the recall's
own filters admit with the history (what ``include_history`` would show), so nothing
outside its scopes or other filters counts either.

Cost: each candidate query (keyword, vector) runs with the history admitted and its
answer's rows are read; only when a superseded memory is among that answer does the
query run again without the history (``candidates.current_and_older``). A recall no
superseded memory matches gets the same candidates as before; the heads are read by id,
one per link of each chain walked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from .backend import Reader
from .query import Filters
from .records import Memory


def heads(
    tx: Reader, filters: Filters, older: dict[int, Memory], admits: Callable[[Filters, Memory], bool]
) -> dict[int, tuple[int, Memory]]:
    """For each superseded memory of ``older`` (seq -> memory), ``(seq, memory)`` of the
    current head of its chain, when that head passes ``filters`` as a current memory
    (``admits(current_filters, memory)``); memories without such a head are left out.

    The walk follows ``superseded_by`` links and stops at an id it has seen, so a cycle
    left by damage credits nothing instead of looping (``memvault doctor`` reports it)."""
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

