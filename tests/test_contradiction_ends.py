"""A newer memory that ends a name the older holds (retires, drops, stops using, replaces or moves off
it, with or without naming what follows) contradicts the older whatever the older's frame, as a change
verb said of it does (from ``contradiction.CHANGED_SUBJECT``); a denial or an end said of another slot, an
environment, or with "also", "too" does not (issue 27, new-user trial verify61 §3a: "Our CI runs on
Jenkins" → "We retired Jenkins" was missed, "We use Poetry for packaging" → "We don't use Poetry for
scripts" flagged). A name refilling the slot ("CircleCI runs our CI now") or a change moving the slot to
another name ("Packaging was migrated to bun") does too. Word tests first, then remember and recall on each
backend."""

from __future__ import annotations

import pytest
from stores import assert_apart, assert_outdates, pair_recalled

from memvault.storage.contradiction import CHANGED_SUBJECT, STRONG_SUBJECT, contradicts, disagreement
from memvault.storage.ranking import SAME_SUBJECT
from memvault.storage.store import Store

NAMES = [("Jenkins", "CircleCI"), ("PagerDuty", "Opsgenie"), ("GitHub Actions", "GitLab CI"), ("AWS", "GCP"),
         ("Travis CI", "Buildkite"), ("pip", "uv"), ("npm", "pnpm"), ("Argo CD", "Flux")]
OLDER = ["Our CI runs on {x}", "The on-call tool is {x}", "We use {x} for packaging", "We use {x}",
         "{x} runs our builds", "Alerts go to {x}", "We deploy with {x}", "Our team relies on {x}"]
ENDS = ["We no longer use {x}", "We stopped using {x}", "We retired {x}", "We ditched {x} for {y}",
        "We dropped {x} for {y}", "We replaced {x}", "We replaced {x} with {y}", "We moved off {x}", "We sunset {x}",
        "We decommissioned {x}", "We phased out {x}", "We abandoned {x}", "We switched away from {x}",
        "{x} was retired", "{x} has been decommissioned", "We got rid of {x}", "We migrated away from {x} to {y}",
        "{x} was dropped in favour of {y}", "We dropped {x} in favor of {y}", "We shut down {x}",
        "We have stopped using {x}", "We have finally retired {x}",
        # dated, or with the pronoun's verb in one word (trial verify62 N1)
        "We retired {x} last month", "We decommissioned {x} in October", "We dropped {x} for {y} on 2026-10-01",
        "Two weeks ago we retired {x}", "We retired {x} yesterday", "We've stopped using {x}",
        "We’ve dropped {x} for {y}", "We've retired {x} last month",
        # the passive of a verb with its particle (the check raised IndexError on these)
        "{x} was phased out", "{x} was shut down", "{x} was turned off", "{x} was switched off",
        "We switched off {x}",
        # a passive end, an end named by what replaces it, by what the name was held as or by where it left
        # (trial verify62 N1)
        "{x} is no longer used", "{x} is no longer needed", "{x} is no longer supported", "{x} is no longer in use",
        "{x} is gone", "{x} is gone, we use {y} now", "{x} got the axe in September", "{x} got the boot",
        "We left {x} for {y}", "We left {x} in favour of {y}", "We cancelled our {x} subscription",
        "We cancelled the {x} contract", "{x} was removed from the stack", "We removed {x} from our setup",
        "No more {x}, everything is on {y}", "We've stopped paying for {x} and went with {y}", "We axed {x}"]
