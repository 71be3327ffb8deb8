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

from . import config as config_module
from . import version
from .setup import CLIENTS

if TYPE_CHECKING:
    from memvault.storage.store import Store
    from memvault.tools.caller import Caller

Flags = dict[str, dict[str, Any]]  # a flag or positional argument -> add_argument's keywords

# How the command line names each field (metavars, and the field an error names: "TEXT: must not be empty").
NAMES = {"content": "TEXT", "query": "QUERY", "id": "ID", "file": "FILE", "kinds": "--kind", "kind": "--kind",
         "tags": "--tag", "importance": "--importance", "since": "--since", "until": "--until",
         "limit": "--limit", "offset": "--offset", "cursor": "--cursor", "reason": "--reason",
         "scope": "--scope", "tenant": "--tenant", "expires": "--expires", "name": "--name"}


def _integer(text: str) -> int | str:
    """The integer typed, else the text, which the field's own check refuses with its range."""
    try:
        return int(text)
    except ValueError:
        return text


# Flags allowed before the command too (`memvault --db X stats`): moved after it before parsing.
LEADING: Flags = {
    "--db": {"help": "database file, or a postgresql://user:password@host/database URL "
                     "(env MEMVAULT_DB; default: a file in the user data directory)"},
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
    "remember": ("Store a memory.", {"text": {"metavar": "TEXT", "help": "the memory: one self-contained "
                                              "statement"}, **OPEN, **SECRETS, **FIELDS, **JSON}),
    "recall": ("Search memories by meaning and keywords, best first.",
               {"query": {"help": "what to look for, in plain words"}, **OPEN, **FILTERS, **JSON,
                **_limit(5)}),
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
               {**MEMORY_ID, **DB, "--tenant": LEADING["--tenant"], **JSON,
                "--reason": {"help": "why; kept in the tombstone"},
                "--history": {"action": "store_true", "help": "also forget every other version"}}),
    "supersede": ("Replace a memory by a corrected version (the old one stays in the history).",
                  {**MEMORY_ID, "text": {"metavar": "TEXT", "help": "the corrected memory"}, **DB,
                   "--tenant": LEADING["--tenant"], "--model-dir": LEADING["--model-dir"], **SECRETS,
                   **FIELDS, **JSON, "--reason": {"help": "why it changed; kept with the history"}}),
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
               "--hooks": {"action": "store_true", "help": "claude-code: merge memvault's hooks into "
                           "~/.claude/settings.json instead (docs/hooks.md)"}}),
    "hook": ("Run as a client's hook (setup claude-code --hooks writes them): read the hook's JSON on stdin, "
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


def flags_of(command: str) -> list[str]:
    """The flags ``command`` ("list", "keys create") takes, a short form after its long one."""
    table = KEYS[command[5:]][1] if command.startswith("keys ") else COMMANDS[command][1]
    return [flag for name, spec in table.items() if name.startswith("-")
            for flag in (name, *spec.get("aliases", ()))]


_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`[^`]*`|\S+")  # a quoted value, or a word


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose errors (which repeat the refused value) never quote a credential."""

    def error(self, message: str) -> NoReturn:  # type: ignore[override]
        super().error(_QUOTED.sub(lambda m: credentials_in(m.group(0)) or m.group(0), message))


def _add(parser: argparse.ArgumentParser, flags: Flags) -> None:
    http = parser.add_argument_group("HTTP team server (--transport http)")
    for name, spec in flags.items():
        spec = dict(spec)
        target = http if name in HTTP else parser
        if name.startswith("-"):
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
    args, extra = parser.parse_known_args(given)
    command = " ".join(word for word in (args.command, getattr(args, "action", None)) if word)
    if extra:  # named with the command's own usage (its error masks credentials)
        if command and extra[0].startswith("-") and extra[0] != "-":
            _not_taken(parsers[command], command, extra[0].split("=", 1)[0])
        words = " ".join(credentials_in(w) or w for w in extra)  # each whole (a key with spaces)
        parsers.get(command, parser).error(f"unrecognized arguments: {words}")
    if not command and sys.stdin.isatty():
        parser.print_help(sys.stderr)  # a person typed `memvault`: clients always run `memvault serve`
        parser.exit(2)
    http_only = [flag for flag, spec in HTTP.items() if flag != "--transport"
                 and getattr(args, spec.get("dest", flag[2:].replace("-", "_")), None) is not None]
    if http_only and getattr(args, "transport", "stdio") != "http":  # given for stdio, they would be ignored
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
    not a hook's or that parser refuses it (then :func:`parse` refuses it in its own words). Building
    every command's parser takes 0.03-0.05 s, a tenth of a hook's budget (docs/hooks.md#speed)."""
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
    """Exit 2 (as argparse): ``command`` takes no ``flag``, and these flags."""
    whole = command in ("stats", "reindex", "doctor", "consolidate") and flag in ("--tenant", "--scope")
    why = " (it covers the whole database: every tenant and scope)" if whole else ""
    takes = [name for name in flags_of(command) if name.startswith("--")]
    parser.error(f"`memvault {command}` takes no {credentials_in(flag) or flag}{why}; its flags: "
                 f"{', '.join(takes) or 'none'} (`memvault {command} -h`)")


def _out(text: str) -> None:
    sys.stdout.write(text + "\n")


def _err(text: str) -> None:
    sys.stderr.write(f"memvault: {text}\n")


# Commands that store memories (or sessions) in the scope setting.
WRITING = ("serve", "remember", "supersede", "import", "hook")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``memvault`` console script; returns the exit code."""
    argv = sys.argv[1:] if argv is None else argv
    try:
        args = _hook_args(argv) or parse(argv)
    except SystemExit as exc:  # a hook's refused argument must not exit 2: its client would block on it
        if argv[:1] == ["hook"] and exc.code == 2:
            return hooks_exit()
        raise
    command = args.command or "serve"
    logging.basicConfig(stream=sys.stderr, level=logging.INFO,
                        format="memvault %(levelname)s %(name)s: %(message)s")
    settings = ("db", "tenant", "scope", "model_dir", "boot_tokens", "allow_secrets", "consolidate_hours",
                "consolidate_after_writes")
    try:
        config = config_module.load(**{name: getattr(args, name, None) for name in settings},
                                    serving=command == "serve", writing=command in WRITING)
    except ValueError as exc:
        _err(str(exc))
        return hooks_exit() if command == "hook" else 2
    db = getattr(args, "db", None)
    if db and redacted(db) != db:  # a password in argv: any user of the machine reads it in `ps`
        _err("warning: the password given in --db is visible to every user of this machine in the process "
             "list; give the URL in MEMVAULT_DB, or the password in ~/.pgpass or PGPASSWORD, instead")
    if command == "serve":
        return _serve_http(args, config) if getattr(args, "transport", "stdio") == "http" else _serve(config)
    if command == "keys":
        return _printing(lambda: _keys(args, config))
    if command == "setup":
        return _printing(lambda: _setup(args, config))
    if command == "hook":
        return _hook(args, config)
    return _printing(lambda: _with_store(command, args, config))


def _printing(run: Callable[[], int]) -> int:
    """Run a command that prints: text the console cannot encode comes out escaped; a reader that
    stops (``| head``) ends it quietly with exit 141 (Python docs, ``signal``: "Note on SIGPIPE")."""
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(errors="backslashreplace")
    try:
        code = run()
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # the flush at exit must not fail
        return 141  # 128 + SIGPIPE (13); Windows has no SIGPIPE constant


def _serve(config: config_module.Config) -> int:
    import anyio

    from .app import build_server
    from .workarounds import serve as serve_stdio

    # The SDK reads stdin on a thread Ctrl-C cannot interrupt; every write is one transaction, so
    # exiting at once loses nothing. Stdin's blocking mode is restored first (for the next program).
    stdin, blocking = os.dup(0), os.get_blocking(0)  # the dup shares stdin's open file

    def stop(*_: object) -> None:
        os.set_blocking(stdin, blocking)
        os._exit(130)

    signal.signal(signal.SIGINT, stop)  # before saying it waits: Ctrl-C from then on stops it
    if sys.stdin.isatty():
        _err("waiting for an MCP client on stdin; clients start this command themselves: `memvault setup "
             "claude-desktop` (or claude-code, cursor, vscode) prints their configuration. Ctrl-C stops.")
    else:
        logging.getLogger("memvault").info(
            "serving MCP on stdio (database %s, tenant %s, scope %s); waiting for a client on stdin",
            config.db_label, config.tenant, config.scope,
        )
    anyio.run(serve_stdio, build_server(config))
    return 0


