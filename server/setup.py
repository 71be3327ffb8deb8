"""``memvault setup CLIENT``: an MCP client's configuration entry, the file each client's documentation
names for it on this OS (docs/clients.md cites each page), and a careful merge into that file: JSON, or
TOML through tomlkit, which keeps the rest of the file as it was, comments included.
"""

from __future__ import annotations

import json
import os
import shlex
import stat
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memvault.storage.location import secrets_in

from .clients import CLIENTS
from .config import ENV_ONLY, Config

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
    format: str = "json"  # or "toml" (Codex)

    def document(self) -> dict[str, object]:
        """The smallest complete config file holding the entry."""
        return {self.key: {SERVER_NAME: self.entry}}

    def text(self) -> str:
        """``document()`` as the client's file spells it."""
        if self.format == "toml":
            import tomlkit

            document = tomlkit.document()
            document[self.key] = _toml_servers({SERVER_NAME: self.entry})
            return tomlkit.dumps(document).rstrip("\n")
        return json.dumps(self.document(), indent=2, ensure_ascii=False)


def launcher() -> tuple[str, list[str]]:
    """The absolute command and arguments that start this memvault: its ``memvault`` script (no PATH
    needed), else this Python with ``-m``."""
    script = Path(sys.argv[0])
    if script.stem == "memvault" and script.is_file():
        return str(script.resolve()), ["serve"]
    return sys.executable, ["-m", "memvault.server", "serve"]


def for_client(client: str, config: Config) -> Setup:
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
    for name in ENV_ONLY:  # where the key is (a path or a switch, never the key): the server needs it too
        value = os.environ.get(name, "").strip()
        if value:
            env[name] = str(Path(os.path.expanduser(value)).absolute()) if name.endswith("FILE") else value
    entry: dict[str, object] = {"command": command, "args": args, "env": env}
    private = bool(secrets_in(env["MEMVAULT_DB"]))
    here = Path.cwd()
    if client == "claude-desktop":
        from platformdirs import user_config_path  # macOS Application Support, Windows %APPDATA%, XDG

        path = user_config_path("Claude", appauthor=False, roaming=True) / "claude_desktop_config.json"
        return Setup(client, path, "mcpServers", entry, "Restart Claude Desktop after writing it.", private)
    if client == "claude-code":
        every = ["claude", "mcp", "add", "--scope", "user", SERVER_NAME,
                 *(part for k, v in env.items() for part in ("-e", f"{k}={v}")), "--", command, *args]
        return Setup(client, here / ".mcp.json", "mcpServers", entry, "Project scope (this folder); Claude "
                     f"Code asks once to approve it. For every project instead: {shlex.join(every)}. Then `memvault setup "
                     "claude-code --hooks --write` brings the boot context and the memories that answer a prompt into "
                     "every session, without the agent asking (docs/hooks.md).", private)
    if client == "cursor":
        cursor = Path.home() / ".cursor" / "mcp.json"
        return Setup(client, cursor, "mcpServers", entry, "Restart Cursor after writing it.", private)
    if client == "vscode":
        return Setup(client, here / ".vscode" / "mcp.json", "servers", {"type": "stdio", **entry},
                     "Workspace scope (this folder); start it from the MCP: List Servers command.", private)
    if client == "codex":  # CODEX_HOME: developers.openai.com/codex/environment-variables
        home = Path(os.environ.get("CODEX_HOME") or Path.home() / ".codex")
        return Setup(client, home / "config.toml", "mcp_servers", entry, "The Codex CLI, IDE extension and "
                     "app share this file: start a new session; /mcp lists the server.", private, "toml")
    if client == "windsurf":
        return Setup(client, Path.home() / ".codeium" / "windsurf" / "mcp_config.json", "mcpServers", entry,
                     "Press refresh in Cascade's MCP servers panel, or restart Windsurf.", private)
    if client == "gemini-cli":
        return Setup(client, Path.home() / ".gemini" / "settings.json", "mcpServers", entry,
                     "Restart Gemini CLI; /mcp lists the server.", private)
    if client == "zed":
        return Setup(client, _zed_folder() / "settings.json", "context_servers", entry, "Zed reads the file "
                     "again when it changes; the Agent Panel's settings show the server's state.", private)
    from memvault.storage.errors import shown

    raise ValueError(f"unknown client {shown(client)}: choose one of {', '.join(CLIENTS)}")


@dataclass(frozen=True)
class Written:
    """What a merge did to ``path``: ``changed`` False when it already held the entry (nothing written);
    ``backup``, the copy of the file as it was before (None for a new file)."""

    path: Path
    changed: bool
    backup: Path | None


def write(setup: Setup) -> Written:
    """Merge the entry into ``setup.path`` under ``setup.key`` (other keys and servers kept).

    Raises:
        ValueError: the file cannot be read as its format (JSON with comments, broken TOML), or
            ``setup.key`` is not a table: nothing is written.
    """
    def put(document: Any) -> bool:
        if setup.key not in document:
            document[setup.key] = _toml_servers({}) if setup.format == "toml" else {}
        servers = document[setup.key]
        if not isinstance(servers, dict):
            raise ValueError(f"{setup.path}: {setup.key!r} is not a table of servers; nothing was written")
        from tomlkit.items import Table  # a table written as [...]; an inline {...} one is no Table

        old = servers.get(SERVER_NAME)
        if (old.unwrap() if hasattr(old, "unwrap") else old) == setup.entry:
            return False
        servers[SERVER_NAME] = _toml_entry(setup.entry) if isinstance(servers, Table) else setup.entry
        return True

    merge = merge_toml if setup.format == "toml" else merge_json
    return merge(setup.path, put, private=setup.private)


