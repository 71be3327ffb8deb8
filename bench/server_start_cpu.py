"""CPU of one ``memvault serve`` over stdio as the test suite's servers live, with and without the credential
check's warm-up (``secret_warm.steps``), as a ratio within one run.

Each trial is a new process on a new database: ``initialize``, ``tools/list``, one ``recall`` (which opens the
store and starts its warm-up), then ``--idle`` seconds of nothing, then stdin closed; the CPU counted is the
process's user + system time (``RUSAGE_CHILDREN``), its threads included. Mode ``shipped`` is ``python -m
memvault.server serve``; mode ``cold`` the same with ``secret_warm.steps`` yielding nothing, as
``tests/conftest.py``'s ``SERVE`` runs it. Modes alternate.

    python bench/server_start_cpu.py --idle 0,2,5 --runs 5

Prints, per idle time, each mode's median CPU seconds and cold / shipped.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

COLD = ("from memvault.storage import secret_warm; secret_warm.steps = lambda: iter(()); "
        "from memvault.server.cli import main; raise SystemExit(main())")
MODES = {"shipped": [sys.executable, "-m", "memvault.server", "serve"], "cold": [sys.executable, "-c", COLD, "serve"]}


def one(command: list[str], idle_s: float) -> float:
    """CPU seconds of one server's life (see the module's docstring)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMVAULT_")}
    env["MEMVAULT_DB"] = os.path.join(tempfile.mkdtemp(), "m.db")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.Popen(command, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    assert proc.stdin is not None and proc.stdout is not None

    def send(message: dict) -> None:
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")  # type: ignore[union-attr]
        proc.stdin.flush()  # type: ignore[union-attr]

    def request(number: int, method: str, params: dict | None = None) -> None:
        send({"id": number, "method": method, **({"params": params} if params else {})})
        while json.loads(proc.stdout.readline()).get("id") != number:  # type: ignore[union-attr]
            pass

    request(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                              "clientInfo": {"name": "bench", "version": "0"}})
    send({"method": "notifications/initialized"})
    request(2, "tools/list")
    request(3, "tools/call", {"name": "recall", "arguments": {"query": "what port does the api use?"}})
    time.sleep(idle_s)
    proc.stdin.close()
    proc.wait()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle", default="0,2,5", help="seconds of nothing before stdin closes, comma-separated")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    for idle_s in (float(x) for x in args.idle.split(",")):
        seen: dict[str, list[float]] = {mode: [] for mode in MODES}
        for _ in range(args.runs):
            for mode, command in MODES.items():
                seen[mode].append(one(command, idle_s))
        medians = {mode: statistics.median(values) for mode, values in seen.items()}
        print(json.dumps({"idle_s": idle_s, **{f"{m}_cpu_s": round(v, 2) for m, v in medians.items()},
                          "cold_over_shipped": round(medians["cold"] / medians["shipped"], 2)}))


if __name__ == "__main__":
    main()
