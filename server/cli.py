"""The ``memvault`` command: ``serve``, commands to inspect and change memories, maintenance, client set-up.

Commands print text on stdout (one JSON document with ``--json``), notes and errors on stderr;
``serve`` writes only JSON-RPC to stdout. Each command's arguments are one row of :data:`COMMANDS`.
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import os
import re
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from memvault.storage.errors import credentials_in, shown
from memvault.storage.limits import IMPORTANCE_MAX, IMPORTANCE_MIN, KINDS, RECALL_MAX_LIMIT
from memvault.storage.location import redacted

from . import client_commands
from . import config as config_module
from . import version
from .cli_io import NAMES, OutputFailed, RedactedStream, err, exit_code, flush, in_cli_words, out
from .clients import CLIENTS
from .store_commands import RUN, damaged, say_created

if TYPE_CHECKING:
    from memvault.storage.store import Store

Flags = dict[str, dict[str, Any]]  # a flag or positional argument -> add_argument's keywords
_integer = config_module.whole_number  # a number flag's type: ASCII digits, as every path reads them


# Flags allowed before the command too (`memvault --db X stats`): moved after it before parsing.
LEADING: Flags = {
    "--db": {"help": "database file, or a postgresql://user@host/database URL (its password in ~/.pgpass or "
                     "PGPASSWORD: arguments are shown in the process list) (env MEMVAULT_DB; default: a file in "
                     "the user data directory)"},
    "--tenant": {"help": "tenant: hard isolation boundary (env MEMVAULT_TENANT; default 'default')"},
    "--scope": {"help": "scope (env MEMVAULT_SCOPE; default 'default'; 'global' is shared)"},
    "--model-dir": {"help": "folder with model.onnx + tokenizer.json (env MEMVAULT_MODEL_DIR)"},
    "--json": {"action": "store_true", "help": "print one JSON document instead of text"},
    "--allow-secrets": {"action": "store_true", "default": None, "help": "store content even when it "
                        "contains credentials (env MEMVAULT_ALLOW_SECRETS; default: refuse)"},
}
DB, JSON = {"--db": LEADING["--db"]}, {"--json": LEADING["--json"]}
OPEN = {name: LEADING[name] for name in ("--db", "--tenant", "--scope", "--model-dir")}
SECRETS = {"--allow-secrets": LEADING["--allow-secrets"]}
FILTERS: Flags = {
    "--kind": {"action": "append", "dest": "kinds", "metavar": "KIND", "help": "only this kind (repeatable)"},
    "--tag": {"action": "append", "dest": "tags", "metavar": "TAG",
              "help": "only memories with this tag (repeatable: all)"},
    "--since": {"help": "only memories observed at or after this ISO-8601 time"},
    "--until": {"help": "only memories observed before this ISO-8601 time"},
    "--history": {"action": "store_true", "help": "include superseded memories"},
}
FIELDS: Flags = {
    "--kind": {"help": ", ".join(KINDS[:-1]) + " or " + KINDS[-1]},
    "--tag": {"action": "append", "dest": "tags", "metavar": "TAG", "help": "a tag (repeatable)"},
    "--importance": {"type": _integer, "help": f"{IMPORTANCE_MIN}-{IMPORTANCE_MAX}"},
    "--observed-at": {"metavar": "TIME",
                      "help": "when it was observed, ISO-8601 (default now; no offset: UTC)"},
    "--expires-at": {"metavar": "TIME", "help": "after this ISO-8601 time it is never returned"},
    "--source": {"help": "where it came from (a file, a URL, a conversation)"},
}
MEMORY_ID = {"id": {"help": "the memory's id (as remember, recall or list printed it)"}}


def _limit(default: int) -> Flags:
    help = f"at most this many, 1 to {RECALL_MAX_LIMIT} (default {default})"
    return {"--limit": {"type": _integer, "help": help}}


# `serve --transport http` only: each other flag here is refused on stdio.
HTTP: Flags = {
    "--transport": {"choices": ("stdio", "http"), "default": "stdio", "help": "default: stdio"},
    "--host": {"help": "address to bind (env MEMVAULT_HOST; default 127.0.0.1)"},
    "--port": {"type": _integer, "help": f"port (env MEMVAULT_PORT; default {config_module.DEFAULT_PORT})"},
    "--auth": {"choices": config_module.AUTH_MODES, "help": "keys (memvault API keys), oauth (JWT access "
               "tokens) or none (loopback only) (env MEMVAULT_AUTH; default keys)"},
    "--oauth-issuer": {"dest": "issuer", "help": "OAuth: the issuer URL (env MEMVAULT_OAUTH_ISSUER)"},
    "--oauth-resource": {"dest": "resource", "help": "OAuth: this server's public URL, the tokens' audience "
                         "(env MEMVAULT_OAUTH_RESOURCE), e.g. https://memory.example.com/mcp"},
    "--oauth-jwks-url": {"dest": "jwks_url", "help": "OAuth: the issuer's JWKS (env MEMVAULT_OAUTH_JWKS_URL; "
                         "default <issuer>/.well-known/jwks.json)"},
    "--oauth-tenant-claim": {"dest": "tenant_claim", "help": "OAuth: the claim naming the tenant "
                             "(env MEMVAULT_OAUTH_TENANT_CLAIM; default tenant)"},
    "--oauth-jwks-max-age": {"dest": "jwks_max_age", "type": _integer, "help": "OAuth: seconds the issuer's "
                             "key set is trusted (read again from half that age) "
                             "(env MEMVAULT_OAUTH_JWKS_MAX_AGE; default 60)"},
    "--oauth-max-token-lifetime": {"dest": "max_token_lifetime", "type": _integer, "help": "OAuth: seconds a "
                                   "token may live, exp minus iat (env MEMVAULT_OAUTH_MAX_TOKEN_LIFETIME; "
                                   "default 86400)"},
    "--rate-limit": {"type": _integer, "help": "requests per minute per key, counted by each process on "
                     "its own (N processes behind a balancer allow a key up to N times this; for a total of "
                     "L give each L/N), 0 for none "
                     f"(env MEMVAULT_RATE_LIMIT; default {config_module.DEFAULT_RATE_LIMIT})"},
    "--allowed-host": {"action": "append", "dest": "allowed_hosts", "metavar": "HOST", "help": "also accept "
                       "this Host header, e.g. memory.example.com (repeatable; env MEMVAULT_ALLOWED_HOSTS, "
                       "comma-separated)"},
    "--allowed-origin": {"action": "append", "dest": "allowed_origins", "metavar": "ORIGIN", "help": "also "
                         "accept this Origin header, e.g. https://memory.example.com (repeatable; "
                         "env MEMVAULT_ALLOWED_ORIGINS)"},
    "--trusted-proxy": {"action": "append", "dest": "trusted_proxies", "metavar": "ADDRESS", "help": "a reverse "
                        "proxy's IP address or network, e.g. 127.0.0.1: its X-Forwarded-For names the client "
                        "that failed-authentication limits count (repeatable; env MEMVAULT_TRUSTED_PROXIES)"},
}

COMMANDS: dict[str, tuple[str, Flags]] = {
    "serve": ("Run the MCP server: on stdio (MCP clients start this; see `memvault setup`), or with "
              "--transport http as a team server.",
              {**OPEN, **SECRETS, "--boot-tokens": {"type": _integer, "help": "boot context token budget "
                                                    "(env MEMVAULT_BOOT_TOKENS)"},
               "--consolidate-hours": {"type": _integer, "help": "consolidate when the last run is this many "
                                       "hours old, 0 for never by time (env MEMVAULT_CONSOLIDATE_HOURS; "
                                       f"default {config_module.CONSOLIDATE_HOURS})"},
               "--consolidate-after-writes": {"type": _integer, "help": "and after this many writes, 0 "
                                              "for never by writes (env MEMVAULT_CONSOLIDATE_AFTER_WRITES; "
                                              f"default {config_module.CONSOLIDATE_AFTER_WRITES})"}, **HTTP}),
    "keys": ("Manage the API keys of the HTTP team server: create, list, revoke.", {}),
    "remember": ("Store a memory.", {"content": {"help": "the memory: one self-contained "
                                              "statement (- reads it from standard input)"}, **OPEN, **SECRETS, **FIELDS, **JSON}),
    "recall": ("Search memories by meaning and keywords, best first.",
               {"query": {"help": "what to look for, in plain words"}, **OPEN, **FILTERS, **JSON,
                **_limit(5),
                "--turns": {"action": "store_true", "help": "search the captured sessions' turns instead, by "
                            "keywords only (docs/tools.md#searching-turns)"},
                "--session": {"metavar": "SESSION_ID", "help": "with --turns: this session's turns only"}}),
    "list": ("List memories newest first (all of them, or those that pass the filters).",
             {**DB, "--tenant": LEADING["--tenant"], "--scope": LEADING["--scope"], **FILTERS, **JSON,
              **_limit(20),
              "--cursor": {"help": "the next page: the cursor the page before printed (stable while others "
                                   "write)"},
              "--offset": {"type": _integer, "help": "skip this many of the newest first (default 0; a "
                           "memory written meanwhile moves the pages: prefer --cursor)"}}),
    "show": ("Show one memory with its history.",
             {**MEMORY_ID, **DB, "--tenant": LEADING["--tenant"], **JSON}),
    "forget": ("Delete a memory for good: its text is erased from the files, a tombstone stays.",
               {"id": {**MEMORY_ID["id"], "nargs": "?"}, **DB, "--tenant": LEADING["--tenant"], **JSON,
                "--session": {"metavar": "SESSION_ID", "help": "instead of an id: forget a captured session "
                              "whole, its turns and its digest"},
                "--reason": {"help": "why; kept in the tombstone (a memory's only: not with --session)"},
                "--history": {"action": "store_true", "help": "also forget every other version"}}),
    "supersede": ("Replace a memory by a corrected version (the old one stays in the history).",
                  {**MEMORY_ID, "content": {"nargs": "?", "help": "the corrected memory (- reads it from standard "
                                                             "input)"},
                   "--by": {"metavar": "ID", "help": "instead of CONTENT: the id of a memory already stored that "
                            "replaces this one (nothing new is written)"}, **DB,
                   "--tenant": LEADING["--tenant"], "--model-dir": LEADING["--model-dir"], **SECRETS,
                   **FIELDS, **JSON, "--reason": {"help": "why it changed; kept with the history"}}),
    "confirm": ("Confirm a memory still holds (its strength rises), or record a run of a procedure.",
                {**MEMORY_ID, **DB, "--tenant": LEADING["--tenant"], **JSON,
                 "--outcome": {"metavar": "success|failure", "help": "a procedure's run: how it went"},
                 "--note": {"help": "with --outcome failure: the failure mode"},
                 "--beside": {"metavar": "ID", "help": "a memory contradicting this one when both hold: that pair "
                              "leaves review"}}),
    "stats": ("Counts of memories by state, kind, tenant and scope.", {**DB, **JSON}),
    "reindex": ("Rebuild the keyword index and every vector; Ctrl-C stops it, a re-run resumes.",
                {**DB, "--model-dir": LEADING["--model-dir"], **JSON}),
    "consolidate": ("Compact old low-importance episodes into weekly digests and look for contradicting "
                    "memories; print what changed and what waits for review "
                    "(docs/how-memory-works.md#consolidation).",
                    {**DB, "--model-dir": LEADING["--model-dir"], **JSON}),
    "doctor": ("Check the database; exit 1 when something is wrong.",
               {**DB, "--model-dir": LEADING["--model-dir"], **JSON, "--repair": {"action": "store_true",
                "help": "rebuild the derived indexes (keywords, vectors) and finish a pending scrub first"}}),
    "encrypt": ("Encrypt the SQLite file with the configured key (MEMVAULT_KEY_FILE or MEMVAULT_KEYRING; "
                "docs/encryption.md); no server may have it open.", {**DB}),
    "decrypt": ("Turn the encrypted SQLite file back into a plain one (docs/encryption.md).", {**DB}),
    "export": ("Write the tenant's memories (with history) as JSON lines.",
               {**DB, "--tenant": LEADING["--tenant"],
                "--output": {"aliases": ("-o",), "help": "file to write (default: stdout)"}}),
    "import": ("Read memories from JSON lines: `memvault export`'s format, or lines with only "
               "\"content\" (other fields take remember's defaults); with --from claude-code, Claude Code's "
               "session transcripts as sessions and turns. Importing twice adds nothing; Ctrl-C "
               "stops, a re-run resumes. Exit 1 when a line failed.",
               {"file": {"nargs": "?", "help": "the JSON lines file, or - for stdin; with --from: a "
                         "transcript (.jsonl) or a folder of them (default ~/.claude/projects)"},
                "--from": {"dest": "source", "choices": ("claude-code",), "help": "read a client's session "
                           "transcripts (docs/hooks.md#import)"}, **OPEN, **SECRETS, **JSON}),
    "setup": ("Print (or --write) the configuration entry an MCP client needs to start memvault.",
              {"client": {"choices": CLIENTS, "metavar": None},
               **DB, "--tenant": LEADING["--tenant"], "--scope": LEADING["--scope"], **JSON,
               "--write": {"action": "store_true", "help": "merge the entry into the client's config file"},
               "--bundle": {"metavar": "OUT.mcpb", "help": "claude-desktop: write a Claude Desktop extension "
                            "running this memvault instead, to install by opening it"},
               "--hooks": {"action": "store_true", "help": "claude-code: print memvault's hooks merged into "
                           "~/.claude/settings.json instead (with --write: merge them there; docs/hooks.md)"}}),
    "ui": ("Open a local web page to see, search and correct the memories (docs/ui.md); Ctrl-C stops.",
           {**OPEN, "--port": {"type": _integer, "default": 0, "help": "port (default: a free one)"},
            "--host": {"default": "127.0.0.1", "help": "address to bind (default 127.0.0.1; off loopback "
                       "only with --allow-network)"},
            "--no-browser": {"action": "store_true", "help": "print the URL without opening a browser"},
            "--allow-network": {"action": "store_true", "help": "sign in with the team server's API keys "
                                "or OAuth (--auth and its flags below) instead of a token "
                                "(docs/ui.md#served-to-a-network)"},
            **{flag: spec for flag, spec in HTTP.items() if flag not in ("--transport", "--host", "--port",
                                                                        "--rate-limit")}}),
    "hook": ("Run as a client's hook (setup claude-code --hooks --write writes them): read the hook's JSON on stdin, "
             "print what the client expects; a failure exits 1, which never blocks the client.",
             {"client": {"help": "claude-code or codex"}, "event": {"help": "SessionStart, UserPromptSubmit, "
              "PostToolUse, Stop, PreCompact or SessionEnd (codex: the first two)"}, **DB,
              "--tenant": LEADING["--tenant"], "--scope": LEADING["--scope"]}),
}
KEYS: dict[str, tuple[str, Flags]] = {  # `memvault keys ACTION`
    "create": ("make a key: printed once on stdout, only its hash is stored", {
        **DB, **JSON, "--tenant": {"required": True, "help": "the tenant the key reads and writes"},
        "--scope": {"help": "its default scope (default 'default')"},
        "--name": {"help": "a label, e.g. the person or bot holding it"},
        "--read-only": {"action": "store_true", "help": "may recall and read resources only"},
        "--expires": {"type": _integer, "metavar": "DAYS", "help": "expires after this many days"}}),
    "list": ("every key's id, tenant, scope and state (never the keys)", {**DB, **JSON}),
    "revoke": ("revoke a key at once, on every server using this database",
               {**DB, **JSON, "id": {"help": "the key's id, as `memvault keys list` shows it"}}),
}


def _table(command: str) -> Flags:
    return KEYS[command[5:]][1] if command.startswith("keys ") else COMMANDS[command][1]


def flags_of(command: str) -> list[str]:
    """The flags ``command`` ("list", "keys create") takes, a short form after its long one."""
    return [flag for name, spec in _table(command).items() if name.startswith("-")
            for flag in (name, *spec.get("aliases", ()))]


_REQUIRED = re.compile(r"the following arguments are required: (.+)")
_CHOICE = re.compile(r"argument (.+?): invalid choice: (.+?) \(choose from (.*)\)", re.DOTALL)
_ARGUMENT = re.compile(r"argument (\S+): (.+)", re.DOTALL)  # "argument --limit: expected one argument"
_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`[^`]*`|\S+")  # a quoted value, or a word


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose errors (which repeat the refused value) never quote a credential; with
    ``--json`` in the command line (``json_errors``), also a JSON document on stdout."""

    json_errors = False

    def error(self, message: str) -> NoReturn:  # type: ignore[override]
        message = _QUOTED.sub(lambda m: credentials_in(m.group(0)) or m.group(0), message)
        field = None
        required = _REQUIRED.fullmatch(message)
        if required:  # argparse's words: "the following arguments are required: ID, CONTENT"
            names = required.group(1).split(", ")
            field = names[0].lstrip("-").lower().replace("-", "_")
            message = (f"{', '.join(names)}: {'is' if len(names) == 1 else 'are'} required "
                       f"(`{self.prog} -h` says what {'it takes' if len(names) == 1 else 'they take'})")
        choice = _CHOICE.fullmatch(message)
        argument = _ARGUMENT.fullmatch(message)
        if choice:  # argparse's words: "argument COMMAND: invalid choice: 'recal' (choose from 'serve', ...)"
            field, message = _not_a_choice(self.prog, *choice.groups())
        elif argument:  # "argument --limit: expected one argument", "argument --limit/-n: ..."
            name = argument.group(1).split("/")[0]
            field = name.lstrip("-").replace("-", "_").lower()
            said = "needs a value" if argument.group(2) == "expected one argument" else argument.group(2)
            message = f"{name}: {said} (`{self.prog} -h` says what it takes)"
        if self.json_errors:
            out(json.dumps({"error": {"field": field, "message": message}}, indent=2))
        super().error(message)


