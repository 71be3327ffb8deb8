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
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import anyio
import httpx2
import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from httpwire import PING, HttpServer, client, free_port

from memvault.server.auth import JWT_ALGORITHMS
from memvault.storage.timefmt import format_ms

pytestmark = pytest.mark.slow
ISSUER = "https://issuer.test/realms/team"
KID = "test-key-1"


class Issuer:
    """An RSA signing key and a loopback server publishing its JWKS."""

    def __init__(self) -> None:
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.key.public_key()))
        body = json.dumps({"keys": [{**jwk, "kid": KID, "use": "sig", "alg": "RS256"}]}).encode()

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.jwks_url = f"http://127.0.0.1:{self.http.server_address[1]}/jwks.json"
        self.thread = threading.Thread(target=self.http.serve_forever, daemon=True)
        self.thread.start()

    def public_pem(self) -> bytes:
        public = self.key.public_key()
        return public.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)

    def close(self) -> None:
        self.http.shutdown()
        self.http.server_close()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unsigned(header: dict[str, Any], claims: dict[str, Any], sign: Any = None) -> str:
    head = _b64(json.dumps(header).encode()) + "." + _b64(json.dumps(claims).encode())
    return head + "." + (_b64(sign(head.encode())) if sign else "")


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[HttpServer, Issuer, str, Path]]:
    issuer = Issuer()
    db = tmp_path_factory.mktemp("oauth") / "memvault.db"
    port = free_port()
    resource = f"http://127.0.0.1:{port}/mcp"
    server = HttpServer(db, "--auth", "oauth", "--oauth-issuer", ISSUER, "--oauth-resource", resource,
                        "--oauth-jwks-url", issuer.jwks_url, "--oauth-tenant-claim", "org", port=port)
    yield server, issuer, resource, db
    server.close()
    issuer.close()


def _claims(resource: str, **overrides: Any) -> dict[str, Any]:
    now = int(time.time())
    return {"iss": ISSUER, "aud": resource, "sub": "user-1", "iat": now, "exp": now + 300, "org": "acme",
            **overrides}


def _token(issuer: Issuer, claims: dict[str, Any]) -> str:
    return jwt.encode(claims, issuer.key, algorithm="RS256", headers={"kid": KID})


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
        return _token(issuer, {**claims, "exp": exp}), f"token expired on {format_ms(exp * 1000)}"
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
    if case == "not a JWT":
        return "definitely.not-a.jwt", "malformed token (not a signed JWT)"
    assert case == "no tenant claim"
    return _token(issuer, {k: v for k, v in claims.items() if k != "org"}), "claim org: is missing or not a string"


@pytest.mark.parametrize("case", ["wrong audience", "wrong issuer", "expired", "alg none", "HS256 with the public key",
                                  "no tenant claim", "unknown signing key", "audience of another path",
                                  "bad signature", "no expiry", "not a JWT"])
def test_bad_tokens_are_refused_with_401_naming_the_failed_check(setup, case: str) -> None:  # type: ignore
    server, issuer, resource, _ = setup
    token, description = _bad_token(case, issuer, resource)
    response = server.post(token, PING)
    assert response.status_code == 401, response.text
    metadata = f"{server.base}/.well-known/oauth-protected-resource/mcp"
    assert response.headers["www-authenticate"] == (
        f'Bearer realm="memvault", error="invalid_token", error_description="{description}", '
        f'resource_metadata="{metadata}"')
    assert response.json() == {"error": "invalid_token", "error_description": description}
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


def test_a_token_with_only_the_read_scope_cannot_write(setup) -> None:  # type: ignore[no-untyped-def]
    server, issuer, resource, db = setup
    token = _token(issuer, _claims(resource, org=f"ro-{uuid.uuid4().hex[:6]}", scope="openid memvault:read"))

    async def run() -> None:
        async with client(server.url, token) as c:
            refused = await c.call_tool("remember", {"content": "A read-only token wrote this."})
            assert refused.is_error and "does not grant the memvault:write scope" in refused.content[0].text
            listed = await c.call_tool("recall", {"query": "", "since": "2000-01-01T00:00:00Z"})
            assert listed.structured_content["memories"] == []

    anyio.run(run)


@pytest.mark.parametrize(("claims", "writes"), [
    ({"scope": "memvault:write"}, True), ({"scope": ["memvault:write"]}, True), ({"scp": "memvault:write"}, True),
    ({"scp": ["memvault:read", "memvault:write"]}, True), ({"scope": ["memvault:read"]}, False),
    ({"scp": "memvault:read"}, False), ({"scp": ["memvault:read"]}, False),
    ({"scope": "openid MEMVAULT:WRITE memvault:read"}, False),
])
def test_write_needs_the_write_scope_in_any_claim_form(setup, claims, writes) -> None:  # type: ignore[no-untyped-def]
    server, issuer, resource, _ = setup
    token = _token(issuer, _claims(resource, org=f"s-{uuid.uuid4().hex[:6]}", **claims))

    async def run() -> None:
        async with client(server.url, token) as c:
            stored = await c.call_tool("remember", {"content": f"written with {sorted(claims)}"})
            assert stored.is_error is not writes, stored.content
            listed = await c.call_tool("recall", {"query": "", "since": "2000-01-01T00:00:00Z"})
            assert len(listed.structured_content["memories"]) == (1 if writes else 0)

    anyio.run(run)


