"""Wall time of each Claude Code hook (``memvault hook claude-code EVENT``, a new process each time, as
Claude Code runs it) over a 10,000-memory store, against a bare ``python -c pass`` measured in the same
run (issue 26's targets: SessionStart <= 0.4 s above it, capture <= 0.25 s, UserPromptSubmit <= 1.0 s).

Usage: python bench/hooks.py [--size 10000] [--runs 7] [--work DIR] [--locomo DIR] [--importtime]
                             [--before COMMIT] [--prompt TEXT] [--db FILE]

The store is ``bench/scale.py``'s (its builder: LoCoMo turns with varied suffixes, real vectors plus a
small perturbation; tenant "bench", scope "s"), or ``--db``'s (tenant and scope "default": a user's store,
e.g. one whose session digests hold redaction markers), copied so that the hooks' sessions never change the
original. Runs alternate between the bare interpreter and each hook; each figure is the median of
``--runs``. Capture hooks each find two new transcript entries (a tool call and its result), as after a
tool runs; SessionEnd also writes the digest. ``--importtime`` prints each hook's heaviest imports
(``python -X importtime``, cumulative). ``--before COMMIT`` also runs that commit's memvault (``git archive``
of this repository, imported through ``PYTHONPATH`` by the same interpreter and packages), each hook
alternating with this tree's on its own copy of the store, and prints its wall and CPU time above bare
beside, and this tree's wall and CPU time as a ratio of that commit's (whole processes, same run).

memvault's modules are byte-compiled first (``__pycache__`` beside them), as ``pip install`` leaves
them: without it, a shell with ``PYTHONDONTWRITEBYTECODE=1`` runs an editable install's modules from
source, some 60 compiled again in every hook, 0.06-0.1 s that no installed memvault pays.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

SESSION = "5d0c7a51-2f3e-4b8a-9c1d-0e6f7a8b9c01"
EVENTS = ("SessionStart", "UserPromptSubmit", "PostToolUse", "Stop", "PreCompact", "SessionEnd")
TARGETS_S = {"SessionStart": 0.4, "UserPromptSubmit": 1.0, "PostToolUse": 0.25, "Stop": 0.25,
             "PreCompact": 0.25, "SessionEnd": 0.25}
# The shared evaluation data beside the project, or beside the folder of worktrees (as tests/conftest.py).
LOCOMO = next((p / "shared" / "eval" / "locomo" for p in Path(__file__).resolve().parents
               if (p / "shared" / "eval" / "locomo").is_dir()), Path("shared/eval/locomo"))
PROMPT = "What did Caroline say about the adoption agency she was looking into?"


def store(size: int, work: Path, locomo: Path) -> Path:
    """bench/scale.py's store of ``size`` memories (built once in ``work``), from LoCoMo in ``locomo``."""
    import re

    import numpy as np
    from scale import PerturbedEmbedder, build, suffixed

    from locomo_data import load
    from memvault.storage.embeddings import INTEGER, VARIANT_NAMES, Embedder

    work.mkdir(parents=True, exist_ok=True)
    path = work / f"scale-{size}-{INTEGER}.db"
    if path.exists():
        return path
    by_conversation, _ = load(locomo)
    turns = [t.text for ts in by_conversation.values() for t in ts]
    real = Embedder()
    real.follow(f"{VARIANT_NAMES[INTEGER]}@")
    real.load()
    cache = work / f"turns-{re.sub(r'[^A-Za-z0-9]', '_', str(real.model_id))}.npy"
    if not cache.exists():
        np.save(cache, real.embed(turns))
    built = build(path, suffixed(turns, size), PerturbedEmbedder(real, np.load(cache)))
    path.with_suffix(".build.json").write_text(json.dumps(built))
    return path


def entries(n: int) -> list[str]:
    """Transcript lines ``2n`` and ``2n + 1``: a Bash call and its result, in Claude Code's format."""
    base = {"sessionId": SESSION, "cwd": "/home/dev/shop", "isSidechain": False, "userType": "external"}
    call = {**base, "type": "assistant", "uuid": f"call-{n}", "timestamp": "2026-12-01T10:00:00.000Z",
            "message": {"role": "assistant", "content": [
                {"type": "tool_use", "id": f"toolu_{n}", "name": "Bash",
                 "input": {"command": f"pytest -q tests/test_{n}.py"}}]}}
    result = {**base, "type": "user", "uuid": f"result-{n}", "timestamp": "2026-12-01T10:00:01.000Z",
              "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"toolu_{n}",
                                                       "content": f"{n} passed in 0.4s"}]}}
    return [json.dumps(call) + "\n", json.dumps(result) + "\n"]


