"""The `memvault ui` app served on a loopback port in a thread, and headless Chromium from the OS.

The browser is the operating system's (``/usr/bin/chromium``), driven by Playwright through its
``executable_path``: nothing is downloaded. Without it the UI tests skip, except under ``CI=true``,
where they fail (``.ci/run`` installs it).
"""

from __future__ import annotations

import os
import secrets
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from memvault.server.config import Config
from memvault.server.http import listen_socket
from memvault.server.runtime import Runtime
from memvault.server.web import origins, running
from memvault.server.web import server as served_by
from memvault.server.web.app import build
from memvault.storage.store import Store
from memvault.tools.caller import Caller

CHROMIUM = os.environ.get("MEMVAULT_CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parent.parent / "docs" / "ui"
CALLER = Caller(tenant="default", scope="default")


def chromium() -> str:
    """The OS's Chromium, or a skip (a failure under CI=true) saying how to install it."""
    why = None
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        why = f"no Chromium at {CHROMIUM}: `apt-get install -y chromium` (or set MEMVAULT_CHROMIUM)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            why = "playwright is not installed: pip install -e '.[test]'"
    if why and os.environ.get("CI") == "true":
        pytest.fail(f"the UI tests must run in CI: {why}")
    if why:
        pytest.skip(why)
    return CHROMIUM


@dataclass
class Served:
    """A running UI: its ``base`` URL, ``token``, and the ``runtime`` whose store it uses."""

    base: str
    token: str
    runtime: Runtime

    @property
    def store(self) -> Store:
        return self.runtime.store()

    @property
    def opening(self) -> str:
        return f"{self.base}/?token={self.token}"


@contextmanager
def served(db: Path | str, browsed: bool = True) -> Iterator[Served]:
    """The UI over the database ``db`` (tenant and scope ``default``) until the block ends; skipped
    (failed under CI=true) at once without the browser the tests need, unless not ``browsed``."""
    if browsed:
        chromium()
    runtime = Runtime(Config(db=db))
    token = secrets.token_urlsafe(32)
    with listening(lambda port: build(runtime, token, origins(port), lambda _: running(runtime))) as port:
        yield Served(f"http://127.0.0.1:{port}", token, runtime)


@contextmanager
def listening(make: Callable[[int], Any]) -> Iterator[int]:
    """The app ``make(port)`` served by uvicorn on a free loopback port (yielded) until the block ends."""
    sock = listen_socket("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = served_by(make(port))  # as `memvault ui` serves
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the UI server did not start"
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(30)


@contextmanager
def browser(*args: str) -> Iterator[Any]:
    """Headless Chromium (the OS's) with extra command-line ``args``."""
    from playwright.sync_api import sync_playwright

    path = chromium()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, headless=True, args=list(args))
        try:
            yield launched
        finally:
            launched.close()


def shoot(page: Any, name: str) -> None:
    """Save ``page`` as docs/ui/``name``.png when MEMVAULT_SCREENSHOTS is set."""
    if os.environ.get("MEMVAULT_SCREENSHOTS"):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=False)
