"""A memory denying or ending one value ("We no longer ship a 32-bit build") and a newer one stating a sibling of it
("The 64-bit build is shipped nightly") agree: the older already says the first is gone, so the newer changes no
slot of it and outdates nothing (issue 27 §2, new-user trial T4). A value stated plainly and then denied or ended,
or replaced in a slot both deny alike ("Don't deploy after 16:00" / "... 15:00"), is still a change."""

from __future__ import annotations

import pytest
from stores import assert_apart, assert_outdates

from memvault.storage.contradiction import disagreement
from memvault.storage.store import Store

AGREEING = [
    ("We no longer ship a 32-bit build", "The 64-bit build is shipped nightly"),
    ("We stopped shipping 32-bit builds", "The 64-bit build ships every night"),
    ("We dropped the 32-bit build", "The 64-bit build is published nightly"),
    ("We don't ship a 32-bit build", "We ship a 64-bit build"),
    ("We never ship 32-bit builds", "64-bit builds go out every Friday"),
    ("We no longer build for x86", "We build for arm64 on Graviton"),
    ("We stopped building x86 images", "arm64 images are built on every merge"),
    ("We don't publish x86 images anymore", "arm64 images are published to GHCR"),
    ("The v1 API is no longer supported", "The v2 API is rate limited to 100 requests per second"),
    ("We retired the v1 API", "The v2 API is documented in the wiki"),
    ("We no longer support Python 3.8", "Python 3.12 is supported"),
    ("We dropped support for Node 16", "Node 20 is supported in CI"),
    ("We do not deploy to us-east-1", "We deploy to eu-west-1"),
    ("We no longer use port 8080", "The admin UI listens on port 9090"),
    ("We stopped running tests on Windows", "Tests run on Linux"),
    ("We don't support IE11", "We support Firefox ESR"),
    ("Release 2.3 is no longer maintained", "Release 2.4 gets security fixes"),
    ("We no longer sell the Basic plan", "The Pro plan costs $20"),
    ("We never deploy on Friday", "We deploy on Tuesday"),
    ("We stopped publishing the 1.x docs", "The 2.x docs are published nightly"),
    ("Nobody uses the v1 endpoint anymore", "The v2 endpoint handles all traffic"),
    ("We don't run MySQL 5.7 anymore", "MySQL 8.0 runs on db-2"),
    ("We no longer ship an i386 package", "The amd64 package is shipped nightly"),
    ("We no longer host on server-01", "server-02 hosts the wiki"),
    ("We ceased publishing the beta channel in March", "The stable channel is published in April"),
    ("We ship 32-bit builds", "We don't ship 64-bit builds"),
    ("We support both x86 and arm64", "The arm64 build is shipped nightly"),
    ("We ship both 32-bit and 64-bit builds", "The 64-bit build is shipped nightly"),
    ("The v1 API and the v2 API are both supported", "The v2 API is rate limited"),
]
CHANGES = [
    ("We ship a 32-bit build", "We now ship only the 64-bit build"),
    ("We ship 32-bit builds", "We no longer ship 32-bit"),
    ("We build for x86", "We switched to arm64 builds"),
    ("The API is v1", "The API is now v2"),
    ("We deploy to us-east-1", "We now deploy to eu-west-1"),
    ("The admin UI listens on port 8080", "The admin UI listens on port 9090"),
    ("We don't ship 32-bit builds", "We ship 32-bit builds again"),
    ("We deploy on Tuesday", "We never deploy on Tuesday"),
    ("CI uses Node 18", "CI uses Node 20"),
    ("Don't deploy after 16:00", "Don't deploy after 15:00"),
    ("We ditched Jenkins for CircleCI", "We ditched CircleCI for Buildkite"),
    ("We no longer deploy to us-east-1; we deploy to eu-west-1", "We deploy to us-west-2"),
]


@pytest.mark.parametrize(("old", "new"), AGREEING)
def test_a_sibling_of_a_value_the_older_denies_or_ends_changes_nothing(old, new):
    assert disagreement(old, new) is None


@pytest.mark.parametrize(("old", "new"), AGREEING)
def test_a_denial_or_end_of_a_sibling_of_the_older_value_changes_nothing(old, new):
    assert disagreement(new, old) is None


@pytest.mark.parametrize(("old", "new"), CHANGES)
def test_a_value_stated_then_denied_ended_or_replaced_alike_is_still_a_change(old, new):
    assert disagreement(old, new) is not None


@pytest.mark.parametrize(("old", "new"), AGREEING)
def test_remember_and_recall_leave_the_denied_memory_current(real_store: Store, old, new):
    assert_apart(real_store, old, new, old)


@pytest.mark.parametrize(("old", "new", "question"), [
    ("We ship a 32-bit build", "We now ship only the 64-bit build", "which builds do we ship?"),
    ("We ship 32-bit builds", "We no longer ship 32-bit", "do we ship 32-bit builds?"),
    ("We build for x86", "We switched to arm64 builds", "which architecture do we build for?"),
    ("The API is v1", "The API is now v2", "which API version?"),
    ("We deploy to us-east-1", "We now deploy to eu-west-1", "where do we deploy?"),
    ("The admin UI listens on port 8080", "The admin UI listens on port 9090", "which port does the admin UI use?"),
    ("CI uses Node 18", "CI uses Node 20", "which Node version does CI use?"),
])
def test_remember_and_recall_still_outdate_a_true_change(real_store: Store, old, new, question):
    assert_outdates(real_store, old, new, question, newer_first=False)
