"""One wording per kind of refusal, whichever path (MCP tools, storage, import, command
line) an input takes, and counts that agree with their nouns."""

from __future__ import annotations

import json
import re

import pytest
from mcp import Client

from memvault.server import cli
from memvault.server.app import build_server
from memvault.server.config import Config
from memvault.storage import validate
from memvault.storage.embeddings import TokenCounter
from memvault.storage.errors import InvalidInput
from memvault.storage.retrieval import checked_filters
from memvault.storage.timefmt import format_ms

pytestmark = pytest.mark.usefixtures("one_model")  # the packaged model loaded once (conftest)


def client(db) -> Client:
    return Client(build_server(Config(db=db)))


async def refusal(c: Client, tool: str, args: dict) -> str:
    r = await c.call_tool(tool, args)
    assert r.is_error
    return r.content[0].text


@pytest.mark.asyncio
@pytest.mark.parametrize(("tool", "args", "says"), [
    ("remember", {"content": "x", "importance": 11}, "importance: must be an integer from 1 to 10; got 11"),
    ("remember", {"content": "x", "importance": -2}, "importance: must be an integer from 1 to 10; got -2"),
    ("supersede", {"id": "0" * 36, "content": "x", "importance": 0}, "importance: must be an integer from 1 to 10; got 0"),
    ("recall", {"query": "x", "limit": 51}, "limit: must be an integer from 1 to 50; got 51"),
    ("recall", {"query": "x", "limit": 0}, "limit: must be an integer from 1 to 50; got 0"),
])
async def test_an_integer_out_of_range_is_worded_alike_over_mcp_and_in_storage(db_path, tool, args, says):
    async with client(db_path) as c:
        assert await refusal(c, tool, args) == says
    field = says.split(":")[0]
    with pytest.raises(InvalidInput) as stored:
        (validate.importance if field == "importance" else validate.limit)(args[field])
    assert str(stored.value) == says


@pytest.mark.asyncio
@pytest.mark.parametrize(("value", "says"), [
    ("2026-02-30T00:00:00Z", "is not a date: February 2026 has 28 days"),
    ("2025-02-29", "is not a date: February 2025 has 28 days"),
    ("2026-04-31T08:00:00", "is not a date: April 2026 has 30 days"),
    ("2026-13-01T00:00:00Z", "is not a date: month 13 is not from 1 to 12"),
    ("2026-13-45", "is not a date: month 13 is not from 1 to 12"),
    ("2026-02-01T25:00:00Z", "is not a time: hour 25 is not from 0 to 23"),
    ("2026-02-01T10:61:00Z", "is not a time: minute 61 is not from 0 to 59"),
    ("2026-02-01T10:00:00+25:00", "is not a time: the offset +25:00 is not less than 24 hours"),
    ("1850-06-01", "is outside the supported range 1900-01-01 to 9999-12-29"),
    ("last thursday", "is not an ISO-8601 date-time (e.g. 2024-05-01T13:56:00Z)"),
    ("yesterday", "is not an ISO-8601 date-time (e.g. 2024-05-01T13:56:00Z)"),
])
async def test_an_impossible_date_is_quoted_and_says_which_part_does_not_exist(db_path, value, says):
    """New-user trial: "since: 2026-13-45 is not a date" showed the value bare where
    "'yesterday' is not an ISO-8601 date-time" quoted it. Every date field, on every
    tool, quotes the whole value it refuses."""
    async with client(db_path) as c:
        kept = (await c.call_tool("remember", {"content": "The build runs on Fridays"})).structured_content["id"]
        for tool, field in (("remember", "observed_at"), ("remember", "expires_at"), ("recall", "since"),
                            ("recall", "until"), ("supersede", "observed_at"), ("supersede", "expires_at")):
            args = {"query": "x"} if tool == "recall" else {"content": "x"}
            if tool == "supersede":
                args["id"] = kept
            assert await refusal(c, tool, {**args, field: value}) == f"{field}: {value!r} {says}"
        listed = await c.call_tool("recall", {"query": "", "scope": "default"})
    assert [m["id"] for m in listed.structured_content["memories"]] == [kept]  # nothing stored or replaced


