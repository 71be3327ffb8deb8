"""``memvault serve --transport http`` in a subprocess on a free loopback port, and
clients for it: the SDK's streamable HTTP client with a bearer token, and raw httpx2."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import httpx2
from conftest import SERVE, server_env
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp_types import JSONRPCError, jsonrpc_message_adapter

from memvault.storage import keys
from memvault.storage.store import Store


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# ``memvault serve`` with another read deadline (memvault.server.http.READ_GRACE_S, 10 s, and READ_MIN_RATE),
# so a test of what that deadline does waits a few seconds, not ten, for each connection it lets expire; without the
# credential check's warm-up, as ``conftest.SERVE``.
_WITH_READ_DEADLINE = ("import sys; from memvault.server import http; from memvault.storage import secret_warm; "
                       "secret_warm.steps = lambda: iter(()); "
                       "http.READ_GRACE_S, http.READ_MIN_RATE = float(sys.argv.pop(1)), int(sys.argv.pop(1)); "
                       "from memvault.server.cli import main; raise SystemExit(main())")


class HttpServer:
    """A running team server; ``log`` reads its stderr so far."""

    def __init__(self, db: Path | str, *flags: str, port: int | None = None, logs: Path | None = None,
                 ready: bool = True, read_deadline: tuple[float, int] | None = None,
                 wrap: Callable[[list[str]], list[str]] | None = None, **env: str) -> None:
        """Start the server; wait until ``/healthz`` answers (200 with ``ready``, any answer without).
        ``read_deadline``: the seconds a request has and the bytes a second that give it one more
        (``READ_GRACE_S``, ``READ_MIN_RATE``), instead of the server's own;
        ``wrap``: the command line run for the server's (e.g. inside ``unshare``)."""
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.url = f"{self.base}/mcp"
        self._log_path = (logs or Path(db).parent) / f"server.{self.port}.log"
        self._log = self._log_path.open("w")
        serve = SERVE if read_deadline is None else [SERVE[0], "-c", _WITH_READ_DEADLINE, *map(str, read_deadline),
                                                     "serve"]
        command = [*serve, "--transport", "http", "--port", str(self.port), *flags]
        self.proc = subprocess.Popen(
            wrap(command) if wrap else command, env=server_env(db, **env),
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self._log,
        )
        try:
            self._wait(ready)
        except BaseException:
            self.close()  # one that never became ready is not left running (it outlived the suite)
            raise

    def _wait(self, ready: bool) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.log()
            try:
                if httpx2.get(f"{self.base}/healthz", timeout=2).status_code == 200 or not ready:
                    return
            except httpx2.TransportError:
                pass
            time.sleep(0.2)
        raise TimeoutError(f"the server did not become ready: {self.log()}")

    def log(self) -> str:
        self._log.flush()
        return self._log_path.read_text()

    def post(self, key: str | None, body: dict[str, Any], *, source: str | None = None,
             **headers: str) -> httpx2.Response:
        """One raw JSON-RPC POST to /mcp; ``source``: sent from that loopback address (every 127.x.y.z is
        loopback on Linux), a client whose refused requests no other address's count with."""
        sent = {"content-type": "application/json", "accept": "application/json, text/event-stream", **headers}
        if key is not None:
            sent["authorization"] = f"Bearer {key}"
        if source is None:
            return httpx2.post(self.url, json=body, headers=sent, timeout=30)
        with httpx2.Client(transport=httpx2.HTTPTransport(local_address=source)) as own:
            return own.post(self.url, json=body, headers=sent, timeout=30)

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._log.close()


@asynccontextmanager
async def client(url: str, key: str) -> AsyncIterator[Client]:
    """The SDK client over streamable HTTP, sending ``key`` as a bearer token."""
    async with create_mcp_http_client(headers={"Authorization": f"Bearer {key}"}) as http:
        async with Client(streamable_http_client(url, http_client=http)) as c:
            yield c


def new_key(db: Path | str, tenant: str, **kwargs: Any) -> str:
    """A new API key for ``tenant`` (kwargs: scope, name, read_only, expires_days)."""
    store = Store(db)
    try:
        return keys.create(store, tenant, **kwargs)[1]
    finally:
        store.close()


PING = {"jsonrpc": "2.0", "id": 1, "method": "ping"}


def refused(response: httpx2.Response, status: int, kind: str | None) -> str:
    """The message of the team server's refusal ``response``, checked to be ``status`` with a JSON-RPC error
    body (``memvault.server.wire.http_refusal``) of ``kind`` (``error.data.error``; None: no kind)."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json", response.headers
    assert isinstance(jsonrpc_message_adapter.validate_json(response.content, by_name=False), JSONRPCError)
    error = response.json()["error"]
    assert error["code"] == (-32603 if status >= 500 else -32600), error
    assert error["data"]["status"] == status and error["data"].get("error") == kind, error
    return str(error["message"])


@contextmanager
def stdio_and_http(folder: Path) -> Iterator[tuple[Any, HttpServer]]:
    """A stdio server and an HTTP server without authentication, each on its own store in ``folder``;
    both closed after."""
    from wire import StdioServer

    stdio, http = StdioServer(folder / "stdio.db"), HttpServer(folder / "http.db", "--auth", "none")
    try:
        yield stdio, http
    finally:
        stdio.close()
        http.close()
