"""Node.js command-line tools for the tests, found through npx once per test process."""

from __future__ import annotations

import functools
import subprocess


@functools.cache
def npx_command(package: str, command: str) -> str:
    """The path of ``command`` from ``package`` (``name@version``), the program that
    ``npx -y package`` runs; npx fetches the package into its cache when it lacks it.
    Running that path saves npx's look-up of the package (~5 s each time on this machine).

    Raises:
        subprocess.CalledProcessError: npx could not fetch the package.
    """
    done = subprocess.run(["npx", "-y", "-p", package, "-c", f"command -v {command}"],
                          capture_output=True, text=True, timeout=300, check=True)
    return done.stdout.strip().splitlines()[-1]
