"""A token in the URL of ``/mcp`` is refused however it is spelled (adversarial pass 59 F2): only six
exact, lower-case parameter names were refused, so ``?ACCESS_TOKEN=<key>``, ``?api-key=<key>``,
``?x=<key>`` and a bare ``?<key>`` were served with 200 while the key went into every proxy's log."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import httpx2
import pytest
from httpwire import PING, HttpServer, new_key

from memvault.server.http import query_token

KEY = "mvk_" + "Q7x-Lp_2" * 5 + "abc"  # a key's shape: the prefix and 43 characters of token_urlsafe(32)
JWT = "eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiJ1c2VyLTEiLCJleHAiOjk5OTk5OTk5OTl9.c2lnbmF0dXJl"
HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


@pytest.mark.parametrize("query", [
    f"access_token={KEY}", f"ACCESS_TOKEN={KEY}", f"Access_Token={KEY}", f"access-token={KEY}",
    f"api-key={KEY}", f"API_KEY={KEY}", f"apiKey={KEY}", f"x-api-key={KEY}", f"auth={KEY}",
    f"authorization={KEY}", f"Authorization=Bearer%20{KEY}", f"x={KEY}", f"mvk={KEY}", KEY, f"a=1&{KEY}",
    f"a=1;{KEY}", f"q={quote(KEY, safe='')}", "q=" + KEY.replace("_", "%5F"), "q=" + KEY.replace("_", "%255F"),
    f"state=abc&code={KEY}", f"x={JWT}", JWT, f"id_token={JWT}", f"Bearer={JWT}",
    "access_token=opaque-token-value", "TOKEN=1", "api.key=1", "Refresh-Token=r", "bearer", "Api_Token=t",
    "auth+token=t",
])
def test_a_key_a_jwt_or_a_token_parameter_in_the_query_is_found(query):
    found = query_token(query)
    assert found is not None and KEY not in found and JWT not in found


@pytest.mark.parametrize("query", ["", "a=1&b=2", "q=hello+world", "keys=3", "monkey=1", "tokenizer=bpe",
                                   "x=mvk_short", "x=eyJhbGciOi", "host=example.com.", "v=1.2.3"])
def test_a_query_without_a_token_is_not_refused(query):
    assert query_token(query) is None


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[HttpServer, str]]:
    db: Path = tmp_path_factory.mktemp("query") / "memvault.db"
    key = new_key(db, "acme", read_only=True)
    server = HttpServer(db)
    try:
        yield server, key
    finally:
        server.close()


def test_the_key_in_the_url_is_refused_under_any_name_or_none_and_never_logged(served):
    """The spellings the pass found served (200), each with a valid Authorization header: now 400, the
    key neither in the answer nor in the log; a query string without a token is still served."""
    server, key = served
    for query in (f"ACCESS_TOKEN={key}", f"Access_Token={key}", f"api-key={key}", f"auth={key}",
                  f"authorization={key}", f"x={key}", f"mvk={key}", key, f"x={JWT}", "Api-Key=anything"):
        response = httpx2.post(f"{server.url}?{query}", json=PING, timeout=30,
                               headers={**HEADERS, "authorization": f"Bearer {key}"})
        assert response.status_code == 400, query
        assert "Authorization header" in response.json()["error"]["message"] and key not in response.text
    assert key not in server.log() and JWT not in server.log()
    response = httpx2.post(f"{server.url}?client=cli&v=2", json=PING, timeout=30,
                           headers={**HEADERS, "authorization": f"Bearer {key}"})
    assert response.status_code == 200 and response.json()["result"] == {}
