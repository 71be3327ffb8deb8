"""What a long question costs a recall, as a ratio to an ordinary question's in the same run (adversarial
pass 78 M1: 660 identifiers cost 1-3 s over HTTP, about 30 times a normal recall, holding the tenant's turn).

Usage: python bench/long_queries.py [--memories 2000] [--repeats 5]

A store of ``--memories`` short agent-style memories (a temporary SQLite file, the packaged model); each
question recalled ``--repeats`` times after one warm-up; prints the median seconds of CPU of each (this
process: the query embedding runs in its threads) and its ratio to the ordinary question's. The shapes are the
pass's: many short identifiers, one word repeated, hyphenated words, and times of many forms.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from memvault.storage.embeddings import Embedder
from memvault.storage.store import Store

QUESTIONS = {
    "ordinary": "when does the payments deploy run and who approved it?",
    "2,000 characters of one letter": "a" * 1999,
    "660 identifiers": " ".join("abcdefghijklmnopqrstuvwxyz"[i % 26] + str(i % 7) for i in range(660)),
    "one word 399 times": "zzqx " * 399,
    "1,000 hyphenated words": " ".join(f"w{i}-x{i}" for i in range(1000))[:2000],
    "300 weeks and quarters": " ".join(f"week {i % 52 + 1} Q{i % 4 + 1}" for i in range(300))[:2000],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / "m.db", Embedder())
        for i in range(args.memories):
            store.remember(tenant="t", scope="s", content=f"Memory {i}: the deploy of service{i % 17} runs at "
                           f"{i % 24}:00 after the checks on host-{i % 5}, approved by user{i % 11}")
        spent: dict[str, float] = {}
        for name, question in QUESTIONS.items():
            store.recall(tenant="t", query=question, scopes=["s"])
            runs = []
            for _ in range(args.repeats):
                start = time.process_time()
                store.recall(tenant="t", query=question, scopes=["s"])
                runs.append(time.process_time() - start)
            spent[name] = statistics.median(runs)
        store.close()
    for name, seconds in spent.items():
        print(f"{name:32s} {seconds * 1000:8.1f} ms CPU  {seconds / spent['ordinary']:6.1f} x ordinary")


if __name__ == "__main__":
    main()
