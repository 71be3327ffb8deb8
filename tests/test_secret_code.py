"""Credentials in code and on command lines, and credential names written as identifiers (issue 25 §1.8,
``storage/secret_code.py``): a value passed to a statement, call, command or flag whose name says it is a
credential, and a name with an inner separator, glued or camelCase, numbered, or ``p`` beside a user key.
``remember`` refuses each (naming the field, never the value) on both backends, a captured turn keeps
the text around it; their near misses are stored as they are."""

from __future__ import annotations

import pytest

from memvault.storage.errors import InvalidInput
from memvault.storage.records import NewTurn
from memvault.storage.secrets import find_secrets, redact
from test_secret_kinds import _cases  # the cases' ids

V, W = "Xk29slQpz1Vb", "q7Rt2#mWz9!e"  # the secrets of every shape below

SHAPES = {
    "SQL": [
        f"ALTER USER app WITH PASSWORD '{V}';", f"CREATE USER app IDENTIFIED BY '{V}';",
        f"CREATE ROLE app LOGIN PASSWORD '{V}';", f"SET PASSWORD FOR 'app'@'%' = '{V}';",
        f"CREATE USER 'app'@'%' IDENTIFIED WITH mysql_native_password BY '{V}';",
        f"alter role reporting with encrypted password '{W}'", f"CREATE USER app\n  IDENTIFIED BY \"{V}\"",
        f"CREATE USER scott IDENTIFIED BY {V};", f"GRANT ALL ON db.* TO 'u'@'%' IDENTIFIED BY '{W}';",
        f"ALTER USER 'root'@'localhost' IDENTIFIED WITH caching_sha2_password BY '{V}';",
        f"SET PASSWORD = PASSWORD('{V}');", f"CREATE ROLE app WITH LOGIN ENCRYPTED PASSWORD '{V}'", f"the password '{V}' works", "CREATE USER app WITH PASSWORD 'opensesame';",
    ],
    "a setting of a credential's name": [
        f"aws configure set aws_secret_access_key {V}", f"aws configure set aws_session_token {V} --profile dev",
        f"npm config set //registry.npmjs.org/:_authToken {V}", f"npm config set //npm.pkg.github.com/:_authToken={V}",
        f"git config --global credential.token {V}", f"yarn config set npmAuthToken {V}",
        f"heroku config:set STRIPE_SECRET={V}", f'dotnet user-secrets set "Db:Password" "{V}"',
        f"setx OPENAI_API_KEY {V}", f"git config user.password '{W}'",
    ],
    "a flag named for a credential": [
        f'Invoke-Sqlcmd -ServerInstance db -Password "{V}"', f"New-Thing -ApiKey {V} -Force",
        f"Connect-Service -AccessToken:{V}", f"tool --api-key {V}", f"cli --client-secret={V}",
        f"vault login -token {V}", f"run.sh --db-token '{W}' --verbose", f"deploy --secret-key {V}", f"kubectl config set-credentials me --token={V}",
    ],
    "a value piped to a command reading it from stdin": [
        f'echo "{V}" | docker login --password-stdin', f"printf {V} | docker login -u me --password-stdin",
        f"docker login --password-stdin <<< {V}", f"printf '%s' '{V}' | podman login --password-stdin quay.io",
        f"echo -n {V} | helm registry login ghcr.io --username me --password-stdin",
        f"echo {V} | passwd --stdin alice", f"echo {V} | gh auth login --with-token",
        f'printf "%s" "{V}" | docker login --password-stdin', f'skopeo login --username me --password-stdin reg.io <<< "{V}"',
    ],
    "a DSN's user:password@host without a scheme": [
        f'sql.Open("mysql", "root:{V}@tcp(db:3306)/app")', f"dsn := \"app:{V}@unix(/run/mysqld.sock)/shop\"",
        f"DATABASE=alice:{V}@db.internal:5432/app", f"connect to bob:{V}@10.0.0.5:6379 now",
        f'gorm.Open(mysql.Open("u:{V}@/shop?parseTime=true"))',
    ],
    "a call taking a credential": [
        f'DriverManager.getConnection(url, "sa", "{V}")', f'DriverManager.getConnection("jdbc:h2:mem:x", "sa", "{W}");',
        f'$db = new mysqli("localhost", "app", "{V}", "shop");', f'new PDO($dsn, "app", "{V}")',
        f'MySQLdb.connect("db", "root", "{V}", "shop")', f'ConvertTo-SecureString "{V}" -AsPlainText -Force',
        f"$pw = ConvertTo-SecureString -String '{W}' -AsPlainText -Force",
        f'setPassword("{V}")', f'user.set_password("{V}")', f'.withPassword("{V}")', f'cfg.setApiKey("{V}");',
        f'Client.builder().token("{V}").build()', f'ds.setPassword("{V}".toCharArray());',
        f'conn.with_secret_key("{W}")', f'conn.setAuthToken("{V}")', f"SetPassword('{V}')", f'b.password("{V}")',
        f'psycopg2.connect(host="db", password="{V}")', f'pymysql.connect(host="db", passwd="{V}")',
    ],
    "a credential's name written as an identifier": [
        f"pass-word: {V}", f"pass_word: {V}", f"api-\nkey: {V}", f'{{"rootpw": "{V}"}}', f'{{"pw1": "{V}"}}',
        f"admin_pw: {V}", f"pwd2: {V}", f"DbPassword: {V}", f"dbPassword: {V}", f"PASSWORD_1: {V}",
        f"mysql_root_password: {V}", f"rootPw = {V}", f"smtpPass: {V}", f"redisPassword2={V}",
        f"PASS_WORD={V}", f"adminpassword: '{V}'", f"client-\nsecret: {V}", f"Pass.Word: {V}", f"db.pwd3 = {V}",
        f"apiToken: {V}", f"access_token_2: {V}", f"pw_1: {V}", f"ADMIN_PW2={V}", f"privateKeyPassword: {V}",
        f"dbPASSWORD: {V}", f"pass.word={V}",
    ],
    "a command storing a secret under a credential's name": [
        f"openssl enc -aes-256-cbc -k {V} -in a", f"aws ssm put-parameter --name /prod/db/password --value {V} --type SecureString",
        f"aws ssm put-parameter --type SecureString --value '{W}' --name prod-api-token",
        f"az keyvault secret set --vault-name kv --name db-password --value {V}",
        f'gcloud secrets versions add db-pass --data-file=- <<< "{V}"',
        f'echo -n "{V}" | gcloud secrets create api-token --data-file=- --replication-policy=automatic',
        f"echo {V} | kubectl create secret generic x --from-file=password=/dev/stdin",
        f"kubectl create secret generic x --from-literal=db_pass={V}",
        f"cat <<< '{V}' | docker login --username bob --password-stdin",
        f"rclone config create r s3 provider AWS secret_access_key {V}", f"rclone config update r pass={V}",
        f"java -Djavax.net.ssl.keyStorePassword={V} -jar app.jar", f"mvn -Dsonar.login.token={V} verify",
        f"CREATE LOGIN app WITH PASSWORD = N'{V}';", f"ALTER LOGIN sa WITH PASSWORD='{W}', CHECK_POLICY = OFF;",
    ],
    "a row inserted with a password": [
        f"INSERT INTO credentials VALUES ('svc', '{V}')", f"INSERT INTO users (name, password) VALUES ('admin', '{V}');",
        f"insert into accounts(email, pwd, role) values ('a@b.c', '{W}', 'admin');",
        f'INSERT INTO `app`.`users` (`id`, `login`, `user_pass`) VALUES (1, "root", "{V}")',
        f"INSERT INTO users VALUES (1, 'admin', '{V}');",
    ],
    "a user and a password shaped like a generated one": [
        f"admin:{V}", f"root / {V} works on the staging box", f"log in with user deploy / {V}.",
        f"(postgres:{V})", f"userpass: {V}", f"pwd_prod: {V}", f"password-staging={V}", f"dbpass: {V}",
    ],
    "SQL Server's system procedures (issue 25 §1.8, round 8)": [
        f"EXEC sp_addlogin 'reporting', '{V}'", f"EXEC master.dbo.sp_addlogin N'svc', N'{V}', 'AppDb'",
        f"EXEC sp_password NULL, '{V}', 'sa'", f"exec dbo.sp_password '{W}', '{V}', 'app_user'",
        f"exec sp_password @old = NULL, @new = '{V}', @loginame = 'app'",
        f"EXEC sp_addlinkedsrvlogin 'REMOTE', 'false', NULL, 'rlogin', '{V}'",
        f"EXEC sp_change_users_login 'Auto_Fix', 'app', NULL, '{V}'", f"EXEC sp_setapprole 'Payroll', '{V}'",
    ],
    "Oracle's user/password@db, a name and its value in one call, an echoed password file (round 8)": [
        f"sqlplus system/{V}@//db.internal:1521/XEPDB1", f"jdbc:oracle:thin:scott/{V}@db.internal:1521/ORCL",
        f'props.setProperty("password", "{V}");', f"config.set('auth', 'password', '{V}')",
        f"[Environment]::SetEnvironmentVariable('GITHUB_TOKEN', '{V}', 'User')",
        f"Set-Variable -Name ApiKey -Value '{V}'", f"New-Item -Path Env:API_KEY -Value '{V}'",
        f"ansible-vault decrypt s.yml --vault-password-file <(echo {V})",
        f"rsync -av --password-file=<(echo {V}) src/ rsync://backup@nas/module",
        f"INSERT INTO api_keys (owner, key) VALUES ('billing', '{V}');",
        f"INSERT INTO service_tokens (service, token) VALUES ('billing', '{V}');",
        f'conf.put("sasl.jaas.config", "PlainLoginModule required username=\\"app\\" password=\\"{V}\\";");',
    ],
    "p beside a user key": [
        f'{{"p": "{V}", "u": "alice"}}', f'{{"u": "alice", "p": "{V}"}}', f"{{'user': 'bob', 'p': '{W}'}}",
        f'login(u="alice", p="{V}")', f'{{"email": "a@b.c", "p": "{V}"}}',
    ],
    "an environment variable's default": [
        f'pass = ENV["DB_PASS"] || "{V}"',
        f'conn = psycopg2.connect(host="db", password=os.environ.get("DBPW", "{V}"))',
        f'DB_PASSWORD = os.getenv("DB_PASSWORD", "{W}")', f'token = os.environ.get("GITHUB_TOKEN") or "{V}"',
        f'SECRET_KEY = env("DJANGO_SECRET_KEY", default="{V}")', f'api_key = ENV.fetch("STRIPE_API_KEY", "{V}")',
        f"$pw = getenv('DB_PASS') ?: '{V}';",
        f'const pw = process.env.DB_PASSWORD || "{V}";', f"const key = process.env.API_KEY ?? '{V}';",
        f"psql -h db -W ${{PGPASSWORD:-{V}}}", f"spring.datasource.password=${{DB_PASSWORD:{V}}}",
    ],
}

