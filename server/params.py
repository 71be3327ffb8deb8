"""A request's ``params`` refused in memvault's words, naming the field and what it must be, where the
MCP Python SDK (mcp 2.3) answers -32602 "Invalid request parameters" with empty data for every shape.

The SDK checks each spec method's ``params`` after the server middleware and raises pydantic's
``ValidationError`` through it (``mcp.server.context``: "failure reaches the middleware as a raised ...
ValidationError for malformed params"); :class:`.checks.Checks` turns it into :func:`params_refusal`.
What a method takes is read from the public request models of ``mcp.types.ClientRequest``. The SDK's
empty data is deliberate ("no pydantic text on the wire", ``mcp.shared.jsonrpc_dispatcher``); no
upstream issue asks for the field, so none is linked here.

Why it exists: docs/architecture.md, "The server around the MCP SDK". Delete it once the SDK names the field.
"""

from __future__ import annotations

import re
import typing
from functools import cache
from typing import Any

import mcp.types
from pydantic import BaseModel, ValidationError

from memvault.storage.errors import shown

TYPE_WORDS = {"string": "a string", "integer": "an integer", "number": "a number", "boolean": "true or false",
              "array": "a list", "object": "an object"}
# pydantic's error types in memvault's words (its message names a model class for an object)
MUST = {"missing": "is required", "model_type": "must be an object", "dict_type": "must be an object",
         "model_attributes_type": "must be an object", "string_type": "must be a string",
         "int_type": "must be an integer", "bool_type": "must be true or false", "list_type": "must be a list"}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,39}$")  # a field's name shown as it is; any other key quoted


@cache
def _params_models() -> dict[str, type[BaseModel]]:
    """Each client request method's ``params`` model, from ``mcp.types.ClientRequest``."""
    out: dict[str, type[BaseModel]] = {}
    for request in typing.get_args(mcp.types.ClientRequest):
        method = typing.get_args(request.model_fields["method"].annotation)
        params = request.model_fields["params"].annotation
        models = [a for a in (typing.get_args(params) or (params,)) if isinstance(a, type) and issubclass(a, BaseModel)]
        if method and models:
            out[method[0]] = models[0]
    return out


def _kind(prop: dict[str, Any]) -> str:
    """What a JSON schema property is, in words: ``a string``, ``an object``, ``a string or null``."""
    kinds = [prop.get("type")] + [p.get("type") for p in prop.get("anyOf", [])]
    if "$ref" in prop or any("$ref" in p for p in prop.get("anyOf", [])):
        kinds.append("object")
    words = list(dict.fromkeys(TYPE_WORDS[k] for k in kinds if k in TYPE_WORDS))
    return " or ".join(words) or "a value"


def knows(method: str) -> bool:
    """Whether ``method`` is a client request of the protocol (one whose params :func:`takes` describes)."""
    return method in _params_models()


def takes(method: str) -> str:
    """What ``method``'s params are, in words: ``an object with uri (a string)``; its required fields
    alone (the others are optional), or ``an object`` when it requires none."""
    model = _params_models().get(method)
    if model is None:
        return "an object"
    schema = model.model_json_schema(by_alias=True)
    required = [(name, _kind(schema["properties"][name])) for name in schema.get("required", [])]
    fields = ", ".join(f"{name} ({kind})" for name, kind in required)
    return f"an object with {fields}" if fields else "an object"


def _field(loc: tuple[int | str, ...]) -> str:
    """``arguments.focus`` for the location ``("params", "arguments", "focus")``; a key that is not a
    plain name is quoted (:func:`shown`: never a credential, never long)."""
    parts = [str(p) if isinstance(p, int) or _NAME.match(p) else shown(p) for p in loc[1:]]
    return ".".join(parts) or "params"


def params_refusal(method: str, exc: ValidationError) -> str:
    """The message of the -32602 refusing ``method``'s params: its first fault, e.g. ``uri: is required;
    resources/read takes params as an object with uri (a string)`` or ``name: Input should be a valid
    string; tools/call takes params as an object with name (a string)``."""
    error = exc.errors()[0]
    field = _field(tuple(error["loc"]))
    why = MUST.get(error["type"], error["msg"])
    return f"{field}: {why}; {method} takes params as {takes(method)}"
