"""MCP over stdio with a reply for every request: memvault's stdio transport.

The MCP SDK's ``stdio_server`` drops, without a reply, every line it cannot turn
into one JSON-RPC message: text that is not JSON, a JSON-RPC batch (an array,
which protocol 2025-03-26 allows and the SDK negotiates), a string holding a lone
surrogate, JSON nested deeper than pydantic's parser allows. The client then waits
for its timeout. This transport parses each line itself (the ``json`` module, then
the SDK's message model) and, following JSON-RPC 2.0 (https://www.jsonrpc.org/specification):

- a line that is not UTF-8 JSON gets ``-32700`` Parse error (id null);
- a message that is not a valid request gets ``-32600`` Invalid Request, with its
  id when it has a usable one;
- a batch is answered with one array holding a response for each request in it,
  in the order they complete (an empty batch is one ``-32600``);
- everything else goes to the SDK's server loop, as with ``stdio_server``;
- when stdin closes, requests in flight are still answered before the server stops.

Strings with lone surrogates reach memvault's own validation (which names the
field); a response carrying one is written with ``\\u`` escapes. While serving,
fd 0 reads ``/dev/null`` and fd 1 writes to stderr, so stray output from any
library cannot corrupt the protocol (as the SDK's ``stdio_server`` does).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCMessage, JSONRPCNotification, JSONRPCRequest, jsonrpc_message_adapter
from pydantic import ValidationError

log = logging.getLogger(__name__)
PARSE_ERROR, INVALID_REQUEST = -32700, -32600
DRAIN_TIMEOUT_S = 30.0  # how long requests in flight may still finish once stdin is closed


@dataclass
class _Batch:
    """Replies to one batch line, written as one array once ``waiting`` is empty."""

    waiting: set[str] = field(default_factory=set)
    replies: list[dict[str, Any]] = field(default_factory=list)


def _key(request_id: object) -> str:
    return json.dumps(request_id)  # 1 and "1" are different ids


def _usable_id(value: dict[str, Any]) -> int | str | None:
    request_id = value.get("id")
    if isinstance(request_id, str) or (isinstance(request_id, int) and not isinstance(request_id, bool)):
        return request_id
    return None


def _error(request_id: int | str | None, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


class Wire:
    """Both directions of the stdio wire: turns lines into messages for the server
    (answering those it cannot pass on) and the server's messages into lines."""

    def __init__(self, out: anyio.AsyncFile[bytes]) -> None:
        self._out = out
        self._lock = anyio.Lock()
        self._batches: dict[str, _Batch] = {}  # id of a request in a batch -> its batch
        self._open: set[str] = set()  # ids of requests passed on and not answered yet
        self._answered = anyio.Event()

    async def drained(self, timeout_s: float) -> None:
        """Wait (at most ``timeout_s``) until every request passed on has been answered:
        a client that closes stdin right after its last request still gets the answer."""
        with anyio.move_on_after(timeout_s):
            while self._open:
                await self._answered.wait()
                self._answered = anyio.Event()

    async def _write(self, value: object) -> None:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: \u escapes are still valid JSON
            data = json.dumps(value, separators=(",", ":")).encode("ascii")
        async with self._lock:
            await self._out.write(data + b"\n")
            await self._out.flush()

    async def incoming(self, raw: bytes) -> list[JSONRPCMessage]:
        """The messages in one line, to pass to the server; answers the rest itself."""
        if not raw.strip():
            return []
        try:
            value = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
        except UnicodeDecodeError as exc:
            await self._write(_error(None, PARSE_ERROR, f"Parse error: the line is not valid UTF-8 ({exc.reason} "
                                                        f"at byte {exc.start})"))
            return []
        except RecursionError:
            await self._write(_error(None, PARSE_ERROR, "Parse error: the JSON is nested too deeply"))
            return []
        except ValueError as exc:  # json.JSONDecodeError and rejected constants
            await self._write(_error(None, PARSE_ERROR, f"Parse error: {exc}"))
            return []
        if value == []:
            await self._write(_error(None, INVALID_REQUEST, "Invalid Request: the batch is empty"))
            return []
        batch = _Batch() if isinstance(value, list) else None
        messages = []
        for item in value if batch is not None else [value]:
            message, reply = self._check(item)
            if isinstance(message, JSONRPCRequest):
                key = _key(message.id)
                if key in self._open:
                    message, reply = None, _error(message.id, INVALID_REQUEST, f"Invalid Request: id {key} is "
                                                  "already used by a request that has no response yet")
                else:
                    self._open.add(key)
                    if batch is not None:
                        batch.waiting.add(key)
                        self._batches[key] = batch
            elif isinstance(message, JSONRPCNotification) and message.method == "notifications/cancelled":
                await self._settle(_key((message.params or {}).get("requestId")))  # no response will come
            if reply is not None and batch is not None:
                batch.replies.append(reply)
            elif reply is not None:
                await self._write(reply)
            if message is not None:
                messages.append(message)
        if batch is not None and not batch.waiting and batch.replies:
            await self._write(batch.replies)
        return messages

    @staticmethod
    def _check(value: object) -> tuple[JSONRPCMessage | None, dict[str, Any] | None]:
        """The message ``value`` is, or the error reply it gets (None for a bad response:
        responses are never answered)."""
        try:
            message = jsonrpc_message_adapter.validate_python(value, by_name=False)
            if isinstance(message, JSONRPCNotification) and "id" in value:  # type: ignore[operator]
                return None, _error(None, INVALID_REQUEST, "Invalid Request: id must be a string or an integer")
            return message, None
        except (ValidationError, RecursionError) as exc:
            if not isinstance(value, dict):
                return None, _error(None, INVALID_REQUEST, "Invalid Request: a message must be a JSON object")
            if "method" not in value and ("result" in value or "error" in value):
                log.warning("a malformed response from the client was dropped: %s", exc)
                return None, None
            reason = "nested too deeply"
            if isinstance(exc, ValidationError):
                first = exc.errors()[0]
                reason = f"{'.'.join(str(p) for p in first['loc'][1:]) or 'message'}: {first['msg']}"
            return None, _error(_usable_id(value), INVALID_REQUEST, f"Invalid Request: {reason}")

    async def outgoing(self, message: JSONRPCMessage) -> None:
        """Write one message of the server's, or keep it for the batch it answers."""
        value = message.model_dump(mode="json", by_alias=True, exclude_unset=True)
        if isinstance(message, (JSONRPCRequest, JSONRPCNotification)):  # the server's own
            await self._write(value)
        else:
            await self._settle(_key(value.get("id")), value)

    async def _settle(self, key: str, response: dict[str, Any] | None = None) -> None:
        """Request ``key`` is answered by ``response`` (or cancelled, None): write it,
        alone or with the rest of its batch once that is complete."""
        batch = self._batches.pop(key, None)
        if batch is None and response is not None:
            await self._write(response)
        elif batch is not None:
            if response is not None:
                batch.replies.append(response)
            batch.waiting.discard(key)
            if not batch.waiting and batch.replies:
                await self._write(batch.replies)
        self._open.discard(key)
        self._answered.set()


