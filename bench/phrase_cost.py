"""What one long phrase costs (query.MAX_PHRASE_WORDS, MAX_QUERY_WORDS): memories and turns each
holding one word ``--times`` times, asked a chunk of that word repeated (``0.0.0.…``, up to 999
words: one phrase before the caps), by recall and by turn search, with the caps and without them
(both set past any query), in the same run; no model.

Usage: python bench/phrase_cost.py [--texts 100] [--times 2000] [--db PATH-or-postgresql-URL]

Prints CPU seconds of this process per query (PostgreSQL: wall seconds, the work being the
server's) for chunks of 1, 8, 64 and 999 words, and the load average: under load, compare the
two columns of one run, not figures of two runs. Figures: docs/how-recall-works.md#long-chunks.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from memvault.storage import query
from memvault.storage.location import is_url
from memvault.storage.records import NewTurn
from memvault.storage.store import Store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--texts", type=int, default=100)
    parser.add_argument("--times", type=int, default=2000)
    parser.add_argument("--db", default=os.path.join(tempfile.mkdtemp(), "m.db"))
    args = parser.parse_args()
    clock = time.perf_counter if is_url(args.db) else time.process_time
    store = Store(args.db, None)
    for i in range(args.texts):
        store.remember(tenant="t", scope="p", content="0 " * args.times + f"row{i}")
    store.episodes.append(tenant="t", scope="p", session_id="bulk", turns=[
        NewTurn("user", "0 " * args.times + f"turn{i}") for i in range(args.texts)])
    store.recall(tenant="t", query="0", scopes=["p"])  # the first recall's one-time work left out
    caps = query.MAX_PHRASE_WORDS, query.MAX_QUERY_WORDS
    print(f"{args.texts} memories and turns holding '0' {args.times} times; load {os.getloadavg()[0]:.2f}")
    print("words  recall capped / uncapped   turns capped / uncapped")
    for words in (1, 8, 64, 999):
        ask = ".".join(["0"] * words)
        row = []
        for search in (lambda: store.recall(tenant="t", query=ask, scopes=["p"]),
                       lambda: store.episodes.search(tenant="t", query=ask, scopes=None)):
            for phrase, total in (caps, (10**6, 10**6)):
                query.MAX_PHRASE_WORDS, query.MAX_QUERY_WORDS = phrase, total
                start = clock()
                search()
                row.append(clock() - start)
        query.MAX_PHRASE_WORDS, query.MAX_QUERY_WORDS = caps
        print(f"{words:5}  {row[0]:8.3f} s / {row[1]:8.3f} s    {row[2]:8.3f} s / {row[3]:8.3f} s")
    store.close()


if __name__ == "__main__":
    main()
