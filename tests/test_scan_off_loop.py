"""A credential scan of what a request names never holds the team server (issue 25, item 1.1; round 41).

A read-only key sent one JSON-RPC request whose unknown method was ``"://u:" + "PASS" * k + "1@h"``: the
SDK's "Method not found" echoes the method, memvault scanned it whole on the event loop, and a filter took
quadratic time on the password's value: ``/healthz`` waited 28.6 s at 64 KB and over 120 s at 128 KB."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator

import httpx2
import pytest

from test_secret_scan import BOUND_S

pytestmark = pytest.mark.slow
NAME = "://u:" + "PASS" * 50_000 + "1@h"  # 200 KB, the password of a URL
# The same with a password in the first 1,000 characters, the part scanned and sent back
HOLDING = "://u:" + "PASS" * 200 + "1@h " + "PASS" * 50_000
BATCH_NAME = "pwd=\"{" + " " * 196 + "!\"" * 4  # a tool name of quoted decoys


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[object, str]]:
    from httpwire import HttpServer, new_key

    db = tmp_path_factory.mktemp("offloop") / "m.db"
    reader = new_key(db, "acme", read_only=True)
    server = HttpServer(db)
    try:
        yield server, reader
    finally:
        server.close()


def _head(server: object, key: str, length: int) -> bytes:
    port = server.port  # type: ignore[attr-defined]
    return (f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"Accept: application/json, text/event-stream\r\nAuthorization: Bearer {key}\r\n"
            f"Content-Length: {length}\r\nConnection: close\r\n\r\n").encode()


def _healthz_wait(server: object) -> tuple[httpx2.Response, float]:
    """``GET /healthz``'s response and how long it took, in seconds."""
    start = time.perf_counter()
    health = httpx2.get(f"{server.base}/healthz", timeout=30)  # type: ignore[attr-defined]
    return health, time.perf_counter() - start


def _reply(sock: socket.socket) -> dict[str, object]:
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200"), head
    return json.loads(body)  # type: ignore[no-any-return]


def test_an_unknown_method_of_200_kb_is_refused_while_healthz_answers(served: tuple[object, str]) -> None:
    """One request is held in flight (its body's last bytes unsent) and another is sent whole; /healthz
    answers meanwhile, then both get -32601 with the method's first 1,000 characters, or what they look
    like when they hold a credential."""
    server, reader = served
    idle = min(_healthz_wait(server)[1] for _ in range(2))  # nothing else running: the machine's pace in this run
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": HOLDING}).encode()
    answers: dict[str, httpx2.Response] = {}
    whole = threading.Thread(target=lambda: answers.update(whole=server.post(
        reader, {"jsonrpc": "2.0", "id": 2, "method": NAME})))
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as held:  # type: ignore[attr-defined]
        held.sendall(_head(server, reader, len(body)) + body[:-10])
        whole.start()
        time.sleep(0.3)
        health, waited = _healthz_wait(server)
        # a scan on the loop made it wait for the whole scan (28.6 s at 64 KB); against its idle pace, so a
        # loaded machine is not taken for a held loop (5.4 s once beside other helpers' suites)
        assert health.status_code == 200 and waited < BOUND_S + 4 * idle
        held.sendall(body[-10:])  # the held request was in flight until now
        refused = _reply(held)
    whole.join(60)
    assert not whole.is_alive()
    cut = answers["whole"].json()["error"]
    assert refused["error"] == {"code": -32601, "message": "Method not found",  # type: ignore[comparison-overlap]
                                "data": "a value that looks like a password in a URL"}
    assert cut["code"] == -32601 and cut["data"] == NAME[:1_000] + "..."


def test_a_batch_of_unknown_tools_named_by_decoys_is_refused_while_healthz_answers(
        served: tuple[object, str]) -> None:
    """50 tools/call naming an unknown tool of quoted decoys took 44.6 s: each name's description is
    scanned off the event loop, from its first 1,000 characters."""
    server, reader = served
    batch = [{"jsonrpc": "2.0", "id": i, "method": "tools/call",
              "params": {"name": BATCH_NAME + str(i), "arguments": {}}} for i in range(50)]
    answers: dict[str, httpx2.Response] = {}
    sent = {"content-type": "application/json", "accept": "application/json", "authorization": f"Bearer {reader}"}
    slow = threading.Thread(target=lambda: answers.update(batch=httpx2.post(
        server.url, json=batch, headers=sent, timeout=60)))  # type: ignore[attr-defined]
    slow.start()
    health = httpx2.get(f"{server.base}/healthz", timeout=30)  # type: ignore[attr-defined]
    slow.join(60)
    assert not slow.is_alive() and health.status_code == 200
    replies = answers["batch"].json()
    assert len(replies) == 50 and all(r["result"]["isError"] for r in replies)
    assert replies[0]["result"]["content"][0]["text"].startswith("unknown tool 'pwd=\"{")
