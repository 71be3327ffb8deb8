"""One process of the many-writers test (test_concurrency.py), through ``Store`` as a
server uses it.

``python store_writer.py DB NAME OLD_ID GO_FILE``: waits until ``GO_FILE`` exists, then
4 threads each remember ``PER_THREAD`` memories of two tenants while the main thread
supersedes ``OLD_ID`` (tenant "a"); the other process races it for the same memory.
Prints one JSON line: ``{"ids": [[tenant, id], ...], "superseded": new id or null, "conflict": message or null}``.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time

from fakes import FakeEmbedder

from memvault.storage.errors import Conflict
from memvault.storage.store import Store

THREADS = 4
PER_THREAD = 25


def main() -> None:
    db, name, old_id, go = sys.argv[1:5]
    store = Store(db, FakeEmbedder(), busy_timeout_ms=30_000)  # type: ignore[arg-type]
    while not os.path.exists(go):
        time.sleep(0.01)
    ids: list[tuple[str, str]] = []

    def writer(t: int) -> None:
        for i in range(PER_THREAD):
            tenant = "ab"[i % 2]
            out = store.remember(tenant=tenant, scope="s", content=f"{name} thread {t} memory {i}")
            ids.append((tenant, out.id))

    threads = [threading.Thread(target=writer, args=(t,)) for t in range(THREADS)]
    for t in threads:
        t.start()
    superseded = conflict = None
    try:
        superseded = store.supersede(tenant="a", id=old_id, content=f"successor written by {name}").id
    except Conflict as exc:
        conflict = str(exc)
    for t in threads:
        t.join()
    store.close()
    print(json.dumps({"ids": ids, "superseded": superseded, "conflict": conflict}), flush=True)


if __name__ == "__main__":
    main()