@pytest.mark.parametrize(("refuse", "says"), [
    (lambda: validate.kind("memo"), "kind: 'memo' is not one of "),
    (lambda: validate.kinds(["fact", 7]), "kinds[1]: 7 is not one of "),
    (lambda: validate.content(5), "content: must be a string; got 5"),
    (lambda: validate.tags(["ok", None]), "tags[1]: must be a string; got null"),
    (lambda: validate.importance("9"), "importance: must be an integer from 1 to 10; got '9'"),
    (lambda: validate.limit(True), "limit: must be an integer from 1 to 50; got true"),
    (lambda: validate.query(["a"]), 'query: must be a string; got ["a"]'),
    (lambda: validate.timestamp("until", "x" * 64), "until: '" + "x" * 57 + "...' is not an ISO-8601"),
    (lambda: checked_filters("t", ["s"], 0, since="2026-05-01", until="2026-04-01"),
     "until: must be later than `since` ('2026-05-01') for anything to be observed in between; got '2026-04-01'"),
])
def test_storage_quotes_the_value_it_refuses_as_the_tools_do(refuse, says):
    """A string in quotes, anything else as JSON, long values cut with '...': one rule
    (errors.shown) for every field, whichever check refuses it."""
    with pytest.raises(InvalidInput) as refused:
        refuse()
    assert str(refused.value).startswith(says)


@pytest.mark.asyncio
@pytest.mark.parametrize(("tool", "args", "says"), [
    ("remember", {"content": "x", "kind": "memo"}, "kind: 'memo' is not one of "),
    ("recall", {"query": "x", "kinds": ["memo"]}, "kinds[0]: 'memo' is not one of "),
    ("remember", {"content": "x", "check_similar": "yes"}, "check_similar: must be true or false; got 'yes'"),
    ("recall", {"query": "x", "limit": "many"}, "limit: must be an integer from 1 to 50; got 'many'"),
    ("recall", {"query": "x", "limit": 7.5}, "limit: must be an integer from 1 to 50; got 7.5"),
    ("remember", {"content": 5}, "content: must be a string of 1-"),
    ("remember", {"content": "x", "tags": "urgent"}, "tags: must be a list of at most "),
    ("remember", {"content": "x", "colour": "red"}, "unknown argument 'colour'"),
])
async def test_the_tools_quote_the_value_they_refuse_alike(db_path, tool, args, says):
    async with client(db_path) as c:
        assert (await refusal(c, tool, args)).startswith(says)


def test_an_expiry_already_past_says_so_when_observed_at_is_not_given():
    now = 1_800_000_000_000
    for past in (now, now - 1, now - 86_400_000 * 400):
        with pytest.raises(InvalidInput, match=r"^expires_at: is already past \(the server's clock reads ") as err:
            validate.times(None, format_ms(past), now)
        assert "observed_at" not in str(err.value)
    with pytest.raises(InvalidInput) as err:  # both times quoted (trial 27 #7)
        validate.times(format_ms(now - 10), format_ms(now - 20), now)
    assert str(err.value) == (f"expires_at: is {format_ms(now - 20)}, which must be later than observed_at "
                              f"({format_ms(now - 10)})")
    with pytest.raises(InvalidInput, match="^expires_at: is already past"):  # after observed_at, before now
        validate.times(format_ms(now - 20), format_ms(now - 10), now)


NOT_AN_ID = ("is not a memory id: an id is 36 hex digits and hyphens, like 0190a8e4-7c5b-7d2e-9f3a-1b2c3d4e5f60 "
             "(remember and recall return them), or its first 8 or more characters")


@pytest.mark.asyncio
@pytest.mark.parametrize(("given", "says"), [
    ("0", "is too short: give at least 8 characters of the id"),
    ("abc1234", "is too short: give at least 8 characters of the id"),
    ("ABC-12", "is too short: give at least 8 characters of the id"),
    ("nope", NOT_AN_ID), ("zz", NOT_AN_ID), ("Z-9", NOT_AN_ID), ("my-build-note", NOT_AN_ID),
    ("the Friday build", NOT_AN_ID), ("0190a8e4-7c5b-7d2e-9f3a-1b2c3d4e5f6g", NOT_AN_ID),
])
async def test_forget_and_supersede_say_what_an_id_looks_like_when_given_something_else(db_path, given, says):
    """New-user trial: "nope" was answered "'nope' is too short", as if more letters would
    make it an id. Only a string of an id's characters is too short or unknown."""
    async with client(db_path) as c:
        kept = (await c.call_tool("remember", {"content": "The build runs on Fridays"})).structured_content["id"]
        forget = await refusal(c, "forget", {"id": given})
        supersede = await refusal(c, "supersede", {"id": given, "content": "The build runs on Mondays"})
        assert forget == supersede == f"id: {given!r} {says}"
        unknown = "0123abcd-" + kept[9:]
        assert (await refusal(c, "forget", {"id": unknown})) == (
            await refusal(c, "supersede", {"id": unknown, "content": "y"})) == f"id: no memory with id {unknown!r}"
        found = await c.call_tool("recall", {"query": "", "scope": "default"})
    assert [m["id"] for m in found.structured_content["memories"]] == [kept]  # nothing forgotten or replaced


