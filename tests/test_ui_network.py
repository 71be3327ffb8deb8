"""`memvault ui --allow-network`: signed in with the team server's API keys (or OAuth tokens), each
session sees and changes its key's tenant only; a read-only key changes nothing, a wrong key signs
nobody in, a revoked key's session ends, an expired JWT's too; it does not start without
authentication configured, nor off loopback without the flag. Real HTTP (uvicorn on loopback, requests
as a TLS proxy forwards them: Host and Origin of the public address), one server for the module."""

from __future__ import annotations

import logging
import re
import secrets
import socket
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any

import httpx2
import jwt
import pytest
from test_oauth import ISSUER, KID, Issuer
from uiserver import browser, listening, shoot

from memvault.server import cli
from memvault.server.auth import CLOCK_SKEW_S
from memvault.server.config import Config, HttpConfig
from memvault.server.http import CONNECTIONS_PER_ADDRESS, FAILED_AUTH_PER_MINUTE, RateLimiter
from memvault.server.runtime import Runtime
from memvault.server.web import running
from memvault.server.web.app import build
from memvault.server.web import login
from memvault.server.web.login import COOKIE, FORM_COOKIE, network
from memvault.storage import embeddings, keys
from memvault.storage.errors import InvalidInput
from memvault.storage.records import NewTurn
from memvault.storage.store import Store
from memvault.tools import handlers
from memvault.tools.caller import Caller

pytestmark = pytest.mark.slow
HOST = "memory.example.com"
ORIGIN = f"https://{HOST}"
ACME, ZETA = Caller(tenant="acme", scope="default"), Caller(tenant="zeta", scope="default")


class Person:
    """One browser behind the TLS proxy: Host and Origin of the public address; the session cookie is
    kept by hand (it is Secure: a cookie jar returns it over https only)."""

    def __init__(self, base: str) -> None:
        self.http = httpx2.Client(base_url=base, headers={"host": HOST}, timeout=30)
        self.cookie = ""
        self.form = ""  # the sign-in page's cookie
        self.csrf = ""

    def cookies(self) -> dict[str, str]:
        given = "; ".join(c for c in (self.cookie, self.form) if c)
        return {"cookie": given} if given else {}

    def get(self, path: str) -> httpx2.Response:
        answer = self.http.get(path, headers=self.cookies())
        self.csrf = next(iter(re.findall(r'name="csrf" value="(\w+)"', answer.text)), self.csrf)
        self.form = next((c.split(";")[0] for c in answer.headers.get_list("set-cookie")
                          if c.startswith(f"{FORM_COOKIE}=")), self.form)
        return answer

    def post(self, path: str, **form: str) -> httpx2.Response:
        return self.http.post(path, data={"csrf": self.csrf, **form},
                              headers={"origin": ORIGIN, **self.cookies()})

    def sign_in(self, key: str) -> httpx2.Response:
        self.get("/login")
        answer = self.post("/login", token=key)
        given = [c for c in answer.headers.get_list("set-cookie") if c.startswith(f"{COOKIE}=")]
        if given:
            self.cookie, self.form = given[0].split(";")[0], ""
        return answer


@pytest.fixture
def people():
    """``people(base)``: a new :class:`Person`; their connections closed after the test."""
    made: list[Person] = []

    def person(base: str) -> Person:
        made.append(Person(base))
        return made[-1]

    yield person
    for one in made:
        one.http.close()


@contextmanager
def attempts(logins: Any, counted: int, address: str = "127.0.0.1") -> Iterator[RateLimiter]:
    """``logins``' sign-in limit, ``counted`` attempts from ``address`` made, not refilled in the block."""
    kept, logins.attempts = logins.attempts, RateLimiter(FAILED_AUTH_PER_MINUTE, clock=lambda: 0.0)
    try:
        for _ in range(counted):
            logins.attempts.wait_s(address)
        yield logins.attempts
    finally:
        logins.attempts = kept


def shared_model(monkeypatch: pytest.MonkeyPatch, real_embedder: Any) -> None:
    """The session's loaded model for the UI's Runtime (as conftest's one_model, for a module)."""
    monkeypatch.setattr(embeddings, "Embedder", lambda model_dir=None: real_embedder)


