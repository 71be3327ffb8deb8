"""How the ``memvault`` command speaks: text on stdout (one JSON document with ``--json``), notes
and errors on stderr in the command line's own names, progress bars on a terminal only."""

from __future__ import annotations

import argparse
import codecs
import json
import logging
import re
import shlex
import sys
from collections.abc import Callable, Iterable
from typing import Any


# How the command line names each field (metavars, and the field an error names: "CONTENT: must not be empty"): a
# tool's argument by its name as the tool's errors give it, in capitals as a positional argument's usage shows it.
NAMES = {"content": "CONTENT", "query": "QUERY", "id": "ID", "file": "FILE", "kinds": "--kind", "kind": "--kind",
         "tags": "--tag", "importance": "--importance", "since": "--since", "until": "--until",
         "limit": "--limit", "offset": "--offset", "cursor": "--cursor", "reason": "--reason",
         "scope": "--scope", "tenant": "--tenant", "expires": "--expires", "name": "--name",
         "session_id": "--session", "by": "--by", "observed_at": "--observed-at", "expires_at": "--expires-at",
         "source": "--source", "outcome": "--outcome", "note": "--note", "beside": "--beside", "turns": "--turns",
         "db": "--db"}


class OutputFailed(Exception):
    """Standard output cannot be written: closed (``>&-``), a full disk, an I/O error (a reader
    that stops, ``| head``, is a ``BrokenPipeError`` instead). The message says why."""


def out(text: str) -> None:
    """Write ``text`` and a line end on stdout.

    Raises:
        OutputFailed: stdout is closed or the write failed (BrokenPipeError as itself).
    """
    if sys.stdout is None:  # Python's stdout when the process started without file descriptor 1
        raise OutputFailed("standard output is closed")
    try:
        sys.stdout.write(text + "\n")
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputFailed(exc.strerror or type(exc).__name__) from exc


def flush() -> None:
    """Flush stdout (nothing when it is closed).

    Raises:
        OutputFailed: the buffered output could not be written (BrokenPipeError as itself).
    """
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputFailed(exc.strerror or type(exc).__name__) from exc


def err(text: str) -> None:
    if sys.stderr is not None:  # started without file descriptor 2: nowhere to say it
        sys.stderr.write(f"memvault: {text}\n")


