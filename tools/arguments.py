"""The tools' arguments: one declaration per field, giving both the published JSON
Schema (``inputSchema``) and the check every call goes through before storage.

Limits come from ``storage.limits`` only, so the schema a client reads and the rule
the server applies cannot drift apart. One coercion rule holds for every field:

- each value must have its field's JSON type; ``null`` is the same as leaving the
  argument out;
- a number with no fractional part (``7`` or ``7.0``) is an integer (JSON has one
  number type);
- a string given for a field that is not a string is read as JSON and accepted when
  that JSON has the field's type (``"8"`` for an integer, ``'["a"]'`` for a list,
  ``"true"`` for a boolean), since some clients send every value as a string.
  Nothing else converts: ``"yes"`` and ``1`` are not booleans, ``"7.5"`` is not an
  integer.

Unknown arguments are refused, naming the closest valid one. Every error is an
:class:`InvalidInput` that names the field, what was wrong and the limit.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from typing import Any

from memvault.storage import limits, timefmt, validate
from memvault.storage.errors import InvalidInput, MemvaultError, shown

_TYPE_WORDS = {"string": "a string", "integer": "an integer", "boolean": "true or false", "array": "a list"}
# Names agents reach for that look nothing like the right one (difflib finds the rest).
_SYNONYMS = {
    "type": "kind", "category": "kind", "text": "content", "memory": "content", "body": "content",
    "q": "query", "search": "query", "k": "limit", "n": "limit", "top_k": "limit", "max_results": "limit",
    "memory_id": "id", "uuid": "id", "namespace": "scope", "project": "scope", "priority": "importance",
    "labels": "tags", "label": "tags", "from": "since", "after": "since", "before": "until", "to": "until",
    "why": "reason", "types": "kinds", "history": "include_history",
}


class UnknownArgument(InvalidInput):
    """An argument the tool does not take; the message names the closest valid one."""

    def __init__(self, field: str, message: str) -> None:
        MemvaultError.__init__(self, message)
        self.field = field


@dataclass(frozen=True)
class Arg:
    """One argument: its JSON type, description and limits (all optional)."""

    type: str
    description: str
    required: bool = False
    enum: tuple[str, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    min_length: int | None = None
    max_length: int | None = None
    format: str | None = None
    items: Arg | None = None
    max_items: int | None = None
    too_long: str = ""  # advice added to the error for a string over max_length
    shape: str = ""  # what a valid value is, when its type and limits do not say it (a memory id)

    def schema(self) -> dict[str, Any]:
        """This argument as JSON Schema (draft 2020-12 keywords)."""
        out: dict[str, Any] = {"type": self.type}
        if self.description:
            out["description"] = self.description
        for key, value in (
            ("enum", list(self.enum) if self.enum else None), ("minimum", self.minimum),
            ("maximum", self.maximum), ("minLength", self.min_length), ("maxLength", self.max_length),
            ("format", self.format), ("maxItems", self.max_items),
        ):
            if value is not None:
                out[key] = value
        if self.items is not None:
            out["items"] = self.items.schema()
        return out

    def expected(self) -> str:
        """What a valid value is, in words: "an integer from 1 to 10"."""
        if self.shape:
            return self.shape
        if self.enum:
            return "one of " + ", ".join(self.enum)
        if self.type == "integer" and self.minimum is not None and self.maximum is not None:
            return f"an integer from {self.minimum} to {self.maximum}"
        if self.type == "array" and self.items is not None:
            return f"a list of at most {self.max_items} {self.items.expected_plural()}"
        if self.format == "date-time":
            return "an ISO-8601 date-time string such as 2024-05-01T13:56:00Z"
        if self.type == "string" and self.max_length is not None:
            least = f"{self.min_length}-" if self.min_length else "at most "
            return f"a string of {least}{self.max_length:,} characters"
        return _TYPE_WORDS[self.type]

    def expected_plural(self) -> str:
        if self.enum:
            return "of " + ", ".join(self.enum)
        return f"strings of at most {self.max_length:,} characters" if self.max_length else "strings"

    def check(self, field: str, value: object) -> object:
        """The value, converted by the coercion rule; raises :class:`InvalidInput`."""
        if self.type != "string" and isinstance(value, str):
            try:
                parsed = json.loads(value)
            except (ValueError, RecursionError):
                parsed = None
            if parsed is not None and self._has_type(parsed):
                value = parsed
        if not self._has_type(value):
            # A value that is no id, date-time or kind reads alike whatever its type
            # ("id: 1.5 is not a memory id: ...", as "'1.5'" does in storage).
            if self.shape:
                raise validate.not_an_id(field, value)
            if self.format == "date-time":
                raise timefmt.not_a_date_time(field, value)
            if self.enum:
                raise InvalidInput(field, f"{shown(value)} is not one of {', '.join(self.enum)}")
            raise InvalidInput(field, f"must be {self.expected()}; got {shown(value)}")
        if self.type == "integer":
            number = int(value)  # type: ignore[call-overload]
            if (self.minimum is not None and number < self.minimum) or (
                self.maximum is not None and number > self.maximum
            ):
                # The value as sent: 1e30 reads "1e+30", 10**30 all its digits (not int(1e30)'s).
                raise validate.out_of_range(field, self.minimum, self.maximum, value)  # type: ignore[arg-type]
            return number
        if self.type == "string":
            assert isinstance(value, str)
            if self.enum and value not in self.enum:
                raise InvalidInput(field, f"{shown(value)} is not one of {', '.join(self.enum)}")
            # Counted as stored: white space around the text is trimmed first.
            if self.max_length is not None and len(value.strip()) > self.max_length:
                raise InvalidInput(field, f"is {len(value.strip()):,} characters; the limit is {self.max_length:,}"
                                          + (f". {self.too_long}" if self.too_long else ""))
            if self.min_length and len(value) < self.min_length:
                if self.shape:
                    raise InvalidInput(field, f"is empty: {self.shape}")
                raise validate.empty(field, value, self.max_length or 0)
            return value
        if self.type == "array":
            assert isinstance(value, list) and self.items is not None
            if self.max_items is not None and len(value) > self.max_items:
                raise InvalidInput(field, f"has {len(value):,} items; the limit is {self.max_items}")
            return [self.items.check(f"{field}[{i}]", item) for i, item in enumerate(value)]
        return value

    def _has_type(self, value: object) -> bool:
        if self.type == "string":
            return isinstance(value, str)
        if self.type == "boolean":
            return isinstance(value, bool)
        if self.type == "integer":
            return not isinstance(value, bool) and (
                isinstance(value, int) or (isinstance(value, float) and value.is_integer())
            )
        return isinstance(value, list)


def _text(description: str, max_length: int, **kw: Any) -> Arg:
    return Arg("string", description, max_length=max_length, **kw)


def _time(description: str) -> Arg:
    return Arg("string", description, format="date-time", max_length=64)


KIND_HELP = (
    "fact (default), preference (how the user likes things), decision (a choice made and why), "
    "procedure (how to do something), episode (what happened), failure (what went wrong and the lesson)."
)
CONTENT = _text(
    f"The memory: one self-contained statement, 1-{limits.CONTENT_MAX_CHARS:,} characters. "
    "Write it so it makes sense alone later (names, not pronouns).",
    limits.CONTENT_MAX_CHARS, required=True, min_length=1, too_long=limits.SPLIT_ADVICE,
)
TAG = _text("", limits.TAG_MAX_CHARS, min_length=1)
TAGS = Arg(
    "array", f"Up to {limits.TAGS_MAX} labels, each 1-{limits.TAG_MAX_CHARS} characters; stored lower-case.",
    items=TAG, max_items=limits.TAGS_MAX,
)
IMPORTANCE = Arg(
    "integer", f"{limits.IMPORTANCE_MIN}-{limits.IMPORTANCE_MAX}, default {limits.DEFAULT_IMPORTANCE}. "
    "Use 8-10 for things that must not be missed.",
    minimum=limits.IMPORTANCE_MIN, maximum=limits.IMPORTANCE_MAX,
)
SCOPE = _text(
    "Group inside your memory space, e.g. a project name; 'global' is shared by all scopes. "
    "Default: the server's configured scope.", limits.SCOPE_MAX_CHARS, min_length=1,
)
SOURCE = _text(
    "Who or what said it, e.g. 'user', 'tool:pytest', a conversation id.", limits.SOURCE_MAX_CHARS
)
OBSERVED_AT = _time(
    "When the fact was observed (ISO-8601, e.g. 2024-05-01T13:56:00Z); default now. No offset means UTC."
)
EXPIRES_AT = _time("ISO-8601 time after which the memory is never returned (later than observed_at).")
REASON = _text("Why, in a few words; kept with the history or the tombstone.", limits.REASON_MAX_CHARS)
MEMORY_ID = _text(
    "A memory id as remember or recall returned it (the short form shown in text works too).", 64,
    required=True, min_length=1, shape=limits.ID_SHAPE,
)

TOOLS: dict[str, dict[str, Arg]] = {
    "remember": {
        "content": CONTENT,
        "kind": Arg("string", KIND_HELP, enum=limits.KINDS),
        "tags": TAGS,
        "importance": IMPORTANCE,
        "scope": SCOPE,
        "source": SOURCE,
        "observed_at": OBSERVED_AT,
        "expires_at": EXPIRES_AT,
        "idempotency_key": _text(
            "Optional client token that makes a retried call safe: the same key with the same content "
            "returns the first call's id.", limits.IDEMPOTENCY_KEY_MAX_CHARS,
        ),
        "check_similar": Arg(
            "boolean", "When true and current memories of the scope are very close in meaning, store nothing and "
            "return them in similar, so you can supersede one instead (default false: store, and list them).",
        ),
    },
    "recall": {
        "query": _text(
            "What to look for, in plain words; no search syntax needed. Leave it empty and give a filter "
            "(kinds, tags, since, until or scope) to list matching memories, newest first.",
            limits.QUERY_MAX_CHARS,
        ),
        "limit": Arg(
            "integer",
            f"How many memories at most, 1-{limits.RECALL_MAX_LIMIT}; default {limits.RECALL_DEFAULT_LIMIT}.",
            minimum=1, maximum=limits.RECALL_MAX_LIMIT,
        ),
        "kinds": Arg(
            "array", "Only these kinds.", items=Arg("string", "", enum=limits.KINDS), max_items=len(limits.KINDS)
        ),
        "tags": Arg("array", "Only memories that carry all of these tags.", items=TAG, max_items=limits.TAGS_MAX),
        "scope": Arg(
            "string", "Search only this scope (default: the server's scope plus 'global').",
            min_length=1, max_length=limits.SCOPE_MAX_CHARS,
        ),
        "since": _time("Only memories observed at or after this ISO-8601 time."),
        "until": _time("Only memories observed before this ISO-8601 time."),
        "include_history": Arg("boolean", "Also return superseded memories (the history)."),
    },
    "supersede": {
        "id": MEMORY_ID,
        "content": CONTENT,
        "reason": REASON,
        "kind": Arg("string", "The new version's kind; inherited from the old memory when omitted. " + KIND_HELP,
                    enum=limits.KINDS),
        "tags": Arg("array", TAGS.description + " Inherited from the old memory when omitted.",
                    items=TAG, max_items=limits.TAGS_MAX),
        "importance": Arg("integer", IMPORTANCE.description + " Inherited when omitted.",
                          minimum=limits.IMPORTANCE_MIN, maximum=limits.IMPORTANCE_MAX),
        "source": _text(SOURCE.description + " Inherited when omitted.", limits.SOURCE_MAX_CHARS),
        "observed_at": OBSERVED_AT,
        "expires_at": _time(EXPIRES_AT.description + " Inherited when omitted."),
    },
    "forget": {
        "id": MEMORY_ID,
        "reason": REASON,
        "include_history": Arg("boolean", "Also forget every earlier and later version of this memory."),
    },
}


# The prompts' arguments (MCP sends them as strings): checked like the tools' by
# :func:`check_prompt` before the SDK renders the prompt; their descriptions are the ones published.
# An optional one may be empty: clients send "" for the arguments a user left blank, and
# the prompt then reads it as left out.
PROMPTS: dict[str, dict[str, Arg]] = {
    "save_session": {
        "focus": _text("Optional: the topic to concentrate on, e.g. 'the deploy pipeline'.", limits.QUERY_MAX_CHARS),
        "scope": _text("Optional: the scope to store in (default: the server's).", limits.SCOPE_MAX_CHARS),
    },
    "review_memories": {
        "topic": _text("The topic to review, in plain words, e.g. 'database hosts'.", limits.QUERY_MAX_CHARS,
                       required=True, min_length=1),
        "scope": _text("Optional: review only this scope.", limits.SCOPE_MAX_CHARS),
    },
}


def input_schema(tool: str) -> dict[str, Any]:
    """The ``inputSchema`` of ``tool``: every argument typed, no others allowed."""
    args = TOOLS[tool]
    return {
        "type": "object",
        "properties": {name: arg.schema() for name, arg in args.items()},
        "required": [name for name, arg in args.items() if arg.required],
        "additionalProperties": False,
    }


def check(tool: str, arguments: object) -> dict[str, Any]:
    """``arguments`` of a call to ``tool`` checked and converted (see the module doc);
    arguments left out or null are absent from the result.

    Raises:
        InvalidInput: an unknown argument (:class:`UnknownArgument`), a missing
            required one, or a value of the wrong type or outside its limits.
    """
    return _checked(tool, TOOLS[tool], arguments)


def check_prompt(prompt: str, arguments: object) -> dict[str, Any]:
    """``arguments`` of a ``prompts/get`` of ``prompt`` checked as :func:`check` checks a
    tool's; a required text must hold more than white space.

    Raises:
        InvalidInput: a prompt memvault does not have (:class:`UnknownArgument`, field
            ``name``), an argument that looks like a credential, else as :func:`check`.
    """
    if prompt not in PROMPTS:
        raise UnknownArgument("name", unknown_name("prompt", prompt, list(PROMPTS), "memvault's prompts"))
    out = _checked(prompt, PROMPTS[prompt], {} if arguments is None else arguments)
    for name, value in out.items():
        if PROMPTS[prompt][name].min_length and not value.strip():
            raise validate.empty(name, value, PROMPTS[prompt][name].max_length or 0)
        validate.no_credential(name, value)  # the prompt's text repeats it, and asks to remember it
    return out


def _checked(what: str, args: dict[str, Arg], arguments: object) -> dict[str, Any]:
    if not isinstance(arguments, dict):
        raise InvalidInput("arguments", f"must be an object with the fields {', '.join(args)}")
    for name in arguments:
        if name not in args:
            raise UnknownArgument(name, _unknown_message(what, list(args), str(name)))
    out: dict[str, Any] = {}
    for name, arg in args.items():
        value = arguments.get(name)
        if value is None:
            if arg.required:
                raise InvalidInput(name, f"is required: {arg.expected()}")
            continue
        out[name] = arg.check(name, value)
    return out


# How alike (difflib's ratio) a name must be to a valid one to be suggested: a typo
# ("importnace", "tag" for "tags") is above 0.8; "bogus" and "focus", alike only in
# three letters, 0.6.
CLOSE_MATCH = 0.75


def unknown_name(what: str, name: str, valid: list[str], offers: str) -> str:
    """The one wording of a name that is not one of ``valid``: ``unknown argument 'tag';
    did you mean 'tags'? remember takes: ...``, suggesting a valid name only when one is
    close (:data:`CLOSE_MATCH`) or a known synonym (``type`` for ``kind``); ``offers``
    lists the valid names."""
    guess = _SYNONYMS.get(name.lower())
    if guess not in valid:
        guess = (difflib.get_close_matches(name.lower(), valid, n=1, cutoff=CLOSE_MATCH) or [None])[0]
    hint = f"; did you mean {guess!r}?" if guess else "."
    return f"unknown {what} {shown(name)}{hint} {offers}: {', '.join(valid)}"


def _unknown_message(tool: str, valid: list[str], name: str) -> str:
    return unknown_name("argument", name, valid, f"{tool} takes")
