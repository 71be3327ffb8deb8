"""The JSON-RPC messages the MCP Python SDK (mcp 2.3) drops or answers with pydantic's dump, answered
following JSON-RPC 2.0, through its public API only (arguments are checked by :mod:`.checks`).

3. stdio: :func:`serve` answers what the SDK drops (python-sdk#2751, batches #444).
4. Streamable HTTP: :func:`post` answers batches and non-object bodies.

Why each exists: docs/architecture.md, "The server around the MCP SDK". Delete a part once the SDK does it.
"""


from __future__ import annotations

import fcntl
import json
import logging
import math
import os
import re
import stat
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import anyio
from mcp.types import INVALID_PARAMS
from mcp_types import JSONRPCMessage, JSONRPCNotification, JSONRPCRequest, jsonrpc_message_adapter
from pydantic import ValidationError

from memvault.storage.errors import shown

from .checks import Checks, not_unicode, refusal
from .params import MUST, knows, takes

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

log = logging.getLogger(__name__)


# ---------------------------------------------------------------- 3. stdio

PARSE_ERROR, INVALID_REQUEST, INTERNAL_ERROR = -32700, -32600, -32603  # JSON-RPC 2.0 §5.1
DRAIN_TIMEOUT_S = 30.0  # how long requests in flight may still finish once stdin is closed


@dataclass
class _Batch:
    """Replies to one batch line, written as one array once every message was passed on (``read``)
    and ``waiting`` is empty: the SDK may answer the first before the next is passed on."""

    waiting: set[str] = field(default_factory=set)
    replies: list[dict[str, Any]] = field(default_factory=list)
    read: bool = False


def _key(request_id: object) -> str:
    return json.dumps(request_id)  # 1 and "1" are different ids


