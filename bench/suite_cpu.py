"""CPU time of the test suite by file: a pytest plugin and its summary.

``--durations`` reports wall time, which on a loaded machine (xdist workers sharing two cores, other
jobs) is mostly waiting; this counts CPU seconds: the process's own (all threads) plus the
subprocesses it waited for (servers, hooks, the CLI). PostgreSQL's server processes are not counted.

    PYTHONPATH=bench SUITE_CPU=/tmp/cpu pytest -p suite_cpu tests/...   # one JSON file per xdist worker
    python bench/suite_cpu.py /tmp/cpu*.json                            # seconds per file, largest first
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections import Counter

import pytest

_SPENT: dict[str, float] = {}


def _cpu() -> float:
    """Seconds of CPU of this process and of its waited-for children."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):  # type: ignore[no-untyped-def]
    start = _cpu()
    yield
    _SPENT[item.nodeid] = _cpu() - start


def pytest_sessionfinish(session) -> None:  # type: ignore[no-untyped-def]
    out = os.environ.get("SUITE_CPU")
    if out and _SPENT:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        with open(f"{out}-{worker}.json", "w", encoding="utf-8") as f:
            json.dump({"process_s": _cpu(), "tests": _SPENT}, f)


def main(paths: list[str]) -> None:
    by_file: Counter[str] = Counter()
    tests = total = 0.0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        total += data["process_s"]
        for nodeid, seconds in data["tests"].items():
            by_file[nodeid.split("::")[0]] += seconds
            tests += seconds
    print(f"{total:.0f} s CPU in the processes, {tests:.0f} s in tests, {total - tests:.0f} s outside them (collection, session set-up)")
    for name, seconds in by_file.most_common():
        print(f"{seconds:8.1f}  {name}")


if __name__ == "__main__":
    main(sys.argv[1:])
