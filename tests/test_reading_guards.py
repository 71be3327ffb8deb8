"""A contradiction reading skips its passes for ends (a lower-case name a change ends, a practice ended, a
name ended) in a text holding none of the words they are said with; a text holding one is read as
with no such test: the same reading as when every text is asked word by word."""

from __future__ import annotations

import pytest

from memvault.storage import contradiction_ending as ending
from memvault.storage import contradiction_reading as reading
from memvault.storage import contradiction_tokens as tokens


class _EveryWord(frozenset):  # type: ignore[type-arg]
    """A word set holding every word: each guard lets every text through."""

    def __contains__(self, word: object) -> bool:
        return True

    def isdisjoint(self, other: object) -> bool:
        return False


# (text, names it ends, practices it ends)
ENDS = [
    ("We retired Jenkins", {"jenkins"}, set()),
    ("We dropped pagerduty for opsgenie", {"pagerduty"}, set()),
    ("We left Jenkins for Buildkite", {"jenkins"}, set()),
    ("PagerDuty was sunset", {"pagerduty"}, set()),
    ("Jenkins got the axe", {"jenkins"}, set()),
    ("Jenkins is no longer used", {"jenkins"}, set()),
    ("We no longer use pip", {"pip"}, set()),
    ("We got rid of Jenkins", {"jenkins"}, set()),
    ("We moved off Heroku", {"heroku"}, set()),
    ("Wir nutzen Jenkins nicht mehr", {"jenkins"}, set()),
    ("Wir machen kein Planning mehr", {"planning"}, set()),
    ("We stopped deploying on Fridays", set(), {"deploy"}),
    ("We gave up running nightly builds", set(), {"run"}),
    ("Nous ne déployons plus le vendredi", set(), {"déployon"}),
    ("Dejamos de desplegar los viernes", set(), {"desplegamo"}),
    ("The deploy runs on Fridays at 10:00 with pnpm", set(), set()),
    ("Our CI runs on jenkins for the api", set(), set()),
]


def read(text: str) -> tuple[reading._Read, frozenset[str]]:
    """``text``'s reading and lower-case names, read anew (no cache)."""
    return reading._reading.__wrapped__(text, frozenset()), tokens.lower_names.__wrapped__(text)


@pytest.mark.parametrize("text,names,practices", ENDS, ids=[t for t, _, _ in ENDS])
def test_a_text_is_read_the_same_with_the_guards_as_word_by_word(text, names, practices, monkeypatch):
    guarded = read(text)
    assert guarded[0].ended == names and guarded[0].practices == practices
    for guard in ("_END_OPENERS", "_PRACTICE_OPENERS", "_END_WORDS"):
        monkeypatch.setattr(ending, guard, _EveryWord())
    assert read(text) == guarded


def test_every_ending_phrase_holds_a_word_of_the_guards():
    for phrase in (*ending.ENDING_PHRASES, *ending._PASSIVE_PHRASES):
        assert not ending._END_WORDS.isdisjoint(phrase), phrase
    for phrase in ending.ENDING_PHRASES:
        assert phrase[0] in ending._END_OPENERS, phrase
