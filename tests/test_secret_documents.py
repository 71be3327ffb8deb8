"""Credentials a document's structure holds (issue 25 §1.8, the closing adversarial pass): a name/value
pair (Kubernetes, ECS, Helm, CloudFormation), a list of passwords under a name, a label over its value
(a heading over a blank line, setext, a definition, a table without a delimiter row or outer pipes,
Confluence, an ``<input>`` field, HTML entities, LaTeX), CJK labels in brackets or with a note. Each
kind over variations, with what must stay stored; on the scanner, on redaction, over the tool surface
and in a captured turn (``secret_documents``)."""

from __future__ import annotations

import pytest
from mcp import Client

from memvault.server import transcripts
from memvault.server.app import build_server
from memvault.server.config import Config
from memvault.storage.errors import InvalidInput
from memvault.storage.records import NewTurn
from memvault.storage.secret_documents import REWRITTEN, parsed, structured
from memvault.storage.secrets import find_secrets, redact
from test_secret_scan import _aliases

VALUES = ["Xk29slQpz1Vb", "Tr0ub4dor&3xQ", "q7W!mZ2#pL9v"]
OTHER = "Yb82kslQ1zVx"
NAMES = ["DB_PASSWORD", "API_TOKEN", "SECRET_KEY", "DBPassword", "password", "db-pass"]
# {n}: a name, {v}: its value
PAIRS = [
    "env:\n  - name: {n}\n    value: {v}", 'env:\n- name: {n}\n  value: "{v}"',
    '"environment": [{{"name": "{n}", "value": "{v}"}}]', "- key: {n}\n  value: {v}", '{{"Name": "{n}", "Value": "{v}"}}',
    '[{{"ParameterKey": "{n}", "ParameterValue": "{v}"}}]', '[{{"value": "{v}", "name": "{n}"}}]',
    "Set it with {{name: {n}, value: {v}}} and restart.", 'then add {{"name": "{n}", "value": "{v}"}} to the task',
    '{{\n  "Parameters": [\n    {{\n      "ParameterKey": "{n}",\n      "UsePreviousValue": false,\n'
    '      "ParameterValue": "{v}"\n    }}\n  ]\n}}',
    "extraEnv:\n  - name: {n}\n    description: used by the app\n    required: true\n    type: string\n"
    "    default: none\n    value: '{v}'",
    "Deploy with:\n\n```yaml\nenv:\n  - name: {n}\n    value: {v}\n```", "- name: {n}\n  value: |\n    {v}",
    '<input name="{n}" value="{v}">', "set:\n  - name: {n}\n    val: {v}",
]
# {v}, {w}: two values
LISTS = [
    "passwords:\n  - {v}\n  - {w}", '{{"passwords": ["{v}", "{w}"]}}', "Passwords\n- {v}\n- {w}", "password:\n  - {v}",
    '{{"passwords": [\n  "{v}",\n  "{w}"\n]}}', "api_tokens:\n  - {v}", "Passwords:\n\n* {v}\n* {w}",
    "creds:\n  passwords:\n    - {v}", "Passwords\n1. {v}\n2. {w}", "passwords = ['{v}', '{w}']",
]
LABELLED = [
    "## Password\n\n{v}", "### DB password\n\n\n{v}", "Password\n--------\n{v}", "Password\n========\n\n{v}",
    "Password\n: {v}", "Password | {v}", "User | Password\nalice | {v}", "Host | User | Password\ndb1 | alice | {v}",
    "||Password||{v}||", "||User||Password||\n|alice|{v}|", '<input type="password" value="{v}">',
    "<input value='{v}' type=password>", "Password&#58; {v}", "Password&colon; {v}", "Password&#x3a; {v}",
    "&quot;password&quot;: &quot;{v}&quot;", "\\textbf{{Password}}: {v}", "\\emph{{Password}}: {v}",
]
CJK = [
    "密碼\n{v}", "密码\n{v}", "암호\n{v}", "비밀번호\n{v}", "【密码】{v}", "【密碼】：{v}", "密码（生产）：{v}",
    "密碼（正式環境）: {v}", "「パスワード」{v}", "『パスワード』：{v}", "パスワード（本番）：{v}", "[비밀번호] {v}",
    "〔암호〕 {v}", "비밀번호 (운영): {v}", "《密码》：{v}", "〈密码〉{v}",
]
# A value in a child mapping of its name, a generic pair's keys (issue 25 §1.8); {n}: a name, {v}: its value
CHILDREN = [
    '{{"{n}": {{"value": "{v}"}}}}', 'Use {{"{n}": {{"value": "{v}"}}}} in the template',
    '{{\n  "parameters": {{\n    "{n}": {{\n      "type": "securestring",\n      "value": "{v}"\n    }}\n  }}\n}}',
    "parameters:\n  {n}:\n    value: {v}", "env:\n  {n}:\n    value: {v}", '{{"{n}": {{"type": "string", "default": "{v}"}}}}',
    'variable "{n}" {{\n  type    = string\n  default = "{v}"\n}}', 'Set:\nvariable "{n}" {{\n  default = "{v}"\n}}\nthen apply.',
    "<Parameter><Name>{n}</Name><Value>{v}</Value></Parameter>", '{{"k": "{n}", "v": "{v}"}}',
    '[{{"field": "{n}", "content": "{v}"}}]', '[{{"label": "{n}", "value": "{v}"}}]', '{{"param":"{n}","val":"{v}"}}',
    "- id: {n}\n  default: {v}",
    # a flat object's generic pair inside a sentence, where the text does not parse (round 8)
    'I told Ben the mapping was {{"k": "{n}", "v": "{v}"}} but he mistyped it.',
    'He said the config was {{"field": "{n}", "content": "{v}"}}, which I doubt.',
]
# Each scalar under a parent naming credentials, a label's other shapes; {v}: a value
UNDER_PARENTS = [
    "secrets:\n  db: {v}", "Notes:\nsecrets:\n  db: {v}\n  redis: {v}\nthat is all", 'secrets = {{"db": "{v}"}}',
    'api_keys = {{"stripe": "{v}", "twilio": "{v}"}}', "api_keys:\n  stripe: {v}", "tokens:\n  github: {v}",
    "credentials:\n  prod: {v}", "[passwords]\nroot = {v}", "[credentials]\n; prod\n\nprod = {v}",
    "<passwords><item>{v}</item></passwords>", "<secrets><db>{v}</db></secrets>", "<passwords>\n  <item>{v}</item>\n</passwords>",
    "secrets.db: {v}", "passwords.root: {v}", "credentials.prod: {v}", "tokens[0]: {v}", "config.secrets.db: {v}",
    "auth.tokens[1]: {v}", "headers[0]: X-Api-Key {v}", "headers[2]: Authorization-Token {v}",
    "Password\n~~~~~~~~\n{v}", "Password\n^^^^^^^^\n{v}", "h3. Password\n{v}", "h2. API token\n{v}",
    "Password::\n\n    {v}", "API key::\n\n    {v}", "\\item[Password] {v}", "\\item[DB password] {v}",
    "Password | {v} | prod", "Password&nbsp;: {v}", "password\u2236 {v}", "Passwort\u2236 {v}",
    "| user | credentials |\n|---|---|\n| admin | {v} |", "| host | creds |\n|---|---|\n| db1 | {v} |",
    "패스워드\n{v}", "패스워드: {v}", "密钥：{v}", "密钥\n{v}",
]
KEPT = [
    "name: DB_HOST\nvalue: db.internal", '[{"name": "DB_HOST", "value": "db.internal"}, {"name": "PORT", "value": "5432"}]',
    "colours:\n  - red\n  - green\n  - blue", '{"colours": ["red", "green", "navy2"]}', "## Password policy\n\nUse 12 characters",
    "## Password\n\nAsk the on-call engineer.", "| Rule | Password |\n|---|---|\n| length | at least 12 characters |",
    "Rule | Password\nlength | 12 characters or more\nreuse | never", '<input type="password">',
    '<input type="password" name="pw" placeholder="Password">', "Passwords\n- must be 12 characters\n- rotate every 90 days",
    "The password is kept in the vault; rotate it quarterly.",
    "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db\n        key: password",
    "- name: DB_PASSWORD\n  value: ${DB_PASSWORD}", "密码策略\n至少12个字符", "Password&#58; &lt;your password&gt;",
    "\\textbf{Password}: see the vault", "Passwords\n\nWe rotate them every quarter.", "【注意】请勿分享",
    "x: &anchor red\ncolour: *anchor", "Steps\n- build\n- test\n- deploy",
    # placeholders, names of secrets without values, configuration without secrets
    "secrets:\n  db: ${{ secrets.DB }}", "secrets:\n  - DB_PASSWORD\n  - API_KEY", "secrets:\n  db: DB_PASSWORD",
    'secrets = {"db": "${DB_PASS}"}', "passwords:\n  root: <redacted>", "credentials.prod: see vault",
    "tokens:\n  input: 1200\n  output: 340", "max_tokens:\n  gpt4: 4096", "[server]\nport = 8080\nhost = db.internal",
    'variable "region" {\n  default = "us-east-1"\n}', "<Parameter><Name>Region</Name><Value>eu-west-1a</Value></Parameter>",
    "h3. Password policy\nUse 12 characters", "Password | required | yes", "| host | credentials |\n|---|---|\n| db1 | in vault |",
    "config.port: 8080", "items[0]: Alpha Bravo", '{"id": "abc123", "content": "meeting at 10am"}',
    "Token usage\n~~~~~~~~~~~\n\nmoderate", "<title>Password reset</title>", "<item>apple2</item>",
    # round 8: a vault reference under a parent, generic pairs in prose holding none
    "secrets:\n  db: vault:secret/db", "secrets:\n  db: vault:kv/prod/db#password\n  api: vault:kv/prod/api#key",
    'The mapping looks like {"k": "password", "v": "<set in vault>"}.', 'They use {"label": "color", "value": "blue2"} here.',
    'We store {"label": "api key", "value": "${API_KEY}"} in the form schema.',
]


