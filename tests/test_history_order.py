"""``include_history`` shows superseded memories after what replaced them, and leaves the current
memory as sure as without them, whichever way the supersede went (trial 60: a typo corrected with
``by`` an older memory put the typo first and the answer at 0.27)."""

from __future__ import annotations

import pytest

from memvault.storage.ranking import SURE_CONFIDENCE
from memvault.storage.store import Store

pytestmark = pytest.mark.contract

PAIRS = [  # (the right value, the wrong one, the question)
    ("The VPN endpoint is vpn1.acme.net", "The VPN endpoint is vpn2.acme.net", "VPN endpoint"),
    ("The billing API listens on port 8443", "The billing API listens on port 8444",
     "which port does the billing API use?"),
    ("The standup is at 9:15 every weekday", "The standup is at 9:51 every weekday", "when is the standup?"),
    ("Dana owns the payments service", "Diana owns the payments service", "who owns the payments service?"),
    ("Backups are kept for 30 days", "Backups are kept for 300 days", "how long are backups kept?"),
]


def _recall(store: Store, question: str, history: bool) -> list[tuple[str, float, str | None]]:
    hits = store.recall(tenant="t", query=question, scopes=["p"], include_history=history).hits
    return [(h.memory.id, h.confidence, h.memory.superseded_by) for h in hits]


def _check(store: Store, question: str, current: str, superseded: list[str]) -> None:
    plain = _recall(store, question, history=False)
    shown = _recall(store, question, history=True)
    assert plain[0][0] == current and plain[0][1] >= SURE_CONFIDENCE, plain
    assert shown[0] == plain[0], shown  # first, and as sure as without the history
    ids = [i for i, _, _ in shown]
    for old in superseded:
        assert old in ids, shown
    for at, (_, _, successor) in enumerate(shown):  # nothing superseded above what superseded it
        if successor is not None and successor in ids:
            assert ids.index(successor) < at, shown
    # the current hits are the same, as sure, in the same order
    assert [(i, c) for i, c, s in shown if s is None] == [(i, c) for i, c, _ in plain], (plain, shown)


@pytest.mark.parametrize("right, wrong, question", PAIRS)
def test_a_typo_corrected_by_the_older_memory_stays_below_it(real_store, right, wrong, question):
    kept = real_store.remember(tenant="t", scope="p", content=right).id
    typo = real_store.remember(tenant="t", scope="p", content=wrong).id
    real_store.supersede_by(tenant="t", id=typo, by=kept, reason="a typo")
    _check(real_store, question, kept, [typo])


@pytest.mark.parametrize("right, wrong, question", PAIRS)
def test_an_older_memory_superseded_by_a_newer_one_stays_below_it(real_store, right, wrong, question):
    old = real_store.remember(tenant="t", scope="p", content=wrong).id
    new = real_store.remember(tenant="t", scope="p", content=right).id
    real_store.supersede_by(tenant="t", id=old, by=new, reason="changed")
    _check(real_store, question, new, [old])


@pytest.mark.parametrize("right, wrong, question", PAIRS)
def test_a_chain_of_new_contents_lists_each_version_below_its_successor(real_store, right, wrong, question):
    first = real_store.remember(tenant="t", scope="p", content=right).id
    second = real_store.supersede(tenant="t", id=first, content=wrong, reason="changed").id
    third = real_store.supersede(tenant="t", id=second, content=right + " again", reason="changed back").id
    _check(real_store, question, third, [first, second])
