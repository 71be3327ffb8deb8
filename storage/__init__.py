"""memvault.storage: the memory store (SQLite, FTS5, sqlite-vec, ONNX embeddings).

Knows nothing of MCP. Import the pieces from their modules (``store.Store``,
``embeddings.Embedder``, ``errors``, ``limits``); this package file imports nothing
so that light modules such as ``limits`` stay cheap to import.
"""