def _not_a_choice(prog: str, name: str, value: str, choices: str) -> tuple[str, str]:
    """The field and memvault's words for argparse's "invalid choice" of ``value`` for argument ``name``
    among ``choices`` (argparse's quoted list): the choices, and the nearest when one is near."""
    import difflib  # here: a hook imports this module, and its start counts (docs/hooks.md#speed)

    names = [choice.strip().strip("'\"") for choice in choices.split(",")]
    value = value.strip("'\"")
    near = difflib.get_close_matches(value, names, n=1)
    hint = f"; did you mean {near[0]!r}?" if near else ""
    if name in ("COMMAND", "ACTION"):
        return name.lower(), f"{value!r} is no `{prog}` command; its commands: {', '.join(names)}{hint} (`{prog} -h`)"
    return name.lstrip("-").replace("-", "_").lower(), f"{name}: {value!r} is not one of {', '.join(names)}{hint}"


class _Once(argparse.Action):
    """A flag taking one value, refused when given twice with two values (`--db A ... --db B`): argparse
    keeps the last silently, and a flag written before the command is read after it."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        given = vars(namespace).setdefault("_given", {})
        if self.dest in given and given[self.dest] != values:
            twice = " and ".join(sorted((repr(given[self.dest]), repr(values))))  # alike before and after the command
            parser.error(f"{option_string} is given twice, as {twice}: give it once")
        given[self.dest] = values
        setattr(namespace, self.dest, values)


def _add(parser: argparse.ArgumentParser, flags: Flags) -> None:
    http = parser.add_argument_group("HTTP team server (--transport http)")
    for name, spec in flags.items():
        spec = dict(spec)
        target = http if HTTP.get(name) is flags[name] else parser
        if name.startswith("-"):
            spec.setdefault("action", _Once)
            target.add_argument(name, *spec.pop("aliases", ()), **spec)
        else:
            target.add_argument(name, **{"metavar": name.upper(), **spec})


def _parsers() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The ``memvault`` parser and its commands' parsers by name ("list", "keys create")."""
    parser = _Parser(
        prog="memvault", description="Local persistent memory for MCP agents.",
        epilog="Flags go with the command: `memvault stats --db FILE`; the flags above may also come before "
        "it (`memvault --db FILE stats`), every other flag only after it (`memvault list --limit 3`).",
    )
    parser.add_argument("--version", action="version", version=f"memvault {version()}")
    before = parser.add_argument_group("flags allowed before the command too (for the commands that take "
                                       "them)")
    for name, spec in LEADING.items():  # read after the command (_flags_after_command): help only
        metavar = name[2:].upper().replace("-", "_")
        takes = {"action": "store_true"} if "action" in spec else {"metavar": metavar}
        before.add_argument(name, help=spec["help"], default=argparse.SUPPRESS, dest=f"_before_{name[2:]}",
                            **takes)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    parsers: dict[str, argparse.ArgumentParser] = {}
    for name, (description, flags) in COMMANDS.items():
        parsers[name] = sub.add_parser(name, help=description[0].lower() + description[1:].rstrip("."),
                                       description=description)
        _add(parsers[name], flags)
    actions = parsers["keys"].add_subparsers(dest="action", metavar="ACTION", required=True)
    for name, (description, flags) in KEYS.items():
        parsers[f"keys {name}"] = actions.add_parser(name, help=description)
        _add(parsers[f"keys {name}"], flags)
    return parser, parsers


