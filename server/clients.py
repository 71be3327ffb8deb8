"""The MCP clients ``memvault setup CLIENT`` writes a configuration for (``setup`` says where and how):
their names alone, which the command line's parser needs without importing ``setup``."""

from __future__ import annotations

CLIENTS = ("claude-desktop", "claude-code", "cursor", "vscode", "codex", "windsurf", "gemini-cli", "zed")
