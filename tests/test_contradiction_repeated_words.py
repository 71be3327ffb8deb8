"""A text that repeats a word or a name side by side ("The Orion Orion cluster", "Å Å Å", a stutter, a
pasted line twice) is read like any other by the contradiction test: an adversarial pass found such a
memory made every later similar remember of its tenant fail with a server fault (a KeyError reading the
names written side by side), until the memory was forgotten."""

from __future__ import annotations

import itertools

import pytest
from memvault.storage.contradiction import disagreement, newer_in_meaning
from memvault.storage.store import Store
from memvault.tools import handlers

REPEATED = [
    "The Orion Orion cluster runs the billing jobs.",
    "Å Å Å owns the deploy scripts.",
    "Å A\u030a \u212b owns the deploy scripts.",
    "New York New York is the office we use.",
    "GitHub GitHub Actions runs our CI.",
    "Alice Alice Alice owns the billing service.",
    "Port 8080 8080 serves the API.",
    "Orion Orion Orion Orion.",
    "The the the standup is at 9:15.",
    "Jonas Berg Jonas Berg is the release manager.",
    "Kafka Kafka runs on host-7 host-7.",
]
PLAIN = [
    "The Orion cluster runs the payroll jobs.",
    "Bob owns the deploy scripts.",
    "Boston is the office we use.",
    "GitLab CI runs our CI.",
    "Bob owns the billing service.",
    "Port 9090 serves the API.",
    "The standup is at 10:30.",
    "Priya Nair is the release manager.",
    "Kafka runs on host-9.",
]


@pytest.mark.parametrize(("older", "newer"), [pair for a, b in itertools.product(REPEATED, REPEATED + PLAIN)
                                              for pair in ((a, b), (b, a))])
def test_repeated_words_are_compared_without_a_fault(older: str, newer: str) -> None:
    reason = disagreement(older, newer)
    assert reason is None or isinstance(reason, str)
    assert newer_in_meaning(newer, older, True) in (True, False)


def test_a_memory_repeating_a_name_leaves_later_remembers_working(real_store: Store) -> None:
    caller = handlers.Caller(tenant="t", scope="p")
    stored = [handlers.remember(real_store, caller, kind="fact", content=text).id for text in REPEATED]
    later = [handlers.remember(real_store, caller, kind="fact", content=text) for text in PLAIN]
    assert all(result.created for result in later)
    assert {m.id for m in real_store.list_memories(tenant="t", scopes=["p"], limit=50)} >= set(stored)
