"""A text's reading in the contradiction test is read once for every ``known`` that names no more of
its words (``contradiction_reading._naming``), and is always what reading it afresh with that ``known`` gives:
recall judges each pair of its top hits, and each text was read again for each other text naming
words it opens a sentence with."""

from __future__ import annotations

import pytest

from memvault.storage import contradiction_ending, contradiction_reading
from memvault.storage.contradiction_reading import _read, _reading
from memvault.storage.contradiction_tokens import _tokens, inner_names, openers
from memvault.storage.contradiction_words import DETERMINERS

PAIRS = [
    ("Alice owns the billing service.", "Since May Alice drinks coffee."),
    ("Bob owns the billing service.", "Alice owns the billing service."),
    ("Helix runs on port 8080. Helix moved to Kubernetes.", "We now run Helix on port 9090."),
    ("Caroline: I went to the LGBTQ support group yesterday.", "Melanie said Caroline went to the group."),
    ("Marta's train leaves at 9:15.", "Now Marta's train leaves at 10:30."),
    ("The office is in Lisbon.", "We relocated the office to Porto."),
    ("Deploys go out on Tuesdays.", "Deploys now go out on Thursdays, says Deploys."),
    ("Jonas Berg is the release manager.", "Priya told Jonas Berg the release moved."),
    ("May is when we plan. Alice plans.", "In May, Alice and Bob plan the offsite."),
]


@pytest.mark.parametrize("older, newer", PAIRS + [(b, a) for a, b in PAIRS])
def test_a_reading_with_known_names_is_the_reading_afresh(older, newer):
    known = inner_names(older) | inner_names(newer)
    for text in (older, newer):
        asked = openers(text) & known
        assert _read(text, asked) == _reading.__wrapped__(text, asked)  # type: ignore[attr-defined]
        assert _read(text, frozenset({"nothing", "here"})) is _read(text)  # names nothing: one reading


@pytest.mark.parametrize("text, known, named", [
    ("Alice owns the billing service.", frozenset({"alice"}), False),  # named by its verb already
    ("Since May Alice drinks coffee.", frozenset({"since"}), False),  # a function word: never a name
    ("Helix moved to Kubernetes.", frozenset({"helix"}), True),  # named only because the other text does
    ("Marta's train leaves at 9:15.", frozenset({"marta"}), False),  # possessive: named already
])
def test_known_words_count_only_when_they_make_a_name(text, known, named):
    assert (contradiction_reading._naming(text, known) == known) is named


def _ended_slot_by_scan(tokens, at):
    """``_ended_slot`` trying every ending phrase: what its index by last word must answer."""
    verb = next((tokens[k][0].lower() for k in range(at - 1, -1, -1)
                 if tokens[k][0].lower() not in DETERMINERS), "")
    return verb in contradiction_ending.ENDING or verb in contradiction_ending._ENDING_FOR or any(
        tuple(t[0].lower() for t in tokens[max(0, at - len(p)):at]) == p for p in contradiction_ending.ENDING_PHRASES)


def _predicate_by_scan(lowered, i):
    """``_predicate``'s phrases tried every one: what its index by first word must answer."""
    return next((len(p) for p in contradiction_ending._PASSIVE_PHRASES if tuple(lowered[i:i + len(p)]) == p), 0)


ENDS = [f"We {' '.join(p)} Jenkins last week." for p in contradiction_ending.ENDING_PHRASES] + [
    f"The {p[-1]} Jenkins stays." for p in contradiction_ending.ENDING_PHRASES] + [  # the last word alone: no phrase
    "Using Jenkins for builds.", "Off we go with Jenkins.", "We use Jenkins.", "Jenkins", "We retired our Jenkins."]
PASSIVES = [f"Jenkins was {' '.join(p)} in May." for p in contradiction_ending._PASSIVE_PHRASES] + [
    f"Jenkins is {p[0]} here." for p in contradiction_ending._PASSIVE_PHRASES] + ["No more Jenkins.", "The boot sector."]


@pytest.mark.parametrize("text", ENDS)
def test_an_ending_phrase_is_found_by_its_last_word_as_by_trying_every_phrase(text):
    tokens = _tokens(text)
    found = [contradiction_ending._ended_slot(tokens, at) for at in range(len(tokens))]
    assert found == [_ended_slot_by_scan(tokens, at) for at in range(len(tokens))]
    assert found[[t[0] for t in tokens].index("Jenkins")] == (text.startswith("We ") and text != "We use Jenkins.")


@pytest.mark.parametrize("text", PASSIVES)
def test_a_passive_phrase_is_found_by_its_first_word_as_by_trying_every_phrase(text):
    lowered = [t[0].lower() for t in _tokens(text)]
    for i in range(len(lowered)):
        if lowered[i] not in contradiction_ending._PASSIVE_ENDING:
            assert contradiction_ending._predicate(lowered, i) == _predicate_by_scan(lowered, i), i
    if " was " in text:
        assert max(contradiction_ending._predicate(lowered, i) for i in range(len(lowered))) > 0