def _refused_and_redacted(text: str, *values: str) -> None:
    assert find_secrets(text)[0], text
    redacted, kinds = redact(text)
    assert kinds and not any(value in redacted for value in values), redacted
    assert not find_secrets(redacted)[0], redacted


@pytest.mark.parametrize("value", VALUES)
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("shape", PAIRS)
def test_a_name_value_pair_is_read_as_the_name_and_its_value(shape: str, name: str, value: str) -> None:
    _refused_and_redacted(shape.format(n=name, v=value), value)


@pytest.mark.parametrize("value", VALUES)
@pytest.mark.parametrize("shape", LISTS)
def test_a_list_of_passwords_under_its_name_is_read_item_by_item(shape: str, value: str) -> None:
    _refused_and_redacted(shape.format(v=value, w=OTHER), value, OTHER)


@pytest.mark.parametrize("value", VALUES)
@pytest.mark.parametrize("shape", LABELLED + CJK)
def test_a_label_over_or_around_its_value_is_read_as_label_then_value(shape: str, value: str) -> None:
    _refused_and_redacted(shape.format(v=value), value)


@pytest.mark.parametrize("value", VALUES)
@pytest.mark.parametrize("name", ["adminPassword", "DB_PASSWORD", "api_token", "secret_key"])
@pytest.mark.parametrize("shape", CHILDREN)
def test_a_value_in_a_child_mapping_or_a_generic_pair_is_read_as_its_name(shape: str, name: str, value: str) -> None:
    _refused_and_redacted(shape.format(n=name, v=value), value)


