"""Time-sortable memory ids (UUIDv7, RFC 9562 section 5.7)."""

from __future__ import annotations

import os
import threading
import time

_lock = threading.Lock()  # ids made in one ms by several threads stay unique and increasing (RFC 9562 §6.2)
_last_ms = 0
_counter = 0


def new_id() -> str:
    """A new UUIDv7 (36 lowercase characters): ms time, a 12-bit counter keeping this
    process's ids increasing (RFC 9562 §6.2 method 1), 62 random bits."""
    global _last_ms, _counter
    with _lock:
        now_ms = time.time_ns() // 1_000_000
        if now_ms <= _last_ms:
            _counter += 1
            if _counter > 0xFFF:  # counter exhausted: borrow the next millisecond
                _last_ms += 1
                _counter = 0
            now_ms = _last_ms
        else:
            _last_ms = now_ms
            _counter = int.from_bytes(os.urandom(2), "big") & 0x3FF  # leave room to count up
        counter = _counter
    rand = int.from_bytes(os.urandom(8), "big") & ((1 << 62) - 1)
    value = (now_ms & ((1 << 48) - 1)) << 80
    value |= 0x7 << 76
    value |= counter << 64
    value |= 0b10 << 62
    value |= rand
    return _hyphenated(value)


def _hyphenated(value: int) -> str:
    """A 128-bit ``value`` in a UUID's text form (RFC 9562 section 4: 8-4-4-4-12 lowercase hex digits),
    as ``str(uuid.UUID(int=value))`` writes it; without importing uuid (and its ``platform``), which a
    hook pays for in every process (docs/hooks.md#speed)."""
    h = f"{value:032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"
