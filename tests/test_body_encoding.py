"""Request bodies and stdio lines that are not UTF-8 (issue 25, lows): JSON is UTF-8 without a byte
order mark (RFC 8259 §8.1), and a parser MAY ignore one. A body in UTF-16 got "expected value at line
1 column 1" (a batch in UTF-16 was even served); now UTF-16 and UTF-32, with or without a byte order
mark, get -32700 naming the encoding found, invalid UTF-8 its first bad byte, and a UTF-8 byte order
mark is ignored. Over a real team server (API keys) and over real stdio."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from httpwire import HttpServer, new_key
from wire import StdioServer

from memvault.storage.store import Store
from memvault.tools import handlers

pytestmark = pytest.mark.slow
HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
# The encodings refused, as Python writes them, and how the refusal names each.
WIDE = [("utf-16", "UTF-16LE (with a byte order mark)"), ("utf-16-le", "UTF-16LE"), ("utf-16-be", "UTF-16BE"),
        ("utf-32", "UTF-32LE (with a byte order mark)"), ("utf-32-le", "UTF-32LE"), ("utf-32-be", "UTF-32BE")]
BOM_BE = {"utf-16-be": b"\xfe\xff", "utf-32-be": b"\x00\x00\xfe\xff"}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[HttpServer, Path, str, str]]:
    db = tmp_path_factory.mktemp("encoding") / "memvault.db"
    tenant = f"enc-{uuid.uuid4().hex[:6]}"
    key = new_key(db, tenant)
    server = HttpServer(db, "--auth", "keys")
    yield server, db, tenant, key
    server.close()


def _remember(content: str, request_id: int = 1) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
            "params": {"name": "remember", "arguments": {"content": content}}}


def _post(server: HttpServer, key: str, body: bytes) -> httpx2.Response:
    return httpx2.post(server.url, content=body, headers={**HEADERS, "authorization": f"Bearer {key}"}, timeout=60)


def _stored(db: Path, tenant: str) -> list[str | None]:
    store = Store(db)
    try:
        found = handlers.list_memories(store, handlers.Caller(tenant, "default"), limit=50, include_history=True)
        return sorted(m.content for m in found.memories)
    finally:
        store.close()


def _refused(response: httpx2.Response, says: str) -> None:
    assert response.status_code == 400, response.text
    reply = response.json()
    assert reply["jsonrpc"] == "2.0" and reply["id"] is None and reply["error"]["code"] == -32700, reply
    assert says in reply["error"]["message"] and "must be UTF-8 (RFC 8259" in reply["error"]["message"], reply


@pytest.mark.parametrize(("codec", "named"), WIDE + [("utf-16-be+bom", "UTF-16BE (with a byte order mark)"),
                                                    ("utf-32-be+bom", "UTF-32BE (with a byte order mark)")])
@pytest.mark.parametrize("shape", ["message", "batch", "indented"])
def test_a_body_in_utf16_or_utf32_is_a_parse_error_naming_the_encoding(served, codec, named, shape) -> None:
    server, db, tenant, key = served
    marker = uuid.uuid4().hex[:8]
    message = _remember(f"Café {marker} opens at nine; the menu is in ünïcödé.")
    text = json.dumps([message] if shape == "batch" else message, ensure_ascii=False,
                      indent=2 if shape == "indented" else None)
    if shape == "indented":
        text = "\n " + text  # white space before the first value: still found by where its NULs fall
    python_codec, _, bom = codec.partition("+")
    body = (BOM_BE[python_codec] if bom else b"") + text.encode(python_codec)
    _refused(_post(server, key, body), f"the body is {named};")
    assert not any(marker in (content or "") for content in _stored(db, tenant))


@pytest.mark.parametrize("shape", ["message", "batch"])
def test_a_body_in_utf8_with_a_byte_order_mark_is_served(served, shape) -> None:
    server, db, tenant, key = served
    marker = uuid.uuid4().hex[:8]
    message = _remember(f"The kiosk {marker} in the lobby runs the café menu.")
    body = b"\xef\xbb\xbf" + json.dumps([message] if shape == "batch" else message, ensure_ascii=False).encode()
    response = _post(server, key, body)
    assert response.status_code == 200, response.text
    reply = response.json()[0] if shape == "batch" else response.json()
    assert reply["id"] == 1 and reply["result"]["isError"] is False, reply
    assert f"The kiosk {marker} in the lobby runs the café menu." in _stored(db, tenant)


@pytest.mark.parametrize(("codec", "byte"), [("latin-1", "invalid continuation byte"), ("cp1252", "invalid"),
                                             ("shift_jis", "invalid")])
def test_a_body_in_another_single_byte_or_legacy_encoding_names_its_first_bad_byte(served, codec, byte) -> None:
    server, db, tenant, key = served
    marker = uuid.uuid4().hex[:8]
    content = f"Note {marker}: {'カフェ' if codec == 'shift_jis' else 'Café Müller'} opens at nine."
    body = json.dumps(_remember(content), ensure_ascii=False).encode(codec)
    response = _post(server, key, body)
    _refused(response, "the body is not valid UTF-8 (")
    assert byte in response.json()["error"]["message"] and " at byte " in response.json()["error"]["message"]
    assert not any(marker in (c or "") for c in _stored(db, tenant))


def test_the_server_keeps_serving_plain_utf8_after_refused_bodies(served) -> None:
    server, db, tenant, key = served
    for body in ("{}".encode("utf-16"), b"\xff\xfe\x00\x00", b"\x00{\x00}", "[]".encode("utf-32-be")):
        assert _post(server, key, body).status_code == 400
    response = _post(server, key, json.dumps(_remember("Plain UTF-8 is still served.")).encode())
    assert response.status_code == 200 and response.json()["result"]["isError"] is False
    assert "Plain UTF-8 is still served." in _stored(db, tenant)
    assert "Traceback" not in server.log()


@pytest.mark.parametrize("coding", ["gzip", "br", "deflate", "zstd", "x-gzip", "GZIP", "identity, gzip", "compress"])
@pytest.mark.parametrize("compressed", [True, False])
def test_a_body_sent_with_a_content_coding_is_refused_with_415_naming_it(served, coding, compressed) -> None:
    """memvault decodes no content coding (RFC 9110 §15.5.16): a compressed body was read as text
    ("not valid UTF-8"), a plain one labelled br was served as if the label were absent."""
    import gzip

    server, db, tenant, key = served
    marker = uuid.uuid4().hex[:8]
    body = json.dumps(_remember(f"Coded {marker} body.")).encode()
    response = httpx2.post(server.url, content=gzip.compress(body) if compressed else body, timeout=60,
                           headers={**HEADERS, "authorization": f"Bearer {key}", "content-encoding": coding})
    assert response.status_code == 415, response.text
    assert response.headers["accept-encoding"] == "identity"
    reply = response.json()
    assert reply["error"]["data"]["error"] == "unsupported_content_coding"
    named = [c.strip() for c in coding.split(",") if c.strip().lower() != "identity"]
    assert all(repr(c) in reply["error"]["message"] for c in named), reply
    assert not any(marker in (c or "") for c in _stored(db, tenant))


@pytest.mark.parametrize("coding", ["identity", "Identity", "identity, IDENTITY"])
def test_a_body_labelled_identity_is_served(served, coding) -> None:
    server, db, tenant, key = served
    content = f"Identity {uuid.uuid4().hex[:8]} body is served."
    response = httpx2.post(server.url, content=json.dumps(_remember(content)).encode(), timeout=60,
                           headers={**HEADERS, "authorization": f"Bearer {key}", "content-encoding": coding})
    assert response.status_code == 200 and response.json()["result"]["isError"] is False, response.text
    assert content in _stored(db, tenant)


# ---------------------------------------------------------------- stdio


@pytest.fixture(scope="module")
def stdio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StdioServer]:
    db = tmp_path_factory.mktemp("encoding-stdio") / "memvault.db"
    server = StdioServer(db)
    server.db = db  # type: ignore[attr-defined]
    yield server
    server.close()


def _write(server: StdioServer, data: bytes) -> None:
    assert server.proc.stdin is not None
    server.proc.stdin.buffer.write(data)
    server.proc.stdin.flush()


def _ping(request_id: int) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "ping"})


@pytest.mark.parametrize(("codec", "named"), WIDE)
def test_stdio_lines_in_utf16_or_utf32_are_parse_errors_naming_the_encoding_each_time(stdio, codec, named) -> None:
    """Two lines in the encoding, their line breaks in it too (the bytes of a UTF-16LE line break
    start the next line): each is answered naming the encoding, then UTF-8 is served again."""
    rest = {"utf-16": "utf-16-le", "utf-32": "utf-32-le"}.get(codec, codec)  # the byte order mark once
    for data in (f"{_ping(900)}\n".encode(codec), f"{_ping(901)}\n".encode(rest)):
        _write(stdio, data)  # one at a time: the helper's select() cannot see a second reply already read
        reply = stdio.receive()
        assert reply["id"] is None and reply["error"]["code"] == -32700, reply
        message = reply["error"]["message"]
        assert message.startswith("Parse error: the line is UTF-") and "must be UTF-8" in message, message
        assert message.split(";")[0].removeprefix("Parse error: the line is ").split(" (")[0] == named.split(" (")[0]
    assert stdio.request("ping") == {"jsonrpc": "2.0", "id": stdio._next, "result": {}}


def test_a_stdio_line_with_a_utf8_byte_order_mark_is_served(stdio) -> None:
    marker = uuid.uuid4().hex[:8]
    _write(stdio, b"\xef\xbb\xbf" + json.dumps(_remember(f"A BOM {marker} before the first line.", 77)).encode()
           + b"\n")
    reply = stdio.receive()
    assert reply["id"] == 77 and reply["result"]["isError"] is False, reply
    assert f"A BOM {marker} before the first line." in _stored(stdio.db, "default")  # type: ignore[attr-defined]


def test_a_stdio_line_in_latin1_names_its_first_bad_byte(stdio) -> None:
    _write(stdio, json.dumps(_remember("Café Müller", 78), ensure_ascii=False).encode("latin-1") + b"\n")
    reply = stdio.receive()
    assert reply["id"] is None and reply["error"]["code"] == -32700
    assert reply["error"]["message"].startswith("Parse error: the line is not valid UTF-8 (invalid continuation byte at")
    assert "Café" not in " ".join(c or "" for c in _stored(stdio.db, "default"))  # type: ignore[attr-defined]