def _serve_http(args: argparse.Namespace, config: config_module.Config) -> int:
    from . import http

    dests = [spec.get("dest", flag[2:].replace("-", "_")) for flag, spec in HTTP.items()][1:]  # not transport
    try:  # a ValueError from serve: a setting refused once the server is built (http:// JWKS off loopback)
        http.serve(config, config_module.load_http(**{dest: getattr(args, dest) for dest in dests}))
    except ValueError as exc:
        _err(str(exc))
        return 2
    except http.CannotListen as exc:
        _err(str(exc))
        return 1
    return 0


def _keys(args: argparse.Namespace, config: config_module.Config) -> int:
    """``keys create`` prints the key alone on stdout; ``list`` and ``revoke`` print metadata, never a key."""
    from memvault.storage import keys
    from memvault.storage.errors import MemvaultError

    logging.getLogger().setLevel(logging.WARNING)
    existed = config.db_exists()
    if args.action != "create" and not existed:
        _err(f"no database at {config.db_label} (check --db / MEMVAULT_DB)")
        return 1
    try:
        with _opened(config, existed) as store:
            if args.action == "create":
                record, key = keys.create(store, args.tenant, args.scope, args.name, args.read_only,
                                          args.expires)
                if not existed:
                    _err(f"created a new database at {config.db_where()} (give the server the same --db)")
                _out(json.dumps({"key": key, **_key_json(record)}, indent=2) if args.json else key)
                _err(f"created API key {_key_line(record)}; it is shown only this once")
            elif args.action == "list":
                records = keys.list_keys(store)
                if args.json or records:
                    _out(json.dumps([_key_json(r) for r in records], indent=2) if args.json else
                         "\n".join(map(_key_line, records)))
                if not records:
                    _err("no API keys in this database: `memvault keys create --tenant NAME` makes one")
            else:
                record = keys.revoke(store, args.id)
                _out(json.dumps(_key_json(record), indent=2) if args.json else f"revoked {_key_line(record)}")
    except MemvaultError as exc:
        _err(_in_cli_words(exc))
        return _exit_code(exc) if args.action == "create" else 1  # revoke: an unknown id is not found
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
    from memvault.storage.embeddings import Embedder
    from memvault.storage.errors import MemvaultError
    from memvault.tools import handlers

    logging.getLogger().setLevel(logging.WARNING)
    existed = config.db_exists()
    if command == "import" and args.source:
        from .transcripts import DEFAULT_ROOT

        root = Path(args.file).expanduser() if args.file else DEFAULT_ROOT.expanduser()
        if not root.exists():
            _err(f"{NAMES['file']}: {shown(str(root))} does not exist: no transcripts to import")
            return 2
    elif command == "import" and args.file is None:
        _err(f"{NAMES['file']}: give the JSON lines file, or - for stdin (or --from claude-code)")
        return 2
    elif command == "import" and args.file != "-" and not Path(args.file).is_file():
        what = "is a folder, not a file" if Path(args.file).is_dir() else "does not exist"
        _err(f"{NAMES['file']}: {shown(args.file)} {what}: nothing to import")
        return 2
    if command not in ("remember", "import") and not existed:
        url = isinstance(config.db, str)  # PostgreSQL: the server answers, memvault's tables are not there
        what = ("memvault's tables are not in that PostgreSQL database", "them", "in another database",
                "its URL") if url else ("nothing is stored there", "it", "elsewhere", "that file")
        _err(f"no database at {config.db_label} yet: {what[0]}. `memvault remember` or an MCP client creates "
             f"{what[1]}; if your memories are {what[2]}, give {what[3]} with --db or MEMVAULT_DB")
        _json_error(args, command, "db", f"no database at {config.db_label} yet: {what[0]}")
        return 1
    args.created = None if existed else config.db_where()  # said once the database is sure to stay
    try:
        embedder = Embedder(config.model_dir)
        with _opened(config, existed, embedder, allow_secrets=config.allow_secrets) as store:
            code = RUN[command](store, handlers.Caller(tenant=config.tenant, scope=config.scope), args)
    except MemvaultError as exc:
        _err(_in_cli_words(exc))
        _json_error(args, command, getattr(exc, "field", None), _in_cli_words(exc))
        return _exit_code(exc)
    _say_created(args)
    return code


