"""Tool and prompt arguments, tool schemas and resource URIs checked in memvault's words, where the
MCP Python SDK (mcp 2.3) answers with pydantic's dump or "Internal error"; through its public API only.

1. Arguments: :class:`Checks` (server middleware) checks ``tools/call`` and ``prompts/get``, and names
   the field of any method's params the SDK refuses (:mod:`.params`).
2. Schemas: ``tools/list`` publishes plain, self-contained schemas (anthropics/claude-code#76040).

Why each exists: docs/architecture.md, "The server around the MCP SDK". Delete a part once the SDK does it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import parse_qsl, unquote_plus

import anyio.to_thread
from mcp.shared.exceptions import MCPError
from mcp.shared.uri_template import UriTemplate
from mcp.types import INVALID_PARAMS, METHOD_NOT_FOUND, CallToolResult, TextContent
from pydantic import TypeAdapter, ValidationError

from memvault.storage import limits, timefmt, validate
from memvault.storage.errors import (NOT_UNICODE, SHOWN_SCAN_CHARS, InvalidInput, credentials_in, encodable,
                                     shown)
from memvault.tools.prompts import ARGUMENT_RULES
from memvault.tools.schemas import self_contained

from .params import TYPE_WORDS, params_refusal

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from .runtime import Runtime

log = logging.getLogger(__name__)
T = TypeVar("T")
# Runs a check (``work()``) off the event loop: a credential scan is CPU work.
Runner = Callable[[Callable[[], T]], Awaitable[T]]


# ---------------------------------------------------------------- 1. arguments

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
    if not valid:
        return f"unknown {what} {shown(name)}{hint} {offers} no {what}s"
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
    return TYPE_WORDS.get(kind, "a value")


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
    integer); a text's length is counted as sent, white space around it included.

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
        if most is not None and len(value) > most:  # counted as sent: white space around it counts too
            advice = f". {_TOO_LONG[name.split('[')[0]]}" if name.split("[")[0] in _TOO_LONG else ""
            raise InvalidInput(name, f"is {len(value):,} characters; the limit is {most:,}{advice}")
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


def refusal(text: str) -> CallToolResult:
    """A tool call's error result saying ``text``."""
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

    async def refuse_call(self, name: str, arguments: object, run: Runner[Any] = anyio.to_thread.run_sync
                          ) -> tuple[str | None, dict[str, Any]]:
        """``(why the tools/call is refused, {})`` or ``(None, the arguments converted)``; checked by
        ``run`` (on a thread)."""
        tools = await self.tool_schemas()

        def refused() -> tuple[str | None, dict[str, Any]]:
            bad = not_unicode(name, "name")
            if bad is not None:
                return ": ".join(bad), {}
            if name not in tools:
                return unknown_name("tool", name, list(tools), "memvault's tools"), {}
            try:
                return None, check_arguments(name, tools[name], {} if arguments is None else arguments)
            except InvalidInput as exc:
                return str(exc), {}

        return await run(refused)

    def check_prompt(self, name: str, arguments: object) -> dict[str, Any]:
        """The arguments of a ``prompts/get``: as a tool's, and a required text must hold
        more than white space and none may look like a credential (the prompt repeats it); one the
        prompt passes to a tool is checked as that tool's field (``tools.prompts.ARGUMENT_RULES``).

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
            rule = ARGUMENT_RULES.get((name, arg))
            if rule is not None and value != "":  # "" is an optional argument left blank
                rule(arg, value)
        return out

    def promptrefusal(self, name: str, arguments: object) -> str | None:
        """Why a ``prompts/get`` is refused (:meth:`check_prompt`), naming the prompt it is for, or None."""
        try:
            self.check_prompt(name, arguments)
        except InvalidInput as exc:
            return f"prompt {name}: {exc}" if name in self.prompts else str(exc)
        return None

    async def __call__(self, ctx: Any, call_next: Callable[[Any], Awaitable[Any]]) -> Any:
        """The request checked (:meth:`_checked`); params the SDK refuses are refused naming the field
        and what the method takes (:func:`.params.params_refusal`), where the SDK would send no data."""
        try:
            return await self._checked(ctx, call_next)
        except ValidationError as exc:
            raise MCPError(code=INVALID_PARAMS, message=params_refusal(ctx.method, exc)) from None

    async def _checked(self, ctx: Any, call_next: Callable[[Any], Awaitable[Any]]) -> Any:
        """Checks run on a thread in one of the caller's turns (``Runtime.in_turn``): a credential scan
        of a refused value holds neither the event loop nor more than the caller's own calls at once."""
        runtime: Runtime = ctx.lifespan_context
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
            refused, arguments = await self.refuse_call(name, params.get("arguments"), runtime.in_turn)
            if refused is not None:
                return refusal(refused)
            result = await call_next(replace(ctx, params={**params, "arguments": arguments}))
            prefix = f"Error executing tool {name}: "  # memvault's messages start with their field
            for block in result.get("content", []) if result.get("isError") else []:
                if block.get("type") == "text" and block["text"].startswith(prefix):
                    block["text"] = block["text"][len(prefix):]
            return result
        if ctx.method == "prompts/get" and isinstance(name, str):
            refused = await runtime.in_turn(lambda: self.promptrefusal(name, params.get("arguments")))
            if refused is not None:
                raise MCPError(code=INVALID_PARAMS, message=refused)
        uri = params.get("uri")
        if ctx.method == "resources/read" and isinstance(uri, str):
            refused = await runtime.in_turn(lambda: resourcerefusal(self.resources, uri))
            if refused is not None:
                raise MCPError(code=INVALID_PARAMS, message=refused)
        try:
            return await call_next(ctx)
        except MCPError as exc:  # the SDK's "Method not found" sends the method back as its data
            data = exc.error.data
            if exc.error.code != METHOD_NOT_FOUND or not isinstance(data, str):
                raise
            masked = await runtime.in_turn(lambda: method_data(data))
            if masked == data:
                raise
            raise MCPError(code=METHOD_NOT_FOUND, message=exc.error.message, data=masked) from None


