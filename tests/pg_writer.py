"""One of the processes of the PostgreSQL many-writers test (test_postgres_backend.py).

Run as ``python pg_writer.py URL NAME OLD_ID GO_FILE``: waits until ``GO_FILE`` exists, then
4 threads each insert ``PER_THREAD`` memories (one write transaction each), and the
main thread supersedes ``OLD_ID`` as the rules do it (lock the row, check it has no
successor, insert the new memory, link), holding the lock a moment so that the other
process queues on it. Prints one JSON line: ``{"ids": [...], "superseded": id or null}``.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time

from memvault.storage.backend import NewRow
from memvault.storage.ids import new_id
from memvault.storage.postgres import PostgresBackend

THREADS = 4
PER_THREAD = 25


def row(tenant: str, content: str, supersedes: str | None = None) -> NewRow:
    return NewRow(id=new_id(), tenant=tenant, scope="s", kind="fact", content=content, content_hash=content,
                  tags=(), importance=5, source=None, observed_at=1, recorded_at=1, supersedes=supersedes)


def main() -> None:
    url, name, old_id, go = sys.argv[1:5]
    backend = PostgresBackend(url, pool_size=THREADS + 1, busy_timeout_ms=20_000)
    while not os.path.exists(go):
        time.sleep(0.01)
    ids: list[str] = []

    def writer(t: int) -> None:
        for i in range(PER_THREAD):
            r = row("ab"[i % 2], f"{name} thread {t} memory {i}")
            with backend.write(r.tenant) as w:
                w.insert(r)
            ids.append(r.id)

    threads = [threading.Thread(target=writer, args=(t,)) for t in range(THREADS)]
    for t in threads:
        t.start()
    superseded = None
    with backend.write("a") as w:
        w.lock(old_id)
        found = w.by_id("a", old_id)
        assert found is not None
        time.sleep(0.3)  # hold the row: the other process must wait for it, not race past it
        if found[1].superseded_by is None:
            new = row("a", f"successor written by {name}", supersedes=old_id)
            w.insert(new)
            w.link(old_id, new.id, "raced")
            superseded = new.id
    for t in threads:
        t.join()
    backend.close()
    print(json.dumps({"ids": ids, "superseded": superseded}), flush=True)


if __name__ == "__main__":
    main()