def _json_error(args: argparse.Namespace, command: str, field: str | None, message: str) -> None:
    """With ``consolidate --json``, the error also as JSON on stdout (``{"error": {"field", "message"}}``),
    so that a script reading it gets a document."""
    if command == "consolidate" and getattr(args, "json", False):
        _out(json.dumps({"error": {"field": field, "message": message}}, indent=2))


def _say_created(args: argparse.Namespace) -> None:
    if args.created:
        _err(f"created a new database at {args.created}")
        args.created = None


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


def _in_cli_words(exc: Exception) -> str:
    """``exc``'s message with its field, and each argument its reason names (in backticks), as the
    command line spells them (``kinds[0]``: ``--kind``; ``query``: ``QUERY``)."""
    from memvault.storage.errors import Conflict, InvalidInput, NotFound

    if isinstance(exc, (InvalidInput, NotFound, Conflict)):
        reason = re.sub(r"`([a-z_]+)`", lambda m: NAMES.get(m.group(1), m.group(1)), exc.reason)
        return f"{NAMES.get(exc.field.split('[')[0], exc.field)}: {reason}"
    return str(exc)


def _exit_code(exc: Exception) -> int:
    """2 when ``exc`` refuses a command-line argument (as argparse), else 1."""
    from memvault.storage.errors import InvalidInput

    return 2 if isinstance(exc, InvalidInput) and exc.field.split("[")[0] in NAMES else 1


