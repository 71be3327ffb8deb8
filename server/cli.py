"""The ``memvault`` command: ``serve`` (MCP over stdio) and a few maintenance commands.

Results go to stdout for the maintenance commands only; ``serve`` never writes to
stdout except JSON-RPC, and every command logs to stderr.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from . import config as config_module
from . import version

if TYPE_CHECKING:
    from memvault.storage.store import Store
    from memvault.tools.schemas import RecallResult


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", help="database file (env MEMVAULT_DB; default: the user data directory)")
    common.add_argument("--tenant", help="tenant: hard isolation boundary (env MEMVAULT_TENANT; default 'default')")
    common.add_argument("--scope", help="default scope (env MEMVAULT_SCOPE; default 'default')")
    common.add_argument("--model-dir", help="folder with model.onnx + tokenizer.json (env MEMVAULT_MODEL_DIR)")
    common.add_argument("--boot-tokens", type=int, help="boot context token budget (env MEMVAULT_BOOT_TOKENS)")
    common.add_argument(
        "--allow-secrets", action="store_true", default=None,
        help="store content even when it contains credentials (env MEMVAULT_ALLOW_SECRETS; default: refuse)",
    )

    parser = argparse.ArgumentParser(prog="memvault", description="Local persistent memory for MCP agents.")
    parser.add_argument("--version", action="version", version=f"memvault {version()}")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("serve", parents=[common], help="run the MCP server on stdio (what clients launch)")
    rem = sub.add_parser("remember", parents=[common], help="store a memory")
    rem.add_argument("text")
    rem.add_argument("--tag", action="append", dest="tags", help="a tag (repeatable)")
    rem.add_argument("--kind", help="fact, preference, decision, procedure, episode or failure")
    rem.add_argument("--importance", type=int, help="1-10")
    rec = sub.add_parser("recall", parents=[common], help="search memories")
    rec.add_argument("query")
    rec.add_argument("--limit", type=int, default=5)
    rec.add_argument("--json", action="store_true", help="print the same JSON the recall tool returns")
    sub.add_parser("stats", parents=[common], help="counts of memories, vectors and tenants")
    sub.add_parser("reindex", parents=[common], help="rebuild the keyword index and every vector")
    doc = sub.add_parser("doctor", parents=[common], help="check the database; exit 1 when something is wrong")
    doc.add_argument("--repair", action="store_true", help="rebuild the derived indexes (FTS5, vectors) first")
    exp = sub.add_parser("export", parents=[common], help="JSON lines of the tenant's memories, with history")
    exp.add_argument("--output", "-o", help="file to write (default: stdout)")
    return parser


def _out(text: str) -> None:
    sys.stdout.write(text + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``memvault`` console script; returns the exit code."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None and sys.stdin.isatty():
        parser.print_help(sys.stderr)  # a person typed `memvault`: clients always run `memvault serve`
        return 2
    command = args.command or "serve"
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="memvault %(levelname)s %(name)s: %(message)s")
    try:
        config = config_module.load(
            db=getattr(args, "db", None), tenant=getattr(args, "tenant", None), scope=getattr(args, "scope", None),
            model_dir=getattr(args, "model_dir", None), boot_tokens=getattr(args, "boot_tokens", None),
            allow_secrets=getattr(args, "allow_secrets", None),
        )
    except ValueError as exc:
        sys.stderr.write(f"memvault: {exc}\n")
        return 2
    if command == "serve":
        import anyio

        from . import stdio
        from .app import build_server

        logging.getLogger("memvault").info(
            "serving MCP on stdio (database %s, tenant %s, scope %s); waiting for a client on stdin",
            config.db, config.tenant, config.scope,
        )
        # The SDK reads stdin on a thread that Ctrl-C cannot interrupt. Every write is
        # one transaction (WAL), so ending the process at once loses nothing committed.
        signal.signal(signal.SIGINT, lambda *_: os._exit(130))
        anyio.run(stdio.serve, build_server(config))
        return 0
    return _maintenance(command, args, config)


MUST_EXIST = {"recall", "stats", "doctor", "export", "reindex"}


def _maintenance(command: str, args: argparse.Namespace, config: config_module.Config) -> int:
    from memvault.storage import maintenance
    from memvault.storage.embeddings import Embedder
    from memvault.storage.errors import MemvaultError
    from memvault.storage.store import Store
    from memvault.tools import handlers

    logging.getLogger().setLevel(logging.WARNING)
    caller = handlers.Caller(tenant=config.tenant, scope=config.scope)
    if command in MUST_EXIST and not config.db.is_file():
        sys.stderr.write(f"memvault: no database at {config.db} (check --db / MEMVAULT_DB)\n")
        return 1
    try:
        store = Store(config.db, Embedder(config.model_dir), allow_secrets=config.allow_secrets)
        try:
            if command == "remember":
                result = handlers.remember(
                    store, caller, content=args.text, tags=args.tags, kind=args.kind, importance=args.importance
                )
                _out(result.model_dump_json(exclude_none=True))
            elif command == "recall":
                found = handlers.recall(store, caller, query=args.query, limit=args.limit)
                if args.json:
                    _out(found.model_dump_json(indent=2))
                else:
                    _print_recall(found)
            elif command == "stats":
                _out(json.dumps(maintenance.stats(store), indent=2))
            elif command == "reindex":
                _reindex(store)
            elif command == "doctor":
                return _doctor(store, repair=args.repair)
            elif command == "export":
                _export(store, config.tenant, args.output)
        finally:
            store.close()
    except MemvaultError as exc:
        sys.stderr.write(f"memvault: {exc}\n")
        return 1
    return 0


def _print_recall(found: RecallResult) -> None:
    if found.degraded:
        sys.stderr.write(f"memvault: degraded: {found.degraded}\n")
    if found.abstained:
        _out("(nothing relevant stored)")
    for i, m in enumerate(found.memories, start=1):
        _out(f"{i}. [{m.kind}] {m.content}\n   id {m.id} · scope {m.scope} · score {m.score:.4f}")


def _reindex(store: Store) -> None:
    from tqdm import tqdm

    from memvault.storage import maintenance

    bar = tqdm(total=0, unit="memory", desc="reindex", file=sys.stderr)

    def progress(done: int, total: int) -> None:
        bar.total = total
        bar.n = done
        bar.refresh()

    made = maintenance.reindex(store, progress)
    bar.close()
    _out(json.dumps({"reindexed": made, "model_id": maintenance.stats(store)["model_id"]}))


def _doctor(store: Store, repair: bool) -> int:
    from memvault.storage import maintenance

    if repair:
        _reindex(store)
    problems = maintenance.check(store) + _permission_problems(store.path)
    for problem in problems:
        sys.stderr.write(f"memvault doctor: {problem}\n")
    _out(json.dumps({"ok": not problems, "problems": problems, **maintenance.stats(store)}, indent=2))
    return 1 if problems else 0


def _permission_problems(db: Path) -> list[str]:
    """The database and its -wal and -shm companions must not be readable by others."""
    problems = []
    for path in (p for p in (db, Path(f"{db}-wal"), Path(f"{db}-shm")) if p.exists()):
        mode = path.stat().st_mode & 0o777
        if mode & 0o077:
            problems.append(f"{path} has mode {mode:o}: others can read it (chmod go-rwx)")
    return problems


def _export(store: Store, tenant: str, output: str | None) -> None:
    from memvault.storage import maintenance

    lines = maintenance.export(store, tenant)
    if output is None:
        for line in lines:
            _out(line)
        return
    fd = os.open(output, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        for line in lines:
            fh.write(line + "\n")
