"""The team server says what it takes (oauth78's low findings): ``--tenant`` and ``--scope``, which a key
or a token names instead, are refused under ``--auth keys`` and ``oauth`` rather than ignored (and
``MEMVAULT_TENANT`` / ``MEMVAULT_SCOPE`` said unused in the log); a JWKS's shared secret ("oct") without
an alg is said unusable, as one with an alg is; a memvault API key sent to an OAuth server is named as
one; a token asking for an unencoded payload (``b64: false``, RFC 7797) is told so."""

from __future__ import annotations

import json
import logging
import socket
from pathlib import Path

import httpx2
import jwt
import pytest
from httpwire import PING, HttpServer, free_port, new_key, refused
from raw import execute
from test_jwks import clock, issuer, keys_of  # noqa: F401 - fixtures
from test_oauth import KID, _claims, _served, _unsigned

from memvault.server import cli
from memvault.server.auth import KeyRefused, Malformed, check_compact

OAUTH = ["--auth", "oauth", "--oauth-issuer", "http://127.0.0.1:9/", "--oauth-resource", "http://127.0.0.1:9/mcp"]


@pytest.mark.parametrize("auth", [["--auth", "keys"], [], OAUTH])
@pytest.mark.parametrize(("flags", "named"), [
    (["--tenant", "acme"], "--tenant: has no effect with --auth"),
    (["--scope", "ops"], "--scope: has no effect with --auth"),
    (["--tenant", "acme", "--scope", "ops"], "--tenant, --scope: have no effect with --auth"),
])
def test_a_tenant_or_scope_flag_is_refused_where_callers_name_their_own(tmp_path, capsys, auth, flags, named):
    db = tmp_path / "team.db"
    code = cli.main(["serve", "--transport", "http", "--port", str(free_port()), "--db", str(db), *auth, *flags])
    err = capsys.readouterr().err
    assert code == 2 and named in err and "refused rather than ignored" in err, err
    assert ("each token names its tenant" if auth == OAUTH else "each key names its tenant, and a key its scope") in err


def test_under_auth_none_the_tenant_flag_is_the_callers(tmp_path):
    db = tmp_path / "team.db"
    server = HttpServer(db, "--auth", "none", "--tenant", "acme")
    try:
        body = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": {"name": "remember", "arguments": {"content": "Written under auth none."}}}
        assert server.post(None, body).status_code == 200
    finally:
        server.close()
    assert execute(db, "SELECT tenant FROM memories") == [("acme",)]


def test_the_tenant_and_scope_variables_are_said_unused_under_keys(tmp_path):
    db = tmp_path / "team.db"
    key = new_key(db, "acme")
    server = HttpServer(db, "--auth", "keys", MEMVAULT_TENANT="bravo", MEMVAULT_SCOPE="ops")
    try:
        assert server.post(key, PING).status_code == 200
        log = server.log()
    finally:
        server.close()
    assert "MEMVAULT_TENANT is not used with --auth keys: each caller's key names its tenant and scope" in log
    assert "MEMVAULT_SCOPE is not used with --auth keys" in log


@pytest.mark.parametrize("secret", [{"kty": "oct", "k": "c2VjcmV0LXNoYXJlZC13aXRoLXRoZS1pc3N1ZXI"},
                                    {"kty": "oct", "k": "c2VjcmV0", "use": "sig"}])
def test_a_shared_secret_without_an_alg_is_said_unusable(issuer, clock, caplog, secret) -> None:  # noqa: F811
    issuer.published = {}
    issuer.document = {"keys": [{**secret, "kid": KID}]}
    keys = keys_of(issuer, clock)
    caplog.set_level(logging.WARNING, logger="memvault.server.auth")
    with pytest.raises(KeyRefused, match='cannot verify it: its JWK is a shared secret \\(kty "oct"\\), not a public key'):
        keys.key(KID, "HS256")
    assert any('is not used: its JWK is a shared secret (kty "oct")' in m for m in caplog.messages)
    assert any("lists no signing key memvault can use (1 listed)" in m for m in caplog.messages)


@pytest.mark.parametrize("token", ["mvk_" + "a" * 40, "mvk_abc.def", "mvk_"])
def test_a_memvault_key_is_named_as_one(token):
    with pytest.raises(Malformed, match=r"^this is a memvault API key \(mvk_\.\.\.\), and this server takes OAuth"):
        check_compact(token)