@pytest.mark.asyncio
async def test_the_boot_footer_counts_agree_with_their_nouns(db_path):
    async with client(db_path) as c:
        await c.call_tool("remember", {"content": "The staging database is db-stg-03"})
        one = (await c.read_resource("memory://boot")).contents[0].text
        await c.call_tool("remember", {"content": "Deploys happen on Tuesdays", "kind": "procedure"})
        two = (await c.read_resource("memory://boot")).contents[0].text
    assert "_1 of 1 memory shown, " in one and "memories shown" not in one
    assert "_2 of 2 memories shown, " in two
    assert " 1 tokens" not in one + two and " tokens" in one


def test_people_read_counts_that_agree_with_their_nouns(db_path, capsys):
    def run(*argv: str) -> tuple[str, str]:
        code = cli.main([*argv, "--db", str(db_path)])
        out, err = capsys.readouterr()
        assert code == 0, err
        return out, err

    made = run("remember", "Prefer dark mode")[0].split()[2].rstrip(".")
    assert "confirmed" not in run("show", made)[0]
    assert run("reindex")[0].startswith("Reindexed: 1 vector made ")
    run("remember", "Prefer dark mode")
    assert "confirmed:   1 more time\n" in run("show", made)[0]
    run("remember", "Prefer dark mode")
    assert "confirmed:   2 more times\n" in run("show", made)[0]
    run("remember", "The build runs on Fridays")
    assert run("reindex")[0].startswith("Reindexed: 2 vectors made ")
    export = db_path.parent / "one.jsonl"
    export.write_text(json.dumps({"content": "Lunch is at noon"}) + "\n")
    assert "imported 1 of 1 memory line " in run("import", str(export))[1]
    export.write_text(json.dumps({"content": "Lunch is at noon"}) + "\n" + json.dumps({"content": "Tea at four"}) + "\n")
    assert "imported 1 of 2 memory lines " in run("import", str(export))[1]


@pytest.mark.asyncio
@pytest.mark.parametrize(("tool", "args", "says"), [
    ("recall", {"query": "x", "limit": 10**30}, "limit: must be an integer from 1 to 50; got 1000000000000000000000000000000"),
    ("recall", {"query": "x", "limit": 1e30}, "limit: must be an integer from 1 to 50; got 1e+30"),
    ("recall", {"query": "x", "limit": -(10**20)}, "limit: must be an integer from 1 to 50; got -100000000000000000000"),
    ("remember", {"content": "x", "importance": 10**16}, "importance: must be an integer from 1 to 10; got 10000000000000000"),
    ("remember", {"content": "x", "importance": 1.5e17}, "importance: must be an integer from 1 to 10; got 1.5e+17"),
    ("remember", {"content": "x", "importance": 10**70}, "importance: must be an integer from 1 to 10; got an integer of 71 digits"),
])
async def test_a_number_out_of_range_is_shown_in_the_notation_it_was_sent_in(db_path, tool, args, says):
    async with client(db_path) as c:
        assert await refusal(c, tool, args) == says
    field, value = says.split(":")[0], args[says.split(":")[0]]
    if isinstance(value, int):  # storage sees what the tools pass on, and says it alike
        with pytest.raises(InvalidInput) as stored:
            (validate.importance if field == "importance" else validate.limit)(value)
        assert str(stored.value) == says


