"""The ``memvault`` command: ``serve``, commands to inspect and change memories, maintenance, client set-up.

Commands print text on stdout (one JSON document with ``--json``), notes and errors on stderr;
``serve`` writes only JSON-RPC to stdout.
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

from memvault.storage.errors import shown
from memvault.storage.location import redacted
from memvault.storage.limits import IMPORTANCE_MAX, IMPORTANCE_MIN, KINDS, RECALL_MAX_LIMIT

from . import config as config_module
from . import version

if TYPE_CHECKING:
    from memvault.storage.backend import Backend
    from memvault.storage.store import Store
    from memvault.tools.handlers import Caller


# How the command line names each field (metavars, and the field an error names: "TEXT: must not be empty").
FLAGS = {"content": "TEXT", "query": "QUERY", "id": "ID", "file": "FILE", "kinds": "--kind", "kind": "--kind",
         "tags": "--tag", "importance": "--importance", "since": "--since", "until": "--until", "limit": "--limit",
         "offset": "--offset", "cursor": "--cursor", "reason": "--reason", "scope": "--scope", "tenant": "--tenant",
         "expires": "--expires", "name": "--name"}


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose errors (which repeat the refused value) never quote a credential."""

    def error(self, message: str) -> NoReturn:  # type: ignore[override]
        super().error(_without_credentials(message))