def _flags_after_command(argv: Sequence[str]) -> tuple[list[str], str | None]:
    """``argv`` with the leading :data:`LEADING` flags moved to its end (before a ``--``), flags alone
    being ``serve`` when stdin is not a terminal; or ``argv`` unchanged and the first leading flag that
    only a command takes (``--limit`` in ``memvault --limit 3 list``), if any."""
    argv = list(argv)
    moved: list[str] = []
    i = 0
    while i < len(argv) and argv[i].startswith("-"):
        name = argv[i].split("=", 1)[0]
        if name in ("-h", "--help", "--version", "--"):
            return argv, None
        if name not in LEADING:
            return argv, name
        takes_value = "action" not in LEADING[name] and "=" not in argv[i]
        if takes_value and i + 1 >= len(argv):
            return argv, None
        moved += argv[i:i + 1 + takes_value]
        i += 1 + takes_value
    if i >= len(argv):  # flags only: `memvault --db X` as a client runs it is `memvault serve --db X`
        return (["serve", *moved] if moved and not sys.stdin.isatty() else argv), None
    rest = argv[i:]
    end = rest.index("--") if "--" in rest else len(rest)
    return rest[:end] + moved + rest[end:], None


def parse(argv: Sequence[str]) -> argparse.Namespace:
    """``argv`` parsed, the :data:`LEADING` flags before the command read as after it. Exits 2 (as
    argparse) on a refused argument; a flag the command does not take is refused alike before and after it."""
    parser, parsers = _parsers()
    _Parser.json_errors = "--json" in argv
    given, misplaced = _flags_after_command(argv)
    if misplaced is not None:
        command = next((word for word in given if word in COMMANDS), None)
        if command is not None and misplaced not in flags_of(command):
            _not_taken(parsers[command], command, misplaced)
        parser.error(f"{misplaced} goes after the command: `memvault {command or 'COMMAND'} {misplaced} "
                     f"...`; only {', '.join(LEADING)} may also come before it")
    if given and given[0].split("=", 1)[0] in LEADING:  # a person typed only flags
        parser.error(f"{given[0].split('=', 1)[0]} goes with a COMMAND, e.g. `memvault stats "
                     f"{' '.join(given)}` (see `memvault -h` for the commands)")
    at = next((i for i, word in enumerate(given) if word in KEYS), 0) if given[:1] == ["keys"] else 0
    if at > 1 and not {"-h", "--help"} & set(given[1:at]):  # `keys --db FILE list`: the action's flags, as after it
        given = ["keys", given[at], *given[1:at], *given[at + 1:]]
    args, extra = parser.parse_known_args(given)
    command = " ".join(word for word in (args.command, getattr(args, "action", None)) if word)
    if extra:  # named with the command's own usage (its error masks credentials)
        flag = next((word for word in extra if word.startswith("-") and word != "-"), None)
        if command and flag is not None:
            _not_taken(parsers[command], command, flag.split("=", 1)[0])
        words = " ".join(credentials_in(w) or w for w in extra)  # each whole (a key with spaces)
        if command:
            _not_taken(parsers[command], command, words)
        parser.error(f"unrecognized arguments: {words}")
    if not command and sys.stdin.isatty():
        parser.print_help(sys.stderr)  # a person typed `memvault`: clients always run `memvault serve`
        parser.exit(2)
    http_only = [flag for flag, spec in HTTP.items() if flag != "--transport"
                 and getattr(args, spec.get("dest", flag[2:].replace("-", "_")), None) is not None]
    if http_only and args.command == "serve" and args.transport != "http":  # on stdio they would be ignored
        verb = "applies" if len(http_only) == 1 else "apply"
        parsers["serve"].error(f"{', '.join(http_only)} {verb} only to the HTTP team server: add "
                               "--transport http (on stdio the client starts the server and talks to it "
                               "through a pipe, on no port)")
    return args


