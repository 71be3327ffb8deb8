"""A recall's possibly outdated hits and the newer memories that outdate them: each newer is in the
same result, just above the hit it outdates, unless the recall's filters exclude it
(docs/how-memory-works.md#contradictions)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .candidates import Candidates
    from .ranking import Scored
    from .records import Memory


def with_newer(hits: list[Scored], c: Candidates, kept: dict[int, tuple[int, Memory]],
               admitted: Callable[[Memory], bool], signals: Callable[[int], dict[str, object]],
               outdated: dict[int, str] | None = None) -> list[Scored]:
    """``hits`` (best first) with, just above each hit ``outdated_by`` a memory that is no hit, that memory: a
    candidate left out as unrelated to the question, or the newer of a kept pair (``kept``: older seq: (newer
    seq, newer memory)) that passes the recall's filters (``admitted``; one they exclude is not fetched, the
    mark stays). It is returned for that hit, not for its own match: ``newer_of`` names the hit, its confidence
    and score are the hit's (``ranking.rank`` then makes it as sure as the hit was before it was outdated), its
    signals its own (``signals(seq)``: the keyword and vector fields of ``Scored``;
    none for a memory no search found). A memory returned so that is itself outdated (``outdated``: {older seq:
    newer id}, as ``ranking.outdate`` judged it) is marked so, its newer returned above it in turn: "We dropped
    Opsgenie for incident.io" above "We dropped PagerDuty for Opsgenie" above "The on-call tool is
    PagerDuty"."""
    outdated = outdated or {}
    shown = {hit.memory.id for hit in hits}
    candidate = {memory.id: seq for seq, memory in c.rows.items()}
    pairs = {memory.id: (seq, memory) for seq, memory in kept.values()}
    out: list[Scored] = []
    for hit in hits:
        chain: list[Scored] = []  # the newer, its newer ..., oldest first
        older, new = hit, hit.outdated_by
        while new is not None and new not in shown:
            if new in candidate:
                seq, memory = candidate[new], c.rows[candidate[new]]
                own = signals(seq)
            elif new in pairs and admitted(pairs[new][1]):
                (seq, memory), own = pairs[new], {}
            else:
                break
            fields = {"keyword_rank": None, "keyword_score": None, "vector_rank": None, "similarity": None,
                      "coverage": 0.0, **own}
            older = replace(hit, seq=seq, memory=memory, through=None, outdated_by=outdated.get(seq),
                            newer_of=older.memory.id, **fields)  # type: ignore[arg-type]
            chain.append(older)
            shown.add(new)
            new = older.outdated_by
        out.extend(reversed(chain))
        out.append(hit)
    return out


def window(hits: list[Scored], size: int) -> list[Scored]:
    """The first ``size`` of ``hits`` (best first), each outdated hit's newer among ``hits`` moved just
    above it: a newer returned for its hit (``newer_of``) comes in with that hit only, and takes the
    place of the lowest hit outside such pairs (at ``size`` 1, the hit itself)."""
    by_id = {hit.memory.id: hit for hit in hits}
    out: list[Scored] = []
    ids: set[str] = set()
    for hit in (h for h in hits if h.newer_of is None):
        if len(out) >= size:
            break
        if hit.memory.id in ids:
            continue  # a newer moved above the hit it outdates
        newers: list[Scored] = []  # its newer, that one's newer ... (``with_newer``), newest last
        newer = by_id.get(hit.outdated_by) if hit.outdated_by is not None else None
        while newer is not None and newer.memory.id not in ids and newer not in newers:
            newers.append(newer)
            newer = by_id.get(newer.outdated_by) if newer.newer_of is not None and newer.outdated_by else None
        for shown in list(reversed(newers)) + [hit]:
            out.append(shown)
            ids.add(shown.memory.id)
    while len(out) > size:  # the last hit came in with its newers (a chain: more than one)
        ids = {hit.memory.id for hit in out}
        paired = {hit.memory.id for hit in out if hit.outdated_by in ids} \
            | {hit.outdated_by for hit in out if hit.outdated_by in ids}
        unpaired = [at for at, hit in enumerate(out) if hit.memory.id not in paired]
        del out[unpaired[-1] if unpaired else -1]
    return out