NEAR_MISSES = [
    "ALTER USER app WITH LOGIN", "setPassword(newPassword)", "the password-stdin flag reads from stdin",
    "postgres://user@db:5432/app", "user:@host", "http://host:8080/", "http://host:8080/path2",
    "use IDENTIFIED BY to set a password in MySQL", "CREATE USER app IDENTIFIED BY PASSWORD;",
    "CREATE USER app IDENTIFIED WITH auth_socket;", "ALTER ROLE app PASSWORD NULL;", "setPassword(null)",
    "user.set_password(form.cleaned_data['password1'])", "getPassword(\"db2\")", "checkPassword('x')",
    "reset_password(\"alice\")", "echo $TOKEN | docker login --password-stdin", "docker login --password-stdin ghcr2.io",
    "cat pw.txt | docker login --username me --password-stdin", "psql --no-password db2", "--token-file ~/t2.txt",
    "--max-tokens 4096", "git config credential.helper 'cache --timeout=3600'", "npm config set always-auth true",
    "aws configure set region eu-west-2", "git@github.com:org/repo2.git", "contact:john123@example.com",
    "at 10:30@home", "user@db.internal:5432/app", "sql.Open(\"mysql\", dsn)",
    "DriverManager.getConnection(url, user, password)", 'DriverManager.getConnection(url, "sa", "")',
    'ConvertTo-SecureString $plain -AsPlainText -Force', "Invoke-Sqlcmd -Password $pw",
    'config.token = os.environ["TOKEN2"]', "password_hash: 5f4dcc3b5aa765d61d8327deb882cf99x",
    '{"p": 2, "u": "alice"}', '{"p": "paragraph2", "q": "x"}', '{"u": "alice", "page": "a2b3c4"}',
    "tokens: 12k2", "the passphrase-only mode", "PASSWORD_POLICY=strict",
    "dbPassword: ${DB_PASSWORD}", "rootPw = getPw(env2)", "api-\nkey rotation is weekly",
    "this.token = nextToken2", "self.dbPassword = newPassword1", "docker build --secret id=npmrc2,src=.npmrc .",
    '--api-key "$(cat ~/.key2)"', '--token "${{ secrets.GH_TOKEN2 }}"', 'setPassword("${DB_PASS2}")',
    "set PWD=%CD2%", "5 passed in 0.4s, upward2: 3",
    "aws ssm get-parameter --name /prod/db/password --with-decryption", "openssl enc -kfile key2.txt -in a",
    "aws ssm put-parameter --name /prod/db/password-policy --value strict2",
    "kubectl create secret generic x --from-file=password=./pw2.txt", "java -Djavax.net.ssl.keyStore=/etc/ks2.jks",
    "rclone config create r s3 provider AWS env_auth true", "CREATE LOGIN app FROM WINDOWS2;",
    "INSERT INTO users (name, password) VALUES ('admin', ?);", "INSERT INTO users (name, pw) VALUES (:n, :pw2)",
    "INSERT INTO users (name, password_hash) VALUES ('a', 'x2')", "INSERT INTO users VALUES (1, 'alice2', 'a@b.c')",
    "INSERT INTO orders VALUES (1, 'Xq9kLm2Pzt')", "meet at 10:30", "ratio 3:1", "and/or", "root / admin2 works",
    "admin:Admin123", "root:x:0:0:root:/root:/bin/bash", "compass: N45W12", "bypass: rule7", "password_policy: strict2",
    # round 8: a procedure's variables, a statement's parameters, an expansion, a password file, a switch
    "EXEC sp_addlogin @loginame = @login, @passwd = @pwd", "EXEC sp_addlinkedsrvlogin 'REMOTE2', 'true'",
    "sp_password is deprecated: use ALTER LOGIN2", "INSERT INTO api_keys (owner, key) VALUES (:owner, :key2);",
    "INSERT INTO settings (key, value) VALUES ('theme', 'dark2');", 'props.setProperty("password.min.length", "12")',
    'props.setProperty("password", System.getenv("DB_PASSWORD2"));', "sqlplus / as sysdba",
    "sqlplus scott/$ORACLE_PASSWORD2@orcl", "ansible-playbook site.yml --vault-password-file ~/.vault_pass2",
    "Set-Variable -Name ApiKey -Value $env:API_KEY2", 'password=\\"${DB_PASSWORD2}\\"',
    # an environment variable's default that is no credential: another variable's, a placeholder, a duration
    'host = os.environ.get("DB_HOST", "db01.internal")', 'pw = os.environ.get("DB_PASSWORD", "changeme")',
    'token = os.getenv("GITHUB_TOKEN", "your-token-here")', 'pw = os.getenv("DB_PASSWORD", default_pw2)',
    'ttl = os.environ.get("TOKEN_TTL", "3600s")', "echo ${DB_PASSWORD:-} ${API_TOKEN:-}",
    'level = os.getenv("LOG_LEVEL", "debug2")',
]


