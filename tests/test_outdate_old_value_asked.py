"""A question naming the value a change replaced ("is the standup at 9:15?", or the older memory's own words)
finds the newer first and the older marked as possibly outdated by it, as any question about that subject does:
the value asked is the one whose change the agent must hear of. A question naming a word only the older holds
that is no value the newer replaced ("which AI do we use for code review?" beside "We use Claude for AI code
review" / "We use Gerrit for code review") asks of what only the older speaks of: the older stays first,
unmarked (``contradiction.only_older``, ``contradiction.replaced``, ``ranking._asked_of_both``)."""

from __future__ import annotations

import pytest
from stores import pair_recalled

from memvault.storage.contradiction import only_older, replaced, values
from memvault.storage.store import Store

pytestmark = pytest.mark.contract

CHANGED = [  # (older, newer, a question naming the older's value)
    ("The daily standup is at 9:15.", "Standup moved to 10:30.", "is the standup at 9:15?"),
    ("The standup is at 9:15", "The standup moved to 10:00", "is the standup at 9:15?"),
    ("The staging database host is db-stg-03.", "The staging database host moved to db-stg-07.",
     "is the staging database host db-stg-03?"),
    ("Production runs PostgreSQL 15.4.", "Production was upgraded to PostgreSQL 16.2.",
     "does production run PostgreSQL 15.4?"),
    ("The API rate limit is 100 requests per minute.", "The API rate limit is now 500 requests per minute.",
     "is the API rate limit 100 requests per minute?"),
    ("The build cache lives in /var/cache/build.", "The build cache moved to /mnt/fast/build-cache.",
     "is the build cache in /var/cache/build?"),
    ("Le serveur de sauvegarde est à Dublin.", "Le serveur de sauvegarde a déménagé à Francfort.",
     "le serveur de sauvegarde est-il à Dublin ?"),
    ("The office is in Lisbon.", "We relocated the office to Porto.", "is the office in Lisbon?"),
    # a name or number in a slot both texts frame alike, no sibling of the newer's; "Node" no word asking for a host
    ("Alerts go to PagerDuty", "Alerts now go to Opsgenie", "do alerts go to PagerDuty?"),
    ("Our CI runs on Jenkins", "Our CI runs on GitHub Actions now", "does our CI run on Jenkins?"),
    ("Payments go through Stripe", "Payments now go through Adyen", "do payments go through Stripe?"),
    ("Alice owns the billing service", "Bob now owns the billing service", "does Alice own the billing service?"),
    ("We run Node 18 in production", "We upgraded production to Node 20", "do we run Node 18 in production?"),
]

# (older, newer, a question naming a word only the older holds, not the value the newer replaced, a question
# naming that value): the older answers the first of another subject than the newer's.
QUALIFIED = [
    ("We use Claude for AI code review", "We use Gerrit for code review", "which AI do we use for code review?",
     "do we use Claude for code review?"),
    ("We use Grafana for ML dashboards", "We use Kibana for dashboards", "what do we use for ML dashboards?",
     "do we use Grafana for dashboards?"),
    ("We use Figma for UX mockups", "We use Sketch for mockups", "what do we use for UX mockups?",
     "do we use Figma for mockups?"),
    ("We use Datadog for API monitoring", "We use Prometheus for monitoring", "what do we use for API monitoring?",
     "do we use Datadog for monitoring?"),
    ("We use Snyk for CI security scans", "We use Trivy for security scans", "what do we use for CI security scans?",
     "do we use Snyk for security scans?"),
    ("We use Okta for VPN logins", "We use Auth0 for logins", "what do we use for VPN logins?",
     "do we use Okta for logins?"),
    # a value of another kind beside the replaced one, in the stretch the newer rewrites
    ("The API gateway runs Kong 3.4 in eu-west-1.", "The API gateway now runs Kong 3.6.",
     "does the API gateway run in eu-west-1?", "does the API gateway run Kong 3.4?"),
    ("Our build agents run Ubuntu 22.04 on Hetzner.", "Our build agents now run Ubuntu 24.04.",
     "are our build agents on Hetzner?", "do our build agents run Ubuntu 22.04?"),
    ("The staging cluster has 4 nodes running in Frankfurt.", "The staging cluster now has 6 nodes.",
     "is the staging cluster in Frankfurt?", "does the staging cluster have 4 nodes?"),
]


@pytest.mark.parametrize(("old", "new", "question"), CHANGED)
def test_a_question_naming_the_older_value_finds_the_newer_first_and_the_older_marked(real_store: Store, old, new,
                                                                                      question):
    older, newer, hits = pair_recalled(real_store, old, new, question)
    assert [i for i, _ in newer.contradicts] == [older]
    assert next(iter(hits)) == newer.id and hits[older] == newer.id


@pytest.mark.parametrize(("old", "new", "_"), CHANGED)
def test_the_older_memorys_own_words_as_the_question_find_the_newer_first(real_store: Store, old, new, _):
    older, newer, hits = pair_recalled(real_store, old, new, old)
    assert next(iter(hits)) == newer.id and hits[older] == newer.id


@pytest.mark.parametrize(("old", "new", "question", "_"), QUALIFIED)
def test_a_question_naming_a_word_only_the_older_holds_beside_the_value_keeps_the_older_first(
        real_store: Store, old, new, question, _):
    older, newer, hits = pair_recalled(real_store, old, new, question)
    assert [i for i, _ in newer.contradicts] == [older]
    assert next(iter(hits)) == older and hits[older] is None


@pytest.mark.parametrize(("old", "new", "_", "question"), QUALIFIED)
def test_a_question_naming_the_replaced_value_of_the_same_pair_finds_the_newer_first(real_store: Store, old, new, _,
                                                                                     question):
    older, newer, hits = pair_recalled(real_store, old, new, question)
    assert next(iter(hits)) == newer.id and hits[older] == newer.id


@pytest.mark.parametrize(("old", "new", "qualified", "asked"), QUALIFIED)
def test_the_replaced_value_is_the_one_in_the_newers_slot_not_a_word_beside_it(old, new, qualified, asked):
    named = values(asked) & values(old) - values(new)
    assert named and named <= replaced(old, new)
    assert values(qualified) & only_older(old, new)
    assert not replaced(old, new) & only_older(old, new)


@pytest.mark.parametrize(("old", "new", "question"), CHANGED)
def test_the_value_a_change_replaced_is_no_word_only_the_older_holds(old, new, question):
    asked = values(question) & values(old) - values(new)
    assert asked and asked <= replaced(old, new)
    assert not values(question) & only_older(old, new)
