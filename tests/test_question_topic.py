"""A hit sharing only a question's verb or generic words, none of the words naming its subject, is
never a sure answer, and ranks below the hits holding its subject; an acronym is such a word even when
it spells a function word ("IT"). Trial 60: in a store of three memories "which CI do we use?" put
"We decided to use PostgreSQL 16 for the billing service" first at 0.51 (it shares "use", which weighed
twice "CI", held by two of the three), both CI memories at 0.11."""

from __future__ import annotations

import re

import pytest

from memvault.storage.candidates import names
from memvault.storage.query import content_words, topic_words
from memvault.storage.ranking import SURE_CONFIDENCE
from memvault.storage.store import Store

pytestmark = pytest.mark.contract

# (the acronym, the memory holding it, a question asking for it, a memory sharing only generic words)
ACRONYMS = [
    ("CI", "Our CI runs on GitHub Actions", "which CI do we use?", "We decided to use PostgreSQL 16 for billing"),
    ("CD", "Our CD pipeline deploys with ArgoCD", "what do we use for CD?", "We use Grafana for dashboards"),
    ("QA", "The QA sign-off is done by Priya", "who does QA?", "Alice does the release notes"),
    ("PR", "Every PR needs two approvals", "how many approvals does a PR need?", "Laptops need two approvals from IT"),
    ("DB", "The DB runs on a db.r6g.large instance", "what instance does the DB use?",
     "We use Terraform for infrastructure"),
    ("UI", "The UI is built with Svelte", "what do we use for the UI?", "We use Sentry for error tracking"),
    ("UX", "The UX reviews happen on Tuesdays", "when do we do UX reviews?", "Code reviews happen on Mondays"),
    ("VM", "Each build VM has 8 GB of RAM", "how much RAM does a build VM have?", "The laptop has 16 GB of RAM"),
    ("OS", "Servers run Ubuntu 24.04 as their OS", "which OS do we use on servers?", "We use Hetzner for hosting"),
    ("IP", "The office IP is 203.0.113.7", "what is the office IP?", "The office is on the third floor"),
    ("HR", "HR questions go to Gusto", "what do we use for HR?", "We use Slack for chat"),
    ("PM", "Our PM is Jordan", "who is our PM?", "Our designer is Sam"),
    ("ML", "The ML models train on SageMaker", "where do ML models train?", "Interns train on the staging cluster"),
    ("AI", "We use Claude for AI code review", "which AI do we use for code review?", "We use Gerrit for code review"),
    ("S3", "Build artifacts are stored in S3", "what do we keep in S3?", "We keep receipts in a shoebox"),
    ("K8s", "We run K8s on EKS", "which K8s do we run?", "We run the nightly jobs on cron"),
    ("2FA", "2FA is enforced with YubiKeys", "what do we use for 2FA?", "We use 1Password for shared logins"),
    ("IT", "IT support is outsourced to Acme", "who handles IT?", "Payroll is handled by Gusto"),
    ("SSO", "SSO goes through Okta", "what do we use for SSO?", "We use Zoom for calls"),
]
# Questions whose first hit holds their words and stays sure beside the acronym memories.
ORDINARY = [
    ("what is our CI?", "Our CI runs on GitHub Actions"),
    ("what do we use for dashboards?", "We use Grafana for dashboards"),
    ("who owns the payments service?", "Alice owns the payments service"),
    ("when do nightly DB backups run?", "The DB backups run nightly at 2am"),
    ("which OS do the servers run?", "Servers run Ubuntu 24.04 as their OS"),
]
MORE = ["Alice owns the payments service", "The DB backups run nightly at 2am",
        "Invoices go out on the first of the month",
        "The API gateway is Kong", "Logs are shipped to Loki", "The mobile app uses React Native"]


def _holds(text: str | None, acronym: str) -> bool:
    return acronym in re.findall(r"\w+", text or "")


def _first_and_unsure(store: Store, tenant: str, question: str, acronym: str) -> list[str]:
    """What is wrong with ``question``'s recall: a hit without ``acronym`` first, or sure."""
    hits = store.recall(tenant=tenant, query=question, scopes=["p"]).hits
    shown = [(h.memory.content, h.confidence) for h in hits]
    wrong = [] if hits and _holds(hits[0].memory.content, acronym) else [f"{question!r}: {shown}"]
    return wrong + [f"{question!r}: sure {text!r} ({sure})" for text, sure in shown
                    if not _holds(text, acronym) and sure >= SURE_CONFIDENCE]


