"""A refused name or value is compared with the valid ones ("did you mean ...?") only when it is short
enough to be that close (adv66 NEW-1: difflib over a 250 KB tool name, argument name or kind held the GIL,
and a read-only key's stream of them slowed every tenant's calls 10-35 times). The bound is exact: the
suggestion is difflib's whenever a suggestion is possible."""

from __future__ import annotations

import difflib
import random

import pytest
from mcp import Client

from memvault.server.app import build_server
from memvault.server.config import Config
from memvault.storage import limits, validate

pytestmark = pytest.mark.usefixtures("one_model")
CHOICES = [limits.KINDS, ("query", "scopes", "kinds", "limit", "since", "until", "tags"),
           ("remember", "recall", "supersede", "forget", "confirm")]
LONG = 250_000


def _difflib(value: str, choices) -> str | None:  # type: ignore[no-untyped-def]
    found = difflib.get_close_matches(value.lower(), choices, n=1, cutoff=limits.CLOSE_MATCH)
    return found[0] if found else None


@pytest.mark.parametrize("choices", CHOICES)
def test_the_suggestion_is_difflibs_at_every_length(choices):
    rng = random.Random(66)
    letters = "".join(sorted(set("".join(choices))))
    values = [c[:cut] + extra for c in choices for cut in range(1, len(c) + 1) for extra in ("", "s", "xx", "es")]
    values += ["".join(rng.choice(letters) for _ in range(rng.randrange(1, 3 * max(map(len, choices)))))
               for _ in range(3_000)]
    values += [c * n for c in choices for n in (2, 3)] + [c.upper() + "S" for c in choices]
    assert [validate.closest(v, choices) for v in values] == [_difflib(v, choices) for v in values]


@pytest.mark.parametrize("choices", CHOICES)
def test_a_value_too_long_to_be_close_is_never_compared(choices, monkeypatch):
    monkeypatch.setattr(difflib, "get_close_matches", lambda *a, **k: pytest.fail("compared a long value"))
    longest = max(map(len, choices))
    for size in (3 * longest + 1, 1_000, LONG):
        assert validate.closest(("kindz" * size)[:size], choices) is None


@pytest.mark.asyncio
@pytest.mark.parametrize(("tool", "args", "field"), [
    ("recall", {"query": "x", "Q" * LONG: 1}, None),  # an unknown argument's name
    ("remember", {"content": "x", "kind": "factS" * (LONG // 5)}, "kind"),
    ("recall", {"query": "x", "kinds": ["episode", "epiSODE" * (LONG // 7)]}, "kinds[1]"),
    ("fact" * (LONG // 4), {}, None),  # a tool's name
])
async def test_long_refused_names_are_answered_without_a_comparison(db_path, monkeypatch, tool, args, field):
    async with Client(build_server(Config(db=str(db_path)))) as c:
        monkeypatch.setattr(difflib, "get_close_matches", lambda *a, **k: pytest.fail("compared a long name"))
        r = await c.call_tool(tool, args)
        monkeypatch.undo()
        typo = await c.call_tool("remember", {"content": "x", "kind": "facts"})
    assert r.is_error and "did you mean" not in r.content[0].text and len(r.content[0].text) < 2_000
    if field:
        assert r.content[0].text.startswith(f"{field}:")
    assert typo.is_error and typo.content[0].text.endswith("did you mean 'fact'?")
