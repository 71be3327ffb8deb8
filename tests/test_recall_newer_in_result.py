"""A recall hit marked ``possibly_outdated_by`` a newer memory has that memory in the same result, ranked
above it, unless the recall's filters exclude it (then the mark stays and the newer is not fetched); a
newer returned only for the hit says so (``signals.newer_of``) and is no surer than that hit; the limit
holds (verify61 N1)."""

from __future__ import annotations

import dataclasses

import pytest

from memvault.storage.consolidate import consolidate
from memvault.storage.newer_hits import window
from memvault.storage.ranking import Scored
from memvault.storage.records import Memory
from memvault.storage.store import Store
from memvault.tools import handlers, text

pytestmark = pytest.mark.contract
MAY, OCTOBER = "2025-05-01T10:00:00Z", "2025-10-01T10:00:00Z"
UNTIL = "2025-07-01T00:00:00Z"

PAIRS = [  # (older, newer, question): the four of the trial, then value changes
    ("Our CI runs on Jenkins", "Jenkins was swapped out for Drone", "where does our CI run?"),
    ("The on-call tool is PagerDuty", "We dropped PagerDuty for Opsgenie", "what is the on-call tool?"),
    ("We use Poetry for packaging", "Poetry is deprecated in favour of uv", "what do we use for packaging?"),
    ("Our CI runs on Jenkins", "We migrated from Jenkins to TeamCity", "which CI do we use now?"),
    ("The payments API listens on port 8080", "The payments API now listens on port 9090",
     "which port does the payments API listen on?"),
    ("The staging database host is db-stg-03", "The staging database host moved to db-stg-07",
     "what is the staging database host?"),
    ("The team standup is at 9:15 every weekday", "The team standup moved to 10:30 every weekday",
     "when is the team standup?"),
    ("Ana is the release manager", "Bruno took over as release manager from Ana", "who is the release manager?"),
]
FILLER = ["The CI runners have 4 cores each", "Our packages are published to PyPI",
          "The payments API is written in Go", "Backups run nightly at 02:00 UTC",
          "The team uses Slack for chat", "Incidents are written up within two days"]


@pytest.fixture
def real_store(db: str, real_embedder, clock):  # type: ignore[no-untyped-def]
    s = Store(db, real_embedder, clock=clock)
    yield s
    s.close()


def pair(store: Store, older: str, newer: str, tags: tuple[list[str], list[str]] = ([], []),
         kinds: tuple[str, str] = ("fact", "fact")) -> tuple[str, str]:
    return tuple(store.remember(tenant="a", scope="proj", kind=kind, content=c, observed_at=at, tags=tag).id  # type: ignore[return-value]
                 for c, at, tag, kind in ((older, MAY, tags[0], kinds[0]), (newer, OCTOBER, tags[1], kinds[1])))


def recall(store: Store, question: str, **filters: object) -> list[handlers.MemoryOut]:
    return handlers.recall(store, handlers.Caller(tenant="a", scope="proj"), query=question,
                           **filters).memories  # type: ignore[arg-type]


def assert_newer_above_each_marked(hits: list[handlers.MemoryOut], limit: int | None = None) -> None:
    """Each marked hit has its newer above it; each newer returned for a hit has that hit just below it,
    unless the newer ends a result cut at ``limit`` (the pair split by the limit: only the newer stays)."""
    at = {m.id: i for i, m in enumerate(hits)}
    for i, m in enumerate(hits):
        if m.possibly_outdated_by is not None:
            assert at.get(m.possibly_outdated_by, len(hits)) < i, (m.content, [h.content for h in hits])
        if m.signals.newer_of is not None and not i + 1 == len(hits) == limit:
            assert hits[i + 1].id == m.signals.newer_of
            assert hits[i + 1].possibly_outdated_by == m.id
            assert m.confidence >= hits[i + 1].confidence - 1e-9  # it answers what its hit did (T5)


@pytest.mark.parametrize(("older", "newer", "question"), PAIRS)
def test_the_newer_of_a_marked_hit_is_in_the_result_above_it(real_store, older, newer, question):
    old, new = pair(real_store, older, newer)
    hits = recall(real_store, question)
    ids = [m.id for m in hits]
    assert old in ids and new in ids and ids.index(new) < ids.index(old)
    assert {m.id: m.possibly_outdated_by for m in hits}[old] == new
    assert_newer_above_each_marked(hits)


@pytest.mark.parametrize(("older", "newer", "question"), PAIRS)
def test_the_limit_holds_and_no_marked_hit_lacks_its_newer(real_store, older, newer, question):
    pair(real_store, older, newer)
    for content in FILLER:
        real_store.remember(tenant="a", scope="proj", kind="fact", content=content, observed_at=MAY)
    whole = recall(real_store, question)
    for limit in range(1, len(whole) + 2):
        hits = recall(real_store, question, limit=limit)
        assert len(hits) == min(limit, len(whole))
        assert_newer_above_each_marked(hits, limit)