@pytest.fixture(scope="module")
def net(tmp_path_factory: pytest.TempPathFactory, real_embedder):
    db = tmp_path_factory.mktemp("uinet") / "memvault.db"
    made = Store(db, None)
    try:
        made_keys = {name: keys.create(made, tenant, read_only=name == "reader")
                     for name, tenant in (("acme", "acme"), ("zeta", "zeta"), ("reader", "acme"),
                                          ("revoked", "acme"))}
    finally:
        made.close()
    with pytest.MonkeyPatch.context() as patch:
        shared_model(patch, real_embedder)
        runtime = Runtime(Config(db=db), authenticated=True)
        http = HttpConfig(allowed_hosts=(HOST,), allowed_origins=(ORIGIN,))
        logins = network(runtime, http)
        with listening(lambda _: build(runtime, secrets.token_urlsafe(32), [], lambda _: running(runtime),
                                       logins)) as port:
            store = runtime.store()
            ids = {"acme": handlers.remember(store, ACME, content="Acme ships the rocket on Tuesday").id,
                   "zeta": handlers.remember(store, ZETA, content="Zeta keeps the recipe in vault 7").id}
            yield SimpleNamespace(base=f"http://127.0.0.1:{port}", store=store, ids=ids, runtime=runtime,
                                  logins=logins, port=port,
                                  keys={name: key for name, (_, key) in made_keys.items()},
                                  key_ids={name: record.id for name, (record, _) in made_keys.items()})


def test_two_keys_of_two_tenants_each_see_their_own_memories_only(net, people):
    for tenant, mine, theirs in (("acme", "rocket", "recipe"), ("zeta", "recipe", "rocket")):
        person = people(net.base)
        signed = person.sign_in(net.keys[tenant])
        assert signed.status_code == 303 and signed.headers["location"] == "/"
        cookie = signed.headers["set-cookie"]
        assert "HttpOnly" in cookie and "Secure" in cookie and "SameSite=strict" in cookie
        assert net.keys[tenant] not in cookie  # a random session id, never the key
        listing = person.get("/")
        assert listing.status_code == 200 and mine in listing.text and theirs not in listing.text
        assert f"tenant <code>{tenant}</code>" in listing.text
        found = person.get(f"/?q={mine}")
        assert mine in found.text and theirs not in found.text
        assert person.get(f"/memories/{net.ids[tenant]}").status_code == 200
        stats = person.get("/stats").text  # its own counts; nothing of the whole database
        assert "<td>fact</td><td>1</td>" in stats and "vectors pending" not in stats and str(net.base) not in stats
        assert "last consolidation" not in stats  # the whole database's too


def test_a_real_browser_signs_in_with_a_key_and_keeps_only_a_secure_session_cookie(net):
    with browser() as chromium:
        context = chromium.new_context()
        page = context.new_page()
        page.goto(net.base)  # a loopback address: the team server's hosts and origins allow it
        assert page.url == f"{net.base}/login"
        shoot(page, "login")
        page.fill("input[name=token]", net.keys["acme"])
        with page.expect_navigation():
            page.click("button:text('Sign in')")
        assert page.url == f"{net.base}/" and "rocket" in page.inner_text("ol.memories")
        assert "recipe" not in page.content() and net.keys["acme"] not in page.content()
        [cookie] = context.cookies()
        assert (cookie["name"], cookie["secure"], cookie["httpOnly"], cookie["sameSite"]) == \
            (COOKIE, True, True, "Strict")
        with page.expect_navigation():
            page.click("button:text('Sign out')")
        assert page.url == f"{net.base}/login"  # the sign-in page's own cookie again, no session's:
        assert [c["name"] for c in context.cookies()] == [FORM_COOKIE]
        context.close()


