"""The team server as an OAuth 2.1 resource server: JWT access tokens from a test
issuer whose keys are made here and whose JWKS is served on loopback."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import anyio
import httpx2
import jwt
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from httpwire import PING, HttpServer, client, free_port, refused

from memvault.server.auth import JWKS_TIMEOUT_S, JWT_ALGORITHMS
from memvault.storage.limits import CALLER_CLAIM_MAX_CHARS
from memvault.storage.timefmt import format_ms

pytestmark = pytest.mark.slow
ISSUER = "https://issuer.test/realms/team"
KID = "test-key-1"
JWKS_MAX_AGE_S = 2  # the server's MEMVAULT_OAUTH_JWKS_MAX_AGE (half of it its JWKS cooldown) in these tests
# Each address may fail authentication 60 times a minute: the tests of wrong claims, which fail it 55 times, send
# from an address of their own to ``setup``'s server (every 127.x.y.z is loopback on Linux).
CLAIMS_FROM = "127.0.0.2"


class Issuer:
    """RSA signing keys and a loopback server publishing the public ones of ``published``
    (kid -> private key) as its JWKS, each with the ``use`` of ``uses`` (default "sig"), then
    the JWKs of ``extra`` as they are (or ``document`` instead, when set); ``requests`` counts
    the reads of it, ``most_at_once`` the most read at once, ``read_at`` when the last read came
    (``time.monotonic()``). While ``down``, a read waits until
    ``gate`` is set (at most 20 s), then gets 500. While ``drip``, the JWKS comes one byte a second. When
    ``body`` is set, it is the answer's bytes instead, sent as fast as read (``gzip``: labelled so), and
    ``sent`` counts the bytes of it the reader took."""

    def __init__(self) -> None:
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.published: dict[str, Any] = {KID: self.key}
        self.uses: dict[str, str] = {}
        self.extra: list[Any] = []
        self.document: Any = None
        self.body: bytes | None = None
        self.gzip, self.sent = False, 0
        self.requests = self.reading = self.most_at_once = 0
        self.read_at = 0.0
        self.down, self.drip, self.gate, lock = False, False, threading.Event(), threading.Lock()
        self.gate.set()
        issuer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                with lock:
                    issuer.requests += 1
                    issuer.read_at = time.monotonic()
                    issuer.reading += 1
                    issuer.most_at_once = max(issuer.most_at_once, issuer.reading)
                try:
                    if issuer.down:
                        issuer.gate.wait(20)
                        with suppress(OSError):  # memvault may have given up on this read
                            self.send_error(500)
                        return
                    listed = [{**json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key())), "kid": kid,
                               "use": issuer.uses.get(kid, "sig"), "alg": "RS256"}
                              for kid, key in issuer.published.items()]
                    document = {"keys": listed + issuer.extra} if issuer.document is None else issuer.document
                    body = json.dumps(document).encode() if issuer.body is None else issuer.body
                    self.send_response(200)
                    self.send_header("content-type", "application/json")
                    if issuer.gzip:
                        self.send_header("content-encoding", "gzip")
                    self.send_header("content-length", str(len(body)))
                    self.end_headers()
                    with suppress(OSError):  # memvault may have given up on this read
                        step = 1 if issuer.drip else 65_536
                        for start in range(0, len(body), step):
                            self.wfile.write(body[start : start + step])
                            self.wfile.flush()
                            issuer.sent += len(body[start : start + step])
                            time.sleep(1 if issuer.drip else 0)
                finally:
                    with lock:
                        issuer.reading -= 1

            def log_message(self, *args: Any) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.jwks_url = f"http://127.0.0.1:{self.http.server_address[1]}/jwks.json"
        # serve_forever polls for shutdown every 0.05 s (its default, 0.5 s, was each test's teardown)
        self.thread = threading.Thread(target=self.http.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    def public_pem(self) -> bytes:
        public = self.key.public_key()
        return public.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)

    def close(self) -> None:
        self.gate.set()
        self.http.shutdown()
        self.http.server_close()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unsigned(header: dict[str, Any] | str, claims: dict[str, Any] | str, sign: Any = None) -> str:
    """A JWT of ``header`` and ``claims`` (each a dict, or JSON text as written), signed by ``sign``."""
    head = ".".join(_b64((part if isinstance(part, str) else json.dumps(part)).encode()) for part in (header, claims))
    return head + "." + (_b64(sign(head.encode())) if sign else "")


@contextmanager
def _served(folder: Path, max_age_s: int = JWKS_MAX_AGE_S) -> Iterator[tuple[HttpServer, Issuer, str, Path]]:
    """A team server under --auth oauth trusting a new :class:`Issuer`."""
    issuer, port, db = Issuer(), free_port(), folder / "memvault.db"
    resource = f"http://127.0.0.1:{port}/mcp"
    server = HttpServer(db, "--auth", "oauth", "--oauth-issuer", ISSUER, "--oauth-resource", resource,
                        "--oauth-jwks-url", issuer.jwks_url, "--oauth-tenant-claim", "org", port=port,
                        MEMVAULT_OAUTH_JWKS_MAX_AGE=str(max_age_s))
    try:
        yield server, issuer, resource, db
    finally:
        server.close()
        issuer.close()


def _until_warm(server: HttpServer, issuer: Issuer, resource: str) -> None:
    """Wait (at most 120 s) until the server's model is loaded and a token of ``issuer`` is served: on a loaded
    machine a server still warming up may not read the JWKS within its time limit, and answers 503 (as
    documented). The token's subject is its own, so no test's rate limit counts these pings."""
    token = _token(issuer, _claims(resource, scope="memvault:read", sub="warming-up"))
    deadline = time.monotonic() + 120
    while True:
        warm = httpx2.get(f"{server.base}/healthz", timeout=10).json().get("model") == "ready"
        if warm and server.post(token, PING).status_code == 200:
            return
        assert time.monotonic() < deadline, server.log()
        time.sleep(0.2)


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[HttpServer, Issuer, str, Path]]:
    with _served(tmp_path_factory.mktemp("oauth")) as served:
        _until_warm(*served[:3])
        yield served


def _claims(resource: str, **overrides: Any) -> dict[str, Any]:
    now = int(time.time())
    return {"iss": ISSUER, "aud": resource, "sub": "user-1", "iat": now, "exp": now + 300, "org": "acme",
            **overrides}


def _token(issuer: Issuer, claims: dict[str, Any], kid: str = KID) -> str:
    return jwt.encode(claims, issuer.published.get(kid, issuer.key), algorithm="RS256", headers={"kid": kid})


def _signed(issuer: Issuer, claims: dict[str, Any]) -> str:
    """A token PyJWT would not encode (claims of any JSON type), signed RS256 with the issuer's key."""
    return _unsigned({"alg": "RS256", "typ": "JWT", "kid": KID}, claims,
                     lambda data: issuer.key.sign(data, padding.PKCS1v15(), hashes.SHA256()))