@contextlib.contextmanager
def _claimed_std_fds() -> Iterator[tuple[IO[bytes], IO[bytes]]]:
    """The wire's own copies of fds 0 and 1; meanwhile fd 0 reads /dev/null and fd 1
    writes to stderr. Restored on exit; the copies stay open (a reader thread may
    still be blocked on them, and a closed fd could be reused under it)."""
    wire_in, wire_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    try:
        yield os.fdopen(wire_in, "rb", closefd=False), os.fdopen(wire_out, "wb", closefd=False)
    finally:
        os.dup2(wire_in, 0)
        os.dup2(wire_out, 1)


async def serve(server: MCPServer[Any]) -> None:
    """Run ``server`` on stdin/stdout until stdin closes."""
    lowlevel = server._lowlevel_server  # what MCPServer.run_stdio_async and the SDK's own Client use
    with _claimed_std_fds() as (raw_in, raw_out):
        stdin, wire = anyio.wrap_file(raw_in), Wire(anyio.wrap_file(raw_out))
        to_server, from_wire = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        to_wire, from_server = anyio.create_memory_object_stream[SessionMessage](0)

        async def read() -> None:
            async with to_server:
                async for line in stdin:
                    for message in await wire.incoming(line):
                        await to_server.send(SessionMessage(message))
                await wire.drained(DRAIN_TIMEOUT_S)

        async def write() -> None:
            async with from_server:
                async for session_message in from_server:
                    await wire.outgoing(session_message.message)

        async with anyio.create_task_group() as tg:
            tg.start_soon(read)
            tg.start_soon(write)
            await lowlevel.run(from_wire, to_wire, lowlevel.create_initialization_options())
