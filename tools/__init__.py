"""memvault.tools: the four memory tools and the boot context, independent of MCP.

The tools' arguments are declared in ``memvault.server.app``; ``schemas`` holds the pydantic result models; ``handlers`` calls
``memvault.storage`` and shapes results; ``text`` renders them compactly;
``boot`` renders the boot context; ``prompts`` holds the MCP prompts' text.
"""
