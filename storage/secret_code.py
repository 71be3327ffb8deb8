"""Credentials in code and on command lines, for the named-credential detector (``secret_named``): a value
passed to a statement, call, command or flag whose name says it is a credential, and a credential's name
written as an identifier.

- SQL: ``CREATE USER app IDENTIFIED BY 'X'`` (also ``IDENTIFIED WITH plugin BY``), ``ALTER USER|ROLE ...
  [ENCRYPTED] PASSWORD 'X'``, ``= PASSWORD('X')``; a quoted literal after ``password`` anywhere;
- a setting of a credential's name: ``aws configure set aws_secret_access_key X``, ``npm config set
  //registry/:_authToken X``, ``git config --global credential.token X``, ``setx API_TOKEN X``;
- a flag named for one, ``-`` or ``--``, its name ending in the word: ``-Password "X"``, ``--api-key X``,
  ``-Token:X`` (not ``--password-stdin``, ``--token-file``, ``--no-password``);
- a value piped or here-string fed to a command reading a password from stdin: ``echo X | docker login
  --password-stdin``, ``... <<< X``, ``echo X | passwd --stdin u``, ``| gh auth login --with-token``;
- a password before ``@`` and a host in a DSN without a scheme: ``root:X@tcp(db:3306)/app``,
  ``u:X@db:5432/app`` (with a scheme, ``secret_plugins.UrlPasswordDetector``'s);
- a command storing a value under a credential's name: ``aws ssm put-parameter --name /prod/db/password
  --value X``, ``az keyvault secret set --name db-password --value X``, ``rclone config create r s3
  secret_access_key X``, or reading it from stdin (``gcloud secrets create t --data-file=-``,
  ``--from-file=password=/dev/stdin``); SQL Server's ``PASSWORD = N'X'``;
- SQL rows: ``INSERT INTO users (name, password) VALUES ('admin', 'X')`` (the literal at the password
  column's place), and a literal shaped like a password in a row of a users', accounts' or credentials'
  table inserted without a column list;
- a user's name and a value shaped like a password: ``admin:X``, ``root / X works``;
- the default of an environment variable named for a credential: ``os.environ.get("DB_PASSWORD", "X")``,
  ``process.env.API_KEY || "X"``, ``${DB_PASSWORD:-X}``;
- calls: ``DriverManager.getConnection(url, "sa", "X")`` and the positional connects of PHP and Python's
  MySQL drivers, ``ConvertTo-SecureString "X" -AsPlainText``, setters and builders ``setPassword("X")``,
  ``set_password("X")``, ``withApiKey("X")``, ``.password("X")`` (a literal, not a variable);
- an identifier naming a credential, then ``:`` or ``=`` and the value: a word written with an inner
  separator (``pass-word``, ``pass_word``, ``api-`` at a line's end then ``key``), glued or in camelCase
  after another (``rootpw``, ``dbPassword``, ``DbPwd``, ``userpass``), numbered (``pw1``, ``pwd2``,
  ``PASSWORD_1``), for an environment (``pwd_prod``), a Java property (``-Djavax.net.ssl.keyStorePassword``);
- a generated key under a name for a key: ``key`` alone in a document (``{"key": "<32 hex>"}``, ``key = "..."``),
  a name ending in ``Key`` or ``_key`` (``jwtSigningKey: ...``); a key given to a command that logs in (``wandb
  login KEY``, ``snyk auth TOKEN``) or printed by one (``heroku auth:token``);
- the one-letter key ``p`` beside a user key (``u``, ``user``, ``username``, ``login``, ``email``) in one
  object or call on one line: ``{"p": "X", "u": "alice"}``. Alone, ``p`` names too much to be one.

A group's name says how its value is judged and named (:func:`code_values`): ``code_pw_*`` a password,
``code_nm_*`` named by the words before it, ``code_key_*`` and ``code_login_*`` a generated key's; ``*_q*`` a quoted
literal taken whole (as ``password = "bar"``),
``*_v*`` a value holding a letter and a digit (``secret_values.named_value_kept``), ``*s`` one shaped like a
password (mixed cases and a digit, 8 characters or more, no word and digits: as after a space).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from .secret_kinds import named_kind
from .secret_values import generated_key, key_shaped, named_value_kept

# A credential's value as people write it after its word ("password: X"): 6 characters or more without white space
# or quotes, not ending in sentence punctuation; and a literal's content.
_VALUE = r"[^\s\"'`]{5,}[^\s\"'`.,;:!?)\]]"
_LIT = r"""(?:"[^"\n]{0,100}"|'[^'\n]{0,100}')"""
# The words a flag's, a setting's or a setter's name ends with.
_WORDS = (r"pass(?:word|wd|phrase)?|pwd|secret|token|(?:api|access|auth|secret|private|client)[_-]?"
          r"(?:key|secret|token)")