def _emit(args: argparse.Namespace, result: Any, text: Callable[[], str]) -> int:
    """Print ``result`` as JSON (ASCII with escapes: the same document on any console) with --json, else
    ``text()``."""
    from pydantic import BaseModel

    if getattr(args, "json", False):
        document = result.model_dump(mode="json") if isinstance(result, BaseModel) else result
        _out(json.dumps(document, indent=2))
    else:
        _out(text())
    return 0


def _filters(args: argparse.Namespace) -> dict[str, Any]:
    return {"kinds": args.kinds, "tags": args.tags, "since": args.since, "until": args.until,
            "include_history": args.history}


# Commands that call a tool's handler: (handler, its arguments from the command line, the text
# a person reads: tools.text, as the model reads it, with the CLI's flags and full ids).
TOOLS: dict[str, tuple[str, Callable[[argparse.Namespace], dict[str, Any]], Callable[[Any, Any], str]]] = {
    "remember": ("remember", lambda a: {"content": a.text, "tags": a.tags, "kind": a.kind,
                                        "importance": a.importance}, lambda t, r: t.render(r)),
    "recall": ("recall", lambda a: {"query": a.query, "limit": a.limit, **_filters(a),  # an empty query with
                                    "scope": a.scope if not a.query.strip() else None},  # --scope lists it
               lambda t, r: t.recall_text(r, full_ids=True, person=True)),
    "show": ("memory_view", lambda a: {"memory_id": a.id}, lambda t, r: t.memory_view_text(r)),
    "forget": ("forget", lambda a: {"id": a.id, "reason": a.reason, "include_history": a.history},
               lambda t, r: t.render(r)),
    "supersede": ("supersede", lambda a: {"id": a.id, "content": a.text, "reason": a.reason, "kind": a.kind,
                                          "tags": a.tags, "importance": a.importance},
                  lambda t, r: t.render(r)),
}


def _tool(command: str) -> Callable[[Store, Caller, argparse.Namespace], int]:
    name, arguments, render = TOOLS[command]

    def run(store: Store, caller: Caller, args: argparse.Namespace) -> int:
        from memvault.tools import handlers, text

        result = getattr(handlers, name)(store, caller, **arguments(args))
        return _emit(args, result, lambda: render(text, result))

    return run


def _list(store: Store, caller: Caller, args: argparse.Namespace) -> int:
    from memvault.tools import handlers, text

    found = handlers.list_memories(store, caller, limit=20 if args.limit is None else args.limit,
                                   offset=args.offset, cursor=args.cursor, **_filters(args))
    total = handlers.count_memories(store, caller, **_filters(args))
    offset = args.offset or 0
    # JSON pages like the text: the count of all that match, the next page's cursor and offset (null: end).
    page = {**found.model_dump(mode="json"), "total": total,
            "next_offset": None if args.cursor else text.next_offset(total, offset, len(found.memories))}
    return _emit(args, page, lambda: text.list_text(found, total, offset, by_offset=args.offset is not None,
                                                    paged=args.cursor is not None))


# Headings of `memvault stats` other than the JSON key with spaces for underscores.
STATS_HEADINGS = {"model_id": "model", "by_kind": "current memories by kind",
                  "scrub_pending": "scrub of forgotten text pending"}


