"""One policy for the names memvault stores (issue 25, round 3, fault 7): a scope, tenant, tag
or API key name that would look like another is refused wherever it enters (the tools over
stdio and HTTP, the command line, import, keys, the OAuth tenant claim); filters naming a
name stored before the policy still read it (``validate.name``)."""

from __future__ import annotations

import json
import unicodedata

import pytest
from test_secret_scan import DEFAULT_IGNORABLE

from memvault.server import cli
from memvault.storage import keys, transfer, validate
from memvault.storage.errors import InvalidInput
from memvault.storage.store import Store
from memvault.tools import handlers

PYPI = "pypi-AgEIcHlwaS5vcmcCJDk3ZjFhN2E5LTk5YmQtNDc2Yi1iNjQ4LWE2ZjU1YzI3ZjM4NQACKlsz"


def refused_characters() -> list[str]:
    """From Unicode data: every control (Cc), format (Cf), line or paragraph separator and
    white space character but the plain space, every Default_Ignorable_Code_Point (of the
    unassigned U+E0080-E0FFF every 31st), and every 61st private-use code point."""
    points = {c for low, high in DEFAULT_IGNORABLE for c in range(low, high + 1) if c < 0xE0080 or c % 31 == 0}
    for c in range(0x110000):
        category = unicodedata.category(chr(c))
        private = category == "Co" and (c % 61 == 0 or c in (0xE000, 0xF0000))
        if category in ("Cc", "Cf", "Zs", "Zl", "Zp") or chr(c).isspace() or private:
            points.add(c)
    return [chr(c) for c in sorted(points - {0x20, 0x00})]  # NUL has its own message


def compatibility_forms() -> list[str]:
    """Every 7th character that NFKC changes and NFC does not (full-width letters, ligatures,
    circled digits, superscripts), and ``ｇ``, ``ﬁ``, ``①``; none of :func:`refused_characters`."""
    refused = set(refused_characters())
    found = [chr(c) for c in range(0x110000) if 0xD800 > c or c > 0xDFFF
             if unicodedata.normalize("NFKC", chr(c)) != chr(c) == unicodedata.normalize("NFC", chr(c))]
    return [c for c in [*found[::7], "\uff47", "\ufb01", "\u2460"] if c not in refused]


def test_the_generated_classes_hold_what_the_issue_named() -> None:
    chars = set(refused_characters())
    named = "\u00a0\u200b\u00ad\x1b\n\t\u180e\u034f\U000e0020\u3164\u115f\u2062\ufe0f\U0001d173\u2028\u3000\ue000"
    assert set(named) <= chars and len(chars) > 800
    assert len(compatibility_forms()) > 400


@pytest.mark.parametrize("where", ["start", "inside", "end"])
def test_a_name_holding_a_character_of_the_refused_classes_is_refused_and_the_character_named(where: str) -> None:
    missed = []
    for char in refused_characters():
        value = {"start": char + "team", "inside": "te" + char + "am", "end": "team" + char}[where]
        try:
            validate.scope(value, "default")
            missed.append(f"U+{ord(char):04X}")
        except InvalidInput as exc:
            if not str(exc).startswith(f"scope: holds U+{ord(char):04X}") and "U+0020" not in str(exc):
                missed.append(f"U+{ord(char):04X}: {exc}")
    assert not missed, missed[:10]


def test_a_name_in_a_compatibility_form_is_refused_with_its_one_form() -> None:
    missed = []
    for char in compatibility_forms():
        try:
            validate.tags(["x" + char + "y"])
            missed.append(f"U+{ord(char):04X}")
        except InvalidInput as exc:
            if not str(exc).startswith(f"tags[0]: holds U+{ord(char):04X}"):
                missed.append(f"U+{ord(char):04X}: {exc}")
    assert not missed, missed[:10]
    with pytest.raises(InvalidInput, match=r"^scope: holds U\+FF57 FULLWIDTH LATIN SMALL LETTER W, .* write it as 'work'"):
        validate.scope("\uff57ork", "default")
    with pytest.raises(InvalidInput, match="NFKC"):
        validate.scope("cafe\u0301", "default")


@pytest.mark.parametrize("value, said", [
    (" work", "starts with a space"), ("work ", "ends with a space"), ("my  work", "has two spaces in a row at character 3"),
])
def test_spaces_around_or_doubled_in_a_name_are_refused(value: str, said: str) -> None:
    with pytest.raises(InvalidInput, match=f"^scope: {said} \\(U\\+0020\\)"):
        validate.scope(value, "default")


@pytest.mark.parametrize("value", ["work", "my project", "équipe-café", "日本語", "проект", "ops/db", "a.b_c-d", "🚀 launch",
                                   "Ünïcödé 2", "عربي", "हिन्दी"])