def _either(group: str) -> str:
    """A quoted literal (``{group}q``, taken whole) or a bare value (``{group}v``, judged)."""
    return f"(?:[\"'](?P<{group}q>[^\"'\\n]{{1,200}})[\"']|(?P<{group}v>{_VALUE}))"


def _sql() -> str:
    return ("(?i)\\bIDENTIFIED(?:[ \\t]+(?:WITH|USING)[ \\t]+[\"'`]?[\\w$-]+[\"'`]?)?[ \\t]+BY"
            "(?:[ \\t]+PASSWORD)?[ \\t]*\\r?\\n?[ \\t]*" + _either("code_pw_sql")
            + r"|\b(?:USER|ROLE|LOGIN|GROUP)\b[^;\n]{0,200}?\bPASSWORD(?:[ \t]*=[ \t]*N?|[ \t]+)[\"'](?P<code_pw_userq>[^\"'\n]{1,200})[\"']"
            + r"|=[ \t]*PASSWORD[ \t]*\([ \t]*[\"'](?P<code_pw_fnq>[^\"'\n]{1,200})[\"']"
            + r"|\b(?:ENCRYPTED[ \t]+)?PASSWORD[ \t]+[\"'](?P<code_pw_quotedv>[^\"'\n]{1,200})[\"']")


# SQL Server's system procedures taking a password at a place (0-based, among unnamed arguments): sp_addlogin's
# @passwd, sp_password's @new (and @old: ``_procedure_old``), sp_addlinkedsrvlogin's @rmtpassword,
# sp_change_users_login's @Password, sp_addapprole's and sp_setapprole's @password.
_PROCEDURES = {"sp_addlogin": 1, "sp_password": 1, "sp_addlinkedsrvlogin": 4, "sp_change_users_login": 3,
               "sp_addapprole": 1, "sp_setapprole": 1}
_ARGUMENT = r"(?:N?'[^'\n]{0,200}'|[\w@$.]{1,100})[ \t]*,[ \t]*"  # an unnamed argument, a literal or a name
# Its name, perhaps after a schema's ("master.dbo.sp_addlogin", "[dbo].[sp_password]": "." parts them).
_PROCEDURE = r"(?i)(?:\b|\[)%s\]?(?:[ \t]+|[ \t]*\([ \t]*)"


def _procedures() -> str:
    """A literal at a system procedure's password place (``_PROCEDURES``: ``EXEC sp_addlogin 'u', 'X'``,
    ``sp_password NULL, 'X', 'sa'``), or after a named password argument (``@passwd = 'X'``, ``@new = N'X'``)."""
    places = "|".join(f"{_PROCEDURE % name}(?:{_ARGUMENT}){{{n}}}N?'(?P<code_pw_proc{i}q>[^'\n]{{1,200}})'"
                      for i, (name, n) in enumerate(_PROCEDURES.items()))
    named = (r"|(?i)\bsp_\w{1,60}\b[^;\n]{0,400}?@(?:passwd|password|new|old|rmtpassword|encryptopt_password)"
             r"[ \t]*=[ \t]*N?'(?P<code_pw_procnq>[^'\n]{1,200})'")
    return places + named


