"""A request whose params the MCP SDK refuses is answered -32602 naming the field and what the method
takes, over stdio and HTTP alike (new-user trial 50, section 7: ``resources/read`` without ``uri``,
``tools/call`` with a number for ``name`` or without params all said "Invalid request parameters" and
sent empty data)."""

from __future__ import annotations

import json

import httpx2
import pytest

from memvault.server.params import takes

HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream",
           "mcp-protocol-version": "2025-06-18"}
TRANSPORTS = ["stdio", "http"]
TOKEN = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789AB"  # a GitHub token's shape, nobody's


@pytest.fixture
def servers(wire_servers):
    return wire_servers  # the worker's pair (conftest), shared with test_edges25_wire


def send(servers, transport: str, method: str, params: object = None) -> dict:
    """One request (no ``params`` member when ``params`` is None); its reply."""
    stdio, http = servers
    message = {"jsonrpc": "2.0", "id": 5, "method": method, **({} if params is None else {"params": params})}
    if transport == "stdio":
        stdio.send_raw(json.dumps(message).encode() + b"\n")
        return stdio.receive()
    return httpx2.post(http.url, json=message, headers=HEADERS, timeout=30).json()


CASES = [  # the trial's four, then the same kind on other methods and fields
    ("resources/read", {}, "uri: is required; resources/read takes params as an object with uri (a string)"),
    ("resources/read", {"uri": 5}, "uri: must be a string; resources/read takes params as an object with uri (a string)"),
    ("tools/call", {"name": 5, "arguments": {}}, "name: must be a string; tools/call takes params as an object with "
                                                 "name (a string)"),
    ("tools/call", None, "params: is required; tools/call takes params as an object with name (a string)"),
    ("prompts/get", None, "params: is required; prompts/get takes params as an object with name (a string)"),
    ("prompts/get", {"name": ["save_session"]}, "name: must be a string; prompts/get takes"),
    ("resources/read", {"uri": None}, "uri: must be a string; resources/read takes"),
    ("resources/read", None, "params: is required; resources/read takes"),
    ("tools/list", {"cursor": 5}, "cursor: must be a string; tools/list takes params as an object"),
    ("prompts/list", {"cursor": {"a": 1}}, "cursor: must be a string; prompts/list takes"),
    ("tools/call", {"name": "recall", "arguments": {"query": "x"}, "_meta": 5}, "_meta: must be an object; tools/call"),
    ("logging/setLevel", {"level": "loud"}, "level: Input should be 'alert', "),
    # params that are no object at all (trial 52: -32600 and pydantic's "Input should be a valid dictionary")
    ("tools/call", [1, 2], "params: must be an object; tools/call takes params as an object with name (a string)"),
    ("resources/read", "x", "params: must be an object; resources/read takes params as an object with uri (a string)"),
    ("tools/list", 5, "params: must be an object; tools/list takes params as an object"),
    ("prompts/get", True, "params: must be an object; prompts/get takes"),
]


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("method, params, says", CASES)
def test_params_the_sdk_refuses_are_refused_naming_the_field(servers, transport, method, params, says):
    reply = send(servers, transport, method, params)
    error = reply["error"]
    assert error["code"] == -32602 and error["message"].startswith(says), reply
    assert "Invalid request parameters" not in error["message"]


REQUIRING = ["resources/read", "resources/subscribe", "resources/unsubscribe", "prompts/get", "tools/call",
             "completion/complete"]


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("method", REQUIRING)
def test_every_method_without_its_params_says_what_it_takes(servers, transport, method):
    reply = send(servers, transport, method)
    error = reply["error"]
    assert error["code"] == -32602 and error["message"] == f"params: is required; {method} takes params as {takes(method)}"
    assert takes(method).startswith("an object with ") and "(" in takes(method)


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_refused_params_key_holding_a_credential_is_described_never_sent_back(servers, transport):
    reply = send(servers, transport, "resources/read", {TOKEN: 5})
    assert reply["error"]["message"].startswith("uri: is required") and TOKEN not in json.dumps(reply)


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_request_after_refused_params_is_still_served(servers, transport):
    send(servers, transport, "resources/read", {})
    assert "contents" in send(servers, transport, "resources/read", {"uri": "memory://boot"})["result"]


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("message, says", [
    ({"jsonrpc": "1.0", "id": 5, "method": "tools/list"}, 'Invalid Request: jsonrpc: must be "2.0"'),
    ({"jsonrpc": "2.0", "id": 5, "method": 7}, "Invalid Request: method: must be a string"),
    ({"jsonrpc": "2.0", "id": 5, "method": "no/such", "params": "x"}, "Invalid Request: "),
])
def test_a_malformed_envelope_is_refused_in_memvaults_words(servers, transport, message, says):
    stdio, http = servers
    if transport == "stdio":
        stdio.send_raw(json.dumps(message).encode() + b"\n")
        reply = stdio.receive()
    else:
        reply = httpx2.post(http.url, json=message, headers=HEADERS, timeout=30).json()
    assert reply["error"]["code"] == -32600 and reply["error"]["message"].startswith(says), reply
    assert "Input should be" not in reply["error"]["message"]
