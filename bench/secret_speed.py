"""The credential check's CPU time per character on ordinary text, this tree's against another commit's in one run.

Usage: ``python bench/secret_speed.py EVAL_FOLDER... [--before COMMIT] [--runs 5]``

Texts: every memory, tag and question of the evaluation folders (as ``bench/secret_false_positives.py`` reads
them: short texts, as ``remember`` gets them), and notes of 2, 4 and 8 KB made of those memories in order (one
blank line between two). Each tree runs in its own process, warmed up first (``secret_warm.steps``: every pattern
compiled, as a server's worker does), then ``secrets.find_secrets`` over each set (``remember``'s check) and
``secrets.redact`` over every 4th evaluation text (what boot, the web pages and the hooks do to what they show or
keep), timed in CPU seconds, the best of ``--runs``; the trees alternate run by run. Prints µs per character for
each set and tree, and this tree's over the other's.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

NOTE_SIZES = (2048, 4096, 8192)


def _notes(texts: list[str]) -> list[str]:
    """Notes of ``NOTE_SIZES`` in turn, each of whole memories of ``texts`` (80 characters or more) in order."""
    notes, note = [], ""
    for text in texts:
        if len(text) < 80:
            continue
        note += ("\n\n" if note else "") + text
        if len(note) >= NOTE_SIZES[len(notes) % len(NOTE_SIZES)]:
            notes.append(note)
            note = ""
    return notes


def _worker(tree: str, texts_file: str, runs: int) -> None:
    """Time ``tree``'s check (its memvault imported by path; "" for this one) and print ``{set: seconds}``."""
    if tree:
        folder = tempfile.mkdtemp()
        package = Path(folder, "memvault")
        package.mkdir()
        for part in ("storage", "server", "tools"):
            (package / part).symlink_to(Path(tree, part))
        sys.path.insert(0, folder)
    from memvault.storage.secret_warm import steps
    from memvault.storage.secrets import find_secrets, redact

    for _ in steps():
        pass
    sets = json.loads(Path(texts_file).read_text(encoding="utf-8"))
    best = {}
    for name, texts in sets.items():
        redacted = name.startswith("redacted")
        times = []
        for _ in range(runs):
            start = time.process_time()
            _ = [redact(text) for text in texts] if redacted else find_secrets(*texts)
            times.append(time.process_time() - start)
        best[name] = min(times)
    print(json.dumps(best))


def _export(commit: str, into: Path) -> Path:
    """``commit``'s tree (``git archive``) in ``into``."""
    repository = Path(__file__).resolve().parent.parent
    archive = subprocess.run(["git", "-C", str(repository), "archive", commit], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+")
    parser.add_argument("--before", metavar="COMMIT", help="also time this commit's check, alternating")
    parser.add_argument("--runs", type=int, default=5, help="timings of each set in each tree (the best is kept)")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).parent))
    from secret_false_positives import texts

    short = [text for folder in args.folders for _, text in texts(Path(folder))]
    sets = {"evaluation texts": short, "notes of 2-8 KB": _notes(short),
            "redacted: every 4th evaluation text": short[::4]}
    with tempfile.TemporaryDirectory() as folder:
        texts_file = Path(folder, "texts.json")
        texts_file.write_text(json.dumps(sets), encoding="utf-8")
        trees = {"this": ""} | ({args.before: str(_export(args.before, Path(folder)))} if args.before else {})
        best: dict[str, dict[str, float]] = {name: {} for name in trees}
        for _ in range(2):  # each tree twice, alternating: the machine's load touches both alike
            for name, tree in trees.items():
                out = subprocess.run([sys.executable, __file__, "--worker", tree, str(texts_file), str(args.runs)],
                                     capture_output=True, text=True, check=True).stdout
                for key, seconds in json.loads(out.splitlines()[-1]).items():
                    best[name][key] = min(seconds, best[name].get(key, seconds))
    for key, texts_of in sets.items():
        chars = sum(map(len, texts_of))
        line = f"{key}: {len(texts_of):,} texts, {chars:,} characters;"
        for name in trees:
            line += f" {name} {best[name][key] / chars * 1e6:.2f} µs/char;"
        if args.before:
            line += f" this / {args.before} {best['this'][key] / best[args.before][key]:.2f}"
        print(line)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        _worker(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        main()
