"""A new process's first ``remember``, with and without the credential check's warm-up at start (trial 60 #14),
as ratios within one run.

Each trial is a fresh process (RE2's programs and DFA states start uncompiled). It opens a store on a new file with
the packaged model and warms it up (``Store.warm_up``: the model, the time parser, the index) in both modes; in
the mode "warm" it then runs the server's warm-up (``Upkeep.start_warm_up``) and waits for the credential check's
steps (``secret_warm.steps``) to end; then it times its first ``remember`` of one text: a credential named (refused)
or prose. Modes alternate. Usage: ``python bench/first_remember.py [--runs 5]``; prints JSON: per text, the median
seconds of each mode and cold over warm; the warm-up's steps, its longest step (seconds and name) and the
median of its steps' sum (seconds).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

TEXTS = {"credential": "The staging database password is Xk29slQpz1",
         "prose": "We deploy the billing service on Fridays after the standup."}


def child(mode: str, text: str, db: str) -> None:
    from memvault.storage import secret_warm
    from memvault.storage.embeddings import Embedder
    from memvault.storage.errors import InvalidInput
    from memvault.storage.store import Store

    store = Store(db, Embedder())
    store.warm_up()
    took: list[tuple[float, str]] = []
    if mode == "warm":
        done, original = threading.Event(), secret_warm.steps

        def timed() -> Iterator[str]:
            steps = original()
            while True:
                start = time.perf_counter()
                name = next(steps, None)
                if name is None:
                    break
                took.append((time.perf_counter() - start, name))
                yield name
            done.set()

        secret_warm.steps = timed  # type: ignore[assignment]
        store.upkeep.start_warm_up()
        if not done.wait(120):
            raise SystemExit("the warm-up did not end in 120 s")
    start = time.perf_counter()
    try:
        refused = not store.remember(tenant="t", scope="s", content=TEXTS[text]).id
    except InvalidInput:
        refused = True
    seconds = time.perf_counter() - start
    store.close()
    longest = max(took, default=(0.0, ""))
    print(json.dumps({"seconds": seconds, "refused": refused, "steps": len(took), "longest_step": longest[0],
                      "longest_step_name": longest[1], "warm_up": sum(t for t, _ in took)}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--child", nargs=3, metavar=("MODE", "TEXT", "DB"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    seen: dict[tuple[str, str], list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for run in range(args.runs):
            for text in TEXTS:
                for mode in ("cold", "warm") if run % 2 == 0 else ("warm", "cold"):
                    db = str(Path(folder) / f"{run}-{text}-{mode}.db")
                    out = subprocess.run([sys.executable, __file__, "--child", mode, text, db], check=True,
                                         capture_output=True, text=True).stdout
                    seen.setdefault((text, mode), []).append(json.loads(out.strip().splitlines()[-1]))
    report: dict[str, object] = {}
    for text in TEXTS:
        cold, warm = (statistics.median(r["seconds"] for r in seen[text, mode]) for mode in ("cold", "warm"))
        report[text] = {"cold_s": round(cold, 4), "warm_s": round(warm, 4), "cold_over_warm": round(cold / warm, 1),
                        "refused": [r["refused"] for r in seen[text, "cold"] + seen[text, "warm"]]}
    warmed = [r for text in TEXTS for r in seen[text, "warm"]]
    longest = max(warmed, key=lambda r: r["longest_step"])
    report["warm_up"] = {"steps": warmed[0]["steps"], "longest_step_s": round(longest["longest_step"], 3),
                         "longest_step": longest["longest_step_name"],
                         "sum_s_median": round(statistics.median(r["warm_up"] for r in warmed), 3)}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