class _Refused(Exception):
    """An argument :func:`_hook_args`'s parser refuses (the whole parser then says why)."""


class _QuietParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # type: ignore[override]
        raise _Refused(message)


def _hook_args(argv: Sequence[str]) -> argparse.Namespace | None:
    """``memvault hook ...`` parsed by the ``hook`` command's parser alone, or None when ``argv`` is
    not a hook's or that parser refuses it (then :func:`parse` refuses it in its own words): building
    every command's parser is slow for a hook (docs/hooks.md#speed)."""
    if argv[:1] != ["hook"]:
        return None
    parser = _QuietParser(prog="memvault hook", add_help=False)  # -h: an extra word, for parse()
    _add(parser, COMMANDS["hook"][1])
    try:
        args, extra = parser.parse_known_args(argv[1:])
    except _Refused:
        return None
    if extra:
        return None
    args.command = "hook"
    return args


def _not_taken(parser: argparse.ArgumentParser, command: str, flag: str) -> NoReturn:
    """Exit 2 (as argparse): ``command`` takes no ``flag`` (or, not a flag, these words more), and these
    flags (and arguments)."""
    whole = command in ("stats", "reindex", "doctor", "consolidate") and flag in ("--tenant", "--scope")
    why = " (it covers the whole database: every tenant and scope)" if whole else ""
    takes = [name for name in flags_of(command) if name.startswith("--")]
    refused, named = credentials_in(flag) or flag, ""
    if not flag.startswith("-"):
        arguments = [spec.get("metavar", name.upper()) for name, spec in _table(command).items()
                     if not name.startswith("-")]
        refused, named = f"argument {refused!r}", f"its arguments: {', '.join(arguments) or 'none'}; "
    parser.error(f"`memvault {command}` takes no {refused}{why}; {named}its flags: "
                 f"{', '.join(takes) or 'none'} (`memvault {command} -h`)")


