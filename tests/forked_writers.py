"""Writer processes to kill, forked from one process that did their imports once (a new interpreter's imports
cost more CPU than the writes it makes before its kill): each writer is still a process of its own, opening the
database itself, and is killed with SIGKILL as a whole process.

The writer script calls :func:`serve` with its ``write(seed)``; the test drives it with :class:`Writers`.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path


def serve(write: Callable[[int], object]) -> None:
    """For each seed read from stdin, fork a process running ``write(seed)`` (which prints ``ready PID`` once
    ready, then never returns), wait until it is gone (killed) and print ``gone``."""
    for line in sys.stdin:
        pid = os.fork()
        if pid == 0:
            try:
                write(int(line))
            finally:
                os._exit(1)
        os.waitpid(pid, 0)
        print("gone", flush=True)


class Writers:
    """``python SCRIPT DB`` (a script calling :func:`serve`), started once; its stderr is the test's."""

    def __init__(self, script: Path, db: Path) -> None:
        self.proc = subprocess.Popen([sys.executable, str(script), str(db)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, cwd=script.parent)
        self.pid = 0

    def start(self, seed: int) -> str:
        """Fork the writer of ``seed``; the first line it printed after ``ready``."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{seed}\n")
        self.proc.stdin.flush()
        ready = self.proc.stdout.readline()
        assert ready.startswith("ready "), ready
        self.pid = int(ready.split()[1])
        return self.proc.stdout.readline()

    def kill(self) -> str:
        """SIGKILL the writer; what it printed since :meth:`start` returned."""
        assert self.proc.stdout is not None
        os.kill(self.pid, signal.SIGKILL)
        self.pid = 0
        lines: list[str] = []
        while (line := self.proc.stdout.readline()) != "gone\n":
            assert line, f"the forking process ended: {lines[-5:]}"
            lines.append(line)
        return "".join(lines)

    def close(self) -> None:
        """Kill a writer still running (a test that failed), and end the forking process."""
        if self.pid:
            os.kill(self.pid, signal.SIGKILL)
        with self.proc:  # (closes its pipes, and waits for it)
            pass
