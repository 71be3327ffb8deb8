"""A number typed on the command line or in a MEMVAULT_ variable is read as the tools read a JSON number:
ASCII digits, a sign allowed (trial 77 S7: `--limit ٣` listed 3 and `--importance ٩` stored 9 where the
tools refuse "٣" and "３"); any other digits are refused naming the flag or variable and its range."""

from __future__ import annotations

import json

import pytest
from test_cli import run
from test_cli_output import fill

from memvault.server import config
from memvault.storage.store import Store

pytestmark = pytest.mark.usefixtures("one_model")
OTHER_DIGITS = ["٣", "３", "३", "٠٣", "1_0", "²", "𝟑", "৩"]  # Arabic-Indic, fullwidth, Devanagari, ..., superscript


@pytest.mark.parametrize("digits", OTHER_DIGITS)
@pytest.mark.parametrize(("argv", "named"), [
    (["list", "--limit"], "--limit: must be an integer from 1 to 50; got "),
    (["recall", "x", "--limit"], "--limit: must be an integer from 1 to 50; got "),
    (["list", "--offset"], "--offset: must be an integer from 0 to 1,000,000,000; got "),
    (["remember", "The build runs on ci-7", "--importance"], "--importance: must be an integer from 1 to 10; got "),
    (["serve", "--boot-tokens"], "--boot-tokens: must be an integer from 200"),
])
def test_a_number_in_other_digits_is_refused_naming_the_flag(db_path, capsys, digits, argv, named):
    fill(db_path, 1)
    code, out, err = run(capsys, *argv, digits, "--db", str(db_path))
    assert code == 2 and out == "" and named in err and repr(digits) in err, err
    store = Store(db_path)
    try:
        assert store.count_memories(tenant="default", scopes=["default"]) == 1  # nothing stored
    finally:
        store.close()


@pytest.mark.parametrize("digits", OTHER_DIGITS)
def test_a_variable_in_other_digits_is_refused_naming_it(monkeypatch, db_path, digits):
    monkeypatch.setenv("MEMVAULT_BOOT_TOKENS", "٣٠٠" if digits == "٣" else digits + "00")
    with pytest.raises(ValueError, match="MEMVAULT_BOOT_TOKENS: must be an integer from 200"):
        config.load(db=str(db_path))


@pytest.mark.parametrize(("typed", "read"), [("3", 3), ("+3", 3), ("007", 7), ("-1", -1), ("50", 50)])
def test_ascii_digits_are_read_as_before(typed, read):
    assert config.whole_number(typed) == read


def test_ascii_digits_list_and_store_as_before(db_path, capsys):
    fill(db_path, 4)
    code, out, _ = run(capsys, "list", "--limit", "3", "--db", str(db_path))
    assert code == 0 and out.startswith("3 of 4 memories")
    code, out, _ = run(capsys, "remember", "The build runs on ci-9", "--importance", "9", "--json", "--db", str(db_path))
    assert code == 0
    store = Store(db_path)
    try:
        assert store.get(tenant="default", id=json.loads(out)["id"]).importance == 9
    finally:
        store.close()
