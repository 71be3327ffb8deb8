"""Whether the contradiction judges of this checkout and an older one give every pair of texts the same verdict,
and the CPU each spends on them.

Usage: python bench/same_verdicts.py --base DIR [--texts 300] [--seed 5]

``--texts`` texts, half drawn from /work/shared/eval/agentic, half from /work/shared/eval/locomo (seed ``--seed``);
for every ordered pair (older, newer) each side computes ``contradiction.judge`` (the reason and its strength,
which ``contradicts`` and ``disagreement`` derive from) and ``newer_in_meaning`` observed later and earlier. Each
side runs in a fresh process (``same_recalls.side_command``: ``--base`` is imported by path), the two interleaved
three times (which goes first alternates). Printed as JSON: the pairs, how many verdicts differ (with up to five
examples), and per side the least CPU seconds (``time.process_time``) over the runs, with their ratio this / base.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
EVAL = Path("/work/shared/eval")  # the evaluation sets beside the checkouts


def texts(count: int, seed: int) -> list[str]:
    """``count`` memory texts, half agentic, half LoCoMo, drawn with ``seed``."""
    rng = random.Random(seed)
    drawn: list[str] = []
    for name, share in (("agentic", count // 2), ("locomo", count - count // 2)):
        lines = (EVAL / name / "memories.jsonl").read_text(encoding="utf-8").splitlines()
        drawn += rng.sample([json.loads(line)["text"] for line in lines if line.strip()], share)
    return drawn


def side(count: int, seed: int, out: str) -> None:
    """One side: every ordered pair's verdicts, written as JSON to ``out``, and the CPU seconds they took."""
    import time

    from memvault.storage import contradiction

    drawn = texts(count, seed)
    started = time.process_time()
    verdicts = [(contradiction.judge(a, b), contradiction.newer_in_meaning(b, a, True),
                 contradiction.newer_in_meaning(b, a, False))
                for a in drawn for b in drawn if a != b]
    cpu = time.process_time() - started
    Path(out).write_text(json.dumps({"cpu": cpu, "verdicts": verdicts}), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", type=Path)
    parser.add_argument("--texts", type=int, default=300)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--side", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.side:
        side(args.texts, args.seed, args.side)
        return
    sys.path.insert(0, str(BENCH))
    from same_recalls import side_command

    cpu: dict[str, list[float]] = {"this": [], "base": []}
    found: dict[str, list] = {}
    with tempfile.TemporaryDirectory() as work:
        for run in range(3):
            for name in (("this", "base") if run % 2 == 0 else ("base", "this")):
                out = Path(work) / f"{name}{run}.json"
                code = args.base if name == "base" else None
                command = side_command(code, Path(work) / f"pkg{name}{run}", __file__, "--texts", str(args.texts),
                                       "--seed", str(args.seed), "--side", str(out))
                subprocess.run(command, check=True)
                result = json.loads(out.read_text(encoding="utf-8"))
                cpu[name].append(result["cpu"])
                found[name] = result["verdicts"]
    chosen = texts(args.texts, args.seed)
    drawn = [(a, b) for a in chosen for b in chosen if a != b]
    differ = [(pair, n, b) for pair, n, b in zip(drawn, found["this"], found["base"]) if n != b]
    print(json.dumps({"pairs": len(drawn), "differences": len(differ), "examples": differ[:5],
                      "cpu_s": {name: round(min(times), 2) for name, times in cpu.items()},
                      "ratio": round(min(cpu["this"]) / min(cpu["base"]), 3)}, indent=1))


if __name__ == "__main__":
    main()
