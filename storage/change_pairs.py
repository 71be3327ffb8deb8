"""Which contradicting pairs are kept for review (``remember``, consolidation), beside the test of the words
(``contradiction.contradicts``): the scopes a memory is compared with, and the ends of one chain of changes
joined. More: docs/how-memory-works.md#contradictions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .backend import Search
from .limits import GLOBAL_SCOPE
from .query import Filters

if TYPE_CHECKING:
    from .backend import Reader

Pair = tuple[str, str]  # (older id, newer id) in meaning
LINKED_MAX = 200  # memories of one chain of changes read at most for its ends (``joined_ends``)
ENDS_JOINED = 16  # its latest ends compared with the latest at most (their cosines are read two by two)


def compared_scopes(scope: str) -> list[str]:
    """The scopes a memory of ``scope`` is compared with: its own and ``global``, which recall, boot and review
    read with it (a project's "We phased out Fluentd" changes the global "Our log shipper is Fluentd" for that
    project); a ``global`` memory, ``global``'s only."""
    return [scope] if scope == GLOBAL_SCOPE else [scope, GLOBAL_SCOPE]


def kept_across(older_scope: str, newer_scope: str) -> bool:
    """Whether a pair of these scopes (the older's in meaning, the newer's) is kept: of one scope, or a scope's
    change of a ``global`` memory. Never a global memory outdating a scope's: a project's exception to a global
    rule stays current ("one approval" beside the global "two"); the global memory stays unmarked in the other
    scopes, which do not read the scope's (``review.kept_newer`` wants both read)."""
    return older_scope in (newer_scope, GLOBAL_SCOPE)


def linked(pairs: set[Pair], new: set[Pair]) -> set[str]:
    """The ids ``pairs`` link to those of ``new`` (``new``'s own among them), at most ``LINKED_MAX``."""
    links: dict[str, set[str]] = {}
    for older, newer in pairs | new:
        links.setdefault(older, set()).add(newer)
        links.setdefault(newer, set()).add(older)
    group, left = set(), [i for pair in new for i in pair]
    while left and len(group) < LINKED_MAX:
        at = left.pop()
        if at not in group:
            group.add(at)
            left += links.get(at, set()) - group
    return group


def joined_ends(tx: Reader, tenant: str, pairs: set[Pair], new: set[Pair], now: int) -> set[Pair]:
    """Pairs (older id, newer id) that join the ends of one chain of changes: among the memories ``pairs`` link
    to those of ``new`` (:func:`linked`), each current end (the older of no pair; of the ``ENDS_JOINED``
    latest observed) that contradicts the latest (``contradiction.contradicts``, the newer in meaning as
    consolidation orders them). Each version of a fact is compared with its nearest few only, so a version no
    later one had among them was left the end of a chain of its own, current and unmarked."""
    from .contradiction import contradicts, may_contradict, newer_in_meaning
    from .ranking import SAME_SUBJECT

    ends = sorted(linked(pairs, new) - {older for older, _ in pairs | new})
    if len(ends) < 2:
        return set()
    rows = tx.memories(tenant, ids=ends)
    live = sorted(((seq, m) for seq, m in rows.items() if m.content is not None and m.superseded_by is None),
                  key=lambda row: (row[1].observed_at, row[1].id))[-ENDS_JOINED:]
    if len(live) < 2:
        return set()
    cosines = tx.search(Search(Filters(tenant=tenant, scopes=None, now=now), pairs=[seq for seq, _ in live])).pairs
    last_seq, last = live[-1]
    out = set()
    for seq, end in live[:-1]:
        cosine = cosines.get((seq, last_seq), cosines.get((last_seq, seq), -1.0))
        if not may_contradict(last.content or "", end.content or "", cosine, SAME_SUBJECT):
            continue  # under every cosine gate, either way round: no words read to order them
        later = newer_in_meaning(last.content or "", end.content or "", True)
        older, newer = (end, last) if later else (last, end)
        if kept_across(older.scope, newer.scope) and contradicts(
                older.content or "", newer.content or "", cosine, SAME_SUBJECT) is not None:
            out.add((older.id, newer.id))
    return out
