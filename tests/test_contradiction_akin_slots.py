"""One slot filled by values of two akin kinds: a host and a name ("served from cdn1.example.com" / "now served by
Cloudflare"), a year read as a date and as a number ("valid until 2026" / "extended to 2028"). A change to the
other kind contradicts the older, unless its clause names something the older does not ("now compressed by
Brotli", "The warranty was extended") (issue 27 §2, trial70 T9)."""

from __future__ import annotations

import pytest
from stores import assert_outdates, flagged

from memvault.storage.contradiction import disagreement
from memvault.storage.store import Store

CHANGED = [  # (older, newer)
    ("Static assets are served from cdn1.example.com", "Static assets are now served by Cloudflare"),
    ("The docs are hosted on docs.example.org", "The docs are now hosted by Netlify"),
    ("Mail is delivered through smtp1.example.com", "Mail is now delivered by Postmark"),
    ("Builds run on ci-runner-04", "Builds now run on Buildkite"),
    ("The licence is valid until 2026", "The licence was extended to 2028"),
    ("The lease runs until 2027", "The lease was extended to 2030"),
    ("The support contract runs until March 2026", "The support contract was extended to June 2026"),
]
APART = [  # (older, newer): the change names another thing
    ("Static assets are served from cdn1.example.com", "Static assets are now compressed by Brotli"),
    ("Static assets are served from cdn1.example.com", "Static assets are now minified by esbuild"),
    ("The docs are hosted on docs.example.org", "The docs are now reviewed by Marta"),
    ("The licence is valid until 2026", "The warranty was extended to 2028"),
    ("The licence is valid until 2026", "The licence server moved to 2028"),
]


@pytest.mark.parametrize(("old", "new"), CHANGED)
def test_a_value_of_an_akin_kind_in_the_same_slot_contradicts_the_older(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None


@pytest.mark.parametrize(("old", "new"), APART)
def test_a_change_naming_another_thing_contradicts_nothing(old, new):
    assert disagreement(old, new) is None


@pytest.mark.parametrize(("old", "new", "question"), [
    ("Static assets are served from cdn1.example.com", "Static assets are now served by Cloudflare",
     "Where are static assets served from?"),
    ("The licence is valid until 2026", "The licence was extended to 2028", "Until when is the licence valid?"),
])
def test_recall_puts_the_newer_first_and_marks_the_older(real_store: Store, old, new, question):
    assert_outdates(real_store, old, new, question)