def error_reply(request_id: object, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


def http_refusal(status: int, kind: str | None, description: str, request_id: object = None,
                 **data: Any) -> dict[str, Any]:
    """The body of the team server's HTTP refusal with ``status``: a JSON-RPC error, which the SDK's client
    raises with ``description`` as its message (mcp 2.3 ``client/streamable_http.py`` reads a non-2xx JSON
    body so), ``{"jsonrpc": "2.0", "id": request_id, "error": {"code", "message": description, "data":
    {"status": status, "error": kind, **data}}}``, ``error`` left out when ``kind`` is None. The code is
    -32600 for a 4xx status, -32603 for a 5xx, as the SDK's transport answers its own refusals."""
    reply = error_reply(request_id, INTERNAL_ERROR if status >= 500 else INVALID_REQUEST, description)
    reply["error"]["data"] = {"status": status, **({"error": kind} if kind else {}), **data}
    return reply


class NotJson(ValueError):
    """The message holds NaN, Infinity or -Infinity, which Python's parser reads and JSON has not, or a
    number it would read as one of them (``1e400``; RFC 8259 §6 lets a parser limit the range)."""


def _reject_constant(name: str) -> None:
    raise NotJson(f"{name} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise NotJson(f"the number {shown(text)} is beyond a 64-bit float's range (about 1.8e308)")
    return value


class DuplicateKey(ValueError):
    """An object of the message names ``key`` twice (RFC 8259 §4: which one counts is undefined)."""

    def __init__(self, key: str) -> None:
        super().__init__(f"Invalid Request: the key {shown(key)} is given more than once in one object; "
                         "give each key once")


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for key, item in pairs:
        if key in value:
            raise DuplicateKey(key)
        value[key] = item
    return value


# Dropped before a message is read (RFC 8259 §8.1: a parser MAY ignore it; Windows editors and PowerShell 5's
# ``-Encoding UTF8`` write one).
UTF8_BOM = b"\xef\xbb\xbf"
# Byte order marks of the encodings JSON once allowed (RFC 4627 §3), longest first: UTF-32LE's starts as UTF-16LE's.
_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32LE"), (b"\x00\x00\xfe\xff", "UTF-32BE"), (b"\xff\xfe", "UTF-16LE"),
         (b"\xfe\xff", "UTF-16BE"))


def wide_encoding(data: bytes) -> str | None:
    """The encoding a JSON text ``data`` is in when it is UTF-16 or UTF-32 ("UTF-16LE (with a byte order
    mark)"), by its byte order mark or else by where the NUL bytes of its first ASCII characters fall
    (RFC 4627 §3, as Python's ``json`` detects it); None for anything else."""
    for mark, name in _BOMS:
        if data.startswith(mark):
            return f"{name} (with a byte order mark)"
    if len(data) >= 4 and not data[0]:
        return "UTF-16BE" if data[1] else "UTF-32BE"
    if len(data) >= 4 and not data[1]:
        return "UTF-16LE" if data[2] or data[3] else "UTF-32LE"
    return None


def not_utf8(data: bytes, what: str) -> str | None:
    """Why ``data``, ``what`` the client sent ("the body", "the line"), is no JSON text memvault reads, or
    None: JSON-RPC is UTF-8 (RFC 8259 §8.1), so UTF-16 and UTF-32 are refused naming the encoding found
    (Python's parser would read them, the SDK's not), and invalid UTF-8 naming its first bad byte. A UTF-8
    byte order mark is not refused (RFC 8259 §8.1: a parser MAY ignore it): take :data:`UTF8_BOM` off first."""
    wide = wide_encoding(data)
    if wide is not None:
        return (f"Parse error: {what} is {wide}; JSON-RPC messages must be UTF-8 (RFC 8259 §8.1): send the same "
                "text encoded as UTF-8")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"Parse error: {what} is not valid UTF-8 ({exc.reason} at byte {exc.start}); JSON-RPC messages " \
               "must be UTF-8 (RFC 8259 §8.1)"
    return None


# Object members (keys) in one body or line, in all: a batch of 50 calls holds about 1,000; see
# docs/team-server-security.md.
MEMBERS_MAX = 2_000
# JSON values in one body or line, as :func:`values_over` counts them: a batch of 50 remember calls with
# every argument and 20 tags counts about 4,400; see docs/team-server-security.md.
VALUES_MAX = 10_000


class TooLarge(ValueError):
    """The message holds more JSON than memvault reads in one (:class:`TooManyMembers`, :class:`TooManyValues`):
    refused before any pass over it that costs more than its bytes."""


class TooManyMembers(TooLarge):
    """The message's objects hold more than :data:`MEMBERS_MAX` members (keys) in all."""

    def __init__(self) -> None:
        super().__init__(f"Invalid Request: the message's objects hold more than {MEMBERS_MAX:,} keys in all; "
                         f"memvault reads at most {MEMBERS_MAX:,} (a call needs a few dozen)")


class TooManyValues(TooLarge):
    """The message holds more than :data:`VALUES_MAX` JSON values (:func:`values_over`); ``where``: the
    member the count passed the limit in (:func:`crowded`), when it has a name."""

    def __init__(self, where: str | None = None) -> None:
        inside = f"; the count passed {VALUES_MAX:,} inside {where}" if where else ""
        super().__init__(f"Invalid Request: the message holds more than {VALUES_MAX:,} JSON values (strings, "
                         f"arrays, objects and the items between commas); memvault reads at most {VALUES_MAX:,} "
                         f"(a batch of 50 calls needs about 4,400){inside}")


def _unescaped(data: bytes, mark: bytes = b"") -> bytes:
    """``data`` with its escaped backslashes and quotes replaced by ``mark``: no quote is left inside a
    string."""
    return data.replace(b"\\\\", mark).replace(b'\\"', mark)


def values_over(data: bytes, limit: int = VALUES_MAX) -> bool:
    """Whether the JSON text ``data`` holds more than ``limit`` values, counted without parsing it: its
    strings (keys too) and the ``[``, ``{`` and ``,`` outside them (each opens a value or comes before
    one), whatever the nesting. Parsing and validating an empty array or a ``null`` costs far more than
    its bytes; this count is a few passes of ``bytes.replace`` and ``count`` over the text, linear at C
    speed, and the strings are cut out only when they are at most ``limit`` (so at most that many
    pieces). Invalid JSON may count wrongly; it is refused either way."""
    flat = _unescaped(data)
    strings = flat.count(b'"') // 2
    if strings > limit:
        return True
    if strings + flat.count(b"[") + flat.count(b"{") + flat.count(b",") <= limit:
        return False  # the marks inside strings counted too, and still within
    outside = b"".join(flat.split(b'"')[::2])
    return strings + outside.count(b"[") + outside.count(b"{") + outside.count(b",") > limit


# In a text with no escaped quote (:func:`_unescaped`): a bracket, a colon, or a run of up to 1,000
# strings and stretches of scalars between them (counted whole).
_TOKEN = re.compile(rb'[][{}:]|(?:"[^"]*"|[^][{}:"]+){1,1000}')
_LAST_NAME = re.compile(rb'"([A-Za-z_][A-Za-z0-9_]{0,39})"\s*$')
CROWDED_TOKENS = 2_000  # the most tokens crowded() reads: a refusal stays as cheap as the count


def crowded(data: bytes, limit: int = VALUES_MAX) -> str | None:
    """The dotted path of member names ("params.arguments.tags"; the last 4 after "…") open where the
    ``limit``-th value of the JSON text ``data`` (counted as :func:`values_over` does) is passed, or None
    when no member there has a name of at most 40 letters, digits and ``_`` (no other name is quoted) or
    the text has more than :data:`CROWDED_TOKENS` brackets, colons and runs before it (many small
    containers: nothing is named, as before)."""
    names: list[bytes | None] = []
    count, run, previous = 0, b"", b""
    for read, token in enumerate(_TOKEN.finditer(_unescaped(data, b"\x01"))):  # a name with an escape is none
        if read > CROWDED_TOKENS:
            return None
        mark = token.group()
        if mark in (b"[", b"{"):
            count += 1
            named = _LAST_NAME.search(run) if previous == b":" else None
            names.append(named.group(1) if named else None)
        elif mark in (b"]", b"}"):
            if names:
                names.pop()
        elif mark != b":":
            if not mark.strip():
                continue  # white space between marks: nothing counted, and the mark before still leads
            run = mark
            count += mark.count(b'"') // 2 + b"".join(mark.split(b'"')[::2]).count(b",")
        if count > limit:
            path = [name.decode() for name in names if name]
            return ".".join(["…"] * (len(path) > 4) + path[-4:]) or None
        previous = mark
    return None


_STRING = rb'"[^"\\]*(?:\\.[^"\\]*)*"'
_SCALAR = rb"(?:" + _STRING + rb"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null)"
# An object's "id" member with only scalar members before it ({"jsonrpc": "2.0", "id": 7, ...}).
_LEADING_ID = re.compile(rb"\s*\{(?:\s*" + _STRING + rb"\s*:\s*" + _SCALAR + rb"\s*,)*?\s*\"id\"\s*:\s*(" + _STRING
                         + rb"|-?\d+)\s*[,}]")
LEADING_ID_BYTES = 1_000  # where a message refused unread is searched for its id


def leading_id(data: bytes) -> str | int | None:
    """The id of the message ``data`` when it is found in its first :data:`LEADING_ID_BYTES` bytes before
    any member that is an object or array, else None: the id a message refused before it is read
    (:class:`TooLarge`) is answered to, so that a client waiting for it is not left waiting."""
    found = _LEADING_ID.match(data[:LEADING_ID_BYTES])
    try:
        request_id = json.loads(found.group(1)) if found else None
    except ValueError:
        return None
    return request_id if _usable(request_id) else None


def loads(text: str | bytes) -> Any:
    """A message as JSON, on both transports: more than :data:`VALUES_MAX` values refused before it is
    parsed (:class:`TooManyValues`), NaN, Infinity and numbers past a float's range refused
    (:class:`NotJson`), a key given twice in one object refused (:class:`DuplicateKey`) rather than the last
    one silently kept, more than :data:`MEMBERS_MAX` keys in all refused as the object holding the last is
    read (:class:`TooManyMembers`), before any other pass over the message."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if values_over(data):
        raise TooManyValues(crowded(data))
    members = 0

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal members
        members += len(pairs)
        if members > MEMBERS_MAX:
            raise TooManyMembers
        return _unique(pairs)

    return json.loads(text, parse_constant=_reject_constant, parse_float=_finite, object_pairs_hook=unique)


class _Pairs(list):  # type: ignore[type-arg]
    """An object's ``(key, value)`` pairs, every one kept (``object_pairs_hook``)."""


def _usable(request_id: object) -> bool:
    return isinstance(request_id, str) or (isinstance(request_id, int) and not isinstance(request_id, bool))


def duplicate_reply(text: str | bytes, exc: DuplicateKey) -> dict[str, Any]:
    """The -32600 reply to a message with a duplicated key, to its id when it has one usable id (null
    when ``id`` itself is given twice: which request is refused is unknown)."""
    try:
        pairs = json.loads(text, object_pairs_hook=_Pairs)
    except (ValueError, RecursionError):
        pairs = None
    ids = [value for key, value in pairs if key == "id"] if isinstance(pairs, _Pairs) else []
    return error_reply(ids[0] if len(ids) == 1 and _usable(ids[0]) else None, INVALID_REQUEST, str(exc))


async def unreadable_reply(item: dict[str, Any], checks: Checks | None) -> dict[str, Any]:
    """The reply to a request the SDK cannot parse (a lone surrogate, nesting too deep): a tool call
    gets its arguments' refusal and a prompt its -32602, as if the SDK had passed them on; anything
    else -32600 naming where the text that is not valid Unicode is (:func:`not_unicode`)."""
    params = item["params"] if isinstance(item.get("params"), dict) else {}
    name = params.get("name")
    if item.get("method") == "tools/call" and isinstance(name, str) and checks is not None:
        refused, _ = await checks.refuse_call(name, params.get("arguments"))
        if refused is not None:
            result = refusal(refused).model_dump(mode="json", by_alias=True, exclude_none=True)
            return {"jsonrpc": "2.0", "id": item["id"], "result": result}
    if item.get("method") == "prompts/get" and isinstance(name, str) and checks is not None:
        refused = checks.promptrefusal(name, params.get("arguments"))
        if refused is not None:
            return error_reply(item["id"], INVALID_PARAMS, refused)
    bad = not_unicode(item)
    why = "the message is nested too deeply for the server's JSON parser" if bad is None else ": ".join(
        part for part in bad if part)
    return error_reply(item["id"], INVALID_REQUEST, f"Invalid Request: {why}")


def internal_reply(item: object, exc: Exception) -> dict[str, Any] | None:
    """The -32603 reply to a request memvault failed on with ``exc`` (a fault of its own, logged), or
    None for a message that takes no reply. The exception's text is not sent: it may quote the request."""
    request_id = item.get("id") if isinstance(item, dict) else None
    if not isinstance(item, dict) or "method" not in item or not _usable(request_id):
        return None
    return error_reply(request_id, INTERNAL_ERROR, f"Internal error: memvault failed on this request "
                       f"({type(exc).__name__}; its log has the traceback); it still serves other requests")


def checked_message(item: object) -> tuple[JSONRPCMessage | None, dict[str, Any] | None]:
    """The JSON-RPC message ``item`` is, or ``(None, the -32600 reply it gets)``: a
    malformed response from the client gets none (it is logged)."""
    try:
        message = jsonrpc_message_adapter.validate_python(item, by_name=False)
    except (ValidationError, RecursionError) as exc:
        if not isinstance(item, dict):
            return None, error_reply(None, INVALID_REQUEST, "Invalid Request: a message must be a JSON object")
        if "method" not in item and ("result" in item or "error" in item):
            log.warning("a malformed response from the client was dropped (%s)", type(exc).__name__)  # never its text
            return None, None
        request_id = item.get("id") if _usable(item.get("id")) else None
        if "params" in item and not isinstance(item["params"], dict) and isinstance(item.get("method"), str) \
                and knows(item["method"]) and request_id is not None:  # the envelope is right, the method's params are not (docs/tools.md)
            method = item["method"]
            return None, error_reply(request_id, INVALID_PARAMS,
                                     f"params: must be an object; {method} takes params as {takes(method)}")
        reason = "nested too deeply"
        if isinstance(exc, ValidationError):
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"][1:]) or "message"
            why = 'must be "2.0"' if where == "jsonrpc" else MUST.get(first["type"], first["msg"])
            reason = f"{where}: {why}"
        return None, error_reply(request_id, INVALID_REQUEST, f"Invalid Request: {reason}")
    if isinstance(message, JSONRPCNotification) and isinstance(item, dict) and "id" in item:
        return None, error_reply(None, INVALID_REQUEST, "Invalid Request: id must be a string or an integer")
    return message, None


class Wire:
    """Both directions between the client's stdio and the SDK's: passes on each message
    the SDK can read, answers the rest itself, and gathers the replies to a batch."""

    def __init__(self, out: Callable[[bytes], Awaitable[None]], to_sdk: Callable[[bytes], Awaitable[None]],
                 checks: Checks | None) -> None:
        self._out, self._to_sdk, self._checks = out, to_sdk, checks
        self._batches: dict[str, _Batch] = {}  # id of a request in a batch -> its batch
        self._open: set[str] = set()  # ids of requests passed on and not answered yet
        self._answered = anyio.Event()
        self._writing = 0  # responses being written
        self._carried = 0  # NUL bytes of the last line's break left at the start of the next (UTF-16/32LE)

    async def drained(self, timeout_s: float) -> None:
        """Wait (at most ``timeout_s``) until every request passed on has been answered."""
        with anyio.move_on_after(timeout_s):
            while self._open or self._writing:
                await self._answered.wait()
                self._answered = anyio.Event()

    async def _write(self, value: object) -> None:
        try:
            data = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: \u escapes are still valid JSON
            data = json.dumps(value, separators=(",", ":")).encode("ascii")
        await self._out(data + b"\n")

    async def incoming(self, raw: bytes) -> None:
        """One line from the client: its messages passed on to the SDK, or answered. A line in UTF-16 or
        UTF-32 is answered naming that encoding (:func:`not_utf8`); a UTF-8 byte order mark is ignored."""
        if self._carried and raw.startswith(b"\x00" * self._carried):
            raw = raw[self._carried:]  # the rest of the line break of a UTF-16LE or UTF-32LE line before
        raw = raw.removeprefix(UTF8_BOM)
        if not raw.strip():
            return
        wide = wide_encoding(raw) or ""
        self._carried = 1 if wide.startswith("UTF-16LE") else 3 if wide.startswith("UTF-32LE") else 0
        refused = not_utf8(raw, "the line")
        try:
            value = loads(raw.decode("utf-8")) if refused is None else None
        except RecursionError:
            refused = "Parse error: the JSON is nested too deeply"
        except DuplicateKey as exc:
            await self._write(duplicate_reply(raw, exc))
            return
        except TooLarge as exc:
            await self._write(error_reply(leading_id(raw), INVALID_REQUEST, str(exc)))
            return
        except ValueError as exc:  # json.JSONDecodeError and rejected constants
            refused = f"Parse error: {exc}"
        else:
            refused = refused or ("Invalid Request: the batch is empty" if value == [] else None)
        if refused is not None:
            await self._write(error_reply(None, PARSE_ERROR if refused.startswith("Parse") else INVALID_REQUEST, refused))
            return
        batch = _Batch() if isinstance(value, list) else None
        for item in value if batch is not None else [value]:
            try:
                reply = await self._one(item, batch)
            except Exception as exc:  # a fault in one message must not end the reader (nothing more served)
                log.exception("memvault failed on a message from the client; it is answered with -32603")
                reply = internal_reply(item, exc)
            if reply is not None and batch is not None:
                batch.replies.append(reply)
            elif reply is not None:
                await self._write(reply)
        if batch is not None:
            batch.read = True
            if not batch.waiting and batch.replies:
                await self._write(batch.replies)

    async def _one(self, item: object, batch: _Batch | None) -> dict[str, Any] | None:
        """Pass on one message, or return the reply it gets (None: no reply)."""
        message, reply = checked_message(item)
        if message is None:
            return reply
        assert isinstance(item, dict)
        line = _sdk_line(item)
        if line is None:  # a lone surrogate, or nested deeper than the SDK's parser goes
            return await unreadable_reply(item, self._checks) if isinstance(message, JSONRPCRequest) else None
        if isinstance(message, JSONRPCRequest):
            key = _key(message.id)
            if key in self._open:
                return error_reply(message.id, INVALID_REQUEST, f"Invalid Request: id {key} is already used by a "
                                                           "request that has no response yet")
            self._open.add(key)
            if batch is not None:
                batch.waiting.add(key)
                self._batches[key] = batch
        elif isinstance(message, JSONRPCNotification) and message.method == "notifications/cancelled":
            await self._settle(_key((message.params or {}).get("requestId")))  # no response will come
        await self._to_sdk(line.encode("ascii") + b"\n")
        return None

    async def outgoing(self, raw: bytes) -> None:
        """One line from the SDK: written as the SDK wrote it (compact UTF-8 JSON), or kept for the
        batch it answers."""
        try:
            value = json.loads(raw)
        except ValueError:
            log.warning("dropped a line on the SDK's stdout that is not JSON")
            return
        if not isinstance(value, dict) or "method" in value or "id" not in value:  # the server's own messages
            await self._out(raw + b"\n")
        else:
            await self._settle(_key(value["id"]), value, raw)

    async def _settle(self, key: str, response: dict[str, Any] | None = None, raw: bytes | None = None) -> None:
        """Request ``key`` is answered by ``response`` (or cancelled, None), ``raw`` its line as the SDK
        wrote it: write it, alone or with the rest of its batch once that is complete. Its id is free
        before the write: a client that reads the response may send the same id again at once."""
        batch = self._batches.pop(key, None)
        self._open.discard(key)
        self._writing += 1
        try:
            if batch is None and raw is not None:
                await self._out(raw + b"\n")
            elif batch is not None:
                if response is not None:
                    batch.replies.append(response)
                batch.waiting.discard(key)
                if batch.read and not batch.waiting and batch.replies:
                    await self._write(batch.replies)
        finally:
            self._writing -= 1
            self._answered.set()


def _sdk_line(message: dict[str, Any]) -> str | None:
    """``message`` as a line the SDK's transport parses, or None when it cannot."""
    try:
        line = json.dumps(message, separators=(",", ":"))
        jsonrpc_message_adapter.validate_json(line, by_name=False)
    except (ValidationError, RecursionError):
        return None
    return line


async def _lines(fd: int) -> Any:
    """The lines read from ``fd``: a pipe, socket or terminal without blocking, so that the
    reader can be cancelled; anything the event loop cannot poll (a regular file as in
    ``serve < requests``, ``/dev/null`` under nohup or systemd) on a worker thread."""
    mode = os.fstat(fd).st_mode
    pollable = stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or os.isatty(fd)
    os.set_blocking(fd, not pollable)
    pending = b""
    while True:
        if pollable:
            await anyio.wait_readable(fd)
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                continue
        else:
            chunk = await anyio.to_thread.run_sync(os.read, fd, 65536)
        if not chunk:
            if pending:
                yield pending
            return
        *complete, pending = (pending + chunk).split(b"\n")
        for line in complete:
            yield line


def _writer(fd: int) -> Callable[[bytes], Awaitable[None]]:
    """Writes to ``fd`` in order. A pipe is made non-blocking and written on the event loop at once,
    waiting for it to poll writable only while it is full; anything else on a worker thread. A thread's
    round trip per message was two of the seven a ``tools/call`` made, and a wait before each write two
    turns of the event loop (docs/benchmarks.md)."""
    lock = anyio.Lock(fast_acquire=True)  # uncontended: no turn of the event loop
    pipe = stat.S_ISFIFO(os.fstat(fd).st_mode)
    if pipe:
        os.set_blocking(fd, False)

    async def write(data: bytes) -> None:
        async with lock:
            view = memoryview(data)
            while view:
                if not pipe:
                    view = view[await anyio.to_thread.run_sync(os.write, fd, view):]
                    continue
                try:
                    view = view[os.write(fd, view):]
                except BlockingIOError:  # full: the reader has not caught up
                    await anyio.wait_writable(fd)

    return write


async def serve(server: MCPServer[Any]) -> None:
    """Run ``server`` on the process's stdin/stdout with the SDK's stdio transport, behind
    :class:`Wire`, until stdin closes. Stdin's and stdout's blocking modes are restored at the end (the
    program run after memvault shares them: a terminal left non-blocking fails its reads)."""
    stdin_blocking, stdout_blocking = os.get_blocking(0), os.get_blocking(1)
    client_in = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
    client_out = fcntl.fcntl(1, fcntl.F_DUPFD_CLOEXEC, 3)
    to_sdk_r, to_sdk_w = os.pipe()
    from_sdk_r, from_sdk_w = os.pipe()
    os.dup2(to_sdk_r, 0)  # the SDK's transport claims fds 0 and 1, as it would the process's own
    os.dup2(from_sdk_w, 1)
    os.close(to_sdk_r)
    os.close(from_sdk_w)
    checks = next((m for m in server.middleware if isinstance(m, Checks)), None)
    wire = Wire(_writer(client_out), _writer(to_sdk_w), checks)
    try:
        async with anyio.create_task_group() as tg:

            async def read() -> None:
                try:
                    async for line in _lines(client_in):
                        await wire.incoming(line)
                    await wire.drained(DRAIN_TIMEOUT_S)
                finally:  # the SDK's transport reads its end of input (its reader thread cannot be cancelled)
                    os.close(to_sdk_w)

            async def write() -> None:
                async for line in _lines(from_sdk_r):
                    await wire.outgoing(line)

            tg.start_soon(read)
            tg.start_soon(write)
            await server.run_stdio_async()
            tg.cancel_scope.cancel()
    finally:
        os.dup2(client_in, 0)
        os.dup2(client_out, 1)
        os.set_blocking(0, stdin_blocking)
        os.set_blocking(1, stdout_blocking)


# ---------------------------------------------------------------- 4. streamable HTTP

BATCH_MAX = 50  # messages in one HTTP batch: each runs as a request, and the rate limit counts the POST once
_ASGI = Callable[[dict[str, Any], Any, Any], Awaitable[None]]


async def post(app: _ASGI, scope: dict[str, Any], body: bytes, send: Any, checks: Checks | None = None) -> None:
    """A POST of ``body`` to the SDK's endpoint ``app``, where the SDK fails a client on
    it: a JSON-RPC batch is answered with one array, each message going to ``app`` as a
    request of its own; a body that is no JSON-RPC message gets ``-32600`` naming what is
    wrong (both got pydantic's dump as ``-32602``); a key given twice, and text the SDK's
    parser refuses (a lone surrogate), and NaN or Infinity (which the SDK reads), get stdio's answers
    (:func:`loads`, :func:`unreadable_reply`). A body in UTF-16 or UTF-32, or not valid UTF-8, gets -32700
    naming what it is (:func:`not_utf8`); a UTF-8 byte order mark is ignored."""
    if body.startswith(UTF8_BOM):
        body = body.removeprefix(UTF8_BOM)
        scope = _sized(scope, body)
    refused = not_utf8(body, "the body")
    if refused is not None:
        await _json(send, 400, error_reply(None, PARSE_ERROR, refused))
        return
    try:
        value = loads(body)
    except DuplicateKey as exc:
        await _json(send, 400, duplicate_reply(body, exc))
        return
    except NotJson as exc:
        await _json(send, 400, error_reply(None, PARSE_ERROR, f"Parse error: {exc}"))
        return
    except TooLarge as exc:
        charge = scope.get("state", {}).get(RATE_CHARGE)
        if charge is not None:  # read at a full batch's cost or more: counted as one (the request itself is)
            charge(BATCH_MAX - 1)
        await _json(send, 400, error_reply(leading_id(body), INVALID_REQUEST, str(exc)))
        return
    except (ValueError, RecursionError):
        await app(scope, _replay(body), send)  # the SDK's transport answers -32700 naming where
        return
    if isinstance(value, list):
        await _batch(app, scope, value, send, checks)
        return
    message, reply = checked_message(value)
    if message is None:
        await _json(send, 400 if reply else 202, reply)
        return
    if _sdk_line(value) is None:
        reply = await unreadable_reply(value, checks) if isinstance(message, JSONRPCRequest) else None
        await _json(send, 200 if reply else 202, reply)  # a notification: 202, as the SDK answers one
        return
    await app(scope, _replay(body), send)


async def _batch(app: _ASGI, scope: dict[str, Any], items: list[Any], send: Any, checks: Checks | None) -> None:
    """Each message of a batch through ``app`` on its own; one array of the replies (202
    and no body when there are none). A refusal that is no JSON-RPC reply answers the
    whole batch."""
    if not items or len(items) > BATCH_MAX:
        why = "the batch is empty" if not items else f"a batch holds at most {BATCH_MAX} messages; got {len(items):,}"
        await _json(send, 400, error_reply(None, INVALID_REQUEST, f"Invalid Request: {why}"))
        return
    charge = scope.get("state", {}).get(RATE_CHARGE)
    if charge is not None:  # the request was counted once by the rate limit: each further message too
        wait = max((charge() for _ in items[1:]), default=0.0)
        if wait > 0:
            said, retry = too_many(wait, f"too many requests for this key (a batch counts each of its {len(items)} messages)",
                                   scope["state"][RATE_LIMIT])
            await _json(send, 429, http_refusal(429, "rate_limited", said), [(b"retry-after", str(retry).encode())])
            return
    replies = []
    for item in items:
        message, reply = checked_message(item)
        if message is None:
            replies.extend([reply] if reply else [])
            continue
        if _sdk_line(item) is None:
            replies.extend([await unreadable_reply(item, checks)] if isinstance(message, JSONRPCRequest) else [])
            continue
        status, headers, body = await _collected(app, scope, json.dumps(item).encode())
        if status not in (200, 202):
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        if body:
            replies.append(json.loads(body))
    await _json(send, 200 if replies else 202, replies or None)


# The key under which the HTTP guard leaves, in the ASGI scope's state, a function that counts
# one more request (or its argument's number) against the caller's rate limit (seconds to wait; 0: counted).
RATE_CHARGE = "memvault.rate_charge"
RATE_LIMIT = "memvault.rate_limit"  # beside it: the caller's requests a minute


def too_many(wait: float, what: str, per_minute: int) -> tuple[str, int]:
    """A 429's words and its Retry-After (whole seconds, at least 1) for a wait of ``wait`` seconds: ``what``
    was too many, the limit of ``per_minute`` requests a minute named."""
    retry = max(1, math.ceil(wait))
    return f"{what}: the limit is {per_minute:,} a minute; retry in {retry} s", retry


def _replay(body: bytes) -> Any:
    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}
    return receive


