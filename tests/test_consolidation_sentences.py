"""A digest quotes each episode's first sentence (issue 27): a full stop after an abbreviation, an
initial or a dotted short form ends none, and a sentence too long is cut at a word with "…"."""

from __future__ import annotations

import pytest
from test_consolidation import digests, episode

from memvault.storage.consolidate import SENTENCE_CHARS, consolidate, first_sentence

pytestmark = pytest.mark.contract

ABBREVIATED = [
    "Met Dr. Weber about the GDPR audit; she wants the data map by Friday.",
    "Met Mr. Okafor and Mrs. Lind in the lobby.",
    "Prof. Lang reviewed the paper on Monday.",
    "Call with J. R. Okafor from Acme Corp. about renewing the support contract.",
    "Signed with Acme Corp. Legal sent the copy.",
    "Lunch with Globex Inc. Marketing joined later.",
    "Moved the cleanup cron from 2 a.m. to 4 a.m. UTC because backups overlapped.",
    "Moved the cron to 4 p.m. Friday after the backup.",
    "Compared Python 3.11 vs. 3.12 startup time on the CI runners: 3.12 is 8% faster.",
    "Benchmarked Redis vs. Memcached under load.",
    "Tried a few caches, e.g. Redis and Memcached, under load.",
    "Kept the default, i.e. JSON over HTTP.",
    "Read Smith et al. Chapter two covers it.",
    "Visited the U.S. Office in Boston.",
    "Reviewed the report by A. Turing with the team.",
    "Drove up Mt. Hood with Sam Jr. After that, lunch.",
]


@pytest.mark.parametrize("text", ABBREVIATED)
def test_a_full_stop_after_an_abbreviation_or_initial_ends_no_sentence(text):
    kept = first_sentence(text + " The next sentence is not quoted.")
    assert kept == text


@pytest.mark.parametrize(("text", "first"), [
    ("Deployed build 1 to staging. Then lunch.", "Deployed build 1 to staging."),
    ("Shipped v2.4.1! Customers on the Pro plan got the new export.", "Shipped v2.4.1!"),
    ("Upgraded to Python 3.11. The tests pass.", "Upgraded to Python 3.11."),
    ("Debugged why api.acme.io returned 502s. It was the ELB idle timeout.", "Debugged why api.acme.io returned 502s."),
    ("Debugged why api.acme.io returned 502s... it was the ELB idle timeout.",
     "Debugged why api.acme.io returned 502s... it was the ELB idle timeout."),
    ("Why did the job fail? Nobody knows.", "Why did the job fail?"),
    ('He said "ship it." Then he left.', 'He said "ship it."'),
    ("Paired on the flaky login test.\nIt passed after a retry.", "Paired on the flaky login test."),
    ("Read https://docs.acme.io/v2.4/setup.html first. Then installed.",
     "Read https://docs.acme.io/v2.4/setup.html first."),
    ("No full stop at all", "No full stop at all"),
])
def test_an_ordinary_first_sentence_is_quoted_as_before(text, first):
    assert first_sentence(text) == first


def test_a_first_sentence_too_long_is_cut_at_a_word_with_an_ellipsis():
    words = [f"word{n}" for n in range(60)]
    kept = first_sentence(" ".join(words) + ". Second sentence.")
    assert len(kept) <= SENTENCE_CHARS and kept.endswith("…")
    assert kept[:-1].split() == words[:len(kept[:-1].split())]  # whole words only
    assert first_sentence("x" * 400).endswith("…") and len(first_sentence("x" * 400)) == SENTENCE_CHARS


def test_a_weekly_digest_quotes_each_episodes_whole_first_sentence(store):
    texts = ABBREVIATED[:6]
    for n, text in enumerate(texts):
        episode(store, text + " More detail follows here.", 40 + n / 10)
    consolidate(store)
    [digest] = digests(store)
    for text in texts:
        assert f": {text}\n" in (digest.content or "") + "\n"
    assert "More detail" not in (digest.content or "")
