"""A text's reading in the contradiction test is read once for every ``known`` that names no more of
its words (``contradiction_reading._naming``), and is always what reading it afresh with that ``known`` gives:
recall judges each pair of its top hits, and each text was read again for each other text naming
words it opens a sentence with."""

from __future__ import annotations

import pytest

from memvault.storage import contradiction_reading
from memvault.storage.contradiction_reading import _read, _reading
from memvault.storage.contradiction_tokens import inner_names, openers

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
