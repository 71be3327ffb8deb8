"""What the last session's digest costs the boot context's other sections (issue 26), per cap.

Usage: python bench/boot_digest.py [--budgets 500,1000,2000,3000,5000] [--caps 0.15,0.25,0.35]

Builds the boot tests' seeded store (``tests/boot_seed.py``: 90 memories of every kind) and one
ended session whose digest is short (2 turns) or long (60 turns, near ``DIGEST_MAX_TOKENS``), then
for each budget and cap of the "Last session" section prints: the digest's tokens, whether it is
shown, and the lines and tokens today's sections show with it and without any session. Token counts
only (no timings): the results do not depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from boot_seed import seed  # noqa: E402
from fakes import FakeEmbedder  # noqa: E402

from memvault.storage.literal import counter  # noqa: E402
from memvault.storage.records import NewTurn  # noqa: E402
from memvault.storage.store import Store  # noqa: E402
from memvault.tools import boot  # noqa: E402
from memvault.tools.handlers import Caller  # noqa: E402

CALLER = Caller("t", "proj")


def today(document: str) -> tuple[int, int]:
    """Lines and tokens of the sections other than "Last session"."""
    blocks = [b for b in document.split("\n## ")[1:] if not b.startswith(boot.LAST_SESSION.title)]
    lines = [line for b in blocks for line in b.splitlines() if line.startswith("- [")]
    return len(lines), sum(counter()(line) for line in lines)


def store_with(folder: str, turns: int) -> tuple[Store, int]:
    store = Store(f"{folder}/boot-{turns}.db", FakeEmbedder())  # type: ignore[arg-type]
    seed(store)
    texts = [f"step {i}: ran the migration of table number {i} and checked its row counts" for i in range(turns)]
    store.episodes.append(tenant="t", scope="proj", session_id=f"s-{turns}", client="claude-code",
                          turns=[NewTurn(role="user" if i % 2 == 0 else "assistant", text=t)
                                 for i, t in enumerate(texts)])
    digest = store.episodes.end(tenant="t", session_id=f"s-{turns}").digest_id
    return store, store.get(tenant="t", id=digest).tokens or 0  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", default="500,1000,2000,3000,5000")
    parser.add_argument("--caps", default="0.15,0.25,0.35")
    args = parser.parse_args()
    chosen = boot.LAST_SESSION
    with tempfile.TemporaryDirectory() as folder:
        bare = Store(f"{folder}/bare.db", FakeEmbedder())  # type: ignore[arg-type]
        seed(bare)
        for turns in (2, 60):
            store, digest_tokens = store_with(folder, turns)
            for budget in (int(b) for b in args.budgets.split(",")):
                alone = today(boot.boot_context(bare, CALLER, budget))
                for cap in (float(c) for c in args.caps.split(",")):
                    boot.LAST_SESSION = replace(chosen, cap=cap)
                    document = boot.boot_context(store, CALLER, budget)
                    shown = f"\n## {chosen.title}\n" in document
                    print(json.dumps({"digest_tokens": digest_tokens, "budget": budget, "cap": cap, "shown": shown,
                                      "today_lines": [alone[0], today(document)[0]],
                                      "today_tokens": [alone[1], today(document)[1]]}))
                boot.LAST_SESSION = chosen
            store.close()
        bare.close()


if __name__ == "__main__":
    main()