@pytest.mark.asyncio
@pytest.mark.parametrize(("tool", "args", "says"), [
    ("remember", {"content": ""}, "content: is empty; it must be 1-8,000 characters"),
    ("remember", {"content": " \n\t"}, "content: is only white space; it must be 1-8,000 characters"),
    ("supersede", {"id": "0" * 36, "content": "  "}, "content: is only white space; it must be 1-8,000 characters"),
    ("remember", {"content": "x", "tags": ["ok", ""]}, "tags[1]: is empty; it must be 1-64 characters"),
    ("remember", {"content": "x", "tags": ["  "]}, "tags[0]: is only white space; it must be 1-64 characters"),
    ("remember", {"content": "x", "scope": ""}, "scope: is empty; it must be 1-128 characters"),
    ("recall", {"query": "x", "scope": " "}, "scope: is only white space; it must be 1-128 characters"),
    ("remember", {"content": "x", "idempotency_key": " "},
     "idempotency_key: is only white space; it must be 1-200 characters, or left out"),
])
async def test_an_empty_text_says_the_length_it_must_have(db_path, tool, args, says):
    async with client(db_path) as c:
        assert await refusal(c, tool, args) == says


KINDS_LIST = "fact, preference, decision, procedure, episode, failure"


@pytest.mark.asyncio
@pytest.mark.parametrize(("tool", "args", "says"), [
    ("remember", {"content": "x", "kind": "facts"}, f"kind: 'facts' is not one of {KINDS_LIST}; did you mean 'fact'?"),
    ("recall", {"query": "", "kinds": ["fact", "Episodes"]},
     f"kinds[1]: 'Episodes' is not one of {KINDS_LIST}; did you mean 'episode'?"),
    ("supersede", {"id": "0" * 36, "content": "x", "kind": "memo"}, f"kind: 'memo' is not one of {KINDS_LIST}"),
])
async def test_a_kind_not_in_the_vocabulary_names_the_close_one_everywhere(db_path, capsys, tool, args, says):
    """New-user trial: `list --kind episodes` suggested nothing. The tools, storage and the command
    line word it alike, with a suggestion only when one kind is close."""
    async with client(db_path) as c:
        assert await refusal(c, tool, args) == says
    field, value = ("kind", args["kind"]) if "kind" in args else ("kinds", args["kinds"])
    with pytest.raises(InvalidInput) as stored:
        (validate.kind if field == "kind" else validate.kinds)(value)
    assert str(stored.value) == says
    if field == "kinds":
        assert cli.main(["remember", "The build runs on Fridays", "--db", str(db_path)]) == 0
        capsys.readouterr()
        assert cli.main(["list", "--kind", "episodes", "--db", str(db_path)]) == 2
        assert capsys.readouterr().err.rstrip().endswith("did you mean 'episode'?")


@pytest.mark.asyncio
@pytest.mark.parametrize(("tool", "args", "says"), [
    ("forget", {}, "id: is required: "),
    ("supersede", {"content": "x"}, "id: is required: "),
    ("forget", {"id": ""}, "id: is empty: "),
    ("forget", {"id": "   "}, "id: is empty: "),
    ("supersede", {"id": "", "content": "x"}, "id: is empty: "),
    ("forget", {"id": 5}, "id: 5 is not a memory id: "),
    ("forget", {"id": 1.5}, "id: 1.5 is not a memory id: "),
    ("forget", {"id": "1.5"}, "id: '1.5' is not a memory id: "),
    ("forget", {"id": "nope"}, "id: 'nope' is not a memory id: "),
    ("forget", {"id": "0" * 37}, f"id: '{'0' * 37}' is not a memory id: "),  # longer than any id
    ("supersede", {"id": "0190a8e4-7c5b-7d2e-9f3a-1b2c3d4e5f60-0", "content": "x"}, "id: '0190a8e4"),
])
async def test_a_missing_empty_or_malformed_id_is_told_the_same_rule(db_path, tool, args, says):
    from memvault.storage.limits import ID_SHAPE

    async with client(db_path) as c:
        text = await refusal(c, tool, args)
    assert text.startswith(says) and ID_SHAPE in text and "1-64" not in text


