"""Where the MCP Python SDK (mcp 2.3) fails a client, the smallest fix, through its public API only.

1. Arguments: :class:`Checks` (server middleware) checks ``tools/call`` and ``prompts/get`` in memvault's words.
2. Schemas: ``tools/list`` publishes plain, self-contained schemas (anthropics/claude-code#76040).
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
import stat
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl

import anyio
from mcp.shared.exceptions import MCPError
from mcp.shared.uri_template import UriTemplate
from mcp.types import INVALID_PARAMS, METHOD_NOT_FOUND, CallToolResult, TextContent
from mcp_types import JSONRPCMessage, JSONRPCNotification, JSONRPCRequest, jsonrpc_message_adapter
from pydantic import TypeAdapter, ValidationError

from memvault.storage import limits, timefmt, validate
from memvault.storage.errors import NOT_UNICODE, InvalidInput, credentials_in, encodable, shown
from memvault.tools.schemas import self_contained

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

log = logging.getLogger(__name__)

# ---------------------------------------------------------------- 1. arguments

_TYPE_WORDS = {"string": "a string", "integer": "an integer", "boolean": "true or false", "array": "a list"}
# Names agents reach for that look nothing like the right one (validate.closest finds the rest).
_SYNONYMS = {
    "type": "kind", "category": "kind", "text": "content", "memory": "content", "body": "content",
    "q": "query", "search": "query", "k": "limit", "n": "limit", "top_k": "limit", "max_results": "limit",
    "memory_id": "id", "uuid": "id", "namespace": "scope", "project": "scope", "priority": "importance",
    "labels": "tags", "label": "tags", "from": "since", "after": "since", "before": "until", "to": "until",
    "why": "reason", "types": "kinds", "history": "include_history",
}
_SHAPES = {"id": limits.ID_SHAPE}  # what a valid value is, where its type and limits do not say it
_TOO_LONG = {"content": limits.SPLIT_ADVICE}  # advice added when the text is over its limit


def unknown_name(what: str, name: str, valid: list[str], offers: str) -> str:
    """The one wording of a name that is not one of ``valid``: ``unknown argument 'tag';
    did you mean 'tags'? remember takes: ...``, suggesting a valid name only when one is
    close (:func:`validate.closest`) or a known synonym (``type`` for ``kind``)."""
    guess = _SYNONYMS.get(name.lower())
    if guess not in valid:
        guess = validate.closest(name, valid)
    hint = f"; did you mean {guess!r}?" if guess else "."
    return f"unknown {what} {shown(name)}{hint} {offers}: {', '.join(valid)}"


class UnknownName(InvalidInput):
    """An argument or prompt memvault does not have; the message alone names it and
    the closest valid one."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(field, message)
        self.args = (message,)

    def __str__(self) -> str:
        return self.reason