_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`[^`]*`|\S+")


def _without_credentials(message: str) -> str:
    """``message`` with each quoted value or word holding a credential replaced by what it looks like."""
    from memvault.storage.errors import credentials_in

    return _QUOTED.sub(lambda m: credentials_in(m.group(0)) or m.group(0), message)


def _integer(text: str) -> int | str:
    """The integer typed, else the text, which the field's own check refuses with its range."""
    try:
        return int(text)
    except ValueError:
        return text


def _flags() -> dict[str, argparse.ArgumentParser]:
    """Groups of flags; each command takes only the groups that apply to it."""

    def group(*specs: tuple[str, dict[str, Any]]) -> argparse.ArgumentParser:
        parser = _Parser(add_help=False)
        for flag, kwargs in specs:
            parser.add_argument(flag, **kwargs)
        return parser

    kinds = ", ".join(KINDS[:-1]) + " or " + KINDS[-1]
    return {
        "db": group(("--db", {"help": "database file, or a postgresql://user:password@host/database URL "
                                      "(env MEMVAULT_DB; default: a file in the user data directory)"})),
        "tenant": group(("--tenant", {"help": "tenant: hard isolation boundary (env MEMVAULT_TENANT; default 'default')"})),
        "scope": group(("--scope", {"help": "scope (env MEMVAULT_SCOPE; default 'default'; 'global' is shared)"})),
        "model": group(("--model-dir", {"help": "folder with model.onnx + tokenizer.json (env MEMVAULT_MODEL_DIR)"})),
        "secrets": group(("--allow-secrets", {"action": "store_true", "default": None, "help": "store content even "
                          "when it contains credentials (env MEMVAULT_ALLOW_SECRETS; default: refuse)"})),
        "json": group(("--json", {"action": "store_true", "help": "print one JSON document instead of text"})),
        "filters": group(
            ("--kind", {"action": "append", "dest": "kinds", "metavar": "KIND", "help": "only this kind (repeatable)"}),
            ("--tag", {"action": "append", "dest": "tags", "metavar": "TAG",
                       "help": "only memories with this tag (repeatable: all)"}),
            ("--since", {"help": "only memories observed at or after this ISO-8601 time"}),
            ("--until", {"help": "only memories observed before this ISO-8601 time"}),
            ("--history", {"action": "store_true", "help": "include superseded memories"}),
        ),
        "fields": group(
            ("--kind", {"help": kinds}),
            ("--tag", {"action": "append", "dest": "tags", "metavar": "TAG", "help": "a tag (repeatable)"}),
            ("--importance", {"type": _integer, "help": f"{IMPORTANCE_MIN}-{IMPORTANCE_MAX}"}),
        ),
    }


COMMANDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "serve": ("Run the MCP server: on stdio (MCP clients start this; see `memvault setup`), or with "
              "--transport http as a team server.",
              ("db", "tenant", "scope", "model", "secrets")),
    "keys": ("Manage the API keys of the HTTP team server: create, list, revoke.", ()),
    "remember": ("Store a memory.", ("db", "tenant", "scope", "model", "secrets", "fields", "json")),
    "recall": ("Search memories by meaning and keywords, best first.",
               ("db", "tenant", "scope", "model", "filters", "json")),
    "list": ("List memories newest first (all of them, or those that pass the filters).",
             ("db", "tenant", "scope", "filters", "json")),
    "show": ("Show one memory with its history.", ("db", "tenant", "json")),
    "forget": ("Delete a memory for good: its text is erased from the files, a tombstone stays.",
               ("db", "tenant", "json")),
    "supersede": ("Replace a memory by a corrected version (the old one stays in the history).",
                  ("db", "tenant", "model", "secrets", "fields", "json")),
    "stats": ("Counts of memories by state, kind, tenant and scope.", ("db", "json")),
    "reindex": ("Rebuild the keyword index and every vector; Ctrl-C stops it, a re-run resumes.",
                ("db", "model", "json")),
    "doctor": ("Check the database; exit 1 when something is wrong.", ("db", "model", "json")),
    "export": ("Write the tenant's memories (with history) as JSON lines.", ("db", "tenant")),
    "import": ("Read memories from JSON lines: `memvault export`'s format, or lines with only \"content\" "
               "(other fields take remember's defaults). Importing twice adds nothing; Ctrl-C stops, a re-run "
               "resumes. Exit 1 when a line failed.", ("db", "tenant", "scope", "model", "secrets", "json")),
    "setup": ("Print (or --write) the configuration entry an MCP client needs to start memvault.",
              ("db", "tenant", "scope", "json")),
}


def _parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The ``memvault`` parser and its subcommands' parsers by name."""
    flags = _flags()
    parser = _Parser(
        prog="memvault", description="Local persistent memory for MCP agents.",
        epilog="Flags go with the command: `memvault stats --db FILE`; the flags above may also come before it "
        "(`memvault --db FILE stats`), every other flag only after it (`memvault list --limit 3`).",
    )
    parser.add_argument("--version", action="version", version=f"memvault {version()}")
    before = parser.add_argument_group("flags allowed before the command too (for the commands that take them)")
    for name in LEADING_FLAGS:  # moved after the command before parsing (_flags_after_command): help only
        [action] = [a for g in flags.values() for a in g._actions if name in a.option_strings]
        before.add_argument(name, help=action.help, default=argparse.SUPPRESS, dest=f"_before_{name[2:]}",
                            **({"metavar": action.metavar or name[2:].upper().replace("-", "_")}
                               if LEADING_FLAGS[name] else {"action": "store_true"}))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands = {}
    for name, (description, groups) in COMMANDS.items():
        commands[name] = sub.add_parser(
            name, parents=[flags[g] for g in groups], help=description[0].lower() + description[1:].rstrip("."),
            description=description,
        )
    commands["serve"].add_argument(
        "--boot-tokens", type=_integer, help="boot context token budget (env MEMVAULT_BOOT_TOKENS)"
    )
    _http_flags(commands["serve"])
    commands.update(_keys_flags(commands["keys"], [flags["db"], flags["json"]]))
    commands["remember"].add_argument("text", metavar=FLAGS["content"], help="the memory: one self-contained statement")
    commands["recall"].add_argument("query", metavar=FLAGS["query"], help="what to look for, in plain words")
    for name, default in (("recall", 5), ("list", 20)):
        commands[name].add_argument("--limit", type=_integer,
                                    help=f"at most this many, 1 to {RECALL_MAX_LIMIT} (default {default})")
    commands["list"].add_argument("--cursor", help="the next page: the cursor the page before printed (stable while "
                                  "others write)")
    commands["list"].add_argument("--offset", type=_integer, help="skip this many of the newest first (default 0; a "
                                  "memory written meanwhile moves the pages: prefer --cursor)")
    for name in ("show", "forget", "supersede"):
        commands[name].add_argument("id", metavar=FLAGS["id"], help="the memory's id (as remember, recall or list printed it)")
    commands["forget"].add_argument("--reason", help="why; kept in the tombstone")
    commands["forget"].add_argument("--history", action="store_true", help="also forget every other version")
    commands["supersede"].add_argument("text", metavar=FLAGS["content"], help="the corrected memory")
    commands["supersede"].add_argument("--reason", help="why it changed; kept with the history")
    commands["doctor"].add_argument(
        "--repair", action="store_true", help="rebuild the derived indexes (keywords, vectors) and finish a pending scrub first"
    )
    commands["export"].add_argument("--output", "-o", help="file to write (default: stdout)")
    commands["import"].add_argument("file", metavar=FLAGS["file"], help="the JSON lines file, or - for stdin")
    commands["setup"].add_argument("client", choices=("claude-desktop", "claude-code", "cursor", "vscode"))
    commands["setup"].add_argument("--write", action="store_true", help="merge the entry into the client's config file")
    return parser, commands


def _http_flags(serve: argparse.ArgumentParser) -> None:
    http = serve.add_argument_group("HTTP team server (--transport http)")
    http.add_argument("--transport", choices=("stdio", "http"), default="stdio", help="default: stdio")
    http_only: list[tuple[str, str]] = []  # (load_http's argument, flag) of each flag refused without it

    def add(flag: str, **kwargs: Any) -> None:
        http_only.append((http.add_argument(flag, **kwargs).dest, flag))

    add("--host", help="address to bind (env MEMVAULT_HOST; default 127.0.0.1)")
    add("--port", type=_integer, help=f"port (env MEMVAULT_PORT; default {config_module.DEFAULT_PORT})")
    add("--auth", choices=config_module.AUTH_MODES,
        help="keys (memvault API keys), oauth (JWT access tokens) or none (loopback only) "
        "(env MEMVAULT_AUTH; default keys)")
    add("--oauth-issuer", dest="issuer", help="OAuth: the issuer URL (env MEMVAULT_OAUTH_ISSUER)")
    add("--oauth-resource", dest="resource", help="OAuth: this server's public URL, the tokens' audience "
        "(env MEMVAULT_OAUTH_RESOURCE), e.g. https://memory.example.com/mcp")
    add("--oauth-jwks-url", dest="jwks_url", help="OAuth: the issuer's JWKS (env MEMVAULT_OAUTH_JWKS_URL; "
        "default <issuer>/.well-known/jwks.json)")
    add("--oauth-tenant-claim", dest="tenant_claim", help="OAuth: the claim naming the tenant "
        "(env MEMVAULT_OAUTH_TENANT_CLAIM; default tenant)")
    add("--oauth-jwks-max-age", dest="jwks_max_age", type=_integer, help="OAuth: seconds the issuer's key set is trusted (read "
        "again from half that age) (env MEMVAULT_OAUTH_JWKS_MAX_AGE; default 60)")
    add("--oauth-max-token-lifetime", dest="max_token_lifetime", type=_integer, help="OAuth: seconds a token may live, exp minus iat "
        "(env MEMVAULT_OAUTH_MAX_TOKEN_LIFETIME; default 86400)")
    add("--rate-limit", type=_integer, help="requests per minute per key, counted by each process "
        "on its own (N processes behind a balancer allow a key up to N times this; for a total "
        "of L give each L/N), 0 for none "
        f"(env MEMVAULT_RATE_LIMIT; default {config_module.DEFAULT_RATE_LIMIT})")
    add("--allowed-host", action="append", dest="allowed_hosts", metavar="HOST",
        help="also accept this Host header, e.g. memory.example.com (repeatable; "
        "env MEMVAULT_ALLOWED_HOSTS, comma-separated)")
    add("--allowed-origin", action="append", dest="allowed_origins", metavar="ORIGIN",
        help="also accept this Origin header, e.g. https://memory.example.com (repeatable; "
        "env MEMVAULT_ALLOWED_ORIGINS)")
    serve.set_defaults(http_only=tuple(http_only))


def _keys_flags(keys: argparse.ArgumentParser,
                parents: list[argparse.ArgumentParser]) -> dict[str, argparse.ArgumentParser]:
    """The ``keys`` actions' parsers, by ``keys ACTION``."""
    actions = keys.add_subparsers(dest="action", metavar="ACTION", required=True)
    create = actions.add_parser("create", parents=parents,
                                help="make a key: printed once on stdout, only its hash is stored")
    create.add_argument("--tenant", required=True, help="the tenant the key reads and writes")
    create.add_argument("--scope", help="its default scope (default 'default')")
    create.add_argument("--name", help="a label, e.g. the person or bot holding it")
    create.add_argument("--read-only", action="store_true", help="may recall and read resources only")
    create.add_argument("--expires", type=_integer, metavar="DAYS", help="expires after this many days")
    actions.add_parser("list", parents=parents, help="every key's id, tenant, scope and state (never the keys)")
    revoke = actions.add_parser("revoke", parents=parents,
                                help="revoke a key at once, on every server using this database")
    revoke.add_argument("id", metavar=FLAGS["id"], help="the key's id, as `memvault keys list` shows it")
    return {f"keys {name}": parser for name, parser in actions.choices.items()}


def _out(text: str) -> None:
    sys.stdout.write(text + "\n")


def _err(text: str) -> None:
    sys.stderr.write(f"memvault: {text}\n")


# Flags people put before the command (`memvault --db X stats`): moved after it, where
# each command's parser reads them (a command without that flag says so).
LEADING_FLAGS = {"--db": True, "--tenant": True, "--scope": True, "--model-dir": True, "--json": False,
                 "--allow-secrets": False}  # flag: whether it takes a value


def _flags_after_command(argv: Sequence[str]) -> tuple[list[str], str | None]:
    """``argv`` with the leading :data:`LEADING_FLAGS` moved to its end (before a ``--``), flags alone
    being ``serve`` when stdin is not a terminal; or ``argv`` unchanged and the first leading flag that
    only a command takes (``--limit`` in ``memvault --limit 3 list``), if any."""
    argv = list(argv)
    moved: list[str] = []
    i = 0
    while i < len(argv) and argv[i].startswith("-"):
        name = argv[i].split("=", 1)[0]
        if name in ("-h", "--help", "--version", "--"):
            return argv, None
        if name not in LEADING_FLAGS:
            return argv, name
        takes_value = LEADING_FLAGS[name] and "=" not in argv[i]
        if takes_value and i + 1 >= len(argv):
            return argv, None
        moved += argv[i:i + 1 + takes_value]
        i += 1 + takes_value
    if i >= len(argv):  # flags only: `memvault --db X` as a client runs it is `memvault serve --db X`
        return (["serve", *moved] if moved and not sys.stdin.isatty() else argv), None
    rest = argv[i:]
    end = rest.index("--") if "--" in rest else len(rest)
    return rest[:end] + moved + rest[end:], None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``memvault`` console script; returns the exit code."""
    parser, commands = _parser()
    args = _parse(parser, commands, sys.argv[1:] if argv is None else argv)
    if args.command is None and sys.stdin.isatty():
        parser.print_help(sys.stderr)  # a person typed `memvault`: clients always run `memvault serve`
        return 2
    command = args.command or "serve"
    http_only = [flag for dest, flag in getattr(args, "http_only", ()) if getattr(args, dest) is not None]
    if http_only and getattr(args, "transport", "stdio") != "http":  # given for stdio, they would be ignored
        commands["serve"].error(f"{', '.join(http_only)} {'applies' if len(http_only) == 1 else 'apply'} only to the "
                                "HTTP team server: add --transport http (on stdio the client starts the server and "
                                "talks to it through a pipe, on no port)")
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="memvault %(levelname)s %(name)s: %(message)s")
    try:
        config = config_module.load(
            db=getattr(args, "db", None), tenant=getattr(args, "tenant", None), scope=getattr(args, "scope", None),
            model_dir=getattr(args, "model_dir", None), boot_tokens=getattr(args, "boot_tokens", None),
            allow_secrets=getattr(args, "allow_secrets", None), serving=command == "serve",
        )
    except ValueError as exc:
        _err(str(exc))
        return 2
    db = getattr(args, "db", None)
    if db and redacted(db) != db:  # a password in argv: any user of the machine reads it in `ps`
        _err("warning: the password given in --db is visible to every user of this machine in the process list; "
             "give the URL in MEMVAULT_DB, or the password in ~/.pgpass or PGPASSWORD, instead")
    if command == "serve" and getattr(args, "transport", "stdio") == "http":  # bare `memvault` has no flags
        return _serve_http(args, config)
    if command == "serve":
        return _serve(config)
    if command == "keys":
        return _printing(lambda: _keys(args, config))
    if command == "setup":
        return _printing(lambda: _setup(args, config))
    return _printing(lambda: _with_store(command, args, config))


def _parse(parser: argparse.ArgumentParser, commands: dict[str, argparse.ArgumentParser],
           argv: Sequence[str]) -> argparse.Namespace:
    """``argv`` parsed, the :data:`LEADING_FLAGS` before the command read as after it; a flag the
    command does not take, before it or after, is refused the same way (:func:`_not_taken`)."""
    given, misplaced = _flags_after_command(argv)
    if misplaced is not None:
        command = next((word for word in given if word in COMMANDS), None)
        if command is not None and misplaced not in commands[command]._option_string_actions:
            _not_taken(commands[command], misplaced)
        parser.error(f"{misplaced} goes after the command: `memvault {command or 'COMMAND'} {misplaced} ...`; only "
                     f"{', '.join(LEADING_FLAGS)} may also come before it")
    if given and given[0].split("=", 1)[0] in LEADING_FLAGS:  # a person typed only flags
        parser.error(f"{given[0].split('=', 1)[0]} goes with a COMMAND, e.g. `memvault stats {' '.join(given)}` "
                     "(see `memvault -h` for the commands)")
    args, extra = parser.parse_known_args(given)
    if extra:  # named with the subcommand's own usage, not the top-level one (its error masks credentials)
        from memvault.storage.errors import credentials_in  # each argument whole (a key with spaces)

        command = commands.get(f"{args.command} {getattr(args, 'action', '')}", commands.get(args.command, parser))
        if extra[0].startswith("-") and extra[0] != "-":
            _not_taken(command, extra[0].split("=", 1)[0])
        command.error(f"unrecognized arguments: {' '.join(credentials_in(w) or w for w in extra)}")
    return args


def _not_taken(command: argparse.ArgumentParser, flag: str) -> NoReturn:
    """Exit 2 (as argparse): ``command`` takes no ``flag``, and these flags."""
    from memvault.storage.errors import credentials_in

    name = command.prog.removeprefix("memvault ")
    whole = name in ("stats", "reindex", "doctor") and flag in ("--tenant", "--scope")
    why = " (it covers the whole database: every tenant and scope)" if whole else ""
    takes = [max(a.option_strings, key=len) for a in command._actions if a.option_strings and a.dest != "help"]
    command.error(f"`memvault {name}` takes no {credentials_in(flag) or flag}{why}; its flags: "
                  f"{', '.join(takes) or 'none'} (`memvault {name} -h`)")


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
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # the flush at exit must not fail again
        return 141  # 128 + SIGPIPE (13); Windows has no SIGPIPE constant


def _serve(config: config_module.Config) -> int:
    import anyio

    from .workarounds import serve as serve_stdio
    from .app import build_server

    # The SDK reads stdin on a thread Ctrl-C cannot interrupt; every write is one transaction, so
    # exiting at once loses nothing. Stdin's blocking mode is restored first (for the next program).
    stdin, blocking = os.dup(0), os.get_blocking(0)  # the dup shares stdin's open file

    def stop(*_: object) -> None:
        os.set_blocking(stdin, blocking)
        os._exit(130)

    signal.signal(signal.SIGINT, stop)  # before saying it waits: Ctrl-C from then on stops it
    if sys.stdin.isatty():
        _err(
            "waiting for an MCP client on stdin; clients start this command themselves: "
            "`memvault setup claude-desktop` (or claude-code, cursor, vscode) prints their configuration. Ctrl-C stops."
        )
    else:
        logging.getLogger("memvault").info(
            "serving MCP on stdio (database %s, tenant %s, scope %s); waiting for a client on stdin",
            config.db_label, config.tenant, config.scope,
        )
    anyio.run(serve_stdio, build_server(config))
    return 0


def _serve_http(args: argparse.Namespace, config: config_module.Config) -> int:
    from . import http

    try:
        settings = config_module.load_http(**{dest: getattr(args, dest) for dest, _ in args.http_only})
    except ValueError as exc:
        _err(str(exc))
        return 2
    try:
        http.serve(config, settings)
    except ValueError as exc:  # a setting refused once the server is built (an http:// JWKS URL off loopback)
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
    if args.action != "create" and not config.db_exists():
        _err(f"no database at {config.db_label} (check --db / MEMVAULT_DB)")
        return 1
    existed = config.db_exists()
    try:
        with _opened(config, existed) as store:
            if args.action == "create":
                record, key = keys.create(store, args.tenant, args.scope, args.name, args.read_only, args.expires)
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

    state = record.refusal(now_ms()) or (f"expires {format_ms(record.expires_at)}" if record.expires_at else "active")
    access = "read-only" if record.read_only else "read-write"
    name = f" name={record.name!r}" if record.name else ""
    return f"{record.id} tenant={record.tenant} scope={record.scope} {access} {state}{name}"


CREATES = {"remember", "import"}


def _with_store(command: str, args: argparse.Namespace, config: config_module.Config) -> int:
    from memvault.storage.embeddings import Embedder
    from memvault.storage.errors import MemvaultError
    from memvault.tools import handlers

    logging.getLogger().setLevel(logging.WARNING)
    caller = handlers.Caller(tenant=config.tenant, scope=config.scope)
    existed = config.db_exists()
    if command == "import" and args.file != "-" and not Path(args.file).is_file():
        what = "is a folder, not a file" if Path(args.file).is_dir() else "does not exist"
        _err(f"{FLAGS['file']}: {shown(args.file)} {what}: nothing to import")
        return 2
    if command not in CREATES and not existed:
        if isinstance(config.db, str):  # a PostgreSQL URL: the server answers, memvault's tables are not there
            _err(f"no database at {config.db_label} yet: memvault's tables are not in that PostgreSQL database. "
                 "`memvault remember` or an MCP client creates them; if your memories are in another database, "
                 "give its URL with --db or MEMVAULT_DB")
        else:
            _err(f"no database at {config.db_label} yet: nothing is stored there. `memvault remember` or an MCP "
                 "client creates it; if your memories are elsewhere, give that file with --db or MEMVAULT_DB")
        return 1
    try:
        with _opened(config, existed, Embedder(config.model_dir), allow_secrets=config.allow_secrets) as store:
            code = RUN[command](store, caller, args)
        if not existed:
            _err(f"created a new database at {config.db_where()}")
        return code
    except MemvaultError as exc:
        _err(_in_cli_words(exc))
        return _exit_code(exc)


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


_ARGUMENT = re.compile(r"`([a-z_]+)`")  # an argument a reason names (storage.errors.InvalidInput)


def _in_cli_words(exc: Exception) -> str:
    """``exc``'s message with its field, and each argument its reason names, as the command line
    spells them (``kinds[0]``: ``--kind``; ``query``: ``QUERY``)."""
    from memvault.storage.errors import Conflict, InvalidInput, NotFound

    if isinstance(exc, (InvalidInput, NotFound, Conflict)):
        reason = _ARGUMENT.sub(lambda m: FLAGS.get(m.group(1), m.group(1)), exc.reason)
        return f"{FLAGS.get(exc.field.split('[')[0], exc.field)}: {reason}"
    return str(exc)


def _exit_code(exc: Exception) -> int:
    """2 when ``exc`` refuses a command-line argument (as argparse), else 1."""
    from memvault.storage.errors import InvalidInput

    return 2 if isinstance(exc, InvalidInput) and exc.field.split("[")[0] in FLAGS else 1


def _emit(args: argparse.Namespace, result: Any, text: Callable[[], str]) -> int:
    """Print ``result`` as JSON (ASCII, with escapes) with --json, else ``text()``."""
    from pydantic import BaseModel

    if getattr(args, "json", False):
        # ASCII (other characters as JSON escapes): the same document on any console encoding
        _out(json.dumps(result.model_dump(mode="json") if isinstance(result, BaseModel) else result, indent=2))
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
                                    "scope": a.scope if not a.query.strip() else None},  # --scope lists it, as the tool
               lambda t, r: t.recall_text(r, full_ids=True, person=True)),
    "show": ("memory_view", lambda a: {"memory_id": a.id}, lambda t, r: t.memory_view_text(r)),
    "forget": ("forget", lambda a: {"id": a.id, "reason": a.reason, "include_history": a.history},
               lambda t, r: t.render(r)),
    "supersede": ("supersede", lambda a: {"id": a.id, "content": a.text, "reason": a.reason, "kind": a.kind,
                                          "tags": a.tags, "importance": a.importance}, lambda t, r: t.render(r)),
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
    # JSON pages like the text: the count of all that match, the next page's cursor and offset (null at the end).
    page = {**found.model_dump(mode="json"), "total": total,
            "next_offset": None if args.cursor else text.next_offset(total, offset, len(found.memories))}
    return _emit(args, page, lambda: text.list_text(found, total, offset, by_offset=args.offset is not None,
                                                            paged=args.cursor is not None))


def _stats(store: Store, caller: Caller, args: argparse.Namespace) -> int:
    from memvault.storage import maintenance

    stats = maintenance.stats(store)
    return _emit(args, stats, lambda: _stats_text(stats))


# Headings of `memvault stats` other than the JSON key with spaces for underscores.
STATS_HEADINGS = {"model_id": "model", "by_kind": "current memories by kind",
                  "scrub_pending": "scrub of forgotten text pending"}


def _stats_text(stats: dict[str, Any]) -> str:
    lines = []
    for key, value in stats.items():
        heading = STATS_HEADINGS.get(key, key.replace("_", " "))
        if key == "by_scope":
            lines.append("current memories by tenant and scope:")
            for tenant, scopes in value.items():
                lines.append(f"  tenant {tenant}: " + ", ".join(f"{scope} {n}" for scope, n in scopes.items()))
        elif isinstance(value, dict):
            lines.append(f"{heading}:")
            lines.extend(f"  {name}: {inner}" for name, inner in value.items())
        else:
            lines.append(f"{heading}: {({True: 'yes', False: 'no'}.get(value, value) if isinstance(value, bool) else value)}")
    return "\n".join(lines)


def _reindex(store: Store, caller: Caller, args: argparse.Namespace) -> int:
    made = _run_reindex(store)
    if made is None:
        return 130
    from memvault.storage import maintenance
    from memvault.tools import text

    result = {"reindexed": made, "model_id": maintenance.stats(store)["model_id"]}
    return _emit(args, result, lambda: f"Reindexed: {text.count(made, 'vector')} made with model {result['model_id']}.")


def _run_reindex(store: Store) -> int | None:
    """Reindex with a progress bar on a terminal's stderr; None when Ctrl-C stopped it (a re-run resumes)."""
    from tqdm import tqdm

    from memvault.storage import maintenance

    bar = tqdm(total=0, unit="memory", desc="reindex", file=sys.stderr, disable=None)  # None: only on a terminal

    def progress(done: int, total: int) -> None:
        bar.total = total
        bar.n = done
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
    from tqdm import tqdm

    from memvault.storage.errors import Busy, StorageUnavailable

    bar = tqdm(unit="step", desc="vector index", file=sys.stderr, disable=None)
    try:
        store.backend.maintain(lambda: bool(bar.update()) and False)  # each step counted
    except KeyboardInterrupt:
        _err("vector index upkeep stopped; the server finishes it in the background.")
    except (Busy, StorageUnavailable) as exc:
        _err(f"vector index upkeep postponed ({exc}); the server finishes it in the background.")
    finally:
        bar.close()


def _doctor(store: Store, caller: Caller, args: argparse.Namespace) -> int:
    from memvault.storage import maintenance
    from memvault.tools import text

    report: dict[str, Any] = {}
    if args.repair:
        made = _run_reindex(store)
        if made is None:
            return 130
        report["repaired"] = {"reindexed": made, "scrub_pending": not store.upkeep.scrub(),
                              "made_private": _make_private(store.backend)}
    from memvault.storage.errors import StorageUnavailable

    try:
        problems = maintenance.check(store) + _permission_problems(store.backend)
        report = {"ok": not problems, "problems": problems, **report, **maintenance.stats(store)}
    except StorageUnavailable as exc:  # a damaged file: said as the problem it is, not a traceback
        problems = [str(exc)]
        report = {"ok": False, "problems": problems, **report}
    lines = [f"problem: {p}" for p in problems] or ["ok: no problems found"]
    if "repaired" in report:
        scrub = "still pending (busy)" if report["repaired"]["scrub_pending"] else "none pending"
        private = report["repaired"]["made_private"]
        lines.insert(0, f"repaired: keyword index rebuilt, {text.count(report['repaired']['reindexed'], 'vector')} made, "
                        f"scrub of forgotten content {scrub}"
                        + (f", made private: {', '.join(private)}" if private else ""))
    _emit(args, report, lambda: "\n".join(lines))
    return 1 if problems else 0


def _exposed_files(backend: Backend) -> list[tuple[Path, int]]:
    """(path, mode) of the SQLite file, -wal and -shm that the group or others may use."""
    if backend.kind != "sqlite":
        return []
    db = Path(backend.location)
    found = [(p, p.stat().st_mode & 0o777) for p in (db, Path(f"{db}-wal"), Path(f"{db}-shm")) if p.exists()]
    return [(path, mode) for path, mode in found if mode & 0o077]


def _permission_problems(backend: Backend) -> list[str]:
    return [f"{path} has mode {mode:o}: others can read it (chmod go-rwx, or doctor --repair)"
            for path, mode in _exposed_files(backend)]


def _make_private(backend: Backend) -> list[str]:
    """``chmod go-rwx`` on each :func:`_exposed_files`; the paths changed."""
    changed = []
    for path, mode in _exposed_files(backend):
        path.chmod(mode & 0o700)
        changed.append(str(path))
    return changed


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
        _err(f"left out {text.count(len(left_out), 'superseded memory', 'superseded memories')} whose newest version "
             "was forgotten or has expired "
             f"(history without a current version), e.g. {left_out[0]}")
    return 0


IMPORT_ERRORS_SHOWN = 20  # failed lines listed on stderr; --json lists them all


def _import(store: Store, caller: Caller, args: argparse.Namespace) -> int:
    """Import with a progress bar and a summary on stderr; exit 1 when a line failed, 130 on Ctrl-C."""
    import dataclasses

    from tqdm import tqdm

    from memvault.storage import transfer
    from memvault.tools import text

    # Undecodable bytes reach the checks as lone surrogates: that line fails, not the import.
    if args.file == "-":
        source = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8-sig", errors="surrogateescape")
        total = None
    else:
        source = open(args.file, encoding="utf-8-sig", errors="surrogateescape")
        with open(args.file, "rb") as fh:
            total = sum(1 for _ in fh)
    bar = tqdm(total=total, unit="line", desc="import", file=sys.stderr, disable=None)  # None: only on a terminal

    def progress(lines: int) -> None:
        bar.update(lines - bar.n)

    try:
        report = transfer.import_lines(store, source, tenant=caller.tenant, scope=caller.scope, progress=progress)
    except KeyboardInterrupt:
        _err("import stopped; what was imported stays. Run the same command again to resume.")
        return 130
    finally:
        bar.close()
        if args.file != "-":  # stdin stays open
            source.close()
    if report.imported:
        _index_vectors(store)
    for error in sorted(report.failed, key=lambda e: e.line)[:IMPORT_ERRORS_SHOWN]:
        _err(f"line {error.line}: {error.field}: {error.message}")
    if len(report.failed) > IMPORT_ERRORS_SHOWN:
        _err(f"... and {text.count(len(report.failed) - IMPORT_ERRORS_SHOWN, 'more failed line')} (--json lists them all)")
    _err(f"imported {report.imported} of {text.count(report.read, 'memory line')} (blank lines skipped): "
         f"{report.skipped_existing} already there, "
         f"{len(report.failed)} failed, {report.vectors_pending} waiting for vectors")
    if report.degraded:
        _err(f"degraded: {report.degraded}")
    if args.json:
        _out(json.dumps(dataclasses.asdict(report), indent=2))
    return 1 if report.failed else 0


def _setup(args: argparse.Namespace, config: config_module.Config) -> int:
    from . import setup

    plan = setup.for_client(args.client, config)
    if args.write:
        try:
            backup = setup.write(plan)
        except ValueError as exc:
            _err(str(exc))
            return 1
        kept = f" (the previous file is kept as {backup})" if backup else ""
        _err(f"wrote the {setup.SERVER_NAME} entry into {plan.path}{kept}. {plan.note}")
        return 0
    if args.json:
        _out(json.dumps({"client": plan.client, "path": str(plan.path), **plan.document()}, indent=2))
        return 0
    _out(f"Add this to {plan.path} (or run this command again with --write to merge it there):\n")
    _out(json.dumps(plan.document(), indent=2))
    _out(f"\n{plan.note}")
    return 0


RUN: dict[str, Callable[[Store, Caller, argparse.Namespace], int]] = {
    **{name: _tool(name) for name in TOOLS}, "list": _list, "stats": _stats, "reindex": _reindex, "doctor": _doctor, "export": _export,
    "import": _import,
}
