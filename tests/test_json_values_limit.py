"""A message's JSON values are counted before it is parsed (adversarial pass 59 F1): 85,000 empty
arrays (255 KB, no object key, so under the 2,000-key limit) in a read-only key's ``ping`` held the
event loop 0.3 to 0.6 s in memvault's and the SDK's parses, and 4 connections of them took another
tenant's recall from 111 ms to 4 s. Each shape whose parse costs far more than its bytes is now refused
for about the CPU of an ordinary request of the same size, and ``/healthz`` answers meanwhile."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import anyio
import httpx2
import pytest
from httpwire import HttpServer, new_key

from memvault.server.wire import MEMBERS_MAX, VALUES_MAX, Wire, values_over

BODY = 255_000  # bytes: under the body limit (256 KiB), as the attack's
HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
VALUES_REFUSAL = (f"Invalid Request: the message holds more than {VALUES_MAX:,} JSON values (strings, arrays, "
                  f"objects and the items between commas); memvault reads at most {VALUES_MAX:,} (a batch of 50 "
                  "calls needs about 4,400)")


def _filled(item: str, room: int) -> str:
    return ",".join([item] * (room // (len(item) + 1)))


def _ping(meta: str) -> bytes:
    head = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"x":'
    return (head + meta + "}}}").encode()


def _shape(name: str) -> bytes:
    """A ping of about BODY bytes whose ``_meta`` holds one costly shape (or, "ordinary", one string)."""
    room = BODY - 80
    inner = {
        "ordinary": '"' + "a" * room + '"',
        "[]": "[" + _filled("[]", room) + "]",
        "[[]]": "[" + _filled("[[]]", room) + "]",
        "{}": "[" + _filled("{}", room) + "]",
        "deep": "[" * (room // 2) + "]" * (room // 2),
        "numbers": "[" + _filled("1", room) + "]",
        "nulls": "[" + _filled("null", room) + "]",
        "empty strings": "[" + _filled('""', room) + "]",
        "tiny strings": "[" + _filled('"a"', room) + "]",
        "a of arrays": '{"a":[' + _filled("[]", room) + "]}",
    }[name]
    return _ping(inner)


# The shapes whose refusal names the member the count passed the limit in (wire.crowded): the others
# are many small containers, past what it reads.
_NAMED = dict.fromkeys(["numbers", "nulls", "empty strings", "tiny strings"],
                       f"; the count passed {VALUES_MAX:,} inside params._meta.x")
SHAPES = ["[]", "[[]]", "{}", "deep", "numbers", "nulls", "empty strings", "tiny strings", "a of arrays"]


def _recall(request_id: int) -> dict:
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {"name": "recall", "arguments": {
        "query": "deploy", "kinds": ["fact", "preference", "decision", "procedure", "episode", "failure"],
        "tags": [f"tag{i}" for i in range(20)], "scopes": ["web", "api"], "limit": 50}}}


def _remember(request_id: int) -> dict:
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {"name": "remember", "arguments": {
        "content": "The deploy runs at 9, after the checks [lint, types] and {tests}. " * 30, "kind": "procedure",
        "tags": [f"tag{i}" for i in range(20)], "importance": 5, "scope": "web", "source": "the runbook",
        "observed_at": "2026-01-01T00:00:00Z", "expires_at": "2027-01-01T00:00:00Z",
        "idempotency_key": f"k{request_id}", "check_similar": True}, "_meta": {"progressToken": request_id}}}


@pytest.mark.parametrize("name", SHAPES)
def test_each_costly_shape_at_the_body_limit_is_over_the_count(name):
    assert len(_shape(name)) <= BODY and values_over(_shape(name))


@pytest.mark.parametrize("text", [
    b'["' + b",[{" * 20_000 + b'"]',  # marks inside a string are no values
    b'["' + b'\\",[{\\\\' * 10_000 + b'"]',  # nor after escaped quotes and backslashes
    json.dumps([_remember(i) for i in range(50)]).encode(),  # the largest batches the tools take
    json.dumps([_recall(i) for i in range(50)]).encode(),
    json.dumps({f"k{i}": 0 for i in range(MEMBERS_MAX)}).encode(),  # the most keys memvault reads
])
def test_ordinary_messages_are_under_the_count(text):
    assert not values_over(text)


def test_the_count_is_strings_and_the_marks_outside_them():
    assert not values_over(b'[1,"a,b",[],{"k":null}]', 8) and values_over(b'[1,"a,b",[],{"k":null}]', 7)
    assert values_over(b"[" + b"[]," * VALUES_MAX + b"[]]") and not values_over(b"[" + b"[]," * 4_999 + b"[]]")


def test_a_line_over_the_count_is_refused_on_stdio_before_the_sdk_reads_it():
    written: list[bytes] = []
    to_sdk: list[bytes] = []

    async def out(data: bytes) -> None:
        written.append(data)

    async def sdk(data: bytes) -> None:
        to_sdk.append(data)

    wire = Wire(out, sdk, None)
    anyio.run(wire.incoming, _shape("[]"))
    anyio.run(wire.incoming, b"[" + _shape("[]")[:-100] + b"]")  # a batch: no id to answer to
    replies = [json.loads(line) for line in written]
    assert [r["id"] for r in replies] == [1, None] and not to_sdk  # the id that leads its message
    assert all(r["error"] == {"code": -32600, "message": VALUES_REFUSAL} for r in replies)


def _cpu_s(pid: int) -> float:
    """CPU seconds (user and system, every thread) process ``pid`` has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.fixture(scope="module")