@pytest.mark.parametrize("value", VALUES)
@pytest.mark.parametrize("shape", UNDER_PARENTS)
def test_a_value_under_a_parent_naming_credentials_or_a_label_is_read(shape: str, value: str) -> None:
    _refused_and_redacted(shape.format(v=value), value)


@pytest.mark.parametrize("text", KEPT)
def test_documents_and_prose_without_a_credential_stay(text: str) -> None:
    assert not find_secrets(text)[0]
    assert redact(text) == (text, ())


def test_an_alias_gives_its_anchors_value_the_key_that_names_it() -> None:
    text = "defaults: &db Xk29slQpz1Vb\nservice:\n  password: *db"
    assert parsed(text) == {0: "defaults: Xk29slQpz1Vb; password: Xk29slQpz1Vb"}  # an anchored value: its own key's too
    _refused_and_redacted(text, "Xk29slQpz1Vb")


@pytest.mark.parametrize("count", [3, 300, 1_500])
@pytest.mark.parametrize("alias", ["a{i}", "secretalias{i:05d}"])  # the second also reads as a password itself
def test_a_value_replaced_first_never_hides_what_made_another_a_credential(count: int, alias: str) -> None:
    """Every reading reads the same text before any is replaced (stop 49: at 300 anchors a password alias
    replaced first left its anchor unreferenced, and 101 of 300 passwords stayed in the redacted text)."""
    names = [alias.format(i=i) for i in range(count)]
    text = "note: keep this line\n" + "".join(
        f"x{i}: &{name} Xk29slQpz{i}Vb\npassword: *{name}\n" for i, name in enumerate(names))
    redacted, kinds = redact(text)
    assert "Xk29slQpz" not in redacted and kinds == ("password",)
    assert redacted.startswith("note: keep this line\n")
    assert redact(redacted) == (redacted, ()) and find_secrets(redacted) == [[]]