def _stats(store: Store, caller: Caller, args: argparse.Namespace) -> int:
    from memvault.storage import maintenance

    stats = maintenance.stats(store)
    lines = []
    for key, value in stats.items():
        heading = STATS_HEADINGS.get(key, key.replace("_", " "))
        if key == "by_scope":
            lines.append("current memories by tenant and scope:")
            for tenant, scopes in value.items():
                counts = ", ".join(f"{scope} {n}" for scope, n in scopes.items())
                lines.append(f"  tenant {tenant}: {counts}")
        elif isinstance(value, dict):
            lines.append(f"{heading}:")
            lines.extend(f"  {name}: {inner}" for name, inner in value.items())
        else:
            lines.append(f"{heading}: {('yes' if value else 'no') if isinstance(value, bool) else value}")
    return _emit(args, stats, lambda: "\n".join(lines))


def _bar(**kwargs: Any) -> Any:
    """A tqdm progress bar on stderr, drawn only when stderr is a terminal (``disable=None``)."""
    from tqdm import tqdm

    return tqdm(file=sys.stderr, disable=None, **kwargs)


def _reindex(store: Store, caller: Caller, args: argparse.Namespace) -> int:
    from memvault.tools import text

    from memvault.storage import maintenance

    made = _run_reindex(store)
    if made is None:
        return 130
    result = {"reindexed": made, "model_id": maintenance.stats(store)["model_id"]}
    return _emit(args, result, lambda: f"Reindexed: {text.count(made, 'vector')} made with model "
                                       f"{result['model_id']}.")


def _run_reindex(store: Store) -> int | None:
    """Reindex with a progress bar; None when Ctrl-C stopped it (a re-run resumes)."""
    from memvault.storage import maintenance

    bar = _bar(total=0, unit="memory", desc="reindex")

    def progress(done: int, total: int) -> None:
        bar.total, bar.n = total, done
        bar.refresh()

    try:
        made = maintenance.reindex(store, progress)
    except KeyboardInterrupt:
        _err("reindex stopped; memories without a vector are still found by keywords. "
             "Run `memvault reindex` again to resume.")
        return None
    finally:
        bar.close()
    _index_vectors(store)
    return made


def _index_vectors(store: Store) -> None:
    """Bring the vector index up to date before exiting, so the first server does not while an agent
    waits (issue 28); Ctrl-C leaves the rest to the server."""
    from memvault.storage.errors import Busy, StorageUnavailable

    bar = _bar(unit="step", desc="vector index")
    try:
        store.backend.maintain(lambda: bool(bar.update()) and False)  # each step counted
    except KeyboardInterrupt:
        _err("vector index upkeep stopped; the server finishes it in the background.")
    except (Busy, StorageUnavailable) as exc:
        _err(f"vector index upkeep postponed ({exc}); the server finishes it in the background.")
    finally:
        bar.close()


def _doctor(store: Store, caller: Caller, args: argparse.Namespace) -> int:
    """Check (``--repair``: mend first); the report is ``maintenance.check``'s problems, the files others
    may read (SQLite: the database, -wal and -shm) and ``maintenance.stats``."""
    from memvault.storage import maintenance
    from memvault.storage.errors import StorageUnavailable
    from memvault.tools import text

    def exposed() -> list[tuple[Path, int]]:
        if store.backend.kind != "sqlite":
            return []
        files = [Path(f"{store.backend.location}{suffix}") for suffix in ("", "-wal", "-shm")]
        return [(p, p.stat().st_mode & 0o777) for p in files if p.exists() and p.stat().st_mode & 0o077]

    report: dict[str, Any] = {}
    lines = []
    if args.repair:
        made = _run_reindex(store)
        if made is None:
            return 130
        scrub_pending = not store.upkeep.scrub()
        private = exposed()
        for path, mode in private:
            path.chmod(mode & 0o700)
        report["repaired"] = {"reindexed": made, "scrub_pending": scrub_pending,
                              "made_private": [str(path) for path, _ in private]}
        made_private = ", made private: " + ", ".join(report["repaired"]["made_private"]) if private else ""
        scrub = "still pending (busy)" if scrub_pending else "none pending"
        lines.append(f"repaired: keyword index rebuilt, {text.count(made, 'vector')} made, scrub of "
                     f"forgotten content {scrub}{made_private}")
    try:
        problems = maintenance.check(store) + [
            f"{path} has mode {mode:o}: others can read it (chmod go-rwx, or doctor --repair)"
            for path, mode in exposed()]
        report = {"ok": not problems, "problems": problems, **report, **maintenance.stats(store)}
    except StorageUnavailable as exc:  # a damaged file: said as the problem it is, not a traceback
        problems = [str(exc)]
        report = {"ok": False, "problems": problems, **report}
    lines += [f"problem: {p}" for p in problems] or ["ok: no problems found"]
    _emit(args, report, lambda: "\n".join(lines))
    return 1 if problems else 0