# Commands that read a tenant's memories and write none (the others taking --tenant write); their scope
# setting is a filter, which may name a scope stored before the name rules (config.read_scope).
READING = ("recall", "list", "show", "export")
# Commands that write memories: SQLite's quick check of the file runs first (its cost:
# docs/storage-tuning.md#the-damage-check). Not doctor or reindex, which repair.
CHECKED_FIRST = ("remember", "supersede", "forget", "confirm", "import", "consolidate")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``memvault`` console script; returns the exit code. A hook's stderr is
    redacted as a whole (:class:`cli_io.RedactedStream`): whatever message quotes its input, no
    credential is printed."""
    argv = sys.argv[1:] if argv is None else argv
    if "hook" not in argv or sys.stderr is None:  # (anywhere: ``--db X hook ...`` is a hook's too)
        return _main(argv)
    stderr = sys.stderr
    sys.stderr = RedactedStream(stderr)
    try:
        return _main(argv)
    finally:
        sys.stderr = stderr


def _main(argv: Sequence[str]) -> int:
    try:
        args = _hook_args(argv) or parse(argv)
    except SystemExit as exc:  # a hook's refused argument must not exit 2: its client would block on it
        if argv[:1] == ["hook"] and exc.code == 2:
            return client_commands.hooks_exit()
        raise
    command = args.command or "serve"
    if command == "setup" and getattr(args, "hooks", False):  # before the URL is read: that needs no driver
        from .hook_settings import refuse_password

        try:
            refuse_password(args.db if args.db is not None else os.environ.get("MEMVAULT_DB") or "")
        except ValueError as exc:
            err(f"{NAMES['db']}: {exc}; nothing was written")
            return 1
    stamped = "%(asctime)s " if command == "serve" else ""  # a server's log is read later; a command's at once
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, datefmt="%Y-%m-%dT%H:%M:%S%z",
                        format=stamped + "memvault %(levelname)s %(name)s: %(message)s")
    if command == "serve":
        from .log_limit import LinesPerMessage

        for handler in logging.getLogger().handlers:
            handler.addFilter(LinesPerMessage())
    settings = ("db", "tenant", "scope", "model_dir", "boot_tokens", "allow_secrets", "consolidate_hours",
                "consolidate_after_writes")
    try:
        config = config_module.load(**{name: getattr(args, name, None) for name in settings},
                                    serving=command in ("serve", "hook"), reading=command in READING)
    except config_module.DamagedFile as exc:
        if command == "doctor":  # the damage is its report
            from .store_commands import doctor_report

            return doctor_report(args, [f"the database file is damaged: {exc.problem}"])
        err(str(exc))  # damage found before opening exits as damage found by opening does: 1, not a bad flag's 2
        return client_commands.hooks_exit() if command == "hook" else 1
    except ValueError as exc:
        err(str(exc))
        return client_commands.hooks_exit() if command == "hook" else 2
    db = getattr(args, "db", None)
    if db and redacted(db) != db:  # a password in argv: any user of the machine reads it in `ps`
        err("warning: the password given in --db is visible to every user of this machine in the process "
             "list; give the URL in MEMVAULT_DB, or the password in ~/.pgpass or PGPASSWORD, instead")
    folder = config_module.missing_folder(config.db) if _creates_database(command, args) else None
    if folder is not None and command != "hook":  # (a hook says it as a hook: hooks.run)
        given = config.db_from  # --db, or MEMVAULT_DB when the value came from there
        if command == "setup":
            return _refused(args, "db", f"the folder {str(folder)!r} does not exist, and memvault makes a database "
                                        "but no folders (a typo would start an empty memory): the server and "
                                        "the hooks would refuse it, so setup writes no configuration for it; "
                                        f"create it, or fix {given}", given)
        what = {"serve": "the server", "keys": "keys create"}.get(command, command)
        return _refused(args, "db", f"the folder {str(folder)!r} does not exist: {what} makes a database but no "
                                    f"folders (a typo would start an empty memory); create it, or fix {given}", given)
    if command == "serve":
        return _serve_http(args, config) if getattr(args, "transport", "stdio") == "http" else _serve(config)
    own = {"ui": _ui, "keys": _keys, "setup": client_commands.setup}.get(command)
    if own is not None:
        return _printing(lambda: own(args, config))
    if command == "hook":
        return _printing(lambda: client_commands.hook(args, config), failed=client_commands.hooks_exit())
    if command in ("encrypt", "decrypt"):
        from . import encrypt_cli

        return encrypt_cli.run(command, config)
    return _printing(lambda: _with_store(command, args, config), done=lambda: getattr(args, "done", None))


def _creates_database(command: str, args: argparse.Namespace) -> bool:
    """Whether ``command`` makes the database when it is not there: the server (over stdio at its first
    write, over HTTP at once), ``keys create``, ``remember``, ``import`` and a hook, and ``setup``, whose
    configuration makes the client start one; each is refused when the folder of ``--db`` is missing
    (:func:`config.missing_folder`)."""
    return (command in ("serve", "remember", "import", "hook", "setup")
            or (command == "keys" and args.action == "create"))


def _printing(run: Callable[[], int], failed: int = 1, done: Callable[[], str | None] = lambda: None) -> int:
    """Run a command that prints: text the console cannot encode comes out escaped; a reader that
    stops (``| head``) ends it quietly with exit 141 (Python docs, ``signal``: "Note on SIGPIPE");
    output that cannot be written (stdout closed, a full disk) is said in one line, exit ``failed``
    (stdout closed: before the command runs), with what the command wrote all the same (``done()``: a
    memory stored before its result could be printed)."""
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(errors="backslashreplace")
    try:
        if sys.stdout is None:
            raise OutputFailed("standard output is closed")
        code = run()
        flush()
        return code
    except BrokenPipeError:
        _drop_output()
        return 141  # 128 + SIGPIPE (13); Windows has no SIGPIPE constant
    except OutputFailed as exc:
        _drop_output()
        written = done()
        err(f"{written}, but its result could not be printed: {exc}" if written else
            f"could not write the output: {exc}")
        return failed


def _drop_output() -> None:
    """Point stdout at the null device: the output Python still holds, flushed at exit, must not fail."""
    if sys.stdout is not None:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _serve(config: config_module.Config) -> int:
    import anyio

    from .app import build_server
    from .wire import serve as serve_stdio

    # The SDK reads stdin on a thread Ctrl-C cannot interrupt; every write is one transaction, so
    # exiting at once loses nothing. Stdin's and stdout's blocking modes are restored first (for the next program).
    shared = [(os.dup(fd), os.get_blocking(fd)) for fd in (0, 1)]  # each dup shares its stream's open file

    def stop(*_: object) -> None:
        for fd, blocking in shared:
            os.set_blocking(fd, blocking)
        os._exit(130)

    signal.signal(signal.SIGINT, stop)  # before saying it waits: Ctrl-C from then on stops it
    if sys.stdin.isatty():
        err("waiting for an MCP client on stdin; clients start this command themselves: `memvault setup "
             "claude-desktop` (or claude-code, cursor, vscode) prints their configuration. Ctrl-C stops.")
    else:
        logging.getLogger("memvault").info(
            "serving MCP on stdio (database %s, tenant %s, scope %s); waiting for a client on stdin",
            config.db_label, config.tenant, config.scope,
        )
    anyio.run(serve_stdio, build_server(config))
    return 0


def _serve_http(args: argparse.Namespace, config: config_module.Config) -> int:
    dests = [spec.get("dest", flag[2:].replace("-", "_")) for flag, spec in HTTP.items()][1:]  # not transport
    try:  # the settings read before the server's modules are imported: a refused one is said at once
        settings = config_module.load_http(**{dest: getattr(args, dest) for dest in dests})
        _caller_named(args, settings.auth)
    except ValueError as exc:
        err(str(exc))
        return 2
    from . import http

    try:  # a ValueError from serve: a setting refused once the server is built (http:// JWKS off loopback)
        http.serve(config, settings)
    except ValueError as exc:
        err(str(exc))
        return 2
    except http.CannotListen as exc:
        err(str(exc))
        return 1
    return 0


def _caller_named(args: argparse.Namespace, auth: str) -> None:
    """Refuse ``--tenant`` and ``--scope`` on a team server whose callers name their own (``auth`` keys or
    oauth: each key or token names its tenant, and a key its scope); log that ``MEMVAULT_TENANT`` and
    ``MEMVAULT_SCOPE``, which the CLI of the same shell may use, are not.

    Raises:
        ValueError: naming each flag given and the mode.
    """
    if auth == "none":
        return
    given = [flag for flag in ("--tenant", "--scope") if getattr(args, flag[2:]) is not None]
    if given:
        one = len(given) == 1
        names = "each key names its tenant, and a key its scope" if auth == "keys" else "each token names its tenant"
        raise ValueError(f"{', '.join(given)}: {'has' if one else 'have'} no effect with --auth {auth} ({names}), "
                         f"so {'it is' if one else 'they are'} refused rather than ignored: remove "
                         f"{'it' if one else 'them'}, or serve with --auth none (on loopback only)")
    for name in ("MEMVAULT_TENANT", "MEMVAULT_SCOPE"):
        if os.environ.get(name):
            logging.getLogger("memvault.server").warning(
                "%s is not used with --auth %s: each caller's %s names its tenant%s", name, auth,
                "key" if auth == "keys" else "token", " and scope" if auth == "keys" else "")


def _ui(args: argparse.Namespace, config: config_module.Config) -> int:
    def say(url: str) -> None:
        out(url)
        flush()
        err("serving the memory view: open the URL above (" + (
            f"through your TLS proxy, which forwards to {args.host}:{args.port}; sign in with an "
            "API key or OAuth token" if args.allow_network else "its token lets only you in") + "); Ctrl-C stops")

    if not config.db_exists():
        err(f"no database at {config.db_label} yet: nothing to show. Give the one your agent uses with --db")
        return 1
    taken = [spec.get("dest", flag[2:].replace("-", "_")) for flag, spec in COMMANDS["ui"][1].items()
             if HTTP.get(flag) is spec]  # the team server's authentication flags
    if not args.allow_network and any(getattr(args, name) for name in taken):
        err("--auth, --oauth-* and --allowed-* are taken with --allow-network only (docs/ui.md#security)")
        return 2
    try:
        http = config_module.load_http(host=args.host, **{name: getattr(args, name) for name in taken}) \
            if args.allow_network else None
    except ValueError as exc:
        err(str(exc))
        return 2
    from memvault.storage.errors import MemvaultError

    from . import web  # here: a refused setting is said without importing the pages' server

    try:
        web.serve(config, args.host, args.port, not args.no_browser, say, http)
    except ValueError as exc:
        err(str(exc))
        return 2
    except MemvaultError as exc:  # (CannotListen too)
        err(str(exc))
        return 1
    return 0


def _keys(args: argparse.Namespace, config: config_module.Config) -> int:
    """``keys create`` prints the key alone on stdout; ``list`` and ``revoke`` print metadata, never a key."""
    from memvault.storage import keys
    from memvault.storage.errors import MemvaultError

    logging.getLogger().setLevel(logging.WARNING)
    existed = config.db_exists()
    if args.action != "create" and not existed:
        err(f"no database at {config.db_label} (check --db / MEMVAULT_DB)")
        _json_error(args, "db", f"no database at {config.db_label}")
        return 1
    try:
        with _opened(config, existed) as store:
            if args.action == "create":
                record, key = keys.create(store, args.tenant, args.scope, args.name, args.read_only,
                                          args.expires)
                if not existed:
                    err(f"created a new database at {config.db_where()} (give the server the same --db)")
                try:
                    out(json.dumps({"key": key, **_key_json(record)}, indent=2) if args.json else key)
                    flush()
                except (OutputFailed, BrokenPipeError):  # a key nobody saw must not stay in force
                    keys.revoke(store, record.id)
                    err(f"revoked the new key {record.id} at once: it could not be shown")
                    raise
                err(f"created API key {_key_line(record)}; it is shown only this once")
            elif args.action == "list":
                records = keys.list_keys(store)
                if args.json or records:
                    out(json.dumps([_key_json(r) for r in records], indent=2) if args.json else
                         "\n".join(map(_key_line, records)))
                if not records:
                    err("no API keys in this database: `memvault keys create --tenant NAME` makes one")
            else:
                record = keys.revoke(store, args.id)
                out(json.dumps(_key_json(record), indent=2) if args.json else f"revoked {_key_line(record)}")
    except MemvaultError as exc:
        err(in_cli_words(exc))
        _json_error(args, getattr(exc, "field", None), in_cli_words(exc))
        return exit_code(exc)  # revoke: an id of no key's shape is a bad argument (2), an unknown one not found (1)
    return 0


def _key_json(record: Any) -> dict[str, Any]:
    """A key's fields for ``--json``, times ISO-8601, with ``state`` (active, expired, revoked)."""
    import dataclasses

    from memvault.storage.timefmt import format_ms, now_ms

    fields = {k: format_ms(v) if k.endswith("_at") else v for k, v in dataclasses.asdict(record).items()}
    refusal = record.refusal(now_ms())
    return {**fields, "state": "active" if refusal is None else "revoked" if record.revoked_at else "expired"}