def test_the_reading_keeps_every_line_and_a_text_without_structure_as_it_is() -> None:
    text = "notes\n\nenv:\n  - name: DB_PASSWORD\n    value: x1\n| a | b |\nplain words here"
    assert structured(text).count("\n") == text.count("\n")
    assert structured("just a sentence, nothing more") == "just a sentence, nothing more"


def test_a_billion_laughs_is_read_once_per_node() -> None:
    laughs = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
        for p, c in zip("abcdefghijklmnopqrstuvwxy", "bcdefghijklmnopqrstuvwxyz"))
    assert len(parsed(laughs)) <= 26  # each line's items once: 9 ** 25 if aliases were expanded
    assert not find_secrets(laughs)[0]


# A credential under an anchor, named where an alias reads it (adv58 F1); {v}: the value
ALIASED = [
    "defaults: &db {v}\nservice:\n  password: *db\nother:\n  password: *db", "x: &a {v}\nhost: *a\nport: *a\npassword: *a",
    "x: &a {v}\npasswords: [*a, *a, *a]", "x: &a {v}\npasswords:\n  - *a\n  - *a", "x: &a |\n  {v}\ndb:\n  password: *a\n  token: *a",
    "base: &b {{value: {v}}}\nadminPassword: *b\nother: *b", "a: &a {v}\nb: &b [*a, *a]\napi_tokens: *b\nmore: *b",
    "base: &b\n  password: {v}\nprod:\n  <<: *b\n  host: db\nstage:\n  <<: *b", '{{"b": &a "{v}", "c": [*a, *a], "secret": *a}}',
    "- &a {v}\n- {{name: DB_PASSWORD, value: *a}}\n- {{name: DB_PASSWORD, value: *a}}",
]
# Aliases of values that are no credential, many times over
MANY_ALIASES = ["x: &a red\ncolour: *a\n" + "".join(f"k{i}: *a\n" for i in range(300)),
                "a: &a " + "lorem ipsum " * 50 + "\nb: [" + ",".join(["*a"] * 500) + "]",
                "base: &b {host: db.internal, port: 5432}\n" + "".join(f"s{i}: {{<<: *b, name: s{i}}}\n" for i in range(300))]


@pytest.mark.parametrize("value", VALUES)
@pytest.mark.parametrize("shape", ALIASED)
def test_a_credential_under_an_anchor_is_read_once_under_each_name_an_alias_gives_it(shape: str, value: str) -> None:
    text = shape.format(v=value)
    _refused_and_redacted(text, value)
    for line in parsed(text).values():
        assert len(line.split("; ")) == len(set(line.split("; "))), line


# A node's properties (an anchor, a tag: YAML 1.2 §6.9) between a credential's name and its value
PROPERTIES = ["&db", "&p", "&secret", "&s3", "!!str", "!secret", "&db !!str", "!!str &db"]
WITH_PROPERTIES = ["db:\n  user: shop\n  password: {p} {v}", "password: {p} {v}", "bind_password: {p} '{v}'",
                   "pass: {p} {v}", "{{password: {p} \"{v}\", user: shop}}", "- name: db\n  api_token: {p} {v}",
                   "ldap:\n  bind_password: {p} {v}\n  host: ldap.internal"]
# Properties before values that are no credential
PLAIN_PROPERTIES = ["name: &n Alice\nrole: !!str admin\nteam: *n", "port: !!int 5432\nhost: &h db.internal",
                    "colour: &c red\nbackground: *c", "version: !!str 3.11"]


@pytest.mark.parametrize("value", VALUES)
@pytest.mark.parametrize("properties", PROPERTIES)
@pytest.mark.parametrize("shape", WITH_PROPERTIES)
def test_a_credential_written_after_an_anchor_or_a_tag_is_read(shape: str, properties: str, value: str) -> None:
    """"password: &db X" was stored: the line as written puts the anchor where its value is read."""
    _refused_and_redacted(shape.format(p=properties, v=value), value)


@pytest.mark.parametrize("text", PLAIN_PROPERTIES)
def test_anchors_and_tags_before_values_that_are_no_credential_stay(text: str) -> None:
    assert not find_secrets(text)[0] and redact(text) == (text, ())