def test_ordinary_names_are_stored(store, value: str) -> None:
    out = store.remember(tenant=value, scope=value, content="the standup is at nine", tags=[value])
    memory = store.get(tenant=value, id=out.id)
    assert memory.scope == value and memory.tags == (validate.fold_tag(value),)
    assert keys.create(store, value, value, name=value)[0].name == value


def test_a_name_stored_before_the_policy_is_still_read(store, monkeypatch) -> None:
    """A filter naming a scope or tag that breaks the policy finds its memories; a new write
    into it is refused."""
    legacy = "legacy\u200b"
    with monkeypatch.context() as old:  # a store written by an earlier memvault
        old.setattr(validate, "name", lambda field, value, max_chars: value)
        out = store.remember(tenant="a", scope=legacy, content="kept from before", tags=["old\u00a0tag"])
    caller = handlers.Caller(tenant="a", scope="default")
    assert [m.id for m in handlers.list_memories(store, caller, scope=legacy).memories] == [out.id]
    assert [m.id for m in handlers.recall(store, caller, query="kept", scope=legacy).memories] == [out.id]
    assert [m.id for m in store.list_memories(tenant="a", scopes=[legacy], tags=["old\u00a0tag"])] == [out.id]
    with pytest.raises(InvalidInput, match=r"^scope: holds U\+200B"):
        handlers.remember(store, caller, content="new", scope=legacy)


def test_key_names_tenants_and_scopes_go_through_the_policy_and_the_credential_check(store) -> None:
    for args, field in (((PYPI, None, None), "tenant"), (("acme", PYPI, None), "scope"), (("acme", None, PYPI), "name"),
                        (("acme ", None, None), "tenant"), (("acme", "ops\u2062", None), "scope"),
                        (("acme", None, "ci\x1b[31m"), "name")):
        with pytest.raises(InvalidInput) as refused:
            keys.create(store, *args)
        assert refused.value.field == field and PYPI[-12:] not in str(refused.value)
    assert keys.list_keys(store) == [] and keys.create(store, "acme", name="ci bot")[0].name == "ci bot"


def test_an_import_line_with_a_look_alike_scope_or_tag_is_refused(store) -> None:
    lines = [json.dumps({"content": "one", "scope": "work\u00a0"}), json.dumps({"content": "two", "tags": ["a\u3164"]}),
             json.dumps({"content": "three", "scope": "work"})]
    report = transfer.import_lines(store, lines, tenant="a", scope="default")
    assert report.imported == 1 and [e.line for e in report.failed] == [1, 2]
    assert "U+00A0" in str(report.failed[0]) and "U+3164" in str(report.failed[1])


def test_the_command_line_refuses_look_alike_names(db_path, capsys) -> None:
    db = ["--db", str(db_path)]
    for argv, said in ((["remember", "x", "--scope", "work\x1b"], "scope: holds U+001B"),
                       (["remember", "x", "--tenant", "acme\u00a0"], "--tenant: holds U+00A0"),
                       (["keys", "create", "--tenant", "acme\u200b"], "--tenant: holds U+200B"),
                       (["keys", "create", "--tenant", "acme", "--name", PYPI], "name: is a value that looks like a PyPI")):
        assert cli.main([*argv, *db]) != 0
        out, err = capsys.readouterr()
        assert said in err, err
    store = Store(db_path)
    try:  # nothing was written
        assert keys.list_keys(store) == [] and store.scope_counts(tenant="default") == {}
    finally:
        store.close()


@pytest.mark.slow
def test_look_alike_names_are_refused_over_stdio_and_http(tmp_path, wire_servers) -> None:
    """Over stdio on the worker's shared server (conftest ``wire_servers``: refusals and a write of its own words),
    over HTTP on a server of its own (a key of its own store)."""
    from httpwire import HttpServer, new_key

    stdio, _ = wire_servers
    for arguments, said in (({"content": "look-alike x", "scope": "work\u200b"}, "scope: holds U+200B"),
                            ({"content": "look-alike x", "tags": ["ops\u180e"]}, "tags[0]: holds U+180E"),
                            ({"content": "look-alike x", "scope": "ｗork"}, "scope: holds U+FF57")):
        result = stdio.call_tool("remember", arguments)
        assert result["isError"] and result["content"][0]["text"].startswith(said), result
    assert not stdio.call_tool("remember", {"content": "look-alike x", "scope": "work"})["isError"]
    db = tmp_path / "m.db"
    key = new_key(db, "acme")
    server = HttpServer(db, logs=tmp_path)
    try:
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "remember", "arguments": {"content": "y", "scope": "team\u00ad"}}}
        result = server.post(key, body).json()["result"]
        assert result["isError"] and result["content"][0]["text"].startswith("scope: holds U+00AD SOFT HYPHEN")
    finally:
        server.close()


@pytest.mark.parametrize("value", ["acm\u0435", "def\u0430ult", "\u0440aypal", "p\u03bfrtal", "\u2800", "de\u2800fault",
                                   "\U0001d159ops", "\u0301abc", "x \u0308y"])
