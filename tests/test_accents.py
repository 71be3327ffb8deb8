"""Greek and Cyrillic written with or without their accents are one word to the keyword index,
on both backends alike (issue 25: "συναντηση πελατη" found nothing on SQLite and its memory at
0.96 on PostgreSQL), and an SQLite file indexed before keeps forgetting exactly after its upgrade."""

from __future__ import annotations

import pytest
from fakes import Clock, FakeEmbedder

import raw
from memvault.storage import maintenance, textindex
from memvault.storage.records import NewTurn
from memvault.storage.sqlite import schema
from memvault.storage.store import Store

MEMORIES = {
    "meeting": "Η συνάντηση με τον πελάτη μεταφέρθηκε την Τρίτη",
    "server": "Ο διακομιστής βάσης δεδομένων έπεσε χθες",
    "coffee": "Προτιμώ τον καφέ χωρίς ζάχαρη",
    "tree": "Ёлка стоит в офисе до января",
    "polytonic": "Ἡ ἀρχὴ τοῦ ἔργου ὁρίστηκε",
    "english": "The billing service moved to Go",
}
QUESTIONS = [  # (question, the memory whose words it holds)
    ("συναντηση πελατη", "meeting"), ("συνάντηση πελάτη", "meeting"), ("ΣΥΝΑΝΤΗΣΗ", "meeting"),
    ("διακομιστης", "server"), ("καφε ζαχαρη", "coffee"), ("ΚΑΦΈ", "coffee"), ("καφὲ", "coffee"),
    ("елка", "tree"), ("ёлка", "tree"), ("αρχη εργου", "polytonic"), ("ἀρχή", "polytonic"),
]


def first_keyword_hits(store: Store) -> dict[str, str | None]:
    ids = {store.remember(tenant="t", scope="p", content=text, kind="fact").id: name
           for name, text in MEMORIES.items()}
    out = {}
    for question, _ in QUESTIONS:
        hits = [h for h in store.recall(tenant="t", query=question, scopes=["p"]).hits if h.signals.keyword_rank == 1]
        out[question] = ids[hits[0].memory.id] if hits else None
    return out


@pytest.mark.contract
def test_accents_are_one_word_with_their_letters_on_every_backend(db: str, clock: Clock):
    store = Store(db, FakeEmbedder(), clock=clock)
    try:
        assert first_keyword_hits(store) == {question: name for question, name in QUESTIONS}
        store.episodes.append(tenant="t", scope="p", session_id="s",
                              turns=[NewTurn("user", "Η προθεσμία του έργου είναι την Παρασκευή")])
        found = store.episodes.search(tenant="t", query="προθεσμια", scopes=None)
        assert [(h.turn.session_id, h.turn.seq) for h in found] == [("s", 1)]
    finally:
        store.close()


def test_an_sqlite_file_indexed_before_is_indexed_anew_and_forgets_exactly(tmp_path, monkeypatch, clock: Clock):
    db = str(tmp_path / "m.db")
    # The indexes as schema 15 made them: accents kept.
    monkeypatch.setattr(textindex, "accents_folded", lambda: {})
    textindex._non_ascii.cache_clear()
    store = Store(db, FakeEmbedder(), clock=clock)
    try:
        kept = {name: store.remember(tenant="t", scope="p", content=text).id for name, text in MEMORIES.items()}
        store.remember(tenant="other", scope="p", content="plain words of another tenant")
        store.episodes.append(tenant="t", scope="p", session_id="s",
                              turns=[NewTurn("user", "Η προθεσμία του έργου είναι την Παρασκευή")])
        assert not store.episodes.search(tenant="t", query="προθεσμια", scopes=None)
    finally:
        store.close()
    raw.execute(db, f"PRAGMA user_version = {schema.MIGRATIONS.index(schema._v16_accents_folded)}")
    monkeypatch.undo()
    textindex._non_ascii.cache_clear()
    store = Store(db, FakeEmbedder(), clock=clock)
    try:
        hits = store.recall(tenant="t", query="καφε ζαχαρη", scopes=["p"]).hits
        assert hits[0].memory.id == kept["coffee"] and hits[0].signals.keyword_rank == 1
        assert len(store.episodes.search(tenant="t", query="προθεσμια", scopes=None)) == 1
        # A forget gives FTS5 the text as now indexed: the index stays whole, and the words go.
        store.forget(tenant="t", id=kept["coffee"])
        assert store.upkeep.scrub() and maintenance.check(store) == []
        assert not [h for h in store.recall(tenant="t", query="καφε", scopes=["p"]).hits if h.signals.keyword_rank]
        assert store.recall(tenant="other", query="plain words", scopes=["p"]).hits
    finally:
        store.close()
