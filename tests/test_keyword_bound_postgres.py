"""The PostgreSQL keyword search's bound (storage/postgres/backend.py ``_keyword``), as
SQLite's (tests/test_keyword_bound.py): when a question's words match many memories, BM25
ranks those matching its rarest words and, of those matching only its common words, the
ones among the tenant's newest memories; a filter still gets a full top-k. The words'
counts come from ``keyword_terms``, kept exact by triggers as memories change."""

from __future__ import annotations

import searching

import json

import psycopg
import pytest

from fakes import FakeEmbedder
from memvault.storage import transfer
from memvault.storage.postgres import backend as pg_backend
from memvault.storage.store import Store
from test_keyword_bound import (  # noqa: F401 (the tests run here again, with this module's PostgreSQL store)
    keyword,
    test_a_filter_passing_only_older_matches_still_gets_a_full_top_k,
    test_every_memory_with_a_rare_word_is_ranked_whatever_its_age,
)

OLD, NEW = 30, 30  # memories matching only the common word: short (best BM25) first, then long


@pytest.fixture
def store(pg_url, monkeypatch):
    monkeypatch.setattr(pg_backend, "KEYWORD_RANKED", 8)
    monkeypatch.setattr(pg_backend, "KEYWORD_NEWEST", NEW)  # the tenant's newest: the "new" ones
    s = Store(pg_url, FakeEmbedder())  # type: ignore[arg-type]
    lines = [{"content": f"weather {i}", "scope": "old"} for i in range(OLD)]
    lines += [{"content": f"zeppelin {i} weather", "scope": "old"} for i in range(3)]
    lines += [{"content": f"the weather was grey over the harbour and the hills today {i}", "scope": "new"}
              for i in range(NEW)]
    imported = transfer.import_lines(s, (json.dumps(line) for line in lines), tenant="t", scope="new")
    assert imported.imported == len(lines)
    other = (json.dumps({"content": f"weather elsewhere {i}"}) for i in range(3))
    transfer.import_lines(s, other, tenant="u", scope="o")
    yield s
    s.close()


def test_a_common_word_is_ranked_among_the_newest_memories_only(store):
    found = keyword(store, "weather", 8, ["old", "new"])
    # Unbounded, the 30 short old memories would win; bounded, only the newest memories are ranked.
    assert len(found) == 8 and all(text.startswith("the weather was grey") for text in found)


def test_the_term_counts_follow_every_write(store, pg_url):
    """``keyword_terms`` holds, per tenant and term, the memories holding it in their content
    and in their episode context: as counted from the memories after import, remember,
    supersede and forget."""
    kept = store.remember(tenant="t", scope="new", content="weather on the zeppelin deck", kind="fact").id
    store.supersede(tenant="t", id=kept, content="grey weather on the zeppelin deck")
    store.forget(tenant="t", id=store.remember(tenant="t", scope="new", content="zeppelin hangar weather").id)
    store.remember(tenant="t", scope="new", content="and then the zeppelin landed", kind="episode")
    with psycopg.connect(pg_url) as conn:  # the schema's owner
        # Every row: a term no memory holds any more (the forgotten one's "hangar") leaves none.
        kept_counts = conn.execute("SELECT tenant, term, content, context FROM keyword_terms ORDER BY 1, 2").fetchall()
        counted = conn.execute(
            "SELECT tenant, term, count(*) FILTER (WHERE content), count(*) FILTER (WHERE NOT content) FROM ("
            " SELECT tenant, t, true FROM memories, unnest(tsvector_to_array(content_terms)) t UNION ALL"
            " SELECT tenant, t, false FROM memories, unnest(tsvector_to_array(context_terms)) t)"
            " d(tenant, term, content)"
            " GROUP BY 1, 2 ORDER BY 1, 2").fetchall()
    assert kept_counts == counted
    with store.backend.read("t") as tx:
        # 3 imported, the deck and its head (a superseded memory keeps its words), the episode
        assert searching.term_counts(tx, ["zeppelin"])[1] == {"zeppelin": 6}


def test_doctor_names_keyword_counts_that_disagree_and_repair_counts_them_again(store, pg_url):
    assert not [p for p in store.backend.check() if p.startswith("keyword statistics")]
    with psycopg.connect(pg_url) as conn:  # the schema's owner; triggers off while the counts are spoilt
        conn.execute("SET session_replication_role = replica")
        conn.execute("UPDATE keyword_terms SET content = content + 5 WHERE tenant = 't' AND term = 'zeppelin'")
        conn.execute("DELETE FROM keyword_terms WHERE tenant = 'u' AND term = 'elsewher'")
        conn.execute("UPDATE keyword_documents SET documents = 1 WHERE tenant = 'u'")
    problems = [p for p in store.backend.check() if p.startswith("keyword statistics")]
    assert problems == ["keyword statistics: 1 tenants' memory counts and 2 words' counts disagree with the "
                        "memories (`memvault doctor --repair` counts them again)"]
    store.backend.rebuild_keyword_index()
    assert not [p for p in store.backend.check() if p.startswith("keyword statistics")]
    with store.backend.read("t") as tx:
        assert searching.term_counts(tx, ["zeppelin"])[1] == {"zeppelin": 3}


@pytest.mark.parametrize("words", [["zeppelin"], ["weather", "zeppelin"], ["Zeppelins", "harbour", "nowhere"]])
def test_a_readers_word_counts_are_the_memories_holding_them_and_a_writer_counts_its_own(store, pg_url, words):
    """A reader's document counts of words (the coverage weights) come from ``keyword_terms``,
    without counting the index's matches; a writer's include what it wrote and has not committed."""
    store.supersede(tenant="t", id=store.remember(tenant="t", scope="new", content="zeppelin weather log").id,
                    content="zeppelin weather log, amended")
    store.forget(tenant="t", id=store.remember(tenant="t", scope="new", content="zeppelin harbour").id)
    with psycopg.connect(pg_url) as conn:  # the schema's owner: what the memories hold, counted
        counted = dict(conn.execute(
            "SELECT t, count(*) FROM memories m, unnest(tsvector_to_array(m.content_terms)) t"
            " WHERE m.tenant = 't' GROUP BY t").fetchall())
    with store.backend.read("t") as tx:
        documents, counts = searching.term_counts(tx, words)
        assert counts == {t: counted[t] for t in searching.query_terms(tx, words) if t in counted}
        assert documents == OLD + 3 + NEW + 2  # the superseded memory keeps its words; the forgotten one none
    with store.backend.write("t") as w:
        w.conn.execute("UPDATE memories SET content_terms = to_tsvector('memvault', content || ' nowhere')"
                       " WHERE tenant = 't' AND content LIKE 'zeppelin 1 %'")
        assert searching.term_counts(w, ["nowhere"])[1] == {"nowher": 1}