def method_data(method: str) -> str:
    """What an unknown method's error sends back as ``data``: the method, or what it looks like when its
    first ``SHOWN_SCAN_CHARS`` hold a credential (:func:`credentials_in`); a longer one cut there, as
    :func:`shown` scans a name from a bounded prefix only."""
    head = method[:SHOWN_SCAN_CHARS]
    masked = credentials_in(head)
    if masked is not None:
        return masked
    return method if head == method else head + "..."


# The longest resource URI read: a task of QUERY_MAX_CHARS characters percent-encoded (9 a character at most,
# a 3-byte UTF-8 one) with room for the rest.
URI_MAX_CHARS = 9 * limits.QUERY_MAX_CHARS + 1_000


def resourcerefusal(resources: tuple[str, ...], uri: str) -> str | None:
    """Why ``uri`` is not one of ``resources``, in memvault's words, or None: longer than
    :data:`URI_MAX_CHARS`; no resource's path fits it (as the SDK matches: ``{name}`` is any
    text without ``/``); a parameter its resource takes is given twice (the SDK reads the first);
    a query parameter's name, or the value of one its resource does not take (as the SDK names
    it: as sent, ``t%61sk`` is not ``task``), or the fragment holds a credential, as sent or
    percent-decoded (a read's result sends its URI back, what it ignores still in it; a value it
    takes is checked as that field, ``task``); or it has a query while the resources of its path
    take none (the SDK calls it unknown). A resource that takes a query ignores parameters it does
    not know, as RFC 6570 matching does in the SDK."""
    if len(uri) > URI_MAX_CHARS:  # the SDK's own refusal of a longer one quoted it whole, into its log too
        return f"uri: is {len(uri):,} characters; the limit is {URI_MAX_CHARS:,}"
    base, _, query = uri.partition("?")
    query, _, fragment = query.partition("#")  # the SDK reads no fragment after a query: it is only sent back
    taken: set[str] = set()
    matched = []
    for resource in resources:
        path, _, names = resource.partition("{?")
        if UriTemplate.parse(path).match(base) is not None:
            matched.append(resource)
            taken.update(n.strip() for n in names.rstrip("}").split(",") if n.strip())
    if not matched:
        return unknown_name("resource", uri, list(resources), "memvault's resources")
    pieces = [piece.partition("=") for piece in query.split("&")] if query else []
    names = [name for name, _, _ in pieces]
    twice = next((name for name in taken if names.count(name) > 1), None)
    if twice is not None:
        return (f"uri: the query parameter {twice!r} is given {names.count(twice)} times; the resource reads "
                "one value of it: give it once")
    # One scan of every text, a line each (docs/team-server-security.md); each text once
    held = credentials_in("\n".join(dict.fromkeys(text for name, eq, value in [*pieces, (fragment, "", "")]
                                                   for text in (() if name in taken else (
                                                       name + eq + value, unquote_plus(name), unquote_plus(value)))
                                                   if text)))
    if held is not None:  # described, never quoted
        return (f"uri: a query parameter holds {held} (in its name, or the value of one {matched[0]} does not "
                "take, or the fragment); memvault reads no URI holding a credential, as a read sends its URI "
                "back: remove it")
    given = [name for name, _ in parse_qsl(query, keep_blank_values=True)] if query else []
    if query and not given:
        given = [query]
    if not given or taken:
        return None
    return (f"uri: {shown(uri)}: unknown query parameter {', '.join(map(shown, sorted(set(given))))}; "
            f"{matched[0]} takes no query (memory://boot?task=... and memory://sessions/{{id}}?tokens=... do)")
