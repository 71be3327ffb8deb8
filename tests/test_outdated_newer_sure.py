"""A newer memory that outdates a recalled one changes the fact the older states, of the subject the older names,
often without repeating it ("Bumped Node from 18 to 20" after "CI uses Node 18"): recall is as sure of the newer as
of the older before it was outdated, however few of the question's words the newer holds, and caps it where it caps
the older (a sibling, another topic). The older stays capped as outdated (issue 27 §2, new-user trial T5)."""

from __future__ import annotations

import pytest
from stores import pair_recalled

from memvault.storage.ranking import OUTDATED_CONFIDENCE, SURE_CONFIDENCE
from memvault.storage.store import Store

CHANGES = [
    ("CI uses Node 18", "Bumped Node from 18 to 20", "Which Node version does CI use?"),
    ("CI uses Node 18", "Bumped Node to 20", "Which Node version does CI use?"),
    ("The API server runs Python 3.10", "Upgraded Python to 3.12", "Which Python version does the API server run?"),
    ("Our staging database is PostgreSQL 14", "Upgraded PostgreSQL 14 to PostgreSQL 16",
     "Which PostgreSQL version is the staging database?"),
    ("The frontend is built with webpack", "Moved the frontend build to Vite", "What is the frontend built with?"),
    ("The docs site is hosted on Netlify", "Moved the docs site to Vercel", "Where is the docs site hosted?"),
    ("The team standup is at 9:30", "Now at 10:00", "When is the team standup?"),
    ("Our CI runs on Jenkins", "Switched CI to GitHub Actions", "Where does our CI run?"),
    ("The billing service is written in Ruby", "Rewrote billing in Go",
     "What language is the billing service written in?"),
    ("The mobile app uses React Native", "Rewrote the mobile app in Flutter",
     "What framework does the mobile app use?"),
    ("The on-call tool for the payments team is PagerDuty", "We dropped PagerDuty for Opsgenie",
     "What is the on-call tool for the payments team?"),
    ("The production cluster runs Kubernetes 1.27", "Bumped Kubernetes to 1.29",
     "Which Kubernetes version does the production cluster run?"),
    ("The web app talks to Redis 6", "Upgraded Redis to 7", "Which Redis version does the web app use?"),
    ("The nightly backup job runs at 02:00", "Moved the backup to 03:30", "When does the nightly backup job run?"),
    ("Error reports from the iOS app go to Sentry", "Switched error reports to Bugsnag",
     "Where do error reports from the iOS app go?"),
    ("The monorepo uses npm", "Migrated the monorepo from npm to pnpm", "Which package manager does the monorepo use?"),
    ("The release train leaves on Thursday", "The train now leaves on Tuesday", "When does the release train leave?"),
    ("The analytics pipeline stores events in BigQuery", "Migrated events from BigQuery to Snowflake",
     "Where does the analytics pipeline store events?"),
    ("The build image uses Go 1.21", "Bumped Go to 1.22", "Which Go version does the build image use?"),
    ("The internal wiki lives on Confluence", "Moved the wiki to Notion", "Where does the internal wiki live?"),
    ("The load balancer for the EU region is HAProxy", "Replaced HAProxy with Envoy",
     "What is the load balancer for the EU region?"),
    ("Feature flags in the checkout service are managed with LaunchDarkly",
     "Switched flags from LaunchDarkly to Unleash", "How are feature flags in the checkout service managed?"),
    ("The data team's notebooks run on JupyterHub", "Notebooks now run on Databricks",
     "Where do the data team's notebooks run?"),
]


def confidences(store: Store, old: str, new: str, question: str):
    """``pair_recalled``'s older id and newer outcome, and the recall's hits."""
    older, newer, _ = pair_recalled(store, old, new, question)
    return older, newer, store.recall(tenant="t", query=question, scopes=["p"]).hits


@pytest.mark.parametrize(("old", "new", "question"), CHANGES)
def test_the_newer_of_an_outdated_answer_is_first_and_sure(real_store: Store, old, new, question):
    older, newer, hits = confidences(real_store, old, new, question)
    assert [i for i, _ in newer.contradicts] == [older]
    sure = {h.memory.id: h.confidence for h in hits}
    assert hits[0].memory.id == newer.id and hits[0].outdated_by is None
    assert sure[newer.id] >= SURE_CONFIDENCE
    assert next(h.outdated_by for h in hits if h.memory.id == older) == newer.id
    assert sure[older] <= OUTDATED_CONFIDENCE


@pytest.mark.parametrize(("old", "new", "question"), [
    ("CI uses Node 18", "Bumped Node to 20", "Who owns the billing service?"),
    ("The production cluster runs Kubernetes 1.27", "Bumped Kubernetes to 1.29",
     "Which Kubernetes version does the staging cluster run?"),
    ("The team standup is at 9:30", "Now at 10:00", "When is the design review?"),
    ("The web app talks to Redis 6", "Upgraded Redis to 7", "Which Redis version does the mobile app use?"),
    ("The on-call tool for the payments team is PagerDuty", "We dropped PagerDuty for Opsgenie",
     "What is the on-call tool for the search team?"),
    ("Our CI runs on Jenkins", "Switched CI to GitHub Actions", "Where is the office?"),
])
def test_the_newer_of_a_hit_answering_another_question_is_not_sure(real_store: Store, old, new, question):
    _, _, hits = confidences(real_store, old, new, question)
    assert all(h.confidence < SURE_CONFIDENCE for h in hits)