@pytest.mark.parametrize("text", _cases(SHAPES))
def test_each_shape_is_found_and_redacted_keeping_the_rest(text: str) -> None:
    found = find_secrets(text)[0]
    assert found and all(kind != "credential" for kind, _ in found), found
    redacted, kinds = redact(f"before it\n{text}\nafter it")
    assert V not in redacted and W not in redacted and "opensesame" not in redacted
    assert redacted.startswith("before it\n") and redacted.endswith("\nafter it")
    assert kinds and find_secrets(redacted) == [[]]
    assert redact(redacted) == (redacted, ())


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_near_misses_are_left_alone(text: str) -> None:
    assert find_secrets(text) == [[]]
    assert redact(text) == (text, ())


def test_a_password_by_where_it_stands_is_called_a_password_and_a_name_by_its_word() -> None:
    assert find_secrets(f'{{"p": "{V}", "u": "alice"}}') == [[("password", 1)]]
    assert find_secrets(f"CREATE USER app IDENTIFIED BY '{V}';") == [[("password", 1)]]
    assert find_secrets(f"aws configure set aws_secret_access_key {V}") == [[("secret key", 1)]]
    assert find_secrets(f"api-\nkey: {V}") == [[("API key", 2)]]
    assert find_secrets(f"tool --api-key {V}") == [[("API key", 1)]]


