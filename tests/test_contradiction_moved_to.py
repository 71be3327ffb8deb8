"""A verb that moves a value only when "to", "from" or "by" and a value follow it ("Log retention was extended to
90 days", "The archive was transferred to db-07"), and a hand-over written with the noun of the role ("Billing service
ownership passed to Carol", "The on-call rotation was handed to Ben") change the older memory's value; the same verbs
moving nothing ("my extended family", "I went to the gym", "The service passed its audit") change nothing (issue 27
§2, new-user trial T7, T8)."""

from __future__ import annotations

import pytest
from stores import assert_outdates, flagged

from memvault.storage.contradiction import disagreement
from memvault.storage.store import Store

MOVED_TO = [  # (older, newer): a value moved by "extended", "transferred" and a value after "to", "from", "by"
    ("Logs are kept for 30 days", "Log retention was extended to 90 days"),
    ("The trial period is 14 days", "We extended the trial period to 30 days"),
    ("The subscription runs for 12 months", "The subscription was extended to 18 months"),
    ("The deadline for the report is 3 June", "The report deadline was extended to 17 June"),
    ("The maintenance window ends at 02:00", "The maintenance window was extended to 04:00"),
    ("Support covers version 3.2", "Support was extended to version 3.4"),
    ("The session lasts 30 minutes", "The session length was extended to 60 minutes"),
    ("The audit log is retained for 6 months", "Audit log retention got extended to 12 months"),
    ("The archive is stored on db-01", "The archive was transferred to db-07"),
    ("The domain is registered with Gandi", "The domain was transferred to Namecheap"),
    ("The repository lives under the acme organisation", "The repository was transferred to Globex"),
    ("The API timeout is 30 seconds", "The API timeout was extended to 60 seconds"),
    ("The beta lasts 4 weeks", "The beta was extended by 2 weeks to 6 weeks"),
    ("The free tier allows 1000 requests", "The free tier was extended to 5000 requests"),
    ("The loan period is 21 days", "The library extended the loan period to 28 days"),
]

HANDED = [  # (older, newer): a role handed over, written with the noun of the role
    ("Alice owns the billing service", "Billing service ownership passed to Carol"),
    ("Alice owns the billing service", "Billing service ownership was handed to Carol"),
    ("Alice owns the billing service", "Ownership of the billing service was transferred to Carol"),
    ("Alice owns the billing service", "Billing service ownership went to Carol"),
    ("Alice leads the search team", "The lead role of the search team passed to Bob"),
    ("Alice leads the search team", "Leadership of the search team went to Bob"),
    ("The pager for payments is held by Priya", "The payments pager was handed to Tomás"),
    ("Jonas maintains the command line tool", "Maintainership of the command line tool passed to Lena"),
    ("Ravi manages the data platform", "Stewardship of the data platform was given to Mei"),
    ("Sara owns the checkout flow", "Responsibility for the checkout flow fell to Omar"),
    ("Dana owns the release process", "The release process ownership was transferred to Ken"),
    ("Marta leads the mobile squad", "The mobile squad lead role went to Pablo"),
    ("Hugo owns incident command", "Incident command passed to Zoe"),
    ("Lea owns the payments gateway", "Ownership of the payments gateway went to Nils"),
    ("Igor maintains the Terraform modules", "Responsibility for the Terraform modules was handed to Ana"),
]

MOVING_NOTHING = [  # (older, newer): the same verbs moving no value of the older's
    ("I love spending time with my family", "We met my extended family at the lake"),
    ("The trial is 14 days", "My extended family came to visit at Easter"),
    ("Alice owns the billing service", "Alice went to Berlin for the conference"),
    ("Alice owns the billing service", "The billing service passed its audit"),
    ("Alice owns the billing service", "Alice passed the billing service review to Carol for comments"),
    ("I went to Paris last year", "Then I went to the gym"),
    ("The archive is stored on db-01", "I transferred money to my sister"),
    ("Logs are kept for 30 days", "We had an extended outage of the log pipeline"),
    ("The contract runs until 2026", "The meeting went well and the contract was signed"),
    ("Bob leads the search team", "Bob went to the search team offsite"),
    ("Sam owns the checkout flow", "Sam passed by the office on Friday"),
    ("The deadline for the report is 3 June", "The team extended a warm welcome to Priya"),
    ("Maria is my best friend", "Maria went to Lisbon with her brother"),
    ("The session lasts 30 minutes", "The session went by quickly"),
    ("The domain is registered with Gandi", "Our extended team includes Gandi's support staff"),
    ("Alice owns the billing service", "The billing service handed 20 requests to the retry queue"),
    ("Alice owns the bakery on Main Street", "The bakery owner went to Lyon last week"),
    ("Bob leads the hiking club", "The club lead went to Denver for a race"),
    ("Alice owns the billing service", "The billing service owner went to Berlin"),
]


@pytest.mark.parametrize(("old", "new"), MOVED_TO + HANDED)
def test_a_value_moved_to_another_or_a_role_handed_over_contradicts_the_older(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None


@pytest.mark.parametrize(("old", "new"), MOVING_NOTHING)
def test_the_same_verbs_moving_no_value_contradict_nothing(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is None


@pytest.mark.parametrize(("old", "new"), MOVING_NOTHING)
def test_the_word_test_reads_no_change_in_the_same_verbs_moving_no_value(old, new):
    assert disagreement(old, new) is None


@pytest.mark.parametrize(("old", "new", "question"), [
    ("Logs are kept for 30 days", "Log retention was extended to 90 days", "How long are logs kept?"),
    ("Alice owns the billing service", "Billing service ownership passed to Carol", "Who owns the billing service?"),
    ("Sara owns the checkout flow", "Responsibility for the checkout flow fell to Omar", "Who owns the checkout flow?"),
])
def test_recall_puts_the_newer_first_and_marks_the_older_outdated(real_store: Store, old, new, question):
    assert_outdates(real_store, old, new, question)
