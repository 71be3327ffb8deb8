"""Giving the memory a process freed back to the operating system.

glibc's ``malloc`` keeps freed blocks for reuse, and a long-lived block allocated among
short-lived ones pins the pages around it: the in-memory copy of the vector index
(``sqlite.vector_cache``) loads and drops cells of about 100 KB among the row buffers
each load reads, so at 1,000,000 memories a server's resident memory grew from 438 to
660 MB over 1,000 recalls with the copy itself at its 256 MB budget throughout;
``malloc_trim(0)`` (glibc 2.8 and later: free pages of every arena, not only the top of
the heap; man 3 malloc_trim) gave 200 MB back. Elsewhere (macOS, musl) nothing is done.
"""

from __future__ import annotations

import ctypes
import logging
import threading

log = logging.getLogger(__name__)

_trim = getattr(ctypes.CDLL(None), "malloc_trim", None)
_running = threading.Lock()


def release_soon() -> bool:
    """Return freed heap pages to the operating system on a thread of its own (ctypes
    releases the GIL during the call, which takes 1-20 ms), unless one is under way or
    the C library has no ``malloc_trim``. True when a release was started."""
    if _trim is None or not _running.acquire(blocking=False):
        return False
    threading.Thread(target=_release, name="memvault-heap-trim", daemon=True).start()
    return True


def _release() -> None:
    try:
        _trim(0)
    finally:
        _running.release()
