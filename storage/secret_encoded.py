"""Credentials written encoded: a run of base64 or hex after a word naming the encoding ("the key base64 is
QUtJQ...", "db password hex 6875..."), piped to ``base64 -d`` or given to ``atob()`` or another decoding call,
or a Kubernetes Secret's data value, decoded and read again. A key of a known format decoded is that key; a
value decoded after a word for a credential ("password", "token") is read as written after it.
"""

from __future__ import annotations

import base64
import binascii
import functools
import re
from collections.abc import Callable
from typing import Any

from .secret_re2 import compile_linear

# Where a run of an encoding follows its name on the line, within 40 characters: the run whole (base64, base64url
# or hex; 16 characters or more, a key of 12 bytes or more). Also where code says the run is base64 around it: piped
# to ``base64 -d`` / ``--decode`` (coreutils) or ``-D`` (macOS), given to JavaScript's ``atob("...")`` or
# ``Buffer.from("...", "base64")``, Python's ``b64decode("...")``, .NET's ``Convert.FromBase64String("...")`` or Java's
# ``Base64.getDecoder().decode("...")``.
_RUN = r"([A-Za-z0-9+/_-]{16,}={0,2})"
_SOURCE = (r"(?i)(?:^|[^a-z])(?:base-?(?:64|32)|b64|hex(?:adecimal)?)\b[^\n]{0,40}?"
           f"(?:^|[^A-Za-z0-9+/=_-]){_RUN}(?:[^A-Za-z0-9+/=_-]|$)"
           f"|(?:^|[^A-Za-z0-9+/=_-]){_RUN}[\"']?[ \\t]*\\|[ \\t]*base64[ \\t]+(?:-[a-z]*d[a-z]*|--decode|(?-i:-D))\\b"
           f"|\\b(?:atob|b64decode|FromBase64String|getDecoder\\(\\)\\.decode)[ \\t]*\\([ \\t]*b?[\"'`]{_RUN}[\"'`]"
           f"|\\bBuffer\\.from[ \\t]*\\([ \\t]*[\"'`]{_RUN}[\"'`][ \\t]*,[ \\t]*[\"'`]base64")
# A Kubernetes Secret (kubernetes.io/docs/concepts/configuration/secret: its ``data`` values are base64, whatever
# their keys' names), in YAML or JSON; in one, each indented ``key: <base64>`` line's value is decoded.
_SECRET_KIND = (r"(?:^|[\s{,])[\"']?kind[\"']?[ \t]*:[ \t]*[\"']?Secret[\"']?[ \t]*(?:,|$)")
_DATA_VALUE = r"(?m)^[ \t]+[\"']?[\w.-]+[\"']?[ \t]*:[ \t]*[\"']?([A-Za-z0-9+/]{16,}={0,2})[\"']?[ \t]*,?[ \t]*$"
_HEX = re.compile(r"(?:[0-9a-fA-F]{2})+")
# Before a hash's name the run is a digest, not an encoded credential ("sha256 hex: 5e88...").
_HASHED = re.compile(r"(?i)hash|digest|sha-?\d|md5|checksum|fingerprint")
ENCODED_MOST_CHARS = 4096  # a run longer than this is a file's content, not a credential


@functools.cache
def _pattern() -> Any:
    return compile_linear(_SOURCE)


@functools.cache
def _secret_patterns() -> tuple[Any, Any]:
    return compile_linear("(?m)" + _SECRET_KIND), compile_linear(_DATA_VALUE)


def _runs(text: str) -> list[tuple[str, int]]:
    """Each run said to be base64 or hex in ``text`` (:data:`_SOURCE`; a Kubernetes Secret's data values,
    :data:`_DATA_VALUE`) and where it starts."""
    runs = [(match.group(match.lastindex), match.start(match.lastindex)) for match in _pattern().finditer(text)]
    kind, data = _secret_patterns()
    if kind.search(text):
        runs += [(match.group(1), match.start(1)) for match in data.finditer(text)]
    return runs


def decoded(run: str) -> str | None:
    """``run`` decoded from hex (an even number of hex digits) or base64 (standard or URL-safe, padded or not),
    when that gives printable text (UTF-8, no control character); else None."""
    try:
        if _HEX.fullmatch(run):
            raw = bytes.fromhex(run)
        else:
            raw = base64.b64decode(run.replace("-", "+").replace("_", "/") + "=" * (-len(run) % 4), validate=True)
        text = raw.decode("utf-8")
    except (ValueError, binascii.Error, UnicodeDecodeError):
        return None
    return text if text.isprintable() and text.strip() else None


def user_password(run: str) -> bool:
    """Whether ``run`` is base64 of ``user:password`` (HTTP Basic's credential, RFC 7617; a Docker ``auth``): it
    decodes to printable text, a user of no white space, a colon, and a password holding a letter and a digit or
    reading as generated (``secret_values``: "aGVsbG86d29ybGQ=", "hello:world", is none)."""
    from .secret_values import generated, is_value

    text = decoded(run) if len(run) <= ENCODED_MOST_CHARS else None
    user, colon, password = (text or "").partition(":")
    return bool(colon and user and not any(map(str.isspace, user)) and (is_value(password) or generated(password)))


def encoded_secrets(text: str, scan: Callable[[str], list[tuple[str, int, int]]],
                    named: Callable[[str], str]) -> list[tuple[str, int, int]]:
    """``(label, line, line)`` (1-based) of each credential found encoded in ``text`` (lines parted by single
    newlines): each run said to be encoded (:func:`_runs`) decoded (:func:`decoded`) and read by ``scan`` alone, and after
    the word naming a credential before it on its line (``named``: what ``secret_kinds.named_kind`` calls it)
    as ``<word>: <decoded>``. Linear: each run is decoded and read once."""
    found: list[tuple[str, int, int]] = []
    for run, start in dict.fromkeys(_runs(text)):
        value = decoded(run) if len(run) <= ENCODED_MOST_CHARS else None
        if value is None:
            continue
        line_start = text.rfind("\n", 0, start) + 1
        before = text[line_start:start]
        line = text.count("\n", 0, start) + 1
        kind = named(before)
        probe = value if kind == "credential" or _HASHED.search(before) else f"{kind}: {value}"
        found += [(label, line, line) for label, _, _ in scan(probe)]
    return found