def test_an_acronym_question_in_a_small_store_is_answered_by_the_acronym_not_by_a_shared_verb(real_store):
    wrong = []
    for at, (acronym, answer, question, other) in enumerate(ACRONYMS):
        tenant = f"t{at}"  # a store of three memories of its own: the acronym held by two of them
        for text in (other, answer, f"{answer.rstrip('.')} since March"):
            real_store.remember(tenant=tenant, scope="p", content=text)
        wrong += _first_and_unsure(real_store, tenant, question, acronym)
    assert wrong == []


def test_an_acronym_question_in_a_larger_store_is_answered_by_the_acronym(real_store):
    for text in [a for _, a, _, _ in ACRONYMS] + [o for _, _, _, o in ACRONYMS] + MORE:
        real_store.remember(tenant="t", scope="p", content=text)
    wrong = []
    for acronym, _, question, _ in ACRONYMS:
        wrong += _first_and_unsure(real_store, "t", question, acronym)
    for question, answer in ORDINARY:
        hits = real_store.recall(tenant="t", query=question, scopes=["p"]).hits
        if not hits or hits[0].memory.content != answer or hits[0].confidence < SURE_CONFIDENCE:
            wrong.append(f"{question!r}: {[(h.memory.content, h.confidence) for h in hits[:2]]}")
    assert wrong == []


@pytest.mark.parametrize("question", ["what CI do we use?", "which CI do we use?", "what do we use for CI?"])
def test_the_trial_store_puts_the_ci_memories_first(real_store, question):
    for text in ("We decided to use PostgreSQL 16 for the billing service", "Our CI runs on Jenkins",
                 "We moved CI from Jenkins to GitHub Actions"):
        real_store.remember(tenant="t", scope="p", content=text)
    hits = real_store.recall(tenant="t", query=question, scopes=["p"]).hits
    assert [h.memory.content for h in hits[:2]] == [
        "We moved CI from Jenkins to GitHub Actions", "Our CI runs on Jenkins"]
    assert all(h.confidence < SURE_CONFIDENCE for h in hits if "CI" not in (h.memory.content or ""))
    sure = real_store.recall(tenant="t", query="what is our CI?", scopes=["p"]).hits[0]
    assert sure.memory.content == "We moved CI from Jenkins to GitHub Actions" and sure.confidence >= SURE_CONFIDENCE


@pytest.mark.parametrize("question", ["which database do we use?", "what do we use for monitoring?",
                                      "which language do we use for scripts?"])
def test_a_hit_sharing_only_the_verb_is_unsure_even_when_no_memory_holds_the_subject(real_store, question):
    for text in ("We decided to use PostgreSQL 16 for the billing service", "Our CI runs on Jenkins"):
        real_store.remember(tenant="t", scope="p", content=text)
    assert all(h.confidence < SURE_CONFIDENCE for h in real_store.recall(tenant="t", query=question, scopes=["p"]).hits)


@pytest.mark.parametrize("question, topic", [
    ("which CI do we use?", ["CI"]),
    ("what do we use for CI?", ["CI"]),
    ("which port does Redis use?", ["Redis"]),
    ("who handles IT?", ["IT"]),
    ("what did Caroline research?", ["Caroline"]),
    ("how many approvals does a PR need?", ["approvals", "PR"]),
    ("what is the billing service's database?", ["billing", "service", "database"]),
    ("what did we decide?", []),
])
def test_the_words_naming_what_a_question_is_about(question, topic):
    asked = names(question)
    assert topic_words(question, content_words([re.findall(r"\w+", question)], asked), asked) == topic


@pytest.mark.parametrize("question, named", [
    ("who handles IT?", ["IT"]), ("Is IT down?", ["IT"]), ("which US state did Jolene visit?", ["US", "Jolene"]),
    ("who handles it?", []), ("WHO HANDLES IT?", []), ("what is the NOT operator?", []),
])
def test_an_acronym_spelling_a_function_word_is_a_name(question, named):
    assert names(question) == named