def test_another_tenants_memory_is_not_found_by_url_and_cannot_be_changed(net, people):
    person = people(net.base)
    person.sign_in(net.keys["acme"])
    theirs = net.ids["zeta"]
    for path in (f"/memories/{theirs}", f"/memories/{theirs}/forget"):
        answer = person.get(path)
        assert answer.status_code == 404 and "recipe" not in answer.text
    person.get("/")
    assert person.post(f"/memories/{theirs}/forget").status_code == 404
    assert net.store.get(tenant="zeta", id=theirs).content == "Zeta keeps the recipe in vault 7"


def test_a_read_only_key_sees_the_pages_and_every_change_is_refused(net, people):
    person = people(net.base)
    person.sign_in(net.keys["reader"])
    mine = net.ids["acme"]
    page = person.get(f"/memories/{mine}")
    assert page.status_code == 200 and "rocket" in page.text and "read-only" in page.text
    assert f'action="/memories/{mine}/' not in page.text and "/forget" not in page.text  # no control offered
    asked = person.get(f"/memories/{mine}/forget")  # the confirmation page opened by its address
    assert asked.status_code == 200 and "Forget for good" not in asked.text and "read-only" in asked.text
    before = handlers.memory_view(net.store, ACME, mine)
    for action, form in (("supersede", {"content": "Acme ships on Wednesday"}), ("confirm", {}),
                         ("forget", {})):
        answer = person.post(f"/memories/{mine}/{action}", **form)
        assert answer.status_code == 403 and "memvault:write" in answer.text and "nothing" in answer.text
    assert handlers.memory_view(net.store, ACME, mine) == before


def test_a_wrong_key_signs_nobody_in_and_is_never_echoed_or_logged(net, caplog, people):
    person = people(net.base)
    for wrong, says in (("mvk_" + secrets.token_urlsafe(32), "unknown key"),
                        ("hunter2-" + secrets.token_urlsafe(8), "not a memvault API key")):
        with caplog.at_level(logging.INFO):
            answer = person.sign_in(wrong)
        assert answer.status_code == 401 and says in answer.text and "not signed in" in answer.text
        assert wrong not in answer.text and wrong not in caplog.text
        assert "set-cookie" not in answer.headers
    assert person.get("/").status_code == 303  # still to the sign-in page


def test_a_revoked_keys_session_ends_at_its_next_request(net, people):
    person = people(net.base)
    person.sign_in(net.keys["revoked"])
    assert person.get("/").status_code == 200
    keys.revoke(net.store, net.key_ids["revoked"])
    before = handlers.memory_view(net.store, ACME, net.ids["acme"])
    refused = person.post(f"/memories/{net.ids['acme']}/confirm")
    assert refused.status_code == 401 and "revoked" in refused.text and "rocket" not in refused.text
    assert handlers.memory_view(net.store, ACME, net.ids["acme"]) == before
    assert person.get("/").status_code == 303  # the session is gone
    assert person.sign_in(net.keys["revoked"]).status_code == 401


def test_sign_out_ends_the_session(net, people):
    person = people(net.base)
    person.sign_in(net.keys["acme"])
    person.get("/")
    out = person.post("/logout")
    assert out.status_code == 303 and out.headers["location"] == "/login"
    assert person.get("/").status_code == 303  # the old cookie opens nothing


def test_host_origin_csrf_and_plain_http_are_refused_at_sign_in(net, people):
    person = people(net.base)
    answer = person.http.get("/login", headers={"host": "evil.example"})
    assert answer.status_code == 421
    person.get("/login")
    key = net.keys["acme"]
    for headers, says in (({"origin": "https://evil.example"}, "Wrong origin"),
                          ({"origin": f"http://{HOST}"}, "Sign in over https")):
        answer = person.http.post("/login", data={"csrf": person.csrf, "token": key},
                                  headers={**headers, **person.cookies()})
        assert answer.status_code == 403 and says in answer.text and "set-cookie" not in answer.headers
    forged = person.http.post("/login", data={"csrf": "0" * 64, "token": key},
                              headers={"origin": ORIGIN, **person.cookies()})
    assert forged.status_code == 403 and "set-cookie" not in forged.headers


