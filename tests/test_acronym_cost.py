"""A question of acronyms costs what any question of its length costs (adversarial pass 50: a
read-only key's recall of "XY XY XY ..." (2,000 characters) against 8 memories of 8,000 characters
took 34 s: each acronym of the question was matched against every word of every candidate)."""

from __future__ import annotations

import random
import time

from memvault.storage.candidates import spelled_out

WORDS = ("deploy service cluster network database backup restore review budget meeting release planning customer "
         "support incident metrics latency storage quota billing invoice gateway proxy certificate rotation").split()


def _prose(chars: int, seed: int = 1) -> str:
    pick = random.Random(seed)
    return " ".join(pick.choice(WORDS) for _ in range(chars // 7))[:chars]


def _acronyms(chars: int) -> str:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return " ".join(a + b for a in letters for b in letters)[:chars]


def _cpu(call) -> float:  # type: ignore[no-untyped-def]
    start = time.thread_time()
    call()
    return time.thread_time() - start


def test_matching_acronyms_grows_with_the_texts_not_with_their_product():
    for question in (lambda n: ("XY " * n)[:n], _acronyms):
        small = min(_cpu(lambda: spelled_out(question(2_000).split(), _prose(8_000))) for _ in range(2))
        large = min(_cpu(lambda: spelled_out(question(16_000).split(), _prose(64_000))) for _ in range(2))
        assert large < max(20 * small, 0.05), (small, large)  # 8 times each text: 8 if linear, 64 if quadratic


def test_an_acronym_question_costs_about_what_a_question_of_words_costs(store):
    for i in range(8):
        store.remember(tenant="a", scope="s", content=f"Note {i}: " + _prose(7_900, seed=i))
    words, acronyms = _prose(2_000, seed=99), ("XY " * 700)[:2_000]
    plain = min(_cpu(lambda: store.recall(tenant="a", query=words, scopes=["s"])) for _ in range(2))
    asked = min(_cpu(lambda: store.recall(tenant="a", query=acronyms, scopes=["s"])) for _ in range(2))
    assert asked < 5 * plain + 0.05, (plain, asked)


def test_what_spells_what_is_unchanged():
    assert spelled_out(["DR", "drill"], "the disaster recovery drill") == ["DR"]
    assert spelled_out(["the", "disaster", "recovery", "drill"], "our DR drill") == ["disaster", "recovery"]
    assert spelled_out(["the", "SLO", "SLO"], "service level objective") == ["SLO"]
    assert spelled_out(["DR"], "DR drill") == [] and spelled_out(["AB"], "a of b") == []