QUIET = [  # (older, newer): another slot, another environment, an addition, what the older holds kept
    ("We use {x} for packaging", "We don't use {x} for scripts"),
    ("We use {x} for packaging", "We no longer use {x} for scripts"),
    ("{x} runs our builds", "We no longer use {x} for scripts"),
    ("Our CI runs on {x}", "We stopped using {x} for nightly builds"),
    ("Our CI runs on {x}", "We retired {x} in staging"),
    ("Our CI runs on {x} in production", "We retired {x} in staging"),
    ("Our CI runs on {x}", "We retired the old {x} plugins"),
    ("Our CI runs on {x}", "We ditched {y} for {x}"),
    ("Our CI runs on {x}", "We retired {y}"),
    ("Our CI runs on {x}", "We stopped using {y}"),
    ("We use {x}", "We also use {y}"),
    ("We use {x}", "We use {y} too"),
    ("We do not use {x}", "We retired {x}"),
    ("Our CI runs on {x}", "We retired {x} in staging last month"),
    ("Our CI runs on {x}", "We've retired {y}"),
    ("We use {x} for packaging", "{x} is no longer used for scripts"),
    ("Our CI runs on {x}", "{x} is no longer used for nightly builds"),
    ("Our CI runs on {x}", "{x} is no longer used in staging"),
    ("Our CI runs on {x}", "{y} is no longer used"),
    ("Our CI runs on {x}", "{y} is gone"),
    ("Our CI runs on {x}", "{x} is gone from the docs pipeline"),
    ("Our CI runs on {x}", "The {x} nightly job got the axe"),
    ("Our CI runs on {x}", "We left {x} running overnight"),
    ("Our CI runs on {x}", "We left {y} for {x}"),
    ("Our CI runs on {x}", "We also left {x} for {y} on the mobile team"),
    ("Our CI runs on {x}", "We cancelled our {x} subscription for the EU team"),
    ("Our CI runs on {x}", "We cancelled the {x} integration with Jira"),
    ("Our CI runs on {x}", "{x} was removed from the staging cluster"),
    ("Our CI runs on {x}", "We stopped paying for {x} plugins"),
    ("Our CI runs on {x}", "No more {y}"),
    ("Our CI runs on {x}", "No more {x} for the docs site"),
    ("We ditched {x} for {y}", "We retired {x}"),  # the end restated
    ("Our CI runs on {x}", "We left {x} for the weekend"),  # an absence bounded in time
    ("Our CI runs on {x}", "{x} is gone until Monday"),
    ("{x} runs our builds", "{x} is gone for the day"),
    ("Our CI runs on {x}", "We dropped {x} for two weeks"),
    ("We ditched {x} for {y}", "We also use {y} in staging"),
]


def fill(template: str, x: str, y: str, z: str = "") -> str:
    return template.format(x=x, y=y, z=z)


@pytest.mark.parametrize(("old", "new"),
                         [(fill(o, x, y), fill(n, x, y)) for x, y in NAMES for o in OLDER for n in ENDS])
def test_a_newer_memory_ending_the_older_ones_name_contradicts_it_from_the_changed_gate(old, new):
    assert contradicts(old, new, CHANGED_SUBJECT, SAME_SUBJECT) is not None


@pytest.mark.parametrize(("old", "new"), [(fill(o, x, y), fill(n, x, y)) for x, y in NAMES for o, n in QUIET])
def test_an_end_or_denial_of_another_slot_or_name_contradicts_nothing(old, new):
    assert disagreement(old, new) is None


@pytest.mark.parametrize(("old", "new"), [
    ("The standup is on Friday", "No more meetings on Friday"),
    ("The retro is on Friday", "No more meetings on Friday"),
    ("Our CI runs on Jenkins", "Alice left Jenkins running overnight"),
    ("Maria leads the platform team", "Maria is gone until Monday"),
    ("Maria leads the platform team", "Maria is gone for the week"),
    ("Bob is on call this week", "Bob is gone for the day"),
])
def test_an_end_of_no_name_the_older_holds_contradicts_nothing(old, new):
    assert disagreement(old, new) is None


CHAINS = [("Jenkins", "CircleCI", "Buildkite"), ("PagerDuty", "Opsgenie", "incident.io"), ("npm", "yarn", "pnpm"),
          ("Travis CI", "GitHub Actions", "GitLab CI"), ("Slack", "Teams", "Zulip")]
CHAIN_ENDS = ["We ditched {x} for {y}", "We dropped {x} for {y}", "We left {x} for {y}", "We replaced {x} with {y}",
              "We migrated away from {x} to {y}"]


@pytest.mark.parametrize(("old", "new"), [(fill(o, x, y, z), fill(n, y, z)) for x, y, z in CHAINS
                                          for o in CHAIN_ENDS for n in CHAIN_ENDS])
def test_an_end_of_the_name_an_older_end_went_to_contradicts_it(old, new):
    """"We ditched CircleCI for Buildkite" after "We ditched Jenkins for CircleCI" (trial verify62 N4)."""
    assert contradicts(old, new, CHANGED_SUBJECT, SAME_SUBJECT) is not None


# Names in lower case, dotted, hyphenated or of several words (trial verify63 N6: "We dropped Opsgenie for incident.io"
# after "We dropped PagerDuty for Opsgenie"); verbs ending the name with what replaces it.
WRITTEN = [("pagerduty", "opsgenie", "incident.io"), ("jenkins", "circleci", "buildkite"), ("heroku", "fly.io", "render"),
           ("Heroku", "Render", "Fly.io"), ("ws", "socket.io", "Pusher"), ("pre-commit", "lint-staged", "lefthook"),
           ("date-fns", "moment.js", "Day.js"), ("k8s", "nomad", "ECS"), ("Netlify", "Vercel", "Cloudflare Pages"),
           ("Google Cloud Build", "AWS CodeBuild", "Azure Pipelines")]
REPLACED = ["We dropped {x} for {y}", "We ditched {x} for {y}", "We dumped {x} for {y}", "We left {x} for {y}",
            "We replaced {x} with {y}", "We replaced {x} by {y}", "We swapped {x} for {y}", "We swapped {x} out for {y}",
            "We swapped {x} with {y}", "We dropped {x} in favour of {y}"]


