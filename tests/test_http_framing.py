"""How the team server reads where a request ends, over raw sockets (closing pass of issue 25):
a request with both Content-Length and Transfer-Encoding got 200 and its connection stayed open
for the next request (h11 reads it as chunked; a proxy before the server may read it by its
length, so what follows may be a smuggled request: RFC 9112 §6.1, §6.3)."""

from __future__ import annotations

import json
import socket

import pytest
from httpwire import HttpServer, new_key

from memvault.server import http

pytestmark = pytest.mark.slow

PING = b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}'


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("framing")
    key = new_key(folder / "m.db", "acme")
    s = HttpServer(folder / "m.db", logs=folder)
    yield s, key
    s.close()


def exchange(port: int, data: bytes) -> tuple[list[tuple[int, dict[str, str], bytes]], bool]:
    """``data`` sent on one connection: each response read (status, headers in lower case, body),
    and whether the server closed the connection after them (else the read timed out)."""
    responses, buffer, closed = [], b"", False
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(data)
        sock.settimeout(3)
        while True:
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                break
            if not chunk:
                closed = True
                break
            buffer += chunk
    while buffer:
        head, _, rest = buffer.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        size = int(headers.get("content-length", len(rest)))
        responses.append((int(lines[0].split()[1]), headers, rest[:size]))
        buffer = rest[size:]
    return responses, closed


def request(port: int, key: str, body: bytes, framing: str, method: str = "POST", path: str = "/mcp") -> bytes:
    return (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {key}\r\n"
            f"Content-Type: application/json\r\nAccept: application/json\r\n{framing}\r\n").encode() + body


def chunked(body: bytes) -> bytes:
    return f"{len(body):x}\r\n".encode() + body + b"\r\n0\r\n\r\n"


@pytest.mark.parametrize("framing", [
    "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n",
    "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n",
    "Content-Length: 0\r\nTransfer-Encoding: Chunked\r\n",
    "content-length: {size}\r\ntransfer-encoding: chunked\r\n",  # the chunked body's exact length
])
@pytest.mark.parametrize(("method", "path"), [("POST", "/mcp"), ("GET", "/healthz")])
def test_a_request_with_two_lengths_is_refused_and_its_connection_closed(server, framing, method, path):
    s, key = server
    body = chunked(PING)
    smuggled = request(s.port, key, PING, f"Content-Length: {len(PING)}\r\n")
    sent = request(s.port, key, body, framing.format(size=len(body)), method, path) + smuggled
    responses, closed = exchange(s.port, sent)
    assert len(responses) == 1 and closed, responses  # the request after it was never read
    status, headers, content = responses[0]
    said = json.loads(content)
    assert status == 400 and headers["content-type"] == "application/json" and headers["connection"] == "close"
    assert said["error"] == "invalid_request" and "Content-Length and Transfer-Encoding" in said["error_description"]


@pytest.mark.parametrize("framing", ["Content-Length: {size}\r\n", "Transfer-Encoding: chunked\r\n"])
def test_a_request_with_one_length_is_served_and_its_connection_kept(server, framing):
    s, key = server
    body = PING if framing.startswith("Content-Length") else chunked(PING)
    one = request(s.port, key, body, framing.format(size=len(body)))
    responses, closed = exchange(s.port, one + one)
    assert [r[0] for r in responses] == [200, 200] and not closed, responses


def test_a_chunked_body_over_the_limit_is_refused_once_it_is_read_past_the_limit(server):
    """413 as soon as the bytes read pass the limit. A chunk's declared size is not seen: uvicorn
    hands the application the body's bytes only, so a chunk declared larger than the limit and
    not sent waits for the read timeout (docs/team-server-security.md)."""
    s, key = server
    big = b"x" * (http.MAX_BODY_BYTES + 1)
    responses, _ = exchange(s.port, request(s.port, key, f"{len(big):x}\r\n".encode() + big,
                                            "Transfer-Encoding: chunked\r\n"))
    status, headers, content = responses[0]
    assert status == 413 and json.loads(content)["error"] == "request_too_large"