def test_a_token_of_the_issuer_for_this_resource_is_accepted_and_names_the_tenant(setup) -> None:  # type: ignore
    server, issuer, resource, db = setup
    marker = uuid.uuid4().hex
    acme = _token(issuer, _claims(resource, scope="memvault:write"))
    globex = _token(issuer, _claims(resource, org="globex", scope="memvault:read"))

    async def run() -> None:
        async with client(server.url, acme) as c:
            stored = await c.call_tool("remember", {"content": f"The VPN gateway is vpn-{marker}.example."})
            assert not stored.is_error, stored.content
            found = await c.call_tool("recall", {"query": "VPN gateway"})
            assert stored.structured_content["id"] in [m["id"] for m in found.structured_content["memories"]]
        async with client(server.url, globex) as c:
            found = await c.call_tool("recall", {"query": "VPN gateway", "limit": 50})
            assert all(marker not in m["content"] for m in found.structured_content["memories"])
            assert "acme" not in (await c.read_resource("memory://boot")).contents[0].text

    anyio.run(run)


def _bad_token(case: str, issuer: Issuer, resource: str) -> tuple[str, str]:
    """A token failing one check, and the ``error_description`` that must name that check."""
    claims = _claims(resource)
    other = ec.generate_private_key(ec.SECP256R1())
    audience = f"wrong audience: the token is not for {resource}"
    if case == "wrong audience":
        return _token(issuer, {**claims, "aud": "https://other.example/mcp"}), audience
    if case == "audience of another path":
        return _token(issuer, {**claims, "aud": resource + "/other"}), audience
    if case == "wrong issuer":
        return _token(issuer, {**claims, "iss": "https://evil.example"}), \
            f"wrong issuer: tokens must come from {ISSUER}"
    if case == "expired":
        exp = int(time.time()) - 120
        return _token(issuer, {**claims, "exp": exp}), f"claim exp: token expired on {format_ms(exp * 1000)}"
    if case == "no expiry":
        return _token(issuer, {k: v for k, v in claims.items() if k != "exp"}), "the token has no exp claim"
    if case in ("alg none", "HS256 with the public key"):
        sign = None if case == "alg none" else lambda data: hmac.new(issuer.public_pem(), data, hashlib.sha256).digest()
        token = _unsigned({"alg": "none" if sign is None else "HS256", "typ": "JWT", "kid": KID}, claims, sign)
        return token, "signature algorithm not allowed (allowed: " + ", ".join(JWT_ALGORITHMS) + ")"
    if case == "bad signature":
        return jwt.encode(claims, rsa.generate_private_key(public_exponent=65537, key_size=2048), algorithm="RS256",
                          headers={"kid": KID}), "bad signature"
    if case == "unknown signing key":
        return (jwt.encode(claims, other, algorithm="ES256", headers={"kid": "someone-else"}),
                "signed by a key the issuer does not publish (kid not in its JWKS)")
    if case == "an algorithm the key's JWK does not list":  # the JWK lists RS256 (RFC 7517 §4.4)
        return (jwt.encode(claims, issuer.key, algorithm="PS256", headers={"kid": KID}),
                "the signature algorithm (alg) is not the one the issuer's key of its kid lists (RS256)")
    if case == "not a JWT":
        return "definitely.not.xq-jwt.at-all", "malformed token (not a signed JWT): a JWT is three parts separated by dots"
    if case == "an unknown critical extension":  # adversarial pass 59: these three got a generic description
        return (_unsigned({"alg": "RS256", "kid": KID, "crit": ["urn:example:bound"], "urn:example:bound": True},
                          claims, lambda data: issuer.key.sign(data, padding.PKCS1v15(), hashes.SHA256())),
                "the token's crit header names an extension memvault does not understand (RFC 7515 section 4.1.11: "
                "such a token is refused)")
    if case == "a kid that is a number":
        return (_unsigned({"alg": "RS256", "typ": "JWT", "kid": 7}, claims, lambda data: b"x"),
                "the token's kid header is not a string (RFC 7515 section 4.1.4)")
    if case == "a sub that is a number":
        return _signed(issuer, {**claims, "sub": 42}), "claim sub: must be a string"
    assert case == "no tenant claim"
    return _token(issuer, {k: v for k, v in claims.items() if k != "org"}), "claim org: is missing or not a string"


@pytest.mark.parametrize("case", ["wrong audience", "wrong issuer", "expired", "alg none", "HS256 with the public key",
                                  "no tenant claim", "unknown signing key", "audience of another path",
                                  "bad signature", "no expiry", "not a JWT", "an algorithm the key's JWK does not list",
                                  "an unknown critical extension", "a kid that is a number", "a sub that is a number"])
def test_bad_tokens_are_refused_with_401_naming_the_failed_check(setup, case: str) -> None:  # type: ignore
    server, issuer, resource, _ = setup
    token, description = _bad_token(case, issuer, resource)
    response = server.post(token, PING)
    assert response.status_code == 401, response.text
    metadata = f"{server.base}/.well-known/oauth-protected-resource/mcp"
    assert response.headers["www-authenticate"] == (
        f'Bearer realm="memvault", error="invalid_token", error_description="{description}", '
        f'resource_metadata="{metadata}"')
    assert refused(response, 401, "invalid_token") == description
    log, signature = server.log(), token.split(".")[2]
    assert "refused a JWT" in log and token not in log and (not signature or signature[:16] not in log)
    assert token not in response.text and (not signature or signature[:16] not in str(response.headers))


def test_a_request_without_a_token_gets_a_bare_challenge_naming_the_metadata(setup) -> None:  # type: ignore
    server, _, _, _ = setup
    for headers in ({}, {"authorization": "Basic YWNtZTpwdw=="}):
        response = server.post(None, PING, **headers)
        assert response.status_code == 401
        assert response.headers["www-authenticate"] == (
            f'Bearer realm="memvault", resource_metadata="{server.base}/.well-known/oauth-protected-resource/mcp"')


def test_protected_resource_metadata_names_the_issuer(setup) -> None:  # type: ignore[no-untyped-def]
    server, _, resource, _ = setup
    response = httpx2.get(f"{server.base}/.well-known/oauth-protected-resource/mcp", timeout=10)
    assert response.status_code == 200
    document = response.json()
    assert document["resource"] == resource and document["authorization_servers"] == [ISSUER]


