"""``memvault ui`` as a command: it prints its URL with a one-time token, binds loopback only, and
refuses a database that is not there."""

from __future__ import annotations

import http.client
import subprocess
import sys
from urllib.parse import urlsplit

import pytest
from conftest import server_env

from memvault.server import cli
from memvault.storage.store import Store


@pytest.fixture
def existing(db_path):
    Store(db_path).close()  # an empty database: no model needed
    return db_path


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.10", "example.com", "::"])
def test_a_host_off_loopback_is_refused_before_anything_listens(existing, capsys, host):
    assert cli.main(["ui", "--db", str(existing), "--host", host, "--no-browser"]) == 2
    err = capsys.readouterr().err
    assert f"--host: {host!r} is not a loopback address" in err and "docs/ui.md#security" in err


def test_a_database_that_is_not_there_is_named(tmp_path, capsys):
    assert cli.main(["ui", "--db", str(tmp_path / "none.db"), "--no-browser"]) == 1
    assert "no database at" in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists()


@pytest.mark.slow
def test_the_printed_url_opens_the_page_once_its_token_is_exchanged_for_a_cookie(existing):
    proc = subprocess.Popen([sys.executable, "-m", "memvault.server", "ui", "--no-browser"],
                            env=server_env(existing), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        url = urlsplit(proc.stdout.readline().strip())
        assert url.scheme == "http" and url.hostname == "127.0.0.1" and url.query.startswith("token=")
        assert len(url.query) > len("token=") + 40  # secrets.token_urlsafe(32)

        def get(target: str, cookie: str | None = None) -> tuple[int, dict[str, str], str]:
            conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
            try:
                conn.request("GET", target, headers={"Cookie": cookie} if cookie else {})
                answer = conn.getresponse()
                return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read().decode()
            finally:
                conn.close()

        assert get("/")[0] == 403
        status, headers, _ = get(f"/?{url.query}")
        assert status == 303 and headers["location"] == "/"
        cookie = headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie
        status, headers, body = get("/", cookie.split(";")[0])
        assert status == 200 and headers["cache-control"] == "no-store" and "<title>Memories" in body
        assert url.query.split("=", 1)[1] not in cookie  # the cookie holds no token
        status, headers, _ = get(f"//evil.example/?{url.query}")  # never a redirect to another site
        assert status == 303 and headers["location"] == "/evil.example/"
    finally:
        proc.terminate()
        proc.wait(30)
        proc.stdout.close()
        proc.stderr.close()