@pytest.mark.parametrize("claims", [{}, {"scope": "openid profile"}, {"scope": "MEMVAULT:READ MEMVAULT:WRITE"},
                                    {"scp": []}, {"scope": 7}])
def test_a_token_without_a_memvault_scope_gets_403_insufficient_scope(setup, claims) -> None:  # type: ignore
    server, issuer, resource, _ = setup
    response = server.post(_token(issuer, _claims(resource, **claims)), PING)
    assert response.status_code == 403, response.text
    assert 'error="insufficient_scope"' in response.headers["www-authenticate"]


def test_the_metadata_names_the_scopes(setup) -> None:  # type: ignore[no-untyped-def]
    server, _, _, _ = setup
    document = httpx2.get(f"{server.base}/.well-known/oauth-protected-resource/mcp", timeout=10).json()
    assert "memvault:read" in document["scopes_supported"]


@pytest.mark.parametrize("tenant", [" bravo ", "bravo\t", "\u00a0bravo", "bravo\n", "cafe\u0301",
                                    # round 3: invisible, format and compatibility characters (validate.name)
                                    "bravo\u200b", "\u180ebravo", "bra\u00advo", "bravo\u3164", "\uff42ravo", "bravo\x1b"])
def test_a_tenant_claim_that_trimming_or_nfc_changes_is_refused(setup, tenant) -> None:  # type: ignore
    server, issuer, resource, _ = setup
    response = server.post(_token(issuer, _claims(resource, org=tenant, scope="memvault:write")), PING)
    assert response.status_code == 401 and response.json()["error"] == "invalid_token", response.text


@pytest.mark.parametrize("header", [
    {"alg": "ES256", "kid": KID}, {"alg": "EdDSA", "kid": KID}, {"alg": "PS256", "kid": "x\nFORGED log line\x00"},
    {"alg": "RS256", "kid": "evil\r\nrefused nothing"}, {"alg": "ES384", "kid": KID, "typ": "JWT"},
])
def test_every_token_failure_is_401_and_the_log_never_repeats_the_header(setup, header) -> None:  # type: ignore
    server, issuer, resource, _ = setup
    token = _unsigned(header, _claims(resource), lambda data: b"\x01" * 64)
    response = server.post(token, PING)
    assert response.status_code == 401 and response.json()["error"] == "invalid_token", response.text
    log = server.log()
    assert "FORGED" not in log and "refused nothing" not in log and "\x00" not in log and "Traceback" not in log


def test_a_key_withdrawn_from_the_jwks_is_refused_once_the_set_is_read_again(monkeypatch) -> None:  # type: ignore
    """PyJWKClient(cache_keys=True) trusted a withdrawn key until restart (a token wrote 315 s
    after the JWKS was read again). In process, the key set's lifespan shortened to 1 s."""
    from memvault.server import auth
    from memvault.server.config import HttpConfig

    issuer, successor = Issuer(), rsa.generate_private_key(public_exponent=65537, key_size=2048)
    monkeypatch.setattr(auth, "JWKS_LIFESPAN_S", 1)
    resource = "http://127.0.0.1:9/mcp"
    verifier = auth.JwtVerifier(HttpConfig(auth="oauth", issuer=ISSUER, resource=resource,
                                           jwks_url=issuer.jwks_url, tenant_claim="org"))
    token = _token(issuer, _claims(resource, scope="memvault:write"))
    try:
        assert auth.identity_of(anyio.run(verifier.verify_token, token)).tenant == "acme"
        issuer.key = successor  # the issuer publishes only its new key from now on
        issuer.close()
        rotated = Issuer.__new__(Issuer)
        rotated.key = successor
        jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(successor.public_key()))
        body = json.dumps({"keys": [{**jwk, "kid": "test-key-2", "use": "sig", "alg": "RS256"}]}).encode()
        port = int(issuer.jwks_url.rsplit(":", 1)[1].split("/")[0])

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                self.send_response(200)
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        rotated.http = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        threading.Thread(target=rotated.http.serve_forever, daemon=True).start()
        time.sleep(1.5)
        with pytest.raises(auth.TokenRefused, match="kid not in its JWKS"):
            anyio.run(verifier.verify_token, token)
    finally:
        if "rotated" in locals():
            rotated.close()