@pytest.mark.parametrize("excluded", ["until", "tags", "kinds"])
@pytest.mark.parametrize(("older", "newer", "question"), PAIRS[:4])
def test_filters_excluding_the_newer_leave_the_mark_and_fetch_nothing(real_store, older, newer, question,
                                                                      excluded):
    old, new = pair(real_store, older, newer, tags=(["ci"], []),
                    kinds=("fact", "decision" if excluded == "kinds" else "fact"))
    consolidate(real_store)  # keeps the pair for review: the newer is no candidate, only its pair names it
    filters = {"until": {"until": UNTIL}, "tags": {"tags": ["ci"]}, "kinds": {"kinds": ["fact"]}}[excluded]
    hits = recall(real_store, question, **filters)
    assert [m.id for m in hits] == [old]
    assert hits[0].possibly_outdated_by == new
    assert hits[0].signals.newer_of is None


STAYS = [  # the newer answers on its own: it is a hit of its own, nothing is fetched for the older
    ("Our CI runs on Jenkins", "We migrated from Jenkins to TeamCity", "where does our CI run?"),
    ("Our CI runs on Jenkins", "We no longer use Jenkins", "where does our CI run?"),
    ("The payments API listens on port 8080", "The payments API now listens on port 9090",
     "which port does the payments API listen on?"),
]


@pytest.mark.parametrize(("older", "newer", "question"), STAYS)
def test_a_newer_already_first_is_left_as_it_ranks(real_store, older, newer, question):
    old, new = pair(real_store, older, newer)
    hits = recall(real_store, question)
    assert [m.id for m in hits][:2] == [new, old]
    assert hits[0].signals.newer_of is None and hits[0].confidence >= hits[1].confidence


def _scored(n: int, marks: dict[int, int] | None = None) -> list[Scored]:
    marks = marks or {}
    memory = Memory(id="", tenant="a", scope="p", kind="fact", content="x", tags=(), importance=5, source=None,
                    observed_at=0, recorded_at=0, expires_at=None, supersedes=None, superseded_by=None,
                    supersede_reason=None, forgotten_at=None, forget_reason=None, confirmations=0,
                    last_confirmed_at=None, vector_pending=False, tokens=None)
    return [Scored(i, dataclasses.replace(memory, id=f"m{i}"), 1.0 - i / 10, 0.9 - i / 20, None, None, i + 1,
                   0.5, 0.5, outdated_by=f"m{marks[i]}" if i in marks else None) for i in range(n)]


@pytest.mark.parametrize("size", [1, 2, 3, 5, 8, 20])
def test_a_window_with_no_marks_is_the_first_hits_unchanged(size):
    hits = _scored(8)
    assert window(hits, size) == hits[:size]


@pytest.mark.parametrize("size", [1, 2, 3, 4, 6])
def test_a_newer_below_the_window_comes_in_above_its_hit_and_the_lowest_other_leaves(size):
    hits = _scored(6, {1: 5})  # m1 outdated by m5, the last
    ids = [h.memory.id for h in window(hits, size)]
    assert len(ids) == min(size, 6)
    if size == 1:
        assert ids == ["m0"]
    else:
        assert ids.index("m5") == ids.index("m1") - 1
        assert ids == [i for i in ["m0", "m5", "m1", "m2", "m3", "m4"] if i in ids]


def test_the_text_says_which_hit_a_returned_newer_is_for(real_store):
    old, new = pair(real_store, *PAIRS[0][:2])
    result = handlers.recall(real_store, handlers.Caller(tenant="a", scope="proj"), query=PAIRS[0][2])
    first, second = text.render(result).splitlines()[1:3]
    assert [m.id for m in result.memories] == [new, old]
    assert "returned for " in first and result.memories[1].short_id in first
    assert "possibly outdated by the newer " in second


UNRELATED = ["Maria prefers short PR descriptions", "Releases ship after the 10:00 standup",
             "The wiki lives in Confluence", "We use Sentry for error tracking", "The mobile app is called Pathfinder",
             "The API runs in us-east-1", "The on-call rotation changes every Monday",
             "The log retention period is 30 days"]
FIRST = PAIRS + [("Our CI runs on Jenkins", "We retired Jenkins", "where does our CI run?"),
                 ("The on-call tool is PagerDuty", "We dropped PagerDuty for Opsgenie", "who do we page with?")]


@pytest.mark.parametrize("kept", [False, True], ids=["found", "kept"])
@pytest.mark.parametrize(("older", "newer", "question"), FIRST)
def test_a_change_among_unrelated_memories_answers_first(real_store, older, newer, question, kept):
    """The newer of a pair takes the older's place, first, where the older would answer (verify62 N2: "what
    is the on-call tool?" gave "The mobile app is called Pathfinder" first and sure at 0.33, "where does our CI
    run?" gave "The CI runners have 4 cores each" at 0.84, the pair below), and the memories below are less
    sure than both; found among the candidates, or through the pair kept for review."""
    old, new = pair(real_store, older, newer)
    for content in FILLER + UNRELATED:
        real_store.remember(tenant="a", scope="proj", kind="fact", content=content, observed_at=MAY)
    if kept:
        consolidate(real_store)
    hits = recall(real_store, question, limit=5)
    assert [m.id for m in hits][:2] == [new, old], [(m.content, m.confidence) for m in hits]
    # and no unrelated memory is as sure as the pair (verify63 N1: 0.014 alone, 0.45 beside the pair)
    assert all(m.confidence < min(hits[0].confidence, hits[1].confidence) for m in hits[2:]), \
        [(m.content, m.confidence) for m in hits]


