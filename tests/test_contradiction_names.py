"""Names opening a sentence, and change words, in the contradiction test (issue 27, trial faults 1 and
2): a capitalised word opening a sentence, a line or a list item is read as a name on evidence (a verb
of state or ownership after it, a possessive, the other text naming it), so a change of owner
("Alice owns the billing service" → "Bob owns the billing service") is found, while "The", "Our",
"Deploys", "Yesterday" stay words; and a change word ("now", "moved") acts only on a memory that
shares the newer one's subject. Word tests first, then through the store and the tool with the
real model, on each backend."""

from __future__ import annotations

import pytest
from memvault.storage.consolidate import consolidate
from memvault.storage.contradiction import disagreement, values
from memvault.storage.store import Store
from memvault.tools import handlers

OWNER_CHANGES = [
    ("Alice owns the billing service.", "Bob owns the billing service."),
    ("Alice Martin owns the billing service.", "Bob Chen owns the billing service."),
    ("Anne de Vries owns the billing service.", "Bob Chen owns the billing service."),
    ("Jan van der Berg leads the data team.", "Karim Haddad leads the data team."),
    ("Jonas Berg is the release manager.", "Priya Nair is the release manager."),
    ("Lena manages the mobile team.", "Oskar manages the mobile team."),
    ("Rosa heads the platform group.", "Karim heads the platform group."),
    ("- Alice owns the billing service.", "- Bob owns the billing service."),
    ("* Marta maintains the deploy scripts.", "* Oskar maintains the deploy scripts."),
    ("• Marta maintains the deploy scripts.", "• Oskar maintains the deploy scripts."),
    ("1. Ines chairs the architecture review.", "1. Tomas chairs the architecture review."),
    ("Owners\nAlice owns the billing service.", "Owners\nBob owns the billing service."),
    ("Team notes:\n- Alice Martin owns the billing service", "Team notes:\n- Bob Chen owns the billing service"),
    ("Alice owns the billing service.", "Bob now owns the billing service."),
    ("Alice owns the billing service.", "The billing service is owned by Bob."),
    ("Since March, Alice Martin owns the billing service.", "Since March, Bob Chen owns the billing service."),
    ("Sam is the on-call lead this week.", "Dee is the on-call lead this week."),
]


@pytest.mark.parametrize(("older", "newer"), OWNER_CHANGES)
def test_a_name_opening_a_sentence_swapped_in_the_owners_slot_is_a_change(older: str, newer: str) -> None:
    reason = disagreement(older, newer)
    assert reason is not None and reason.startswith("different name"), reason


@pytest.mark.parametrize(("text", "names", "not_names"), [
    ("Alice owns the billing service.", {"alice"}, set()),
    ("Alice Martin owns the billing service.", {"alice", "martin"}, set()),
    ("Anne de Vries owns the billing service.", {"anne de vries"}, {"de", "anne", "vries"}),
    ("- Bob now leads the data team.", {"bob"}, set()),
    ("Notes\nPriya Nair is the release manager.", {"priya", "nair"}, {"notes"}),
    ("Maya's rent is 9,800 kronor a month.", {"maya"}, set()),
    ("The billing service is owned by Bob.", {"bob"}, {"the"}),
    ("Our API is written in Go.", {"api", "go"}, {"our"}),
    ("Deploys happen on Tuesdays.", set(), {"deploys"}),
    ("Yesterday Alice fixed the login bug.", {"alice"}, {"yesterday"}),
    ("Yesterday was the busiest day of the quarter.", set(), {"yesterday"}),
    ("Everything is green on the dashboard.", set(), {"everything"}),
    ("- The staging cluster has 4 nodes.", set(), {"the"}),
    ("Standup notes\nThe staging cluster has 4 nodes.", set(), {"the", "standup"}),
    ("Install Docker before running the tests.", {"docker"}, {"install"}),
    ("Restart Nginx after changing its config.", {"nginx"}, {"restart"}),
    ("Caroline: Hey Mel! I'm keen on counseling - I'd love to help, and I've seen it work.", {"mel"},
     {"caroline", "i'm", "i'd", "i've"}),
])
def test_which_words_opening_a_sentence_are_read_as_names(text: str, names: set[str], not_names: set[str]) -> None:
    found = values(text)
    assert names <= found and not (not_names & found), found


@pytest.mark.parametrize(("older", "newer"), [
    ("Alice owns the billing service.", "Alice owns the payments service."),  # one may own both
    ("Alice drinks tea.", "Bob drinks tea."),
    ("Alice lives in Berlin.", "Bob lives in Berlin."),
    ("Alice manages 5 engineers.", "Bob manages 5 engineers."),
    ("Alice is a backend engineer.", "Bob is a backend engineer."),
    ("Alice owns the billing service.", "Bob owns the payments service."),
    ("Yesterday Alice fixed the login bug.", "Yesterday Bob fixed the payments bug."),
    ("Marta's train leaves at 8:10.", "Oskar's train leaves at 9:05."),
    ("- The staging cluster has 4 nodes.", "- The production cluster has 12 nodes."),
    ("Deploys happen on Tuesdays.", "Our deploys happen on Tuesdays."),
    ("Restart Nginx after changing its config.", "Reload Nginx when the certificates rotate."),
])
def test_another_owners_other_thing_or_a_shared_trait_is_no_change(older: str, newer: str) -> None:
    assert disagreement(older, newer) is None