def _key_line(record: Any) -> str:
    from memvault.storage.timefmt import format_ms, now_ms

    expires = f"expires {format_ms(record.expires_at)}" if record.expires_at else "active"
    state = record.refusal(now_ms()) or expires
    access = "read-only" if record.read_only else "read-write"
    name = f" name={record.name!r}" if record.name else ""
    return f"{record.id} tenant={record.tenant} scope={record.scope} {access} {state}{name}"


def _with_store(command: str, args: argparse.Namespace, config: config_module.Config) -> int:
    """Run ``command`` on the configured store; only ``remember`` and ``import`` create a database."""
    logging.getLogger().setLevel(logging.WARNING)
    existed = config.db_exists()
    if command == "import" and args.source:
        from .transcripts import DEFAULT_ROOT

        root = Path(args.file).expanduser() if args.file else DEFAULT_ROOT.expanduser()
        if not root.exists():
            return _refused(args, "file", f"{shown(str(root))} does not exist: no transcripts to import")
    elif command == "import" and args.file is None:
        return _refused(args, "file", "give the JSON lines file, or - for stdin (or --from claude-code)")
    elif command == "import" and args.file != "-" and (Path(args.file).is_dir() or not os.path.exists(args.file)):
        # (a named pipe, /dev/null, <(zcat dump.gz) exist: read as a stream, as stdin is)
        what = "is a folder, not a file" if Path(args.file).is_dir() else "does not exist"
        return _refused(args, "file", f"{shown(args.file)} {what}: nothing to import")
    elif command == "import" and (wrong := _not_utf8_input(args.file)) is not None:
        from .cli_io import convert_command

        said = "stdin" if args.file == "-" else shown(args.file)
        return _refused(args, "file", f"{said}: {wrong[0]}. memvault imports JSON lines in UTF-8: convert it, "
                                      f"e.g. {convert_command(args.file, wrong[1])}; nothing was imported")
    if command == "doctor" and not isinstance(config.db, str) and Path(config.db).is_file() and not existed:
        from .store_commands import doctor_report  # an empty file: opening would write a new schema into it

        return doctor_report(args, ["the database file is empty (0 bytes): it holds no memories (memvault "
                                    "never leaves it empty); if it should, restore a backup. Nothing was "
                                    "written"])
    if command not in ("remember", "import") and not existed:
        url = isinstance(config.db, str)  # PostgreSQL: the server answers, memvault's tables are not there
        what = ("memvault's tables are not in that PostgreSQL database", "them", "in another database",
                "its URL") if url else ("nothing is stored there", "it", "elsewhere", "that file")
        err(f"no database at {config.db_label} yet: {what[0]}. `memvault remember` or an MCP client creates "
             f"{what[1]}; if your memories are {what[2]}, give {what[3]} with --db or MEMVAULT_DB")
        _json_error(args, "db", f"no database at {config.db_label} yet: {what[0]}")
        return 1
    args.created = None if existed else config.db_where()  # said once the database is sure to stay
    sqlite_doctor = command == "doctor" and not isinstance(config.db, str)
    if sqlite_doctor:  # before the open, which makes a new -wal
        from memvault.storage.sqlite.health import lone_shm

        args.before_open = lone_shm(Path(config.db))
    from memvault.storage.embeddings import Embedder  # here: a command refused above imports none of the tools
    from memvault.storage.errors import MemvaultError
    from memvault.tools import handlers

    try:
        embedder = Embedder(config.model_dir)
        with _opened(config, existed, embedder, allow_secrets=config.allow_secrets) as store:
            if "--tenant" in COMMANDS[command][1] and existed:  # (before the model loads)
                _check_tenant(store, config.tenant, command)
            if command in READING and "--scope" in COMMANDS[command][1] and existed:
                try:
                    config_module.read_scope(config, lambda: store.scope_counts(tenant=config.tenant))
                except ValueError as exc:  # as load refuses a setting
                    err(str(exc))
                    return 2
            if command in CHECKED_FIRST and existed:  # damage in pages this write never reads refuses it too
                checked = store.upkeep.check_damage()
                if command in ("remember", "supersede", "import"):
                    store.vector_status()  # the model loads meanwhile (the command would load it first thing)
                checked.result()
            code = RUN[command](store, handlers.Caller(tenant=config.tenant, scope=config.scope), args)
    except MemvaultError as exc:
        if sqlite_doctor and damaged(exc):  # (a wrong key, a busy file: said as by every command)
            from .store_commands import doctor_unopened

            return doctor_unopened(Path(config.db), exc, args)
        if command == "export" and not isinstance(config.db, str) and damaged(exc):
            from .store_commands import export_unopened  # every memory that can be read around the damage

            return export_unopened(Path(config.db), config.tenant, args, exc)
        err(in_cli_words(exc))
        _json_error(args, getattr(exc, "field", None), in_cli_words(exc))
        return exit_code(exc)
    say_created(args)
    return code


