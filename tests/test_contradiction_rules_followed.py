"""A report that something changed, going to no value (none but when: "The wifi password was changed yesterday"), is
no change of an older rule whose values are all its period or its subject ("The password must be rotated every 90
days"): the change is one the rule asks for. A value given, a period changed, or an older value besides the period
stay changes (issue 27 §2, trial70 T6)."""

from __future__ import annotations

import pytest
from stores import assert_apart, flagged

from memvault.storage.contradiction import disagreement
from memvault.storage.store import Store

FOLLOWED = [  # (older rule, newer report of a change with no value)
    ("The password must be rotated every 90 days.", "The wifi password was changed yesterday."),
    ("the password must be rotated every 90 days", "the wifi password was changed yesterday"),
    ("Database credentials are rotated every 30 days.", "The database credentials were changed yesterday."),
    ("Passwords must be rotated regularly.", "The wifi password was changed last week."),
    ("API keys should be rotated every three months.", "The API keys were changed on 2026-03-02."),
    ("The VPN certificate is renewed each year.", "The VPN certificate was changed on Monday."),
]
CHANGED = [  # (older, newer): a value the newer replaces, or an older value that no rule's period holds
    ("The wifi password is hunter22", "The wifi password was changed yesterday"),
    ("The wifi password is hunter22", "The wifi password was changed to tiger99"),
    ("The password must be rotated every 90 days.", "Passwords must now be rotated every 60 days."),
    ("The standup is at 9:15", "The standup was moved to 10:30"),
]


@pytest.mark.parametrize(("old", "new"), FOLLOWED)
def test_a_change_reported_without_a_value_does_not_contradict_a_rule(old, new):
    assert disagreement(old, new) is None


@pytest.mark.parametrize(("old", "new"), CHANGED)
def test_a_value_or_a_period_changed_still_contradicts(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None


def test_each_of_a_group_is_no_recurrence_and_a_change_of_it_still_contradicts():
    assert disagreement("Metrics dashboards are built by each team.",
                        "Dashboards are now owned by the observability team.") is not None


def test_remember_and_recall_leave_the_rule_current_beside_a_reported_change(real_store: Store):
    assert_apart(real_store, "The password must be rotated every 90 days.",
                 "The wifi password was changed yesterday.", "How often must passwords rotate?")