@pytest.mark.parametrize(("older", "newer"), [
    ("The frontend talks to the gateway over REST.", "The API now talks to the gateway over gRPC."),
    ("The UI polls for new notifications every minute.", "The API now pushes notifications over websockets."),
    ("The admin UI talks to Postgres through the API.", "The API now talks to Postgres through PgBouncer."),
    ("The UI uses React.", "The API now uses gRPC."),
    ("The UI is built with React.", "The API now uses gRPC."),
    ("Our frontend uses React.", "The API now uses gRPC."),
    ("The mobile app stores tokens in keychain.", "The backend now stores sessions in Redis."),
    ("The staging cluster has 4 nodes.", "The production cluster now has 6 nodes."),
    ("Marta runs the standup.", "Oskar now runs the retro."),
    ("The docs site is hosted on Netlify.", "The blog is now hosted on Ghost."),
    ("Alerts go to PagerDuty.", "Logs now go to Loki."),
    ("Our CI runs on GitHub Actions.", "The search index now runs on OpenSearch."),
])
def test_a_change_word_never_acts_on_a_memory_about_another_subject(older: str, newer: str) -> None:
    assert disagreement(older, newer) is None


@pytest.mark.parametrize(("older", "newer"), [
    ("The UI uses React.", "The UI now uses Svelte."),
    ("Our frontend uses React.", "The frontend now uses Svelte."),
    ("Alerts go to PagerDuty.", "Alerts now go to Opsgenie instead."),
    ("The API uses REST.", "The API now uses gRPC."),
    ("The docs site is hosted on Netlify.", "The docs site has moved to Cloudflare Pages."),
    ("We deploy with Jenkins.", "Deploys now go through GitHub Actions."),
    ("Builds run on CircleCI.", "We moved our builds over to Buildkite last month."),
    ("Lena manages the mobile team.", "The mobile team is now managed by Oskar."),
])
def test_a_change_word_still_acts_on_a_memory_of_the_same_subject(older: str, newer: str) -> None:
    assert disagreement(older, newer) is not None


# -- through the store and the tool, real model, each backend ----------------------------------------

AROUND = [
    "The design review covered the onboarding flow and the colour of the primary buttons.",
    "The staging database is refreshed from a production snapshot every Sunday.",
    "Invoices are generated on the first working day of each month.",
]


def remember(store: Store, content: str, observed_at: str):  # type: ignore[no-untyped-def]
    return store.remember(tenant="t", scope="proj", content=content, kind="fact", observed_at=observed_at)


@pytest.mark.contract
@pytest.mark.parametrize(("old", "new", "query"), [
    ("Alice Martin owns the billing service.", "Bob Chen owns the billing service.", "Who owns the billing service?"),
    ("Owners:\nAnne de Vries owns the billing service.", "Owners:\nBob Chen now owns the billing service.",
     "Who owns the billing service?"),
    ("Marta maintains the deploy scripts.", "Oskar maintains the deploy scripts.", "Who maintains the deploy scripts?"),
    ("Sam is the on-call lead this week.", "Dee is the on-call lead this week.", "Who is the on-call lead this week?"),
])
def test_a_change_of_owner_named_first_is_returned_outdated_in_recall_and_kept_for_review(
        real_store, old: str, new: str, query: str) -> None:
    older = remember(real_store, old, "2025-01-06T09:00:00Z").id
    for content in AROUND:
        remember(real_store, content, "2025-01-07T09:00:00Z")
    result = handlers.remember(real_store, handlers.Caller(tenant="t", scope="proj"), content=new, kind="fact",
                               observed_at="2025-03-03T09:00:00Z")
    assert [(c.id, c.newer) for c in result.contradicts] == [(older, False)]
    assert result.contradicts[0].reason.startswith("different name")
    hits = real_store.recall(tenant="t", query=query, scopes=["proj"]).hits
    assert [h.memory.id for h in hits][:2] == [result.id, older]
    assert hits[1].outdated_by == result.id and hits[0].outdated_by is None
    consolidate(real_store)
    assert [(o, n) for o, n, _ in real_store.review("t", ["proj"]).contradictions] == [(older, result.id)]


@pytest.mark.contract
@pytest.mark.parametrize(("old", "new", "queries"), [
    ("The frontend talks to the gateway over REST.", "The API now talks to the gateway over gRPC.",
     ("How does the frontend talk to the gateway?", "What talks to the gateway now?")),
    ("The UI polls for new notifications every minute.", "The API now pushes notifications over websockets.",
     ("How often does the UI poll for notifications?", "How are notifications delivered now?")),
    ("The admin UI talks to Postgres through the API.", "The API now talks to Postgres through PgBouncer.",
     ("How does the admin UI reach Postgres?", "How does the API talk to Postgres now?")),
])
def test_a_change_word_leaves_a_memory_about_another_subject_current(
        real_store, old: str, new: str, queries: tuple[str, ...]) -> None:
    older = remember(real_store, old, "2025-01-06T09:00:00Z").id
    for content in AROUND:
        remember(real_store, content, "2025-01-07T09:00:00Z")
    result = handlers.remember(real_store, handlers.Caller(tenant="t", scope="proj"), content=new, kind="fact",
                               observed_at="2025-03-03T09:00:00Z")
    assert result.contradicts == []
    for query in queries:
        hits = {h.memory.id: h.outdated_by for h in real_store.recall(tenant="t", query=query, scopes=["proj"]).hits}
        assert older in hits and hits[older] is None, query
    consolidate(real_store)
    assert real_store.review("t", ["proj"]).contradictions == []