def _check_tenant(store: Store, tenant: str, command: str) -> None:
    """A read of a tenant holding nothing beside a look-alike one that holds memories says that one on
    stderr; any other command is refused (``tenants.refuse_lookalike``)."""
    from memvault.storage import tenants

    if command in READING:
        alike = tenants.lookalike(store, tenant)
        if alike is not None:
            err(f"note: {tenants.held_elsewhere(tenant, alike)} with --tenant or MEMVAULT_TENANT")
    else:
        tenants.refuse_lookalike(store, tenant, "this command")


def _not_utf8_input(path: str) -> tuple[str, str | None] | None:
    """Why the file at ``path`` is not UTF-8 text and its likely encoding (``cli_io.not_utf8``), read once
    whole, or None; for ``-``, of stdin what its buffer holds (read on, it is not taken back), and nothing
    of another stream (a pipe): a later line is checked as it is imported (``store_commands._import``)."""
    from .cli_io import UTF8_SAMPLE_BYTES, not_utf8

    if path != "-" and not Path(path).is_file():
        return None
    if path == "-":
        peek = getattr(getattr(sys.stdin, "buffer", None), "peek", None)
        return not_utf8([peek(UTF8_SAMPLE_BYTES)], whole=False) if peek is not None else None
    with open(path, "rb") as fh:
        return not_utf8(iter(lambda: fh.read(UTF8_SAMPLE_BYTES), b""))


