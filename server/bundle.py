"""``memvault setup claude-desktop --bundle OUT.mcpb``: a Claude Desktop extension that runs this
machine's memvault. An MCPB bundle is a zip holding ``manifest.json`` (the MCPB manifest spec 0.3,
github.com/modelcontextprotocol/mcpb, MANIFEST.md) and the server's files; this one holds a three-line
entry point that the Python of this install runs, so the bundle works where it was built. The database,
tenant and scope are settings Claude Desktop shows at install (``user_config``).
"""

from __future__ import annotations

import json
import os
import sys
import zipfile
from pathlib import Path
from typing import Any

from memvault.storage.location import secrets_in

from . import version
from .config import Config

MANIFEST_VERSION = "0.3"
ENTRY_POINT = "server/main.py"
PLATFORMS = {"darwin": "darwin", "win32": "win32"}  # MCPB names (sys.platform's); any other is "linux"
MAIN = '''"""memvault's MCP server on stdio: the memvault installed for the Python running this file."""
import sys

from memvault.server.cli import main

sys.exit(main(["serve"]))
'''


def manifest(config: Config, tools: list[dict[str, str]]) -> dict[str, Any]:
    """The bundle's ``manifest.json``: the server is ``ENTRY_POINT`` run by this Python (absolute, not
    resolved: a venv's ``python`` link is what finds its packages), with the database path or URL,
    tenant and scope as required settings whose defaults are ``config``'s.

    Raises:
        ValueError: the database URL holds a password (a bundle is a file people pass around).
    """
    db = config.db if isinstance(config.db, str) else str(config.db.resolve())
    if secrets_in(db):
        raise ValueError("the database URL holds a password and a bundle is a file people share: give --db "
                         "without it, and the password in ~/.pgpass or PGPASSWORD")
    settings = {
        "database": ("Database", "The SQLite file, or a postgresql:// URL without its password", db),
        "tenant": ("Tenant", "Whose memories these are (memvault's MEMVAULT_TENANT)", config.tenant),
        "scope": ("Scope", "The scope new memories go to and recall searches first (MEMVAULT_SCOPE)",
                  config.scope),
    }
    return {
        "manifest_version": MANIFEST_VERSION,
        "name": "memvault",
        "display_name": "memvault",
        "version": version(),
        "description": "Persistent local memory: remember, recall, supersede, forget and a boot context.",
        "author": {"name": "memvault contributors"},
        "license": "Apache-2.0",
        "server": {
            "type": "python",
            "entry_point": ENTRY_POINT,
            "mcp_config": {
                "command": os.path.abspath(sys.executable),
                "args": ["${__dirname}/" + ENTRY_POINT],
                "env": {"MEMVAULT_DB": "${user_config.database}", "MEMVAULT_TENANT": "${user_config.tenant}",
                        "MEMVAULT_SCOPE": "${user_config.scope}"},
            },
        },
        "tools": tools,
        "prompts_generated": True,  # the spec's prompts need a fixed text; memvault's are built per call
        "compatibility": {"platforms": [PLATFORMS.get(sys.platform, "linux")],
                          "runtimes": {"python": ">=3.11"}},
        "user_config": {key: {"type": "string", "title": title, "description": text, "default": default,
                              "required": True} for key, (title, text, default) in settings.items()},
    }


def server_tools(config: Config) -> list[dict[str, str]]:
    """memvault's tools as the MCP server lists them: ``[{"name", "description"}]`` (nothing is opened)."""
    import anyio

    from .app import build_server

    tools = anyio.run(build_server(config).list_tools)
    return [{"name": tool.name, "description": tool.description or ""} for tool in tools]


def write(out: Path, config: Config) -> dict[str, Any]:
    """Write the bundle to ``out`` (replaced whole, through a temporary file) and return its manifest.

    Raises:
        ValueError: as ``manifest``.
    """
    document = manifest(config, server_tools(config))
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("manifest.json", json.dumps(document, indent=2, ensure_ascii=False) + "\n")
        bundle.writestr(ENTRY_POINT, MAIN)
    os.replace(tmp, out)
    return document