def _export(store: Store, caller: Caller, args: argparse.Namespace) -> int:
    from memvault.storage import transfer
    from memvault.tools import text

    left_out: list[str] = []
    lines = transfer.export_lines(store, caller.tenant, left_out=left_out)
    if args.output is None:  # UTF-8 JSON lines whatever the console's encoding (`export > backup.jsonl`)
        if isinstance(sys.stdout, io.TextIOWrapper):
            sys.stdout.reconfigure(encoding="utf-8", errors="strict", newline="\n")
        for line in lines:
            _out(line)
    else:
        try:
            fd = os.open(args.output, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)
        except OSError as exc:  # no such folder, a folder, no permission: one line, not a traceback
            _err(f"--output: cannot write {shown(args.output)}: {exc.strerror}")
            return 2
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            for line in lines:
                fh.write(line + "\n")
    if left_out:
        _err(f"left out {text.count(len(left_out), 'superseded memory', 'superseded memories')} whose newest "
             f"version was forgotten or has expired (history without a current version), e.g. {left_out[0]}")
    return 0


IMPORT_ERRORS_SHOWN = 20  # failed lines listed on stderr; --json lists them all


def _import(store: Store, caller: Caller, args: argparse.Namespace) -> int:
    """Import with a progress bar and a summary on stderr; exit 1 when a line failed, 130 on Ctrl-C."""
    import dataclasses

    from memvault.storage import transfer
    from memvault.tools import text

    if args.source:
        return _import_transcripts(store, caller, args)
    # Undecodable bytes reach the checks as lone surrogates: that line fails, not the import.
    if args.file == "-":
        source = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8-sig", errors="surrogateescape")
        total = None
    else:
        source = open(args.file, encoding="utf-8-sig", errors="surrogateescape")
        with open(args.file, "rb") as fh:
            total = sum(1 for _ in fh)
    bar = _bar(total=total, unit="line", desc="import")
    try:
        report = transfer.import_lines(store, source, tenant=caller.tenant, scope=caller.scope,
                                       progress=lambda lines: bar.update(lines - bar.n))
    except KeyboardInterrupt:
        _err("import stopped; what was imported stays. Run the same command again to resume.")
        return 130
    finally:
        bar.close()
        if args.file != "-":  # stdin stays open
            source.close()
    _say_created(args)
    if report.imported:
        _index_vectors(store)
    failed = sorted(report.failed, key=lambda e: e.line)
    for error in failed[:IMPORT_ERRORS_SHOWN]:
        _err(f"line {error.line}: {error.field}: {error.message}")
    if len(failed) > IMPORT_ERRORS_SHOWN:
        more = text.count(len(failed) - IMPORT_ERRORS_SHOWN, "more failed line")
        _err(f"... and {more} (--json lists them all)")
    _err(f"imported {report.imported} of {text.count(report.read, 'memory line')} (blank lines skipped): "
         f"{report.skipped_existing} already there, {len(failed)} failed, {report.vectors_pending} waiting "
         "for vectors")
    if report.degraded:
        _err(f"degraded: {report.degraded}")
    if args.json:
        _out(json.dumps(dataclasses.asdict(report), indent=2))
    return 1 if failed else 0


def _setup(args: argparse.Namespace, config: config_module.Config) -> int:
    from . import setup

    if args.bundle:
        return _bundle(args, config)
    if args.hooks:
        return _setup_hooks(args, config)
    plan = setup.for_client(args.client, config)
    if args.write:
        try:
            written = setup.write(plan)
        except ValueError as exc:
            _err(f"{exc}. Paste this into it by hand ({plan.key!r} may already be there: add the "
                 f"{setup.SERVER_NAME!r} entry inside it):\n{plan.text()}")
            return 1
        if not written.changed:
            _err(f"{plan.path} already holds this {setup.SERVER_NAME} entry: nothing changed.")
            return 0
        kept = f" (the previous file is kept as {written.backup})" if written.backup else ""
        _err(f"wrote the {setup.SERVER_NAME} entry into {plan.path}{kept}. {plan.note}")
    elif args.json:
        _out(json.dumps({"client": plan.client, "path": str(plan.path), **plan.document()}, indent=2))
    else:
        _out(f"Add this to {plan.path} (or run this command again with --write to merge it there):\n")
        _out(plan.text())
        _out(f"\n{plan.note}")
    return 0


