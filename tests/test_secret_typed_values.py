"""One rule says whether a value reads as typed, a password someone made up rather than a name, a label or a
product (``secret_values.typed``), wherever nothing but its place names it: a network's key named by a short word in a
run of words ("wifi guest key X"), a value typed to log in ("use X to log in"), "my pass is X", a login's user and
"and" ("sign in with ci-bot and X"). The same value gets the same answer in each of them: before, the network key's
rule refused a capital and a word ("Fz81marker") that the others stored, and the others stored a symbol among lower
case ("tag77#blue") that it refused."""

from __future__ import annotations

import pytest

from memvault.storage.secret_values import typed
from memvault.storage.secrets import find_secrets, redact

# Values typed: mixed cases or a typed symbol, a letter and a digit, 8 characters or more, and no name: a symbol
# parting words makes them a made-up password ("Kangaroo!Jump55", "tag77#blue")
TYPED = ["tag77#blue", "fz81marker!x", "Kangaroo!Jump55", "Xq7mR2pLw9kZ", "tR7#qLm2Wx", "Blu3Sky!77", "hook9#left",
         "Zk9x2mQ7Lp", "river42&stone", "Qp4$Wn8Zr2", "mx3^lk9pq2", "Hq7Lm2Np9R"]
# Names, labels and products: one case and no typed symbol, a word and digits, camelCase, mostly words (a capital
# first letter alone makes no password of a label: "Fz81marker" as "fz81marker"), or under 8 characters
NAMED = ["Fz81marker", "fz81marker", "Sunflower88", "Camper2023", "Rack12Shelf", "Locker19x", "GoogleSSO2",
         "Windows11", "Admin2024", "nextToken2", "tag77blue", "Tg7#qL2", "Ab#12cd", "card12345", "drawer2B"]
PLACES = ["wifi guest key {v}", "use {v} to log in", "my pass is {v}", "sign in with ci-bot and {v}"]


@pytest.mark.parametrize("value", TYPED)
def test_a_typed_value_reads_as_typed(value: str) -> None:
    assert typed(value)


@pytest.mark.parametrize("value", NAMED)
def test_a_name_a_label_or_a_short_value_does_not(value: str) -> None:
    assert not typed(value)


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("value", TYPED)
def test_a_typed_value_is_refused_in_every_place_that_asks_for_one(place: str, value: str) -> None:
    text = place.format(v=value)
    redacted, kinds = redact(text)
    assert find_secrets(text) != [[]] and kinds == ("password",) and value not in redacted, (text, redacted)


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("value", NAMED)
def test_a_name_or_label_is_stored_in_every_place_that_asks_for_a_typed_value(place: str, value: str) -> None:
    text = place.format(v=value)
    assert find_secrets(text) == [[]] and redact(text) == (text, ()), text