class RedactedStream:
    """A text stream (``sys.stderr``) whose every write is redacted first (``secrets.redact``: each
    credential replaced by its kind, private spans dropped): a hook's messages quote its input (paths,
    session ids, tool names), and a hook never prints a credential. Other attributes are the stream's."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        from memvault.storage.secrets import redact

        self.stream.write(redact(text)[0] if text.strip() else text)
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def in_cli_words(exc: Exception) -> str:
    """``exc``'s message with its field, and each argument its reason names (in backticks), as the
    command line spells them (``kinds[0]``: ``--kind``; ``query``: ``QUERY``)."""
    from memvault.storage.errors import Conflict, InvalidInput, NotFound

    if isinstance(exc, (InvalidInput, NotFound, Conflict)):
        reason = re.sub(r"`([a-z_]+)`", lambda m: NAMES.get(m.group(1), m.group(1)), exc.reason)
        return f"{NAMES.get(exc.field.split('[')[0], exc.field)}: {reason}"
    return str(exc)


def exit_code(exc: Exception) -> int:
    """2 when ``exc`` refuses a command-line argument (as argparse), else 1."""
    from memvault.storage.errors import InvalidInput

    return 2 if isinstance(exc, InvalidInput) and exc.field.split("[")[0] in NAMES else 1


def emit(args: argparse.Namespace, result: Any, text: Callable[[], str]) -> int:
    """Print ``result`` as JSON (ASCII with escapes: the same document on any console) with --json, else
    ``text()``."""
    from pydantic import BaseModel

    if getattr(args, "json", False):
        document = result.model_dump(mode="json") if isinstance(result, BaseModel) else result
        out(json.dumps(document, indent=2))
    else:
        out(text())
    return 0


def progress_bar(**kwargs: Any) -> Any:
    """A tqdm progress bar on stderr, drawn only when stderr is a terminal (``disable=None``)."""
    from tqdm import tqdm

    return tqdm(file=sys.stderr, disable=None, **kwargs)


UTF8_SAMPLE_BYTES = 1 << 16  # read at once when a file is checked; of stdin, what is looked at before importing
_BOMS = ((codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"), (codecs.BOM_UTF16_LE, "UTF-16"),
         (codecs.BOM_UTF16_BE, "UTF-16"))


def not_utf8(chunks: Iterable[bytes], whole: bool = True) -> tuple[str, str | None] | None:
    """Why the bytes of ``chunks`` are not UTF-8 text (what they look like when that is cheap to tell:
    a byte-order mark, NUL bytes, charset-normalizer's guess when it is installed) and the encoding they
    are likely in, as iconv names it (None: not known), or None. ``whole``: the chunks are all of it (else
    a sample, whose last character may be cut)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    offset = 0
    for chunk in chunks:
        head = chunk if offset == 0 else b""
        if head.startswith(tuple(bom for bom, _ in _BOMS)):
            return _looks_like(chunk, 0)
        if b"\x00" in chunk:  # valid UTF-8, but never in JSON lines: UTF-16 or UTF-32 text
            return _looks_like(chunk, offset + chunk.find(b"\x00"))
        try:
            decoder.decode(chunk)
        except UnicodeDecodeError as exc:
            return _looks_like(chunk[max(0, exc.start - 2048):exc.start + 2048], offset + exc.start,
                               chunk[exc.start])
        offset += len(chunk)
    if whole:
        try:
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            return f"it is not UTF-8 (it ends inside a character, at byte {offset:,})", None
    return None


def _looks_like(chunk: bytes, at: int, byte: int | None = None) -> tuple[str, str | None]:
    """``not_utf8``'s words and encoding for the bytes ``chunk`` around offset ``at`` (``byte``: the one
    not UTF-8 there)."""
    for bom, name in _BOMS:
        if at == 0 and chunk.startswith(bom):
            return f"it is not UTF-8: it looks like {name} (it starts with a {name} byte-order mark)", name
    if byte is None:  # a line starts with "{": where its NUL bytes are tells the width and byte order
        head = chunk[:4]
        encoding = ("UTF-32BE" if head[:3] == b"\x00\x00\x00" else "UTF-32LE" if head[1:4] == b"\x00\x00\x00"
                    else "UTF-16BE" if head[:1] == b"\x00" else "UTF-16LE" if head[1:2] == b"\x00" else None)
        return "it is not UTF-8: it looks like UTF-16 or UTF-32 (it holds NUL bytes)", encoding
    guess = ""
    try:
        from charset_normalizer import from_bytes  # not a dependency: a guess when it is there
    except ImportError:
        pass
    else:  # said, not put in the command: on a few lines of Western text it guesses cp1257 as often
        best = from_bytes(chunk).best()
        guess = f"; it looks like {best.encoding}" if best is not None and best.encoding != "utf_8" else ""
    return f"it is not UTF-8 (byte 0x{byte:02X} at offset {at:,}{guess})", None


def convert_command(path: str, encoding: str | None) -> str:
    """A command that converts the import file ``path`` (``-``: stdin) from ``encoding`` to UTF-8 for
    ``memvault import``: iconv needs ``-f`` (without it, it reads the locale's, UTF-8, and stops at the
    same byte); an unknown encoding is given as CP1252 (Windows' Western European, the most common),
    with a word to name the file's own."""
    source = shlex.quote(path)
    named = encoding or "CP1252"
    command = (f"`... | iconv -f {named} -t UTF-8 | memvault import -`" if path == "-" else
               f"`iconv -f {named} -t UTF-8 {source} > {shlex.quote(path + '.utf8')}` and import that")
    return command if encoding else f"{command} (after -f, name the encoding the file is in if not CP1252)"


def failure_words(exc: Exception) -> str:
    """What a failed hook or file says of ``exc`` in memvault's words, never a class name: memvault's own
    message, an operating-system error's reason and file, or, for anything else, that it is a fault
    of memvault's (its message kept, the traceback logged at debug level)."""
    from memvault.storage.errors import MemvaultError

    if isinstance(exc, MemvaultError):
        return in_cli_words(exc)
    if isinstance(exc, OSError):
        return (f"{exc.strerror}{f' ({exc.filename})' if exc.filename else ''}" if exc.strerror
                else str(exc) or "the operating system refused it")
    logging.getLogger(__name__).debug("failure", exc_info=exc)
    said = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else "it gave no message"
    return f"a memvault fault ({said}); please report it with the command that ran"
