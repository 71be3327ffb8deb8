"""The consistency checks both backends share (``memvault doctor``): supersession links
complete both ways and without cycles, tombstones empty, pending vectors, sessions' counts."""

from __future__ import annotations

from collections.abc import Callable

from .backend import LINKED
from .session_rows import MISCOUNTED


def on_cycles(links: dict[str, str]) -> set[str]:
    """The ids that a chain of ``links`` (id -> next id) leads back to."""
    looped: set[str] = set()
    done: set[str] = set()
    for start in links:
        path: list[str] = []
        node: str | None = start
        while node is not None and node not in done and node not in path:
            path.append(node)
            node = links.get(node)
        if node is not None and node in path:
            looped.update(path[path.index(node):])
        done.update(path)
    return looped


def shared_problems(one: Callable[[str], int], rows: Callable[[str], list], pending: str) -> list[str]:
    """The problems of the checks written in SQL both backends run alike, as sentences: ``one`` answers
    a count, ``rows`` a query's rows; ``pending`` is the backend's spelling of a pending vector."""
    problems = []
    pending_count = one(f"SELECT count(*) FROM memories WHERE {pending} AND content IS NOT NULL")
    if pending_count:
        problems.append(
            f"vectors: {pending_count} memories have no vector yet; they are found by keywords only "
            "until `memvault reindex` (or a server with a working model) makes them"
        )
    half = one(
        "SELECT count(*) FROM memories a WHERE (a.superseded_by IS NOT NULL AND NOT EXISTS"
        f" (SELECT 1 FROM memories b WHERE b.id = a.superseded_by AND {LINKED}))"
        " OR (a.supersedes IS NOT NULL AND NOT EXISTS"
        " (SELECT 1 FROM memories b WHERE b.id = a.supersedes AND b.superseded_by = a.id))"
    )
    if half:
        problems.append(f"{half} supersession links are one-sided")
    for column in ("superseded_by", "supersedes"):  # identifiers from this tuple only
        looped = on_cycles(dict(rows(f"SELECT id, {column} FROM memories WHERE {column} IS NOT NULL")))
        if looped:
            problems.append(
                f"{len(looped)} memories are in a supersession cycle ({column} links), e.g. {sorted(looped)[0]}"
            )
    tombstones = one(
        "SELECT count(*) FROM memories m WHERE m.forgotten_at IS NOT NULL AND (m.content IS NOT NULL"
        " OR m.source IS NOT NULL OR EXISTS (SELECT 1 FROM memory_tags t WHERE t.memory_seq = m.seq))"
    )
    if tombstones:
        problems.append(f"{tombstones} forgotten memories still hold content, source or tags")
    miscounted = one(MISCOUNTED)
    if miscounted:
        problems.append(f"{miscounted} sessions' turn or token counts disagree with their turns, or skip a seq")
    return problems