@pytest.mark.parametrize("shape", _aliases(0))
def test_a_document_s_aliases_are_rewritten_into_at_most_twice_its_characters(shape: str) -> None:
    """8,000 characters were rewritten into 5.3 million: an anchor's value written again at each alias."""
    text = _aliases(8_000)[shape]
    assert sum(len(line) for line in parsed(text).values()) <= REWRITTEN * len(text)
    assert not find_secrets(text)[0] or "password" in text


@pytest.mark.contract
@pytest.mark.parametrize("text", [ALIASED[0].format(v=VALUES[0]), ALIASED[2].format(v=VALUES[0]),
                                  ALIASED[4].format(v=VALUES[0])])
def test_remember_refuses_and_a_turn_redacts_a_credential_under_an_anchor(store, text: str) -> None:
    with pytest.raises(InvalidInput):
        store.remember(tenant="t", scope="s", content=text)
    store.episodes.append(tenant="t", scope="s", session_id="s-1", turns=[NewTurn(role="user", text=text)])
    assert VALUES[0] not in store.episodes.turns(tenant="t", session_id="s-1")[-1].text


@pytest.mark.contract
@pytest.mark.parametrize("text", MANY_ALIASES)
def test_remember_stores_a_document_of_many_aliases_holding_no_credential(store, text: str) -> None:
    assert not find_secrets(text)[0] and redact(text) == (text, ())
    stored = store.remember(tenant="t", scope="s", content=text)
    assert store.get(tenant="t", id=stored.id).content == text.strip()


@pytest.mark.contract
@pytest.mark.parametrize("text", [PAIRS[0].format(n="DB_PASSWORD", v=VALUES[0]), LISTS[1].format(v=VALUES[0], w=OTHER),
                                  LABELLED[0].format(v=VALUES[0]), CJK[0].format(v=VALUES[0])])
def test_remember_refuses_and_a_turn_redacts_each_kind(store, text: str) -> None:
    with pytest.raises(InvalidInput):
        store.remember(tenant="t", scope="s", content=text)
    store.episodes.append(tenant="t", scope="s", session_id="s-1", turns=[NewTurn(role="user", text=text)])
    stored = store.episodes.turns(tenant="t", session_id="s-1")[-1].text
    assert VALUES[0] not in stored and OTHER not in stored


@pytest.mark.contract
@pytest.mark.parametrize("given", [
    {"command": 'aws ecs register-task-definition --container-definitions \'[{"environment": '
                '[{"name": "DB_PASSWORD", "value": "Xk29slQpz1Vb"}]}]\''},
    {"file_path": "values.yaml", "content": "env:\n  - name: API_TOKEN\n    value: Xk29slQpz1Vb\n"},
    {"file_path": "creds.json", "content": '{"passwords": ["Xk29slQpz1Vb", "Yb82kslQ1zVx"]}'},
    {"file_path": "README.md", "content": "## Password\n\nXk29slQpz1Vb\n"},
    {"Parameters": [{"ParameterKey": "DBPassword", "ParameterValue": "Xk29slQpz1Vb"}]},
    {"secrets": {"db": "Xk29slQpz1Vb"}}, {"headers": [["X-Api-Key", "Xk29slQpz1Vb"]]},
    {"tokens": ["Xk29slQpz1Vb", {"github": "Yb82kslQ1zVx"}]},
])
def test_a_captured_tool_input_holding_a_document_is_redacted(store, given) -> None:
    text = transcripts.input_text(given)
    store.episodes.append(tenant="t", scope="s", session_id="s-2", turns=[NewTurn(role="assistant", text=text)])
    [turn] = store.episodes.turns(tenant="t", session_id="s-2")
    assert "Xk29slQpz1Vb" not in turn.text and "Yb82kslQ1zVx" not in turn.text and turn.redacted


@pytest.mark.asyncio
async def test_the_remember_tool_refuses_each_kind_naming_the_field(db_path, one_model) -> None:
    async with Client(build_server(Config(db=db_path))) as c:
        for field, text in [("content", PAIRS[4].format(n="password", v=VALUES[0])),
                            ("content", LISTS[0].format(v=VALUES[0], w=OTHER)),
                            ("source", LABELLED[10].format(v=VALUES[0])), ("content", CJK[4].format(v=VALUES[0]))]:
            args = {"content": "the deploy notes", field: text}
            r = await c.call_tool("remember", args)
            said = r.content[0].text
            assert r.is_error and field in said and "credential" in said and VALUES[0] not in said, said
        listed = await c.call_tool("recall", {"query": "", "scope": "default"})
    assert listed.structured_content["memories"] == []