def _procedure_old() -> str:
    """sp_password's first argument, the old password, when it is a literal (not NULL)."""
    return (_PROCEDURE % "sp_password") + r"N?'(?P<code_pw_procoldq>[^'\n]{1,200})'"


def _settings() -> str:
    command = (r"\bconfig(?:ure)?(?:[ \t]*:[ \t]*|[ \t]+)set|\bgit[ \t]+config|\bsetx|\buser-secrets[ \t]+set"
               r"|\bsecrets?[ \t]+set")
    return (f"(?i)(?:{command})(?:[ \\t]+--?[\\w-]+)*[ \\t]+[\"']?[^\\s\"'=]*(?:{_WORDS})\\d{{0,3}}[\"']?"
            f"(?:[ \\t]*=[ \\t]*|[ \\t]+)" + _either("code_nm_set")
            + f"|\\brclone[ \\t]+config[ \\t]+(?:create|update)\\b(?:[ \\t]+[^\\s=]+)*?[ \\t]+[\\w.-]*(?:{_WORDS})"
            f"(?:[ \\t]*=[ \\t]*|[ \\t]+)" + _either("code_nm_setr"))


def _flags() -> str:
    return (f"(?i)(?:^|[ \\t(])--?(?:[\\w]+-)*[\\w]*(?:{_WORDS})(?:[ \\t]*[:=][ \\t]*|[ \\t]+)"
            + _either("code_nm_flag"))


def _echoed_file() -> str:
    """A value echoed in a process substitution given to a flag for a password's file: ``--vault-password-file
    <(echo X)``, ``--password-file=<(printf '%s' X)``."""
    return (f"(?i)(?:^|[ \\t])--?[\\w-]*(?:{_WORDS})[\\w-]*(?:[ \\t]*=[ \\t]*|[ \\t]+)[<$]\\([ \\t]*(?:echo|printf)"
            r"(?:[ \t]+-[a-zA-Z]+)*(?:[ \t]+[\"']%s(?:\\n)?[\"'])?[ \t]+[\"']?(?P<code_pw_echofilev>[^\s\"'|)$-][^\s\"'|)]{3,})")


def _stdin() -> str:
    reads = (r"--?pass(?:word|wd|phrase)?-stdin\b|--stdin-pass(?:word)?\b|--with-token\b"
             r"|\bpasswd\b[^\n|]*?[ \t]--stdin\b"
             # a secret store's or Kubernetes' command reading the secret from stdin
             r"|\bsecrets?[ \t]+(?:create|versions[ \t]+add)\b[^\n|]*?[ \t]--data-file[ \t=]+-(?:[ \t]|$)"
             r"|[ \t]--from-file=[\w.-]+=/dev/stdin\b")
    return (r"(?i)(?:\b(?:echo|printf)(?:[ \t]+-[a-zA-Z]+)*|\bcat[ \t]+<<<)(?:[ \t]+[\"']%s(?:\\n)?[\"'])?[ \t]+[\"']?"
            r"(?P<code_pw_echov>[^\s\"'|$-][^\s\"'|]{3,})[\"']?[ \t]*\|[^\n|]*?" f"(?:{reads})"
            f"|(?:{reads})[^\\n]*?<<<[ \\t]*[\"']?(?P<code_pw_herev>[^\\s\"'$][^\\s\"']{{3,}})")


