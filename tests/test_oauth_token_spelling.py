"""Tokens read one way, refusals said readably, and OAuth URLs in clear refused at start (trial 75 L2, L3,
L8, L4, L5): over a real team server trusting a loopback issuer (test_oauth.Issuer), and ``load_http``."""

from __future__ import annotations

import json
import string
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import SERVE, server_env
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding
from httpwire import PING, HttpServer, free_port
from test_oauth import KID, Issuer, _call, _claims, _served, _stored, _token, _unsigned

from memvault.server import config
from memvault.server.auth import NESTING_MAX, challenge

pytestmark = pytest.mark.slow
ALPHABET = string.ascii_uppercase + string.ascii_lowercase + string.digits + "-_"
BASE64URL = ("malformed token (not a signed JWT): its {part} part is not base64url as RFC 7515 section 2 writes it "
             "(the URL-safe alphabet, no padding '=', no white space, one spelling)")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[HttpServer, Issuer, str, Path]]:
    with _served(tmp_path_factory.mktemp("spelling")) as running:
        yield running


def _sign(issuer: Issuer) -> Any:
    return lambda data: issuer.key.sign(data, padding.PKCS1v15(), hashes.SHA256())


def _respelled(token: str, case: str) -> tuple[str, str]:
    """``token`` written another way, and the part the refusal names."""
    header, claims, signature = token.split(".")
    unused = ALPHABET[ALPHABET.index(signature[-1]) ^ 1]  # the last character's lowest bit carries no data here
    return {
        "== after the signature": (f"{token}==", "signature"),  # the trial's: accepted
        "= after the signature": (f"{token}=", "signature"),
        "each part padded": (".".join(p + "=" * (-len(p) % 4) for p in (header, claims, signature)),
                             next(n for n, p in zip(("header", "claims"), (header, claims), strict=True) if len(p) % 4)),
        "the signature in the standard alphabet": (token.replace("-", "+").replace("_", "/"), "header"),
        "a signature's unused bits set": (f"{header}.{claims}.{signature[:-1]}{unused}", "signature"),
        "a space inside the signature": (f"{header}.{claims}.{signature[:9]} {signature[9:]}", "signature"),
        "a signature one character long": (f"{header}.{claims}.A", "signature"),
    }[case]


@pytest.mark.parametrize("case", ["== after the signature", "= after the signature", "each part padded",
                                  "the signature in the standard alphabet", "a signature's unused bits set",
                                  "a space inside the signature", "a signature one character long"])
def test_a_token_spelled_another_way_is_refused_naming_the_part(served, case: str) -> None:
    server, issuer, resource, db = served
    tenant = f"s-{uuid.uuid4().hex[:6]}"
    # "-" and "_" in the signature (the standard-alphabet case needs them), and its last character's low bit free
    token = next(t for t in (_token(issuer, _claims(resource, org=tenant, scope="memvault:write", n=n)) for n in
                             range(200)) if {"-", "_"} <= set(t) and len(t.split(".")[2]) % 4 == 2)
    spelled, part = _respelled(token, case)
    if "standard alphabet" in case:
        part = next(name for name, p in zip(("header", "claims", "signature"), token.split("."), strict=True)
                    if {"-", "_"} & set(p))
    response = server.post(spelled, _call("remember", {"content": f"Written by a token with {case}."}))
    assert response.status_code == 401, response.text
    assert response.json()["error"]["message"] == BASE64URL.format(part=part).replace("section 2", "§2")
    assert f'error_description="{BASE64URL.format(part=part)}"' in response.headers["www-authenticate"]
    assert server.post(token, _call("remember", {"content": "Written by the token as issued."})).status_code == 200
    assert _stored(db, tenant) == ["Written by the token as issued."]


@pytest.mark.parametrize(("extra", "said"), [
    ("..", "a JWT is three parts separated by dots"), (".", "a JWT is three parts separated by dots")])
def test_a_token_of_another_number_of_parts_is_told_so(served, extra: str, said: str) -> None:
    server, issuer, resource, _ = served
    token = _token(issuer, _claims(resource, scope="memvault:read"))
    response = server.post(token + extra, PING)
    assert response.status_code == 401 and response.json()["error"]["message"] == \
        f"malformed token (not a signed JWT): {said}"


@pytest.mark.parametrize(("part", "levels", "taken"), [
    ("claims", 5_000, False), ("claims", NESTING_MAX + 1, False), ("claims", NESTING_MAX, True),
    ("header", 5_000, False), ("header", NESTING_MAX + 1, False), ("header", 4, True),
])
def test_a_signed_token_nested_too_deeply_is_told_so(served, part: str, levels: int, taken: bool) -> None:
    """A token whose claims nest 5,000 levels was told "malformed token (not a signed JWT)"."""
    server, issuer, resource, _ = served
    nested = "[" * (levels - 1) + "]" * (levels - 1)  # inside the part's own object
    header, claims = {"alg": "RS256", "typ": "JWT", "kid": KID}, _claims(resource, scope="memvault:read")
    texts = [json.dumps(header), json.dumps(claims)]
    at = 0 if part == "header" else 1
    texts[at] = texts[at][:-1] + f', "x-deep": {nested}}}'
    response = server.post(_unsigned(texts[0], texts[1], _sign(issuer)), PING)
    if taken:
        assert response.status_code == 200, response.text
        return
    assert response.status_code == 401 and response.json()["error"]["message"] == (
        f"the token's {part} part nests more than {NESTING_MAX} levels of arrays and objects, the most read")