def merge_json(path: Path, change: Callable[[dict[str, Any]], bool], private: bool = False) -> Written:
    """Apply ``change`` to the JSON object in ``path`` (``{}`` when there is none) and write it back when
    it returns True (changed), through ``update``. For a caller's own keys, e.g. Claude Code's hooks.

    Raises:
        ValueError: the file is not a plain JSON object (e.g. it has comments): nothing is written.
    """
    def edit(text: str | None) -> str | None:
        try:
            document = json.loads(text) if text and text.strip() else {}
        except ValueError as exc:
            raise ValueError(f"{path} is not plain JSON ({exc}); nothing was written") from None
        if not isinstance(document, dict):
            raise ValueError(f"{path} does not hold a JSON object; nothing was written")
        if not change(document):
            return None
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"

    return update(path, edit, private)


def merge_toml(path: Path, change: Callable[[Any], bool], private: bool = False) -> Written:
    """``merge_json`` for a TOML file: ``change`` gets a ``tomlkit`` document, whose comments, order and
    spacing are written back as they were.

    Raises:
        ValueError: the file is not valid TOML: nothing is written.
    """
    import tomlkit
    from tomlkit.exceptions import ParseError

    def edit(text: str | None) -> str | None:
        try:
            document = tomlkit.parse(text or "")
        except ParseError as exc:
            raise ValueError(f"{path} is not valid TOML ({exc}); nothing was written") from None
        return tomlkit.dumps(document) if change(document) else None

    return update(path, edit, private)


def update(path: Path, edit: Callable[[str | None], str | None], private: bool = False) -> Written:
    """Replace ``path``'s text (None: no file yet) by ``edit(text)`` through a temporary file renamed over
    it, after copying the old file to ``NAME.TIMESTAMP.bak`` beside it; ``edit`` returning None writes
    nothing. ``private``: the file and its backup get mode 0600. A symbolic link (a dotfiles folder)
    stays one: the file it points to is the one replaced.

    Raises:
        ValueError: from ``edit``, which refuses the file: nothing is written.
    """
    try:
        path = path.resolve() if path.is_symlink() else path
    except (OSError, RuntimeError) as exc:  # a loop of symbolic links
        raise ValueError(f"{path} cannot be followed ({exc}); nothing was written") from None
    old = path.read_text(encoding="utf-8") if path.exists() else None
    new = edit(old)
    if new is None:
        return Written(path, False, None)
    # The file keeps its mode (a settings file of mode 0600 may hold an API key); a private one is 0600 at most.
    mode = stat.S_IMODE(path.stat().st_mode) if old is not None else None
    if private:
        mode = 0o600 if mode is None else mode & 0o600
    backup = None
    if old is not None:
        stamp = datetime.now(tz=UTC).strftime("%Y%m%dT%H%M%S.%fZ")  # to the microsecond: never overwrites one
        backup = path.with_name(f"{path.name}.{stamp}.bak")
        _write_text(backup, old, mode)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.unlink(missing_ok=True)
    _write_text(tmp, new, mode)
    os.replace(tmp, path)
    return Written(path, True, backup)


def _zed_folder() -> Path:
    """Zed's settings folder: ``~/.config/zed`` on macOS too, the XDG folder on Linux, ``%APPDATA%\\Zed``
    on Windows (zed.dev/docs/configuring-zed)."""
    if sys.platform == "darwin":
        return Path.home() / ".config" / "zed"
    from platformdirs import user_config_path

    return user_config_path("Zed" if sys.platform == "win32" else "zed", appauthor=False, roaming=True)


def _toml_servers(servers: dict[str, dict[str, object]]) -> Any:
    """A ``[mcp_servers]`` super-table (only its ``[mcp_servers.NAME]`` tables are written)."""
    import tomlkit

    table = tomlkit.table(is_super_table=True)
    for name, entry in servers.items():
        table[name] = _toml_entry(entry)
    return table


def _toml_entry(entry: dict[str, object]) -> Any:
    """One server's table, ``env`` inline (as developers.openai.com/codex/mcp shows it), a blank line
    after it so a table that follows stays apart."""
    import tomlkit

    table = tomlkit.table()
    for key, value in entry.items():
        if isinstance(value, dict):
            inline = tomlkit.inline_table()
            inline.update(value)
            value = inline
        table[key] = value
    table.add(tomlkit.nl())
    return table


def _write_text(path: Path, text: str, mode: int | None) -> None:
    """Write ``text`` to ``path`` (UTF-8), of ``mode`` whatever the umask (None: as the umask gives)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666 if mode is None else mode | 0o200)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
        if mode is not None:
            os.fchmod(fh.fileno(), mode)