def _bundle(args: argparse.Namespace, config: config_module.Config) -> int:
    from . import bundle

    if args.client != "claude-desktop" or args.write:
        _err("--bundle makes a Claude Desktop extension: `memvault setup claude-desktop --bundle OUT.mcpb`, "
             "without --write")
        return 2
    out = Path(args.bundle).resolve()
    try:
        manifest = bundle.write(out, config)
    except ValueError as exc:
        _err(str(exc))
        return 1
    if args.json:
        _out(json.dumps({"client": args.client, "bundle": str(out), "manifest": manifest}, indent=2))
    _err(f"wrote {out}: a Claude Desktop extension that runs {manifest['server']['mcp_config']['command']} "
         "(this install). Open it with Claude Desktop (or Settings > Extensions > Install Extension) and "
         "check the database it shows.")
    return 0


def _setup_hooks(args: argparse.Namespace, config: config_module.Config) -> int:
    """Merge memvault's hooks into Claude Code's user settings (a backup first); says when nothing changed."""
    from . import hooks, setup

    if args.client != "claude-code":
        _err(f"--hooks: only claude-code's hooks are written (docs/hooks.md says what {args.client} offers)")
        return 2
    path = hooks.settings_path()
    wanted = hooks.commands(config)

    def change(document: dict[str, Any]) -> bool:
        current = document.get("hooks", {})
        if not isinstance(current, dict):
            raise ValueError(f"{path}: 'hooks' is not a JSON object; nothing was written")
        merged = hooks.merged(current, wanted)
        document["hooks"] = merged
        return merged != current

    try:
        written = setup.merge_json(path, change)
    except ValueError as exc:
        paste = json.dumps({"hooks": hooks.merged({}, wanted)}, indent=2)
        _err(f"{exc}. Merge this into it by hand (keep any other hooks there):\n{paste}")
        return 1
    changed, backup = written.changed, written.backup
    if args.json:
        with open(path, encoding="utf-8") as file:
            after = json.load(file).get("hooks")
        _out(json.dumps({"client": args.client, "path": str(path), "changed": changed,
                         "backup": str(backup) if backup else None, "hooks": after}, indent=2))
    if not changed:
        _err(f"{path} already has memvault's hooks as they would be written: nothing changed")
    else:
        kept = f" (the previous file is kept as {backup})" if backup else ""
        _err(f"wrote memvault's hooks ({', '.join(hooks.EVENTS['claude-code'])}) into {path}{kept}. "
             "Claude Code runs them from its next session. The memory tools are the MCP server's: "
             "`memvault setup claude-code` sets it up.")
    return 0


def hooks_exit() -> int:
    """The exit code of a failed hook: its client says so and goes on."""
    from .hooks import NON_BLOCKING

    return NON_BLOCKING


def _hook(args: argparse.Namespace, config: config_module.Config) -> int:
    """``memvault hook CLIENT EVENT``: the client's JSON (if any) on stdout, nothing else; every failure
    said on stderr with the non-blocking exit code (memory failing never stops the user's session)."""
    from . import hooks

    logging.getLogger().setLevel(logging.WARNING)
    try:
        text = sys.stdin.buffer.read().decode("utf-8")
        document = hooks.run(config, args.client, args.event, hooks.payload(text, args.client, args.event))
    except hooks.HookInputError as exc:
        _err(f"{args.client} {args.event} hook: {exc}")
        return hooks.NON_BLOCKING
    except UnicodeDecodeError as exc:
        _err(f"{args.client} {args.event} hook: stdin: not UTF-8 ({exc.reason} at byte {exc.start})")
        return hooks.NON_BLOCKING
    except Exception as exc:  # any failure (database busy, disk full...): said, and the session goes on
        _err(f"{args.client} {args.event} hook failed: {type(exc).__name__}: {_in_cli_words(exc)}")
        return hooks.NON_BLOCKING
    if document is not None:
        _out(json.dumps(document))
    return 0


