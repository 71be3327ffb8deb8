"""A capture that never stops: appends turns to one session, one to five a call.

Run as ``python session_writer.py DB``: forks one writer per seed read from stdin
(``forked_writers``); each prints ``ready PID`` once its store is open and ``ack FIRST LAST``
after each committed append (the seqs it wrote), then is killed by test_sessions_crash.py
with SIGKILL at a random moment.
"""

from __future__ import annotations

import os
import random
import sys

import forked_writers

from memvault.storage.records import NewTurn
from memvault.storage.secrets import find_secrets
from memvault.storage.store import Store


def write(db: str, seed: int) -> None:
    rng = random.Random(seed)
    store = Store(db, None)
    store.episodes.append(tenant="t", scope="s", session_id="crash", turns=[])
    print(f"ready {os.getpid()}", flush=True)
    while True:
        count = rng.randint(1, 5)
        roles = rng.choices(("user", "assistant", "tool"), k=count)
        out = store.episodes.append(tenant="t", scope="s", session_id="crash", turns=[
            NewTurn(role, f"writer {seed} turn {i}") for i, role in enumerate(roles)])
        print(f"ack {out.added[0]} {out.added[-1]}", flush=True)


if __name__ == "__main__":
    find_secrets("warm-up")  # the scanner's first use loads its plugins: not in the kill window
    forked_writers.serve(lambda seed: write(sys.argv[1], seed))