def _refused(args: argparse.Namespace, field: str, message: str, name: str | None = None) -> int:
    """A bad argument: said on stderr in the command line's names (``name``: the variable it came from
    instead), and as JSON with ``--json``; exit 2."""
    err(f"{name or NAMES[field]}: {message}")
    _json_error(args, field, message)
    return 2


def _json_error(args: argparse.Namespace, field: str | None, message: str) -> None:
    """With ``--json``, the error also as JSON on stdout (``{"error": {"field", "message"}}``), so that a
    script reading it gets a document."""
    if getattr(args, "json", False):
        out(json.dumps({"error": {"field": field, "message": message}}, indent=2))


@contextmanager
def _opened(config: config_module.Config, existed: bool, *args: Any, **kwargs: Any) -> Iterator[Store]:
    """The store of ``config`` for one command; a refused command removes the empty database file it
    created (and its -wal, -shm), unless another process has it open (a -wal left after our close) or
    wrote to it meanwhile."""
    from memvault.storage import keys, maintenance
    from memvault.storage.store import Store

    def empty(s: Store) -> bool:
        return not maintenance.stats(s)["by_scope"] and not keys.list_keys(s)

    store = Store(config.db, *args, **kwargs)
    try:
        yield store
    except BaseException:
        remove = not existed and not isinstance(config.db, str) and empty(store)
        store.close()
        if remove and not Path(f"{config.db}-wal").exists():
            again = Store(config.db)
            try:
                remove = empty(again)
            finally:
                again.close()
            if remove and not Path(f"{config.db}-wal").exists():
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{config.db}{suffix}").unlink(missing_ok=True)
        raise
    store.close()


