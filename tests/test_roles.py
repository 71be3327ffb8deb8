"""Roles of the same thing are a closed set (fixnear10): a memory naming only another role than the one a
question asks for ("Who is on call for search?" over "Dana is the tech lead of search", 0.63 before) is a
near miss, unsure; the role asked in other words ("owns" / "the owner of", "leads" / "tech lead") stays
sure. Real model for recall, and the words alone."""

from __future__ import annotations

import pytest

from memvault.storage.ranking import SURE_CONFIDENCE
from memvault.storage.roles import roles
from memvault.storage.siblings import sibling
from memvault.storage.store import Store

# Another role of the same thing, each sure (0.51-0.95) before.
ANOTHER_ROLE = [
    ("Who is on call for search?", "Dana is the tech lead of search"),
    ("Who is the manager of search?", "Dana is the tech lead of search"),
    ("Who is the DRI for search?", "Dana is the tech lead of search"),
    ("Who maintains search?", "Dana is the tech lead of search"),
    ("Who is the maintainer of search?", "Dana is the owner of search"),
    ("Who is the reviewer for search?", "Dana is the maintainer of search"),
    ("Who owns search?", "Dana is on call for search"),
    ("Who is the owner of search?", "Dana is the tech lead of search"),
    ("Who is on call for payments?", "Tomasz manages payments"),
    ("Who is the product owner of search?", "Dana is the tech lead of search"),
    ("Who is on call for checkout this week?", "Priya is the engineering manager of checkout"),
    ("Who approves schema migrations?", "Schema migrations are reviewed by Lena"),
    ("Who reviews schema migrations?", "Schema migrations are approved by Lena"),
    ("Who maintains the billing library?", "The billing library is owned by Ana"),
    ("Who is the DRI for the outage follow-ups?", "Ana owns the outage follow-ups"),
    ("Whom should I page, the on-call for search?", "Dana leads search"),
]
# Read as siblings, but unsure before too (another kind of the same role, or words no memory holds).
ANOTHER_ROLE_READ = [
    ("Who reviews search changes?", "Dana is the tech lead of search"),
    ("Who is the tech lead of search?", "Dana is on call for search this week"),
    ("Who is the engineering manager for payments?", "Tomasz is the product owner of payments"),
    ("Who is the release manager for v4?", "Sam is the tech lead for v4"),
    ("Who is the product manager for search?", "Rui is the engineering manager for search"),
    ("Who is the directly responsible individual for search?", "Dana is the tech lead of search"),
    ("Who is the architect of the billing service?", "Ana maintains the billing service"),
    ("Who is the incident commander for the outage?", "Ana owns the outage follow-ups"),
    ("Who is on call next week for search?", "Dana is the tech lead of search"),
    ("Who is the on-call engineer for search?", "Dana is the tech lead of search"),
    ("Which engineer is on call for search?", "Dana is the tech lead of search"),
    ("Who will lead the search migration?", "Dana is on call for the search migration"),
]
# The role asked, in its words or others: "owns" and "owner", a role in fewer words ("leads" / "tech lead",
# "owns" / "product owner"), a memory naming the role asked beside another, and words that are no role.
SAME_ROLE = [
    ("Who owns search?", "Dana owns search"),
    ("Who owns search?", "Dana is the owner of search"),
    ("Who leads search?", "Dana is the tech lead of search"),
    ("Who is the tech lead of search?", "Dana is the tech lead of search"),
    ("Who is on call for search?", "Dana is on call for search this week"),
    ("Who is the oncall for search?", "Dana is on-call for search"),
    ("Who is on call for search?", "On-call for search this week: Dana"),
    ("Who is the DRI for search?", "Dana is the DRI for search"),
    ("Who manages search?", "Dana is the manager of search"),
    ("Who maintains the billing library?", "Ana maintains the billing library"),
    ("Who approves schema migrations?", "Lena approves schema migrations"),
    ("Who reviews schema migrations?", "Lena reviews schema migrations"),
    ("Who heads sales?", "Lena is the head of sales"),
    ("Who is the head of sales?", "Lena leads sales"),
    ("Who owns search?", "Dana is the product owner of search"),
    ("Who is the product owner of search?", "Dana owns search"),
    ("Who is the search tech lead?", "Dana is the tech lead of search"),
    ("Who is on call for search?", "Dana is the tech lead of search and Omar is on call this week"),
    ("Who is the tech lead of search?", "Dana is the tech lead of search and Omar is on call this week"),
    ("What is the timeout of the search service?", "The search service owner set the timeout to 30s"),
    ("Who owns the cache?", "The cache leads to stale reads in search"),
    ("Who manages the budget?", "I managed to finish the budget on my own"),
    ("Who is on-call for search?", "Dana is on call until Friday for search"),
    # a role's noun before a thing's names the thing ("the on-call rotation"); a question asking for no one
    ("Who changes the on-call rotation?", "The rotation is managed by Dana and changes on Mondays"),
    ("When does the on-call rotation change?", "The rotation is managed by Dana and changes on Mondays"),
    ("How often does the on-call handoff happen?", "The handoff is owned by Dana and happens every Monday"),
    ("Who has access to the admin panel?", "Dana owns the admin panel"),
]


