"""A packaged covers file written for other patterns, or missing, is not read: the covers are computed, and a
warning names the file (each process then computes them at its first check)."""

from __future__ import annotations

import json
import logging

import pytest

from memvault.storage import secret_tables
from memvault.storage.secret_named import named_sources
from memvault.storage.secret_plugins import key_format_sources

SOURCES = [r"(?i)pass(?:word|phrase)", r"ghp_[A-Za-z0-9]{36}", ""]


def _packaged(text: str | None):  # noqa: ANN202
    def read(name: str) -> str:
        if text is None:
            raise FileNotFoundError(name)
        return text
    return read


@pytest.mark.parametrize(("kept", "said"), [
    (None, "is missing"),
    ({"sources": "00000000-1"}, "was written for other patterns"),
    ({**secret_tables.covers(SOURCES[:2]), "index": {}}, "was written for other patterns"),  # one pattern less
    ({**secret_tables.covers([*SOURCES, "x"])}, "was written for other patterns"),  # one more
])
def test_covers_not_written_for_the_patterns_are_computed_and_said(monkeypatch: pytest.MonkeyPatch,
                                                                     caplog: pytest.LogCaptureFixture,
                                                                     kept: dict | None, said: str) -> None:
    monkeypatch.setattr(secret_tables, "packaged", _packaged(None if kept is None else json.dumps(kept)))
    with caplog.at_level(logging.WARNING, logger=secret_tables.__name__):
        got = secret_tables.packaged_covers("some_covers.json", SOURCES)
    assert got == secret_tables.covers(SOURCES)
    assert [(r.levelno, said in r.getMessage(), "some_covers.json" in r.getMessage()) for r in caplog.records] == [
        (logging.WARNING, True, True)]


def test_covers_written_for_the_patterns_are_read_without_a_word(monkeypatch: pytest.MonkeyPatch,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    kept = {**secret_tables.covers(SOURCES), "marker": "read from the file"}
    monkeypatch.setattr(secret_tables, "packaged", _packaged(json.dumps(kept)))
    with caplog.at_level(logging.WARNING, logger=secret_tables.__name__):
        assert secret_tables.packaged_covers("some_covers.json", SOURCES) == kept
    assert caplog.records == []


@pytest.mark.parametrize(("name", "sources"), [("named_credential_covers.json", named_sources),
                                               ("key_format_covers.json", key_format_sources)])
def test_the_packaged_covers_are_read_without_a_word(caplog: pytest.LogCaptureFixture, name: str, sources) -> None:
    with caplog.at_level(logging.WARNING, logger=secret_tables.__name__):
        kept = secret_tables.packaged_covers(name, sources())
    assert kept == json.loads(secret_tables.packaged(name))
    assert caplog.records == []
