"""RE2's runs of the credential patterns (``secret_re2``): a large program's many matches in a long text are read
through its capture-free twin, with the groups RE2 itself gives."""

from __future__ import annotations

import pytest
import re2

from memvault.storage.secret_re2 import (LARGE_PROGRAM, MANY_MATCHES_BYTES, TWIN_AFTER, compile_linear, matches,
                                         uncaptured)
from memvault.storage.secrets import detectors

SOURCES = [
    (r"(a)(?P<name>b)", r"(?:a)(?:b)"),
    (r"(?<name>x)(?:y)(?i:z)", r"(?:x)(?:y)(?i:z)"),
    (r"\(a(b)\)", r"\(a(?:b)\)"),
    (r"[(](c)[^)(]", r"[(](?:c)[^)(]"),
    (r"[\](](d)", r"[\](](?:d)"),
    (r"[]()](e)", r"[]()](?:e)"),
    (r"[[:alpha:](](f)", r"[[:alpha:](](?:f)"),
    (r"\\(g)", r"\\(?:g)"),
    (r"(?m)^(h)$", r"(?m)^(?:h)$"),
    (r"\x{28}(i)", r"\x{28}(?:i)"),
]


@pytest.mark.parametrize(("source", "expected"), SOURCES)
def test_a_twin_has_the_same_text_without_capturing_groups(source: str, expected: str) -> None:
    assert uncaptured(source) == expected
    assert re2.compile(uncaptured(source)).groups == 0


def _large_patterns() -> list[re2._Regexp]:
    from memvault.storage import secret_named

    every = {p.pattern: p for d in detectors() for p in d.denylist}
    every.update((p.pattern, p) for p in secret_named._named_patterns())
    return [p for p in every.values() if p.groups and p.programsize >= LARGE_PROGRAM]


# The shapes whose matches the twin reads (bench/secret_scan.py's slowest), and texts of credentials among prose.
LONG_TEXTS = [
    "code_pw_proc3q\n", "code_pw_procoldq\n", "secret\n", "ppasswort\nppasswort: ppasswort\n", "lozinka\n",
    "parolais\n", "password: Xk29slQpz1\n", "my password is Xk29slQpz1, ", "pasword: Xk29slQpz1\nthe PIN is 4821\n",
    "DB_PASSWORD_Xk29slQpz1 ", "mypasswordisXk29slQpz1\n", "\u00e9password: \u00e9Xk29slQpz1\u00e9\n",
    "I moved to Lisbon in March and started a new job at the bank near the river.\n",
]


@pytest.mark.parametrize("unit", LONG_TEXTS)
def test_a_large_programs_matches_in_a_long_text_have_re2s_own_groups(unit: str) -> None:
    encoded = (unit * (4 * MANY_MATCHES_BYTES // len(unit) + 1)).encode()
    for pattern in _large_patterns():
        read = [(m.start(), m.end(), m.lastindex, m.groups(), [m.start(g) for g in range(pattern.groups + 1)])
                for m in matches(pattern, encoded)]
        own = [(m.start(), m.end(), m.lastindex, m.groups(), [m.start(g) for g in range(pattern.groups + 1)])
               for m in pattern.finditer(encoded)]
        assert read == own, pattern.pattern[:80]


def test_the_twin_takes_over_after_its_number_of_matches() -> None:
    from memvault.storage.secret_named import named_pattern

    pattern = named_pattern(0)  # the prose grammar
    encoded = b"my password is Xk29slQpz1 and we are done.\n" * (2 * TWIN_AFTER)
    read = list(matches(pattern, encoded))
    assert len(encoded) >= MANY_MATCHES_BYTES and pattern.programsize >= LARGE_PROGRAM
    assert [type(m).__name__ == "_Moved" for m in read] == [False] * TWIN_AFTER + [True] * TWIN_AFTER
    assert {m.group(m.lastindex) for m in read} == {b"Xk29slQpz1"}


def test_a_short_text_is_searched_by_the_pattern_itself() -> None:
    pattern = compile_linear(r"(a)b")
    assert [m.groups() for m in matches(pattern, b"ab ab")] == [(b"a",), (b"a",)]
