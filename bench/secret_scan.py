"""The credential check's CPU time on the slowest repeated shapes at 256 KiB (issue 25 §1.1's size),
as ratios against ordinary prose of the same size timed in the same run.

A shape is a word of a pattern with what can follow it, repeated (as in
``tests/test_secret_scan.py``, which asserts only that each grows linearly). Usage:
``python bench/secret_scan.py [--top 8]``; prints one line per shape: seconds at 16 KiB, at 256 KiB,
and the 256 KiB time over the prose's.
"""
import argparse
import re
import time

from memvault.storage.secrets import detectors, find_secrets

SIZE = 256 * 1024
PROSE = "I moved to Lisbon in March and started a new job at the bank near the river.\n"
SUFFIXES = ["", "-", "_", ":", "=", " ", ".", "a1", "/", "@", "=a1 ", "\n"]


def _text(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def _cpu(text: str) -> float:
    start = time.thread_time()
    find_secrets(text)
    return time.thread_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=8, help="shapes timed at 256 KiB (the slowest at 16 KiB)")
    top = parser.parse_args().top
    find_secrets("warm up")
    words = sorted({w for d in detectors() for p in d.denylist for w in re.findall(r"[A-Za-z0-9_]{2,}", p.pattern)})
    units = [word + SUFFIXES[i % len(SUFFIXES)] for i, word in enumerate(words)]
    small = {unit: _cpu(_text(unit, SIZE // 16)) for unit in units}
    prose = min(_cpu(_text(PROSE, SIZE)) for _ in range(2))
    print(f"{len(units)} shapes; prose at 256 KiB: {prose:.3f} s")
    for unit in sorted(units, key=small.get, reverse=True)[:top]:
        large = _cpu(_text(unit, SIZE))
        print(f"{unit!r:32} {small[unit]:.3f} s  {large:.3f} s  x{large / prose:.1f}")


if __name__ == "__main__":
    main()