def _call(name: str, arguments: dict[str, Any], request_id: int = 1) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {"name": name, "arguments": arguments}}


def _stored(db: Path, tenant: str) -> list[str | None]:
    """The content of every memory of ``tenant``, history included, read from the file."""
    from memvault.storage.store import Store
    from memvault.tools import handlers

    store = Store(db)
    try:
        found = handlers.list_memories(store, handlers.Caller(tenant, "default"), limit=50, include_history=True)
        return [m.content for m in found.memories]
    finally:
        store.close()


def _insufficient(response: httpx2.Response, scope: str, server: HttpServer) -> None:
    assert response.status_code == 403, response.text
    challenge = response.headers["www-authenticate"]
    assert challenge.startswith('Bearer realm="memvault", error="insufficient_scope", ') and f'scope="{scope}"' in challenge
    assert f'resource_metadata="{server.base}/.well-known/oauth-protected-resource/mcp"' in challenge
    assert refused(response, 403, "insufficient_scope") and response.json()["error"]["data"]["scope"] == scope


def test_a_token_with_only_the_read_scope_gets_403_for_every_write_tool_and_may_read(setup) -> None:  # type: ignore
    """A write by a read-only token was a tool error (HTTP 200); RFC 6750 §3.1 wants 403."""
    server, issuer, resource, db = setup
    tenant = f"ro-{uuid.uuid4().hex[:6]}"
    server.post(_token(issuer, _claims(resource, org=tenant, scope="memvault:write")),
                _call("remember", {"content": "The build cache lives on host cache-3."}))
    [memory_id] = [m["id"] for m in server.post(_token(issuer, _claims(resource, org=tenant, scope="memvault:read")), _call(
        "recall", {"query": "", "since": "2000-01-01T00:00:00Z"})).json()["result"]["structuredContent"]["memories"]]
    token = _token(issuer, _claims(resource, org=tenant, scope="openid memvault:read"))
    for body in (_call("remember", {"content": "A read-only token wrote this."}),
                 _call("supersede", {"id": memory_id, "content": "The build cache is on cache-9."}),
                 _call("forget", {"id": memory_id}), _call("confirm", {"id": memory_id}),
                 [_call("recall", {"query": "build cache"}), _call("forget", {"id": memory_id}, 2)]):
        _insufficient(server.post(token, body), "memvault:write", server)
    found = server.post(token, _call("recall", {"query": "build cache"}))
    assert found.status_code == 200 and memory_id in found.text
    assert _stored(db, tenant) == ["The build cache lives on host cache-3."]


@pytest.mark.parametrize(("claims", "writes"), [
    ({"scope": "memvault:write"}, True), ({"scope": ["memvault:write"]}, True), ({"scp": "memvault:write"}, True),
    ({"scp": ["memvault:read", "memvault:write"]}, True), ({"scope": "openid memvault:read memvault:write"}, True),
    ({"scope": ["memvault:read"]}, False), ({"scp": "memvault:read"}, False), ({"scp": ["memvault:read"]}, False),
    ({"scope": "openid MEMVAULT:WRITE memvault:read"}, False),
])
def test_write_needs_the_write_scope_in_any_claim_form(setup, claims, writes) -> None:  # type: ignore[no-untyped-def]
    server, issuer, resource, db = setup
    tenant = f"s-{uuid.uuid4().hex[:6]}"
    token = _token(issuer, _claims(resource, org=tenant, **claims))
    response = server.post(token, _call("remember", {"content": f"written with {sorted(claims)}"}))
    if writes:
        assert response.status_code == 200 and not response.json()["result"]["isError"], response.text
    else:
        _insufficient(response, "memvault:write", server)
    assert len(_stored(db, tenant)) == (1 if writes else 0)


@pytest.mark.parametrize("claims", [{}, {"scope": "openid profile"}, {"scope": "MEMVAULT:READ MEMVAULT:WRITE"},
                                    {"scp": []}, {"scope": []}, {"scope": ""}, {"scp": ""},
                                    {"scp": "openid"}, {"scope": ["openid"]}])
def test_a_token_without_a_memvault_scope_gets_403_insufficient_scope(setup, claims) -> None:  # type: ignore
    """An empty scope, as a string or a list, is a valid token granting none: 403 (RFC 6750 §3.1), as
    ``scope: []`` was while ``scope: ""`` was 401 (an adversarial pass). Nothing is written."""
    server, issuer, resource, db = setup
    _insufficient(server.post(_token(issuer, _claims(resource, **claims)), PING), "memvault:read", server)
    tenant = f"e-{uuid.uuid4().hex[:6]}"
    response = server.post(_token(issuer, _claims(resource, org=tenant, **claims)), _call("remember", {
        "content": "Written by a token granting no scope."}))
    _insufficient(response, "memvault:read", server)
    assert _stored(db, tenant) == []


@pytest.mark.parametrize("claims", [
    {"scope": "memvault:write "}, {"scope": " memvault:write"}, {"scope": "memvault:read  memvault:write"},
    {"scope": "memvault:read\u00a0memvault:write"}, {"scope": "memvault:read\tmemvault:write"},
    {"scope": "memvault:read\nmemvault:write"}, {"scope": "memvault:write\u200b"}, {"scope": "memvault:wri\u00adte"},
    {"scope": "memvault:write\x1b[2J"}, {"scope": "memvault:\"write"}, {"scope": "memvault:write\\"},
    {"scope": " "}, {"scope": 7}, {"scope": None}, {"scope": {"memvault:write": True}}, {"scp": "  "},
    {"scp": ["memvault:write "]}, {"scp": ["memvault:read memvault:write"]}, {"scp": [""]}, {"scp": [7]},
    {"scope": ["memvault:write", "\u00a0memvault:write"]}, {"scp": "memvault:write\u3000"},
    {"scope": "memvault:read", "scp": "memvault:write"}, {"scope": "memvault:write", "scp": ["memvault:write"]},
    {"scope": "", "scp": ["memvault:write"]}, {"scope": [], "scp": ""},
])
def test_a_scope_claim_that_breaks_rfc_6749_grammar_is_401_naming_the_claim(setup, claims) -> None:  # type: ignore
    """Scope strings were split on any white space (NBSP, tab), scope and scp combined, and
    look-alike names (trailing space, ZWSP, soft hyphen, ESC) accepted."""
    server, issuer, resource, db = setup
    tenant = f"g-{uuid.uuid4().hex[:6]}"
    response = server.post(_token(issuer, _claims(resource, org=tenant, **claims)), _call("remember", {
        "content": "A look-alike scope wrote this."}))
    assert response.status_code == 401, response.text
    description = response.json()["error"]["message"]
    assert response.json()["error"]["data"]["error"] == "invalid_token"
    assert description.startswith("claims scope and scp:" if len(claims) == 2 else f"claim {next(iter(claims))}:")
    assert "memvault:write" not in description and _stored(db, tenant) == []
    log = server.log()
    assert "\x1b" not in log and "\u200b" not in log and "\u00ad" not in log
    assert f"refused a JWT: {description.split(':')[0]}\n" in log


