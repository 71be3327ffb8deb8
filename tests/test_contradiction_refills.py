"""One sentence frame with one slot refilled by another name ("We use Poetry" → "We use uv", "Use Vite,
not webpack" → "Use esbuild, not webpack", "Our CI runs on Jenkins" → "... on GitHub Actions"), a
replacement naming both ("Jenkins was replaced by GitHub Actions for CI"), and a denial of the verb
before a name ("We are not using Poetry") contradict the older memory, known name or not, capitalised
or a tool's name in lower case ("We install with pip" → "... uv", two tiny texts under the brief gate); two
tools used side by side, an added one ("also"), another subject or a qualified denial do not (issue 27
§2, a new-user trial on main: none of the first three was found). Word tests at the packaged model's
cosine first, then through remember and recall on each backend."""

from __future__ import annotations

import pytest
from stores import assert_apart, assert_outdates, cosine, flagged

from memvault.storage.contradiction import STRONG_SUBJECT
from memvault.storage.store import Store

TOOLS = [  # (older, newer, a third one): product, tool and people's names, known or not, one or two words
    ("Poetry", "uv", "pip"), ("Jenkins", "GitHub Actions", "Travis CI"), ("Terraform", "OpenTofu", "Pulumi"),
    ("Vite", "esbuild", "webpack"), ("Sentry", "Rollbar", "Bugsnag"), ("Kong", "Traefik", "HAProxy"),
    ("PagerDuty", "Opsgenie", "VictorOps"), ("Confluence", "Notion", "SharePoint"), ("MySQL", "Postgres", "Oracle"),
    ("Slack", "Microsoft Teams", "Mattermost"), ("Maria", "Tomás Ruiz", "Jonas"),
    ("pip", "uv", "conda"), ("npm", "pnpm", "yarn"), ("make", "ninja", "bazel"), ("Jenkins", "CircleCI", "Travis CI"),
]
FRAMES = ["Our CI runs on {x}", "We switched to {x}", "Use {x}, not {z}", "Packaging is done with {x}",
          "Our team uses {x} daily", "We deploy with {x}", "The release manager is {x}"]
REPLACED = [("Our CI runs on {x}", "{x} was replaced by {y}"), ("Our CI runs on {x}", "{y} replaced {x}"),
            ("We use {x}", "{x} has been replaced by {y}"), ("We use {x}", "{x} got swapped for {y}"),
            ("We use {x}", "We replaced {x} with {y}"), ("Our CI runs on {x}", "{x} was replaced by {y} for CI")]
DENIED = [("We use {x}", "We are not using {x}"), ("We use {x}", "We do not use {x} anymore"),
          ("Our CI runs on {x}", "We do not use {x}"), ("Our CI runs on {x}", "Our CI is not running on {x}"),
          ("We deploy with {x}", "We never deploy with {x}")]
APART = [  # near pairs that contradict nothing
    ("We use {x} for packaging", "We use {y} for scripts"), ("We use {x}", "We also use {y}"),
    ("We use {x}", "We use {x} and {y}"), ("We use {x} and {y}", "We use {x}, {y} and {z}"),
    ("The frontend uses {x}", "The backend uses {y}"), ("Our CI runs on {x}", "We don't use {x} for deploys"),
    ("Our CI runs on {x}", "{x} moved to a new server"), ("We use {x}", "{x} is great"),
    ("We use {x}", "We use {x} too"),
    ("Alice uses {x}", "Bob uses {y}"), ("We use {x} at work", "I use {y} at home"),
    ("We do not use {x}", "We do not use {y}"), ("We use {x}", "We do not use {y}"),
    ("Our CI runs on {y}", "{x} was replaced by {y} for CI"),
]
# A bare verb of having frames no slot: "We use Docker" / "We use Slack" are two tools side by side as often as one
# for the other, and the packaged model's cosine (0.24-0.55 across kinds, 0.25-0.68 within) does not tell which;
# so a refilled name there is read as any lone name is: from the strong gate (``STRONG_SUBJECT``) only.
CROSS_KIND = [("Docker", "Slack"), ("Kubernetes", "Notion"), ("Postgres", "Jira"), ("pip", "Jira"),
              ("Terraform", "Figma"), ("Redis", "Linear"), ("GitHub", "Datadog"), ("React", "PagerDuty"),
              ("Kafka", "Confluence"), ("Vite", "Okta"), ("uv", "Jira")]