# One of each kind over the tool surface, on both backends.
ONE_OF_EACH = [texts[0] for texts in SHAPES.values()]
KINDS = ("password", "secret key", "API key", "access token")


@pytest.mark.contract
@pytest.mark.parametrize("text", ONE_OF_EACH)
def test_remember_refuses_each_kind_naming_the_field_and_a_captured_turn_loses_it(store, text: str) -> None:
    kinds = "|".join(KINDS)
    with pytest.raises(InvalidInput, match=rf"looks like an? ({kinds})") as refused:
        store.remember(tenant="t", scope="s", content="deploy notes", tags=["ops", text.replace("\n", " ")])
    assert refused.value.field == "tags[1]" and V not in str(refused.value)
    with pytest.raises(InvalidInput, match=rf"looks like it contains a credential \(({kinds}) in its line 2") as refused:
        store.remember(tenant="t", scope="s", content=f"setup:\n{text}")
    assert refused.value.field == "content" and V not in str(refused.value)
    assert store.scope_counts(tenant="t") == {}
    store.episodes.append(tenant="t", scope="s", session_id="code-1",
                          turns=[NewTurn("user", f"run this\n{text}\nthen restart")])
    [turn] = store.episodes.turns(tenant="t", session_id="code-1")
    assert V not in turn.text and turn.text.startswith("run this\n") and turn.text.endswith("\nthen restart")
    assert any(f"[{kind}]" in turn.text for kind in KINDS)