def test_the_metadata_names_both_scopes(setup) -> None:  # type: ignore[no-untyped-def]
    server, _, _, _ = setup
    document = httpx2.get(f"{server.base}/.well-known/oauth-protected-resource/mcp", timeout=10).json()
    assert document["scopes_supported"] == ["memvault:read", "memvault:write"]


def test_the_write_scope_alone_also_reads(setup) -> None:  # type: ignore[no-untyped-def]
    """Decided: memvault:write includes reading (docs/team-server-security.md, "Scopes"): a
    writer learns of stored memories anyway (duplicate_of, similar, supersede's conflicts)."""
    server, issuer, resource, db = setup
    tenant = f"w-{uuid.uuid4().hex[:6]}"
    token = _token(issuer, _claims(resource, org=tenant, scope="memvault:write"))
    stored = server.post(token, _call("remember", {"content": "The staging database is pg-stage-2."}))
    found = server.post(token, _call("recall", {"query": "staging database"}))
    assert stored.status_code == found.status_code == 200, found.text
    memories = found.json()["result"]["structuredContent"]["memories"]
    assert [m["content"] for m in memories] == ["The staging database is pg-stage-2."]


def test_a_token_for_this_server_and_another_audience_is_accepted(setup) -> None:  # type: ignore
    """Decided: ``aud`` must contain this server's resource URL (RFC 9068 §4, RFC 7519 §4.1.3);
    other audiences beside it are accepted (an issuer adds its userinfo endpoint beside the API
    when openid is asked for); a token naming only other audiences is refused."""
    server, issuer, resource, db = setup
    tenant = f"a-{uuid.uuid4().hex[:6]}"
    both = _token(issuer, _claims(resource, org=tenant, scope="memvault:write",
                                  aud=["https://issuer.example/userinfo", resource]))
    response = server.post(both, _call("remember", {"content": "Two audiences, one of them this server."}))
    assert response.status_code == 200 and not response.json()["result"]["isError"], response.text
    others = _token(issuer, _claims(resource, org=tenant, scope="memvault:write",
                                    aud=["https://issuer.example/userinfo", resource + "/other"]))
    refused = server.post(others, PING)
    assert refused.status_code == 401 and "wrong audience" in refused.json()["error"]["message"]
    assert _stored(db, tenant) == ["Two audiences, one of them this server."]


@pytest.mark.parametrize("tenant", [" bravo ", "bravo\t", "\u00a0bravo", "bravo\n", "cafe\u0301",
                                    # round 3: invisible, format and compatibility characters (validate.name)
                                    "bravo\u200b", "\u180ebravo", "bra\u00advo", "bravo\u3164", "\uff42ravo", "bravo\x1b"])
def test_a_tenant_claim_that_trimming_or_nfc_changes_is_refused(setup, tenant) -> None:  # type: ignore
    server, issuer, resource, _ = setup
    response = server.post(_token(issuer, _claims(resource, org=tenant, scope="memvault:write")), PING)
    assert response.status_code == 401 and response.json()["error"]["data"]["error"] == "invalid_token", response.text
    # The header's description is the body's, each character outside RFC 6750's set as its code point.
    described, header = response.json()["error"]["message"], response.headers["www-authenticate"]
    assert all(f"U+{ord(c):04X}" in header for c in described if not " " <= c <= "~")
    assert header.count("?") == described.count("?")


@pytest.mark.parametrize("header", [
    {"alg": "ES256", "kid": KID}, {"alg": "EdDSA", "kid": KID}, {"alg": "PS256", "kid": "x\nFORGED log line\x00"},
    {"alg": "RS256", "kid": "evil\r\nrefused nothing"}, {"alg": "ES384", "kid": KID, "typ": "JWT"},
])
def test_every_token_failure_is_401_and_the_log_never_repeats_the_header(setup, header) -> None:  # type: ignore
    server, issuer, resource, _ = setup
    token = _unsigned(header, _claims(resource), lambda data: b"\x01" * 64)
    response = server.post(token, PING)
    assert response.status_code == 401 and response.json()["error"]["data"]["error"] == "invalid_token", response.text
    log = server.log()
    assert "FORGED" not in log and "refused nothing" not in log and "\x00" not in log and "Traceback" not in log


def _lifetime_claims(resource: str, case: str) -> dict[str, Any]:
    """Claims with a time, audience, issuer or tenant of the wrong kind (RFC 7519 §2, §4.1)."""
    now = int(time.time())
    cases: dict[str, dict[str, Any]] = {
        "exp a string": {"exp": str(now + 300)}, "exp 1e20": {"exp": 1e20}, "exp 10**12": {"exp": 10**12},
        "exp infinite": {"exp": float("inf")}, "exp NaN": {"exp": float("nan")}, "exp true": {"exp": True},
        "exp a list": {"exp": [now + 300]}, "exp negative": {"exp": -1e300},
        "nbf a string": {"nbf": str(now - 10)}, "nbf infinite": {"nbf": float("-inf")},
        "iat a string": {"iat": str(now)}, "iat an object": {"iat": {"t": now}}, "iat false": {"iat": False},
        "lifetime over a day": {"exp": now + 86_400 + 600}, "issued two days ago": {"iat": now - 2 * 86_400},
        "no iat, exp in two days": {"iat": None, "exp": now + 2 * 86_400},
        "aud with a number": {"aud": [resource, 7]}, "aud an object": {"aud": {"r": resource}}, "aud a number": {"aud": 7},
        "iss a list": {"iss": [ISSUER]}, "iss a number": {"iss": 7}, "tenant a list": {"org": ["acme"]},
        "tenant a number": {"org": 7}, "sub a number": {"sub": 7},
        "azp a number": {"azp": 5}, "client_id a list": {"client_id": ["a"]},  # round 4: the caller's identity
        # adv66 NEW-3: the caller's identity spelled one way, with nothing a log line would carry
        "azp with a newline": {"azp": "app\nINJECTED"}, "azp with NUL": {"azp": "app\x00"},
        "client_id with ESC": {"client_id": "app\x1b[31m"}, "client_id with U+2028": {"client_id": "a\u2028b"},
        "azp with a trailing space": {"azp": "app "}, "client_id fullwidth": {"client_id": "\uff41pp"},
        "sub with CR LF": {"sub": "user\r\nx"},
        # adversarial pass 53 F2: an integer too large for a float was a 500 and three tracebacks
        "exp 10**400": {"exp": 10**400}, "iat 10**400": {"iat": 10**400}, "nbf 10**400": {"nbf": 10**400},
        "exp -10**400": {"exp": -10**400}, "nbf 2**64": {"nbf": 2**64}, "exp in year 10000": {"exp": 253_402_300_800},
    }
    claims = {**_claims(resource, scope="memvault:write"), **cases[case]}
    return {k: v for k, v in claims.items() if v is not None}


