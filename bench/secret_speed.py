"""The credential check's CPU time per character on ordinary text, this tree's against another commit's in one run.

Usage: ``python bench/secret_speed.py EVAL_FOLDER... [--before COMMIT] [--runs 5]``

Texts: every memory, tag and question of the evaluation folders (as ``bench/secret_false_positives.py`` reads
them: short texts, as ``remember`` gets them), and notes of 2, 4 and 8 KB made of those memories in order (one
blank line between two). Each tree runs in its own process, warmed up first (``secret_warm.steps``: every pattern
compiled, as a server's worker does), then ``secrets.find_secrets`` over each set (``remember``'s check) and
``secrets.redact`` over every 4th evaluation text (what boot, the web pages and the hooks do to what they show or
keep), timed in CPU seconds, the best of ``--runs``; the trees alternate run by run. Prints µs per character for
each set and tree, and this tree's over the other's.

``--shapes``: instead, 256 KiB of each of ``SHAPES`` (the slow shapes of issue 25 §1.1, ``tests/test_secret_scan.py``
and ``tests/test_secret_gil.py``, which asserts what each call is handed, not its time), after a 16 KiB scan of the
same shape (what a server's worker has compiled by then): the scan's CPU time and the longest a thread that sleeps
1 ms in a loop waited to wake meanwhile (the GIL held), each as a ratio to the same for 256 KiB of the evaluation
texts' notes, scanned in the same run. Each tree in its own process, the best of ``--runs`` (each run a text of its
own).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

NOTE_SIZES = (2048, 4096, 8192)
SIZE = 256 * 1024
SHAPES = ["_PASS", "password=", "Passwort ist ", "PASSWORD", "A_", "x", "password is ", "TOKEN_", "a1", "aws=",
          "contraseña", "AKIAQYLPMN5HFIQR7BZX\n", "password: Zq81kk\n", "K", "/", "eyJ", "密码：\n", "a  ",
          "pass word ", "**Password:** ", "<b>x</b> ", "[x]: ", "## x\n", "\u0301\u0323\u0308",
          # the scripts, compatibility forms and marks of tests/test_secret_gil.py, and Arabic ligatures that NFKC
          # writes in up to 18 characters each (U+FDFA), alone and beside the marks' characters
          "我们今天讨论了新的部署流程，数据库的主机在维基里。", "今日の会議でデプロイ手順ｶﾀｶﾅについて話し合いました。",
          "오늘 회의에서 새로운 배포 절차에 대해 논의했습니다.", "วันนี้เราได้หารือเกี่ยวกับขั้นตอน", "ناقشنا اليوم عملية النشر الجديدة.",
          "\ufefb\ufdfa\ufe8d", "आज की बैठक में हमने क़ ख़ चर्चा की।", "🎉👍🏽👨‍👩‍👧‍👦🇵🇹 ", "a\u0301\u0323\u0308\u0300", "ｐａｓｓｗｏｒｄ ＡＢＣ１２３ ",
          "\ufb01\ufb02\u2163\u3392\u32ff", "\ufdfa", "\ufdfa: ", "\ufdfa<b>[x]: \"k\": #"]


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
    _import(tree)
    from memvault.storage.secrets import find_secrets, redact

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


def _held(scan: Any) -> tuple[float, float]:
    """``(CPU seconds of scan() on its thread, the worst delay in waking of a thread sleeping 1 ms in a loop
    meanwhile)``."""
    worst, done = [0.0], threading.Event()

    def sleeper() -> None:
        while not done.is_set():
            start = time.perf_counter()
            time.sleep(0.001)
            worst[0] = max(worst[0], time.perf_counter() - start - 0.001)

    thread = threading.Thread(target=sleeper)
    thread.start()
    time.sleep(0.01)
    worst[0] = 0.0
    start = time.thread_time()
    scan()
    took = time.thread_time() - start
    done.set()
    thread.join()
    return took, worst[0]


def _shapes_worker(tree: str, note_file: str, runs: int) -> None:
    """Time ``tree``'s check on 256 KiB of each shape and of the note; print ``{name: [seconds, worst hold]}``."""
    _import(tree)
    from memvault.storage.secrets import find_secrets

    note = Path(note_file).read_text(encoding="utf-8")
    texts = {"(evaluation note)": note} | {shape: (shape * (SIZE // len(shape) + 1))[:SIZE] for shape in SHAPES}
    best: dict[str, list[float]] = {}
    for name, text in texts.items():
        find_secrets(text[:SIZE // 16])
        for run in range(runs):  # each run a text of its own: the check keeps a few texts' readings
            took, held = _held(lambda: find_secrets(text[:SIZE - 1 - run]))
            best[name] = [min(took, best.get(name, [took])[0]), min(held, best.get(name, [0, held])[1])]
    print(json.dumps(best))


def _import(tree: str) -> None:
    """Make ``tree``'s memvault the one imported ("" for this one), and compile every pattern."""
    if tree:
        folder = tempfile.mkdtemp()
        package = Path(folder, "memvault")
        package.mkdir()
        for part in ("storage", "server", "tools"):
            (package / part).symlink_to(Path(tree, part))
        sys.path.insert(0, folder)
    from memvault.storage.secret_warm import steps

    for _ in steps():
        pass


def _shapes(note: str, trees: dict[str, str], runs: int, folder: str) -> None:
    """``--shapes``: print each shape's time over the note's, and its worst hold over its own time, per tree."""
    note_file = Path(folder, "note.txt")
    note_file.write_text(note, encoding="utf-8")
    best: dict[str, dict[str, list[float]]] = {}
    for name, tree in trees.items():
        out = subprocess.run([sys.executable, __file__, "--shapes-worker", tree, str(note_file), str(runs)],
                             capture_output=True, text=True, check=True).stdout
        best[name] = json.loads(out.splitlines()[-1])
    for shape in best["this"]:
        line = f"{shape!r:26}"
        for name in trees:
            (took, held), (base, _) = best[name][shape], best[name]["(evaluation note)"]
            base_held = best[name]["(evaluation note)"][1]
            line += f" {name}: time {took / base:4.2f}x, worst hold {held / base_held:5.1f}x the note's;"
        print(line)
    for name in trees:
        base, held = best[name]["(evaluation note)"]
        print(f"{name}: the 256 KiB note took {base:.3f} s of CPU, worst hold {held * 1000:.0f} ms")


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
    parser.add_argument("--shapes", action="store_true", help="256 KiB of each slow shape: time and worst GIL hold")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).parent))
    from secret_false_positives import texts

    short = [text for folder in args.folders for _, text in texts(Path(folder))]
    if args.shapes:
        note = "\n\n".join(short)
        with tempfile.TemporaryDirectory() as folder:
            trees = {"this": ""} | ({args.before: str(_export(args.before, Path(folder)))} if args.before else {})
            _shapes((note * (SIZE // len(note) + 1))[:SIZE], trees, args.runs, folder)
        return
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
    elif sys.argv[1:2] == ["--shapes-worker"]:
        _shapes_worker(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        main()
