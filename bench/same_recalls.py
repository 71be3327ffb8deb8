"""Whether a change leaves recall's results as they were: the same questions recalled on two copies
of one store, by an older checkout's code and by this one's, every hit compared.

Usage: python bench/same_recalls.py STORE --base DIR [--queries 300] [--locomo DIR]

STORE is a store built by ``bench/scale.py`` (tenant "bench", scope "s"); each side recalls on a
fresh copy of it (opening may write). ``--base`` is a checkout of the older code (e.g.
``git worktree add /tmp/base <commit>``), imported by path in a subprocess. The questions: ``--queries``
LoCoMo questions (seed 7, as ``bench/recall_profile.py``), limit 5, then each again asking for the
present ("... now?", "What is the current ...", limit 10: every top hit judged for being outdated).
Compared per hit: id, score and signals (floats to 1e-9), confidence, ``outdated_by``; per recall:
abstained and degraded. Prints the counts compared and every difference; exits 1 on any.
Made for issue "Fast where the agent waits" (ranking's reads batched, results unchanged).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
LOCOMO = BENCH.parent.parent / "shared" / "eval" / "locomo"
NOW = 1_800_000_000_000  # one clock for both sides (strength decays with it)


def recall_all(store: Path, questions: list[tuple[str, int]]) -> list[dict[str, object]]:
    """Every recall of ``questions`` on ``store`` by the memvault this process imports."""
    from memvault.storage.embeddings import Embedder
    from memvault.storage.store import Store

    embedder = Embedder()
    embedder.load()
    s = Store(store, embedder, clock=lambda: NOW, upkeep=False)
    out = []
    for question, limit in questions:
        o = s.recall(tenant="bench", query=question, scopes=["s"], limit=limit)
        out.append({"q": question, "abstained": o.abstained, "degraded": o.degraded, "hits": [
            {"id": h.memory.id, "score": h.score, "confidence": h.confidence, "outdated_by": h.outdated_by,
             "signals": [h.signals.keyword_rank, h.signals.keyword_score, h.signals.vector_rank,
                         h.signals.vector_similarity, h.signals.coverage, h.signals.through]} for h in o.hits]})
    s.close()
    return out


def side_command(code: Path | None, work: Path, script: str, *args: str) -> list[str]:
    """The command running ``script`` with ``args`` on the memvault of the checkout ``code`` (None: this
    one's), imported by path from a package made in ``work``."""
    env_path = [""]
    if code is not None:  # the older code first on the path, as the package memvault
        package = work / "memvault"
        package.mkdir(parents=True)
        (package / "__init__.py").touch()
        for part in ("storage", "server", "tools"):
            (package / part).symlink_to(code.resolve() / part)
        env_path = [str(package.parent)]
    return [sys.executable, "-c", "import runpy, sys; sys.path[:0] = sys.argv[1:2]; sys.argv = sys.argv[2:];"
            " runpy.run_path(sys.argv[0], run_name='__main__')", *env_path, script, *args]


def alike(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=0.0, abs_tol=1e-9)
    return a == b


def differences(old: list[dict], new: list[dict]) -> tuple[int, list[str]]:
    """(hits compared, a line per difference)."""
    hits, found = 0, []
    for a, b in zip(old, new, strict=True):
        if [(r["q"], r["abstained"], r["degraded"], len(r["hits"])) for r in (a, b)].count(
                (a["q"], a["abstained"], a["degraded"], len(a["hits"]))) != 2:
            found.append(f"recall differs: {a['q']!r}")
            continue
        for x, y in zip(a["hits"], b["hits"], strict=True):
            hits += 1
            if not all(alike(x[k], y[k]) for k in ("id", "score", "confidence", "outdated_by")) \
                    or not all(alike(u, v) for u, v in zip(x["signals"], y["signals"], strict=True)):
                found.append(f"hit differs for {a['q']!r}: {x} / {y}")
    return hits, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("store", type=Path)
    parser.add_argument("--base", type=Path, help="a checkout of the older code")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--locomo", type=Path, default=LOCOMO)
    parser.add_argument("--side", help=argparse.SUPPRESS)  # internal: one side's recalls, as JSON to stdout
    args = parser.parse_args()
    if args.side:
        questions = json.loads(Path(args.side).read_text())
        recalls = recall_all(args.store, [tuple(q) for q in questions])
        import memvault.storage

        print(json.dumps({"code": str(Path(memvault.storage.__file__).resolve().parent), "recalls": recalls}))
        return
    sys.path.insert(0, str(BENCH))
    from locomo_data import load

    _, queries = load(args.locomo)
    asked = random.Random(7).sample([q.question for q in queries], args.queries)
    half = len(asked) // 2
    questions = [(q, 5) for q in asked] + [(q.rstrip("?") + " now?", 10) for q in asked[:half]] \
        + [("What is the current " + q.split(" ", 2)[-1], 10) for q in asked[half:]]
    with tempfile.TemporaryDirectory() as work:
        listed = Path(work) / "questions.json"
        listed.write_text(json.dumps(questions))
        sides = []
        for name, code in (("base", args.base), ("this", None)):
            copy = Path(work) / f"{name}.db"
            shutil.copy(args.store, copy)
            run = subprocess.run(side_command(code, Path(work) / name, __file__, str(copy), "--side", str(listed)),
                                 capture_output=True, text=True, check=True)
            side = json.loads(run.stdout)
            print(f"{name}: {side['code']}")
            sides.append(side["recalls"])
    hits, found = differences(*sides)
    outdated = sum(h["outdated_by"] is not None for r in sides[0] for h in r["hits"])
    for line in found:
        print(line)
    print(f"recalls {len(questions)}, hits compared {hits} (outdated {outdated}), differences {len(found)}")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
