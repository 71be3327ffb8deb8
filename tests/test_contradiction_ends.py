"""A name refilling the older memory's slot contradicts it even when it opens the sentence ("CircleCI runs
our CI now": a capital inside the word makes it a name, and "runs" after a name owns what follows), and so
does a change moving the older's slot, every word of it but a bare verb, to another name ("Packaging was
migrated to bun" after "We use Poetry for packaging"; issue 27, new-user trial verify61 §3)."""

from __future__ import annotations

import pytest

from memvault.storage.contradiction import CHANGED_SUBJECT, STRONG_SUBJECT, contradicts
from memvault.storage.ranking import SAME_SUBJECT


@pytest.mark.parametrize(("old", "new", "gate"), [
    ("Our CI runs on Jenkins", "CircleCI runs our CI now", STRONG_SUBJECT),  # a name opening before "runs"
    ("Our builds run on Jenkins", "GitLab CI runs our builds now", STRONG_SUBJECT),
    ("We use Poetry for packaging", "Packaging was migrated to bun", CHANGED_SUBJECT),  # the slot moved
    ("Our issue tracker is Linear", "Our issue tracker moved to YouTrack", CHANGED_SUBJECT),
])
def test_a_slot_refilled_or_moved_to_another_name_contradicts_the_older(old, new, gate):
    assert contradicts(old, new, gate, SAME_SUBJECT) is not None
