"""Deletion that deletes: after forget, nothing of the memory is left in any file,
shadow table or export, with the real model's vectors."""

from __future__ import annotations

import json
import random

import apsw
from conftest import file_bytes, figure
from fakes import FakeEmbedder

from memvault.storage import maintenance, transfer
from memvault.storage.store import Store

MARKER = "quokkamarker5519"


def test_forgotten_text_and_vector_leave_no_trace(real_store: Store, db_path, real_embedder):
    for i in range(30):
        real_store.remember(tenant="t", scope="s", content=f"Unrelated note {i} about the weekly sync")
    text = f"The safe combination is {MARKER}, kept by Dana"
    first = real_store.remember(tenant="t", scope="s", content=text, tags=["vault-tag-7731"],
                                source="source-marker-4417", idempotency_key="key-marker-9921")
    newer = real_store.supersede(tenant="t", id=first.id, content=f"The safe combination is {MARKER}2",
                                 reason="reason-marker-3318").id
    vectors = real_embedder.embed([text, f"The safe combination is {MARKER}2"])
    assert MARKER.encode() in file_bytes(db_path)
    result = real_store.forget(tenant="t", id=newer, include_history=True)
    assert sorted(result.forgotten_ids) == sorted([first.id, newer]) and result.scrubbed is False
    assert real_store.upkeep.scrub()  # waits for the background scrub
    data = file_bytes(db_path)
    leftovers = [m for m in (MARKER, "vault-tag-7731", "source-marker-4417", "key-marker-9921", "reason-marker-3318")
                 if m.encode() in data]
    leftovers += [f"vector {i}" for i, v in enumerate(vectors) if v.tobytes() in data]
    leftovers += [f"vector {i} prefix" for i, v in enumerate(vectors) if v.tobytes()[:64] in data]
    assert leftovers == []
    conn = apsw.Connection(str(db_path))  # no sqlite-vec here: shadow tables are plain tables
    shadow = [r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'"
        " AND (name LIKE 'memories_fts_%' OR name IN ('memory_vectors', 'memory_windows'))")]
    assert len(shadow) >= 6
    for table in shadow:
        for row in conn.execute(f'SELECT * FROM "{table}"'):
            assert not any(isinstance(v, (str, bytes)) and MARKER.encode() in (v.encode() if isinstance(v, str) else v)
                           for v in row), table
    conn.close()
    export = "\n".join(transfer.export_lines(real_store, "t"))
    assert MARKER not in export and first.id not in export and len(export.splitlines()) == 30
    again = real_store.remember(tenant="t", scope="s", content=text, idempotency_key="key-marker-9921")
    assert again.created and again.id != first.id
    figure(f"deletion: after forget, 0 of 5 markers and 0 of 2 embeddings left in db/-wal/-shm, "
           f"{len(shadow)} FTS5 shadow and vector tables clean, export clean")


def test_export_lists_current_and_history_without_forgotten_content(store):
    a = store.remember(tenant="t", scope="s", content="Release cadence is monthly")
    b = store.supersede(tenant="t", id=a.id, content="Release cadence is biweekly").id
    gone = store.remember(tenant="t", scope="s", content="Temporary pin 4321")
    store.forget(tenant="t", id=gone.id)
    store.remember(tenant="other", scope="s", content="Other tenant's fact")
    rows = [json.loads(line) for line in transfer.export_lines(store, "t")]
    assert [r["id"] for r in rows] == [a.id, b]
    assert rows[0]["superseded_by"] == b and rows[1]["supersedes"] == a.id
    assert all(r["tenant"] == "t" for r in rows)


def test_no_copy_of_forgotten_text_survives_pages_being_split_and_rebalanced(db_path):
    """The scrub is a WAL checkpoint, not a VACUUM: this holds only while freed cells and
    pages are zeroed when SQLite moves rows between pages (``secure_delete``), which
    rows growing by a supersede link and keys inserted in random order make it do."""
    rng = random.Random(7)
    store = Store(db_path, FakeEmbedder())  # type: ignore[arg-type]
    try:
        ids, secrets = [], []
        for i in range(600):
            if i % 100 == 50:
                out = store.remember(tenant="t", scope="s", content=f"Note {i}: the PIN is {MARKER}{i}",
                                     tags=[f"tag{MARKER}{i}"], source=f"src{MARKER}", idempotency_key=f"{rng.random()}{MARKER}")
                secrets.append(out.id)
            else:
                out = store.remember(tenant="t", scope="s", content=f"Note {i}: weekly sync item {rng.random()}",
                                     tags=[f"t{rng.random():.5f}"], idempotency_key=f"{rng.random()}")
                ids.append(out.id)
        for j in rng.sample(range(len(ids)), 200):  # neighbours grow: their pages split and rebalance
            ids[j] = store.supersede(tenant="t", id=ids[j], content=f"Note {j}, revised {rng.random()}",
                                     reason=f"revision {rng.random()}").id
        old = secrets.pop()  # a secret that lived on in a reason and an older version
        secrets.append(store.supersede(tenant="t", id=old, content=f"PIN changed from {MARKER}", reason=f"was {MARKER}").id)
        assert MARKER.encode() in file_bytes(db_path)
        for memory_id in secrets:
            store.forget(tenant="t", id=memory_id, include_history=True)
        assert store.upkeep.scrub()
        assert MARKER.encode() not in file_bytes(db_path)
        assert maintenance.check(store) == [] and maintenance.stats(store)["forgotten"] == len(secrets) + 1
        assert store.get(tenant="t", id=ids[0]).content.startswith("Note")  # the owner's other memories stay
    finally:
        store.close()
