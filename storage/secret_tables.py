"""The packaged tables the credential detectors read: ``secret_formats.tsv`` (key formats, a row a
format and its source), ``secret_words.tsv`` (the words naming a credential, by language),
``secret_lookalikes.tsv`` (letters of other scripts that read as ASCII ones), and the covers of the
detectors' patterns (``regex_cover``) kept in ``*_covers.json``.
"""

from __future__ import annotations

import functools
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .regex_cover import cover, indexed

log = logging.getLogger(__name__)


def packaged(name: str) -> str:
    """The text of the data file ``name`` installed beside this module (as ``embeddings`` finds the
    tokenizer: no ``importlib.resources`` import in every hook, docs/hooks.md#speed)."""
    return Path(__file__).with_name(name).read_text(encoding="utf-8")


@dataclass(frozen=True)
class KeyFormat:
    """One row of ``secret_formats.tsv`` (its header comment says what each column holds)."""

    name: str
    source: str
    context: str
    holds: str
    regex: str


@functools.cache
def tsv_rows(name: str) -> tuple[tuple[str, ...], ...]:
    """The rows of the tab-separated table ``name`` packaged beside this module, without its
    comments and its header line; read once (the word grammar asks for it some 150 times)."""
    text = packaged(name)
    rows = (tuple(line.split("\t")) for line in text.splitlines() if line and not line.startswith("#"))
    return tuple(rows)[1:]


@functools.cache
def key_formats() -> tuple[KeyFormat, ...]:
    """The rows of ``secret_formats.tsv``, in order."""
    return tuple(KeyFormat(*row) for row in tsv_rows("secret_formats.tsv"))


AFTER = r"(?:^|[^\pL])"  # where a word of the table starts: after a non-letter


@functools.cache
def words(role: str, language: str | None = None) -> str:
    """The words of ``role`` in ``secret_words.tsv`` (the word for password, the verbs and
    prepositions around it), of ``language`` or of every language, as one regex alternation."""
    return "|".join(f"(?:{alternatives})" for lang, alternatives in _words_of(role)
                    if language in (None, lang))


def languages_of(role: str) -> list[str]:
    """The languages with a row of ``role`` (:func:`words`), in the table's order, each once."""
    return list(dict.fromkeys(lang for lang, _ in _words_of(role)))


@functools.cache
def _words_of(role: str) -> tuple[tuple[str, str], ...]:
    """``(language, alternatives)`` of each row of ``role`` in ``secret_words.tsv`` (``password-typo``: in the table
    ``secret_typos`` generates from it), in order: the grammar
    asks :func:`words` some 150 times, by role and language (docs/hooks.md#speed)."""
    rows = tsv_rows("secret_typos.tsv") if role == "password-typo" else tsv_rows("secret_words.tsv")
    return tuple((lang, alternatives) for lang, row_role, alternatives, *_ in rows if row_role == role)


@functools.cache
def lookalikes() -> dict[int, str]:
    """``secret_lookalikes.tsv`` as a ``str.translate`` table: each letter of another script that reads
    as one ASCII letter, to that letter."""
    return {ord(letter): ascii_letter for letter, ascii_letter, *_ in tsv_rows("secret_lookalikes.tsv")}


def covers(sources: list[str]) -> dict[str, Any]:
    """What a packaged covers file holds (:func:`packaged_covers`): a check of the regexes ``sources`` and
    the index of their covers (``regex_cover.indexed``). Write the file again when the patterns or the
    tables change (``tests/test_secret_named_prefilter.py`` says how), so no hook computes them."""
    return {"sources": _sources_digest(sources), **indexed([cover(source) for source in sources])}


def packaged_covers(name: str, sources: list[str]) -> dict[str, Any]:
    """:func:`covers` of ``sources``, from the packaged file ``name`` when it was written for them, else computed
    (never a stale copy) with a warning naming the file: each process then computes them, seconds at its first
    check (the callers keep the answer, so the warning comes once a process)."""
    digest = _sources_digest(sources)
    try:
        kept: dict[str, Any] = json.loads(packaged(name))
    except FileNotFoundError:
        kept = {"sources": None}
    if kept["sources"] == digest:
        return kept
    log.warning("%s %s: its covers are computed at each start instead (write it again: "
                "tests/test_secret_named_prefilter.py says how)", name,
                "is missing" if kept["sources"] is None else f"was written for other patterns ({kept['sources']}, "
                                                             f"the patterns now {digest})")
    return covers(sources)


def _sources_digest(sources: list[str]) -> str:
    """A check of the sources (CRC-32 and length: no ``hashlib`` import in every hook)."""
    import zlib

    joined = "\0".join(sources).encode()
    return f"{zlib.crc32(joined):08x}-{len(joined)}"