OVERRIDES = [  # (global, the scope's, question): no pair kept (no consolidation, no notes): the scope's first, both
    # unmarked (docs/how-recall-works.md); with the pair kept: tests/test_global_changes.py
    ("Our CI runs on Jenkins", "We retired Jenkins", "where does our CI run?"),
    ("The company VPN uses OpenVPN", "The company VPN moved to WireGuard", "which VPN do we use?"),
    ("The on-call tool is PagerDuty", "We dropped PagerDuty for Opsgenie", "what is the on-call tool?"),
    ("Code reviews need two approvals", "Code reviews need one approval", "how many approvals do code reviews need?"),
]


@pytest.mark.parametrize(("shared", "own", "question"), OVERRIDES)
def test_a_scopes_change_of_a_global_memory_comes_first_in_that_scope(real_store, shared, own, question):
    """A scope's memory contradicting a ``global`` one overrides it for that scope: first, both current and
    unmarked, however little of the question the scope's holds (trial verify63 N4: "We retired Jenkins" in a
    project came at 0.00 below the global "Our CI runs on Jenkins", sure); the other scope still reads the global."""
    g = real_store.remember(tenant="a", scope="global", kind="fact", content=shared, observed_at=MAY).id
    o = real_store.remember(tenant="a", scope="proj", kind="fact", content=own, observed_at=OCTOBER).id
    for content in FILLER + UNRELATED:
        real_store.remember(tenant="a", scope="proj", kind="fact", content=content, observed_at=MAY)
    hits = recall(real_store, question, limit=5)
    assert [m.id for m in hits][:2] == [o, g], [(m.content, m.confidence) for m in hits]
    assert hits[0].possibly_outdated_by is None and hits[1].possibly_outdated_by is None
    elsewhere = handlers.recall(real_store, handlers.Caller(tenant="a", scope="other"), query=question).memories
    assert [m.id for m in elsewhere][:1] == [g]


CHAINS = [  # (versions, oldest first; question): each step contradicts the one before it
    (["The feature flag service is LaunchDarkly", "We replaced LaunchDarkly with Unleash",
      "We replaced Unleash with Flagsmith", "We replaced Flagsmith with GrowthBook"], "which feature flag service do we use?"),
    (["Secrets are kept in Vault", "We moved secrets from Vault to AWS Secrets Manager",
      "We moved secrets from AWS Secrets Manager to Doppler"], "which secrets manager do we use?"),
    (["The on-call tool is PagerDuty", "We dropped PagerDuty for Opsgenie", "We dropped Opsgenie for incident.io",
      "We dropped incident.io for Rootly"], "what is the on-call tool?"),
]


@pytest.mark.parametrize("kept", [False, True], ids=["remembered", "consolidated"])
@pytest.mark.parametrize("asked", range(len(CHAINS)))
def test_a_chain_among_other_pairs_and_memories_answers_its_newest_each_step_marked(real_store, clock, asked, kept):
    """Trial verify64 N1: with other pairs and memories in the scope, the question's candidates hold the chain's
    first steps only; recall answered a middle step, first and unmarked. The chain is followed through the pairs
    kept for review (``consolidate.kept_newer``): the newest first, each older step shown marked by a later one."""
    real_store.upkeep.schedule_consolidation(24, 500)  # as a server's store: remember keeps the pairs it finds
    ids: list[list[str]] = []
    months = iter(f"2025-{m:02d}-01T10:00:00Z" for m in range(1, 13))
    for versions, _ in CHAINS:
        ids.append([])
        for text in versions:
            clock.advance(60)  # stored a minute apart: an older stored with its newer would count as upheld
            ids[-1].append(real_store.remember(tenant="a", scope="proj", kind="fact", content=text,
                                               observed_at=next(months)).id)
    for content in FILLER + UNRELATED:
        real_store.remember(tenant="a", scope="proj", kind="fact", content=content, observed_at=MAY)
    if kept:
        consolidate(real_store)
    chain = ids[asked]
    for limit in (2, 10):
        hits = recall(real_store, CHAINS[asked][1], limit=limit)
        assert hits[0].id == chain[-1] and hits[0].possibly_outdated_by is None, [(m.content, m.confidence) for m in hits]
        later = {older: chain[i + 1:] for i, older in enumerate(chain[:-1])}
        assert all(m.possibly_outdated_by in later[m.id] for m in hits if m.id in later), \
            [(m.content, m.possibly_outdated_by) for m in hits]
        assert_newer_above_each_marked(hits, limit)
