"""Memory ids: UUIDv7 text, written without the uuid module (docs/hooks.md#speed)."""

from __future__ import annotations

import json
import random
import uuid

import pytest

from memvault.storage import ids, validate
from memvault.storage.errors import InvalidInput

RANDOM = random.Random(7)


@pytest.mark.parametrize("value", [0, 1, 2**128 - 1, 0x0123456789ABCDEF0123456789ABCDEF, 1 << 127, (1 << 64) - 1,
                                   *(RANDOM.getrandbits(128) for _ in range(50))])
def test_an_id_is_written_as_the_uuid_module_writes_the_same_value(value):
    assert ids._hyphenated(value) == str(uuid.UUID(int=value))


def test_new_ids_are_version_7_uuids_of_the_rfc_variant_and_increase():
    made = [ids.new_id() for _ in range(2_000)]
    parsed = [uuid.UUID(m) for m in made]
    assert all(str(p) == m for p, m in zip(parsed, made))
    assert {p.version for p in parsed} == {7} and {p.variant for p in parsed} == {uuid.RFC_4122}
    assert made == sorted(made) and len(set(made)) == len(made)


WHOLE = "01a246d8-2b87-72b5-9d75-0d37c95a43ce"


@pytest.mark.parametrize("written", [WHOLE, WHOLE.upper(), WHOLE.replace("-", ""), WHOLE.replace("-", "").upper(),
                                     f"  {WHOLE.replace('-', '')} ", "01a246d82b87-72b5-9d750d37c95a43ce",
                                     "01-a246d8-2b8772b59d750d37c95a43ce"])
def test_an_id_written_with_hyphens_anywhere_or_none_is_read_as_the_uuid(written):
    """32 hex digits are one UUID however hyphens part them (RFC 9562 §4; Python's uuid reads them so):
    `show 01a246d82b8772b5...` said "no memory with id" of a memory that exists (trial 60 #12)."""
    assert validate.id_text("id", written) == WHOLE == str(uuid.UUID(written.strip().replace("-", "")))


@pytest.mark.parametrize(("written", "read"), [("01a246d8", "01a246d8"), ("01a246d82b", "01a246d8-2b"),
                                               ("01A246D8-2B87-7", "01a246d8-2b87-7"), ("01a246d8-", "01a246d8")])
def test_the_start_of_an_id_is_read_with_the_hyphens_of_its_place(written, read):
    assert validate.id_text("id", written) == read


@pytest.mark.parametrize("written", ["--------", "0-1-a-2-4-6-d", "my-note-1", WHOLE.replace("-", "") + "0", "g" * 8])
def test_what_holds_too_few_hex_digits_too_many_or_another_character_is_refused(written):
    with pytest.raises(InvalidInput) as refused:
        validate.id_text("id", written)
    assert refused.value.field == "id"


def test_the_cli_shows_and_forgets_a_memory_by_its_id_written_without_hyphens(tmp_path, capsys):
    from memvault.server import cli

    db = str(tmp_path / "m.db")
    assert cli.main(["remember", "--db", db, "--json", "The kiosk runs the lobby menu."]) == 0
    made = json.loads(capsys.readouterr().out)["id"]
    assert cli.main(["show", "--db", db, made.replace("-", "").upper()]) == 0
    assert made in capsys.readouterr().out
    assert cli.main(["forget", "--db", db, made.replace("-", "")]) == 0
    capsys.readouterr()
    assert cli.main(["list", "--db", db, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["memories"] == []
