"""A PostgreSQL password never leaves memvault: every way libpq takes a secret (the URL's
userinfo, ``password`` / ``sslpassword`` query parameters in any case, encoding or number,
a key=value string) is masked in every place that shows the database: ``stats``, the
serve log line, the connection error, config errors."""

from __future__ import annotations

import subprocess

import pytest
from conftest import SERVE, server_env

from memvault.server import cli, config
from memvault.storage.errors import StoreError
from memvault.storage.location import redacted, scrubbed

SECRET = "s3cretPW"

pytestmark = pytest.mark.usefixtures("one_model")  # the packaged model loaded once (conftest)


@pytest.mark.parametrize(("given", "shown"), [
    ("postgresql://postgres@/postgres?host=/tmp/pg&password=s3cretPW",
     "postgresql://postgres@/postgres?host=/tmp/pg&password=***"),
    ("postgresql://u:s3cretPW@db.example:5433/m?sslmode=require", "postgresql://u:***@db.example:5433/m?sslmode=require"),
    ("postgres://u:s3cretPW@[::1]:5432,h2:6/m", "postgres://u:***@[::1]:5432,h2:6/m"),
    ("postgresql:///m?PassWord=s3cretPW&user=u", "postgresql:///m?PassWord=***&user=u"),
    ("postgresql:///m?pass%77ord=s3cretPW", "postgresql:///m?pass%77ord=***"),
    ("postgresql:///m?password=s3cretPW&password=s3cretPW", "postgresql:///m?password=***&password=***"),
    ("postgresql:///m?sslpassword=s3cretPW&SSLPASSWORD=s3cretPW", "postgresql:///m?sslpassword=***&SSLPASSWORD=***"),
    ("postgresql:///m?oauth_client_secret=s3cretPW", "postgresql:///m?oauth_client_secret=***"),
    ("postgresql:///m?password=s3cret&PW&sslmode=require", "postgresql:///m?password=***&***&sslmode=require"),
    ("postgresql://u:s3cret%40PW@h/m", "postgresql://u:***@h/m"),
    ("postgresql://u:s3cret?PW@h/m", "postgresql://u:***@h/m"),
    ("postgresql://u:s3cret@PW@h/m", "postgresql://u:***@h/m"),
    ("host=/tmp/pg password=s3cretPW dbname=m", "host=/tmp/pg password=*** dbname=m"),
    ("host=/tmp/pg password = 's3cret\\' PW' user=u", "host=/tmp/pg password = *** user=u"),
    ("mysql://u:s3cretPW@h/m", "mysql://u:***@h/m"),
    # A password typed without a host reads as a port; one holding "@", "?", "/", "&".
    ("postgresql://alice:s3cretPW/m", "postgresql://alice:***/m"),
    ("postgresql://alice:s3cretPW", "postgresql://alice:***"),
    ("postgresql://alice:s3cretPW,h2:5432/m", "postgresql://alice:***,h2:5432/m"),
    ("postgresql://u:Summer@s3cret@localhost/m", "postgresql://u:***@localhost/m"),
    ("postgresql://u:s3cret@ss:w/rd?x=1&y@/m?host=/tmp/pg", "postgresql://u:***@/m?host=/tmp/pg"),
])
def test_every_form_of_a_password_is_masked(given, shown):
    assert redacted(given) == shown
    assert "s3cret" not in redacted(given)


@pytest.mark.parametrize(("given", "shown"), [
    ("postgresql://postgres:@h/m", "postgresql://postgres:@h/m"),
    ("postgresql://postgres@h/m?password=", "postgresql://postgres@h/m?password="),
    ("postgresql://h/m?sslmode=require", "postgresql://h/m?sslmode=require"),
    ("postgresql://h:5432,h2:5433/m", "postgresql://h:5432,h2:5433/m"),
    ("postgresql://[::1]:5432/m", "postgresql://[::1]:5432/m"),
    ("postgresql://alice@/m?host=/tmp&password=&x=a@b", "postgresql://alice@/m?host=/tmp&password=&x=a@b"),
    ("/home/me/memvault.db", "/home/me/memvault.db"),
])
def test_stars_stand_only_for_a_password_that_is_there(given, shown):
    assert redacted(given) == shown


@pytest.mark.parametrize("url", ["postgresql:///m?password=s3cret%zzPW", "postgresql://u:s3cret%zzPW@h/m",
                                 "postgresql:///m?password=s3cret%40PW"])
def test_a_driver_message_quoting_the_password_is_scrubbed(url):
    raw = url.split("=")[-1] if "?" in url else url.split(":")[2].split("@")[0]
    message = f'invalid percent-encoded token: "{raw}" / decoded "{raw.replace("%40", "@")}"'
    assert "s3cret" not in scrubbed(message, url)


def test_a_key_value_string_is_refused_by_the_settings_without_its_password(monkeypatch):
    monkeypatch.delenv("MEMVAULT_DB", raising=False)
    with pytest.raises(ValueError, match="key=value connection string") as caught:
        config.load(db=f"host=/tmp/pg password={SECRET} dbname=m")
    assert SECRET not in str(caught.value) and "password=***" in str(caught.value)


