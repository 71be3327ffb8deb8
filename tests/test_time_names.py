"""The foreign month and weekday names the time words read (``storage/time_names.json``) are dateparser's,
kept for its installed version so that a question is read without importing dateparser (issue 28)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from memvault.storage import installed, timeforeign

KEPT = Path(timeforeign.__file__).with_name("time_names.json")
REWRITE = ("write storage/time_names.json again: {'dateparser': the installed version, 'months': ..., 'weekdays': "
           "...} of timeforeign.names_from_dateparser(), in its order")


@pytest.fixture(autouse=True)
def _fresh():  # type: ignore[no-untyped-def]
    timeforeign._names.cache_clear()
    yield
    timeforeign._names.cache_clear()


def test_the_kept_names_are_the_installed_dateparsers_in_its_order():
    import importlib.metadata

    kept = json.loads(KEPT.read_text(encoding="utf-8"))
    months, weekdays = timeforeign.names_from_dateparser()
    assert kept["dateparser"] == importlib.metadata.version("dateparser"), REWRITE
    assert list(kept["months"].items()) == list(months.items()), REWRITE
    assert list(kept["weekdays"].items()) == list(weekdays.items()), REWRITE
    assert timeforeign._names() == (months, weekdays)


def test_another_installed_version_is_read_from_dateparser_and_said(monkeypatch, caplog):
    monkeypatch.setattr(installed, "version", lambda *names: "0.0-not-the-files")
    with caplog.at_level(logging.INFO, logger="memvault.storage.timeforeign"):
        assert timeforeign._names() == timeforeign.names_from_dateparser()
    assert "0.0-not-the-files is installed" in caplog.text


@pytest.mark.parametrize("question, english", [
    ("Was haben wir letzten Dienstag beschlossen?", "last Tuesday"),
    ("Qu'avons-nous décidé le 1er décembre ?", "1 December"),
    ("¿Qué decidimos el martes pasado?", "last Tuesday"),
    ("O que decidimos em 3 de março de 2026?", "3 March 2026"),
])
def test_a_foreign_time_is_read_with_the_kept_names(question, english):
    assert english in timeforeign.in_english(question)


def test_a_question_is_read_without_importing_dateparser_or_the_email_package():
    import subprocess
    import sys

    loaded = subprocess.run([sys.executable, "-c", "import sys; from memvault.storage import timeforeign as t; "
                             "t.in_english('was haben wir letzten Dienstag beschlossen?'); "
                             "print(sorted({'dateparser', 'email'} & set(sys.modules)))"],
                            capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "[]"