def _stores() -> str:
    """A command storing a value under a name ending in a credential's word, in either order: ``aws ssm
    put-parameter --name /prod/db/password --value X``, ``az keyvault secret set --name db-password --value X``."""
    name = f"--?(?:name|path)[ \\t=]+[\"']?[^\\s\"']*(?:{_WORDS})(?:[_.-]?\\d{{1,3}})?[\"']?(?:[ \\t]|$)"
    value = r"--?(?:value|secret-string)(?:[ \t]*=[ \t]*|[ \t]+)"
    return (f"(?i){name}(?:[^\\n|;&]*?[ \\t])?{value}" + _either("code_nm_store")
            + f"|{value}" + _either("code_pw_storer") + f"[^\\n|;&]*?[ \\t]{name}")


def _inserts() -> str:
    """SQL inserting a literal in a password, secret, token or key column (``INSERT INTO users (name, password)
    VALUES ('admin', 'X')``: the literal at the column's place, up to the ninth; a table of keys' ``key`` or
    ``value`` column, holding a letter and a digit: ``INSERT INTO api_keys (owner, key) VALUES ('b', 'X')``), and a literal shaped like a generated
    password in a row inserted without a column list into a table of users or credentials."""
    column = r"[\"`\[]?[\w.]+[\"`\]]?[ \t]*,[ \t]*"
    literal = r"(?:N?'[^'\n]*'|\"[^\"\n]*\"|[^\s,()'\"]+)[ \t]*,[ \t]*"  # unbounded: RE2 caps repeats' sizes
    password = (r"[\"`\[]?\w*(?:password|passwd|pass|pwd|pw|secret|token|(?:api|access|private|secret)_?key)[\"`\]]?"
                r"[ \t]*(?:,[^()\n]*)?\)")
    # a table of keys or tokens: its "key", "value" or "hash" column holds one ("INSERT INTO api_keys (owner, key)")
    keyed = r"[\"`\[]?(?:key|value)[\"`\]]?[ \t]*(?:,[^()\n]*)?\)"
    head = r"(?i)\bINSERT[ \t]+(?:IGNORE[ \t]+)?INTO[ \t]+[\w.\"`\[\]]+[ \t]*\([ \t]*"
    keys_head = (r"(?i)\bINSERT[ \t]+(?:IGNORE[ \t]+)?INTO[ \t]+[\w.\"`\[\]]*(?:keys|tokens|secrets|credentials)"
                 r"[\"`\]]?[ \t]*\([ \t]*")
    places = [f"(?:{column}){{{n}}}{password}[ \\t]*VALUES[ \\t]*\\([ \\t]*"
              f"(?:{literal}){{{n}}}N?['\"](?P<code_nm_insert{n}q>[^'\"\\n]{{1,200}})['\"]" for n in range(9)]
    keyed_places = [f"(?:{column}){{{n}}}{keyed}[ \\t]*VALUES[ \\t]*\\([ \\t]*"
                    f"(?:{literal}){{{n}}}N?['\"](?P<code_nm_insert{n}v>[^'\"\\n]{{4,200}})['\"]" for n in range(9)]
    tables = r"[\w\"`\[]*(?:users?|accounts?|credentials?|logins?|members?|admins?)[\"`\]]?"
    return (f"{head}(?:{'|'.join(places)})|{keys_head}(?:{'|'.join(keyed_places)})"
            f"|(?i)\\bINSERT[ \\t]+(?:IGNORE[ \\t]+)?INTO[ \\t]+(?:[\\w\"`\\[\\]]+\\.)?{tables}[ \\t]+VALUES"
            f"[ \\t]*\\((?:[^()\\n]{{0,400}}?,)?[ \\t]*N?['\"](?P<code_pw_rows>[^'\"\\s]{{8,200}})['\"][ \\t]*[,)]")