BARE = ["We use {}", "We have {}", "I like {}", "We need {}", "We tried {}"]
# ... while a frame naming the slot keeps them apart whatever the names' kinds
PURPOSES = [("We use Docker for local development", "We use Slack for team chat"),
            ("We use Postgres as the main database", "We use Jira for tickets"),
            ("We use Terraform for infrastructure", "We use Figma for design"),
            ("We use Redis for caching", "We use Linear for issues")]
# A move agrees with where it went and contradicts where it left, the target capitalised or not.
MOVED = [(f"Our CI runs on {y}", f"We moved CI from {x} to {y}") for x, y, _ in TOOLS]
LEFT = [("Our CI runs on {x}", "We moved CI from {x} to {y}"), ("We use {x}", "We switched from {x} to {y}")]
# A denial said to have ended: "We don't use Poetry anymore" (cosine 0.59 beside "... for packaging").
ENDED = [("We use {x} for packaging", "We don't use {x} anymore"), ("We use {x} for packaging", "We no longer use {x}")]
# Under every gate (``contradiction.least_cosine``) at the packaged model's cosine: no word test reads them.
UNDER_EVERY_GATE = {("We use MySQL", "MySQL got swapped for Postgres"), ("We use make", "make got swapped for ninja")}
# Two tiny texts with one plain word refilled stay under the strong gate: only a name's slot is read lower.
WORDS_UNDER_THE_GATE = [("Good luck!", "Good night!"), ("We need chairs", "We need funding"),
                        ("Bring snacks", "Bring passports"), ("Order pizza", "Order toner")]
# A longer name holding the subject's word ("CircleCI" in "Our CI runs on ...") is another name; a name
# written out further elsewhere is the same one.
SPELT = [("Our CI runs on Jenkins, and every merge to main triggers the full integration suite plus the nightly "
          "smoke tests", "Our CI runs on CircleCI, and every merge to main triggers the full integration suite plus "
          "the nightly smoke tests"),
         ("The CI provider for the mobile apps is Jenkins and builds take about twenty minutes on average",
          "The CI provider for the mobile apps is CircleCI and builds take about twenty minutes on average"),
         ("Our CI runs on Travis CI", "Our CI runs on CircleCI")]
ONE_NAME = [("Jo is the release manager", "Joanna is the release manager"),
            ("The release manager is Jo", "The release manager is Joanna"),
            ("Jo runs the release", "Joanna runs the release"),
            ("My sister Jo lives in Leeds", "My sister Joanna lives in Leeds"),
            ("We run Postgres for billing", "We run PostgreSQL for billing"),
            ("The staging DB is stg-db-07", "The staging DB is stg-db-07.lan")]


def pairs(templates: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(old.format(x=x, y=y, z=z), new.format(x=x, y=y, z=z)) for x, y, z in TOOLS for old, new in templates]


def refills() -> list[tuple[str, str]]:
    return [(frame.format(x=x, z=z), frame.format(x=y, z=z)) for x, y, z in TOOLS for frame in FRAMES]