def test_a_name_mixing_look_alike_scripts_or_blank_or_its_marks_alone_is_refused(store, value: str) -> None:
    """Round 4 (an adversarial pass): a Cyrillic or Greek letter among Latin ones, a blank symbol,
    a combining mark with no letter before it; the owner's own names still work."""
    for call in (lambda: validate.scope(value, "default"), lambda: validate.tags([value]),
                 lambda: store.remember(tenant="t", scope=value, content="x")):
        with pytest.raises(InvalidInput):
            call()
    for fine in ("acme", "проект", "café", "東京 team", "プロジェクトA", "हिन्दी", "projet-été"):
        assert validate.scope(fine, "default") == fine


# Round 5 (an adversarial pass): a name written wholly in another script whose every letter looks
# Latin ("асме" is all Cyrillic) passed, while a mixed one was refused. Unicode TR39's
# whole-script confusables, from its confusables data, in six scripts and with a digit, where
# the Latin reading is one a person types (ASCII). A new-user trial found city names refused when
# any reading counted ("Москва" reads "Mocĸʙa" in TR39's data): those are stored (next test).
WHOLE_SCRIPT = {"\u0410\u0421\u041c\u0415": "ACME", "\u0440\u0430\u0443": "pay", "\u0405\u0441\u043e\u0440\u0435": "Scope",
                "\u0445\u043e\u0440-2": "xop-2", "\u0391\u0392\u0395": "ABE", "\u03a4\u039f\u03a1": "TOP",
                "\u13a0\u13a1\u13f4": "DRB", "\u0585\u0585": "oo", "\ua4ee\ua4d0": "AB"}


@pytest.mark.parametrize("value", sorted(WHOLE_SCRIPT))
def test_a_name_written_wholly_in_letters_that_look_latin_is_refused_where_names_enter(store, value: str) -> None:
    for field, call in (("scope", lambda: store.remember(tenant="t", scope=value, content="x")),
                        ("tags[0]", lambda: store.remember(tenant="t", scope="s", content="x", tags=[value])),
                        ("tenant", lambda: keys.create(store, value)),
                        ("name", lambda: keys.create(store, "acme", name=value))):
        with pytest.raises(InvalidInput) as refused:
            call()
        assert refused.value.field == field and "look like a Latin one" in str(refused.value)
        assert f"passes for {WHOLE_SCRIPT[value]!r}" in str(refused.value)
    assert store.remember(tenant="t", scope="acme", content="the owner still writes").created
    assert [m.scope for m in store.list_memories(tenant="t", scopes=["acme"])] == ["acme"]


@pytest.mark.parametrize("value", ["\u043f\u0440\u043e\u0435\u043a\u0442", "\u6771\u4eac", "\u0645\u0634\u0631\u0648\u0639",
                                   "\u0434\u0430\u043d\u043d\u044b\u0435", "\u03c4\u03bf\u03c0\u03bf\u03c2", "\u05e2\u05d1\u05e8\u05d9\u05ea",
                                   "\u0570\u0561\u0575\u0565\u0580\u0565\u0576", "\u043f\u0440\u043e\u0435\u043a\u0442-2",
                                   "2024", "\U0001f680", "\u041c\u043e\u0441\u043a\u0432\u0430",
                                   "\u0421\u043e\u0444\u0438\u044f", "\u0430\u0441\u043c\u0435", "\u30d7\u30ed\u30b8\u30a7\u30af\u30c8", "\ud55c\uad6d\uc5b4"])
def test_a_name_in_another_script_with_a_letter_that_has_no_latin_look_alike_is_stored(store, value: str) -> None:
    assert validate.scope(value, "default") == value and validate.tags([value]) == [validate.fold_tag(value)]
    assert store.remember(tenant=value, scope=value, content="the standup is at nine").created
    assert keys.create(store, value, name=value)[0].name == value


# Round 6 (an adversarial pass): the mixed-script rule listed sixteen scripts, so Latin mixed with
# Lisu, Old Italic, Canadian Aboriginal, Tifinagh, Osage, Deseret, N'Ko or Vai passed. Every script counts now.
@pytest.mark.parametrize("value", ["\ua4eecme", "\U00010300cme", "\u15c5cme", "w\u2d54rk", "w\U000104ebrk",
                                   "\U00010413ork", "w\u07cbrk", "acme\ua577"])
def test_a_name_mixing_latin_with_any_other_script_is_refused(store, value: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        store.remember(tenant="t", scope=value, content="x")
    assert refused.value.field == "scope" and "mixes" in str(refused.value)
    assert store.remember(tenant="t", scope="acme", content="the owner still writes").created
    assert [m.scope for m in store.list_memories(tenant="t", scopes=["acme"])] == ["acme"]
