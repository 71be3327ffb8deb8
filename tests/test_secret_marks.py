"""Credentials the adversarial pass and the new-user trial of issue 25 §1.8 (round 5) still stored: a
name wrapped in Markdown, HTML, YAML or JSON marks, white space inside a name, a CJK word for password
then ":" and a line break, a generated key after the plain word "key"; a URL query's credential
redacted past its parameter, full-width ``<private>`` tags kept, the short fields of a session's turns
stored verbatim. Each kind over variations, with what must stay stored; on the scanner, on redaction
and on the store (both backends)."""

from __future__ import annotations

import json

import pytest

from memvault.storage import transfer, validate
from memvault.storage.errors import InvalidInput
from memvault.storage.records import NewTurn
from memvault.storage.secrets import find_secrets, redact, without_private

VALUES = ["Xk29slQpz1Vb", "Tr0ub4dor&3xQ", "q7W!mZ2#pL9v"]
LABELS = ["Password", "password", "PASSWORD", "Passwd", "Token", "API key", "Secret key", "pwd"]
# a label in each kind of mark, then the value ({0}: the label, {1}: the value)
MARKED = [
    "**{0}:** {1}", "**{0}**: {1}", "__{0}:__ {1}", "*{0}*: {1}", "`{0}`: {1}", "``{0}``: {1}", "~~{0}~~: {1}",
    "[{0}]: {1}", "<b>{0}:</b> {1}", "<strong>{0}</strong>: {1}", "<span class=\"k\">{0}</span>: {1}",
    "### {0}\n{1}", "# {0}\n{1}", "## **{0}**\n{1}", "| **{0}** | {1} |", "| {0} | `{1}` |", "|{0}|{1}|",
    "- **Username:** deploy\n- **{0}:** {1}", "1. __{0}__: {1}", "{0}: |\n  {1}", "{0}: >\n  {1}",
    "{0}: |-\n    {1}", "{0}: !!str {1}", "{0}: !secret {1}", "{0}: !!str |\n  {1}",
]


@pytest.mark.parametrize("value", VALUES)
@pytest.mark.parametrize("label", LABELS)
@pytest.mark.parametrize("shape", MARKED)
def test_a_name_in_marks_is_read_through_them_and_its_value_redacted(shape: str, label: str, value: str):
    text = shape.format(label, value)
    assert find_secrets(text)[0], text
    redacted, kinds = redact(text)
    assert value not in redacted and kinds and not find_secrets(redacted)[0]


@pytest.mark.parametrize("text", [
    '{"pw": "Xk29slQpz1Vb"}', '[{"user":"alice","pass":"Xk29slQpz1Vb"}]', '{"pwd":"q7W!mZ2#pL9v"}',
    '{"user": "bob", "passwd": "Tr0ub4dor&3xQ"}', '{\n  "pw": "Xk29slQpz1Vb"\n}', "{'pass': 'Xk29slQpz1Vb'}",
])
def test_a_short_json_key_for_password_is_read(text: str):
    assert find_secrets(text)[0]
    assert "Xk29slQpz1Vb" not in redact(text)[0] and "Tr0ub4dor" not in redact(text)[0]


@pytest.mark.parametrize("name", [
    "api  key", "api\tkey", "API   KEY", "the secret\tkey", "secret  key", "private  key", "Stripe  key",
    "OpenAI \t API key", "wifi\tkey", "wi-fi  password", "mot  de  passe", "mot de\tpasse", "palavra  passe",
    "parola  d'ordine", "the pass word", "pass  word", "Pass\tPhrase", "access  token", "API\nKEY", "secret\nkey",
    "pass\nword",
])
@pytest.mark.parametrize("value", VALUES)
def test_white_space_inside_a_name_is_read_as_one_space(name: str, value: str):
    for text in (f"{name}: {value}", f"{name} = {value}", f"the {name} is {value}"):
        assert find_secrets(text)[0], text
        assert value not in redact(text)[0], text


@pytest.mark.parametrize("word", ["パスワード", "密码", "密碼", "비밀번호", "暗証番号"])
@pytest.mark.parametrize("colon", [":", "：", " : ", "="])
def test_a_cjk_word_for_password_then_a_line_break_then_the_value(word: str, colon: str):
    for value in ("Xk29slQpz1Vb", "hunter2024x"):
        text = f"{word}{colon}\n{value}"
        assert find_secrets(text)[0], text
        assert value not in redact(text)[0]