def _pairs() -> str:
    """A user's name, ``:`` or ``/``, and a value shaped like a generated password: ``admin:X``, ``root / X
    works on the staging box``, ``user admin / X`` (judged as after a space: ``code_values``); never a URL's
    ``//`` after a user-like scheme (``mysql://``, ``postgres://``: the URL detector's). The value is at most 48
    characters: a line of a PEM block's base64 (64 characters) that opens with "pi/" or "sa/" was read as a
    user and a password (about one run in ten of ``test_random_public_keys_and_base64_runs_are_stored_and_kept_whole``)."""
    users = (r"admin|administrator|root|sa|postgres|ubuntu|ec2-user|pi|guest|oracle|sysadmin|superuser|elastic"
             r"|jenkins|deploy|mysql|rabbitmq|minio|grafana|(?:user(?:name)?|login)[ \t]+[\w.@-]+")
    return (f"(?i)(?:^|[\\s\"'(\\[,])(?:{users})(?::|[ \\t]*/[ \\t]*)[\"']?(?P<code_pw_pairs>[^\\s\"'`/][^\\s\"'`]{{4,46}}[^\\s\"'`.,;:!?)\\]])"
            r"(?:[\"']|[.,;:!?)\]]*(?:\s|$))")


def _dsn() -> str:
    """A DSN without a scheme (``root:X@tcp(db:3306)/app``, ``u:X@db:5432/app``) and Oracle's ``user/X@db``
    after a tool of its or a JDBC thin URL (``sqlplus scott/X@orcl``, ``jdbc:oracle:thin:scott/X@db:1521/ORCL``)."""
    oracle = (r"|(?i:\b(?:sqlplus|rman|expdp|impdp|exp|imp|sqlldr|dgmgrl)\b(?:[ \t]+-\w+)*[ \t]+(?:userid=)?"
              r"|jdbc:oracle:(?:thin|oci8?):)[\"']?[\w$#.]{1,64}/(?P<code_pw_oraclev>[^\s@/\"'`]{1,200})@")
    return (r"(?:^|[\s\"'`=(,])[\w.+-]{1,64}:(?P<code_pw_dsnv>[^\s:@/\"'`]{1,200})@"
            r"(?:(?:tcp|udp|unix)\(|[\w.-]+:\d{2,5}(?:[/\s\"'`]|$)|[\w.-]*/)" + oracle)


def _calls() -> str:
    connect = (r"\b(?:getConnection|mysqli_connect|mysql_connect|mysqli|PDO"
               r"|(?:MySQLdb|pymysql|mysql\.connector|pgdb)\.connect)")
    return (f"(?:{connect}[ \\t]*\\([ \\t]*(?:{_LIT}|[\\w.$>\\[\\]-]{{1,100}})[ \\t]*,[ \\t]*{_LIT}[ \\t]*,[ \\t]*"
            r"[\"'](?P<code_pw_connectq>[^\"'\n]{1,200})[\"'])"
            r"|(?i:\bConvertTo-SecureString(?:[ \t]+-(?:AsPlainText|Force|String))*[ \t]+"
            r"[\"'](?P<code_pw_secureq>[^\"'\n]{1,200})[\"'])"
            f"|(?i:(?:(?:^|[^\\w$])(?:set|with|use|put)_?(?:[a-z0-9]+_?)??|\\.)(?:{_WORDS})[ \\t]*\\([ \\t]*"
            r"[\"'`](?P<code_nm_setterq>[^\"'`\n]{1,200})[\"'`][ \t]*(?:[),]|\.\w))"
            # a name and its value passed together, perhaps after a section's: props.setProperty("password", "X"),
            # put("api_key", "X"), [Environment]::SetEnvironmentVariable("API_TOKEN", "X"), config.set("auth", "password", "X")
            + f"|(?i:\\b(?:set|put|add|append|insert|with|define|store)\\w{{0,40}}[ \\t]*\\([ \\t]*(?:{_LIT}[ \\t]*,[ \\t]*){{0,2}}"
            f"[\"'`][^\"'`\\n]{{0,80}}?"
            f"(?:{_WORDS})\\d{{0,3}}[\"'`][ \\t]*,[ \\t]*"
            r"[\"'`](?P<code_nm_keyedv>[^\"'`\n]{4,200})[\"'`])")