@pytest.mark.contract
def test_the_near_misses_are_stored_as_they_are(store) -> None:
    for text in NEAR_MISSES[:12]:
        assert store.remember(tenant="t", scope="s", content=text).created
    store.episodes.append(tenant="t", scope="s", session_id="code-2", turns=[NewTurn("user", NEAR_MISSES[2])])
    assert [t.text for t in store.episodes.turns(tenant="t", session_id="code-2")] == [NEAR_MISSES[2]]


@pytest.mark.parametrize("text", [
    f'$params = @{{ Username = "alice"; Password = "{V}" }}', f'Connect-X @{{Credential = "alice:{V}"}}',
    f'-Credential (New-Object PSCredential("alice", (ConvertTo-SecureString "{V}" -AsPlainText -Force)))',
    f"credential: alice/{V}",
])
def test_a_powershell_splat_or_credential_object_is_found(text: str) -> None:
    assert find_secrets(text)[0] and V not in redact(text)[0]


@pytest.mark.asyncio
@pytest.mark.usefixtures("one_model")  # the packaged model loaded once (conftest)
async def test_the_remember_tool_refuses_each_kind_naming_the_field_never_the_value(db_path) -> None:
    from mcp import Client

    from memvault.server.app import build_server
    from memvault.server.config import Config

    async with Client(build_server(Config(db=db_path))) as c:
        for text in ONE_OF_EACH:
            r = await c.call_tool("remember", {"content": f"setup:\n{text}"})
            said = r.content[0].text
            assert r.is_error and said.startswith("content: looks like it contains a credential (") and V not in said
        listed = await c.call_tool("recall", {"query": "", "scope": "default"})
    assert listed.structured_content["memories"] == []


