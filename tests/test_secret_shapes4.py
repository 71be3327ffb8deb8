"""Credential shapes an adversarial pass stored (issue 25 §1.8): a list under a header that names no
password, a Markdown, CSV or TSV table with a password column, a password quoted right after ``-p``, a (user,
password) pair of literals passed for authentication, "login with user:password", and several passwords
after a plural word, also typed full-width. ``remember`` refuses each, naming the kind and storing
nothing; a captured turn's ``redact`` takes the secrets out and keeps the text around them. Their
near misses are stored and left alone."""

from __future__ import annotations

import time

import pytest

from memvault.storage.errors import InvalidInput
from memvault.storage.secrets import find_secrets, redact
from test_secret_kinds import _cases  # the cases' ids

P, Q = "Gq7xT2mVk9", "Hx8yU3nWl0"  # the secrets of every shape below
R, S = "Tr0ub4dor&3", "correcthorse#99"

SHAPES = {
    "a list under a header alone on its line": [
        f"Logins\nalice / {P}\nbob / {Q}", f"Users:\nalice : {P}\nbob : {Q}", f"Accounts\nalice\t{P}\nbob\t{Q}",
        f"Credentials\nalice / {P}\nbob / {Q}", f"## Logins\nalice / {P}\nbob / {Q}",
        f"**Accounts**\n- alice: {P}\n- bob: {Q}", f"**Users:**\n\nalice : {P}\nbob : {Q}",
        f"Usernames\nalice\t{P}\nbob\t{Q}", f"Logins (prod)\nalice / {P}", f"users: alice / {P}, bob / {Q}",
        f"Credentials:\n  alice : {P}\n  bob : {Q}", f"Logins\r\nalice / {P}\r\nbob / {Q}",
    ],
    "a Markdown table with a password column": [
        f"| user | pass |\n|---|---|\n| alice | {P} |",
        f"| user | password |\n|---|---|\n| alice | {P} |\n| bob | {Q} |",
        f"| host | user | pwd |\n| --- | --- | --- |\n| db1 | alice | {P} |",
        f"| User | Secret |\n|:--|:--|\n| alice | `{P}` |", f"| Benutzer | Passwort |\n|---|---|\n| alice | {P} |",
        f"| utilisateur | mot de passe |\n|---|---|\n| alice | {P} |",
        f"| usuario | contraseña |\n|---|---|\n| alice | {P} |",
        f"| login | **Password** |\n|---|---|\n| alice | {P} |",
        f"user | passwd\n--- | ---\nalice | {P}", f"| account | initial password (temp) |\n|---|---|\n| alice | {P} |",
        f"| Name | Serverpasswort |\n|---|---|\n| alice | {P} |",
        f"| пользователь | пароль |\n|---|---|\n| alice | {P} |",
        f"| password |\n|---|\n| {P} |",
    ],
    "a CSV or TSV head with a password column": [
        f"username,password\nalice,{P}\nbob,{Q}", f"user\tpass\nalice\t{P}", f"email;password\na@b.c;{P}",
        f'host,user,db_pwd\ndb1,alice,"{P}"', f'"user","password"\n"alice","{P}"', f"Benutzer;Kennwort\nalice;{P}",
        f"utilisateur,mot de passe\nalice,{P}",
    ],
    "a password quoted right after -p, or -u USER -pX": [
        f"mysql -u root -p'{P}' db", f'mysql -p"{P}"', f"mariadb -u root -p'{P}'", f"mariadb-dump -uroot -p{P} db",
        f"connect with -u root -p'{P}'", f'run it with -p"{P}" and the db', f"-u alice -p{P}",
    ],
    "a (user, password) pair passed for authentication": [
        f'new PasswordAuthentication("alice", "{P}".toCharArray())', f"requests.get(url, auth=('alice','{P}'))",
        f'HTTPBasicAuth("alice", "{P}")', 'auth = ("alice", "hunter")', f"credentials=['alice', '{P}']",
        f'new NetworkCredential("alice", "{P}")', f'smtp.login("me@example.com", "{P}")',
        f'req.SetBasicAuth("alice", "{P}")', f'aiohttp.BasicAuth("alice", "{P}")', f'"auth": ["alice", "{P}"]',
        f"auth=(user, '{P}')", f'client.auth("alice", "{P}")', f'new UsernamePasswordCredentials("alice", "{P}")',
        f'val c = Credentials.basic("alice", "{P}")', f'new UsernamePasswordAuthenticationToken("alice", "{P}")',
    ],
    "login with user:password": [
        f"login with alice:{P}", f"log in with alice:{P}", f"sign in with alice:{P}", f"Log in using alice / {P}",
        f"logged in with alice@example.com:{P}", f"sign-in with bob:{P} then", f"Login via admin:{P}.",
        f"authenticate with the account alice:{P}",
    ],
    "several passwords after a plural word, full-width or not": [
        f"the ｐａｓｓｗｏｒｄｓ are hunter2!, {R} and {S}", f"the passwords are hunter2!, {R} and {S}",
        f"ＰＡＳＳＷＯＲＤＳ ＡＲＥ hunter2, {R}", f"the passwords were {R} and {S}", f"passwords: 'hunter2', '{R}'",
        f"ｐａｓｓｗｏｒｄ： {R}", f"the ｐａｓｓｗｏｒｄ for the db is {R}", f"my ｐｗｄ: {R}",
        f"ｍｙｓｑｌ -u root -p'{P}'", f"ｌｏｇｉｎ ｗｉｔｈ alice:{P}", f"API keys: {P}, {Q}",
    ],
}