@pytest.mark.asyncio
async def test_every_conflict_starts_with_its_field_and_a_colon(db_path):
    async with client(db_path) as c:
        async def stored(args: dict) -> str:
            r = await c.call_tool("remember", args)
            assert not r.is_error, r.content[0].text
            return r.structured_content["id"]

        first = await stored({"content": "The build runs on Fridays", "idempotency_key": "k1"})
        other = await stored({"content": "Lunch is at noon"})
        second = (await c.call_tool("supersede", {"id": first, "content": "The build runs on Mondays"})
                  ).structured_content["id"]
        await c.call_tool("forget", {"id": other})
        refusals = [
            (await refusal(c, "supersede", {"id": first, "content": "The build runs on Sundays"}),
             f"id: memory {first} was already superseded; its current version is {second}: "),
            (await refusal(c, "supersede", {"id": second, "content": "The build runs on Mondays"}),
             f"content: is the same as memory {second}'s and no other field changes"),
            (await refusal(c, "remember", {"content": "Something else", "idempotency_key": "k1"}),
             f"idempotency_key: 'k1' was already used for memory {first} with different content"),
            (await refusal(c, "supersede", {"id": other, "content": "Lunch is at one"}),
             f"id: memory {other} was forgotten, so it cannot be superseded"),
        ]
        third = await stored({"content": "Tea at four"})
        refusals.append((await refusal(c, "supersede", {"id": second, "content": "Tea at four"}),
                         f"content: memory {third} of this scope already holds this content"))
    for text, starts in refusals:
        assert text.startswith(starts), text


def test_the_command_line_names_an_id_as_its_usage_does_whatever_is_wrong_with_it(db_path, capsys):
    def run(*argv: str) -> tuple[int, str]:
        code = cli.main([*argv, "--db", str(db_path)])
        return code, capsys.readouterr().err

    cli.main(["remember", "The build runs on Fridays", "--db", str(db_path)])
    first = capsys.readouterr().out.split()[2].rstrip(".")
    cli.main(["supersede", first, "The build runs on Mondays", "--db", str(db_path)])
    capsys.readouterr()
    unknown = "0123abcd-" + first[9:]
    for argv, says in [
        (("show", "nope"), "ID: 'nope' is not a memory id: "),
        (("show", unknown), f"ID: no memory with id {unknown!r}"),
        (("forget", unknown), f"ID: no memory with id {unknown!r}"),
        (("supersede", unknown, "x"), f"ID: no memory with id {unknown!r}"),
        (("supersede", first, "The build runs on Sundays"), f"ID: memory {first} was already superseded"),
        (("supersede", first[:4], "x"), "ID: '" + first[:4] + "' is too short"),
    ]:
        code, err = run(*argv)
        assert code != 0 and err.startswith(f"memvault: {says}"), err
        assert "id: " not in err.split(": ", 1)[1][:4]


@pytest.mark.parametrize(("text", "says"), [
    ("the wifi password is hunter2xyz", "(password)"),
    ("notes\nthe wifi password is hunter2xyz", "(password in its line 2)"),
    ("a\nb\npassword=hunter2xyz\n", "(password in its line 3)"),
])
def test_a_credential_is_located_within_its_field_only_when_the_field_has_lines(db_path, capsys, text, says):
    source = db_path.parent / "in.jsonl"
    lines = [{"content": "fine"}, {"content": "also fine", "source": text}, {"content": text}]
    source.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert cli.main(["import", str(source), "--db", str(db_path)]) == 1
    err = capsys.readouterr().err
    assert f"line 2: source: looks like it contains a credential {says}. " in err
    assert f"line 3: content: looks like it contains a credential {says}. " in err
    assert " on line " not in err


@pytest.mark.asyncio
async def test_the_boot_footer_has_one_wording_whatever_the_store_holds(db_path, real_embedder):
    """New-user trial: "_6 of 6 memories shown, 313 tokens._" beside "_10 of 10 memories shown,
    432 tokens in all._": another wording was chosen wherever the count could not state itself."""
    import re

    async with client(db_path) as c:
        for i in range(14):
            await c.call_tool("remember", {"content": f"Service {i} listens on port {8000 + 37 * i}",
                                           "kind": ["fact", "procedure", "decision"][i % 3]})
            boot = (await c.read_resource("memory://boot")).contents[0].text
            footer = boot.rstrip("\n").rsplit("\n", 1)[-1]
            found = re.fullmatch(r"_(\d+) of (\d+) memor(?:y|ies) shown, within ([\d,]+) tokens?\._", footer)
            assert found and int(found.group(1)) == int(found.group(2)) == i + 1, footer
            assert TokenCounter()(boot) <= int(found.group(3).replace(",", ""))