@pytest.mark.parametrize("case", [
    "exp a string", "exp 1e20", "exp 10**12", "exp infinite", "exp NaN", "exp true", "exp a list", "exp negative",
    "nbf a string", "nbf infinite", "iat a string", "iat an object", "iat false", "lifetime over a day",
    "issued two days ago", "no iat, exp in two days", "aud with a number", "aud an object", "aud a number",
    "iss a list", "iss a number", "tenant a list", "tenant a number", "sub a number", "azp a number",
    "client_id a list", "azp with a newline", "azp with NUL", "client_id with ESC", "client_id with U+2028",
    "azp with a trailing space", "client_id fullwidth", "sub with CR LF", "exp 10**400", "iat 10**400", "nbf 10**400", "exp -10**400", "nbf 2**64", "exp in year 10000"])
def test_a_claim_of_the_wrong_type_or_a_lifetime_over_the_limit_is_401(setup, case: str) -> None:  # type: ignore
    """``exp`` as a string, or 1e20, was accepted (PyJWT reads int("...")); time claims must be
    JSON numbers and a token may live at most MEMVAULT_OAUTH_MAX_TOKEN_LIFETIME (a day)."""
    server, issuer, resource, db = setup
    tenant = f"t-{uuid.uuid4().hex[:6]}"
    claims = _lifetime_claims(resource, case)
    claims["org"] = tenant if claims["org"] == "acme" else claims["org"]
    response = server.post(_signed(issuer, claims), _call("remember", {"content": f"written with {case}"}),
                           source=CLAIMS_FROM)
    assert response.status_code == 401 and response.json()["error"]["data"]["error"] == "invalid_token", response.text
    name = case.split()[0].replace("tenant", "org")
    if name in ("exp", "nbf", "iat", "azp", "client_id", "sub"):
        assert response.json()["error"]["message"].startswith(f"claim {name}:")
    elif case in ("lifetime over a day", "issued two days ago", "no iat, exp in two days"):
        assert response.json()["error"]["message"].startswith("claim exp: the token's lifetime is over this "
                                                               "server's limit of 86,400 s")
    assert _stored(db, tenant) == []
    assert "Traceback" not in server.log() and "INJECTED" not in server.log()


@pytest.mark.parametrize(("part", "twice"), [
    (None, ""), ("claims", '"org": "{other}"'), ("claims", '"aud": "https://other.example/mcp"'),
    ("claims", '"exp": {exp}'), ("claims", '"scope": "memvault:read"'), ("claims", '"sub": "user-2"'),
    ("header", '"kid": "someone-else"'), ("header", '"alg": "none"'), ("header", '"typ": "id_token+jwt"'),
])
def test_a_token_naming_a_claim_or_header_parameter_twice_is_401_and_writes_nothing(setup, part, twice) -> None:  # type: ignore
    """Adversarial pass 58 F2: ``{"org": "alpha", ..., "org": "bravo"}`` was read last-wins, in bravo. The first
    of the two names here is the one PyJWT would not take: the signature and every check pass on the last."""
    server, issuer, resource, db = setup
    tenant, other = f"t-{uuid.uuid4().hex[:6]}", f"t-{uuid.uuid4().hex[:6]}"
    header, claims = json.dumps({"alg": "RS256", "typ": "JWT", "kid": KID}), json.dumps(
        _claims(resource, org=tenant, scope="memvault:write"))
    twice = twice.format(other=other, exp=int(time.time()) + 30)
    if part == "header":
        header = "{" + twice + ", " + header[1:]
    elif part == "claims":
        claims = "{" + twice + ", " + claims[1:]
    token = _unsigned(header, claims, lambda data: issuer.key.sign(data, padding.PKCS1v15(), hashes.SHA256()))
    written = server.post(token, _call("remember", {"content": f"written by {tenant}"}), source=CLAIMS_FROM)
    read = server.post(token, _call("recall", {"query": "written by"}), source=CLAIMS_FROM)
    if part is None:  # the same token naming each once: its owner writes and reads its own memory
        assert written.status_code == 200 and not written.json()["result"]["isError"], written.text
        assert f"written by {tenant}" in read.text and _stored(db, tenant) == [f"written by {tenant}"]
        return
    description = f"duplicate {'claim' if part == 'claims' else 'header parameter'}: the token names a member more " \
                  "than once, and which one counts is undefined (RFC 7515 §5.2, RFC 7519 §4)"
    for response in (written, read):
        assert response.status_code == 401, response.text
        assert refused(response, 401, "invalid_token") == description
    assert _stored(db, tenant) == [] and _stored(db, other) == []
    log = server.log()
    assert f"refused a JWT: {description.split(':')[0]}" in log
    assert other not in log and "someone-else" not in log and "Traceback" not in log


LONG_CLAIMS_FROM = "127.0.0.3"  # the over-long caller claims' refusals, counted apart from CLAIMS_FROM's


