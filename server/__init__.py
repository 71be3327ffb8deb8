"""memvault.server: the MCP surface (tools, resources), transports, configuration and CLI."""

from __future__ import annotations


def version() -> str:
    """The installed memvault version; ``0+unknown`` (valid PEP 440) without package metadata."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("memvault")
    except PackageNotFoundError:
        return "0+unknown"