# Where a secret is kept, as a refusal asks a user to write instead ("describe where the secret is kept"):
# a CI expression, CloudFormation's dynamic reference, an Ansible lookup, a secret store's ARN or path.
WHERE_KEPT = [
    'password: "${{ secrets.DB_PASSWORD }}"', "token: ${{secrets.NPM_TOKEN}}",
    'MasterUserPassword: "{{resolve:secretsmanager:prod/db:SecretString:password}}"',
    "password: '{{resolve:ssm-secure:/prod/db/pass:1}}'", "db_password: \"{{ lookup('env','DB_PASS') }}\"",
    "api_key: \"{{ lookup('hashi_vault', 'secret=secret/data/api:key') }}\"",
    "password: arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf",
    "DB_PASSWORD=arn:aws:ssm:eu-west-2:210987654321:parameter/prod/db2",
    "password: vault:secret/data/db#password", "DB_PASSWORD=$(cat /run/secrets/db)",
    "password: $(cat /run/secrets/db)", "password: op://vault/item/password", "DB_PASSWORD=op://Prod/db2/password",
    "the db password is op://Prod/db2/password", "token: ref+vault://secret/api2#/token",
    "the password is kept in 1Password: op://Prod/db2/password", "the password is at vault://Prod/DB2",
]
# A secret store's reference after any words for the password, and a place (a URL, a path) after a description of
# it and ":" (the reference's own ":" ends no description: "is op:" and "//Prod/db2/password" were refused).
REFERENCES = ["op://Prod/db2/password", "vault://Prod/DB2", "vault:secret/data/Prod#password",
              "ref+vault://secret/api2#/token", "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf",
              "{{resolve:secretsmanager:prod/db:SecretString:password}}", "${{ secrets.DB_PASSWORD }}",
              "$env:DB_PASSWORD", "${DB_PASSWORD}", "/run/secrets/Db2", "~/.secrets/Db2.txt", "./secrets/Db2.txt",
              "file:///run/secrets/Db2"]
PLACES = ["https://Vault.example.com/ui/vault/secrets/kv/show/Prod/DB2", "https://kv-prod.vault.azure.net/secrets/DbPass2",
          "C:\\Secrets\\DB2.txt", "/home/Alice/Secrets/Db2.txt", "s3://Team-Bucket/secrets/DB2.txt",
          "projects/my-proj/secrets/DbPass2/versions/2", "secret/data/Prod/DB2", "keychain:Login/DB2"]
DESCRIBED = ["the password is kept in 1Password:", "My password is in the team vault:", "The password was moved to:",
             "The password is the one at:", "the password is stored in the vault as:"]
WHERE_KEPT_AFTER_WORDS = [f"{before} {where}" for where in REFERENCES for before in [
    "the db password is", "the password is at", "password:", "DB_PASSWORD=", *DESCRIBED]] + [
    f"{before} {where}" for where in PLACES for before in DESCRIBED[1:]]  # ("1Password: X" is "password: X")
# The same wrappings holding a value instead of a path or a name: still found.
WRAPPED_VALUES = [f"password: op://{V}", f'password: "${{{{ {V} }}}}"', f"password: vault:{V}",
                  f'password: "{{{{resolve:{V}}}}}"', f"password: arn:aws:secretsmanager:{V}"]


@pytest.mark.parametrize("text", WHERE_KEPT)
def test_where_a_secret_is_kept_is_no_secret(text: str) -> None:
    assert find_secrets(text) == [[]]
    assert redact(text) == (text, ())


@pytest.mark.parametrize("text", WHERE_KEPT_AFTER_WORDS)
def test_where_a_secret_is_kept_after_any_words_is_no_secret(text: str) -> None:
    assert find_secrets(text) == [[]]


@pytest.mark.parametrize("text", [f"{before} {V}" for before in DESCRIBED] + [
    f"{before} {V}." for before in DESCRIBED] + [f"the password is the reverse of drowssap: {W}"])
def test_a_value_after_the_same_words_is_found(text: str) -> None:
    assert find_secrets(text) == [[("password", 1)]]


@pytest.mark.parametrize("text", WRAPPED_VALUES)
def test_a_value_in_a_reference_s_wrapping_is_found(text: str) -> None:
    assert find_secrets(text)[0]


@pytest.mark.contract
def test_remember_stores_where_a_secret_is_kept(store) -> None:
    for text in WHERE_KEPT:
        assert store.remember(tenant="t", scope="s", content=f"deploy notes\n{text}").created