NEAR_MISSES = [
    "user / group", "| user | role |\n|---|---|\n| alice | admin |", "auth=(user, password)", "-p 8080",
    "login with Google", "log in with alice@example.com", "Logins\nalice / admin\nbob / viewer", "Users\nalice\nbob",
    "| user | password hint |\n|---|---|\n| alice | dog2name |", "| user | password |\n|---|---|\n| alice | ******** |",
    "| user | password |\n|---|---|\n| alice | (in 1Password) |",
    "| user | last password change |\n|---|---|\n| alice | 2024-01-03 |", "| token | count |\n|---|---|\n| the | 12 |",
    "auth=(username, os.environ['PW2'])", 'auth=("user", "pass")', "requests.get(url, auth=auth)",
    'author("Jane Doe", "Book2")', 'credentials.get("alice", "default2")', "mkdir -p build2", "ssh -p 2222 host",
    "-p 'db2' name", "ps -p'1234'", "login with SSO", "sign in with Google/Microsoft365", "log in with GitHub",
    "login with your email:", "log in at 10:30", "login with localhost:8080", "sign in via https://example.com/login2",
    "the passwords are rotated every 90 days", "passwords are stored in Vault, not here",
    "the passwords are weak, reused and short", "Users: 3 active, 2 locked", "## Accounts\nSee the wiki.",
    "Passwords\nmust be 12 characters", "the API keys are in Vault, in 1Password and in env2 files",
    "name,role\nalice,admin2x", "user,password hint\nalice,dog2name", "user,password\nalice,********",
    "Reset the password, then log in\nrotate2x,bob", "user,password,group\nalice,,admin2x",
]


@pytest.mark.parametrize("text", _cases(SHAPES))
def test_each_shape_is_refused_naming_the_kind_and_nothing_is_stored(one_store, text: str) -> None:
    kinds = r"password|Basic authentication|API key|secret key|in its line"  # a kind no word names: none
    with pytest.raises(InvalidInput, match=rf"looks like it contains a credential(?:\.| \(({kinds}))") as refused:
        one_store.remember(tenant="refused", scope="s", content=text)
    assert refused.value.field == "content"
    assert P not in str(refused.value) and R not in str(refused.value)  # the refusal never repeats a secret
    assert one_store.scope_counts(tenant="refused") == {}


