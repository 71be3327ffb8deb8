"""A memory stored again in other words is no rival of the one it restates (trial 50: the team
lunch found at 0.96 dropped to 0.20 once reworded, and three agreeing copies were all "unsure"),
while a sibling (another quarter, city, tier) still is.
Real model, both backends."""

from __future__ import annotations

import pytest
from stores import store_of

from memvault.storage.candidates import Candidates
from memvault.storage.ranking import SURE_CONFIDENCE, _restating
from memvault.storage.records import Memory
from memvault.storage.store import Store

FILLER = [
    "The design review covered the onboarding flow and the colour of the primary buttons.",
    "Kenji prefers Slack over email for urgent issues.",
    "The checkout service runs on port 8080.",
    "Quarterly planning produced eleven goals, three of them about developer experience.",
]


store = store_of(FILLER)


def confidences(store: Store, query: str) -> dict[str, float]:
    return {h.memory.content: h.confidence for h in store.recall(tenant="t", query=query, scopes=["p"]).hits}


@pytest.mark.parametrize(("copies", "query"), [
    (["The team lunch is at the café on Rue Saint-Honoré", "Team lunch happens at the café on Rue Saint-Honoré",
      "The team lunch is at the café on Rue Saint-Honoré (Fridays)"], "where is the team lunch?"),
    (["The staging database is db-stg-03.internal", "The staging database host is db-stg-03.internal",
      "Our staging database runs on db-stg-03.internal"], "which host is the staging database?"),
    (["Never deploy on Fridays.", "Do not deploy on Fridays."], "can we deploy on Friday?"),
])
def test_copies_in_other_words_are_each_as_sure_as_the_first_alone(store, copies, query):
    store.remember(tenant="t", scope="p", content=copies[0])
    alone = confidences(store, query)[copies[0]]
    assert alone >= SURE_CONFIDENCE
    for copy in copies[1:]:
        store.remember(tenant="t", scope="p", content=copy)
    hits = store.recall(tenant="t", query=query, scopes=["p"]).hits
    shown = [h.confidence for h in hits if h.memory.content in copies]
    assert len(shown) == len(copies) and min(shown) >= SURE_CONFIDENCE, shown
    assert shown == sorted(shown, reverse=True)  # best first, as the list says


@pytest.mark.parametrize(("answers", "other", "query"), [
    (["The payments service is written in Java", "The search service is written in Java",
      "The catalog service is written in Java"], "The frontend is written in TypeScript", "which services are written in Java?"),
    (["Ana prefers Vim", "Bruno prefers Vim", "Chen prefers Vim"], "Dana prefers Emacs", "who prefers Vim?"),
    (["The iOS app ships every two weeks", "The Android app ships every two weeks"], "The web app ships daily",
     "which apps ship every two weeks?"),
    (["My brother lives in Porto", "My sister lives in Porto"], "My cousin lives in Oslo", "who lives in Porto?"),
    # sharing fewer of their words than a restatement: the question's and the slot's (trial 55 #8)
    (["Lena prefers short standups", "Lena prefers Vim keybindings", "Lena prefers Python for scripts"],
     "Marco prefers tabs", "What does Lena prefer?"),
    (["We decided to use Postgres 16 for the orders database", "We decided to back up the orders database every hour",
      "We decided to shard the orders database by customer id"], "We decided to use Redis for the session cache",
     "What did we decide about the orders database?"),
    (["The billing service alerts page the payments on-call", "The billing service alerts post to #billing-alerts"],
     "The search service alerts post to #search", "where do billing service alerts go?"),
])
def test_equal_answers_to_a_question_leaving_their_slot_open_are_all_sure(store, answers, other, query):
    """Trial 54 #4: "who prefers Vim?" gave Ana 0.55, Bruno and Chen 0.22; trial 55 #8: "What does Lena
    prefer?" 0.54, 0.24, 0.14."""
    for text in [*answers, other]:
        store.remember(tenant="t", scope="p", content=text)
    shown = confidences(store, query)
    assert min(shown[a] for a in answers) >= SURE_CONFIDENCE > shown.get(other, 0.0), shown