def _env_defaults() -> str:
    """A literal default of a lookup of an environment variable whose name ends in a credential's word (perhaps
    numbered; not ``TOKEN_TTL``): ``os.environ.get("DBPW", "X")``, ``os.getenv``, ``... or "X"``, django-environ's
    ``env("SECRET_KEY", default="X")``, Ruby's ``ENV.fetch("API_TOKEN", "X")`` and ``ENV["DB_PASS"] || "X"``, PHP's
    ``getenv('DB_PASS') ?: 'X'``, Node's ``process.env.DB_PASSWORD || "X"`` (``??``), a shell's ``${DB_PASSWORD:-X}``
    and Spring's ``${db.password:X}``."""
    word = r"(?i:pass(?:word|wd|phrase)?|pwd?|secret|token|key|auth|creds?|credentials)(?:[_.-]?\d{1,3})?"
    name = r"[\w.-]{0,40}?" + word
    lookup = (r"(?:\b(?:environ\.get|getenv|env|ENV\.fetch|ENV)[ \t]*[(\[][ \t]*[\"']" + name + r"[\"'][ \t]*"
              r"|\bprocess\.env\.[\w$]{0,40}?" + word + ")"
              r"(?:,[ \t]*(?:default[ \t]*=[ \t]*)?|[)\]]?[ \t]*(?:\|\||\?\?|\?:|\bor\b)[ \t]*)"
              r"[\"'`](?P<code_nm_envv>[^\"'`\n]{4,200})[\"'`]")
    return f"{lookup}|\\$\\{{{name}:-?(?P<code_nm_env_shellv>[^\\s{{}}\"'`$]{{4,200}})\\}}"


def _names() -> str:
    """Only the spellings the prose grammar (``secret_named.said``) misses: "password:" is its, and a value
    both found costs a redaction twice the work."""
    broken = r"-\r?\n[ \t]*"  # a name hyphenated at a line's end
    parted = [f"pass(?:[_.-]|{broken})(?:word|wd|phrase)", f"(?:api|access|auth|secret|private|client){broken}"
              r"(?:key|secret|token)"]
    words = ["password", "passwd", "passphrase", "pwd", "pw", "secret", "token",
             r"(?:api|access|auth|secret|private|client)[_.-]?(?:key|secret|token)"]
    glued = ["pw", "pwd", "passwd", "password"]
    camel = ["Pass(?:[_.-]?[Ww]ord|wd|phrase)?", "PASS(?:WORD|WD)?", "Pwd", "PWD", "Pw", "PW", "Secret", "SECRET",
             "Token", "TOKEN", "(?:Api|API|Access|Auth|Private|Client)(?:Key|Secret|Token)"]
    # the name's end written out after each word: a cover (``regex_cover``) reads what may follow a word
    # only so ("5 passed", "upward" hold none)
    end = r"(?:[_.-]?\d{1,3})?[\"']?[ \t]*(?::=|=>|=|:)"
    numbered = r"[_.-]?\d{1,3}[\"']?[ \t]*(?::=|=>|=|:)"
    head = r"(?:[A-Za-z0-9]+[_.-])*"
    name = (f"{head}(?:{'|'.join(w + end for w in parted)}|{'|'.join(w + numbered for w in words)})"
            f"|{head}[A-Za-z0-9]*[a-z0-9](?:{'|'.join(w + end for w in glued)})"
            f"|{head}[A-Za-z0-9]*(?-i:[a-z0-9])(?-i:{'|'.join(w + end for w in camel)})"
            # "pass" glued after a user's word ("userpass", not "compass"); a word and an environment's
            # ("pwd_prod", "password-staging")
            f"|{head}(?:user|usr|admin|root|db|login|sys)pass{end}"
            f"|{head}(?:password|passwd|pwd|pw|pass)[_.-](?:prod|production|dev|stage|staging|test|qa|uat|live"
            f"|local|new|old|admin|root|db|main|primary|backup|default|temp|tmp){end}")
    # a Java system property's name after -D ("-Djavax.net.ssl.keyStorePassword=X")
    return (f"(?i)(?:^|[^\\w.$@/\\\\-]|(?:^|[ \\t\"'(])-D)[\"']?(?:{name})[ \\t]*"
            r"[\"'`]?(?P<code_nm_namev>" f"{_VALUE})")