@pytest.mark.parametrize(("description", "written"), [
    ("RFC 7515 §5.2, RFC 7519 §4", "RFC 7515 section 5.2, RFC 7519 section 4"),
    ("see § 4", "see section 4"),
    ("tenant acmé", "tenant acm<U+00E9>"),
    ("a \"quoted\" word\\", "a <U+0022>quoted<U+0022> word<U+005C>"),
    ("\u200bx\n", "<U+200B>x<U+000A>"),
    ("plain ASCII stays as it is: (a) [b] {c}", "plain ASCII stays as it is: (a) [b] {c}"),
])
def test_a_challenge_writes_each_character_outside_rfc_6750_readably(description: str, written: str) -> None:
    """§ was "U+00A7" glued to what followed ("RFC 7518 U+00A73.3", "acmU+00E9")."""
    assert challenge(description) == f'Bearer realm="memvault", error="invalid_token", error_description="{written}"'


def test_a_refusal_citing_a_section_reads_section_in_the_challenge_and_as_sent_in_the_body(served) -> None:
    server, issuer, resource, _ = served
    claims = json.dumps(_claims(resource, scope="memvault:read"))
    response = server.post(_unsigned({"alg": "RS256", "kid": KID}, '{"aud": "x", ' + claims[1:], _sign(issuer)), PING)
    assert response.status_code == 401
    assert response.json()["error"]["message"].endswith("(RFC 7515 §5.2, RFC 7519 §4)")
    assert "(RFC 7515 section 5.2, RFC 7519 section 4)\"" in response.headers["www-authenticate"]


@pytest.mark.parametrize("claim", ["sub", "azp", "client_id"])
def test_an_empty_caller_claim_is_refused_and_a_missing_one_is_not(served, claim: str) -> None:
    """``"sub": ""`` was accepted: a caller named by nothing (a missing ``sub`` is documented as taken)."""
    server, issuer, resource, db = served
    tenant = f"e-{uuid.uuid4().hex[:6]}"
    response = server.post(_token(issuer, _claims(resource, org=tenant, scope="memvault:write", **{claim: ""})),
                           _call("remember", {"content": "Written by nobody."}))
    assert response.status_code == 401, response.text
    assert response.json()["error"]["message"] == f"claim {claim}: is empty; a token naming no caller leaves it out"
    claims = {k: v for k, v in _claims(resource, org=tenant, scope="memvault:write").items() if k != "sub"}
    assert server.post(_token(issuer, claims), _call("remember", {"content": "Written without a sub."})).status_code == 200
    assert _stored(db, tenant) == ["Written without a sub."]


@pytest.mark.parametrize(("flags", "named"), [
    ({"issuer": "http://idp.example.com"}, "--oauth-issuer"),  # alone: named itself, not the JWKS URL from it
    ({"issuer": "http://idp.example.com", "jwks_url": "https://idp.example.com/jwks"}, "--oauth-issuer"),
    ({"resource": "http://memory.example.com/mcp"}, "--oauth-resource"),
    ({"resource": "http://10.0.0.5:8765/mcp"}, "--oauth-resource"),
    ({"jwks_url": "http://idp.example.com/jwks"}, "--oauth-jwks-url"),
    ({"env": ("MEMVAULT_OAUTH_ISSUER", "http://idp.example.com")}, "MEMVAULT_OAUTH_ISSUER"),
    ({"env": ("MEMVAULT_OAUTH_RESOURCE", "http://memory.example.com/mcp")}, "MEMVAULT_OAUTH_RESOURCE"),
])
def test_an_oauth_url_in_clear_off_loopback_is_refused_naming_its_setting(monkeypatch, flags, named) -> None:
    given: dict[str, Any] = {"issuer": "https://idp.example.com", "resource": "https://memory.example.com/mcp",
                             **flags}
    if "env" in given:
        variable, value = given.pop("env")
        given.pop(variable.removeprefix("MEMVAULT_OAUTH_").lower())
        monkeypatch.setenv(variable, value)
    with pytest.raises(ValueError) as caught:
        config.load_http(auth="oauth", **given)
    assert str(caught.value).startswith(f"{named}: must be https:// (http:// only on loopback); got http://")


@pytest.mark.parametrize("url", ["http://127.0.0.1:9100", "http://localhost:9100/realms/x", "http://[::1]:9100",
                                 "http://127.5.6.7", "https://idp.example.com"])
def test_an_oauth_url_on_loopback_or_in_https_is_taken(url: str) -> None:
    http = config.load_http(auth="oauth", issuer=url, resource=url.replace("9100", "8765") + "/mcp")
    assert http.issuer == url and http.jwks_url == url.rstrip("/") + "/.well-known/jwks.json"


def test_an_issuer_in_clear_stops_the_server_naming_the_issuer(tmp_path: Path) -> None:
    proc = subprocess.run([*SERVE, "--transport", "http", "--port", str(free_port()), "--auth", "oauth",
                           "--oauth-issuer", "http://idp.example.com", "--oauth-resource",
                           "https://memory.example.com/mcp"], env=server_env(tmp_path / "m.db"),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "--oauth-issuer: must be https://" in proc.stderr, proc.stderr
    assert "jwks" not in proc.stderr.lower() and "Traceback" not in proc.stderr


@pytest.mark.parametrize("spaces", ["  ", "   ", " \t"])
def test_a_token_after_more_than_one_space_is_read_as_an_api_key_is(served, spaces: str) -> None:
    """RFC 9110 §11.4: one or more spaces follow the scheme; "Bearer  <key>" was taken and "Bearer  <JWT>" got 401."""
    server, issuer, resource, db = served
    tenant = f"w-{uuid.uuid4().hex[:6]}"
    token = _token(issuer, _claims(resource, org=tenant, scope="memvault:write"))
    response = server.post(None, _call("remember", {"content": "Written after two spaces."}),
                           Authorization=f"Bearer{spaces}{token}")
    assert response.status_code == 200, response.text
    assert _stored(db, tenant) == ["Written after two spaces."]