GENERATED = ["vo/hBKqFYY/7Lz3kQeXp9Wm2Tn8Rj4Yc6Hd1VOq0aZbE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYQX7RTZWKEY",
             "aZ3kP9qLm2Xv8Rt5Wn1Yb6Hc4", "Q2hhbmdlTWUxMjM0NTY3ODkwYWJjZGVm+x/Yz", "k8Jd_3mQp-Z7vXr2Lw9Tb4Nc6Hs1"]


@pytest.mark.parametrize("key", GENERATED)
@pytest.mark.parametrize("shape", ['the key is "{}"', "my key is {}", "use key {} to sign", "Key: {}", "key={}",
                                   "The KEY was '{}'.", '"key": "{}"', "signing with key {} now"])
def test_a_generated_key_after_the_plain_word_key_is_refused(shape: str, key: str):
    text = shape.format(key)
    assert find_secrets(text)[0], text
    assert key not in redact(text)[0]


@pytest.mark.parametrize("text", [
    "the key is in the drawer", "the key is to ship small", "primary key is user_id", "the key is sorted by created_at",
    "the key is ThisIsMyVeryLongVariableName", "the key is Base64EncodedSigningKeyName",
    "the foreign key is OrderLineItems2024Archive", "the cache key is 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822c",
    "key: user_id_created_at_index_2024", "the key is com.example.app.MainActivity2", "press the key Ctrl+Shift+F12",
    "primary key is (tenant_id, created_at)", "key = self.cache_key_for(user2)", "the key is AAAAAAAAAAAAAAAAAAAAAAAAAb1",
    "the partition key is tenant_id_and_created_at_2024", "the key is docs/architecture/overview-2024.md",
    # marks and white space around words that name no value
    "**Password:** required", "**Password:** see the vault", "### Password\nReset it from the settings page",
    "| **Password** | stored in 1Password |", "password: |\n  ask the on-call engineer", "password: !!str changeme",
    "`password` is a required field", "api  key rotation: monthly", "the pass word: hard to spell",
    "パスワード:\n変更してください", "**Token**: see the runbook", '{"pw": null, "user": "alice"}',
    "| Name | Role |\n|---|---|\n| alice | admin2 |", "<b>Note:</b> deploy v2.3.1 on Friday",
    "- **Owner:** team-42\n- **Status:** done", "the pass  rate is 98.5%",
])
def test_words_around_marks_and_keys_that_name_no_credential_stay(text: str):
    assert find_secrets(text) == [[]]
    assert redact(text) == ("\n".join(text.splitlines()), ())


@pytest.mark.parametrize(("url", "after"), [
    ("https://x.io/cb?access_token=ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A&x=1", "&x=1"),
    ("https://x.io/cb?x=2&token=Zq81kkLm9xWq#frag", "#frag"),
    ("/cb?api_key=Xk29slQpz1Vb&state=abc&page=2", "&state=abc&page=2"),
    ("https://h/p?password=Tr0ub4dor3xQ&user=bob#top", "&user=bob#top"),
    ("see https://h/p?secret=q7WmZ2pL9vXk&lang=en done", "&lang=en done"),
])
def test_a_credential_in_a_url_query_ends_at_the_next_parameter(url: str, after: str):
    redacted, kinds = redact(url)
    assert redacted.endswith(after) and kinds, redacted
    assert not find_secrets(redacted)[0]


@pytest.mark.parametrize("text", [
    "a ＜private＞AKIAQYLPMN5HFIQR7BZX＜／private＞ b", "a ＜ｐｒｉｖａｔｅ＞secret＜/private> b",
    "a <pri\u200bvate>secret</private> b", "a ﹤private﹥secret﹤/private﹥ b", "a ＜PRIVATE note=1＞x＜／Private＞ b",
])
def test_full_width_and_split_private_tags_are_tags(text: str):
    assert without_private(text) == "a b"
    assert redact(text) == ("a b", ("private",))
    assert validate.public(text) == ("a b", True)


