"""``memvault setup claude-code --hooks``: memvault's hook commands, merged into Claude Code's user
settings beside the user's other hooks."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .hooks import BACKGROUND, EVENTS

if TYPE_CHECKING:
    from .config import Config


def settings_path() -> Path:
    """Claude Code's user settings: ``settings.json`` in $CLAUDE_CONFIG_DIR, else ~/.claude."""
    return Path(os.environ.get("CLAUDE_CONFIG_DIR") or Path.home() / ".claude") / "settings.json"


def commands(config: Config, client: str = "claude-code") -> dict[str, str]:
    """The shell command of each of ``client``'s hooks: this memvault (``setup.launcher``) with the
    configuration's database (absolute), tenant and scope.

    Raises:
        ValueError: the database URL holds a password (a command line is visible in the process list).
    """
    import shlex

    from .setup import launcher

    command, args = launcher()
    db = config.db if isinstance(config.db, str) else str(Path(config.db).resolve())
    refuse_password(db)
    flags = ["--db", db]
    flags += ["--tenant", config.tenant] if config.tenant != "default" else []
    flags += ["--scope", config.scope] if config.scope != "default" else []
    return {event: shlex.join([command, *args[:-1], "hook", client, event, *flags])
            for event in EVENTS[client]}


def refuse_password(db: str) -> None:
    """Refuse a database setting (as given: a URL needs no driver to be read) that holds a password.

    Raises:
        ValueError: it does; a hook's command line would show it in the process list.
    """
    from memvault.storage.location import secrets_in

    if secrets_in(db):
        raise ValueError("the database URL holds a password, which a hook's command line would show to "
                         "every user of this machine: keep it in ~/.pgpass or PGPASSWORD and give the URL "
                         "without it")


def _ours(hook: object) -> bool:
    """Whether a settings hook entry runs ``memvault hook claude-code`` (any install of it)."""
    import shlex

    if not isinstance(hook, dict) or not isinstance(hook.get("command"), str):
        return False
    try:
        words = shlex.split(hook["command"])
    except ValueError:
        return False
    at = next((i for i in range(len(words) - 1) if words[i:i + 2] == ["hook", "claude-code"]), None)
    return at is not None and any(w.endswith("memvault") or w == "memvault.server" for w in words[:at])


def merged(current: dict[str, Any], wanted: dict[str, str]) -> dict[str, Any]:
    """Claude Code's ``hooks`` setting with one group running each ``wanted`` command per event, where
    memvault's first group was (else last); other hooks kept as they are.

    Raises:
        ValueError: an event's setting is not a list of groups (nothing is written).
    """
    result = dict(current)
    for event, command in wanted.items():
        groups = current.get(event, [])
        if not isinstance(groups, list):
            raise ValueError(f"hooks.{event} in {settings_path()} is not a list; nothing was written")
        at = None
        kept = []
        for group in groups:
            inner = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(inner, list) or not any(_ours(h) for h in inner):
                kept.append(group)
                continue
            at = len(kept) if at is None else at
            rest = [h for h in inner if not _ours(h)]
            if rest:
                kept.append({**group, "hooks": rest})
        hook: dict[str, object] = {"type": "command", "command": command}
        if event in BACKGROUND:
            hook["async"] = True
        ours = {"hooks": [hook]}
        kept.insert(len(kept) if at is None else at, ours)
        result[event] = kept
    return result