@pytest.mark.asyncio
@pytest.mark.parametrize("value", [1.5, "1.5", 7, ["0190a8e4"], "the Friday build"])
async def test_a_value_that_is_no_memory_id_is_worded_alike_on_every_path(db_path, capsys, value):
    """New-user trials: "must be a memory id ...; got 1.5" (tools), "'1.5' is not a memory
    id" (command line), "1.5 is not a UUID" (import)."""
    quoted = repr(value) if isinstance(value, str) else json.dumps(value)
    says = f"{quoted} is not a memory id: an id is 36 hex digits and hyphens"
    async with client(db_path) as c:
        kept = (await c.call_tool("remember", {"content": "The build runs on Fridays"})).structured_content["id"]
        assert (await refusal(c, "forget", {"id": value})).startswith(f"id: {says}")
        assert (await refusal(c, "supersede", {"id": value, "content": "x"})).startswith(f"id: {says}")
    source = db_path.parent / "in.jsonl"
    source.write_text(json.dumps({"content": "x", "id": value}) + "\n" + json.dumps({"content": "y", "supersedes": value}))
    assert cli.main(["import", str(source), "--db", str(db_path)]) == 1
    err = capsys.readouterr().err
    assert f"line 1: id: {says}" in err and f"line 2: supersedes: {says}" in err
    if isinstance(value, str):  # the command line only has strings
        assert cli.main(["show", value, "--db", str(db_path)]) == 2
        assert capsys.readouterr().err.startswith(f"memvault: ID: {says}")
    assert cli.main(["list", "--json", "--db", str(db_path)]) == 0
    assert [m["id"] for m in json.loads(capsys.readouterr().out)["memories"]] == [kept]


@pytest.mark.asyncio
@pytest.mark.parametrize("value", [20260101, "yesterday", 2026.5, ["2026-01-01"], True])
async def test_a_value_that_is_no_date_time_is_worded_alike_whatever_its_type(db_path, capsys, value):
    """New-user trial: "must be an ISO-8601 date-time string ...; got 20260101" for a number
    beside "'yesterday' is not an ISO-8601 date-time" for a string."""
    from memvault.storage.errors import shown

    says = f"{shown(value)} is not an ISO-8601 date-time (e.g. 2024-05-01T13:56:00Z)"
    async with client(db_path) as c:
        for tool, field in (("remember", "observed_at"), ("remember", "expires_at"), ("recall", "since"),
                            ("recall", "until")):
            args = {"query": "x"} if tool == "recall" else {"content": "x"}
            assert await refusal(c, tool, {**args, field: value}) == f"{field}: {says}"
    source = db_path.parent / "in.jsonl"
    source.write_text(json.dumps({"content": "x", "observed_at": value}) + "\n")
    assert cli.main(["import", str(source), "--db", str(db_path)]) == 1
    assert f"line 1: observed_at: {says}\n" in capsys.readouterr().err
    if isinstance(value, str):
        assert cli.main(["list", "--since", value, "--db", str(db_path)]) == 2
        assert capsys.readouterr().err == f"memvault: --since: {says}\n"


@pytest.mark.parametrize(("text", "says"), [
    ("old creds: nas-admin / Zq8#Lm3Wx7Kt", "credential (password). "),  # a user's pair: its password
    ("Authorization: Basic YWxhZGRpbjpvcGVuc2VzYW1l", "credential (Basic authentication). "),
    ("the wifi password is hunter2xyz", "credential (password). "),
    ("token ghp_u8jzPde0IgxLq2mW7vR4tY9sK1nB3cF6hJ0a", "credential (GitHub token). "),
    ("the PIN is 4821", "credential (PIN). "),
    ("notes\nold creds: nas-admin / Zq8#Lm3Wx7Kt\npassword=hunter2xyz", "credential (password in its line 2; password in its line 3). "),
])
def test_a_refusal_names_the_kind_found_once_without_repeating_its_word(store, text, says):
    with pytest.raises(InvalidInput) as refused:
        store.remember(tenant="t", scope="s", content=text)
    assert says in str(refused.value)
    assert not re.search(r"credential \([^)]*credential", str(refused.value))
    with pytest.raises(InvalidInput) as refused:  # trial 58 #10: a reason said "a credential (credential)"
        store.forget(tenant="t", id=store.remember(tenant="t", scope="s", content="the NAS").id, reason=text)
    assert says in str(refused.value) and "credential (credential" not in str(refused.value)
