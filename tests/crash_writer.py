"""A writer that never stops: remember, supersede and forget at random on one database.

Run as ``python crash_writer.py DB SEED``; prints ``ready`` once the store is open
and ``ack ID`` after each committed remember or supersede, then is killed by
test_crash.py with SIGKILL at a random moment.
"""

from __future__ import annotations

import random
import sys

from fakes import FakeEmbedder

from memvault.storage.errors import Conflict, NotFound
from memvault.storage.secrets import find_secrets
from memvault.storage.store import Store
import sqlite_raw

WORDS = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike".split()


def main() -> None:
    db, seed = sys.argv[1], int(sys.argv[2])
    rng = random.Random(seed)
    store = Store(db, FakeEmbedder())  # type: ignore[arg-type]
    find_secrets("warm-up")  # the secret scanner's first use loads its plugins (~0.4 s): not in the kill window
    with sqlite_raw.snapshot(store) as conn:
        ids = [r[0] for r in conn.execute("SELECT id FROM memories WHERE forgotten_at IS NULL")]
    print("ready", flush=True)
    for i in range(1_000_000):
        op = rng.random()
        text = f"memory {seed}-{i}: " + " ".join(rng.choices(WORDS, k=8))
        try:
            if op < 0.6 or not ids:
                out = store.remember(tenant=rng.choice("ab"), scope="s", content=text, tags=[rng.choice(WORDS)])
                ids.append(out.id)
                print(f"ack {out.id}", flush=True)
            elif op < 0.85:
                for tenant in "ab":
                    try:
                        new_id = store.supersede(tenant=tenant, id=rng.choice(ids), content=text).id
                        ids.append(new_id)
                        print(f"ack {new_id}", flush=True)
                        break
                    except NotFound:
                        continue
            else:
                victim = rng.choice(ids)
                for tenant in "ab":
                    try:
                        store.forget(tenant=tenant, id=victim, include_history=rng.random() < 0.3)
                        break
                    except NotFound:
                        continue
        except Conflict:
            continue


if __name__ == "__main__":
    main()
