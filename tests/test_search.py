"""The SQL text builders of hybrid search, read as text."""

from __future__ import annotations

import pytest

from memvault.storage.query import Filters, named_kinds, query_chunks
from memvault.storage.sqlite import sql as search


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("NEAR(x y)", '"NEAR x" OR "y"'),
        ("v2.3.1 192.168.7.1", '"v2 3 1" OR "192 168 7 1"'),
        ('"quoted" -minus *star col:val', '"quoted" OR "minus" OR "star" OR "col val"'),
        ("when did Caroline go to the park", '"Caroline" OR "go" OR "park"'),
        ("what is it", '"what" OR "is" OR "it"'),  # only stop words: all kept
        ("snake_case", '"snake case"'),
        ("!!! ???", None),
        ("!!! \N{SLIGHTLY SMILING FACE}", '"sym1f642"'),  # a symbol is a word (textindex)
        ("end-of-life policy", '"end of life" OR "policy"'),  # stop words inside a chunk stay
        ("state-of-the-art of the model", '"state of the art" OR "model"'),
        ("it's the don't", '"it s" OR "the" OR "don t"'),  # nothing but stop words: all kept
        ("身份验证", '"身份" OR "份验" OR "验证"'),  # CJK: its bigrams, each a term
        ("審計 ログ 김지현", '"審計" OR "ログ" OR "김지" OR "지현"'),
        ("Redis缓存 v2.3", '"Redis" OR "缓存" OR "v2 3"'),  # other words of the chunk stay a phrase
    ],
)
def test_match_expression_quotes_every_word_and_drops_syntax(query, expected):
    assert search.match_expression(query_chunks(query)) == expected


def test_filters_are_part_of_both_candidate_queries():
    f = Filters(tenant="t", scopes=["a", "global"], now=5, kinds=["fact"], tags=["x", "y"], since=1, until=9)
    keyword, params = search.keyword_sql(f, '"x"', 10, table="memories_fts_1")
    vector, vparams = search.vector_sql(f, 10, [0, 3])
    direct, _ = search.vector_sql(f, 10, None)
    windows, _ = search.window_sql(f, 10)
    for sql in (keyword, vector, direct, windows):
        for clause in ("m.tenant = :tenant", "m.forgotten_at IS NULL", "m.superseded_by IS NULL", ":now",
                       "json_each(:scopes)", "json_each(:kinds)", ":tag_count", ":since", ":until"):
            assert clause in sql
    # Never the list of every allowed memory: the filter applies row by row to what is read.
    assert "IN (SELECT" not in vector.replace("IN (SELECT value FROM json_each", "")
    assert vparams["cells"] == "[0, 3]" and "LIMIT :k" in vector and "LIMIT :k" in direct
    assert params["tag_count"] == 2 and vparams["tenant"] == "t"
    history, _ = search.filter_sql(Filters(tenant="t", scopes=["a"], now=5, include_history=True))
    assert "superseded_by" not in history


@pytest.mark.parametrize(
    ("question", "kinds", "only"),
    [
        ("what decisions did we make?", {"decision"}, True),
        ("Which failures did we hit recently?", {"failure"}, True),
        ("what are my preferences?", {"preference"}, True),
        ("list the procedures", {"procedure"}, True),
        ("How do I rotate the TLS certificate?", {"procedure"}, False),
        ("why did the billing export crash?", {"failure"}, False),
        ("what did we decide about the cache?", {"decision"}, False),
        ("what happened to the tokenizer paper?", {"episode"}, False),
        ("Why was the nightly export stopped?", {"failure"}, False),
        ("What caused the outage?", {"failure"}, False),
        ("Why didn’t we adopt Elasticsearch?", {"decision"}, False),
        ("why did we choose arq?", {"decision"}, False),
        ("what is the plan for the migration?", {"decision"}, False),
        ("Where is the staging database?", set(), False),
    ],
)
def test_a_question_names_the_kinds_of_memory_it_asks_for(question, kinds, only):
    assert named_kinds(question) == (frozenset(kinds), only)
