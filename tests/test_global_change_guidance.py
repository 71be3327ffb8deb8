"""What ``remember`` tells the agent to do about a pair matches what ``supersede`` accepts: a scope's change of a
``global`` memory names that scope (``other_scope``) and says to supersede the global memory with ``content``,
which works, never with ``by``, which ``supersede`` refuses across scopes; a pair of one scope still says ``by``,
and following that works too (trial verify64: the guidance named a call that was refused)."""

from __future__ import annotations

import pytest

from memvault.storage.errors import InvalidInput
from memvault.storage.store import Store
from memvault.tools import handlers
from memvault.tools.text import render

MAY, OCTOBER = "2025-05-01T10:00:00Z", "2025-10-01T10:00:00Z"
CHANGES = [  # (an older memory, a change of it, what is true now everywhere)
    ("Our log shipper is Fluentd", "We phased out Fluentd in favour of Vector", "Our log shipper is Vector"),
    ("Our CI runs on Jenkins", "We retired Jenkins", "Our CI runs on GitHub Actions"),
    ("The company VPN uses OpenVPN", "The company VPN moved to WireGuard", "The company VPN uses WireGuard"),
    ("The on-call tool is PagerDuty", "We dropped PagerDuty for Opsgenie", "The on-call tool is Opsgenie"),
    ("Code reviews need two approvals", "Code reviews need one approval", "Code reviews need one approval everywhere"),
]
PROJECT = handlers.Caller(tenant="a", scope="proj")


def _pair(store: Store, older: str, newer: str, older_scope: str) -> tuple[str, handlers.RememberResult]:
    old = handlers.remember(store, handlers.Caller(tenant="a", scope=older_scope), kind="fact", content=older,
                            observed_at=MAY).id
    made = handlers.remember(store, PROJECT, kind="fact", content=newer, observed_at=OCTOBER)
    assert [c.id for c in made.contradicts] == [old]
    return old, made


@pytest.mark.parametrize(("older", "newer", "now"), CHANGES)
def test_a_change_of_a_global_memory_says_to_supersede_it_with_content_and_that_works(real_store, older, newer, now):
    old, made = _pair(real_store, older, newer, "global")
    assert made.contradicts[0].other_scope == "global"
    text = render(made)
    assert f"supersede {old} with `content`" in text and "with `by`" not in text
    with pytest.raises(InvalidInput):  # what the guidance no longer says
        handlers.supersede(real_store, PROJECT, id=old, by=made.id)
    done = handlers.supersede(real_store, PROJECT, id=old, content=now)
    assert real_store.get(tenant="a", id=done.id).scope == "global"
    assert real_store.get(tenant="a", id=old).superseded_by == done.id


@pytest.mark.parametrize(("older", "newer", "now"), CHANGES)
def test_a_change_within_one_scope_still_says_by_and_that_works(real_store, older, newer, now):
    old, made = _pair(real_store, older, newer, "proj")
    assert made.contradicts[0].other_scope is None
    assert f"supersede {old} with `by` {made.id}" in render(made)
    handlers.supersede(real_store, PROJECT, id=old, by=made.id)
    assert real_store.get(tenant="a", id=old).superseded_by == made.id


@pytest.mark.parametrize("older_scope", ["global", "proj"])
def test_what_remember_and_supersede_say_of_a_pair_comes_from_their_own_write(real_store, monkeypatch, older_scope):
    """The pair's scopes are read in the write's transaction: a memory forgotten by another client right
    after the write (here: every later read of a memory fails) leaves the result whole, never an error
    after a memory was stored."""
    older, newer, _ = CHANGES[2]
    old = handlers.remember(real_store, handlers.Caller(tenant="a", scope=older_scope), kind="fact",
                            content=older, observed_at=MAY).id

    def gone(**_: object) -> None:
        raise AssertionError("read after the write")

    monkeypatch.setattr(real_store, "get", gone)
    made = handlers.remember(real_store, PROJECT, kind="fact", content=newer, observed_at=OCTOBER)
    expected = "global" if older_scope == "global" else None
    assert [(c.id, c.other_scope) for c in made.contradicts] == [(old, expected)]
    changed = handlers.supersede(real_store, PROJECT, id=made.id, content="The company VPN moved to Tailscale")
    assert [(c.id, c.other_scope) for c in changed.contradicts] == [(old, expected)]
    monkeypatch.undo()
    assert real_store.get(tenant="a", id=changed.id).supersedes == made.id