# A generated key's run after a name for a key: whole (to a quote, white space, "," ";" "}" "]" or the line's end),
# perhaps after Laravel's "base64:" (``APP_KEY=base64:...``).
_KEY_RUN = r"[\"'`]?(?:base64:)?(?P<%s>[A-Za-z0-9+/=_.-]{16,})(?:[\"'`\s,;}\]]|$)"


def _keys() -> str:
    """A value read as a generated key (``secret_values.generated_key``) under a document's name ``key`` alone,
    the name a line's or an object's first (``{"username": "u", "key": "..."}`` of kaggle.json, TOML's ``key =
    "..."``, YAML's ``key: ...``), or one mixing cases (``secret_values.key_shaped``) under a name ending in
    ``Key`` or ``_key`` (``jwtSigningKey: ...``, ``HMAC_KEY=...``) but a published key's (``_PUBLIC_NAME``);
    "sort key: created_at" and "primary key = id" hold no such value."""
    bare = (r"(?i)(?:^|[{,\[])[ \t]*(?:-[ \t]+)?[\"']?key[\"']?[ \t]*(?::=|=>|=|:)[ \t]*"
            + _KEY_RUN % "code_key_barev")
    named = (r"(?:^|[^\w.$@/\\-])[\"']?(?:[A-Za-z0-9]+[_.-])*(?:[A-Za-z0-9]*[a-z0-9](?:Key|KEY)"
             r"|[A-Za-z0-9]+[_.-](?i:key))[\"']?[ \t]*(?::=|=>|=|:)[ \t]*" + _KEY_RUN % "code_key_namev")
    return f"{bare}|{named}"


def _logins() -> str:
    """A key given as the argument of a command logging in (``wandb login KEY``, ``wandb login --relogin KEY``,
    ``snyk auth TOKEN``, ``ngrok authtoken TOKEN``, ``ngrok config add-authtoken TOKEN``, ``doctl auth init
    TOKEN``), its flags without values or with ``=`` skipped: judged as a generated key, a UUID too after
    ``auth``; and a token a command printed (``heroku auth:token``, ``gcloud auth print-access-token``) on one of
    the three lines after it, alone on its line."""
    command = r"(?P<login>log-?in)|auth(?:[ \t]+(?:login|init|add|set))?|(?:add-)?auth-?token"
    # a command that prints a token, its output within the next three lines (after a warning): ``heroku auth:token``
    prints = r"auth[: \t]token|print-(?:access|identity)-token|get-login-password|print[ \t]+token"
    return (r"(?i)(?:^|[\s;&|(`$])(?:" + command + r")(?:[ \t]+--?[\w-]+(?:=[^\s\"']*)?)*[ \t]+[\"']?"
            r"(?P<code_login_v>[A-Za-z0-9_+/=.-]{20,})[\"']?(?:\s|$)"
            r"|(?i)(?:" + prints + r")\b[^\n]*\n(?:[^\n]*\n){0,2}?[ \t]*(?P<code_login_printedv>[A-Za-z0-9_+/=.-]{20,})"
            r"[ \t]*$")


def _one_letter() -> str:
    user = r"[\"']?(?:u|usr|user|username|login|email)[\"']?[ \t]*[:=][ \t]*"
    password = r"[\"']?p[\"']?[ \t]*[:=][ \t]*[\"'](?P<code_pw_p%sv>[^\"'\n]{4,200})[\"']"
    return (f"(?i)[{{(,][ \\t]*{password % 1}[^{{}}()\\n]{{0,200}}?,[ \\t]*{user}"
            f"|[{{(,][ \\t]*{user}(?:{_LIT}|[\\w.$]+)[^{{}}()\\n]{{0,200}}?,[ \\t]*{password % 2}")


