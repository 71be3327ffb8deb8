"""The boot context at every budget from 100 to 4,000 tokens, against what the store holds: within the
budget, each section a prefix of its memories in their order, each whole line the memory's quoted text,
the footer's counts true, the review line there when review holds items and no section lost its place
to it (issue 28: boot renders once)."""

from __future__ import annotations

import re

import pytest
from boot_seed import seed
from fakes import Clock

from memvault.storage import literal
from memvault.storage.consolidate import consolidate
from memvault.storage.records import NewTurn
from memvault.storage.store import Store
from memvault.tools.boot import LAST_SESSION, SECTIONS, TASK, boot_context, by_strength, last_session, newer_first
from memvault.tools.handlers import Caller

CALLER = Caller(tenant="t", scope="proj")
BUDGETS = range(100, 4001, 100)
_LINE = re.compile(r'^- \[([0-9a-f-]+)\] (?:[a-z]+, )?\d{4}-\d\d-\d\d: ("(?:[^"\\]|\\.)*")(.*)$')
_FOOTER = re.compile(r"^_([\d,]+) of ([\d,]+) memor(?:y|ies) shown, within ([\d,]+) tokens?\.")


def with_runs(store: Store, clock: Clock) -> None:
    seed(store, n=30)
    for i, memory in enumerate(section(store, ("procedure",), False)):
        for outcome in (["success", "failure", "failure"] if i % 2 else ["success"]):
            clock.advance(60)
            store.confirm(tenant="t", id=memory.id, outcome=outcome,
                          note="the disk was full" if outcome == "failure" else None)


def with_sessions(store: Store, clock: Clock) -> None:
    seed(store, n=40)
    for n, texts in enumerate((["fix the flaky login test", "retried the fixture"],
                               ["migrate the billing table", "it ran; " + "the rows were copied in pages. " * 20])):
        clock.advance(3600)
        turns = [NewTurn(role="user" if i % 2 == 0 else "assistant", text=text, at=clock.now - 1000 * (2 - i))
                 for i, text in enumerate(texts)]
        store.episodes.append(tenant="t", scope="proj", session_id=f"s-{n}", turns=turns, cwd=f"/home/dev/{n}")
        store.episodes.end(tenant="t", session_id=f"s-{n}", at=clock.now)


def with_pairs(store: Store, clock: Clock) -> None:
    for i in range(12):
        clock.advance(3600)
        store.remember(tenant="t", scope="proj", kind="fact", importance=9 - i % 5,
                       content=f"The team standup for squad {i} is at 9:{10 + i} every weekday.")
    for i in range(0, 12, 2):
        clock.advance(3600)
        store.remember(tenant="t", scope="proj", kind="fact",
                       content=f"The team standup for squad {i} is at 11:{10 + i} every weekday.")
    consolidate(store)


def fresh(store: Store, clock: Clock) -> None:
    for i in range(60):  # just written, nothing for review
        store.remember(tenant="t", scope="proj", kind=("preference", "fact", "failure")[i % 3], importance=5,
                       content=f"note {i}: the service on port {9000 + i} belongs to team {i % 7}")


STORES = {"seeded": lambda store, clock: seed(store), "runs": with_runs, "sessions": with_sessions,
          "pairs": with_pairs, "fresh": fresh}
# (store, task, cwd) read at every budget
READS = [("seeded", None, None), ("seeded", "use the staging cluster", None), ("runs", None, None),
         ("sessions", None, None), ("sessions", None, "/home/dev/0"), ("pairs", None, None), ("fresh", None, None)]


def section(store: Store, kinds: tuple[str, ...], newest_first: bool) -> list:
    """Every current memory of ``kinds`` the caller reads, in the store's order for a boot section."""
    return store.boot_section(tenant="t", scopes=CALLER.scopes(None), kinds=list(kinds), newest_first=newest_first,
                              max_rows=10_000)[0]


def expected_order(store: Store, kinds: tuple[str, ...], newest_first: bool) -> list[str]:
    """The ids of a section's memories in the order boot shows them, from the store."""
    scopes = CALLER.scopes(None)
    memories = section(store, kinds, newest_first)
    if newest_first:
        return [m.id for m in memories]
    store.review("t", scopes, reasons=0)  # the pairs remember noted are kept
    # each older's mark: its kept pairs' newest newer, followed to the end of its chain (consolidate.kept_newer)
    newer_of = store.outdating("t", scopes, memories)
    return [m.id for m in newer_first(by_strength(memories, store.clock()), newer_of)]


def blocks(document: str) -> dict[str, list[tuple[str, str, str]]]:
    """Each section's lines as (short id, quoted content, what follows it)."""
    out = {}
    for block in document.split("\n## ")[1:]:
        title, *lines = block.split("\n")
        out[title] = [m.groups() for line in lines if (m := _LINE.match(line))]
    return out


@pytest.mark.parametrize(("kind", "task", "cwd"), READS)
def test_the_boot_context_at_every_budget_is_what_the_store_holds(store: Store, clock: Clock, kind, task, cwd):
    STORES[kind](store, clock)
    scopes = CALLER.scopes(None)
    memories = {m.id: m for s in SECTIONS for m in section(store, s.kinds, s.newest_first)}
    short = store.short_ids(tenant="t", ids=list(memories))
    by_short = {s: memories[i] for i, s in short.items()}
    review = store.review("t", scopes, reasons=0)
    everything = {s.title: expected_order(store, s.kinds, s.newest_first) for s in SECTIONS}
    counter = literal.counter()
    digest = last_session(store, CALLER, scopes, cwd)
    last = digest and digest.digest.id  # never under recent episodes, shown or not (its section comes last)
    for budget in BUDGETS:
        document = boot_context(store, CALLER, budget, task=task, cwd=cwd)
        assert document == boot_context(store, CALLER, budget, task=task, cwd=cwd)
        assert counter(document) <= budget, budget
        shown = blocks(document)
        for title, lines in shown.items():
            ids = [by_short[s].id for s, _, _ in lines]
            assert len(set(ids)) == len(ids)
            for (_, content, rest), i in zip(lines, ids):
                if "— an excerpt" in rest:
                    assert content[:-2] in literal.quoted(memories[i].content), (budget, title)
                else:
                    assert content == literal.quoted(memories[i].content), (budget, title)
            if title in everything and TASK.title not in shown and not title.startswith(LAST_SESSION.title):
                order = [i for i in everything[title] if title != "Recent episodes" or i != last]  # its own section
                assert ids == order[:len(ids)], (budget, title)
        footer = _FOOTER.search(document.rstrip().rsplit("\n", 1)[-1])
        assert footer, budget
        assert int(footer[1].replace(",", "")) == sum(len(lines) for lines in shown.values()), budget
        assert counter(document) <= int(footer[3].replace(",", "")) <= budget  # the count it states bounds it
        pointer = "for review: read memory://review" in document
        assert pointer <= bool(review.waiting or review.more), budget
        if review.waiting and budget >= 1000:
            assert pointer, budget  # the budget holds every section's first line and the review line
