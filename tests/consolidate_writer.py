"""Consolidation in a process of its own, to be killed: ``python consolidate_writer.py DB NOW_MS``
prints ``ready`` once the store is open and ``ack DIGEST_ID`` after each committed digest, then
``done``; test_consolidation.py kills it with SIGKILL in the middle."""

from __future__ import annotations

import sys

from fakes import FakeEmbedder

from memvault.storage.consolidate import consolidate
from memvault.storage.store import Store


def main() -> None:
    db, now = sys.argv[1], int(sys.argv[2])
    store = Store(db, FakeEmbedder(), clock=lambda: now)  # type: ignore[arg-type]
    print("ready", flush=True)
    consolidate(store, progress=lambda done: print(f"ack {done.digest_id}", flush=True))
    print("done", flush=True)
    store.close()


if __name__ == "__main__":
    main()