@pytest.mark.parametrize(("question", "content"), ANOTHER_ROLE + ANOTHER_ROLE_READ)
def test_another_role_of_the_same_thing_is_read(question, content):
    assert sibling(question, content) is not None


@pytest.mark.parametrize(("question", "content"), SAME_ROLE)
def test_the_role_asked_in_its_words_or_others_is_no_sibling(question, content):
    assert sibling(question, content) is None


@pytest.mark.parametrize(("text", "expected"), [
    ("Dana is the tech lead of search", [("tech", "lead")]),
    ("Who is on call for search?", [(None, "on call")]),
    ("Priya is the engineering manager and on-call", [("engineering", "manager"), (None, "on call")]),
    ("Billing is owned by the payments team", [(None, "owner")]),
    ("New sales leads go to the CRM; Dana leads sales", [(None, "lead")]),
    ("The outage led to a code review; I did it on my own", []),
    ("The on-call rotation is set by the on-call engineer", [(None, "on call")]),
    ("Ana is directly responsible for billing", [(None, "dri")]),
])
def test_roles_are_read_as_nouns_and_verbs(text, expected):
    words = [(w.lower().strip("?.,;:"), w.strip("?.,;:")) for w in text.split()]
    assert [(kind, role) for kind, role, _ in roles(words)] == expected


@pytest.fixture
def store(db, real_embedder):
    s = Store(db, real_embedder)
    for text in ["The design review covered the onboarding flow.", "Quarterly planning produced eleven goals.",
                 "The car's next service is due at 60000 km"]:
        s.remember(tenant="t", scope="p", content=text)
    yield s
    s.close()


def recalled(store: Store, question: str, content: str):  # type: ignore[no-untyped-def]
    stored = store.remember(tenant="t", scope="p", content=content).id
    return stored, store.recall(tenant="t", query=question, scopes=["p"]).hits


@pytest.mark.parametrize(("question", "content"), ANOTHER_ROLE)
def test_another_roles_memory_is_unsure(store: Store, question, content):
    missed, hits = recalled(store, question, content)
    assert all(h.confidence < SURE_CONFIDENCE for h in hits if h.memory.id == missed), hits[:1]


@pytest.mark.parametrize(("question", "content"), SAME_ROLE[:4] + SAME_ROLE[8:14] + SAME_ROLE[-4:-1])
def test_the_role_asked_stays_sure(store: Store, question, content):
    wanted, hits = recalled(store, question, content)
    assert hits[0].memory.id == wanted and hits[0].confidence >= SURE_CONFIDENCE, hits[:1]


@pytest.mark.parametrize(("right", "near", "question"), [
    ("Omar is on call for search this week", "Dana is the tech lead of search", "Who is on call for search?"),
    ("Dana is the tech lead of search", "Omar is on call for search this week", "Who leads search?"),
    ("Lena approves schema migrations", "Schema migrations are reviewed by Raj", "Who approves schema migrations?"),
])
def test_the_role_asked_is_first_and_sure_and_another_role_unsure(store: Store, right, near, question):
    store.remember(tenant="t", scope="p", content=right)
    store.remember(tenant="t", scope="p", content=near)
    hits = store.recall(tenant="t", query=question, scopes=["p"]).hits
    assert hits[0].memory.content == right and hits[0].confidence >= SURE_CONFIDENCE, hits[:2]
    assert all(h.confidence < SURE_CONFIDENCE for h in hits if h.memory.content == near), hits[:2]