def not_unicode(value: object, where: str = "") -> tuple[str, str] | None:
    """``(field, why)`` for the first text in ``value`` (parsed JSON, found at ``where``) that is not valid
    Unicode: a string (``tags[2]``, :data:`NOT_UNICODE`) or a name in an object (``arguments``, "a name
    '\\ud800' is not valid Unicode (a lone surrogate)"); None if there is none. Such text must reach
    no encoder and no credential scanner. Iterative: ``value`` may be nested as deep as JSON allows."""
    stack = [(where, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str) and not encodable(item):
            return where, NOT_UNICODE
        if isinstance(item, dict):
            name = next((n for n in item if not encodable(str(n))), None)
            if name is not None:
                return where, f"a name {shown(name)} is not valid Unicode (a lone surrogate)"
            stack.extend((f"{where}.{n}" if where else str(n), child) for n, child in reversed(item.items()))
        elif isinstance(item, list):
            stack.extend((f"{where}[{i}]", child) for i, child in reversed(list(enumerate(item))))
    return None


def plain(schema: dict[str, Any]) -> dict[str, Any]:
    """An argument schema as the SDK derives it from a function, as memvault publishes
    and checks it: no ``$ref``, no titles, an optional argument's ``anyOf [T, null]``
    read as ``T`` (null means left out), and no other arguments allowed."""
    schema = self_contained(schema)
    properties = {}
    for name, prop in schema.get("properties", {}).items():
        prop = {k: v for k, v in prop.items() if k != "title"}
        branches = [b for b in prop.pop("anyOf", []) if b.get("type") != "null"]
        if branches:
            prop = {**branches[0], **prop}
        if "default" in prop and prop["default"] is None:
            del prop["default"]
        properties[name] = prop
    out = {k: v for k, v in schema.items() if k != "title"}
    return {**out, "properties": properties, "required": schema.get("required", []), "additionalProperties": False}


def _expected(name: str, prop: dict[str, Any]) -> str:
    """What a valid value is, in words: "an integer from 1 to 10"."""
    kind = prop.get("type")
    if name in _SHAPES:
        return _SHAPES[name]
    if "enum" in prop:
        return "one of " + ", ".join(prop["enum"])
    if kind == "integer" and "minimum" in prop and "maximum" in prop:
        return f"an integer from {prop['minimum']} to {prop['maximum']}"
    if kind == "array":
        items = prop.get("items", {})
        plural = "of " + ", ".join(items["enum"]) if "enum" in items else \
            f"strings of at most {items['maxLength']:,} characters" if "maxLength" in items else "strings"
        return f"a list of at most {prop.get('maxItems')} {plural}"
    if prop.get("format") == "date-time":
        return "an ISO-8601 date-time string such as 2024-05-01T13:56:00Z"
    if kind == "string" and "maxLength" in prop:
        least = f"{prop['minLength']}-" if prop.get("minLength") else "at most "
        return f"a string of {least}{prop['maxLength']:,} characters"
    return _TYPE_WORDS.get(kind, "a value")


def _has_type(kind: str | None, value: object) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":
        return not isinstance(value, bool) and (isinstance(value, int) or (isinstance(value, float)
                                                                            and value.is_integer()))
    return isinstance(value, list)


def check_value(name: str, prop: dict[str, Any], value: object) -> object:
    """``value`` of argument ``name`` checked against its schema ``prop`` and converted by the one
    coercion rule of docs/tools.md (a string holding JSON of the field's type; a whole float as an
    integer); a text over its limit only by white space around it is passed on trimmed.

    Raises:
        InvalidInput: naming the field, what was wrong and the limit.
    """
    bad = not_unicode(value, name)
    if bad is not None:
        raise InvalidInput(*bad)
    kind = prop.get("type")
    if kind != "string" and isinstance(value, str):
        try:
            parsed = json.loads(value)
        except (ValueError, RecursionError):
            parsed = None
        if parsed is not None and _has_type(kind, parsed):
            value = parsed
    if not _has_type(kind, value):
        if name in _SHAPES:
            raise validate.not_an_id(name, value)
        if prop.get("format") == "date-time":
            raise timefmt.not_a_date_time(name, value)
        if "enum" in prop:
            raise validate.not_one_of(name, value, prop["enum"])
        raise InvalidInput(name, f"must be {_expected(name, prop)}; got {shown(value)}")
    if kind == "integer":
        number = int(value)  # type: ignore[call-overload]
        low, high = prop.get("minimum"), prop.get("maximum")
        if (low is not None and number < low) or (high is not None and number > high):
            raise validate.out_of_range(name, low, high, value)  # type: ignore[arg-type]
        return number
    if kind == "string":
        assert isinstance(value, str)
        if "enum" in prop and value not in prop["enum"]:
            raise validate.not_one_of(name, value, prop["enum"])
        most = prop.get("maxLength")
        if most is not None and len(value) > most:
            if len(value.strip()) > most:
                advice = f". {_TOO_LONG[name.split('[')[0]]}" if name.split("[")[0] in _TOO_LONG else ""
                raise InvalidInput(name, f"is {len(value.strip()):,} characters; the limit is {most:,}{advice}")
            value = value.strip()
        if prop.get("minLength") and len(value) < prop["minLength"]:
            raise validate.empty(name, value, most or 0)
        return value
    if kind == "array":
        assert isinstance(value, list)
        if prop.get("maxItems") is not None and len(value) > prop["maxItems"]:
            raise InvalidInput(name, f"has {len(value):,} items; the limit is {prop['maxItems']}")
        return [check_value(f"{name}[{i}]", prop.get("items", {}), item) for i, item in enumerate(value)]
    return value


def check_arguments(what: str, schema: dict[str, Any], arguments: object) -> dict[str, Any]:
    """``arguments`` of a call to ``what`` checked against its (:func:`plain`) schema and
    converted (:func:`check_value`); arguments left out or null are absent from the result.

    Raises:
        InvalidInput: an unknown argument (naming the closest valid one), a missing
            required one, or a value of the wrong type or outside its limits.
    """
    properties: dict[str, Any] = schema["properties"]
    if not isinstance(arguments, dict):
        raise InvalidInput("arguments", f"must be an object with the fields {', '.join(properties)}")
    bad = not_unicode(dict.fromkeys(arguments), "arguments")  # names only: a value is refused by its field
    if bad is not None:
        raise InvalidInput(*bad)
    for name in arguments:
        if name not in properties:
            raise UnknownName(str(name), unknown_name("argument", str(name), list(properties), f"{what} takes"))
    out: dict[str, Any] = {}
    for name, prop in properties.items():
        if arguments.get(name) is None:
            if name in schema["required"]:
                raise InvalidInput(name, f"is required: {_expected(name, prop)}")
            continue
        out[name] = check_value(name, prop, arguments[name])
    return out


def _refusal(text: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


@dataclass
class Checks:
    """Server middleware (``MCPServer(middleware=[checks])``): part 1 and 2 of the module
    doc. ``server`` and ``prompts`` (name to function) are set once they exist."""

    resources: tuple[str, ...]
    server: MCPServer[Any] | None = None
    prompts: dict[str, Callable[..., Any]] = field(default_factory=dict)
    _tools: dict[str, dict[str, Any]] | None = None

    async def tool_schemas(self) -> dict[str, dict[str, Any]]:
        """Each tool's ``inputSchema`` as published, by name."""
        if self._tools is None:
            assert self.server is not None
            self._tools = {t.name: plain(t.input_schema) for t in await self.server.list_tools()}
        return self._tools

    async def refuse_call(self, name: str, arguments: object) -> tuple[str | None, dict[str, Any]]:
        """``(why the tools/call is refused, {})`` or ``(None, the arguments converted)``."""
        tools = await self.tool_schemas()
        bad = not_unicode(name, "name")
        if bad is not None:
            return ": ".join(bad), {}
        if name not in tools:
            return unknown_name("tool", name, list(tools), "memvault's tools"), {}
        try:
            return None, check_arguments(name, tools[name], {} if arguments is None else arguments)
        except InvalidInput as exc:
            return str(exc), {}

    def check_prompt(self, name: str, arguments: object) -> dict[str, Any]:
        """The arguments of a ``prompts/get``: as a tool's, and a required text must hold
        more than white space and none may look like a credential (the prompt repeats it).

        Raises:
            InvalidInput: as :func:`check_arguments`, or an unknown prompt.
        """
        bad = not_unicode(name, "name")
        if bad is not None:
            raise InvalidInput(*bad)
        if name not in self.prompts:
            raise UnknownName("name", unknown_name("prompt", name, list(self.prompts), "memvault's prompts"))
        schema = plain(TypeAdapter(self.prompts[name]).json_schema())
        out = check_arguments(name, schema, {} if arguments is None else arguments)
        for arg, value in out.items():
            if arg in schema["required"] and not value.strip():
                raise validate.empty(arg, value, schema["properties"][arg].get("maxLength", 0))
            validate.no_credential(arg, value)
        return out

    def prompt_refusal(self, name: str, arguments: object) -> str | None:
        """Why a ``prompts/get`` is refused (:meth:`check_prompt`), naming the prompt it is for, or None."""
        try:
            self.check_prompt(name, arguments)
        except InvalidInput as exc:
            return f"prompt {name}: {exc}" if name in self.prompts else str(exc)
        return None

    async def __call__(self, ctx: Any, call_next: Callable[[Any], Awaitable[Any]]) -> Any:
        params = ctx.params if isinstance(ctx.params, dict) else {}
        name = params.get("name")
        if ctx.method == "tools/list":
            result = await call_next(ctx)
            for tool in result.get("tools", []):
                tool["inputSchema"] = plain(tool["inputSchema"])
                if tool.get("outputSchema"):
                    tool["outputSchema"] = self_contained(tool["outputSchema"])
            return result
        if ctx.method == "tools/call" and isinstance(name, str):
            refused, arguments = await self.refuse_call(name, params.get("arguments"))
            if refused is not None:
                return _refusal(refused)
            result = await call_next(replace(ctx, params={**params, "arguments": arguments}))
            prefix = f"Error executing tool {name}: "  # memvault's messages start with their field
            for block in result.get("content", []) if result.get("isError") else []:
                if block.get("type") == "text" and block["text"].startswith(prefix):
                    block["text"] = block["text"][len(prefix):]
            return result
        if ctx.method == "prompts/get" and isinstance(name, str):
            refused = self.prompt_refusal(name, params.get("arguments"))
            if refused is not None:
                raise MCPError(code=INVALID_PARAMS, message=refused)
        uri = params.get("uri")
        refused = resource_refusal(self.resources, uri) if ctx.method == "resources/read" and isinstance(uri, str) \
            else None
        if refused is not None:
            raise MCPError(code=INVALID_PARAMS, message=refused)
        try:
            return await call_next(ctx)
        except MCPError as exc:  # the SDK's "Method not found" sends the method back as its data
            masked = credentials_in(exc.error.data) if isinstance(exc.error.data, str) else None
            if exc.error.code == METHOD_NOT_FOUND and masked is not None:
                raise MCPError(code=METHOD_NOT_FOUND, message=exc.error.message, data=masked) from None
            raise


def resource_refusal(resources: tuple[str, ...], uri: str) -> str | None:
    """Why ``uri`` is not one of ``resources``, in memvault's words, or None: no resource's path fits
    it (as the SDK matches: ``{name}`` is any text without ``/``), or it has a query while the
    resources of its path take none (the SDK calls it unknown). A resource that takes a query
    ignores parameters it does not know, as RFC 6570 matching does in the SDK."""
    base, _, query = uri.partition("?")
    taken: set[str] = set()
    matched = []
    for resource in resources:
        path, _, names = resource.partition("{?")
        if UriTemplate.parse(path).match(base) is not None:
            matched.append(resource)
            taken.update(n.strip() for n in names.rstrip("}").split(",") if n.strip())
    if not matched:
        return unknown_name("resource", uri, list(resources), "memvault's resources")
    given = [name for name, _ in parse_qsl(query, keep_blank_values=True)] if query else []
    if query and not given:
        given = [query]
    if not given or taken:
        return None
    return (f"uri: {shown(uri)}: unknown query parameter {', '.join(map(shown, sorted(set(given))))}; "
            f"{matched[0]} takes no query (memory://boot?task=... and memory://sessions/{{id}}?tokens=... do)")


# ---------------------------------------------------------------- 3. stdio

PARSE_ERROR, INVALID_REQUEST, INTERNAL_ERROR = -32700, -32600, -32603  # JSON-RPC 2.0 §5.1
DRAIN_TIMEOUT_S = 30.0  # how long requests in flight may still finish once stdin is closed


@dataclass
class _Batch:
    """Replies to one batch line, written as one array once ``waiting`` is empty."""

    waiting: set[str] = field(default_factory=set)
    replies: list[dict[str, Any]] = field(default_factory=list)


def _key(request_id: object) -> str:
    return json.dumps(request_id)  # 1 and "1" are different ids


def error_reply(request_id: object, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


class NotJson(ValueError):
    """The message holds NaN, Infinity or -Infinity, which Python's parser reads and JSON has not."""


def _reject_constant(name: str) -> None:
    raise NotJson(f"{name} is not JSON")


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


def loads(text: str | bytes) -> Any:
    """A message as JSON, on both transports: NaN and Infinity refused (:class:`NotJson`), a key given
    twice in one object refused (:class:`DuplicateKey`) rather than the last one silently kept."""
    return json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_unique)


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
            result = _refusal(refused).model_dump(mode="json", by_alias=True, exclude_none=True)
            return {"jsonrpc": "2.0", "id": item["id"], "result": result}
    if item.get("method") == "prompts/get" and isinstance(name, str) and checks is not None:
        refused = checks.prompt_refusal(name, params.get("arguments"))
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
        reason = "nested too deeply"
        if isinstance(exc, ValidationError):
            first = exc.errors()[0]
            reason = f"{'.'.join(str(p) for p in first['loc'][1:]) or 'message'}: {first['msg']}"
        request_id = item.get("id")
        return None, error_reply(request_id if _usable(request_id) else None, INVALID_REQUEST,
                                 f"Invalid Request: {reason}")
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

    async def drained(self, timeout_s: float) -> None:
        """Wait (at most ``timeout_s``) until every request passed on has been answered."""
        with anyio.move_on_after(timeout_s):
            while self._open:
                await self._answered.wait()
                self._answered = anyio.Event()

    async def _write(self, value: object) -> None:
        try:
            data = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: \u escapes are still valid JSON
            data = json.dumps(value, separators=(",", ":")).encode("ascii")
        await self._out(data + b"\n")

    async def incoming(self, raw: bytes) -> None:
        """One line from the client: its messages passed on to the SDK, or answered."""
        if not raw.strip():
            return
        try:
            value = loads(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            refused = f"Parse error: the line is not valid UTF-8 ({exc.reason} at byte {exc.start})"
        except RecursionError:
            refused = "Parse error: the JSON is nested too deeply"
        except DuplicateKey as exc:
            await self._write(duplicate_reply(raw, exc))
            return
        except ValueError as exc:  # json.JSONDecodeError and rejected constants
            refused = f"Parse error: {exc}"
        else:
            refused = "Invalid Request: the batch is empty" if value == [] else None
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
        if batch is not None and not batch.waiting and batch.replies:
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
        """One line from the SDK: written, or kept for the batch it answers."""
        try:
            value = json.loads(raw)
        except ValueError:
            log.warning("dropped a line on the SDK's stdout that is not JSON")
            return
        if not isinstance(value, dict) or "method" in value or "id" not in value:  # the server's own messages
            await self._write(value)
        else:
            await self._settle(_key(value["id"]), value)

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
    lock = anyio.Lock()

    async def write(data: bytes) -> None:
        async with lock:
            view = memoryview(data)
            while view:
                view = view[await anyio.to_thread.run_sync(os.write, fd, view):]

    return write


async def serve(server: MCPServer[Any]) -> None:
    """Run ``server`` on the process's stdin/stdout with the SDK's stdio transport, behind
    :class:`Wire`, until stdin closes. Stdin's blocking mode is restored at the end (the
    program run after memvault shares it: a terminal left non-blocking fails its reads)."""
    stdin_blocking = os.get_blocking(0)
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


# ---------------------------------------------------------------- 4. streamable HTTP

BATCH_MAX = 50  # messages in one HTTP batch: each runs as a request, and the rate limit counts the POST once
_ASGI = Callable[[dict[str, Any], Any, Any], Awaitable[None]]


async def post(app: _ASGI, scope: dict[str, Any], body: bytes, send: Any, checks: Checks | None = None) -> None:
    """A POST of ``body`` to the SDK's endpoint ``app``, where the SDK fails a client on
    it: a JSON-RPC batch is answered with one array, each message going to ``app`` as a
    request of its own; a body that is no JSON-RPC message gets ``-32600`` naming what is
    wrong (both got pydantic's dump as ``-32602``); a key given twice, and text the SDK's
    parser refuses (a lone surrogate), and NaN or Infinity (which the SDK reads), get stdio's answers
    (:func:`loads`, :func:`unreadable_reply`)."""
    try:
        value = loads(body)
    except DuplicateKey as exc:
        await _json(send, 400, duplicate_reply(body, exc))
        return
    except NotJson as exc:
        await _json(send, 400, error_reply(None, PARSE_ERROR, f"Parse error: {exc}"))
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
            await _json(send, 429, {"error": "rate_limited", "error_description": f"too many requests for this key "
                                    f"(a batch counts each of its {len(items)} messages); retry in {math.ceil(wait)} s"})
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


# The key under which the HTTP guard leaves, in the ASGI scope's state, a function that
# counts one more request against the caller's rate limit (seconds to wait; 0: counted).
RATE_CHARGE = "memvault.rate_charge"


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

    headers = [(k, v) for k, v in scope["headers"] if k != b"content-length"]
    await app({**scope, "headers": [*headers, (b"content-length", str(len(body)).encode())]}, _replay(body), send)
    return got["status"], got["headers"], got["body"]


async def _json(send: Any, status: int, value: object) -> None:
    body = b"" if value is None else json.dumps(value).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers if body else headers[1:]})
    await send({"type": "http.response.body", "body": body})