@pytest.mark.parametrize("claim", ["sub", "azp", "client_id"])
def test_a_caller_claim_over_its_limit_is_401_naming_the_claim_and_the_limit_and_one_at_it_writes(setup, claim) -> None:  # type: ignore
    """``sub``, ``azp`` and ``client_id`` key the caller's rate limit, turns and logs: each was bounded only by the
    request's 32 KiB of headers. Characters are counted, not bytes (one at the limit ends in a two-byte letter)."""
    server, issuer, resource, db = setup
    tenant = f"l-{uuid.uuid4().hex[:6]}"
    for value in ("u" * (CALLER_CLAIM_MAX_CHARS + 1), "\u00e9" * (CALLER_CLAIM_MAX_CHARS + 1),
                  f"auth0|{'5f7c' * 1_000}", "x" * 20_000):
        claims = _claims(resource, org=tenant, scope="memvault:write", **{claim: value})
        response = server.post(_token(issuer, claims), _call("remember", {"content": f"written by {len(value)}"}),
                               source=LONG_CLAIMS_FROM)
        described = f"claim {claim}: is {len(value):,} characters; the limit is {CALLER_CLAIM_MAX_CHARS}"
        assert refused(response, 401, "invalid_token") == described
        assert f'error_description="{described}"' in response.headers["www-authenticate"]
    at_limit = "u" * (CALLER_CLAIM_MAX_CHARS - 1) + "\u00e9"
    written = server.post(_token(issuer, _claims(resource, org=tenant, scope="memvault:write", **{claim: at_limit})),
                          _call("remember", {"content": "Written by a caller named at the limit."}),
                          source=LONG_CLAIMS_FROM)
    assert written.status_code == 200 and not written.json()["result"]["isError"], written.text
    assert _stored(db, tenant) == ["Written by a caller named at the limit."]
    log = server.log()
    assert f"refused a JWT: claim {claim}\n" in log and "u" * CALLER_CLAIM_MAX_CHARS not in log
    assert "5f7c5f7c" not in log and "Traceback" not in log


def test_a_token_living_just_under_the_limit_writes(setup) -> None:  # type: ignore[no-untyped-def]
    server, issuer, resource, db = setup
    tenant, now = f"t-{uuid.uuid4().hex[:6]}", time.time()
    token = _signed(issuer, _claims(resource, org=tenant, scope="memvault:write", iat=now - 60.5, exp=now + 86_000.25))
    response = server.post(token, _call("remember", {"content": "A day-long token wrote this."}))
    assert response.status_code == 200 and not response.json()["result"]["isError"], response.text
    assert _stored(db, tenant) == ["A day-long token wrote this."]


def test_a_key_whose_jwk_verifies_no_token_is_refused_saying_why_not_as_unpublished(setup) -> None:  # type: ignore
    """RFC 7517 §4.2-4.4: a JWK for encryption (use, key_ops), with a lowercase or an encryption alg, or an
    alg that does not fit its kty, checks no signature, while a signing key listed beside it does; the
    refusal names what is wrong with the key of that kid, not "kid not in its JWKS"."""
    server, issuer, resource, _ = setup
    kids = ("use-enc", "ops-encrypt", "ops-verify", "alg-oaep", "alg-lower", "alg-ec-on-rsa", "alg-hs")
    keys = {kid: rsa.generate_private_key(public_exponent=65537, key_size=2048) for kid in kids}
    listed = {kid: json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key())) for kid, key in keys.items()}
    changes: dict[str, dict[str, Any]] = {
        "use-enc": {"use": "enc"}, "ops-encrypt": {"key_ops": ["encrypt", "wrapKey"]}, "ops-verify": {"key_ops": ["verify"]},
        "alg-oaep": {"alg": "RSA-OAEP"}, "alg-lower": {"alg": "rs256"}, "alg-ec-on-rsa": {"alg": "ES256"},
        "alg-hs": {"alg": "HS256"}}
    issuer.extra = [{**listed[kid], "kid": kid, **changes[kid]} for kid in kids]
    for jwk in issuer.extra:
        if "key_ops" not in changes[jwk["kid"]]:
            jwk.pop("key_ops", None)
    cannot = "the issuer's key with this token's kid cannot verify it: "
    taken = f"(taken: {', '.join(JWT_ALGORITHMS)})"
    expected = {
        "use-enc": (401, cannot + 'it is not for verifying signatures (its JWK\'s use is "enc", not "sig")'),
        "ops-encrypt": (401, cannot + 'it is not for verifying signatures (its JWK\'s key_ops do not include "verify")'),
        "alg-oaep": (401, cannot + f'its JWK\'s alg "RSA-OAEP" is not a signature algorithm taken here {taken}'),
        "alg-lower": (401, cannot + 'its JWK\'s alg "rs256" is not a signature algorithm taken here (algorithm '
                      f"names are case-sensitive) {taken}"),
        "alg-ec-on-rsa": (401, cannot + 'its JWK\'s alg "ES256" does not fit its key type (kty "RSA")'),
        "alg-hs": (401, cannot + f'its JWK\'s alg "HS256" is not a signature algorithm taken here {taken}'),
        "ops-verify": (200, None)}
    try:
        time.sleep(JWKS_MAX_AGE_S + 0.5)  # the server's set is read again and lists them
        for kid, (status, description) in expected.items():
            token = jwt.encode(_claims(resource, scope="memvault:read"), keys[kid], algorithm="RS256", headers={"kid": kid})
            response = server.post(token, PING)
            assert response.status_code == status, (kid, response.text)
            assert description is None or response.json()["error"]["message"] == description, kid
            assert "kid not in its JWKS" not in response.text
        unknown = jwt.encode(_claims(resource), keys["ops-verify"], algorithm="RS256", headers={"kid": "nobody"})
        assert server.post(unknown, PING).json()["error"]["message"] == (
            "signed by a key the issuer does not publish (kid not in its JWKS)")
    finally:
        issuer.extra = []


@pytest.mark.parametrize("kid", [None, ""])
def test_a_token_naming_no_kid_is_told_so(setup, kid) -> None:  # type: ignore[no-untyped-def]
    server, issuer, resource, _ = setup
    headers = {} if kid is None else {"kid": kid}
    token = jwt.encode(_claims(resource), issuer.key, algorithm="RS256", headers=headers)
    if kid is None:
        assert "kid" not in jwt.get_unverified_header(token)
    response = server.post(token, PING)
    assert response.status_code == 401
    assert response.json()["error"]["message"] == (
        "the token names no signing key (its header has no kid): the issuer's keys are found by kid")


def test_a_key_withdrawn_from_the_jwks_is_refused_within_its_documented_max_age(setup) -> None:  # type: ignore
    """PyJWKClient kept a withdrawn key up to 300 s (30 s after an unknown kid); the key set
    may now be at most MEMVAULT_OAUTH_JWKS_MAX_AGE old (2 s in these tests)."""
    server, issuer, resource, db = setup
    tenant = f"w-{uuid.uuid4().hex[:6]}"
    issuer.published["retiring"] = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    time.sleep(JWKS_MAX_AGE_S + 0.5)  # the server's set is read again and lists "retiring"
    token = _token(issuer, _claims(resource, org=tenant, scope="memvault:write"), kid="retiring")
    first = server.post(token, _call("remember", {"content": "Written before the key was withdrawn."}))
    assert first.status_code == 200 and not first.json()["result"]["isError"], first.text
    del issuer.published["retiring"]
    time.sleep(JWKS_MAX_AGE_S + 0.5)
    for content in ("Written after the key was withdrawn.", "Written again after."):
        response = server.post(token, _call("remember", {"content": content}))
        assert refused(response, 401, "invalid_token") == (
            "signed by a key the issuer does not publish (kid not in its JWKS)")
    assert _stored(db, tenant) == ["Written before the key was withdrawn."]