def test_failed_sign_ins_are_limited_per_address(net, people):
    person = people(net.base)
    with attempts(net.logins, FAILED_AUTH_PER_MINUTE - 1):  # 59 counted already for this address
        person.get("/login")
        statuses = [person.post("/login", token="mvk_wrong").status_code for _ in range(2)]
        assert statuses == [401, 429]  # the 60th is checked and counted, the 61st refused
        assert person.sign_in(net.keys["acme"]).status_code == 429  # the right key too, until it refills


def test_a_jwt_session_ends_when_the_token_expires(tmp_path, monkeypatch, real_embedder, people):
    shared_model(monkeypatch, real_embedder)
    Store(tmp_path / "memvault.db", None).close()
    issuer = Issuer()
    try:
        http = HttpConfig(auth="oauth", issuer=ISSUER, resource=f"{ORIGIN}/mcp", jwks_url=issuer.jwks_url,
                          tenant_claim="org", allowed_hosts=(HOST,), allowed_origins=(ORIGIN,))
        runtime = Runtime(Config(db=tmp_path / "memvault.db"), authenticated=True)
        logins = network(runtime, http)
        with listening(lambda _: build(runtime, "t", [], lambda _: running(runtime), logins)) as port:
            ends = time.time() + 4.0  # fractional (RFC 7519 §2 allows it); room for signing in on a loaded machine
            # a token is served up to CLOCK_SKEW_S past its exp (the issuer's clock may run behind)
            token = jwt.encode({"iss": ISSUER, "aud": f"{ORIGIN}/mcp", "sub": "u", "iat": int(time.time()) - 120,
                                "exp": ends - CLOCK_SKEW_S, "org": "acme", "scope": "memvault:read"}, issuer.key,
                               algorithm="RS256", headers={"kid": KID})
            person = people(f"http://127.0.0.1:{port}")
            assert person.sign_in(token).status_code == 303
            assert "tenant <code>acme</code>" in person.get("/").text
            time.sleep(max(0.0, ends + 0.05 - time.time()))
            ended = person.get("/")
            assert ended.status_code == 401 and "token expired" in ended.text
    finally:
        issuer.close()


def test_without_authentication_configured_it_does_not_start(tmp_path, capsys):
    db = tmp_path / "memvault.db"
    Store(db, None).close()
    args = ["ui", "--db", str(db), "--no-browser", "--allow-network", "--host", "0.0.0.0"]
    assert cli.main(args) == 2
    assert "no API key in force" in capsys.readouterr().err  # names `memvault keys create`
    assert cli.main([*args[:-2], "--auth", "none"]) == 2
    assert "--auth keys" in capsys.readouterr().err
    assert cli.main([*args, "--auth", "oauth"]) == 2
    assert "--oauth-issuer" in capsys.readouterr().err
    made = Store(db, None)
    try:
        keys.create(made, "acme")
    finally:
        made.close()
    for more in ([], ["--allowed-host", "memory.example.com"], ["--port", "8799"]):  # the proxy needs both
        assert cli.main([*args, *more]) == 2
        assert "--allowed-host NAME (the address people open) and --port P" in capsys.readouterr().err


def test_off_loopback_without_the_flag_it_does_not_start(tmp_path, capsys):
    db = tmp_path / "memvault.db"
    made = Store(db, None)
    keys.create(made, "acme")
    made.close()
    assert cli.main(["ui", "--db", str(db), "--no-browser", "--host", "0.0.0.0"]) == 2
    assert "--allow-network" in capsys.readouterr().err
    assert cli.main(["ui", "--db", str(db), "--no-browser", "--auth", "keys"]) == 2
    assert "with --allow-network only" in capsys.readouterr().err



def test_x_forwarded_for_neither_dodges_the_sign_in_limit_nor_locks_another_address_out(net, people):
    person = people(net.base)
    person.get("/login")
    with attempts(net.logins, FAILED_AUTH_PER_MINUTE - 1) as limit:
        statuses = [person.http.post("/login", data={"csrf": person.csrf, "token": "mvk_wrong"},
                                     headers={"origin": ORIGIN, "x-forwarded-for": f"10.9.9.{n}",
                                              **person.cookies()}).status_code for n in range(2)]
        assert statuses == [401, 429]  # both counted against the peer, 127.0.0.1
        assert limit.wait_s("10.9.9.0", count=False) == 0  # the address named is not locked out


