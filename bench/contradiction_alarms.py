"""How many pairs of the evaluation sets' memories the contradiction test flags, by cosine band: an
estimate of false alarms on memories nobody wrote for the purpose (most flagged pairs there are two
memories about different things; the agentic set's facts that change are among them).

Usage: python bench/contradiction_alarms.py ../shared/eval/agentic [../shared/eval/locomo] [--show N]

Each conversation's memories of the kinds consolidation compares (all of a set whose memories
have no kind) are embedded with the packaged model; every pair at cosine >= 0.3 (or the lowest
gate, ``contradiction.least_cosine``, when lower) is judged (``contradiction.contradicts``, older by
``observed_at``) and counted by band: under ``STRONG_SUBJECT`` (change words on the older's subject
only), from it to ``ranking.SAME_SUBJECT``, above. ``--show`` prints N flagged pairs of each band.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from locomo_data import load
from memvault.storage.contradiction import STRONG_SUBJECT, contradicts, least_cosine
from memvault.storage.embeddings import Embedder
from memvault.storage.ranking import SAME_SUBJECT
from memvault.storage.strength import REVIEWED_KINDS



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--show", type=int, default=0)
    args = parser.parse_args()
    embedder = Embedder()
    out = sys.stdout.write
    for folder in args.folders:
        turns, _ = load(folder)
        bands = {"changed band": [0, 0, []], "strong band": [0, 0, []], "gate and above": [0, 0, []]}
        for conversation in turns.values():
            kept = [t for t in conversation if t.kind is None or t.kind in REVIEWED_KINDS]
            kept.sort(key=lambda t: t.observed_at)
            if len(kept) < 2:
                continue
            vectors = embedder.embed([t.content for t in kept])
            cosines = vectors @ vectors.T
            for i in range(len(kept)):
                for j in range(i + 1, len(kept)):
                    cosine = float(cosines[i, j])
                    if cosine < min(0.3, least_cosine(SAME_SUBJECT)):
                        continue
                    band = bands["gate and above" if cosine >= SAME_SUBJECT else
                                 "strong band" if cosine >= STRONG_SUBJECT else "changed band"]
                    band[0] += 1
                    reason = contradicts(kept[i].content, kept[j].content, cosine, SAME_SUBJECT)
                    if reason is not None:
                        band[1] += 1
                        band[2].append((cosine, kept[i].content, kept[j].content, reason))
        out(f"{folder.name}:\n")
        for name, (pairs, flagged, shown) in bands.items():
            out(f"  {name:<16} {pairs:>6} pairs, {flagged:>4} flagged\n")
            for cosine, older, newer, reason in shown[:args.show]:
                out(f"    {cosine:.2f} {older[:90]!r}\n         -> {newer[:90]!r} ({reason})\n")


if __name__ == "__main__":
    main()
