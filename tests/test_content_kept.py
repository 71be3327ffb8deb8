"""Content is kept as given: white space that carries meaning (indentation, the line
breaks before indented lines, spaces inside quotes, tabs) is stored and counts for duplicates;
white space that does not (rewrapped prose, trailing spaces, blank lines, CRLF) still folds. Export and
import keep every field, ``last_confirmed_at`` too."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import server_env
from fakes import Clock, FakeEmbedder
from wire import StdioServer

from memvault.storage import transfer
from memvault.storage.store import Store

pytestmark = pytest.mark.contract

# Pairs that differ only in white space that changes what they mean.
DISTINCT = [
    ("server:\n  port: 80\nhost: a", "server:\n  port: 80\n  host: a"),  # YAML: sibling vs nested key
    ("- build\n  - test\n- ship", "- build\n- test\n- ship"),  # a nested list vs a flat one
    ("for x in xs:\n    f(x)\ng()", "for x in xs:\n    f(x)\n    g()"),  # Python: after vs in the loop
    ("if ok:\n    run()\n    log()", "if ok:\n    run()\nlog()"),
    ("a:\n  b: 1", "a:\n    b: 1"),  # two spaces vs four
    ("def f():\n\treturn 1", "def f():\n    return 1"),  # a tab vs spaces
    ("all:\n\tmake build", "all:\nmake build"),  # a Makefile recipe vs a target line
    ("    x = 1\ny = 2", "x = 1\ny = 2"),  # the first line's own indentation
    # trial 77 S5: a snippet shifted as a whole is another snippet (where it stands is part of it)
    ("def f():\n    return 1", "    def f():\n        return 1"),
    ("spec:\n  replicas: 3", "  spec:\n    replicas: 3"),
    ("def f():\n\treturn 1", "\tdef f():\n\t\treturn 1"),  # tabs
    ("root:\n  child: 1\n  other: 2", "   root:\n     child: 1\n     other: 2"),  # by three
    ("  a: 1\n  b: 2", "    a: 1\n    b: 2"),  # both indented, by two and by four
    ("- one\n- two", "  - one\n  - two"),  # a list
    # adversarial pass 53 F4: white space within a line that a program reads
    ("SELECT id FROM users WHERE name = 'Ann  Lee'", "SELECT id FROM users WHERE name = 'Ann Lee'"),
    ('grep -n "TODO  fix" src/', 'grep -n "TODO fix" src/'),
    ("Search with `foo  bar` in the logs", "Search with `foo bar` in the logs"),
    ("host\tport\tuser\ndb1\t5432\tapp", "host port user\ndb1 5432 app"),  # tab-separated columns
    ("cut -d'\t' -f2", "cut -d' ' -f2"),
    ("US staff get the bonus", "us staff get the bonus"),  # an acronym's case
    ("Is the deploy done", "Is the deploy done?"),  # a question is not the statement
    ("Deploy with the API", "Deploy with the api"),
]
# Pairs that differ only in white space that means nothing: one memory.
SAME = [
    ("Deploys go out on Tuesdays", "Deploys   go out\non Tuesdays  "),  # rewrapped prose
    ("  Deploys go out on Tuesdays", "Deploys go out on Tuesdays"),  # one line: nothing to stand beside
    ("\tDeploys go out on Tuesdays", "Deploys go out on Tuesdays"),
    ("line one\nline two", "line one  \r\nline two\r\n"),  # trailing spaces, CRLF
    ("first\n\n\nsecond", "first\nsecond"),  # blank lines
    ("a:\n  b:   1", "a:\n  b: 1"),  # a run of spaces inside a line, unquoted
    ("Deploys go\u00a0out on Tuesdays", "Deploys go out on Tuesdays"),  # a no-break space looks like a space
    ("x = 1   \n  y = 2", "x = 1\n  y = 2"),  # spaces at a line's end
    ("Don't  deploy on Fridays", "Don't deploy on Fridays"),  # an apostrophe opens no quote
    # trial 53 #11: restatements that differ in form only crowded recall with copies
    ("Deploys go out on Tuesdays", "Deploys go out on Tuesdays."),  # a final full stop
    ("Deploys go out on Tuesdays", "Deploys go out on Tuesdays!"),
    ("Deploys go out on Tuesdays", "Deploys go out on Tuesdays…"),
    ("The API uses gRPC", "the API uses gRPC"),  # a capitalised first word
    ("Run npm ci before the tests", "Run `npm ci` before the tests"),  # inline code's backquotes
]


def remember(store: Store, content: str):
    return store.remember(tenant="t", scope="s", content=content)


@pytest.mark.parametrize(("first", "second"), DISTINCT)
def test_content_that_differs_in_meaningful_white_space_is_two_memories(store, first, second):
    one, two = remember(store, first), remember(store, second)
    assert two.created and two.duplicate_of is None and two.id != one.id
    assert store.get(tenant="t", id=one.id).confirmations == 0  # no false confirmation
    assert store.get(tenant="t", id=two.id).content == second.rstrip()


@pytest.mark.parametrize(("first", "second"), SAME)
def test_content_that_differs_in_meaningless_white_space_is_one_memory(store, first, second):
    one, two = remember(store, first), remember(store, second)
    assert two.duplicate_of == one.id and not two.created
    assert store.get(tenant="t", id=one.id).confirmations == 1


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("    return x\n  else:", "    return x\n  else:"),
        ("\n\n  \n  key: 1\n  other: 2  \n\n", "  key: 1\n  other: 2"),  # blank lines and trailing space go
        ("\tindented with a tab", "\tindented with a tab"),
        ("\r\n    after a CRLF blank line", "    after a CRLF blank line"),
    ],
)
def test_the_first_line_keeps_its_indentation(store, given, stored):
    memory = store.get(tenant="t", id=remember(store, given).id)
    assert memory.content == stored
    replaced = store.supersede(tenant="t", id=memory.id, content=given.rstrip() + "\n  more")
    assert store.get(tenant="t", id=replaced.id).content == stored + "\n  more"


def test_export_then_import_keeps_the_last_confirmation_time(store, new_db, clock: Clock):
    first = remember(store, "Prefer dark mode")
    clock.advance(3600)
    remember(store, "Prefer  dark mode ")  # a confirmation, an hour later
    never = remember(store, "Never confirmed")
    before = store.get(tenant="t", id=first.id)
    assert before.last_confirmed_at is not None and before.last_confirmed_at > before.recorded_at
    lines = list(transfer.export_lines(store, "t"))
    target = Store(new_db(), FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        clock.advance(3600)
        assert transfer.import_lines(target, lines, tenant="t", scope="s").imported == 2
        after = target.get(tenant="t", id=first.id)
        assert (after.confirmations, after.last_confirmed_at) == (1, before.last_confirmed_at)
        assert target.get(tenant="t", id=never.id).last_confirmed_at is None
        assert list(transfer.export_lines(target, "t")) == lines
    finally:
        target.close()


@pytest.mark.parametrize(
    ("extra", "field"),
    [({"last_confirmed_at": "2025-01-01T00:00:00Z"}, "last_confirmed_at"),  # but confirmations is 0
     ({"confirmations": 2, "last_confirmed_at": "yesterday-ish"}, "last_confirmed_at")],
)
def test_an_import_line_with_a_bad_last_confirmation_fails_naming_it(store, extra, field):
    report = transfer.import_lines(store, [json.dumps({"content": "x", **extra})], tenant="t", scope="s")
    assert report.imported == 0 and [f.field for f in report.failed] == [field]


@pytest.mark.sqlite_only
def test_indentation_is_kept_over_stdio_and_through_the_cli(db_path):
    yaml_a, yaml_b = "  server:\n    port: 80\n  host: a", "  server:\n    port: 80\n    host: a"
    server = StdioServer(db_path)
    try:
        first = server.call_tool("remember", {"content": yaml_a})["structuredContent"]
        second = server.call_tool("remember", {"content": yaml_b})["structuredContent"]
        assert second["created"] and second["id"] != first["id"] and second["duplicate_of"] is None
        shown = server.request("resources/read", {"uri": f"memory://memories/{first['id']}"})
        assert json.loads(shown["result"]["contents"][0]["text"])["memory"]["content"] == yaml_a
    finally:
        server.close()
    run = [sys.executable, "-m", "memvault.server"]
    again = subprocess.run([*run, "remember", "--json", yaml_b], env=server_env(db_path), capture_output=True,
                           text=True, timeout=120, check=True)
    assert json.loads(again.stdout)["duplicate_of"] == second["id"]
    exported = subprocess.run([*run, "export"], env=server_env(db_path), capture_output=True, text=True,
                              timeout=120, check=True).stdout.splitlines()
    rows = {json.loads(line)["id"]: json.loads(line) for line in exported}
    assert rows[first["id"]]["content"] == yaml_a and rows[second["id"]]["last_confirmed_at"] is not None


def test_a_database_hashed_by_the_rule_before_is_hashed_anew_and_tells_the_quoted_spaces_apart(db, clock):
    """The migration makes every hash again (SQLite 17, PostgreSQL 17): a memory stored when
    `'Ann  Lee'` and `'Ann Lee'` hashed alike must not take the other as its duplicate after the
    upgrade, and its idempotency key still replays."""
    import raw

    from memvault.storage import validate
    from memvault.storage.postgres import schema as pg_schema
    from memvault.storage.sqlite import schema as sqlite_schema

    store = Store(db, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        first = store.remember(tenant="t", scope="s", content="WHERE name = 'Ann  Lee'", idempotency_key="k1")
    finally:
        store.close()
    before = validate.content_hash("WHERE name = 'Ann Lee'")  # what folding every run of spaces gave
    raw.execute(db, "UPDATE memories SET content_hash = ?", before)
    raw.execute(db, "UPDATE idempotency_keys SET content_hash = ?", before)
    raw.rewind(db, sqlite_schema._V17_HASHES, pg_schema._v_hashes)
    store = Store(db, FakeEmbedder(), clock=clock)  # type: ignore[arg-type]
    try:
        other = store.remember(tenant="t", scope="s", content="WHERE name = 'Ann Lee'")
        assert other.created and other.duplicate_of is None
        again = store.remember(tenant="t", scope="s", content="WHERE name = 'Ann  Lee'", idempotency_key="k1")
        assert again.id == first.id  # the key's replay: its hash made again with the memory's
    finally:
        store.close()