@pytest.mark.parametrize(("old", "new"), [(fill(o, x, y), fill(n, y, z)) for x, y, z in WRITTEN
                                          for o in REPLACED for n in REPLACED])
def test_an_end_of_the_name_an_older_end_went_to_contradicts_it_however_the_names_are_written(old, new):
    assert contradicts(old, new, CHANGED_SUBJECT, SAME_SUBJECT) is not None


@pytest.mark.parametrize(("old", "new"), [(fill(o, x, y), fill(n, x, y)) for x, y, _ in WRITTEN
                                          for o in ("The on-call tool is {x}", "Our CI runs on {x}", "We use {x}")
                                          for n in REPLACED + ["We retired {x}", "We stopped using {x}"]])
def test_an_end_of_a_name_written_in_lower_case_contradicts_the_older_holding_it(old, new):
    assert contradicts(old, new, CHANGED_SUBJECT, SAME_SUBJECT) is not None


@pytest.mark.parametrize(("old", "new"), [(fill(o, x, y), fill(n, x, y)) for x, y, _ in WRITTEN for o, n in [
    ("Our CI runs on {x}", "We ditched {y} for {x}"),
    ("Our CI runs on {x}", "We retired {y}"),
    ("Our CI runs on {x}", "We left {x} for the weekend"),
    ("Our CI runs on {x}", "We dropped {x} for two weeks"),
    ("Our CI runs on {x}", "We retired {x} in staging"),
    ("We use {x}", "We also use {y}"),
    ("We ditched {x} for {y}", "We also use {y} in staging"),
    ("We ditched {x} for {y}", "We retired {x}"),
    ("Our CI runs on {x}", "We ditched it for {y}"),
    ("Our CI runs on {x}", "We dropped support for {y}"),
]])
def test_an_end_of_another_name_or_slot_written_in_lower_case_contradicts_nothing(old, new):
    assert disagreement(old, new) is None


@pytest.mark.parametrize(("old", "new", "gate"), [
    ("Our CI runs on Jenkins", "CircleCI runs our CI now", STRONG_SUBJECT),  # a name opening before "runs"
    ("Our builds run on Jenkins", "GitLab CI runs our builds now", STRONG_SUBJECT),
    ("We use Poetry for packaging", "Packaging was migrated to bun", CHANGED_SUBJECT),  # the slot moved
    ("Our issue tracker is Linear", "Our issue tracker moved to YouTrack", CHANGED_SUBJECT),
])
def test_a_slot_refilled_or_moved_to_another_name_contradicts_the_older(old, new, gate):
    assert contradicts(old, new, gate, SAME_SUBJECT) is not None


@pytest.mark.contract
@pytest.mark.parametrize(("old", "new", "question"), [
    ("Our CI runs on Jenkins", "We no longer use Jenkins", "where does our CI run?"),
    ("Our CI runs on Jenkins", "We stopped using Jenkins", "where does our CI run?"),
    ("Our CI runs on Jenkins", "We retired Jenkins", "where does our CI run?"),
    ("Our CI runs on Jenkins", "We ditched Jenkins for CircleCI", "where does our CI run?"),
    ("Our CI runs on Jenkins", "CircleCI runs our CI now", "where does our CI run?"),
    ("We use Poetry for packaging", "Packaging was migrated to bun", "what do we use for packaging?"),
    ("We use pip for packaging", "pip was dropped in favour of uv", "do we use pip?"),
    ("Our CI runs on Jenkins", "We've retired Jenkins last month", "where does our CI run?"),
    ("The on-call tool is PagerDuty", "We dropped PagerDuty for Opsgenie on 2026-10-01", "what is the on-call tool?"),
    ("Our CI runs on Jenkins", "Jenkins is no longer used", "where does our CI run?"),
    ("Our CI runs on Jenkins", "We left Jenkins for Buildkite", "where does our CI run?"),
    ("Our CI runs on Jenkins", "Jenkins got the axe in September", "where does our CI run?"),
    ("The on-call tool is PagerDuty", "We cancelled our PagerDuty subscription", "what is the on-call tool?"),
    ("The on-call tool is PagerDuty", "PagerDuty is gone, we use Opsgenie now", "what is the on-call tool?"),
    ("Our CDN is Fastly", "No more Fastly, everything is on Cloudflare", "what is our CDN?"),
    ("Secrets live in Vault", "Vault was removed from the stack", "where do secrets live?"),
])
def test_remember_reports_and_recall_puts_the_end_above_the_name_it_ended(real_store: Store, old, new, question):
    older, newer, hits = pair_recalled(real_store, old, new, question)
    assert [i for i, _ in newer.contradicts] == [older]
    assert hits[older] == newer.id and hits[newer.id] is None
    assert list(hits).index(newer.id) < list(hits).index(older)