def _import_transcripts(store: Store, caller: Caller, args: argparse.Namespace) -> int:
    """``import --from claude-code``: each transcript's sessions and turns (ended, with their digests),
    with a progress bar; the summary on stderr (``--json``: on stdout too)."""
    from memvault.tools import text

    from . import hooks, transcripts

    root = Path(args.file).expanduser() if args.file else transcripts.DEFAULT_ROOT.expanduser()
    files = transcripts.transcripts(root)
    bar = _bar(total=len(files), unit="file", desc="import")
    try:
        report = hooks.import_transcripts(store, caller.tenant, caller.scope, files, lambda: bar.update(1))
    except KeyboardInterrupt:
        _err("import stopped; what was imported stays. Run the same command again to resume.")
        return 130
    finally:
        bar.close()
    _say_created(args)
    ended = report["sessions_ended"]
    nothing = " (nothing new: all were already there)" if files and not report["turns_added"] + ended else ""
    said_ended = (f"; {text.count(ended, 'session')} ended, {text.count(ended, 'digest')} written (a session "
                  "still in use reopens at its next turn)") if ended else ""
    replaced = f"; replaced in the text: {', '.join(report['redacted'])}" if report["redacted"] else ""
    turns, sessions = text.count(report["turns_added"], "turn"), text.count(report["sessions"], "session")
    _err(f"imported {turns} of {sessions} "
         f"from {text.count(len(files), 'transcript')} under {root}: {report['turns_already_there']:,} "
         f"already there{nothing}{replaced}{said_ended}")
    for path, lines in report["unreadable_lines"].items():
        _err(f"{path}: {text.count(len(lines), 'line')} not JSON, skipped (e.g. line {lines[0]})")
    for path, lines in report["refused_lines"].items():
        _err(f"{path}: {text.count(len(lines), 'entry', 'entries')} skipped: its sessionId cannot be a "
             f"session id (1-128 letters, digits and ._:-, no credential) (e.g. line {lines[0]})")
    for path, sessions_skipped in report["other_scope"].items():
        for session_id, n in sessions_skipped.items():
            _err(f"{path}: {text.count(n, 'turn')} of session {session_id} skipped: that session belongs "
                 f"to another scope")
    if report["turns_refused"]:
        _err(f"{text.count(report['turns_refused'], 'turn')} refused by the store, skipped")
    for path, why in report["failed"].items():
        _err(f"{path}: its import stopped here (what was read before is kept): {why}")
    if args.json:
        _out(json.dumps(report, indent=2))
    return 1 if report["failed"] else 0


def _consolidate(store: Store, caller: Caller, args: argparse.Namespace) -> int:
    """One consolidation of every tenant (``consolidate.consolidate``), then what waits for review in
    each tenant's scopes."""
    from memvault.storage import maintenance
    from memvault.storage.consolidate import consolidate
    from memvault.tools import text

    report = consolidate(store)
    waiting = {}
    for tenant in maintenance.stats(store)["by_scope"]:  # type: ignore[attr-defined]
        review = store.review(tenant, list(store.scope_counts(tenant=tenant)))
        waiting[tenant] = {"contradictions": len(review.contradictions), "decayed": len(review.decayed),
                           "failing": len(review.failing), "more": review.more}
    result = {**report.as_json(), "waiting": waiting}
    lines = [f"compacted {text.count(sum(len(c.sources) for c in report.compacted), 'episode')} into "
             f"{text.count(len(report.compacted), 'digest')}"]
    lines += [f"  {c.digest_id} tenant {c.tenant}, scope {c.scope}, week {c.week}: "
              f"{text.count(len(c.sources), 'episode')}" for c in report.compacted]
    lines.append(f"compared {text.count(report.compared, 'memory', 'memories')} written since the last run: "
                 f"{text.count(report.contradictions, 'new contradicting pair')}")
    if report.skipped:
        lines.append(f"{text.count(report.skipped, 'digest')} left for the next run (a source changed "
                     "meanwhile)")
    for tenant, counts in waiting.items():
        lines.append(f"tenant {tenant}: {text.count(counts['contradictions'], 'contradicting pair')}, "
                     f"{counts['decayed']}{'+' if counts['more'] else ''} decayed, "
                     f"{text.count(counts['failing'], 'failing procedure')} wait for review (memory://review)")
    lines.append(f"longest write transaction: {report.longest_write_ms:.1f} ms")
    return _emit(args, result, lambda: "\n".join(lines))


RUN: dict[str, Callable[[Store, Caller, argparse.Namespace], int]] = {
    **{name: _tool(name) for name in TOOLS}, "list": _list, "stats": _stats, "reindex": _reindex,
    "consolidate": _consolidate, "doctor": _doctor, "export": _export, "import": _import,
}
