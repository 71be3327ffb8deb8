"""Memory ids: UUIDv7 text, written without the uuid module (docs/hooks.md#speed)."""

from __future__ import annotations

import random
import uuid

import pytest

from memvault.storage import ids

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
