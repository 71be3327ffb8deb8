"""What memvault's modules compile when they are imported: every process pays it (a server, the CLI, each hook).

re's compiler visits each code point of a character class's range one by one (up to U+FFFF), so a module-level
pattern with a class such as ``[\\u00c0-\\uffff]`` costs every importer tens of thousands of steps; such a pattern
is compiled at its first use instead (``secret_documents._at_first_use``).
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from re import _parser  # reading a pattern's parse tree only

import pytest

import memvault.server
import memvault.storage
import memvault.tools
from memvault.storage import secret_documents

WIDE = 4096  # code points of the Basic Multilingual Plane a module-level pattern's class may span at most


def _modules() -> list[str]:
    names = []
    for package in (memvault.storage, memvault.tools, memvault.server):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not info.name.endswith(".__main__"):  # runs the command line
                names.append(info.name)
    return sorted(names)


def _widest(tree: object) -> int:
    """The most BMP code points one class range of a parsed pattern spans."""
    widest = 0
    for op, av in tree:  # type: ignore[attr-defined]
        if op is _parser.IN:
            for item_op, item in av:
                if item_op is _parser.RANGE:
                    widest = max(widest, min(item[1], 0xFFFF) - item[0] + 1)
        elif isinstance(av, (list, tuple)):
            for part in av:
                if isinstance(part, _parser.SubPattern):
                    widest = max(widest, _widest(part))
                elif isinstance(part, (list, tuple)):
                    widest = max(widest, *(_widest(p) for p in part if isinstance(p, _parser.SubPattern)), 0)
    return widest


def test_the_wide_class_measure_finds_a_wide_class_and_passes_a_narrow_one() -> None:
    assert _widest(_parser.parse(r"(?:x|[A-Za-z\u00c0-\uffff]{2})+")) == 0xFFFF - 0xC0 + 1
    assert _widest(_parser.parse(r"(?<![\w-])[a-z\u3040-\u309f]|(a(b[\ud800-\udfff]))")) == 2048
    assert _widest(_parser.parse(r"[\U00010000-\U0010ffff]\w+")) <= 0


@pytest.mark.parametrize("name", _modules())
def test_no_module_compiles_a_class_over_thousands_of_code_points_at_import(name: str) -> None:
    module = importlib.import_module(name)
    patterns = {key: value for key, value in vars(module).items() if isinstance(value, re.Pattern)}
    wide = {key: _widest(_parser.parse(p.pattern, p.flags)) for key, p in patterns.items()
            if isinstance(p.pattern, str)}
    assert {key: width for key, width in wide.items() if width > WIDE} == {}


@pytest.mark.parametrize(("compiled", "text", "found"), [
    (secret_documents._LABEL_NAME, "DB password", True),
    (secret_documents._LABEL_NAME, "Пароль базы", True),
    (secret_documents._LABEL_NAME, "1password", False),
    (secret_documents._IDENTIFIER, "DB_PASSWORD", True),
    (secret_documents._IDENTIFIER, "contraseña.db-main", True),
    (secret_documents._IDENTIFIER, "db password", False),
])
def test_a_pattern_compiled_at_first_use_matches_as_compiled_at_import(compiled, text: str, found: bool) -> None:
    assert compiled() is compiled()
    assert (compiled().fullmatch(text) is not None) is found
    assert compiled().pattern.startswith(r"[A-Za-z\u00c0-\uffff]")


def test_a_flow_list_compiled_at_first_use_reads_its_key_and_items() -> None:
    found = [(m.group(1), m.group(2)) for m in secret_documents._FLOW_LIST().finditer('passwords: ["a1", "b2"]')]
    assert found == [("passwords", '"a1", "b2"')]