def test_an_issuer_withdrawing_every_key_gets_401_from_its_next_reading(setup) -> None:  # type: ignore
    """With {"keys": []} or only `use: enc` keys, the withdrawn key kept writing for the whole max age,
    then every token got 503 "could not be read; retry later" forever (adversarial review 41, fault 4)."""
    server, issuer, resource, db = setup
    tenant = f"e-{uuid.uuid4().hex[:6]}"
    token = _token(issuer, _claims(resource, org=tenant, scope="memvault:write"))
    try:
        for withdrawn in ({"published": {}}, {"uses": {KID: "enc"}}):
            for name, value in withdrawn.items():
                setattr(issuer, name, value)
            time.sleep(JWKS_MAX_AGE_S / 2 + 0.2)  # the set in hand is due for a reading, its cooldown past
            for _ in range(2):  # the reading the first request makes, and the set it read
                response = server.post(token, _call("remember", {"content": f"Written after {withdrawn}."}))
                assert response.status_code == 401, response.text
                assert response.json()["error"]["message"] == (
                    "signed by a key the issuer does not publish (kid not in its JWKS)" if "published" in withdrawn
                    else "the issuer's key with this token's kid cannot verify it: it is not for verifying "
                         'signatures (its JWK\'s use is "enc", not "sig")')
            issuer.published, issuer.uses = {KID: issuer.key}, {}
    finally:
        issuer.published, issuer.uses = {KID: issuer.key}, {}
    time.sleep(JWKS_MAX_AGE_S / 2 + 0.2)
    response = server.post(token, _call("remember", {"content": "Written once the key is back."}))
    assert response.status_code == 200 and not response.json()["result"]["isError"], response.text
    assert _stored(db, tenant) == ["Written once the key is back."]


def test_a_flood_of_unknown_kids_reads_the_jwks_at_most_once_per_cooldown(tmp_path: Path) -> None:
    """Each unknown kid may make memvault read the key set again, at most once per
    min(10 s, half the max age): docs/team-server-security.md. Its own server: the failed
    authentications of the other tests would be limited before reaching the key set. A max age of
    8 s (cooldown 4 s): at 2 s a reading under load came after the set's max age, and the 503
    of a set too old (fail closed) answered instead of the 401 of an unknown kid."""
    max_age_s = 8
    with _served(tmp_path, max_age_s) as (server, issuer, resource, _):
        assert server.post(_token(issuer, _claims(resource, scope="memvault:read")), PING).status_code == 200
        before, start = issuer.requests, time.monotonic()
        for i in range(40):
            forged = jwt.encode(_claims(resource, scope="memvault:write"), issuer.key, algorithm="RS256",
                                headers={"kid": f"unknown-{i}-{uuid.uuid4().hex}"})
            assert server.post(forged, PING).status_code == 401
        elapsed = time.monotonic() - start
        assert issuer.requests - before <= 1 + elapsed / (max_age_s / 2), (issuer.requests - before, elapsed)
        assert server.post(_token(issuer, _claims(resource, scope="memvault:read")), PING).status_code == 200


def _forged(issuer: Issuer, resource: str) -> str:
    """A token signed by the issuer's key but naming a kid its JWKS never listed."""
    return jwt.encode(_claims(resource, scope="memvault:write"), issuer.key, algorithm="RS256",
                      headers={"kid": f"unknown-{uuid.uuid4().hex}"})


def test_while_the_issuer_is_down_one_jwks_read_at_a_time_and_other_requests_are_answered_at_once(
        tmp_path: Path) -> None:
    """With the issuer down, every request with an unknown kid (and every request once the set
    was older than its max age) read the JWKS again, one after another under PyJWKClient's lock,
    each waiting for the issuer. Now: at most one read in flight, none within the cooldown after
    a failed one, 503 while the set is older than its max age (never trusted longer), 401 for an
    unknown kid while it is not; requests that come during a read get their answer without it."""
    max_age_s, cooldown_s = 6, 3
    with _served(tmp_path, max_age_s) as (server, issuer, resource, _), ThreadPoolExecutor(1) as pool:
        valid = _token(issuer, _claims(resource, scope="memvault:read"))
        assert server.post(valid, PING).status_code == 200
        issuer.down = True
        issuer.gate.clear()  # a read hangs until the test lets it fail
        time.sleep(max_age_s + 0.5)  # the set is now older than its max age
        before, start = issuer.requests, time.monotonic()
        first = pool.submit(server.post, valid, PING)
        while issuer.requests == before and time.monotonic() - start < 20:
            time.sleep(0.05)
        meanwhile = [httpx2.post(server.url, json=PING, timeout=15, headers={
            "accept": "application/json, text/event-stream", "authorization": f"Bearer {token}"})
            for token in [valid, _forged(issuer, resource)] * 5]
        # Answered while the one read still hangs; on a machine so loaded that these ten took longer than
        # the server waits for a read and its cooldown, the server gave up that read and may start one more.
        waited = time.monotonic() - start
        assert issuer.requests == before + 1 and issuer.reading == 1 or waited > JWKS_TIMEOUT_S + cooldown_s
        assert [r.status_code for r in meanwhile] == [503] * 10, [r.text for r in meanwhile]
        assert meanwhile[0].json()["error"]["data"]["error"] == "temporarily_unavailable"
        assert 1 <= int(meanwhile[0].headers["retry-after"]) <= cooldown_s
        issuer.gate.set()  # the hanging read fails: the set is still too old to trust
        assert first.result().status_code == 503
        for _ in range(20):  # the issuer still down: failed reads at most once per cooldown
            assert server.post(valid, PING).status_code == 503
            assert server.post(_forged(issuer, resource), PING).status_code == 503
        assert issuer.requests - before <= 1 + (time.monotonic() - start) / cooldown_s

        issuer.down = False  # back: the next read after the cooldown restores the set
        time.sleep(cooldown_s + 0.5)
        assert server.post(valid, PING).status_code == 200
        issuer.down, before, start = True, issuer.requests, time.monotonic()
        while time.monotonic() - start < 2 or issuer.requests == before:  # down again, the set fresh
            assert server.post(_forged(issuer, resource), PING).status_code == 401  # unknown kid, read once
            time.sleep(0.2)  # under the limit of failed authentications per address
        assert issuer.requests - before <= 1 + (time.monotonic() - start) / cooldown_s
        assert issuer.most_at_once == 1 or waited > JWKS_TIMEOUT_S + cooldown_s
        assert "Traceback" not in server.log()


