"""A server that stops leaves no thread of memvault's running: its worker (every background
job) and the embedding pools stop with the store, over the SDK's in-memory transport, real
stdio and real HTTP."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx2
import pytest
from conftest import server_env
from httpwire import free_port
from mcp import Client

from memvault.server.app import build_server
from memvault.server.config import Config

# Runs the ``memvault`` command in this process, then names the memvault threads still alive.
AFTER_EXIT = """
import sys, threading
from memvault.server.cli import main
try:
    main(sys.argv[1:])
except (SystemExit, KeyboardInterrupt):  # (uvicorn raises the SIGINT again once it has shut down)
    pass
print("ALIVE", sorted(t.name for t in threading.enumerate() if t.name.startswith("memvault")), file=sys.stderr)
"""


def alive_after(proc: subprocess.Popen[str]) -> str:
    _, err = proc.communicate(timeout=120)
    lines = [line for line in err.splitlines() if line.startswith("ALIVE")]
    assert lines, err
    return lines[-1]


def memvault_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name.startswith("memvault")}


@pytest.mark.anyio
async def test_no_memvault_thread_outlives_the_servers_lifespan(db_path: Path) -> None:
    before = memvault_threads()  # (other tests' stores may leave theirs)
    async with Client(build_server(Config(db=db_path, fill_interval_s=0.2))) as c:
        stored = await c.call_tool("remember", {"content": "The on-call phone is in the top drawer"})
        forgotten = await c.call_tool("forget", {"id": stored.structured_content["id"]})
        assert forgotten.structured_content["forgotten_ids"] == [stored.structured_content["id"]]
        assert any(t.name == "memvault-worker" for t in memvault_threads() - before)
    assert memvault_threads() - before == set()


@pytest.mark.slow
def test_no_memvault_thread_outlives_a_stdio_server(db_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-c", AFTER_EXIT, "serve"], env=server_env(db_path),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
         "params": {"name": "remember", "arguments": {"content": "The spare badge is at reception"}}},
    ]
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("".join(json.dumps(m) + "\n" for m in messages))
    proc.stdin.flush()
    replies = [json.loads(proc.stdout.readline()) for _ in range(2)]
    assert replies[1]["result"]["structuredContent"]["created"] is True
    time.sleep(1)  # the worker's first round (0.5 s after start) opens the store and warms it up
    assert alive_after(proc) == "ALIVE []"  # (closing stdin stops the server)
    assert proc.returncode == 0


@pytest.mark.slow
def test_no_memvault_thread_outlives_an_http_server(db_path: Path) -> None:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-c", AFTER_EXIT, "serve", "--transport", "http", "--port", str(port)],
                            env=server_env(db_path), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while True:
        assert proc.poll() is None and time.monotonic() < deadline
        try:
            if httpx2.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                break
        except httpx2.TransportError:
            pass
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)  # what Ctrl-C or a service manager's stop does
    assert alive_after(proc) == "ALIVE []"
