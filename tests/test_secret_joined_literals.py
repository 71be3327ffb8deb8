"""A key written as string literals a program joins (``secrets._QUOTES``): quoted with ', " or ` (mixed too),
joined by adjacency, "+", Lua's "..", PHP's ".", SQL's "||", VB's "&", D's "~" or ".concat(", across line breaks
and with a comment between. ``remember`` refuses it on both backends naming its kind, never a piece of it; a
captured turn loses exactly the key as written. Strings joined in ordinary code are stored as they are."""

from __future__ import annotations

import pytest

from memvault.storage.errors import InvalidInput
from memvault.storage.records import NewTurn
from memvault.storage.secrets import find_secrets, redact

OPENAI = "sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90Uv12Wx34"
GITHUB = "ghp_u8jzPde0IgxLq2mW7vR4tY9sK1nB3cF6hJ0a"
SLACK = "xoxb-4826153097-7391046285731-Qm2Xv9KpL4wR8sT1nB6cF3hJ"
# where each key is cut: after its prefix (a first piece without a digit), and into three pieces
CUTS = [(OPENAI, (3,)), (GITHUB, (4,)), (SLACK, (5,)), (OPENAI, (3, 8)), (GITHUB, (4, 20))]
KINDS = {OPENAI: "OpenAI project key", GITHUB: "GitHub token", SLACK: "Slack token"}

# what stands between a literal's closing quote and the next one's opening quote
JOINS = {
    "adjacent": " ", "adjacent without a space": "", "+": " + ", "+ without spaces": "+", "Lua's ..": " .. ",
    "PHP's .": " . ", "SQL's ||": " || ", "VB's &": " & ", "D's ~": " ~ ", ".concat(": ".concat(",
    "+ then a line break": " +\n    ", "a line break then +": "\n    + ",
    "a line break (Python in parentheses)": "\n    ",
    "a blank line": "\n\n    ", "a shell's backslash": " \\\n  ", "a // comment": " + // the rest\n    ",
    "a # comment": "  # the rest\n    ", "a -- comment": " || -- the rest\n    ", "a /* */ comment": " /* rest */ + ",
    "|| then a line break": " ||\n  ",
}
QUOTES = [('"', '"'), ("'", "'"), ("`", "`"), ('"', "`"), ("`", "'")]


def _literals(key: str, cuts: tuple[int, ...], between: str, quotes: tuple[str, str]) -> str:
    """``key`` cut at ``cuts`` into literals joined by ``between``, their quotes alternating between ``quotes``."""
    bounds = [0, *cuts, len(key)]
    pieces = [key[a:b] for a, b in zip(bounds, bounds[1:])]
    return between.join(f"{quotes[i % 2]}{piece}{quotes[i % 2]}" for i, piece in enumerate(pieces))


def _cases() -> list[tuple[str, str, str]]:
    """``(text, the key as written in it, its kind)``: every join with every pair of quotes, the keys and cuts in
    turn."""
    cases = []
    for i, between in enumerate(JOINS.values()):
        for j, quotes in enumerate(QUOTES):
            key, cuts = CUTS[(i + j) % len(CUTS)]
            literals = _literals(key, cuts, between, quotes)
            statement = "key = ({})" if "\n" in between and j % 2 else "const key = {};"
            cases.append((statement.format(literals) + "\nprint('done')", literals[1:-1], KINDS[key]))
    return cases


CASES = _cases()


@pytest.mark.parametrize(("text", "written", "kind"), CASES)
def test_a_key_in_joined_literals_is_found_and_only_it_is_redacted(text: str, written: str, kind: str) -> None:
    assert find_secrets(text) == [[(kind, 1)]]
    assert redact(text) == (text.replace(written, f"[{kind}]"), (kind,))


@pytest.mark.contract
def test_remember_refuses_each_naming_its_kind_and_a_captured_turn_loses_it(store) -> None:
    for number, (text, written, kind) in enumerate(CASES):
        named = rf"^content: looks like it contains a credential \({kind} in its line 1\)"
        with pytest.raises(InvalidInput, match=named) as refused:
            store.remember(tenant="t", scope="s", content=text)
        said = str(refused.value)
        assert not any(key[3:12] in said or key[-9:] in said for key in KINDS), said
        store.episodes.append(tenant="t", scope="s", session_id=f"joined-{number}", turns=[NewTurn("user", text)])
        [turn] = store.episodes.turns(tenant="t", session_id=f"joined-{number}")
        assert turn.text == text.replace(written, f"[{kind}]") and turn.redacted == (kind,)
    assert store.scope_counts(tenant="t") == {}


