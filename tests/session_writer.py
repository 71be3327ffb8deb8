"""A capture that never stops: appends turns to one session, one to five a call.

Run as ``python session_writer.py DB SEED``; prints ``ready`` once the store is open and
``ack FIRST LAST`` after each committed append (the seqs it wrote), then is killed by
test_sessions_crash.py with SIGKILL at a random moment.
"""

from __future__ import annotations

import random
import sys

from memvault.storage.records import NewTurn
from memvault.storage.secrets import find_secrets
from memvault.storage.store import Store


def main() -> None:
    db, seed = sys.argv[1], int(sys.argv[2])
    rng = random.Random(seed)
    store = Store(db, None)
    find_secrets("warm-up")  # the scanner's first use loads its plugins: not in the kill window
    store.episodes.append(tenant="t", scope="s", session_id="crash", turns=[])
    print("ready", flush=True)
    while True:
        count = rng.randint(1, 5)
        roles = rng.choices(("user", "assistant", "tool"), k=count)
        out = store.episodes.append(tenant="t", scope="s", session_id="crash", turns=[
            NewTurn(role, f"writer {seed} turn {i}") for i, role in enumerate(roles)])
        print(f"ack {out.added[0]} {out.added[-1]}", flush=True)


if __name__ == "__main__":
    main()
