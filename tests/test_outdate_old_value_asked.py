"""A question naming the value a change left ("is the standup at 9:15?", or the older memory's own words) finds
the newer first and the older marked as possibly outdated by it, as any question about that subject does: the
value asked is the one whose change the agent must hear of (``ranking._asked_of_both``)."""

from __future__ import annotations

import pytest
from stores import pair_recalled

from memvault.storage.store import Store

CHANGED = [  # (older, newer, a question naming the older's value)
    ("The daily standup is at 9:15.", "Standup moved to 10:30.", "is the standup at 9:15?"),
    ("The staging database host is db-stg-03.", "The staging database host moved to db-stg-07.",
     "is the staging database host db-stg-03?"),
    ("Production runs PostgreSQL 15.4.", "Production was upgraded to PostgreSQL 16.2.",
     "does production run PostgreSQL 15.4?"),
    ("The API rate limit is 100 requests per minute.", "The API rate limit is now 500 requests per minute.",
     "is the API rate limit 100 requests per minute?"),
    ("The build cache lives in /var/cache/build.", "The build cache moved to /mnt/fast/build-cache.",
     "is the build cache in /var/cache/build?"),
    ("Le serveur de sauvegarde est à Dublin.", "Le serveur de sauvegarde a déménagé à Francfort.",
     "le serveur de sauvegarde est-il à Dublin ?"),
]


@pytest.mark.parametrize(("old", "new", "question"), CHANGED)
def test_a_question_naming_the_older_value_finds_the_newer_first_and_the_older_marked(real_store: Store, old, new,
                                                                                      question):
    older, newer, hits = pair_recalled(real_store, old, new, question)
    assert [i for i, _ in newer.contradicts] == [older]
    assert next(iter(hits)) == newer.id and hits[older] == newer.id


@pytest.mark.parametrize(("old", "new", "_"), CHANGED)
def test_the_older_memorys_own_words_as_the_question_find_the_newer_first(real_store: Store, old, new, _):
    older, newer, hits = pair_recalled(real_store, old, new, old)
    assert next(iter(hits)) == newer.id and hits[older] == newer.id
