"""Forgetting a session from SQLite's turn index (issue 26): how a forget's cost grows with the
session and with the tenant's other indexed turns, for each of the two ways a session's turns can
leave the index so that none of their terms stays in its pages:

- ``row``: each turn deleted with FTS5's secure-delete, which erases its terms where they lie
  (a cost per turn that grows with the index);
- ``whole``: the turns deleted as tombstones, then the index rewritten whole (``optimize``).

``storage/sqlite/sessions.WHOLE_REWRITE_SHARE`` chooses between them by the session's share of the
index; this measures both on the same stores, and the choice shipped (``chosen``).

Usage: python bench/turn_forget.py [--indexed 10000,100000] [--sessions 10,100,1000,10000]

Each cell: a fresh store holding ``indexed`` turns of other sessions (50 a session) of the same
tenant and one session of ``sessions`` turns, forgotten through ``Store.episodes.forget``; the
forget's CPU seconds. Turns are 30-80 words of a shared vocabulary, like bench/sessions.py's.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sessions import turns  # noqa: E402

from memvault.storage.sqlite import sessions  # noqa: E402
from memvault.storage.store import Store  # noqa: E402

WAYS = {"row": 0, "whole": 10 ** 12, "chosen": sessions.WHOLE_REWRITE_SHARE}


def build(path: str, indexed: int, session: int) -> None:
    """A store at ``path``: ``indexed`` turns in sessions of 50, then one session of ``session``."""
    rng = random.Random(7)
    store = Store(path, None)
    try:
        for n in range(0, indexed, 50):
            store.episodes.append(tenant="t", scope="s", session_id=f"other-{n}", turns=turns(rng, 50, n))
        for n in range(0, session, 500):
            store.episodes.append(tenant="t", scope="s", session_id="gone",
                                  turns=turns(rng, min(500, session - n), n))
    finally:
        store.close()


def forget_seconds(template: str, work: str, way: int) -> float:
    """CPU seconds of forgetting session "gone" on a copy of ``template`` with the share ``way``."""
    path = os.path.join(work, "copy.db")
    shutil.copyfile(template, path)
    sessions.WHOLE_REWRITE_SHARE = way
    store = Store(path, None)
    try:
        start = time.process_time()
        store.episodes.forget(tenant="t", session_id="gone")
        return time.process_time() - start
    finally:
        store.close()
        os.remove(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--indexed", default="10000,100000")
    parser.add_argument("--sessions", default="10,100,1000,10000")
    args = parser.parse_args()
    sys.stdout.write(f"load average {os.getloadavg()[0]:.2f}\n| other turns | session | "
                     + " | ".join(f"{w} s" for w in WAYS) + " |\n|---|---|---|---|---|\n")
    with tempfile.TemporaryDirectory() as work:
        for indexed in (int(x) for x in args.indexed.split(",")):
            for session in (int(x) for x in args.sessions.split(",")):
                template = os.path.join(work, "template.db")
                build(template, indexed, session)
                cells = [forget_seconds(template, work, way) for way in WAYS.values()]
                sys.stdout.write(f"| {indexed:,} | {session:,} | " + " | ".join(f"{c:.3f}" for c in cells) + " |\n")
                sys.stdout.flush()
                os.remove(template)
    sys.stdout.write(f"load average {os.getloadavg()[0]:.2f}\n")


if __name__ == "__main__":
    main()
