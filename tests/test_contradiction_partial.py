"""A newer memory about one part of an older one (trial 51 #7): "The API runs in us-east-1" after "The
web app and the API both run in eu-west-1" outdates the older for the API, not for the web app."""

from __future__ import annotations

import pytest

from memvault.storage.contradiction import asks_the_part_left
from memvault.storage.ranking import SURE_CONFIDENCE
from memvault.storage.store import Store

PARTS = [  # (older, newer, a question about the part the newer leaves, one about the part it changes)
    ("The web app and the API both run in eu-west-1", "The API runs in us-east-1",
     "where does the web app run?", "where does the API run?"),
    ("The production API runs in eu-west-1; the staging API runs in us-east-2", "The staging API runs in us-west-2",
     "what region does the production API run in?", "what region does the staging API run in?"),
    ("Anna and Tomasz review the billing code", "Tomasz no longer reviews the billing code, Kim does",
     "does Anna review the billing code?", "does Tomasz review the billing code?"),
    ("Grafana runs on port 3000, Prometheus on port 9090", "Prometheus moved to port 9091",
     "which port does Grafana use?", "which port does Prometheus use?"),
]


@pytest.mark.parametrize(("older", "newer", "left", "changed"), PARTS)
def test_a_question_about_the_part_the_newer_leaves_is_read(older, newer, left, changed):
    assert asks_the_part_left(left, older, newer)
    assert not asks_the_part_left(changed, older, newer)


@pytest.mark.parametrize(("older", "newer", "question"), [
    ("The daily standup meeting is at 9:15, and we run it in room B", "We now run the standup at 10:30",
     "when is the daily standup meeting?"),
    ("The daily standup meeting is at 9:15", "Standup is now at 10:30", "when is the daily standup meeting?"),
])
def test_a_change_of_the_whole_is_no_part_left(older, newer, question):
    assert not asks_the_part_left(question, older, newer)


def test_the_part_left_stays_first_sure_and_current(db, real_embedder):
    s = Store(db, real_embedder)
    older = s.remember(tenant="t", scope="p", content=PARTS[0][0]).id
    newer = s.remember(tenant="t", scope="p", content=PARTS[0][1]).id
    left = s.recall(tenant="t", query=PARTS[0][2], scopes=["p"]).hits
    changed = s.recall(tenant="t", query=PARTS[0][3], scopes=["p"]).hits
    s.close()
    assert left[0].memory.id == older and left[0].confidence >= SURE_CONFIDENCE and left[0].outdated_by is None
    assert changed[0].memory.id == newer
    assert [h.outdated_by for h in changed if h.memory.id == older] == [newer]


@pytest.mark.parametrize(("common", "own", "question"), [
    ("Code reviews need two approvals", "Code reviews need one approval", "How many approvals does a code review need?"),
    ("Deploys happen at 14:00", "Deploys happen at 16:00", "when do deploys happen?"),
])
def test_a_scopes_memory_overrides_a_global_one_on_every_surface(db, real_embedder, common, own, question):
    """Named by remember and kept for review in that scope (``change_pairs``): the global marked there only."""
    s = Store(db, real_embedder)
    s.upkeep.schedule_consolidation(0, 1_000_000)  # pairs kept at once, as a server keeps them
    shared = s.remember(tenant="t", scope="global", content=common).id
    stored = s.remember(tenant="t", scope="p", content=own)
    hits = s.recall(tenant="t", query=question, scopes=["p", "global"]).hits
    elsewhere = s.recall(tenant="t", query=question, scopes=["q", "global"]).hits
    s.close()
    assert [i for i, _ in stored.contradicts] == [shared]
    assert hits[0].memory.content == own
    assert {h.memory.id: h.outdated_by for h in hits} == {stored.id: None, shared: stored.id}
    assert [(h.memory.id, h.outdated_by) for h in elsewhere] == [(shared, None)]