def code_sources() -> list[str]:
    """The RE2 sources of this module's patterns (each its own; ``secret_named.named_sources`` adds them)."""
    return [_sql(), _settings(), _flags(), _stdin(), _stores(), _inserts(), _pairs(), _dsn(), _calls(), _names(),
            _env_defaults(), _one_letter(), _procedures(), _procedure_old(), _echoed_file(), _keys(), _logins()]


_UNFLAGGED = re.compile(r"--?no-", re.IGNORECASE)  # "--no-password": a switch, not a value's flag
# A shell's or a template's expansion in a literal: "$(cat key2)", "${{ secrets.TOKEN }}", "%API_KEY%".
_EXPANDED = re.compile(r"\$[({]|\{\{|%\w+%")
# A name for a key that is published: a public key, a verifying one, reCAPTCHA's site key.
_PUBLIC_NAME = re.compile(r"(?i)pub|site|verif")
# A type's name (PascalCase words and digits): unquoted after ``key:`` it is an annotation, ``key: Ed25519PrivateKey``.
# A random key of mixed cases reads so about 1 time in 8 (a lower-case letter never after a digit, nor first).
_TYPE_NAME = re.compile(r"(?:[A-Z][a-z]*|[0-9]+)+")
_UUID = re.compile(r"[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}")
_SPEC = re.compile(r"[\w.-]+=")  # a flag's key=value spec: docker build's "--secret id=npmrc2,src=..."
_LAST_PART = re.compile(r"([\w$]+)[^\w$]*$")


def code_values(name: str, value: str, match: Any) -> Iterator[tuple[str | None, str]]:
    """``(kind, value)`` of a match of :func:`code_sources` whose group ``name`` holds ``value``: a quoted
    literal (``*q``) whole, another (``*v``) when ``secret_values.named_value_kept`` keeps it; a password
    (``code_pw_*``) or named by the words before it (``secret_kinds.named_kind``, a name broken over lines
    read joined)."""
    start, at = match.start(), match.start(match.lastindex)
    before = match.string[start:at]
    if name.startswith("code_login_"):  # a UUID after "login" in prose is an id; a CLI's auth takes one (snyk, heroku)
        uuid = match.group("login") is None and _UUID.fullmatch(value)
        if generated_key(value) or uuid:
            kind = named_kind(before)
            yield ("API key" if kind == "credential" else kind), value
        return
    if name.startswith("code_key_"):
        # under "key" alone any generated key; a name's "Key" says less ("cacheKey: <md5>"): mixed cases only
        judged = generated_key if name == "code_key_barev" else key_shaped
        typed = match.string[at - 1:at] not in ("\"", "'", "`") and _TYPE_NAME.fullmatch(value)
        if judged(value) and not typed and not _PUBLIC_NAME.search(before):
            kind = named_kind(before)
            yield ("secret key" if kind == "credential" else kind), value
        return
    if name.startswith("code_nm_flag") and _UNFLAGGED.search(before):
        return
    if name.endswith("q") and _EXPANDED.search(value):
        return
    if name.startswith(("code_nm_flag", "code_nm_set")) and _SPEC.match(value):
        return
    if name.startswith("code_nm_name"):  # the name assigned is the last part ("this.token = ..."'s "token")
        start += _LAST_PART.search(before).start(1)  # type: ignore[union-attr]  # the pattern ends with one
    judged = "spaced" if name.endswith("s") else ""  # standing by a user or in a row: shaped like a password
    if not name.endswith("q") and not named_value_kept(judged, value, match.string, start, at):
        return
    if name.startswith("code_pw_"):
        yield "password", value
    else:
        yield named_kind(re.sub(r"-\r?\n[ \t]*", "", before)), value