# Strings joined in ordinary code: greetings, paths, URLs, queries, CSS classes, versions, templates, Markdown.
KEPT = [
    'greeting = "Hello, " + name + "!"', "const s = `${a}-${b}`;", 'path = "path/" + "file.txt"',
    'url = "https://" + host + "/api/v1/" + "users"', 'url = "https://api.example.com" + "/v1/items?page=" + str(page)',
    'cls = "btn " + "btn-primary"', 'className={`btn ${active ? "btn-active" : ""}`}',
    'local msg = "Hello" .. " " .. "World"', "$html = '<div class=\"' . 'container' . '\">';",
    "SELECT first_name || ' ' || last_name FROM users;", "SELECT 'prefix-' || 'suffix-2024';",
    'Dim s = "Total: " & CStr(n) & " items"', 'auto s = "abc" ~ "def";',
    'label = (\n    "release-"\n    "2024-final"\n)',
    'msg = ("This is a long message that "\n       "spans multiple lines")',
    "const k = `user-` + `profile-` + `settings`;",
    "for c in 'a'..'z' do print(c) end", 'x = "v1.2." + "3-rc1"', 'key = "user:" + user_id + ":session"',
    'print("Progress: " + str(i) + "/" + str(n))', 'document.title = "Dashboard - " + "MyApp";',
    'import_path = "github.com/" + "org/" + "repo"', 'css = ".nav-" + "item" + ":hover"',
    'tw = "flex items-center " + `justify-between px-4 py-2`', 'tag = "en-US" + "-" + "x-private"',
    'log("user_" + "2048" + "_avatar.png")', 'const label = "password" + "Label";', 'name = "token" + "izer"',
    'env = "prod" .. "-eu-west-1"', "Run `npm` `install` then `npm` `test`.",
    'q = "SELECT * FROM " + table + " WHERE id = ?"', 'uuid = "550e8400-e29b-41d4-" + "a716-446655440000"',
    'md5 = "5d41402abc4b2a76" + "b9719d911017c592"', 'msg = "Hello, " // greeting\n    + "world"',
    'writeln("a" ~ "b" ~ "c");', 'p = "C:/Program" & " Files/App"', 'print("v" .. "1" .. ".2")',
    "join `foo` + `bar` to get `foobar`.", 'src = "https://cdn.example.com/" .. "assets/" .. "app-3f9a2c1b.js"',
    'id = "order-" + "2024-" + "000123"', "file = \"report_\" || '2024_12' || \".csv\"",
    "cls = 'col-md-' . '6 ' . 'col-sm-12'", "bg = `bg-` + 'blue-500' + \"hover:bg-blue-700\"",
    'k = ("cache:"  # namespace\n     "users:v2")', 'ver = "1.0." /* patch */ + "42"',
    "title = 'Chapter ' .. '12' .. ': The End'", 'img = "data:image/png;base64," + b64',
    'k8s = "app.kubernetes.io/" + "name"', 'build = "sha-" + "3f9a2c1b4d5e6f70"',
    "path = 'src/' + 'components/' + 'Button.tsx'", 'greeting = "Hello, ".concat(name).concat("!")',
    "const href = `/users/` + `${id}` + `/settings`;",
    # minified JavaScript (mark.js): '"\\"' is one literal, not two joined by a backslash
    r'''{key:"wildcards",value:function(e){return(e=e.replace(/(?:\\)*\?/g,function(e){return"\\"===e.charAt(0)?"?":""'''
    r'''})).replace(/(?:\\)*\*/g,function(e){return"\\"===e.charAt(0)?"*":""})}}''',
]


@pytest.mark.parametrize("text", KEPT)
def test_strings_joined_in_ordinary_code_are_no_credential(text: str) -> None:
    assert find_secrets(text) == [[]] and redact(text) == (text, ())


@pytest.mark.contract
def test_remember_stores_strings_joined_in_ordinary_code_and_a_turn_keeps_them(store) -> None:
    for text in KEPT:
        assert store.remember(tenant="t", scope="s", content=text).created
    store.episodes.append(tenant="t", scope="s", session_id="kept", turns=[NewTurn("user", text) for text in KEPT])
    assert [turn.text for turn in store.episodes.turns(tenant="t", session_id="kept")] == KEPT


# A literal inside a template's or an f-string's interpolation: its braces join it to the next piece, literal or the
# template's own text, whatever its quotes.
INTERPOLATED = [
    "const url = `https://api.x.com?key=${{'{a}'}}${{'{b}'}}`;", "const url = `key=${{'{a}'}}{b}`;",
    "const url = `key={a}${{'{b}'}}`;", 'const url = `${{ "{a}" }}${{ "{b}" }}`;', "const k = `${{`{a}`}}${{`{b}`}}`;",
    "const k = `${{'{a}'}}` + '{b}';", "const k = '{a}' + `${{\"{b}\"}}`;", "url = f\"key={{'{a}'}}{b}\"",
    "url = f'key={a}{{\"{b}\"}}'", "url = \"key=#{{'{a}'}}{b}\"", "val s = s\"${{\"{a}\"}}{b}\"",
]


@pytest.mark.parametrize("form", INTERPOLATED)
@pytest.mark.parametrize(("key", "cut"), [(OPENAI, 3), (OPENAI, 8), (GITHUB, 4), (SLACK, 5)])
def test_a_key_in_an_interpolated_literal_is_found_and_redacted(form: str, key: str, cut: int) -> None:
    text = form.format(a=key[:cut], b=key[cut:])
    assert find_secrets(text) == [[(KINDS[key], 1)]], text
    redacted, kinds = redact(text)
    assert kinds == (KINDS[key],) and key[cut:][-12:] not in redacted and f"[{KINDS[key]}]" in redacted
    assert redacted.startswith(text[:text.index("=") + 1]), redacted


INTERPOLATED_KEPT = [
    "const s = `${'btn'}-${'primary'}`;", "const greeting = `${'Hello'}, ${name}!`;", "url = f\"{'v'}1.2.{patch}\"",
    "r = requests.post(url, json={'api_key': key, 'model': 'gpt-4o'})", "const p = `/users/${'me'}/settings`;",
    "msg = \"Hello #{'world'}\"", "const id = `${'order-'}${'2024-'}${'000123'}`;", "d = {'a': 'b'}['a']",
]


@pytest.mark.parametrize("text", INTERPOLATED_KEPT)
def test_interpolated_literals_in_ordinary_code_are_no_credential(text: str) -> None:
    assert find_secrets(text) == [[]] and redact(text) == (text, ())
