"""Near duplicates in the evaluation sets: would counting them as confirmations be right?

Usage: python bench/near_duplicates.py ../shared/eval/agentic ../shared/eval/locomo [--show N]

For every memory, in ``observed_at`` order within its store or conversation, the earlier memory
of the same store closest in meaning (the packaged model's cosine). Counted per threshold: how
many memories have such a neighbour at or above it, and how many of those the word test
(``contradiction.disagreement``) finds no disagreement with, i.e. what a rule "a near duplicate
without disagreement confirms the earlier memory" would count as confirmations. For the agentic
set it also counts how many of those are pairs its supersession questions name (an outdated
memory and the one that replaced it): confirmations that would strengthen the outdated one.
``--show N`` prints N of the pairs at the lowest threshold for reading.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from locomo_data import load
from memvault.storage.contradiction import disagreement
from memvault.storage.embeddings import Embedder

THRESHOLDS = (0.9, 0.93, 0.95, 0.97)


def nearest_earlier(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For row i: the index of the most similar row before it and that cosine (-1 for the first)."""
    sims = vectors @ vectors.T
    sims[np.triu_indices(len(vectors))] = -1.0
    best = sims.argmax(axis=1)
    return best, sims[np.arange(len(vectors)), best]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", type=Path, nargs="+")
    parser.add_argument("--show", type=int, default=0)
    args = parser.parse_args()
    embedder = Embedder()
    out = sys.stdout.write
    for folder in args.folders:
        turns, queries = load(folder)
        replaced = {(old, q_id) for q in queries for old in q.superseded for q_id in q.relevant}
        pairs = []
        total = 0
        for conv_turns in turns.values():
            ordered = sorted(conv_turns, key=lambda t: t.observed_at)
            vectors = embedder.embed([t.content for t in ordered])
            best, sims = nearest_earlier(vectors)
            total += len(ordered)
            pairs += [(float(sims[i]), ordered[best[i]], ordered[i]) for i in range(1, len(ordered))]
        out(f"{folder.name}: {total} memories\n")
        for threshold in THRESHOLDS:
            near = [(s, a, b) for s, a, b in pairs if s >= threshold]
            agreeing = [(s, a, b) for s, a, b in near if disagreement(a.content, b.content) is None]
            outdated = sum((a.id, b.id) in replaced for _, a, b in agreeing)
            out(f"  cosine >= {threshold}: {len(near)} with an earlier neighbour, {len(agreeing)} without "
                f"disagreement ({len(agreeing) / total:.1%} of memories), {outdated} of them replaced pairs\n")
        shown = [(s, a, b) for s, a, b in pairs if s >= THRESHOLDS[0] and disagreement(a.content, b.content) is None]
        for s, a, b in sorted(shown, key=lambda p: -p[0])[: args.show]:
            out(f"    {s:.3f} {a.content[:90]!r}\n          {b.content[:90]!r}\n")


if __name__ == "__main__":
    main()