@pytest.mark.contract
def test_the_older_of_an_ended_name_is_marked_even_when_the_newer_is_not_recalled(real_store: Store):
    assert_outdates(real_store, "The on-call tool is PagerDuty",
                    "We dropped PagerDuty for Opsgenie", "what is the on-call tool?", newer_first=False)


@pytest.mark.contract
@pytest.mark.parametrize(("old", "new", "question"), [
    ("We use Poetry for packaging", "We don't use Poetry for scripts", "what do we use for packaging?"),
    ("Our CI runs on Jenkins", "We stopped using Jenkins for nightly builds", "where does our CI run?"),
    ("Our CI runs on Jenkins", "We retired Jenkins in staging", "where does our CI run?"),
    ("We use Poetry for packaging", "Poetry is no longer used for scripts", "what do we use for packaging?"),
    ("Secrets live in Vault", "Vault was removed from the staging cluster", "where do secrets live?"),
])
def test_remember_and_recall_leave_an_end_of_another_slot_alone(real_store: Store, old, new, question):
    assert_apart(real_store, old, new, question)


def _chain(store: Store, texts: list[str]) -> list[str]:
    """Remember ``texts`` in order, months apart; each contradicts the one before it only. Their ids."""
    ids, found = [], []
    for text, day in zip(texts, ("2026-03-01", "2026-06-01", "2026-10-01"), strict=True):
        result = store.remember(tenant="t", scope="p", content=text, observed_at=f"{day}T10:00:00Z")
        ids.append(result.id)
        found.append([i for i, _ in result.contradicts])
    assert found == [[], [ids[0]], [ids[1]]]
    return ids


@pytest.mark.contract
def test_a_chain_of_ends_marks_each_older_by_the_end_after_it(real_store: Store):
    """"Our CI runs on Jenkins" → "We ditched Jenkins for CircleCI" → "We ditched CircleCI for Buildkite": the third
    contradicts the second, not the first, and recall puts it first (trial verify62 N4)."""
    texts = ["Our CI runs on Jenkins", "We ditched Jenkins for CircleCI", "We ditched CircleCI for Buildkite"]
    ids = _chain(real_store, texts)
    hits = {h.memory.id: h.outdated_by for h in real_store.recall(tenant="t", query="which CI do we use now?",
                                                                  scopes=["p"]).hits}
    assert list(hits)[0] == ids[2] and hits[ids[1]] == ids[2] and hits[ids[0]] == ids[1]


@pytest.mark.contract
@pytest.mark.parametrize("texts", [
    ["The on-call tool is PagerDuty", "We dropped PagerDuty for Opsgenie", "We dropped Opsgenie for incident.io"],
    ["The on-call tool is pagerduty", "We dropped pagerduty for opsgenie", "We dropped opsgenie for incident.io"],
    ["The on-call tool is PagerDuty", "We replaced PagerDuty with Opsgenie", "We swapped Opsgenie for incident.io"],
])
def test_recall_returns_the_newest_end_of_a_chain_above_each_older_it_outdates(real_store: Store, texts):
    """The newer returned for an outdated hit is itself marked and returned below its own newer (trial verify63 N6:
    recall answered "We dropped PagerDuty for Opsgenie", unmarked, above "The on-call tool is PagerDuty")."""
    ids = _chain(real_store, texts)
    hits = {h.memory.id: h.outdated_by for h in real_store.recall(tenant="t", query="what is the on-call tool?",
                                                                  scopes=["p"]).hits}
    assert list(hits)[:3] == [ids[2], ids[1], ids[0]]
    assert hits[ids[2]] is None and hits[ids[1]] == ids[2] and hits[ids[0]] == ids[1]


@pytest.mark.contract
def test_the_limit_holds_when_an_outdated_hit_brings_in_a_chain(real_store: Store):
    """A hit whose newers come in as a chain (``newer_hits.window``) takes more than one place over the limit:
    the limit still holds at every size."""
    _chain(real_store, ["The on-call tool is PagerDuty", "We dropped PagerDuty for Opsgenie",
                        "We dropped Opsgenie for incident.io"])
    for text in ("The mobile app is called Pathfinder", "The CI runners have 4 cores each", "Backups run nightly"):
        real_store.remember(tenant="t", scope="p", content=text, observed_at="2026-03-01T10:00:00Z")
    whole = real_store.recall(tenant="t", query="what is the on-call tool?", scopes=["p"]).hits
    for limit in range(1, len(whole) + 2):
        hits = real_store.recall(tenant="t", query="what is the on-call tool?", scopes=["p"], limit=limit).hits
        assert len(hits) == min(limit, len(whole)), (limit, [h.memory.content for h in hits])