@pytest.mark.parametrize(("answers", "query"), [
    (["To deploy the web app: run make build", "To deploy the worker: run make worker"], "how do we deploy?"),
    (["Lena prefers short standups", "Lena prefers Vim keybindings"], "What does Lena prefer?"),
])
def test_equal_answers_are_about_as_sure_as_each_other(store, answers, query):
    """Trial 55 #8: "How do we deploy things?" gave the web app 0.41 and the worker 0.13 (the hook passes
    on only sure hits, so one of two equal answers reached the agent)."""
    for text in answers:
        store.remember(tenant="t", scope="p", content=text)
    shown = confidences(store, query)
    assert max(shown[a] for a in answers) - min(shown[a] for a in answers) <= 0.1, shown


@pytest.mark.parametrize(("asked", "sibling", "query"), [
    ("The Q1 security audit deadline is 2027-03-15.", "The Q2 security audit deadline is 2027-06-30.",
     "when is the Q1 security audit deadline?"),
    ("The Berlin office wifi network is called MV-Guest.", "The Paris office wifi network is called PARIS-5G.",
     "what is the Berlin office wifi?"),
    ("Our SLA for priority-1 incidents is a 15 minute response.",
     "Our SLA for priority-2 incidents is a 4 hour response.", "what is our SLA for priority-1 incidents?"),
    ("Ana prefers Vim", "Bruno prefers Vim", "does Ana prefer Vim?"),
    ("The catalog service is written in Java", "The search service is written in Java",
     "what is the catalog service written in?"),
])
def test_a_sibling_or_a_disagreeing_memory_stays_a_rival(store, asked, sibling, query):
    store.remember(tenant="t", scope="p", content=asked)
    alone = confidences(store, query)
    store.remember(tenant="t", scope="p", content=sibling)
    both = confidences(store, query)
    assert both[sibling] < SURE_CONFIDENCE <= alone[asked], both


def _memory(content: str) -> Memory:
    return Memory(id=content, tenant="t", scope="p", kind="fact", content=content, tags=(), importance=5, source=None,
                  observed_at=0, recorded_at=0, expires_at=None, supersedes=None, superseded_by=None,
                  supersede_reason=None, forgotten_at=None, forget_reason=None, confirmations=0,
                  last_confirmed_at=None, vector_pending=False, tokens=None)


@pytest.mark.parametrize(("best", "other", "cosine", "expected"), [
    ("Alice prefers dark mode", "Alice prefers dark mode in every editor", 0.83, True),  # no values: words
    ("Alice prefers dark mode", "Alice prefers light mode", 0.9, False),  # disagree
    ("Our SLA for priority-1 incidents is a 15 minute response",
     "Our SLA for priority-2 incidents is a 15 minute response", 0.98, False),  # another value
    ("The staging database is db-stg-03.internal", "The staging database host is db-stg-03.internal", 0.9, True),
    ("The staging database is db-stg-03.internal", "The staging database host is db-stg-03.internal", 0.79, False),
    ("The staging database is db-stg-03.internal", "Staging DB host: db-stg-03.internal", 0.86, True),  # half the words
    ("Caroline said the support group was powerful.", "Melanie painted a sunset after the group.", 0.85, False),
    ("The standup is at 9:15", "The standup is no longer at 9:15", 0.95, False),  # negation
])
def test_what_restates_what(best, other, cosine, expected):
    """Through recall's rule (``ranking._restating``): the two hits, at ``cosine`` to each other."""
    found = Candidates(keyword=[], vector=[], rows={1: _memory(best), 2: _memory(other)}, similarity={}, coverage={},
                       when=None, degraded=None, unknown_names=[])
    restated = _restating([1, 2], found, lambda first, rest: dict.fromkeys(rest, cosine))
    assert restated == ({1, 2} if expected else set())