@pytest.mark.contract
def test_remember_drops_a_full_width_private_span_from_the_source(store):
    memory = store.remember(tenant="t", scope="s", content="the deploy plan", source="notes ＜private＞AKIAQYLPMN5HFIQR7BZX＜／private＞")
    assert store.get(tenant="t", id=memory.id).source == "notes"


@pytest.mark.contract
@pytest.mark.parametrize("text", ["**Password:** Xk29slQpz1Vb", "api  key: Xk29slQpz1Vb", "パスワード:\nXk29slQpz1Vb",
                                  'the key is "vo/hBKqFYY/7Lz3kQeXp9Wm2Tn8Rj4Yc6Hd1VOq0aZbE"'])
def test_remember_refuses_and_a_turn_redacts_the_new_shapes(store, text: str):
    with pytest.raises(InvalidInput):
        store.remember(tenant="t", scope="s", content=text)
    store.episodes.append(tenant="t", scope="s", session_id="s-1", turns=[NewTurn(role="user", text=text)])
    stored = store.episodes.turns(tenant="t", session_id="s-1")[-1].text
    assert "Xk29slQpz1Vb" not in stored and "VOq0aZbE" not in stored


TOKEN = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A"


@pytest.mark.contract
def test_an_imported_sessions_client_and_turn_fields_are_redacted(store):
    line = {"session_id": "s-imp", "scope": "proj", "client": f"claude-code {TOKEN}",
            "turns": [{"seq": 1, "role": "tool", "text": "ran it", "tool": "password: Xk29slQpz1Vb",
                       "call_id": "sk-ant-api03-" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5AaB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z"
                                  "5AaB3dE5fG7hJ9kL1mN3pQ5-AbCdEfAA",
                       "ref": "<private>r</private>AKIAQYLPMN5HFIQR7BZX"}]}
    report = transfer.import_lines(store, [json.dumps(line)], tenant="a", scope="default")
    assert not report.failed
    [session] = store.episodes.sessions(tenant="a")
    [turn] = store.episodes.turns(tenant="a", session_id="s-imp")
    stored = json.dumps([session.client, turn.tool, turn.call_id, turn.ref])
    assert TOKEN not in stored and "Xk29slQpz1Vb" not in stored and "AKIAQYLPMN5HFIQR7BZX" not in stored
    assert "sk-ant-api03" not in stored and "<private>" not in stored
    assert {"password", "private", "AWS access key"} <= set(turn.redacted)


@pytest.mark.contract
def test_turn_fields_without_credentials_are_kept_as_given(store):
    store.episodes.append(tenant="t", scope="s", session_id="s-2", client="claude-code 2.1",
                          turns=[NewTurn(role="tool", text="ok", tool="Bash", call_id="toolu_01AbC", ref="e-17")])
    [turn] = store.episodes.turns(tenant="t", session_id="s-2")
    assert (turn.tool, turn.call_id, turn.ref) == ("Bash", "toolu_01AbC", "e-17")
    assert store.episodes.sessions(tenant="t")[0].client == "claude-code 2.1"


@pytest.mark.parametrize("head", ["Password", "DB password", "<b>Pass</b>", "API key", "Passwort", "pwd"])
@pytest.mark.parametrize("cell", ["{}", "<code>{}</code>", "  {}  ", "<b>{}</b>"])
@pytest.mark.parametrize("breaks", ["", "\n"])
def test_an_html_tables_password_column_is_read_as_its_markdown_table_is(head: str, cell: str, breaks: str):
    value = "Xk29slQpz1Vb"
    text = (f"<table>{breaks}<tr><th>User</th><th>{head}</th></tr>{breaks}"
            f"<tr><td>alice</td><td>{cell.format(value)}</td></tr>{breaks}</table>")
    assert find_secrets(text)[0], text
    assert value not in redact(text)[0]


@pytest.mark.parametrize("text", [
    "<table><tr><th>User</th><th>Password</th></tr><tr><td>alice</td><td>see the vault</td></tr></table>",
    "<table><tr><th>Name</th><th>Version</th></tr><tr><td>api</td><td>v2.3.1</td></tr></table>",
    "<table><tr><th>Password</th><th>Rule</th></tr><tr><td>length</td><td>min12chars</td></tr></table>",
])
def test_an_html_table_without_a_password_in_its_password_column_stays(text: str):
    assert find_secrets(text) == [[]]