@pytest.mark.parametrize("text", _cases(SHAPES))
def test_a_captured_turn_loses_every_secret_of_each_shape_and_keeps_the_rest(text: str) -> None:
    redacted, kinds = redact(f"before it\n{text}\nafter it")
    assert not [secret for secret in (P, Q, R, S, "hunter2") if secret in redacted]
    assert redacted.startswith("before it\n") and redacted.endswith("\nafter it")
    assert kinds and find_secrets(redacted) == [[]]
    assert redact(redacted) == (redacted, ())


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_near_misses_are_stored_and_left_alone(one_store, text: str) -> None:
    assert one_store.remember(tenant="a", scope="s", content=text).created
    assert redact(text) == (text, ())


def test_a_table_keeps_its_head_and_loses_its_rows() -> None:
    text = f"| user | pass |\n|---|---|\n| alice | {P} |\n| bob | {Q} |\n\nnext paragraph | v2abcdef"
    assert redact(text) == ("| user | pass |\n|---|---|\n[password]\n\nnext paragraph | v2abcdef", ("password",))


def test_only_the_password_column_of_a_table_is_judged() -> None:
    """A value in another column is no password: the column's head says which cells are."""
    assert find_secrets(f"| user | password | group |\n|---|---|---|\n| alice | ******** | {P} |") == [[]]
    assert find_secrets(f"| user | group | password |\n|---|---|---|\n| alice | admin | {P} |") == [[("password", 3)]]


def test_a_password_in_a_pair_is_called_a_password() -> None:
    for text in (f'auth=("alice", "{P}")', f"login with alice:{P}", f"-u root -p'{P}'"):
        assert find_secrets(text) == [[("password", 1)]], text


# Each new pattern's words and what may follow them, repeated to 256 KiB, and a run of spaces inside each
# shape: the check stays linear (test_secret_scan.BOUND_S).
UNITS = ["Logins\n", "## Accounts\n", "**Users**\n", "Users:\n", "a / b1c2d3e4\n", "| user | pass |\n", "|---|---|\n",
         "| a | b1c2d3e4 |\n", "| pass |\n|---|---|\n", "|", "auth=('a', ", "auth(a, '", 'auth=("a", "',
         "HTTPBasicAuth(", "login with a:", "log in with a / ", "login with ", "-p'", "-u a -p", "passwords are ",
         "passwords are a1b2c3, ", "passwords: ", "ｐａｓｓｗｏｒｄｓ ａｒｅ ", "a1b2c3d4, ", "user,password\n",
         "a,b1c2d3e4\n", "db_pwd;", ",\t;"]
SPACES = " " * (256 * 1024)
SPACED = [f"passwords: a1b2c3d4{SPACES}, x1y2z3w4", f"Logins\na{SPACES}b1c2d3e4",
          f"| user |{SPACES}pass |\n|---|---|\n| a | b1c2d3e4 |", f"auth=('a',{SPACES}'b1c2d3e4')",
          f"login with a{SPACES}/ b1C2d3E4x", "| user | pass |\n|---|---|\n" + "| a | b1c2d3e4 |\n" * 16384,
          "user,password\n" + "a,b1c2d3e4,\n" * 16384, f"user,{SPACES}password\na,b1c2d3e4"]


@pytest.mark.parametrize("text", [(u * (256 * 1024 // len(u) + 1))[:256 * 1024] for u in UNITS] + SPACED,
                         ids=[repr(u) for u in UNITS] + [f"spaced {i}" for i in range(len(SPACED))])
def test_the_check_takes_linear_time_on_the_new_shapes(text: str) -> None:
    find_secrets("warm up")
    start = time.thread_time()
    find_secrets(text)
    assert time.thread_time() - start < 5.0
