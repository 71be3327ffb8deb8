"""What waits for the agent's judgement, read, never written: the contradicting pairs consolidation kept
(``consolidate.scan``, ``remember``) that are both still current and that no agent judged both true, the
memories whose strength decayed (``strength.needs_review``) and the failing procedures; and, for recall and
boot, the newest newer memory each outdated memory points to. More: docs/how-memory-works.md#consolidation."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import strength
from .query import Filters
from .records import Memory

if TYPE_CHECKING:
    from .backend import Reader
    from .change_pairs import Pair
    from .store import Store

STATE_KINDS = sorted(strength.REVIEWED_KINDS)  # kinds that state how things are: compared for contradictions
DAY_MS = 86_400_000

# Memories read a page at a time for the decayed list, oldest written first, until it holds
# DECAYED_LISTED or DECAYED_PAGES pages were read (the boot context asks for the review:
# docs/benchmarks.md#consolidation).
DECAYED_READ = 200
DECAYED_PAGES = 5
DECAYED_LISTED = 50  # more than review shows (20): the count says how many wait, "50+" when cut
# Kept pairs of the caller's scopes the boot context's count reads at most (by index, with both memories
# of each): past it the count is a lower bound ("50+", as the decayed list's;
# docs/benchmarks.md#the-boot-contexts-review-count-bounded).
# Finding them looks up the scope of each pair's older by id until that many are found: at worst one
# lookup per pair kept (``consolidate.PAIRS_KEPT``), when the tenant's pairs are of other scopes.
PAIRS_COUNTED = 50
# Kept pairs followed from an outdated memory to the end of its chain of changes at most (``kept_newer``, in
# memory; docs/benchmarks.md#consolidation).
CHAIN_STEPS = 100
KEPT_REASON = "kept when compared; the words no longer read as disagreeing"


@dataclass(frozen=True)
class Review:
    """What waits for the agent's judgement: ``contradictions`` ``(older id, newer id, reason)``
    (reason None where it was not asked for: see :func:`review`), ``decayed`` memories
    (``strength.needs_review``, weakest first), ``failing`` procedures."""

    contradictions: list[tuple[str, str, str | None]]
    decayed: list[Memory]
    failing: list[Memory]
    more: bool = False  # the decayed list was cut (``DECAYED_LISTED`` found or ``DECAYED_PAGES`` read): more may wait
    pairs_more: bool = False  # the pairs read were cut (``pairs`` of :func:`review`): more may wait

    @property
    def waiting(self) -> int:
        """How many items wait (at least: see ``more`` and ``pairs_more``)."""
        return len(self.contradictions) + len(self.decayed) + len(self.failing)


def review(store: Store, tenant: str, scopes: list[str], reasons: int | None = None,
           pairs: int | None = None) -> Review:
    """What waits in ``scopes``: the kept contradicting pairs still both current that no agent judged both
    true (``Reader.dismissed``; the verdict the scan or ``remember`` kept is never judged again here),
    among the first ``pairs`` kept of ``scopes`` (None: all; else
    ``pairs_more`` when more are kept), with today's reason for the first
    ``reasons`` of them (None: all; a count needs none); current memories of
    ``strength.REVIEWED_KINDS`` that need review, weakest first, read oldest written first among
    those old enough to have decayed that far, ``DECAYED_READ`` a page until ``DECAYED_LISTED`` are
    found, the store is exhausted or ``DECAYED_PAGES`` pages were read (``more`` then); procedures
    failing (see ``Review``)."""
    now = store.clock()
    with store.backend.read(tenant) as tx:
        # bounded: the first pairs of ``scopes`` (another scope's pairs would take the count's place)
        kept = tx.review_pairs(tenant) if pairs is None else tx.review_pairs(tenant, limit=pairs + 1, scopes=scopes)
        pairs_more = pairs is not None and len(kept) > pairs
        kept = kept[:pairs]
        rows = {m.id: m for m in tx.memories(tenant, ids=sorted({i for p in kept for i in p})).values()}
        dismissed = tx.dismissed(tenant, sorted({older for older, _ in kept})) if kept else set()
        contradictions: list[tuple[str, str, str | None]] = []
        for older_id, newer_id in kept:
            older, newer = rows.get(older_id), rows.get(newer_id)
            if not _waiting(older, newer, now, scopes, dismissed):
                continue
            asked = reasons is None or len(contradictions) < reasons
            contradictions.append((older_id, newer_id, _reason(older, newer) if asked else None))
        age = min(_review_age(kind) for kind in STATE_KINDS)
        old = Filters(tenant=tenant, scopes=scopes, now=now, kinds=STATE_KINDS, until=now - age + 1)
        decayed, more, after = [], False, 0
        for _ in range(DECAYED_PAGES):
            read = tx.memories(tenant, filters=old, order="seq", limit=DECAYED_READ, after_seq=after)
            decayed += [m for m in read.values() if strength.needs_review(m, now)]
            after, more = max(read, default=after), len(read) == DECAYED_READ
            if not more or len(decayed) >= DECAYED_LISTED:
                break
    decayed.sort(key=lambda m: (strength.strength(m, now), m.id))
    failing = store.failing_procedures(tenant, scopes)
    return Review(contradictions=contradictions, decayed=decayed, failing=failing, more=more, pairs_more=pairs_more)


def kept_newer(tx: Reader, tenant: str, older: dict[str, Memory], now: int,
               scopes: list[str]) -> dict[str, tuple[int, Memory]]:
    """For each memory of ``older`` (id: memory) the older of a kept pair that waits for review (as
    :func:`review` reads them), its newest newer memory, followed while that one is the older of such a pair
    in turn (``CHAIN_STEPS`` at most): {older id: (newer seq, newer memory)}, the end of the chain, so a mark
    never names a memory outdated itself, but never one an agent judged to hold beside the older
    (``Reader.dismissed``). By index, by those ids and their newers' (recall marks its hits
    with it); only when a newer is the older of a pair in turn, the tenant's pairs
    (``consolidate.PAIRS_KEPT`` at most) and the rows of the chains, once."""
    first = waiting_newer(tx, tenant, older, now, scopes)
    onward = sorted({m.id for _, m in first.values()})
    if not onward or not tx.review_pairs(tenant, older=onward):
        return first
    newers: dict[str, list[str]] = {}
    for older_id, newer_id in sorted(tx.review_pairs(tenant), key=lambda pair: pair[1]):  # the newest last
        newers.setdefault(older_id, []).append(newer_id)
    reached, left = set(), list(onward)
    while left:
        at = left.pop()
        if at not in reached:
            reached.add(at)
            left += newers.get(at, [])
    rows = {m.id: (seq, m) for seq, m in tx.memories(tenant, ids=sorted(reached)).items()}
    dismissed = tx.dismissed(tenant, sorted(reached))
    ends = {}
    for older_id, end in first.items():
        seen = {older_id, end[1].id}
        for _ in range(CHAIN_STEPS):
            on = next((rows[i] for i in reversed(newers.get(end[1].id, []))
                       if i in rows and _waiting(end[1], rows[i][1], now, scopes, dismissed)
                       and (i, older_id) not in dismissed), None)  # not to one judged to hold beside the start
            if on is None or on[1].id in seen:  # its end, or a cycle back
                break
            end = on
            seen.add(end[1].id)
        ends[older_id] = end
    return ends


def waiting_newer(tx: Reader, tenant: str, older: dict[str, Memory], now: int,
                  scopes: list[str]) -> dict[str, tuple[int, Memory]]:
    """For each memory of ``older`` (id: memory) the older of a kept pair waiting for review, its newest newer
    memory: {older id: (newer seq, newer memory)}; one lookup of the pairs, one of the rows and one of the
    dismissed pairs, by index."""
    pairs = tx.review_pairs(tenant, older=sorted(older)) if older else []
    if not pairs:
        return {}
    rows = {m.id: (seq, m) for seq, m in tx.memories(tenant, ids=sorted({n for _, n in pairs})).items()}
    dismissed = tx.dismissed(tenant, sorted({o for o, _ in pairs}))
    newest: dict[str, tuple[int, Memory]] = {}
    for older_id, newer_id in sorted(pairs, key=lambda pair: pair[1]):  # ids sort as written: the newest last
        if _waiting(older[older_id], rows.get(newer_id, (0, None))[1], now, scopes, dismissed):
            newest[older_id] = rows[newer_id]
    return newest


def _waiting(older: Memory | None, newer: Memory | None, now: int, scopes: list[str],
             dismissed: set[Pair]) -> bool:
    """Whether a kept pair waits for review: both shown in ``scopes`` and not among ``dismissed``
    (``Reader.dismissed``: an agent judged both true)."""
    return older is not None and newer is not None and all(_shown(m, now, scopes) for m in (older, newer)) \
        and (older.id, newer.id) not in dismissed


def _reason(older: Memory, newer: Memory) -> str:
    """Why the kept pair disagrees, as ``contradiction.disagreement`` reads it today (a pair kept
    by an earlier reading that today's finds no disagreement in stays until it is settled)."""
    from . import contradiction  # (a count of what waits, as the boot context asks for, needs no reading)

    found = contradiction.disagreement(older.content, newer.content)  # type: ignore[arg-type]
    return found if found is not None else KEPT_REASON


def _shown(memory: Memory, now: int, scopes: list[str]) -> bool:
    live = memory.expires_at is None or memory.expires_at > now
    return unchanged(memory) and live and memory.content is not None and memory.scope in scopes


def _review_age(kind: str) -> int:
    """The least age (ms since observed) at which a memory of ``kind`` may need review: never
    confirmed, it starts at ``strength.learned(kind, 0)`` and halves each half-life."""
    halvings = max(0.0, math.log2(strength.learned(kind, 0) / strength.REVIEW_BELOW))
    days = strength.HALF_LIFE_DAYS[kind] * halvings
    return int(days * DAY_MS)


def unchanged(memory: Memory) -> bool:
    """Neither superseded nor forgotten."""
    return memory.superseded_by is None and memory.forgotten_at is None