def test_concurrent_sign_ins_are_counted_before_any_is_verified(net, people):
    crowd = [people(net.base) for _ in range(12)]
    for one in crowd:
        one.get("/login")
    with attempts(net.logins, FAILED_AUTH_PER_MINUTE - 3):
        with ThreadPoolExecutor(len(crowd)) as pool:
            answers = pool.map(lambda one: one.post("/login", token="mvk_" + "x" * 43).status_code, crowd)
            statuses = list(answers)
    assert sorted(statuses) == [401] * 3 + [429] * 9


def test_sign_ins_hold_sessions_per_key_and_a_full_table_ends_nobody_elses(net, people, monkeypatch):
    zeta = people(net.base)
    acme = [people(net.base) for _ in range(login.SESSIONS_PER_IDENTITY + 1)]
    with attempts(net.logins, 0):
        assert zeta.sign_in(net.keys["zeta"]).status_code == 303
        assert {one.sign_in(net.keys["acme"]).status_code for one in acme} == {303}
        assert acme[0].get("/").status_code == 303  # the key's own oldest session ended
        assert {one.get("/").status_code for one in [zeta, *acme[1:]]} == {200}
        monkeypatch.setattr(login, "SESSIONS_MAX", 1)  # full
        refused = people(net.base).sign_in(net.keys["reader"])
        assert refused.status_code == 503 and "sessions are in use" in refused.text
        assert "set-cookie" not in refused.headers or COOKIE not in refused.headers["set-cookie"]
    assert {one.get("/").status_code for one in [zeta, *acme[1:]]} == {200}


def test_the_sign_in_forms_token_is_each_visitors_and_needs_its_cookie(net, people):
    one, other = people(net.base), people(net.base)
    shown = one.get("/login")
    other.get("/login")
    assert one.csrf != other.csrf and one.form and one.form != other.form
    assert 'href="/review"' not in shown.text  # no navigation before a sign-in
    attributes = next(c for c in shown.headers.get_list("set-cookie") if c.startswith(f"{FORM_COOKIE}="))
    given = {a.strip().lower() for a in attributes.split(";")}
    assert {"httponly", "secure", "samesite=strict", "path=/"} <= given
    key = net.keys["acme"]
    for cookie in ({}, {"cookie": other.form}):  # no cookie, or another visitor's
        answer = one.http.post("/login", data={"csrf": one.csrf, "token": key},
                               headers={"origin": ORIGIN, **cookie})
        assert answer.status_code == 403 and COOKIE not in answer.headers.get("set-cookie", "")
    assert one.sign_in(key).status_code == 303
    signed = one.get("/")
    assert signed.status_code == 200 and 'href="/review"' in signed.text


def test_slow_connections_are_capped_per_address(net):
    opened = [socket.create_connection(("127.0.0.1", net.port)) for _ in range(CONNECTIONS_PER_ADDRESS + 1)]
    try:
        for sock in opened:
            sock.sendall(f"POST /login HTTP/1.1\r\nHost: {HOST}\r\nContent-Length: 100\r\n\r\n".encode())
        opened[-1].settimeout(5)
        assert opened[-1].recv(100).startswith(b"HTTP/1.1 429")
    finally:
        for sock in opened:
            sock.close()


def test_session_ids_are_encoded_in_links_and_dot_ids_are_never_stored(net, people):
    """"." and ".." are dot segments a browser resolves, encoded or not (WHATWG URL): refused at write."""
    for sid in ("..", "."):
        with pytest.raises(InvalidInput):
            net.store.episodes.append(tenant="acme", scope="default", session_id=sid,
                                      turns=[NewTurn(role="user", text="hello")])
    net.store.episodes.append(tenant="acme", scope="default", session_id="s:1",
                              turns=[NewTurn(role="user", text="hello from s:1")])
    person = people(net.base)
    person.sign_in(net.keys["acme"])
    links = re.findall(r'href="(/sessions/[^"]*)"', person.get("/sessions").text)
    assert "/sessions/s%3A1" in links and person.get("/sessions/s%3A1").status_code == 200