def timed(argv: list[str], stdin: str, env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds of the process, and its CPU seconds (user + system: less sensitive to other load)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, input=stdin, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{argv} failed: {done.stderr}")
    return seconds, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def compiled() -> None:
    """memvault's modules byte-compiled, as an install leaves them."""
    import memvault.server
    import memvault.storage
    import memvault.tools

    for package in (memvault.server, memvault.storage, memvault.tools):
        for folder in package.__path__:
            compileall.compile_dir(folder, quiet=1)


def before_tree(commit: str, into: Path) -> Path:
    """A folder to put on ``PYTHONPATH`` that imports ``commit``'s memvault (byte-compiled)."""
    source, package = into / "source", into / "package" / "memvault"
    source.mkdir(parents=True)
    package.mkdir(parents=True)
    repository = Path(__file__).resolve().parent.parent
    archive = subprocess.run(["git", "-C", str(repository), "archive", commit], capture_output=True,
                             check=True)
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive.stdout, check=True)
    for name in ("server", "storage", "tools"):
        (package / name).symlink_to(source / name)
        compileall.compile_dir(source / name, quiet=1)
    return package.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "memvault-scale")
    parser.add_argument("--importtime", action="store_true")
    parser.add_argument("--locomo", type=Path, default=LOCOMO)
    parser.add_argument("--before", metavar="COMMIT", help="also run this commit's hooks, alternating")
    parser.add_argument("--prompt", default=PROMPT, help="UserPromptSubmit's prompt (default: a LoCoMo question)")
    parser.add_argument("--db", type=Path, help="a store to copy instead of bench/scale.py's (tenant default)")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    original = args.db or store(args.size, args.work, args.locomo)
    names = ["--tenant", "default", "--scope", "default"] if args.db else ["--tenant", "bench", "--scope", "s"]
    run_dir = Path(tempfile.mkdtemp(prefix="memvault-hooks-"))
    compiled()
    trees = {"this": run_dir / "this"} | ({"before": run_dir / "before"} if args.before else {})
    envs, dbs = {}, {}
    for name, folder in trees.items():
        folder.mkdir()
        dbs[name] = folder / "m.db"
        shutil.copy(original, dbs[name])
        (folder / f"{SESSION}.jsonl").write_text("", encoding="utf-8")
        envs[name] = {**{k: v for k, v in os.environ.items() if not k.startswith("MEMVAULT_")},
                      "XDG_STATE_HOME": str(folder / "state")}
    if args.before:
        envs["before"]["PYTHONPATH"] = str(before_tree(args.before, run_dir / "before-code"))
    env, db, transcript = envs["this"], dbs["this"], trees["this"] / f"{SESSION}.jsonl"
    hook = [sys.executable, "-m", "memvault.server", "hook", "claude-code"]
    flags = ["--db", str(db), *names]
    load_start = os.getloadavg()[0]
    bare: list[tuple[float, float]] = []
    times: dict[tuple[str, str], list[tuple[float, float]]] = {(t, e): [] for t in trees for e in EVENTS}
    written = 0
    for _ in range(args.runs):
        for event in EVENTS:
            for name, folder in trees.items():
                bare.append(timed([sys.executable, "-c", "pass"], "", envs[name]))
                payload = {"session_id": SESSION, "transcript_path": str(folder / f"{SESSION}.jsonl"),
                           "cwd": "/home/dev/shop", "hook_event_name": event, "prompt": args.prompt,
                           "source": "startup"}
                if event not in ("SessionStart", "UserPromptSubmit"):
                    with (folder / f"{SESSION}.jsonl").open("a", encoding="utf-8") as fh:
                        fh.writelines(entries(written))
                argv = [*hook, event, "--db", str(dbs[name]), *names]
                times[name, event].append(timed(argv, json.dumps(payload), envs[name]))
            written += event not in ("SessionStart", "UserPromptSubmit")
    base = [statistics.median(b[i] for b in bare) for i in (0, 1)]
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
          f"Python {platform.python_version()}, load average {load_start:.2f} at the start, "
          f"{os.getloadavg()[0]:.2f} at the end; {args.db or f'{args.size:,} memories'}; median of {args.runs} runs")
    print(f"bare `python -c pass`: {base[0]:.3f} s wall, {base[1]:.3f} s CPU\n")
    before = (f" | {args.before}'s wall above bare, s | {args.before}'s CPU above bare, s | wall this / "
              f"{args.before} | CPU this / {args.before}") if args.before else ""
    print(f"| hook | wall s | wall above bare, s | CPU s | CPU above bare, s{before} | "
          "target above bare, s |")
    print("|---|---|---|---|---|---|" + ("---|" * 4 if args.before else ""))
    for event in EVENTS:
        wall, cpu = (statistics.median(t[i] for t in times["this", event]) for i in (0, 1))
        mark = "" if wall - base[0] <= TARGETS_S[event] else " (over)"
        then = ""
        if args.before:  # the ratios are of the whole process's figures, as the user waits for them
            old_wall, old_cpu = (statistics.median(t[i] for t in times["before", event]) for i in (0, 1))
            then = (f" | {old_wall - base[0]:.3f} | {old_cpu - base[1]:.3f} | {wall / old_wall:.2f} | "
                    f"{cpu / old_cpu:.2f}")
        print(f"| {event} | {wall:.3f} | {wall - base[0]:.3f}{mark} | {cpu:.3f} | "
              f"{cpu - base[1]:.3f}{then} | {TARGETS_S[event]} |")
    if args.importtime:
        for event in ("SessionStart", "UserPromptSubmit", "PostToolUse"):
            payload = {"session_id": SESSION, "transcript_path": str(transcript), "hook_event_name": event,
                       "prompt": args.prompt}
            done = subprocess.run([sys.executable, "-X", "importtime", *hook[1:], event, *flags],
                                  input=json.dumps(payload), env=env, capture_output=True, text=True)
            rows = [line.split("|") for line in done.stderr.splitlines() if line.startswith("import time:")]
            top = sorted(((int(r[1]), r[2].strip()) for r in rows if r[1].strip().isdigit()), reverse=True)
            print(f"\n{event}: heaviest imports (cumulative µs): "
                  + ", ".join(f"{name.strip()} {us:,}" for us, name in top[:12]))
    shutil.rmtree(run_dir)


if __name__ == "__main__":
    main()
