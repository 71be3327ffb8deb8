"""The named-credential detector compiles and runs, for each text, only the patterns whose cover the text
holds (``regex_cover``: the words naming a credential and what may follow them): a pattern left out
must match nowhere in the text, so the values found are the same. The key format detector's covers are
checked in ``test_secret_prefilter.py``."""

from __future__ import annotations

import json
import sys

import pytest
import re2

from memvault.storage import secret_named
from memvault.storage.regex_cover import cover, holding, indexed
from memvault.storage.secret_named import NamedCredentialDetector, named_sources
from memvault.storage.secret_plugins import key_format_sources
from memvault.storage.secret_tables import covers, packaged, packaged_covers

from test_secret_code import NEAR_MISSES as CODE_NEAR_MISSES
from test_secret_code import SHAPES as CODE_SHAPES
from test_secret_kinds import REFUSED, STORED
from test_secret_lists import LISTS, NOT_LISTS
from test_secret_scan import MORE, PROSE
from test_secret_shapes4 import NEAR_MISSES, SHAPES

WRITE = ("python -c \"import json; from memvault.storage.secret_tables import covers; "
         "from {module} import {sources} as s; "
         "t = json.dumps(covers(s()), ensure_ascii=False, separators=(',', ':')) + '\\n'; "
         "open('storage/{name}', 'w', encoding='utf-8').write(t)\"")


@pytest.mark.parametrize(("name", "sources"), [("named_credential_covers.json", named_sources),
                                               ("key_format_covers.json", key_format_sources)])
def test_the_kept_covers_are_those_of_the_patterns(name, sources) -> None:
    kept = json.loads(packaged(name))
    write = WRITE.format(module=sources.__module__, sources=sources.__name__, name=name)
    assert kept == covers(sources()), f"the patterns or the tables changed: write the file again ({write})"


def test_each_character_re2_matches_without_regard_to_case_has_the_same_casefold() -> None:
    """What makes a cover read on casefolded text hold wherever ``(?i)`` matches: every character RE2 takes
    for another under ``(?i)`` casefolds as it does."""
    cased = sorted({c for c in map(chr, range(sys.maxunicode + 1))
                    if not 0xD800 <= ord(c) <= 0xDFFF and (c.lower() != c or c.upper() != c or c.casefold() != c)})
    related = sorted({*cased, *(m for c in cased for m in (c.lower(), c.upper(), c.casefold()) if len(m) == 1)})
    everything = "".join(related)
    different = []
    for c in cased:
        for match in re2.compile("(?i)" + re2.escape(c)).finditer(everything):
            if match.group().casefold() != c.casefold():
                different.append((c, match.group()))
    assert different == []


def _strings(regex: str) -> list[tuple[str, str]] | None:
    found = cover(regex)
    return None if found is None else sorted((s, "".join(sorted(f or ()))) for s, f in found)


@pytest.mark.parametrize(("regex", "strings"), [
    ("(?i)pass(?:word|wd)?[ \\t]*[:=]", [("pass", "\t :="), ("passwd", "\t :="), ("password", "\t :=")]),
    ("(?:api|access)[ _-]?key", sorted((f"{w}{s}key", "") for w in ("api", "access") for s in ("", " ", "_", "-"))),
    # "api" then " ", "_" or "-" is more selective than "key" alone
    ("(?:api|access)[ _-]+key", [("access", " -_"), ("api", " -_")]),
    ("p[a4@]ss", [("p4ss", ""), ("p@ss", ""), ("pass", "")]),
    ("(?P<v>Token)=", [("token=", "")]),  # a named group, casefolded
    ("(?-i:PIN)\\d{4}", [("pin", "0123456789")]),
    ("abc|[0-9]+", None),  # an alternative without a string
    ("a(?=b)", None),  # syntax RE2 has not: not read
    ("ab(cd", None),  # not closed
    ("x?", None),  # may match nothing
])
def test_a_cover_is_read_from_a_pattern(regex: str, strings: list[tuple[str, str]] | None) -> None:
    assert _strings(regex) == strings


def _flat(cases: object) -> list[str]:
    if isinstance(cases, str):
        return [cases]
    if isinstance(cases, dict):
        cases = list(cases.values())
    return [text for case in cases for text in _flat(case)] if isinstance(cases, (list, tuple)) else []


def _texts() -> list[str]:
    texts = _flat([REFUSED, STORED, LISTS, NOT_LISTS, MORE, PROSE, SHAPES, NEAR_MISSES, CODE_SHAPES,
                   CODE_NEAR_MISSES, "5 passed in 0.4s", "pytest -q tests/test_1.py", "bench", ""])
    # each also in capitals, with the Kelvin sign for k and the long s for s (RE2's (?i) matches both)
    return texts + [t.upper() for t in texts] + [t.replace("k", "\u212a").replace("s", "\u017f") for t in texts]


@pytest.mark.parametrize("number", range(len(named_sources())))
def test_a_pattern_left_out_for_a_text_matches_nowhere_in_it(number: int) -> None:
    pattern = secret_named.named_pattern(number)
    detector = NamedCredentialDetector()
    missed = [text for text in _texts() if pattern.search(text) and pattern not in detector.patterns(text)]
    assert missed == []


def _spelled() -> list[str]:
    """A text for every string of every cover the detector reads (the packaged index, which
    ``test_the_kept_covers_are_those_of_the_patterns`` holds to the patterns: computed again here it took 11 s):
    the string, then a character that may follow it, then a value; every other one in capitals and quoted.
    Each text once (a few strings spell the same text)."""
    kept = packaged_covers("named_credential_covers.json", named_sources())
    texts = []
    entries = [e.split("\ue001") for joined in kept["index"].values() for e in joined.split("\ue000")]
    for number, (string, following, _) in enumerate(entries):
        chars = kept["following"][int(following)] or " "
        after = chars[number % len(chars)]
        texts.append(f"{string}{after}Zq81kkLm9" if number % 2 else f"x {string.upper()}{after} 'Zq81kkLm9'")
    return list(dict.fromkeys(texts))


PARTS = 6  # 150,000 texts, 150 s in one test of the CI: in parts, xdist's workers share them


@pytest.mark.parametrize("part", range(PARTS))
def test_each_string_of_a_cover_keeps_its_pattern(part: int) -> None:
    detector = NamedCredentialDetector()
    missed = []
    for text in _spelled()[part::PARTS]:
        kept = detector.patterns(text)  # the prose grammar's patterns, the slowest to search, are mostly among them
        missed += [(text, p.pattern[:40]) for p in detector.denylist if p not in kept and p.search(text)]
    assert missed == []


def test_a_text_without_any_word_naming_a_credential_compiles_no_pattern() -> None:
    assert NamedCredentialDetector().patterns("pytest -q tests/test_1.py") == []
    assert len(NamedCredentialDetector().patterns("5 passed in 0.4s")) <= 1  # not the grammar: "passed"


def test_a_long_text_runs_every_pattern() -> None:
    """Past what :func:`holding` reads in Python (where a head of many strings is), every pattern runs: a cover is
    never read wrong, only not read. The strings of a head of few are found by RE2, however long the text."""
    many = frozenset({("ab0" + "x" * (i % 10) + str(i), None) for i in range(60)})  # one head, ten lengths
    index = indexed([many, cover("xyz"), cover("[a-z]+")])
    assert holding("abc" * 10, index) == {2}  # a pattern without a cover is held by every text
    assert holding("an ab0xx12 and xyz", index) == {0, 1, 2}
    assert holding("q" * 10_000_000 + "xyz", index) == {1, 2}
    assert holding("ab0" * 1_000_000, index) == {0, 1, 2}
