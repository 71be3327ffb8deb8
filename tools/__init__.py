"""memvault.tools: the four memory tools and the boot context, independent of MCP.

``schemas`` holds the pydantic result models and argument descriptions (light to
import); ``handlers`` validates, calls ``memvault.storage`` and shapes results;
``boot`` renders the boot context.
"""
