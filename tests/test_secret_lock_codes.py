"""Credentials trial 58 found stored (finding 6): a lock's code written as digits with separators ("the safe code is
7-3-9-1"), Italian "codice segreto", Romanian "parola" with a possessive after it, a YAML block scalar under
``pass:`` (every indicator), and a vendor's prefix joined to its key by a dash or a look-alike of one where its
format writes "_" ("ghp\u2011..."). Each is refused and redacted; dates, version ranges and prose are stored."""

from __future__ import annotations

import pytest

from memvault.storage.errors import InvalidInput
from memvault.storage.records import NewTurn
from memvault.storage.secrets import find_secrets, redact

V = "Zk8Qm3Lp7Wx2"
GITHUB_BODY = "16C7e42F292c6912E7710c838347Ae178B4a"
DASHES = "-\u2010\u2011\u2012\u2013\u2212\ufe63\uff0d"

REFUSED = [
    *((f"the {lock} code is {code}", code) for lock, code in [
        ("safe", "7-3-9-1"), ("door", "4821"), ("alarm", "12-34-56"), ("garage", "7 3 9 1"), ("gate", "2468"),
        ("keypad", "7.3.9.1"), ("locker", "13-57-9"), ("lockbox", "9-9-1-2")]),
    ("alarm code: 7391", "7391"), ("Safe-Code 7-3-9-1.", "7-3-9-1"),
    (f"il codice segreto è {V}", V), (f"Il codice segreto: {V}", V), (f"il codice segreto del server è {V}", V),
    *((f"parola {mine} {verb} {V}", V) for mine, verb in [("mea", "este"), ("ta", "e"), ("lui", "este"),
                                                         ("noastră", "este"), ("meu", "e")]),
    *((f"db:\n  user: shop\n  pass: {mark}\n    {V}Rt\n", f"{V}Rt") for mark in ("|", ">", "|-", ">+", "|2", ">-", "|+")),
    (f"Settings below\ndb:\n  pass: |\n    {V}Rt\nthanks", f"{V}Rt"),
    *((f"token ghp{dash}{GITHUB_BODY} for CI", GITHUB_BODY) for dash in DASHES),
    (f"gho\u2011{GITHUB_BODY}", GITHUB_BODY), (f"npm\u2011{GITHUB_BODY}", GITHUB_BODY),
]

STORED = [
    "the safe is in room 7-3", "the code review is at 7-3-9", "parola mea preferată este 'dor'",
    "il codice è su GitHub", "il codice segreto è nel cassetto", "parola mea este foarte lungă",
    "pass: |\n  Take the north trail to the hut\n  and wait there.\n", "db:\n  pass: >\n    see the vault\n",
    "the safe code changed on 2026-12-05", "the door code is 2026-12-05", "the alarm code reset is due 2026-12-05",
    "Changelog: the safe code path was fixed in 7-3-9-1", "releases 7-3-9-1 to 7-3-9-4 fix the door code screen",
    "the safe code is in the drawer", "the safe code is 2x faster", "re-enable the well-known flag",
    "ghp-style names like ghp-token are placeholders", f"the ghp{chr(0x2011)}prefix marks a token",
]


@pytest.mark.parametrize(("text", "value"), REFUSED)
def test_a_lock_code_a_word_of_another_language_a_block_scalar_and_a_dashed_prefix_are_refused(text, value):
    assert find_secrets(text) != [[]], text
    redacted, kinds = redact(text)
    assert value not in redacted and kinds


@pytest.mark.parametrize("text", STORED)
def test_dates_versions_and_prose_near_them_are_stored(text: str) -> None:
    assert find_secrets(text) == [[]] and redact(text) == (text, ())


@pytest.mark.parametrize(("text", "kind"), [("the safe code is 7-3-9-1", "PIN"), (f"il codice segreto è {V}", "password"),
                                           (f"parola mea este {V}", "password"), (f"ghp\u2011{GITHUB_BODY}", "GitHub token")])
def test_remember_refuses_naming_the_kind_and_a_turn_redacts_it(store, text: str, kind: str) -> None:
    with pytest.raises(InvalidInput, match=rf"looks like it contains a credential \({kind}\)"):
        store.remember(tenant="t", scope="s", content=text)
    store.episodes.append(tenant="t", scope="s", session_id="s-1", turns=[NewTurn(role="user", text=text)])
    kept = store.episodes.turns(tenant="t", session_id="s-1")[-1].text
    assert V not in kept and GITHUB_BODY not in kept and "7-3-9-1" not in kept
