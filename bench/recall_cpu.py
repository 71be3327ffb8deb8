"""The CPU one ``Store.recall`` costs, an older checkout's code against this one's, interleaved
question by question (issue 28, "fast where the agent waits").

Usage: python bench/recall_cpu.py STORE --base DIR [--queries 300] [--repeats 3] [--warm 30] [--locomo DIR]

STORE is a store built by ``bench/scale.py`` (tenant "bench", scope "s"); each side opens a fresh copy
of it in a process of its own (``same_recalls.side_command``: ``--base`` is imported by path). The
``--queries`` LoCoMo questions of ``bench/recall_profile.py`` (seed 7, limit 5) are each recalled by
one side then the other (which goes first alternates), after ``--warm`` recalls of other LoCoMo
questions; ``--repeats`` times, by new processes each time (a question asked again of one process
finds its readings cached). Measured per recall: ``thread``, the CPU time of the recalling thread
(``time.thread_time``: the ranking, SQL and waiting for nothing), and ``process``, of every thread of
the process (``time.process_time``: the question's embedding too). Printed as JSON: per side and
measure the median and the sum over questions of each question's min (and median) over repeats, and
the ratios this / base. On a loaded machine compare the ratios, never one run's times with another's.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
LOCOMO = BENCH.parent.parent / "shared" / "eval" / "locomo"
NOW = 1_800_000_000_000


def serve(store: Path, questions: list[str], warm: int) -> None:
    """One side: recall the last ``warm`` of ``questions``, then the question whose index each stdin line
    names; one JSON line of CPU ms back for each."""
    from memvault.storage.embeddings import Embedder
    from memvault.storage.store import Store

    embedder = Embedder()
    embedder.load()
    s = Store(store, embedder, clock=lambda: NOW, upkeep=False)
    for q in questions[len(questions) - warm:]:
        s.recall(tenant="bench", query=q, scopes=["s"], limit=5)
    print("ready", flush=True)
    for line in sys.stdin:
        q = questions[int(line)]
        thread, process = time.thread_time(), time.process_time()
        s.recall(tenant="bench", query=q, scopes=["s"], limit=5)
        print(json.dumps([(time.thread_time() - thread) * 1000, (time.process_time() - process) * 1000]), flush=True)
    s.close()


def summary(per_question: list[list[float]]) -> dict[str, float]:
    least = [min(r) for r in per_question]
    middle = [statistics.median(r) for r in per_question]
    return {"median_of_min": round(statistics.median(least), 3), "sum_of_min": round(sum(least), 1),
            "median_of_median": round(statistics.median(middle), 3), "sum_of_median": round(sum(middle), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("store", type=Path)
    parser.add_argument("--base", type=Path, help="a checkout of the older code")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--warm", type=int, default=30)
    parser.add_argument("--locomo", type=Path, default=LOCOMO)
    parser.add_argument("--side", help=argparse.SUPPRESS)  # internal: serve recalls of these questions
    args = parser.parse_args()
    if args.side:
        serve(args.store, json.loads(Path(args.side).read_text()), args.warm)
        return
    sys.path.insert(0, str(BENCH))
    from locomo_data import load
    from same_recalls import side_command

    _, queries = load(args.locomo)
    asked = [q.question for q in queries]
    questions = random.Random(7).sample(asked, args.queries)
    chosen = set(questions)
    warm = [q for q in dict.fromkeys(asked) if q not in chosen][: args.warm]
    names = ("base", "this")
    times: dict[str, dict[str, list[list[float]]]] = {n: {"thread": [[] for _ in questions],
                                                          "process": [[] for _ in questions]} for n in names}
    with tempfile.TemporaryDirectory() as work:
        listed = Path(work) / "questions.json"
        listed.write_text(json.dumps([*questions, *warm]))
        for repeat in range(args.repeats):  # new processes each time: a question asked again hits the caches
            sides = []
            for name, code in zip(names, (args.base, None), strict=True):
                copy = Path(work) / f"{name}{repeat}.db"
                shutil.copy(args.store, copy)
                sides.append(subprocess.Popen(
                    side_command(code, Path(work) / f"{name}{repeat}", __file__, str(copy), "--side", str(listed),
                                 "--warm", str(len(warm))), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True))
            for side in sides:
                assert side.stdout is not None and side.stdout.readline().strip() == "ready"
            for i in range(len(questions)):
                for at in ((0, 1) if (i + repeat) % 2 == 0 else (1, 0)):
                    side = sides[at]
                    side.stdin.write(f"{i}\n")  # type: ignore[union-attr]
                    side.stdin.flush()  # type: ignore[union-attr]
                    thread, process = json.loads(side.stdout.readline())  # type: ignore[union-attr]
                    times[names[at]]["thread"][i].append(thread)
                    times[names[at]]["process"][i].append(process)
            for side in sides:
                side.stdin.close()  # type: ignore[union-attr]
                side.wait()
    out: dict[str, object] = {"queries": len(questions), "repeats": args.repeats,
                              **{n: {m: summary(v) for m, v in times[n].items()} for n in names}}
    out["ratio"] = {m: {k: round(out["this"][m][k] / out["base"][m][k], 3)  # type: ignore[index]
                        for k in out["base"][m]} for m in ("thread", "process")}  # type: ignore[index]
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
