"""A request whose Host header is missing (HTTP/1.1), given twice, or empty gets memvault's 400 naming
what is wrong with it (RFC 9112 §3.2), on /mcp and /healthz alike: a missing or doubled Host got the
generic "could not be read as HTTP/1.1", an empty one 421 "names no host this server answers to". A
request with one Host naming this server is still served on the same server."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from httpwire import PING, HttpServer, new_key

NONE = "the request has no Host header: HTTP/1.1 requires one naming this server (RFC 9112 §3.2)"
TWO = "the request has more than one Host header: send one, naming this server (RFC 9112 §3.2)"
EMPTY = "the Host header is empty: send one naming this server (RFC 9112 §3.2)"


@pytest.fixture(scope="module")
def keyed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[HttpServer, str]]:
    db = Path(tmp_path_factory.mktemp("host")) / "team.db"
    key = new_key(db, "acme")
    server = HttpServer(db)
    try:
        yield server, key
    finally:
        server.close()


def _sent(server: HttpServer, key: str, target: str, hosts: list[bytes], version: bytes = b"HTTP/1.1",
          ) -> tuple[bytes, bytes]:
    """The status line and body of the answer to one raw request to ``target`` with a Host header for each
    of ``hosts`` (none when empty)."""
    body = json.dumps(PING).encode() if target == "/mcp" else b""
    head = b"".join(b"Host:" + h + b"\r\n" for h in hosts) + (
        b"content-type: application/json\r\naccept: application/json, text/event-stream\r\nauthorization: Bearer "
        + key.encode() + b"\r\ncontent-length: " + str(len(body)).encode() + b"\r\nconnection: close\r\n"
        if body else b"connection: close\r\n")
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(b"%s %s %s\r\n" % (b"POST" if body else b"GET", target.encode(), version) + head + b"\r\n" + body)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    status, _, text = answer.partition(b"\r\n\r\n")
    return status.split(b"\r\n")[0], text


@pytest.mark.parametrize("target", ["/mcp", "/healthz"])
@pytest.mark.parametrize(("hosts", "version", "said"), [
    ([], b"HTTP/1.1", NONE), ([b" 127.0.0.1", b" 127.0.0.1"], b"HTTP/1.1", TWO),
    ([b" 127.0.0.1", b" evil.example"], b"HTTP/1.1", TWO), ([b""], b"HTTP/1.1", EMPTY), ([b"  "], b"HTTP/1.1", EMPTY),
    ([b"\t"], b"HTTP/1.1", EMPTY), ([b""], b"HTTP/1.0", EMPTY),
])
def test_a_missing_doubled_or_empty_host_is_told_so_in_a_400(keyed, target, hosts, version, said):
    server, key = keyed
    status, text = _sent(server, key, target, hosts, version)
    assert status.startswith(b"HTTP/1.1 400 "), (status, text)
    error = json.loads(text)["error"]
    assert error["message"] == said and error["data"] == {"status": 400, "error": "invalid_request"}, error


@pytest.mark.parametrize("target", ["/mcp", "/healthz"])
def test_one_host_naming_this_server_is_served(keyed, target):
    server, key = keyed
    status, text = _sent(server, key, target, [b" 127.0.0.1:%d" % server.port])
    assert status.startswith(b"HTTP/1.1 200 "), (status, text)
    assert b'"result"' in text if target == "/mcp" else json.loads(text)["status"] == "ok"
