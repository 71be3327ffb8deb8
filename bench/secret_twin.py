"""Whether the credential check could take one path: ``secret_re2.matches`` runs a large pattern's capture-free
twin only after ``TWIN_AFTER`` matches in a long text; here the twin runs always, the capturing pattern anchored on
each span it finds (groups read once per shape, as ``matches`` does), for every pattern or for large ones only.

Usage: ``python bench/secret_twin.py EVAL_FOLDER...`` (e.g. ``../shared/eval/agentic ../shared/eval/locomo``).
Prints, in one process: the first check's CPU time and what compiling every twin adds to it; CPU per text of
1,000 short memories (the evaluation folders' memories of 50-500 characters) and of 800 of
``tests/test_secret*.py``'s strings, and on repeated shapes at 4 and 32 KiB, each way as a ratio to the current
one (the least of three interleaved runs).
"""
import ast
import json
import random
import sys
import time
from pathlib import Path

from memvault.storage import secret_re2
from memvault.storage.secrets import detectors, find_secrets

ROOT = Path(__file__).resolve().parent.parent
SHAPES = ("code_pw_proc3q\n", "lozinka\n", "secret\n", "aadgangskode:", "AccountKey:", "pwd='", "password=")
current = secret_re2.matches


class _Named(secret_re2._Moved):
    __slots__ = ()

    def group(self, group=0):  # type: ignore[no-untyped-def]
        return super().group(self.re.groupindex[group] if isinstance(group, str) else group)


def twin_always(pattern, encoded):  # type: ignore[no-untyped-def]
    known = {}
    for span in secret_re2.twin(pattern).finditer(encoded):
        start, end = span.span()
        key = (encoded[start - 1:start] if start else b"", encoded[start:end], encoded[end:end + 1])
        if key not in known:
            match = pattern.match(encoded, start, end)
            known[key] = (match.lastindex, tuple(
                (-1, -1) if match.start(g) < 0 else (match.start(g) - start, match.end(g) - start)
                for g in range(pattern.groups + 1)))
        yield _Named(pattern, encoded, start, *known[key])


def twin_if_large(pattern, encoded):  # type: ignore[no-untyped-def]
    return pattern.finditer(encoded) if pattern.programsize < secret_re2.LARGE_PROGRAM else twin_always(pattern, encoded)


WAYS = {"current": current, "twin always": twin_always, "twin always, large programs": twin_if_large}


def cpu(texts: list[str], way, reps: int) -> float:  # type: ignore[no-untyped-def]
    secret_re2.matches = way
    start = time.thread_time()
    for _ in range(reps):
        for text in texts:
            find_secrets(text)
            secret_re2.utf8.cache_clear()
    secret_re2.matches = current
    return time.thread_time() - start


def compare(name: str, texts: list[str], reps: int) -> None:
    runs: dict[str, list[float]] = {way: [] for way in WAYS}
    for _ in range(3):
        for way, fn in WAYS.items():
            runs[way].append(cpu(texts, fn, reps))
    base = min(runs["current"])
    print(f"{name}: current {base / reps / len(texts) * 1e6:.0f} us/text; " + "; ".join(
        f"{way} x{min(times) / base:.3f}" for way, times in runs.items() if way != "current"))


def main() -> None:
    start = time.thread_time()
    find_secrets("Deploy moved to Friday; the staging password is in the vault.")
    first = time.thread_time() - start
    start = time.thread_time()
    for detector in detectors():
        for pattern in getattr(detector, "denylist", []):
            secret_re2.twin(pattern)
    print(f"first check {first:.2f} s CPU; compiling every twin adds {time.thread_time() - start:.2f} s")
    rng = random.Random(7)
    short = [json.loads(line)["text"] for folder in sys.argv[1:] for line in Path(folder, "memories.jsonl").open()]
    short = rng.sample([t for t in short if 50 <= len(t) <= 500], 1000)
    strings = [node.value for path in sorted((ROOT / "tests").glob("test_secret*.py"))
               for node in ast.walk(ast.parse(path.read_text()))
               if isinstance(node, ast.Constant) and isinstance(node.value, str) and 20 <= len(node.value) <= 500]
    compare(f"{len(short)} short memories", short, 2)
    compare("800 test strings", rng.sample(strings, 800), 2)
    for size in (4 * 1024, 32 * 1024):
        for unit in SHAPES:
            compare(f"{unit!r} at {size // 1024} KiB", [(unit * (size // len(unit) + 1))[:size]], 1)


if __name__ == "__main__":
    main()
