"""memvault.server: the MCP surface (tools, resources), transports, configuration and CLI."""
