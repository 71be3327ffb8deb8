"""memvault.tools: the memory tools, their result models and text, the boot context and prompts, apart from MCP."""
