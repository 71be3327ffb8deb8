"""A bare JSON-RPC client for ``memvault serve`` over stdio: raw lines, nothing hidden."""

from __future__ import annotations

import json
import select
import subprocess
from pathlib import Path
from typing import Any

from conftest import SERVE, server_env


class StdioServer:
    """``memvault serve`` in a subprocess, initialised; ``call`` sends one request and
    returns its response, checking that every line on stdout is JSON-RPC."""

    def __init__(self, db: Path, stderr: Any = subprocess.DEVNULL, protocol: str = "2025-06-18", **env: str) -> None:
        self.proc = subprocess.Popen(
            SERVE, env=server_env(db, **env), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
            text=True, encoding="utf-8", errors="strict",
        )
        self._next = 0
        self.lines = 0
        try:
            self.initialized = self.request("initialize", {
                "protocolVersion": protocol, "capabilities": {}, "clientInfo": {"name": "wire", "version": "0"},
            })
        except BaseException:
            self.proc.kill()  # one that never answered is not left running
            self.close()
            raise
        self.notify("notifications/initialized")

    def notify(self, method: str, params: dict | None = None) -> None:
        self._send({"jsonrpc": "2.0", "method": method, **({"params": params} if params else {})})

    def _send(self, message: dict) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict | None = None) -> dict:
        """Send a request; return the response with the same id (notifications are skipped)."""
        self._next += 1
        self._send({"jsonrpc": "2.0", "id": self._next, "method": method, **({"params": params} if params else {})})
        while True:
            message = self.receive()
            assert isinstance(message, dict) and message.get("jsonrpc") == "2.0", message
            if message.get("id") == self._next:
                return message

    def send_raw(self, line: bytes) -> None:
        """Write ``line`` and a newline to the server's stdin as they are."""
        assert self.proc.stdin is not None
        self.proc.stdin.buffer.write(line + b"\n")
        self.proc.stdin.flush()

    def receive(self) -> Any:
        """The next line on stdout, parsed (a message, or a list for a batch reply)."""
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], 60)
        if not ready:
            raise TimeoutError("no message from the server within 60 s")
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"server closed stdout (exit code {self.proc.poll()})")
        self.lines += 1
        return json.loads(line)

    def call_tool(self, name: str, arguments: Any) -> dict:
        """``tools/call``; returns the result (``isError`` may be set) or raises on a protocol error."""
        response = self.request("tools/call", {"name": name, "arguments": arguments})
        if "error" in response:
            raise ProtocolError(response["error"])
        return response["result"]

    def rss_mb(self) -> float:
        """Resident memory of the server process, in MiB (Linux)."""
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=20)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            if self.proc.stdout:
                self.proc.stdout.close()


class ProtocolError(Exception):
    """A JSON-RPC error response (not a tool result)."""