def test_a_malformed_url_is_a_clear_error_without_the_password():
    from memvault.storage.postgres import PostgresBackend

    for url in (f"postgresql:///m?host=/nonexistent&password={SECRET}%zz", f"postgresql://u:{SECRET}%zz@/m",
                f"postgresql:///m?host=/nonexistent&PASSWORD={SECRET}"):
        with pytest.raises(StoreError, match="not a valid PostgreSQL URL") as caught:
            PostgresBackend(url)
        assert SECRET not in str(caught.value)


@pytest.mark.parametrize("form", ["query", "userinfo", "sslpassword"])
def test_the_connection_error_of_the_cli_never_shows_the_password(capsys, form):
    url = {"query": f"postgresql://postgres@/postgres?host=/nonexistent/pg&password={SECRET}",
           "userinfo": f"postgresql://postgres:{SECRET}@/postgres?host=/nonexistent/pg",
           "sslpassword": f"postgresql://postgres@/postgres?host=/nonexistent/pg&sslpassword={SECRET}"}[form]
    code = cli.main(["remember", "The gateway timeout is 90 s", "--db", url])
    out, err = capsys.readouterr()
    assert code == 1 and "cannot connect to PostgreSQL at postgresql://postgres" in err
    assert SECRET not in out + err and "***" in err


@pytest.fixture
def password_url(pg_server, pg_url):
    """``pg_url`` for a role (an administrator: it makes memvault's schema) that must give its
    password (scram-sha-256), the password in the URL's query string."""
    if pg_server.data is None:
        pytest.skip("needs the test server's pg_hba.conf")
    hba = pg_server.data / "pg_hba.conf"
    original = hba.read_text()
    pg_server.admin("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'memvault_owner_pw') THEN"
                    f" CREATE ROLE memvault_owner_pw SUPERUSER LOGIN PASSWORD '{SECRET}'; END IF; END $$")
    name = pg_server.dbname(pg_url)
    hba.write_text("local all memvault_owner_pw scram-sha-256\n" + original)
    pg_server.reload()
    url = pg_server.url(name, user="memvault_owner_pw")  # no password: it goes in the query string below
    try:
        yield url + ("&" if "?" in url else "?") + f"password={SECRET}"
    finally:
        hba.write_text(original)
        pg_server.reload()


def test_the_owner_connects_with_a_password_in_the_query_and_stats_never_shows_it(password_url, pg_server, capsys):
    wrong = password_url.replace(SECRET, "wrong-" + SECRET)
    assert cli.main(["remember", "The gateway timeout is 90 s", "--db", wrong]) == 1
    out, err = capsys.readouterr()
    assert "wrong user name or password" in err and SECRET not in out + err
    assert cli.main(["remember", "The gateway timeout is 90 s", "--db", password_url]) == 0
    for argv in (["stats"], ["stats", "--json"], ["doctor"], ["doctor", "--json"]):
        cli.main([*argv, "--db", password_url])
        out, err = capsys.readouterr()
        assert argv == ["doctor"] or "password=***" in out, argv  # doctor's text names no database
        assert SECRET not in out + err, argv


def test_the_serve_log_line_never_shows_the_password(tmp_path):
    url = f"postgresql://postgres@/postgres?host=/nonexistent/pg&password={SECRET}"
    proc = subprocess.run(SERVE, env=server_env(tmp_path / "unused.db", MEMVAULT_DB=url), stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120)
    assert "serving MCP on stdio (database postgresql://postgres@/postgres?host=/nonexistent/pg&password=***" \
        in proc.stderr
    assert SECRET not in proc.stdout + proc.stderr


def test_the_http_server_log_healthz_and_503_never_show_the_password(tmp_path):
    import httpx2
    from httpwire import PING, HttpServer

    url = f"postgresql://postgres@/postgres?host=/nonexistent/pg&password={SECRET}"
    s = HttpServer(tmp_path / "unused.db", ready=False, logs=tmp_path, MEMVAULT_DB=url)
    try:
        health = httpx2.get(f"{s.base}/healthz", timeout=10)
        refused = s.post("mv_any_key", PING)
        log = s.log()
    finally:
        s.close()
    assert "database postgresql://postgres@/postgres?host=/nonexistent/pg&password=***)" in log
    for text in (health.text, refused.text, log):
        assert SECRET not in text


@pytest.mark.parametrize(("url", "message"), [
    # libpq ends the userinfo at the first "@": the rest of the password is its "host".
    ("postgresql://alice:Summer@s3cret@localhost/m", "failed to resolve host 's3cret@localhost'"),
    # Without a host, the password is libpq's "port".
    ("postgresql://alice:s3cretPW/m", 'invalid integer value "s3cretPW" for connection option "port"'),
])
def test_the_parts_of_a_password_that_libpq_reads_as_host_or_port_are_scrubbed(url, message):
    assert "s3cret" not in scrubbed(message, url) and "***" in scrubbed(message, url)
