"""``memvault setup CLIENT``: an MCP client's configuration entry, the file each client's documentation
names for it on this OS, and a careful merge into that file.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memvault.storage.location import secrets_in

from .config import Config

CLIENTS = ("claude-desktop", "claude-code", "cursor", "vscode")
SERVER_NAME = "memvault"


@dataclass(frozen=True)
class Setup:
    """What to write for one client: ``entry`` goes under ``document[key]["memvault"]`` in ``path``."""

    client: str
    path: Path
    key: str
    entry: dict[str, object]
    note: str
    private: bool = False  # the entry holds a database password: the file and its backup get mode 0600

    def document(self) -> dict[str, object]:
        """The smallest complete config file holding the entry."""
        return {self.key: {SERVER_NAME: self.entry}}


def launcher() -> tuple[str, list[str]]:
    """The absolute command and arguments that start this memvault: its ``memvault`` script (no PATH
    needed), else this Python with ``-m``."""
    script = Path(sys.argv[0])
    if script.stem == "memvault" and script.is_file():
        return str(script.resolve()), ["serve"]
    return sys.executable, ["-m", "memvault.server", "serve"]


def for_client(client: str, config: Config, cwd: Path | None = None) -> Setup:
    """The entry for ``client`` with this configuration's database (absolute), tenant and scope.

    Raises:
        ValueError: an unknown client.
    """
    command, args = launcher()
    env = {"MEMVAULT_DB": config.db if isinstance(config.db, str) else str(config.db.resolve())}
    if config.tenant != "default":
        env["MEMVAULT_TENANT"] = config.tenant
    if config.scope != "default":
        env["MEMVAULT_SCOPE"] = config.scope
    entry: dict[str, object] = {"command": command, "args": args, "env": env}
    private = bool(secrets_in(env["MEMVAULT_DB"]))
    here = cwd or Path.cwd()
    if client == "claude-desktop":
        from platformdirs import user_config_path  # macOS Application Support, Windows %APPDATA%, XDG

        path = user_config_path("Claude", appauthor=False, roaming=True) / "claude_desktop_config.json"
        return Setup(client, path, "mcpServers", entry, "Restart Claude Desktop after writing it.", private)
    if client == "claude-code":
        every = ["claude", "mcp", "add", "--scope", "user", SERVER_NAME,
                 *(part for k, v in env.items() for part in ("-e", f"{k}={v}")), "--", command, *args]
        return Setup(client, here / ".mcp.json", "mcpServers", entry, "Project scope (this folder); Claude "
                     f"Code asks once to approve it. For every project instead: {shlex.join(every)}", private)
    if client == "cursor":
        cursor = Path.home() / ".cursor" / "mcp.json"
        return Setup(client, cursor, "mcpServers", entry, "Restart Cursor after writing it.", private)
    if client == "vscode":
        return Setup(client, here / ".vscode" / "mcp.json", "servers", {"type": "stdio", **entry},
                     "Workspace scope (this folder); start it from the MCP: List Servers command.", private)
    from memvault.storage.errors import shown

    raise ValueError(f"unknown client {shown(client)}: choose one of {', '.join(CLIENTS)}")


def write(setup: Setup) -> Path | None:
    """Merge the entry into ``setup.path`` (other keys kept) through a temporary file renamed over it;
    returns the timestamped ``.bak`` copy of the old file (None: a new file, or nothing to change).

    Raises:
        ValueError: the existing file is not a JSON object (e.g. it has comments): nothing is written.
    """
    return merge(setup.path, setup.key, lambda servers: {**servers, SERVER_NAME: setup.entry}, setup.private)


def merge(path: Path, key: str, change: Callable[[dict[str, Any]], dict[str, Any]],
          private: bool = False) -> Path | None:
    """Replace the object under ``key`` of the JSON file ``path`` by ``change(it)`` as :func:`write` does
    (``private``: files of mode 0600); nothing is written when it is unchanged. Raises ValueError as
    :func:`write`."""
    backup = None
    document: dict[str, object] = {}
    if path.exists():
        text = path.read_text(encoding="utf-8")
        try:
            document = json.loads(text) if text.strip() else {}
        except ValueError as exc:
            raise ValueError(f"{path} is not plain JSON ({exc}); nothing was written: add the entry by "
                             "hand") from None
        if not isinstance(document, dict) or not isinstance(document.get(key, {}), dict):
            raise ValueError(f"{path} does not hold a JSON object with {key!r}; nothing was written")
    current = dict(document.get(key) or {})  # type: ignore[call-overload]
    changed = change(dict(current))
    if changed == current:
        return None  # already there as it would be written: nothing to change, no backup
    if path.exists():
        stamp = datetime.now(tz=UTC).strftime("%Y%m%dT%H%M%S.%fZ")  # to the microsecond: never overwrites one
        backup = path.with_name(f"{path.name}.{stamp}.bak")
        _write_text(backup, text, private)
    document[key] = changed
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.unlink(missing_ok=True)
    _write_text(tmp, json.dumps(document, indent=2, ensure_ascii=False) + "\n", private)
    os.replace(tmp, path)
    return backup


def _write_text(path: Path, text: str, private: bool) -> None:
    """Write ``text`` to ``path`` (UTF-8); ``private``: created with mode 0600, whatever the umask."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if private else 0o666)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