def test_tokens_naming_no_client_or_subject_share_no_limit_across_tenants() -> None:
    """An adversarial pass: tokens without sub, azp or client_id were one caller "oauth" for the rate
    limit and the turns at the tools, so one tenant's calls got another's 429s."""
    from memvault.server.auth import Identity, access_token, caller_of

    def caller(tenant: str, client: str = "oauth", subject: str | None = None) -> str:
        return caller_of(access_token("t", client, Identity(tenant=tenant, scope="default"), subject=subject))

    assert caller("alpha") != caller("bravo") and caller("alpha") == caller("alpha")
    assert caller("alpha", "app-1", "u1") != caller("bravo", "app-1", "u1")
    assert caller("alpha", "app-1", "u1") != caller("alpha", "app-1", "u2")


def test_the_rate_limit_is_one_users_whichever_clients_asked_for_its_tokens(tmp_path: Path) -> None:
    """Closing pass of issue 25: the limit was keyed on (client, subject), so one user with 8
    registered clients (dynamic registration lets anyone register more) got 8 times the limit."""
    issuer, port = Issuer(), free_port()
    resource = f"http://127.0.0.1:{port}/mcp"
    server = HttpServer(tmp_path / "memvault.db", "--auth", "oauth", "--oauth-issuer", ISSUER, "--oauth-resource",
                        resource, "--oauth-jwks-url", issuer.jwks_url, "--oauth-tenant-claim", "org",
                        "--rate-limit", "5", port=port)
    _until_warm(server, issuer, resource)

    def served(count: int, **claims: Any) -> int:
        sent = {k: v for k, v in _claims(resource, scope="memvault:read", **claims).items()
                if v is not None}  # None: no such claim
        return sum(server.post(_token(issuer, sent), PING).status_code == 200 for _ in range(count))

    try:
        # One user's tokens from 8 clients, named by azp, client_id or both: one limit of 5.
        one_user = sum(served(2, **{name: f"app-{n}"}) for n in range(8)
                       for name in (["azp", "client_id"][n % 2],))
        assert one_user == 5
        assert served(1, azp="app-new", client_id="app-new") == 0
        assert served(3, sub="user-2") == 3  # another user keeps its own limit
        assert served(3, org="bravo") == 3  # the same subject in another tenant: its own
        # Tokens naming no subject: one limit for their tenant, whichever client.
        nobody = {"org": "charlie", "sub": None}
        assert sum(served(2, **nobody, azp=f"app-{n}") for n in range(4)) == 5
        log = server.log()
    finally:
        server.close()
        issuer.close()
    assert "Traceback" not in log


@pytest.mark.parametrize("typ", ["id_token+jwt", "logout+jwt", "dpop+jwt", "secevent+jwt", "JOSE", 7, None])
def test_a_token_whose_typ_is_not_an_access_tokens_is_refused(setup, typ) -> None:  # type: ignore
    """adversarial pass 48: ID, logout, DPoP and event tokens of the same issuer were served (RFC 9068 §4)."""
    server, issuer, resource, _ = setup
    header = {"alg": "RS256", "kid": KID, "typ": typ}
    token = _unsigned(header, _claims(resource, scope="memvault:write"),
                      lambda data: issuer.key.sign(data, padding.PKCS1v15(), hashes.SHA256()))
    response = server.post(token, PING)
    assert response.status_code == 401, response.text
    assert response.json()["error"]["message"] == (  # the type named by memvault's words, never as sent
        "the token's type (its typ header) is not an access token's: send an access token (typ at+jwt or JWT, "
        "RFC 9068 §4), not an ID or logout token")


@pytest.mark.parametrize("typ", ["at+jwt", "application/at+jwt", "JWT", "jwt", "AT+JWT", ...])
def test_an_access_tokens_typ_or_none_is_taken(setup, typ) -> None:  # type: ignore
    server, issuer, resource, _ = setup
    header = {"alg": "RS256", "kid": KID, **({} if typ is ... else {"typ": typ})}
    token = _unsigned(header, _claims(resource, scope="memvault:write"),
                      lambda data: issuer.key.sign(data, padding.PKCS1v15(), hashes.SHA256()))
    assert server.post(token, PING).status_code == 200


def test_a_small_clock_difference_with_the_issuer_is_allowed_and_a_large_one_is_not():
    """Adversarial pass 50 F5: a token whose iat or nbf was one second ahead of the server got 401 and
    counted as a failed login; RFC 7519 §4.1.4-5 allow a small leeway."""
    from memvault.server.auth import CLOCK_SKEW_S, check_times
    from memvault.storage.errors import InvalidInput

    now = 1_800_000_000.0
    for claims in ({"iat": now + 1, "exp": now + 300}, {"nbf": now + CLOCK_SKEW_S - 1, "exp": now + 300},
                   {"iat": now - 300, "exp": now - CLOCK_SKEW_S + 1}):
        check_times(claims, now, 86_400)
    for claims, name in (({"iat": now + CLOCK_SKEW_S + 1, "exp": now + 300}, "claim iat"),
                         ({"nbf": now + 600, "exp": now + 900}, "claim nbf"),
                         ({"iat": now - 300, "exp": now - CLOCK_SKEW_S}, "claim exp")):
        with pytest.raises(InvalidInput) as refused:
            check_times(claims, now, 86_400)
        assert refused.value.field == name


def test_a_token_a_few_seconds_off_the_servers_clock_is_served(setup) -> None:  # type: ignore[no-untyped-def]
    """Re-check of adversarial pass 50 F5: memvault allowed the skew, but the SDK's own check refused a
    token past ``exp`` with no leeway ("Authentication required")."""
    server, issuer, resource, _ = setup
    now = int(time.time())
    for shifted in ({"iat": now + 5}, {"nbf": now + 30}, {"iat": now - 600, "exp": now - 20}):
        response = server.post(_token(issuer, {**_claims(resource, scope="memvault:read"), **shifted}), PING)
        assert response.status_code == 200, (shifted, response.text)
