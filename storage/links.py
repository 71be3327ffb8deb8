"""Supersession links as a graph: finding the cycles that damage or hand edits can leave."""

from __future__ import annotations


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
