"""One fact changed many times without supersede (trial verify63 N7): every older version is marked outdated by
the newest (``Store.outdating``, as boot and recall mark), none is left unmarked (each version is compared with
its nearest few only), and ``remember`` names one contradicted version, not every near one. Chains of another
fact, or changes of two parts of one memory, are not joined."""

from __future__ import annotations

import pytest

from memvault.storage.consolidate import consolidate
from memvault.storage.store import Store
from memvault.tools import handlers

pytestmark = pytest.mark.contract
NAMES = ["Maria", "Tomas", "Aiko", "Bilal", "Chen", "Dmitri", "Eva", "Farah", "Goran", "Hana", "Ivan", "Jonas", "Keiko",
         "Lars", "Mina", "Nuno", "Olga", "Priya", "Quinn", "Rafael", "Sanna", "Teo", "Uma", "Viktor", "Wen", "Xenia",
         "Yusuf", "Zora"]


def version(k: int) -> str:
    return f"The release manager is {NAMES[k % 28]}{'' if k < 28 else ' ' + 'ABC'[k // 28] + '.'}"


def at(k: int) -> str:
    return f"2026-01-01T{k // 60:02d}:{k % 60:02d}:00Z"


def chain(store: Store, texts: list[str], scope: str = "chain", start: int = 0) -> list[tuple[str, int]]:
    """Remember ``texts`` in order (each keeps the pairs it finds in its own transaction); (id, how many
    contradictions remember named) of each."""
    out = []
    for k, content in enumerate(texts, start=start):
        stored = store.remember(tenant="t", scope=scope, kind="fact", content=content, observed_at=at(k))
        out.append((stored.id, len(stored.contradicts)))
    return out


def marks(store: Store, ids: list[str], scope: str = "chain") -> dict[str, str]:
    return store.outdating("t", [scope, "global"], [store.get(tenant="t", id=i) for i in ids])


@pytest.mark.parametrize("n", [5, 20, 62])
def test_every_older_version_is_marked_by_the_newest(keeping_store, way, n):
    stored = chain(keeping_store, [version(k) for k in range(n)])
    if way == "consolidated":
        consolidate(keeping_store)
    ids = [i for i, _ in stored]
    marked = marks(keeping_store, ids)
    assert {older: marked.get(older) for older in ids[:-1]} == {older: ids[-1] for older in ids[:-1]}
    assert ids[-1] not in marked
    if way == "noted":  # remember names one version, not each near one (they wait for review all the same)
        assert [named for _, named in stored[1:]] == [1] * (n - 1)
    hits = handlers.recall(keeping_store, handlers.Caller(tenant="t", scope="chain"),
                           query="who is the release manager?", limit=5).memories
    # recall marks a hit by a newer it holds above it, itself marked in turn (a chain, as newer_hits shows it)
    mark = {m.id: m.possibly_outdated_by for m in hits}
    assert hits[0].id == ids[-1] and mark[ids[-1]] is None
    for i, m in enumerate(hits[1:], start=1):
        end = m.id
        while mark.get(end) is not None:
            assert mark[end] in [h.id for h in hits[:i]], [(h.content, h.possibly_outdated_by) for h in hits]
            end = mark[end]
        assert end == ids[-1], [(h.content, h.possibly_outdated_by) for h in hits]


def test_chains_of_two_facts_stay_apart(keeping_store, way):
    managers = chain(keeping_store, [version(k) for k in range(8)])
    tools = chain(keeping_store, [f"The on-call tool is {tool}" for tool in ("PagerDuty", "Opsgenie", "incident.io",
                                                                    "Squadcast", "FireHydrant")], start=8)
    if way == "consolidated":
        consolidate(keeping_store)
    for stored in (managers, tools):
        ids = [i for i, _ in stored]
        assert marks(keeping_store, ids) == {older: ids[-1] for older in ids[:-1]}


def test_changes_of_two_parts_of_one_memory_are_not_joined(keeping_store, way):
    both = "The web app and the API both run in eu-west-1"
    stored = chain(keeping_store, [both, "The API runs in us-east-1", "The web app runs in us-west-2"])
    if way == "consolidated":
        consolidate(keeping_store)
    whole, api, web = (i for i, _ in stored)
    marked = marks(keeping_store, [whole, api, web])
    assert api not in marked and web not in marked