@pytest.mark.parametrize(("old", "new"), [p for p in refills() + pairs(REPLACED) if p not in UNDER_EVERY_GATE])
def test_one_slot_refilled_or_a_replacement_naming_both_contradicts(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None


@pytest.mark.parametrize(("old", "new"), pairs(DENIED) + pairs(ENDED))
def test_a_denial_of_the_verb_before_a_name_contradicts_a_statement_of_the_name(real_embedder, old, new):
    reason = flagged(real_embedder, old, new)
    assert reason is not None and reason.startswith("negation: ")


@pytest.mark.parametrize(("old", "new"), SPELT)
def test_a_longer_name_holding_the_subjects_word_is_another_name(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None


@pytest.mark.parametrize(("old", "new"), ONE_NAME)
def test_a_name_written_out_further_is_the_same_name(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is None


@pytest.mark.parametrize(("old", "new"), pairs(LEFT))
def test_a_move_from_the_older_name_contradicts_it_the_target_capitalised_or_not(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is not None


@pytest.mark.parametrize(("old", "new"), WORDS_UNDER_THE_GATE)
def test_a_plain_word_refilled_in_two_tiny_texts_needs_the_strong_gate(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is None


@pytest.mark.parametrize(("old", "new"), [(f.format(a), f.format(b)) for a, b in CROSS_KIND for f in BARE] + PURPOSES)
def test_two_names_after_a_bare_verb_of_having_are_not_one_slot_refilled(real_embedder, old, new):
    """Flagged, if at all, as any lone name is: at the strong gate, never under it."""
    assert flagged(real_embedder, old, new) is None or cosine(real_embedder, old, new) >= STRONG_SUBJECT


@pytest.mark.parametrize(("old", "new"), pairs(APART) + MOVED)
def test_tools_side_by_side_added_or_of_another_subject_contradict_nothing(real_embedder, old, new):
    assert flagged(real_embedder, old, new) is None
    assert flagged(real_embedder, new, old) is None or "replaced" in new or "moved" in new  # a change read backwards


@pytest.mark.contract
@pytest.mark.parametrize(("old", "new", "question"), [
    ("We use Poetry for packaging", "We use uv for packaging", "which package manager do we use?"),
    ("Use Vite, not webpack", "Use esbuild, not webpack", "which bundler do we use?"),
    ("Our CI runs on Jenkins", "Our CI runs on GitHub Actions", "what does our CI run on?"),
    ("We use Terraform for infrastructure", "Use OpenTofu for infrastructure", "what do we use for infrastructure?"),
    ("Our CI runs on Jenkins", "Jenkins was replaced by GitHub Actions for CI", "what does our CI run on?"),
    ("We use Poetry", "We are not using Poetry", "do we use Poetry?"),
    ("Our CI runs on Travis CI", "Our CI runs on CircleCI", "what does our CI run on?"),
    ("We use Poetry for packaging", "We don't use Poetry anymore", "do we use Poetry?"),
    ("We install with pip", "We install with uv", "which package manager do we use?"),
    ("Our CI runs on Poetry", "We moved CI from Poetry to uv", "what does our CI run on?"),
])
def test_remember_reports_and_recall_marks_the_older_of_a_refilled_slot(real_store: Store, old, new, question):
    assert_outdates(real_store, old, new, question, newer_first=False)


@pytest.mark.parametrize(("old", "new", "question"), [
    ("We use Poetry for packaging", "We use uv for scripts", "which tools do we use?"),
    ("We use Poetry", "We also use uv", "which package manager do we use?"),
    ("Our CI runs on Jenkins", "We don't use Jenkins for deploys", "what does our CI run on?"),
    ("Our CI runs on uv", "We moved CI from Poetry to uv", "what does our CI run on?"),
    ("We use pip", "We also use uv", "which package manager do we use?"),
])
def test_remember_and_recall_leave_tools_used_side_by_side_alone(real_store: Store, old, new, question):
    assert_apart(real_store, old, new, question)


def test_the_current_statement_leads_a_move_and_its_source_for_the_question_of_the_trial(real_store: Store):
    """Jenkins, the move, then where it went: recall puts the current statement first, the source marked."""
    source = real_store.remember(tenant="t", scope="p", content="Our CI runs on Jenkins",
                                 observed_at="2026-03-01T10:00:00Z").id
    real_store.remember(tenant="t", scope="p", content="We moved CI from Jenkins to GitHub Actions",
                        observed_at="2026-06-01T10:00:00Z")
    current = real_store.remember(tenant="t", scope="p", content="Our CI runs on GitHub Actions",
                                  observed_at="2026-07-01T10:00:00Z")
    assert source in [i for i, _ in current.contradicts]
    hits = real_store.recall(tenant="t", query="what does our CI run on?", scopes=["p"]).hits
    assert hits[0].memory.id == current.id
    assert {h.memory.id: h.outdated_by for h in hits}[source] is not None