async def _collected(app: _ASGI, scope: dict[str, Any], body: bytes) -> tuple[int, list[Any], bytes]:
    """``(status, headers, body)`` of ``app``'s response to ``scope`` with ``body``."""
    got: dict[str, Any] = {"status": 500, "headers": [], "body": b""}

    async def send(event: dict[str, Any]) -> None:
        if event["type"] == "http.response.start":
            got["status"], got["headers"] = event["status"], event.get("headers", [])
        elif event["type"] == "http.response.body":
            got["body"] += event.get("body", b"")

    await app(_sized(scope, body), _replay(body), send)
    return got["status"], got["headers"], got["body"]


def _sized(scope: dict[str, Any], body: bytes) -> dict[str, Any]:
    """``scope`` with a Content-Length header of ``body``'s length in place of the one sent."""
    headers = [(k, v) for k, v in scope["headers"] if k != b"content-length"]
    return {**scope, "headers": [*headers, (b"content-length", str(len(body)).encode())]}


async def _json(send: Any, status: int, value: object, headers: list[tuple[bytes, bytes]] | None = None) -> None:
    body = b"" if value is None else json.dumps(value).encode()
    sent = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status,
                "headers": (sent if body else sent[1:]) + (headers or [])})
    await send({"type": "http.response.body", "body": body})
