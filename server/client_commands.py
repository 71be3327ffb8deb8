"""The ``memvault`` commands for clients: ``setup`` (a client's configuration, its Claude Code hooks,
a Claude Desktop bundle) and ``hook`` (what a client's hook runs)."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any

from . import config as config_module
from .cli_io import err, failure_words, out


def setup(args: argparse.Namespace, config: config_module.Config) -> int:
    """``memvault setup CLIENT``: print its configuration, or merge it in (``--write``, ``--hooks``,
    ``--bundle``)."""
    from . import setup as clients

    alike = _lookalike_names(config)
    if alike is not None:
        err(f"--{alike[0]}: {alike[1]}; nothing was written")
        return 2
    if args.bundle:
        return _bundle(args, config)
    if args.hooks:
        return _setup_hooks(args, config)
    plan = clients.for_client(args.client, config)
    if args.write:
        try:
            written = clients.write(plan)
        except ValueError as exc:
            err(f"{exc}. Paste this into it by hand ({plan.key!r} may already be there: add the "
                 f"{clients.SERVER_NAME!r} entry inside it):\n{plan.text()}")
            return 1
        if not written.changed:
            err(f"{plan.path} already holds this {clients.SERVER_NAME} entry: nothing changed.")
            return 0
        kept = f" (the previous file is kept as {written.backup})" if written.backup else ""
        err(f"wrote the {clients.SERVER_NAME} entry into {plan.path}{kept}. {plan.note}")
    elif args.json:
        out(json.dumps({"client": plan.client, "path": str(plan.path), **plan.document()}, indent=2))
    else:
        out(f"Add this to {plan.path} (or run this command again with --write to merge it there):\n")
        out(plan.text())
        out(f"\n{plan.note}")
    return 0


def _lookalike_names(config: config_module.Config) -> tuple[str, str] | None:
    """The field ("tenant", "scope") and why the configured one is refused (``tenants.refuse_lookalike``,
    as ``keys create`` refuses it: it holds nothing and differs from one that does only by letter case or
    character form), or None. Read from an existing database file only: a PostgreSQL one is checked when the server starts."""
    if isinstance(config.db, str) or not config.db_exists():
        return None
    from memvault.storage.errors import InvalidInput
    from memvault.storage.store import Store
    from memvault.storage.tenants import refuse_lookalike

    store = Store(config.db, None, busy_timeout_ms=config.busy_timeout_ms, upkeep=False)
    try:
        refuse_lookalike(store, config.tenant, "the server this configuration starts", scope=config.scope)
    except InvalidInput as exc:
        return exc.field, exc.reason
    finally:
        store.close()
    return None


def _bundle(args: argparse.Namespace, config: config_module.Config) -> int:
    from . import bundle

    if args.client != "claude-desktop" or args.write:
        err("--bundle makes a Claude Desktop extension: `memvault setup claude-desktop --bundle OUT.mcpb`, "
             "without --write")
        return 2
    target = Path(args.bundle).resolve()
    try:
        manifest = bundle.write(target, config)
    except ValueError as exc:
        err(str(exc))
        return 1
    if args.json:
        out(json.dumps({"client": args.client, "bundle": str(target), "manifest": manifest}, indent=2))
    err(f"wrote {target}: a Claude Desktop extension that runs {manifest['server']['mcp_config']['command']} "
         "(this install). Open it with Claude Desktop (or Settings > Extensions > Install Extension) and "
         "check the database it shows.")
    return 0


def _setup_hooks(args: argparse.Namespace, config: config_module.Config) -> int:
    """Print Claude Code's ``hooks`` setting with memvault's merged in, and the file it belongs in; with
    ``--write``, merge them into that file (a backup first), saying when nothing changed."""
    from . import hook_settings, hooks, setup

    if args.client != "claude-code":
        err(f"--hooks: only claude-code's hooks are written (docs/hooks.md says what {args.client} offers)")
        return 2
    path = hook_settings.settings_path()
    try:
        wanted = hook_settings.commands(config)
    except ValueError as exc:  # a password in the database URL: nothing written
        err(f"--db: {exc}; nothing was written")
        return 1

    if not args.write:
        return _print_hooks(args, path, wanted)

    def change(document: dict[str, Any]) -> bool:
        current = document.get("hooks", {})
        if not isinstance(current, dict):
            raise ValueError(f"{path}: 'hooks' is not a JSON object; nothing was written")
        merged = hook_settings.merged(current, wanted)
        document["hooks"] = merged
        return merged != current

    try:
        written = setup.merge_json(path, change)
    except ValueError as exc:
        paste = json.dumps({"hooks": hook_settings.merged({}, wanted)}, indent=2)
        err(f"{exc}. Merge this into it by hand (keep any other hooks there):\n{paste}")
        return 1
    changed, backup = written.changed, written.backup
    if args.json:
        with open(path, encoding="utf-8") as file:
            after = json.load(file).get("hooks")
        out(json.dumps({"client": args.client, "path": str(path), "changed": changed,
                         "backup": str(backup) if backup else None, "hooks": after}, indent=2))
    if not changed:
        err(f"{path} already has memvault's hooks as they would be written: nothing changed")
    else:
        kept = f" (the previous file is kept as {backup})" if backup else ""
        err(f"wrote memvault's hooks ({', '.join(hooks.EVENTS['claude-code'])}) into {path}{kept}. "
             "Claude Code runs them from its next session. The memory tools are the MCP server's: "
             "`memvault setup claude-code` sets it up.")
    return 0


def _print_hooks(args: argparse.Namespace, path: Path, wanted: dict[str, str]) -> int:
    """``setup claude-code --hooks`` without ``--write``: the settings' ``hooks`` with memvault's merged in
    (the file's own hooks kept, when it can be read), printed with the file it belongs in; nothing written."""
    from . import hook_settings

    try:
        current = json.loads(path.read_text(encoding="utf-8")).get("hooks", {})
        merged = hook_settings.merged(current if isinstance(current, dict) else {}, wanted)
    except (OSError, ValueError, AttributeError):  # none yet, or not a plain JSON object: memvault's alone
        merged = hook_settings.merged({}, wanted)
    if args.json:
        out(json.dumps({"client": args.client, "path": str(path), "written": False, "hooks": merged}, indent=2))
        return 0
    out(f"Merge this into {path} (or run this command again with --write to merge it there, a backup "
        "kept; other hooks there stay):\n")
    out(json.dumps({"hooks": merged}, indent=2))
    out("\nThe memory tools are the MCP server's: `memvault setup claude-code` sets it up.")
    return 0


def hooks_exit() -> int:
    """The exit code of a failed hook: its client says so and goes on."""
    from .hooks import NON_BLOCKING

    return NON_BLOCKING


def hook(args: argparse.Namespace, config: config_module.Config) -> int:
    """``memvault hook CLIENT EVENT``: the client's JSON (if any) on stdout, nothing else; every failure
    said on stderr with the non-blocking exit code (memory failing never stops the user's session)."""
    from . import hooks

    logging.getLogger().setLevel(logging.WARNING)
    try:
        text = sys.stdin.buffer.read().decode("utf-8")
        document = hooks.run(config, args.client, args.event, hooks.payload(text, args.client, args.event))
    except hooks.HookInputError as exc:  # named "hook" alone when its client or event is the one refused
        known = args.event in hooks.EVENTS.get(args.client, ())
        err(f"{args.client} {args.event} hook: {exc}" if known else f"hook: {exc}")
        return hooks.NON_BLOCKING
    except UnicodeDecodeError as exc:
        err(f"{args.client} {args.event} hook: stdin: not UTF-8 ({exc.reason} at byte {exc.start})")
        return hooks.NON_BLOCKING
    except Exception as exc:  # any failure (database busy, disk full...): said, and the session goes on
        err(f"{args.client} {args.event} hook failed: {failure_words(exc)}")
        return hooks.NON_BLOCKING
    if document is not None:
        out(json.dumps(document))
    return 0
