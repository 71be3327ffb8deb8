"""A phrase costs the keyword index its words times their occurrences (issue 25 §1.1 "every check
linear"): a question's white-space chunk is matched as phrases of at most ``MAX_PHRASE_WORDS``
words, ``MAX_QUERY_WORDS`` in all, for memory recall and turn search on both backends, and what
the whole chunk names is still found first. The bound is asserted on the phrases built, not on
time (bench/phrase_cost.py times it)."""

from __future__ import annotations

import re

import pytest

from memvault.storage.query import MAX_PHRASE_WORDS, MAX_PHRASES, MAX_QUERY_WORDS, query_chunks
from memvault.storage.records import NewTurn
from memvault.storage.sqlite.sql import match_expression
from memvault.storage.store import Store

ZEROS = ".".join(["0"] * 999)  # the adversary's query: one chunk, one word 999 times
URL = "https://github.com/acme/widgets/pull/1234/files#diff-abc"  # 10 words


@pytest.mark.parametrize(("query", "chunks"), [
    (ZEROS, [["0"] * 8, ["0"] * 7]),
    (URL, [["https", "github", "com", "acme", "widgets", "pull", "1234", "files"], ["diff", "abc"]]),
    ("how-to-deploy-the-kafka-consumer-in-staging-with-helm now",
     [["how", "to", "deploy", "the", "kafka", "consumer", "in", "staging"], ["with", "helm"], ["now"]]),
    ("one-two-three-four-five-six-seven-eight-of",  # the ninth word alone, a stop word: dropped
     [["one", "two", "three", "four", "five", "six", "seven", "eight"]]),
    ("東京のサーバーを再起動した", [["東京"], ["京の"], ["のサ"], ["サー"], ["ーバ"], ["バー"], ["ーを"], ["を再"],
                                  ["再起"], ["起動"], ["動し"], ["した"]]),  # CJK bigrams: each a term
    ("v2.3.1 end-of-life", [["v2", "3", "1"], ["end", "of", "life"]]),  # short chunks as before
])
def test_a_long_chunk_is_cut_into_phrases_of_at_most_eight_words(query, chunks):
    assert query_chunks(query) == chunks


def test_a_questions_phrases_hold_at_most_sixty_four_words_in_all():
    distinct = " ".join(".".join(["0"] * 7 + [f"w{i}"]) for i in range(120))[:2000]  # ~110 8-word chunks
    chunks = query_chunks(distinct)
    assert max(map(len, chunks)) == MAX_PHRASE_WORDS and sum(map(len, chunks)) == MAX_QUERY_WORDS
    assert chunks[:2] == [["0"] * 7 + ["w0"], ["0"] * 7 + ["w1"]]  # the question's order kept
    words = query_chunks(" ".join(f"word{i}" for i in range(100)))
    assert words == [[f"word{i}"] for i in range(MAX_PHRASES)]
    phrases = re.findall(r'"([^"]*)"', match_expression(chunks) or "")
    assert len(phrases) == len(chunks) and all(len(p.split()) <= MAX_PHRASE_WORDS for p in phrases)


@pytest.mark.contract
def test_the_long_chunk_finds_memories_and_turns_holding_a_word_two_thousand_times(db: str, backend: str):
    store = Store(db, None)
    try:
        zeros = [store.remember(tenant="a", scope="p", content="0 " * 2000 + f"row{i}").id for i in range(5)]
        store.episodes.append(tenant="a", scope="p", session_id="zeros", turns=[
            NewTurn("tool", "0 " * 2000 + f"turn{i}", tool="Bash") for i in range(5)])
        hits = store.recall(tenant="a", query=ZEROS, scopes=["p"]).hits
        assert sorted(h.memory.id for h in hits) == sorted(zeros)
        assert len(store.episodes.search(tenant="a", query=ZEROS, scopes=None)) == 5
        full = store.remember(tenant="a", scope="p", content=f"The fix is in {URL} since Monday").id
        part = store.remember(tenant="a", scope="p", content="The diff-abc hunk moved the retry").id
        store.remember(tenant="a", scope="p", content="github.com/acme/widgets is the repository")
        assert [h.memory.id for h in store.recall(tenant="a", query=URL, scopes=["p"]).hits] == [full, part]
        store.episodes.append(tenant="a", scope="p", session_id="links", turns=[
            NewTurn("user", f"see {URL}"), NewTurn("user", "the diff-abc hunk"),
            NewTurn("user", "github.com/acme/widgets")])
        found = store.episodes.search(tenant="a", query=URL, scopes=None)
        assert [(h.turn.session_id, h.turn.seq) for h in found] == [("links", 1), ("links", 2)]
    finally:
        store.close()