def team(tmp_path_factory):
    folder = tmp_path_factory.mktemp("values")
    reader = new_key(folder / "team.db", "acme", read_only=True)
    server = HttpServer(folder / "team.db", "--auth", "keys", "--rate-limit", "100000")
    try:
        yield server, reader
    finally:
        server.close()


def _cpu_of(server: HttpServer, key: str, body: bytes, times: int) -> tuple[float, list[httpx2.Response]]:
    """The server's CPU seconds for ``body`` POSTed ``times`` times (the least of 2 rounds: other work on
    the machine only adds), and the responses of the last round."""
    headers = {**HEADERS, "authorization": f"Bearer {key}"}
    rounds = []
    with httpx2.Client() as client:
        for _ in range(2):
            before = _cpu_s(server.proc.pid)
            replies = [client.post(server.url, content=body, headers=headers, timeout=60) for _ in range(times)]
            rounds.append(_cpu_s(server.proc.pid) - before)
    return min(rounds), replies


def _health_wait(server: HttpServer, key: str, body: bytes, times: int) -> float:
    """The longest ``/healthz`` answer (polled from another thread) while ``body`` is POSTed ``times`` times."""
    waits: list[float] = []
    done = threading.Event()

    def poll() -> None:
        with httpx2.Client() as health:
            while not done.is_set():
                started = time.monotonic()
                assert health.get(f"{server.base}/healthz", timeout=30).status_code == 200
                waits.append(time.monotonic() - started)
                time.sleep(0.005)

    poller = threading.Thread(target=poll)
    poller.start()
    time.sleep(0.1)
    headers = {**HEADERS, "authorization": f"Bearer {key}"}
    with httpx2.Client() as client:
        for _ in range(times):
            client.post(server.url, content=body, headers=headers, timeout=60)
    time.sleep(0.05)
    done.set()
    poller.join()
    return max(waits)


def test_costly_shapes_are_refused_for_the_cpu_of_an_ordinary_request_of_their_size(team):
    """Each shape sent 8 times by a read-only key costs the server at most twice what 8 pings of one
    string of the same size cost, measured in the same run (before: 22x for 85,000 [] and 30x for [[]]);
    /healthz answers meanwhile about as fast as it does beside the pings (before: up to 9.8 s)."""
    server, reader = team
    times = 8
    for name in ("ordinary", "[]"):  # warm: the first request of each path loads what later ones reuse
        _cpu_of(server, reader, _shape(name), 1)
    ordinary_s, replies = _cpu_of(server, reader, _shape("ordinary"), times)
    assert all(r.status_code == 200 and "result" in r.json() for r in replies), replies[0].text
    ordinary_wait = _health_wait(server, reader, _shape("ordinary"), times)
    tick = 1 / os.sysconf("SC_CLK_TCK")
    for name in SHAPES:
        spent, replies = _cpu_of(server, reader, _shape(name), times)
        for reply in replies:
            assert reply.status_code == 400 and reply.json()["id"] == 1
            assert reply.json()["error"] == {"code": -32600, "message": VALUES_REFUSAL + _NAMED.get(name, ""),
                                             "data": {"status": 400, "error": "invalid_request"}}
        assert spent <= 2 * ordinary_s + 2 * tick, (name, spent, ordinary_s)
        wait = _health_wait(server, reader, _shape(name), times)
        assert wait <= 3 * ordinary_wait + 0.1, (name, wait, ordinary_wait)


def test_the_largest_batches_the_tools_take_are_read(team):
    server, reader = team
    headers = {**HEADERS, "authorization": f"Bearer {reader}"}
    for batch in ([_recall(i) for i in range(50)], [_remember(i) for i in range(50)]):
        body = json.dumps(batch).encode()
        reply = httpx2.post(server.url, content=body, headers=headers, timeout=120)
        assert reply.status_code == 200, reply.text
        assert sorted(r["id"] for r in reply.json()) == list(range(50))
        assert all("result" in r for r in reply.json())  # recalled; a read-only key's remember is the tool's error