def test_over_http_a_memvault_key_and_an_unencoded_payload_are_named(tmp_path: Path) -> None:
    with _served(tmp_path) as (server, issuer, resource, _):
        said = refused(server.post("mvk_" + "a" * 40, PING), 401, "invalid_token")
        assert said.startswith("this is a memvault API key"), said
        claims = _claims(resource, scope="memvault:read")
        for header in ({"alg": "RS256", "kid": KID, "b64": False}, {"alg": "RS256", "kid": KID, "b64": False,
                                                                     "crit": ["b64"]}, {"alg": "RS256", "kid": KID, "b64": 0}):
            token = _unsigned(header, claims, lambda data: jwt.get_algorithm_by_name("RS256").sign(data, issuer.key))
            said = refused(server.post(token, PING), 401, "invalid_token")
            assert said.startswith("the token's b64 header asks for claims not in base64url (RFC 7797)"), said
        sound = jwt.encode(claims, issuer.key, algorithm="RS256", headers={"kid": KID, "b64": True})
        assert server.post(sound, PING).status_code == 200


@pytest.fixture(scope="module")
def keyed(tmp_path_factory):
    db = tmp_path_factory.mktemp("keyed") / "team.db"
    key = new_key(db, "acme")
    server = HttpServer(db, "--auth", "keys", "--rate-limit", "100000")
    try:
        yield server, key
    finally:
        server.close()


@pytest.mark.parametrize("value", ["Bearer {k}, Bearer {k}", "Bearer {k} {k}", "Bearer {k},{k}", "Bearer {k}\t{k}",
                                   "Bearer {k} extra"])
def test_two_tokens_in_one_header_are_named_as_such(keyed, value):
    server, key = keyed
    response = httpx2.post(server.url, json=PING, headers={"content-type": "application/json",
                           "accept": "application/json, text/event-stream", "authorization": value.format(k=key)})
    said = refused(response, 401, "invalid_token")
    assert said.startswith("the Authorization header holds more than one word after Bearer"), said
    assert key not in response.text
    assert server.post(key, PING).status_code == 200  # one token, as before


def test_a_request_without_a_host_header_is_told_so(keyed):
    server, key = keyed
    body = json.dumps(PING).encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(b"POST /mcp HTTP/1.0\r\ncontent-type: application/json\r\naccept: application/json, "
                     b"text/event-stream\r\nauthorization: Bearer " + key.encode() + b"\r\ncontent-length: "
                     + str(len(body)).encode() + b"\r\n\r\n" + body)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, text = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 421"), head
    assert json.loads(text)["error"]["message"].startswith("the request has no Host header"), text


@pytest.mark.parametrize(("body", "headers", "status", "kind"), [
    (json.dumps(PING), {"accept": "text/html"}, 406, "not_acceptable"),
    ('{"jsonrpc": "2.0", "id": 1, "method": "ping"', {}, 400, "parse_error"),  # bad JSON
    ('{"jsonrpc": "2.0", "id": 1, "id": 2, "method": "ping"}', {}, 400, "invalid_request"),  # a key twice
    ('{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": NaN}}', {}, 400, "parse_error"),
    ("[]", {}, 400, "invalid_request"),
    (json.dumps([PING] * 51), {}, 400, "invalid_request"),
    ('"hello"', {}, 400, "invalid_request"),
])
def test_every_refusal_of_mcp_names_its_status_and_kind(keyed, body, headers, status, kind):
    server, key = keyed
    sent = {"content-type": "application/json", "accept": "application/json, text/event-stream",
            "authorization": f"Bearer {key}", **headers}
    response = httpx2.post(server.url, content=body.encode(), headers=sent, timeout=30)
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["data"]["status"] == status and error["data"]["error"] == kind, error
    assert error["message"] and "Traceback" not in response.text


def test_utf16_is_refused_naming_its_status(keyed):
    server, key = keyed
    response = httpx2.post(server.url, content=json.dumps(PING).encode("utf-16"), timeout=30, headers={
        "content-type": "application/json", "accept": "application/json, text/event-stream",
        "authorization": f"Bearer {key}"})
    assert response.status_code == 400 and response.json()["error"]["data"] == {"status": 400, "error": "parse_error"}
